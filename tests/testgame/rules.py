"""Rules of the test game. Rule numbers S1.. are the test game's own.

S4 Movement: each unit moves once per Movement step up to its movement allowance;
    S4.2 terrain costs (data table terrain_cost), water impassable, +1 to cross a river;
    S4.3 (option "zoc") a unit entering a hex next to an enemy unit stops;
    S4.4 no hex may hold units of both sides; at most 2 units per hex.
S5 Combat: units next to an enemy hex may attack it once per Combat step, together.
    S5.2 odds modifiers, S5.3 CRT (1d6 procedure), S5.4 terrain modifiers.
    S5.5 AR/DR: the retreating side's player chooses a free adjacent hex (a frame for
    that side, even in the other side's turn); with none free the units are eliminated.
S6 Victory: eliminate every enemy unit; after the last turn the side with more
    units left wins.
S7 Fog of war (option "fog"): a side sees only the top unit of each enemy stack on the
    map (the unit with the lowest id); the top unit carries the count of those hidden.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine import procedures
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button, roll_then
from wartable.engine.paths import reachable
from wartable.engine.rules import Game, Rules
from wartable.engine.steps import FunctionFrame, ProcedureUse, RuleTable, StepHandler
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece

MAP = "skirmish/field"
STACK_LIMIT = 2
DEAD = "box:eliminated"
# The conditions of the CRT's modifiers that combat_answers computes [S5.2, S5.4].
CRT_CONDITIONS = frozenset({"odds_2_1", "odds_3_1", "odds_below_1_1", "defender_rough",
                            "across_river"})


def _rules(game: Game) -> SkirmishRules:
    rules = game.rules
    assert isinstance(rules, SkirmishRules)
    return rules


class _Move(StepHandler):
    """S4 Movement."""

    def prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        return _rules(game).move_prompt(game, state, pos)

    def apply(self, game: Game, state: GameState, pos: Position, action: Action) -> Outcome | None:
        return _rules(game).move(game, state, action) if action.verb == "move" else None


class _Combat(StepHandler):
    """S5 Combat."""

    def prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        return _rules(game).combat_prompt(game, state, pos)

    def apply(self, game: Game, state: GameState, pos: Position, action: Action) -> Outcome | None:
        return _rules(game).attack(game, state, action) if action.verb == "attack" else None


def _resolve_attack(
    game: Game, state: GameState, data: FrozenMap[str, Any], dice: tuple[int, ...]
) -> Outcome:
    return _rules(game).resolve_attack(game, state, data, dice)


def _retreat_prompt(game: Game, state: GameState, frame: Frame) -> Prompt:
    return _rules(game).retreat_prompt(game, state, frame)


def _retreat(game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
    return _rules(game).retreat(game, state, frame, action)


# Every kind the data names, with its handler (engine/steps.py): checked when the game loads.
TABLE = RuleTable(
    steps={"move": _Move(), "combat": _Combat()},
    frames={"retreat": FunctionFrame(_retreat_prompt, _retreat)},  # S5.5
    resumes={"crt": _resolve_attack},  # S5.3
    procedures={"crt": ProcedureUse(CRT_CONDITIONS, "crt")},  # S5.2, S5.4
)


class SkirmishRules(Rules):
    table = TABLE

    def __init__(self) -> None:
        self._crt: procedures.Procedure | None = None

    # --- helpers ---------------------------------------------------------------
    def crt(self, game: Game) -> procedures.Procedure:
        if self._crt is None:
            self._crt = procedures.Procedure.from_dict(game.definition.tables["crt"], "crt")
        return self._crt

    def hexmap(self, game: Game) -> Any:
        return game.maps[MAP]

    def terrain(self, game: Game, label: str) -> str:
        return str(self.hexmap(game).info(label).terrain)

    def river_between(self, game: Game, a: str, b: str) -> bool:
        return "river" in self.hexmap(game).hexside_features(a, b)

    def enemy_at(self, state: GameState, loc: str, side: str) -> bool:
        return any(p.side != side for p in state.pieces_at(loc))

    def next_to_enemy(self, game: Game, state: GameState, loc: str, side: str) -> bool:
        return any(self.enemy_at(state, n, side) for n in self.hexmap(game).neighbors(loc))

    def move_costs(self, game: Game, state: GameState, piece: Piece) -> dict[str, float]:
        """S4: every hex the piece may end its move in, with the cost to get there."""
        costs = game.definition.tables["terrain_cost"]
        hm = self.hexmap(game)

        def cost(a: str, b: str) -> float | None:
            t = self.terrain(game, b)
            if t not in costs or self.enemy_at(state, b, piece.side):
                return None
            return float(costs[t]) + (1.0 if self.river_between(game, a, b) else 0.0)

        stop = None
        if state.option("zoc", True):

            def stop(loc: str) -> bool:
                return self.next_to_enemy(game, state, loc, piece.side)

        ut = game.definition.unit_types[piece.type]
        reach = reachable(piece.location, ut.movement, hm.neighbors, cost, stop)
        return {
            loc: c
            for loc, c in reach.cost.items()
            if loc != piece.location
            and sum(1 for p in state.pieces_at(loc) if p.id != piece.id) < STACK_LIMIT
        }

    # --- sequence --------------------------------------------------------------
    def exit_step(self, game: Game, state: GameState, pos: Position) -> Outcome:
        for p in state.pieces.values():
            if "moved" in p.attrs or "attacked" in p.attrs:
                state = state.with_piece(
                    replace(p, attrs=p.attrs.remove("moved").remove("attacked"))
                )
        return Outcome(state)

    def move_prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        side = pos.side
        moves: dict[str, tuple[str, ...]] = {}
        costs: dict[str, FrozenMap[str, float]] = {}
        for p in state.pieces.values():
            if p.side == side and not p.attrs.get("moved") and p.location != DEAD:
                mc = self.move_costs(game, state, p)
                if mc:
                    moves[p.id] = tuple(sorted(mc))
                    costs[p.id] = FrozenMap(mc)
        return Prompt(
            side,
            pos.step.prompt,
            pos.step.rule,
            moves=FrozenMap(moves),
            costs=FrozenMap(costs),
            buttons=(end_step_button(),),
        )

    def combat_prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        side = pos.side
        attackers = tuple(
            sorted(
                p.id
                for p in state.pieces.values()
                if p.side == side
                and not p.attrs.get("attacked")
                and p.location != DEAD
                and self.next_to_enemy(game, state, p.location, side)
            )
        )
        targets = tuple(
            sorted(
                {
                    n
                    for pid in attackers
                    for n in self.hexmap(game).neighbors(state.piece(pid).location)
                    if self.enemy_at(state, n, side)
                }
            )
        )
        return Prompt(
            side,
            pos.step.prompt,
            pos.step.rule,
            targets=FrozenMap(attack=targets, attacker=attackers),
            buttons=(end_step_button(),),
        )

    # --- S4 movement -----------------------------------------------------------
    def move(self, game: Game, state: GameState, action: Action) -> Outcome:
        pid, to = action.args.get("piece"), action.args.get("to")
        if pid not in state.pieces:
            raise IllegalAction(f"There is no unit {pid!r}.")
        p = state.piece(pid)
        name = self.piece_name(game, p)
        if p.side != action.side:
            raise IllegalAction(f"{name} is not yours to move.")
        if p.location == DEAD:
            raise IllegalAction(f"{name} is eliminated [S5.3].")
        if p.attrs.get("moved"):
            raise IllegalAction(f"{name} has already moved this step [S4].")
        costs = self.move_costs(game, state, p)
        if to not in costs:
            raise IllegalAction(f"{name} cannot reach {to} this step [S4].")
        text = f"{name} moves {p.location} → {to} ({costs[to]:g} MP)"
        moved = replace(p, location=to, attrs=p.attrs.set("moved", True))
        # S7: under fog of war the enemy does not read where each unit went.
        private = p.side if state.option("fog", False) else ""
        return Outcome(state.with_piece(moved),
                       (Event("move", text, p.side, "S4", private_to=private),))

    # --- S5 combat -------------------------------------------------------------
    def attack(self, game: Game, state: GameState, action: Action) -> Outcome:
        target = action.args.get("target")
        ids = action.args.get("attackers", ())
        if not isinstance(target, str) or not self.enemy_at(state, target, action.side):
            raise IllegalAction(f"There is no enemy unit in {target!r} to attack [S5].")
        if not ids or not isinstance(ids, tuple):
            raise IllegalAction("Choose at least one attacking unit [S5].")
        hm = self.hexmap(game)
        for pid in ids:
            if pid not in state.pieces or state.piece(pid).side != action.side:
                raise IllegalAction(f"{pid!r} is not one of your units.")
            p = state.piece(pid)
            if p.attrs.get("attacked"):
                raise IllegalAction(f"{self.piece_name(game, p)} has already attacked [S5].")
            if target not in hm.neighbors(p.location):
                raise IllegalAction(f"{self.piece_name(game, p)} is not next to {target} [S5].")
        for pid in ids:
            p = state.piece(pid)
            state = state.with_piece(replace(p, attrs=p.attrs.set("attacked", True)))
        data = FrozenMap(target=target, attackers=tuple(ids))
        return roll_then(
            game,
            state,
            count=1,
            sides=6,
            purpose=f"Attack on {target}",
            side=action.side,
            resume="crt",
            data=data,
            rule="S5.3",
        )

    def combat_answers(
        self, game: Game, state: GameState, attackers: tuple[str, ...], target: str
    ) -> FrozenMap[str, bool]:
        ut = game.definition.unit_types
        att = sum(ut[state.piece(a).type].factors[0] for a in attackers)
        dfn = sum(ut[p.type].factors[1] for p in state.pieces_at(target))
        preds = {
            "odds_2_1": lambda: att >= 2 * dfn,
            "odds_3_1": lambda: att >= 3 * dfn,
            "odds_below_1_1": lambda: att < dfn,
            "defender_rough": lambda: self.terrain(game, target) in ("forest", "hill"),
            "across_river": lambda: all(
                self.river_between(game, state.piece(a).location, target) for a in attackers
            ),
        }
        checks = procedures.applicable_modifiers(self.crt(game), preds)
        return procedures.modifier_answers(checks, {})

    def resolve_attack(
        self, game: Game, state: GameState, data: FrozenMap[str, Any], dice: tuple[int, ...]
    ) -> Outcome:
        attackers, target = tuple(data["attackers"]), str(data["target"])
        answers = self.combat_answers(game, state, attackers, target)
        res = procedures.resolve(self.crt(game), dice, answers)
        side = state.piece(attackers[0]).side
        ev = Event("combat", f"Attack on {target}: {res.text()}", side, "S5.3")
        defenders = tuple(p.id for p in state.pieces_at(target))
        loser = {"AE": attackers, "AR": attackers, "DR": defenders, "DE": defenders}[res.result]
        if res.result in ("AE", "DE"):
            return Outcome(
                self.eliminate(state, loser), (ev,) + self.elim_events(game, state, loser)
            )
        return Outcome(state, (ev,)).then(self.start_retreat(game, state, loser))

    def eliminate(self, state: GameState, ids: tuple[str, ...]) -> GameState:
        """S5.3: eliminated units go to the Eliminated box (the dead pile)."""
        for pid in ids:
            p = state.piece(pid)
            state = state.with_piece(replace(p, location=DEAD))
        return state

    def elim_events(self, game: Game, state: GameState, ids: tuple[str, ...]) -> tuple[Event, ...]:
        return tuple(
            Event(
                "combat",
                f"{self.piece_name(game, state.piece(i))} is eliminated",
                state.piece(i).side,
                "S5.3",
            )
            for i in ids
        )

    def retreat_options(
        self, game: Game, state: GameState, ids: tuple[str, ...]
    ) -> tuple[str, ...]:
        """S5.5: adjacent hexes of passable terrain, free of enemies, within stacking,
        for the group of units (they retreat from where they stand, one hex)."""
        side = state.piece(ids[0]).side
        costs = game.definition.tables["terrain_cost"]
        froms = {state.piece(i).location for i in ids}
        common: set[str] | None = None
        for f in froms:
            opts = {
                n
                for n in self.hexmap(game).neighbors(f)
                if self.terrain(game, n) in costs
                and not self.enemy_at(state, n, side)
                and len([p for p in state.pieces_at(n) if p.id not in ids])
                + sum(1 for i in ids if state.piece(i).location == f)
                <= STACK_LIMIT
            }
            common = opts if common is None else common & opts
        return tuple(sorted(common or ()))

    def start_retreat(self, game: Game, state: GameState, ids: tuple[str, ...]) -> Outcome:
        opts = self.retreat_options(game, state, ids)
        if not opts:
            evs = (Event("combat", "No hex to retreat to: the units are eliminated", "", "S5.5"),)
            return Outcome(self.eliminate(state, ids), evs + self.elim_events(game, state, ids))
        side = state.piece(ids[0]).side
        who = game.definition.side(side).name
        frame = Frame(
            "retreat",
            side,
            f"{who}: choose the hex your units retreat to.",
            "S5.5",
            FrozenMap(units=ids, options=opts),
        )
        return Outcome(state.push_frame(frame))

    def retreat_prompt(self, game: Game, state: GameState, frame: Frame) -> Prompt:
        return Prompt(
            frame.side,
            frame.text,
            frame.rule,
            targets=FrozenMap(retreat=tuple(frame.data["options"])),
            buttons=tuple(
                Button("retreat", f"Retreat to {o}", args=FrozenMap(to=o))
                for o in frame.data["options"]
            ),
        )

    def retreat(self, game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
        to = action.args.get("to")
        if action.verb != "retreat":
            raise IllegalAction(f"'{action.verb}' does not answer: {frame.text}")
        if to not in frame.data["options"]:
            raise IllegalAction(
                f"Units may not retreat to {to!r}; choose one of "
                f"{', '.join(frame.data['options'])} [S5.5]."
            )
        _, state = state.pop_frame()
        evs = []
        for pid in frame.data["units"]:
            p = state.piece(pid)
            evs.append(
                Event(
                    "move",
                    f"{self.piece_name(game, p)} retreats {p.location} → {to}",
                    p.side,
                    "S5.5",
                )
            )
            state = state.with_piece(replace(p, location=to))
        return Outcome(state, tuple(evs))

    def candidate_actions(self, game: Game, state: GameState, prompt: Prompt) -> tuple[Action, ...]:
        out = list(super().candidate_actions(game, state, prompt))
        hm = self.hexmap(game)
        for target in prompt.targets.get("attack", ()):
            ids = tuple(
                a
                for a in prompt.targets.get("attacker", ())
                if target in hm.neighbors(state.piece(a).location)
            )
            if ids:
                out.append(Action.make("attack", prompt.side, attackers=ids, target=target))
        return tuple(out)

    # --- S7 fog of war ----------------------------------------------------------
    def hidden_information(self, game: Game, state: GameState) -> bool:
        return bool(state.option("fog", False))

    def view(self, game: Game, state: GameState, side: str | None) -> GameState:
        if side is None or not state.option("fog", False):
            return state
        pieces = dict(state.pieces)
        stacks: dict[str, list[Piece]] = {}
        for p in state.pieces.values():
            if p.side != side and p.location != DEAD:
                stacks.setdefault(p.location, []).append(p)
        for units in stacks.values():
            if len(units) > 1:
                top, *rest = sorted(units, key=lambda p: p.id)
                for p in rest:
                    del pieces[p.id]
                pieces[top.id] = top.with_attr("hidden_count", len(rest))
        return replace(state, pieces=FrozenMap(pieces))

    # --- S6 victory ------------------------------------------------------------
    def check_victory(self, game: Game, state: GameState) -> str | None:
        alive = {p.side for p in state.pieces.values() if p.location != DEAD}
        for s in game.definition.sides:
            if s.id not in alive:
                others = [o.name for o in game.definition.sides if o.id != s.id]
                return f"{' and '.join(others)} win: every {s.name} unit is eliminated [S6]."
        return None

    def end_of_game(self, game: Game, state: GameState) -> str:
        counts = {s.id: 0 for s in game.definition.sides}
        for p in state.pieces.values():
            counts[p.side] += p.location != DEAD
        best = max(counts.values())
        leaders = [game.definition.side(s).name for s, n in counts.items() if n == best]
        if len(leaders) > 1:
            return f"Draw: both sides have {best} units left [S6]."
        return f"{leaders[0]} wins with {best} units left [S6]."
