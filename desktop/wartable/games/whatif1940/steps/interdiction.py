"""Ground movement interdiction [8.3]: a step of the non-phasing player just before each
enemy movement phase it may hit, and the doubled costs it causes in that phase.

- Before the Soviet and the Anglo-French movement phases: the German may place any
  still-available Luftwaffe units, one per hex, in any hexes of that phase's map (red rows
  too [12.9]).
- Before the German west movement phase: the Anglo-French may do the same with unsuppressed
  Anglo-French aircraft, against German and Dutch units on the west map [8.3] (when is not
  said; the digest infers the start of the German west movement phase: ours).
- The Soviet aircraft never interdicts [8.3]; nobody interdicts the German east moves.
- Effect: for the moving side's units, every move into or out of an interdictor's hex or one
  of its six neighbours costs double (hex and hexside costs alike); overlapping zones double
  only once; retreats and advances are not movement and pay nothing [8.3].
- The aircraft has flown its mission for the game turn (V_AIR_USED) [8.3, 8.6]; the
  interdictors are removed at the end of the movement phase (movement.exit_step).

A step of its own (data/sequence.toml, kind "interdiction", the interdicting side's), so the
question is asked at the start of the phase without a frame in front of the movement step.
"""

from __future__ import annotations

from dataclasses import replace

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button
from wartable.engine.rules import Game
from wartable.games.whatif1940 import air, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.handlers import StepHandler
from wartable.games.whatif1940.ids import (
    ANGLO_FRENCH,
    EAST,
    GERMAN,
    SOVIET,
    V_INTERDICTION,
    WEST,
)
from wartable.model.sequence import Position
from wartable.model.state import GameState

KIND = "interdiction"
VERB = "interdict"

# Movement step id -> (interdicting side, the map, the side whose units are slowed) [8.3].
INTERDICTORS: dict[str, tuple[str, str, str]] = {
    "soviet_move": (GERMAN, EAST, SOVIET),
    "af_move": (GERMAN, WEST, ANGLO_FRENCH),
    "german_west_move": (ANGLO_FRENCH, WEST, GERMAN),  # German and activated Dutch units
}
# Interdiction step id (data/sequence.toml) -> the movement step it comes before.
MOVE_OF: dict[str, str] = {
    "af_interdiction": "german_west_move",
    "german_interdiction_east": "soviet_move",
    "german_interdiction_west": "af_move",
}


def placed(state: GameState) -> FrozenMap[str, str]:
    """Aircraft id -> hex of the interdictors now on the map."""
    rec: FrozenMap[str, object] = state.var(V_INTERDICTION, FrozenMap())
    at = rec.get("at", FrozenMap())
    assert isinstance(at, FrozenMap)
    return at


def zone(board: Board, state: GameState, side: str) -> frozenset[str]:
    """The hexes where `side`'s units pay double to move [8.3]: each interdictor's hex and
    its six neighbours (overlaps count once)."""
    rec: FrozenMap[str, object] = state.var(V_INTERDICTION, FrozenMap())
    if not rec or rec.get("side") != side:
        return frozenset()
    out: set[str] = set()
    for label in placed(state).values():
        out.add(label)
        out.update(board.neighbors.get(label, ()))
    return frozenset(out)


def factor(zone_: frozenset[str], a: str, b: str) -> float:
    """[8.3] The cost multiplier of one move a -> b: 2 in or out of the zone, else 1."""
    return 2.0 if zone_ and (a in zone_ or b in zone_) else 1.0


def available(game: Game, state: GameState, step_id: str) -> tuple[str, ...]:
    """Aircraft of the interdicting side that may still fly this game turn."""
    if step_id not in INTERDICTORS:
        return ()
    side, map_id, _ = INTERDICTORS[step_id]
    # [8.3] Anglo-French aircraft only if unsuppressed (air.available leaves the suppressed
    # out) and only on the west map; the Luftwaffe anywhere [8.5].
    if side == ANGLO_FRENCH and map_id != WEST:
        return ()
    gone = set(placed(state))
    return tuple(a for a in air.available(game, state, side, map_id, "attack") if a not in gone)


