"""The rules of Axis & Allies Anniversary Edition (issue 4): the turn of each power.

Order of Play (pg. 11): the sequence lists the seven phases once per power in game.toml's
side order (the 1941 order). The k-th turn of a round is played by the k-th power of the
scenario's `vars.turn_order`, so 1942 starts with Japan: `enter_step` makes that power the
active side, and every step handler reads the power from `state.active_side`.

State is described in steps/common.py. Each step kind has its module under steps/, plugged
into the engine through the rule table of handlers.py.
"""

from __future__ import annotations

from dataclasses import replace

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP, Action, Event, Outcome, Prompt
from wartable.engine.rollodds import RollNotes
from wartable.engine.rules import Game, Rules
from wartable.games.aa_anniversary import rollhint
from wartable.games.aa_anniversary.handlers import TABLE
from wartable.games.aa_anniversary.research import research_table
from wartable.games.aa_anniversary.steps import landing, movement, objectives, straits
from wartable.games.aa_anniversary.steps.battle import forces
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    space_name,
    stats,
    turn_power,
    world,
)
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece

R_CAPITAL = "Capturing and Liberating Capitals (pg. 20)"


class AARules(Rules):
    table = TABLE  # each step, frame and dice kind's handler (handlers.py)
    dice_summed = False  # each die hits on its own (General Combat, pg. 18): no totals

    # --- setup and sequence ----------------------------------------------------------
    def check_tables(self, game: Game) -> None:
        """Parse every table eagerly (each is otherwise read when first used): the map and
        alliances, the straits, the research chart (pg. 14-15) and the national objectives;
        each is held with the game (Game.derived)."""
        world(game)
        straits.straits(game)
        research_table(game)
        objectives.all_objectives(game)

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
        return Outcome(state, note).then(super().enter_step(game, state, pos))

    def describe_action(self, game: Game, state: GameState, action: Action) -> str:
        """Purchases by the unit's name ("Buy Tank"), battles by the space's (pg. 13, 17)."""
        a = action.args
        if action.verb == "buy" and a.get("unit"):
            ut = game.definition.unit_types.get(str(a.get("unit")))
            return f"Buy {ut.name if ut else a.get('unit')}"
        if action.verb == "fight" and a.get("space"):
            return f"Fight the battle in {self.place_name(game, str(a.get('space')))}"
        return super().describe_action(game, state, action)

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
