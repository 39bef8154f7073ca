"""The rules of Axis & Allies Anniversary Edition (issue 4): the turn of each power.

Order of Play (pg. 11): the sequence lists the seven phases once per power in game.toml's
side order (the 1941 order). The k-th turn of a round is played by the k-th power of the
scenario's `vars.turn_order`, so 1942 starts with Japan: `enter_step` makes that power the
active side, and every step handler reads the power from `state.active_side`.

State is described in steps/common.py. Each step kind has its module under steps/.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP, Action, Event, Outcome, Prompt
from wartable.engine.rollodds import RollNotes
from wartable.engine.rules import Game, Rules
from wartable.games.aa_anniversary import rollhint
from wartable.games.aa_anniversary.research import research_table
from wartable.games.aa_anniversary.steps import (
    battle,
    bombing,
    income,
    landing,
    mobilize,
    movement,
    objectives,
    purchase,
    straits,
)
from wartable.games.aa_anniversary.steps import research as research_step
from wartable.games.aa_anniversary.steps.battle import conclude, forces
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    capital_held,
    space_name,
    stats,
    turn_power,
    world,
)
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece

R_CAPITAL = "Capturing and Liberating Capitals (pg. 20)"
_TURN_ATTRS = ("origin", "via", "mp", "cm", "nm", "captured_aa", "landed", "unloaded", "amphibious",
               "raided", "bombarded", "assault", "mech", "para")  # mech, para: research.carriers


class AARules(Rules):
    # --- setup and sequence ----------------------------------------------------------
    def check_tables(self, game: Game) -> None:
        """Parse every table eagerly (each is otherwise read when first used): the map and
        alliances, the straits and the research chart (pg. 14-15)."""
        world(game)
        straits.straits(game)
        research_table(game)

    def setup(self, game: Game, state: GameState) -> GameState:
        """Setup (pg. 8): each power's starting IPCs; control comes from scenario vars."""
        objectives.all_objectives(game)  # a bad objectives table fails here, not mid-game
        start = state.var("starting_ipcs", FrozenMap())
        state = state.with_var("ipcs", FrozenMap({s: int(start.get(s, 0))
                                                  for s in game.definition.side_ids}))
        for k, v in (("captured", ()), ("resolved", ()), ("battle", None),
                     ("placed", FrozenMap()), ("bought_total", 0), ("lost_total", 0),
                     ("initial_units", len(state.pieces))):
            state = state.with_var(k, v)
        state = self._board_cargo(game, state)
        first = turn_power(game, state)
        return replace(state, active_side=first) if first else state

    def _board_cargo(self, game: Game, state: GameState) -> GameState:
        """Setup charts put land units in sea zones: they are aboard that power's transports."""
        for p in sorted(state.pieces.values(), key=lambda x: x.id):
            if stats(game, p).land and p.location in world(game).sea:
                t = movement.transport_for(game, state, p, p.location)
                if t is not None:
                    state = state.with_piece(p.with_attr("on", t.id))
        return state

    def condition(self, game: Game, name: str, state: GameState) -> bool:
        if name == "capital_held":
            return capital_held(game, state, turn_power(game, state))
        return super().condition(game, name, state)

    def phase_name(self, game: Game, state: GameState, pos: Position) -> str:
        """Order of Play (pg. 11): the phase named after the power that plays it in this
        scenario's order (1942: "Japan turn" first), not the 1941 order the sequence lists.
        The engine names prompts and the log's phase lines with it; the sequence panel too."""
        power = turn_power(game, state, pos.index)
        if not power or power == pos.side:
            return pos.phase.name
        return pos.phase.name.replace(game.definition.side(pos.side).name,
                                      game.definition.side(power).name)

    def enter_step(self, game: Game, state: GameState, pos: Position) -> Outcome:
        power = turn_power(game, state)
        note: tuple[Event, ...] = ()
        if power:
            state = replace(state, active_side=power)
            if power != pos.side:  # the phase is named after the 1941 order's power
                note = (Event("phase", f"{game.definition.side(power).name} plays this turn "
                              f"({state.scenario} order of play)", power, "Order of Play "
                              "(pg. 11)"),)
        return Outcome(state, note).then(self._enter(game, state, pos, power))

    def _enter(self, game: Game, state: GameState, pos: Position, power: str) -> Outcome:
        kind = pos.step.kind
        if kind == "purchase" and power == "china":
            return purchase.china_infantry(game, state)
        if kind == "combat_move":
            return Outcome(movement.start_turn(game, self._new_turn(state, power)))
        if kind == "conduct_combat":
            return Outcome(state.with_var("resolved", ()).with_var("battle", None))
        if kind == "mobilize":
            return Outcome(state.with_var("placed", FrozenMap()))
        if kind == "collect_income":
            return income.collect(game, state, power)
        if kind == "victory_check":
            return income.check(game, state)
        if kind == "research":
            return research_step.enter(game, state, power)
        return Outcome(state)

    def _new_turn(self, state: GameState, power: str) -> GameState:
        """A power's units start each turn with full movement (Combat Move, pg. 14)."""
        state = state.with_var("captured", ())
        for p in state.pieces.values():
            if p.side == power and any(k in p.attrs for k in _TURN_ATTRS):
                attrs = p.attrs
                for k in _TURN_ATTRS:
                    attrs = attrs.remove(k) if k in attrs else attrs
                state = state.with_piece(replace(p, attrs=attrs))
        return state

    def exit_step(self, game: Game, state: GameState, pos: Position) -> Outcome:
        if pos.step.kind == "conduct_combat":  # interceptors land after all the combats
            state = conclude.repair(game, state)
            return bombing.land_interceptors(game, state)
        if pos.step.kind == "noncombat_move":
            return movement.land_aircraft(game, state, state.active_side)
        if pos.step.kind == "mobilize":  # fighters waiting for a new carrier (pg. 26)
            return landing.after_mobilize(game, state, state.active_side)
        return Outcome(state)

    def can_end_step(self, game: Game, state: GameState, pos: Position) -> str | None:
        if pos.step.kind == "research":
            return research_step.can_end(state, state.active_side)
        if pos.step.kind == "combat_move":  # Transports (pg. 15): cargo loaded must assault
            return movement.combat_move_can_end(game, state, state.active_side)
        if pos.step.kind == "noncombat_move":  # carriers must move to their fighters (pg. 21)
            return movement.noncombat_can_end(game, state, state.active_side)
        if pos.step.kind == "mobilize":  # a new carrier goes where fighters wait (pg. 26)
            return landing.mobilize_can_end(game, state, state.active_side)
        if pos.step.kind == "conduct_combat":
            todo = forces.battles(game, state, state.active_side)
            if todo:
                return f"Resolve every battle first: {', '.join(todo)} [{forces.R_PHASE}]."
        return None

    # --- prompts and actions ----------------------------------------------------------
    def step_prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        power = state.active_side
        kind, text, rule = pos.step.kind, pos.step.prompt or pos.step.name, pos.step.rule
        if kind == "research":
            return research_step.prompt(game, state, power, text, rule)
        if kind == "purchase":
            return purchase.prompt(game, state, power, text, rule)
        if kind in ("combat_move", "noncombat_move"):
            return movement.prompt(game, state, power, kind == "combat_move", text, rule)
        if kind == "conduct_combat":
            return battle.prompt(game, state, power, text, rule)
        if kind == "mobilize":
            return mobilize.prompt(game, state, power, text, rule)
        return super().step_prompt(game, state, pos)

    def step_apply(self, game: Game, state: GameState, pos: Position, action: Action) -> Outcome:
        power = state.active_side
        kind = pos.step.kind
        if kind == "research":
            return research_step.apply(game, state, power, action)
        if kind == "purchase" and action.verb == "buy":
            return purchase.buy(game, state, power, action)
        if kind == "purchase" and action.verb == "repair":
            return bombing.repair(game, state, power, action)
        if kind == "conduct_combat" and action.verb == "ignore":
            if state.var("battle") or state.var("raid"):
                raise IllegalAction("Finish the battle in progress first.")
            return battle.ignore(game, state, power, action)
        if kind == "conduct_combat" and action.verb in ("raid", "no_raid", "rocket"):
            if state.var("battle") or state.var("raid"):
                raise IllegalAction("Finish the battle in progress first.")
            return {"raid": bombing.raid, "no_raid": bombing.no_raid,
                    "rocket": bombing.rocket}[action.verb](game, state, power, action)
        if kind in ("combat_move", "noncombat_move") and action.verb == "move":
            return movement.move(game, state, power, action, kind == "combat_move")
        if kind == "conduct_combat" and action.verb == "fight":
            if state.var("battle"):
                raise IllegalAction("Finish the battle in progress first.")
            return battle.fight(game, state, power, action)
        if kind == "mobilize" and action.verb == "move":
            return mobilize.place(game, state, power, action)
        return super().step_apply(game, state, pos, action)

    def frame_prompt(self, game: Game, state: GameState, frame: Frame) -> Prompt:
        if frame.kind == research_step.FRAME_CHART:
            return research_step.frame_prompt(game, state, frame)
        if frame.kind in battle.FRAMES:
            return battle.frame_prompt(game, state, frame)
        if frame.kind in ("intercept", "sbr_casualties"):
            return bombing.frame_prompt(game, state, frame)
        if frame.kind == bombing.LAND_FRAME:
            return bombing.land_prompt(game, state, frame)
        return super().frame_prompt(game, state, frame)

    def frame_apply(self, game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
        if frame.kind == research_step.FRAME_CHART:
            return research_step.frame_apply(game, state, frame, action)
        if frame.kind in battle.FRAMES:
            return battle.frame_apply(game, state, frame, action)
        if frame.kind in ("intercept", "sbr_casualties"):
            return bombing.frame_apply(game, state, frame, action)
        if frame.kind == bombing.LAND_FRAME:
            return bombing.land_apply(game, state, frame, action)
        return super().frame_apply(game, state, frame, action)

    def resume(self, game: Game, state: GameState, resume: str, data: FrozenMap[str, Any],
               dice: tuple[int, ...]) -> Outcome:
        if resume in ("aa", "strike", "round", "bombard"):
            return battle.resume(game, state, resume, dice)
        if resume in research_step.RESUMES:
            return research_step.resume(game, state, resume, data, dice)
        if resume in ("sbr_aa", "sbr_air", "sbr_damage", "rocket"):
            return bombing.resume(game, state, resume, data, dice)
        return super().resume(game, state, resume, data, dice)

    def explain_roll(self, game: Game, state: GameState, frame: Frame) -> RollNotes | None:
        lines = rollhint.explain(game, state, frame)
        return RollNotes(lines) if lines else None

    def place_name(self, game: Game, place: str) -> str:
        return space_name(game, place)

    def end_of_game(self, game: Game, state: GameState) -> str:
        return "The last round is over without a winner (How to Win)."

    # --- what the table draws and asks (issue 16) ------------------------------------------
    def cargo_attribute(self, game: Game) -> str | None:
        return "on"  # Transports (pg. 15): cargo names the transport it is aboard

    def pending_battles(self, game: Game, state: GameState) -> tuple[str, ...]:
        if not game.positions or game.position(state).step.kind not in (
                "combat_move", "conduct_combat"):
            return ()
        return forces.battles(game, state, state.active_side)

    def moved_pieces(self, game: Game, state: GameState) -> frozenset[str]:
        # "origin" is set by a unit's first move of the turn and cleared at the next turn.
        return frozenset(p.id for p in state.pieces.values()
                         if "origin" in p.attrs and p.location != MOBILIZATION)

    def placement_boxes(self, game: Game) -> tuple[str, ...]:
        return (MOBILIZATION,)  # Mobilize New Units (pg. 23)

    def would_lose(self, game: Game, state: GameState, action: Action) -> tuple[Piece, ...]:
        """Ending Noncombat Move loses the aircraft that cannot land (pg. 26); ending
        Mobilize the fighters still without a new carrier's deck."""
        if action.verb != END_STEP or state.frames or not game.positions:
            return ()
        pos = game.position(state)
        if self.can_end_step(game, state, pos) is not None:
            return ()
        power = state.active_side
        if pos.step.kind == "noncombat_move":
            after = movement.land_aircraft(game, state, power).state
        elif pos.step.kind == "mobilize":
            after = landing.after_mobilize(game, state, power).state
        else:
            return ()
        return tuple(p for p in sorted(state.pieces.values(), key=lambda x: x.id)
                     if p.side == power and p.id not in after.pieces)

    # --- random play and checks ---------------------------------------------------------
    def candidate_actions(self, game: Game, state: GameState, prompt: Prompt) -> tuple[Action, ...]:
        # Every button and move; one unit's possible moves count once so that random play
        # moves many different units rather than one unit with many destinations.
        out: list[Action] = []
        for pid, dests in sorted(prompt.moves.items()):
            d = dests[(state.serial + len(pid)) % len(dests)]
            out.append(Action.make("move", prompt.side, piece=pid, to=d))
        out.extend(Action(b.id, prompt.side, b.args) for b in prompt.buttons if b.enabled)
        return tuple(out)

    def invariants(self, game: Game, state: GameState) -> list[str]:
        problems = super().invariants(game, state)
        w = world(game)
        for power, n in state.var("ipcs", FrozenMap()).items():
            if int(n) < 0:
                problems.append(f"{power} has {n} IPCs")
        expected = int(state.var("initial_units", 0)) + int(state.var("bought_total", 0)) \
            - int(state.var("lost_total", 0))
        if len(state.pieces) != expected:
            problems.append(f"{len(state.pieces)} units on the table, {expected} expected "
                            f"(setup + bought - casualties)")
        for p in state.pieces.values():
            s = stats(game, p)
            loc = p.location
            if loc == MOBILIZATION:
                continue
            if loc in w.neutral:
                problems.append(f"{p.id} is in neutral {loc}")
            elif s.sea and loc not in w.sea:
                problems.append(f"{p.id} (sea unit) is on land at {loc}")
            elif s.land and loc not in w.land:
                t = state.pieces.get(str(p.attrs.get("on", "")))
                if t is None or t.location != loc or not stats(game, t).transport:
                    problems.append(f"{p.id} (land unit) is at sea in {loc} off any transport")
                elif movement.transport_room(game, state, t) < 0:
                    problems.append(f"{t.id} carries more than its capacity")
        return problems