def free_hexes(board: Board, state: GameState, step_id: str) -> tuple[str, ...]:
    """Hexes of the phase's map without an interdictor (one per hex) [8.3, 12.9]."""
    _, map_id, _ = INTERDICTORS[step_id]
    taken = set(placed(state).values())
    return tuple(h for h in board.labels(map_id) if h not in taken)


def clear(state: GameState) -> GameState:
    """[8.3] Interdictors are removed at the end of the movement phase."""
    if V_INTERDICTION in state.vars:
        state = replace(state, vars=state.vars.remove(V_INTERDICTION))
    return state


def place(game: Game, board: Board, state: GameState, step_id: str, aircraft: str,
          label: str) -> Outcome:
    side, map_id, slowed = INTERDICTORS[step_id]
    if aircraft not in available(game, state, step_id):
        raise IllegalAction("That aircraft may not interdict now: it has flown this game "
                            "turn, is suppressed, or is not yours [8.3, 8.6].")
    if board.map_of(label) != map_id:
        raise IllegalAction("Interdict hexes of this movement phase's map [8.3, 8.5].")
    if label in placed(state).values():
        raise IllegalAction("No more than one interdicting aircraft per hex [8.3].")
    rec: FrozenMap[str, object] = state.var(V_INTERDICTION, FrozenMap(side=slowed))
    state = state.with_var(V_INTERDICTION, rec.set("at", placed(state).set(aircraft, label)))
    state = air.mark_used(state, (aircraft,))
    name = str(state.piece(aircraft).attrs.get("name", aircraft))
    ev = Event("info", f"{name} interdicts around {label}: movement costs double in and out "
               "of that hex and its neighbours this phase", side, "8.3")
    return Outcome(state, (ev,))


class Interdiction(StepHandler):
    """The interdiction step before an enemy movement phase [8.3]."""

    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        move = MOVE_OF[pos.step.id]
        _, _, slowed = INTERDICTORS[move]
        state = state.with_var(V_INTERDICTION, FrozenMap(side=slowed, at=FrozenMap()))
        if not available(game, state, move):
            who = game.definition.side(pos.side).name
            ev = Event("info", f"{who}: no aircraft may interdict now", pos.side, "8.3")
            return Outcome(state, (ev,), auto_end=True)
        return Outcome(state)

    def prompt(self, game: Game, board: Board, state: GameState, pos: Position) -> Prompt:
        move = MOVE_OF[pos.step.id]
        ready = available(game, state, move)
        hexes = free_hexes(board, state, move)
        n = len(placed(state))
        text = ((pos.step.prompt or pos.step.name) + " Place aircraft, one per hex: moving "
                "into or out of that hex and its six neighbours costs the enemy double in the "
                f"coming movement phase; each is out for the game turn ({n} placed) [8.3].")
        return Prompt(pos.side, text, pos.step.rule, moves=FrozenMap({a: hexes for a in ready}),
                      targets=FrozenMap({VERB: hexes if ready else ()}),
                      buttons=(end_step_button(),))

    def apply(self, game: Game, board: Board, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        if action.verb not in (VERB, "move"):
            return None
        if action.side != pos.side:
            raise IllegalAction("Only the non-phasing player interdicts [8.3].")
        aircraft, to = action.args.get("piece"), action.args.get("to")
        if not isinstance(aircraft, str) or not isinstance(to, str):
            raise IllegalAction("Name the aircraft (piece) and the hex (to) [8.3].")
        return place(game, board, state, MOVE_OF[pos.step.id], aircraft, to)

    def candidates(self, game: Game, board: Board, state: GameState, pos: Position,
                   prompt: Prompt) -> tuple[Action, ...]:
        """Random play: end the step, or the first ready aircraft over one of a few hexes
        holding the moving side's units."""
        move = MOVE_OF[pos.step.id]
        _, map_id, slowed = INTERDICTORS[move]
        out = [Action.make("end_step", pos.side)]
        ready = available(game, state, move)
        if ready:
            taken = set(placed(state).values())
            hexes = sorted({p.location for p in state.pieces.values()
                            if p.side == slowed and board.map_of(p.location) == map_id
                            and units.is_ground(game, p) and p.location not in taken})
            out.extend(Action.make(VERB, pos.side, piece=ready[0], to=h) for h in hexes[:3])
        return tuple(out)
