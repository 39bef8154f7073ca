"""II.E Soviet Reinforcement & Replacement Placement Phase [9.5, 9.7, 9.8, 9.10].

- Reinforcements wait in the Turn Record Track boxes, dealt there at set-up [3.2]. At II.E
  every unit in the box of this turn or an earlier one may enter; any may be delayed, unit
  by unit (they are carried forward into the next turn's box when the step ends) [9.5].
  None enters early except through the East Front Surprise [5.5].
- Places [9.5]: a red row hex, or an east-map city that began Soviet, has never been
  German-controlled, is in supply and has no German unit adjacent; or the SSWFHB "Just
  Arrived" portion [12.7] or the SAFHB [12.6]. Stacking holds. Untried units stay face
  down [2.12]; the 1st Shock Army comes face up from the turn 10 box [9.7].
- Replacements [9.10]: from turn 4, the track's number of units is drawn at random from
  the Soviet replacement pile into this turn's box as the step starts; they then enter as
  reinforcements. Only eliminated regulars (Juggernaut substitutes included) are ever in
  that pile (steps/losses.py): the Far East armies, 1st Shock and the MG go to the dead
  pile for good.
- Semi-permanent forts [9.8]: from turn 5, roll d6 - 1 as the step starts; that many
  markers (no more than the pool holds) may be built, each in a non-city USSR hex within 5
  hexes of a Soviet-controlled Moscow or Leningrad that has no German unit adjacent, with
  no German unit adjacent to the hex itself, one per hex, and a line to the city (our
  approximation, NOTES.md). A fort whose hex the Germans take goes back to the pool.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Event, Outcome
from wartable.engine.loop import roll_then
from wartable.engine.rules import Game
from wartable.games.whatif1940 import supply, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import (
    A_SSW_TURN,
    EAST,
    GERMAN,
    SAFHB,
    SOVIET,
    SOVIET_FORTS,
    SOVIET_REPLACEMENTS,
    SSWFHB_JUST_ARRIVED,
    USSR,
    V_FORTS_ALLOWED,
    trt_box,
)
from wartable.games.whatif1940.steps import control, forts, movement, stacking
from wartable.games.whatif1940.steps.offmap import MoveStep, relocate, table
from wartable.model.sequence import Position
from wartable.model.state import GameState, Piece

FORT = forts.FORT
RESUME_FORTS = "semi_permanent_forts"
LAST_TURN = 11


def waiting(state: GameState) -> list[Piece]:
    """Reinforcements that may enter now: this turn's box and earlier ones [9.5]."""
    out: list[Piece] = []
    for t in range(1, min(state.turn, LAST_TURN) + 1):
        out.extend(state.pieces_at(trt_box(t)))
    return sorted(out, key=lambda p: p.id)


def german_adjacent(game: Game, board: Board, state: GameState, label: str) -> bool:
    return any(units.is_ground(game, q) and q.side == GERMAN
               for n in board.neighbors[label] for q in state.pieces_at(n))


def entry_city(game: Game, board: Board, state: GameState, label: str, piece: Piece) -> str:
    """Why a city may not take Soviet reinforcements now ("" when it may) [9.5]."""
    h = board.hex(label)
    if h.map_id != EAST or not h.city:
        return f"{label} is not an east-map city"
    if control.initial_controller(board, state, label) != SOVIET:
        return f"{label} did not begin the game under Soviet control [9.5]"
    if control.ever_german(board, state, label):
        return f"{label} has been German-controlled [9.5]"
    if german_adjacent(game, board, state, label):
        return f"a German unit is adjacent to {label} [9.5]"
    if not supply.supplied(game, board, state, replace(piece, location=label)):
        return f"{label} is not in supply [9.5]"
    return ""


def entry_hexes(game: Game, board: Board, state: GameState, piece: Piece) -> list[str]:
    """Map hexes where a Soviet reinforcement may be placed now [9.5]."""
    out = []
    for label in board.labels(EAST):
        h = board.hex(label)
        if not h.red_row and not h.city:
            continue
        if not h.red_row and entry_city(game, board, state, label, piece):
            continue
        if movement.hostile(game, board, state, label, piece):
            continue
        if stacking.why_not(game, board, state, label, (piece,), stop=True):
            continue
        out.append(label)
    return out


def entry_places(game: Game, board: Board, state: GameState, piece: Piece) -> list[str]:
    """Boxes first (the SSWFHB Just Arrived [12.7], the SAFHB [12.6]), then hexes [9.5]."""
    return [SSWFHB_JUST_ARRIVED, SAFHB, *entry_hexes(game, board, state, piece)]


# --- semi-permanent forts [9.8] ----------------------------------------------------------

def _fort_table(game: Game) -> FrozenMap[str, Any]:
    return table(game, "semi_permanent_forts")


def forts_at(state: GameState, label: str) -> bool:
    return any(p.type == FORT for p in state.pieces_at(label))


def _line_to_city(game: Game, board: Board, state: GameState, city: str, reach: int) -> set[str]:
    """Hexes within `reach` of the city joined to it by Soviet-controlled, German-free land
    hexes (our stand-in for 9.8's supply line through the city to the red row)."""
    impassable = set(game.definition.tables["terrain_effects"]["impassable"])
    seen = {city: 0}
    frontier = [city]
    while frontier:
        nxt = []
        for here in frontier:
            if seen[here] >= reach:
                continue
            for n in board.neighbors[here]:
                if n in seen or board.hex(n).terrain in impassable:
                    continue
                if control.controller(board, state, n) != SOVIET:
                    continue
                if any(q.side == GERMAN and units.is_ground(game, q)
                       for q in state.pieces_at(n)):
                    continue
                seen[n] = seen[here] + 1
                nxt.append(n)
        frontier = nxt
    return set(seen) - {city}


def fort_hexes(game: Game, board: Board, state: GameState) -> list[str]:
    """Where a new semi-permanent fort may be built now [9.8]."""
    t = _fort_table(game)
    out: set[str] = set()
    for city in t["cities"]:
        city = str(city)
        if control.controller(board, state, city) != SOVIET:
            continue
        if german_adjacent(game, board, state, city):
            continue  # no building in this city's range at all [9.8]
        probe = next(iter(state.pieces_at(SOVIET_FORTS)), None)
        if probe is not None and not supply.supplied(game, board, state,
                                                     replace(probe, location=city)):
            continue
        out |= _line_to_city(game, board, state, city, int(t["range"]))
    ok = []
    for label in sorted(out):
        h = board.hex(label)
        if h.region != USSR or h.city or h.red_row or forts_at(state, label):
            continue
        if german_adjacent(game, board, state, label):
            continue
        ok.append(label)
    return ok


def return_lost_forts(game: Game, board: Board, state: GameState) -> Outcome:
    return forts.return_lost(game, board, state)


def resume_forts(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
                 dice: tuple[int, ...]) -> Outcome:
    n = dice[0] - 1
    pool = len(state.pieces_at(SOVIET_FORTS))
    allowed = min(n, pool)
    text = f"Fort construction: rolled {dice[0]} - 1 = {n} new forts"
    if n > pool:
        text += f"; only {pool} markers are in the pool, the rest are forfeit"
    ev = Event("roll", text + " [9.8]", SOVIET, "9.8")
    return Outcome(state.with_var(V_FORTS_ALLOWED, allowed), (ev,))


# --- the step -----------------------------------------------------------------------------

def draw_replacements(game: Game, state: GameState) -> Outcome:
    """[9.10] From turn 4, the track's number of units drawn blind from the replacement
    pile into this turn's box, to enter as reinforcements."""
    per_turn = game.definition.tables["turn_record"]["sov_replacements"]
    if state.turn > len(per_turn):
        return Outcome(state)
    n = int(per_turn[state.turn - 1])
    pool = sorted(state.pieces_at(SOVIET_REPLACEMENTS), key=lambda p: p.id)
    if n <= 0:
        return Outcome(state)
    rng = state.rng
    drawn = []
    for _ in range(min(n, len(pool))):
        i, rng = rng.below(len(pool))
        drawn.append(pool.pop(i))
    state = replace(state, rng=rng)
    for p in drawn:
        state = state.with_piece(replace(p, location=trt_box(state.turn)))
    text = (f"Soviet replacements: {len(drawn)} of {n} drawn at random from the replacement "
            f"pile; they enter as reinforcements")
    return Outcome(state, (Event("info", text, SOVIET, "9.10"),))


class SovietReinforcement(MoveStep):
    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        out = return_lost_forts(game, board, state.with_var(V_FORTS_ALLOWED, 0))
        out = out.then(draw_replacements(game, out.state))
        if state.turn >= int(_fort_table(game)["first_turn"]):
            out = out.then(roll_then(game, out.state, count=1, sides=6,
                                     purpose="Semi-permanent fort construction (d6 - 1)",
                                     side=SOVIET, resume=RESUME_FORTS, rule="9.8"))
        return out

    def exit(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        """Delayed reinforcements are carried forward to the next turn's box [9.5]."""
        events = []
        if state.turn < LAST_TURN:
            late = waiting(state)
            for p in late:
                state = state.with_piece(replace(p, location=trt_box(state.turn + 1)))
            if late:
                events.append(Event("info", f"{len(late)} Soviet reinforcements delayed to "
                                    f"turn {state.turn + 1}", SOVIET, "9.5"))
        return Outcome(state.with_var(V_FORTS_ALLOWED, 0), tuple(events))

    def movers(self, game: Game, board: Board, state: GameState, pos: Position) -> list[Piece]:
        out = waiting(state)
        if state.var(V_FORTS_ALLOWED, 0) > 0:
            out.extend(sorted(state.pieces_at(SOVIET_FORTS), key=lambda p: p.id)[:1])
        return out

    def destinations(self, game: Game, board: Board, state: GameState, pos: Position,
                     piece: Piece) -> list[str]:
        if piece.type == FORT:
            return fort_hexes(game, board, state)
        return entry_places(game, board, state, piece)

    def all_moves(self, game: Game, board: Board, state: GameState,
                  pos: Position) -> dict[str, tuple[str, ...]]:
        # Alike units have alike places: compute per kind, not per counter.
        out: dict[str, tuple[str, ...]] = {}
        shared: dict[str, tuple[str, ...]] = {}
        for p in self.movers(game, board, state, pos):
            key = p.type
            if key not in shared:
                shared[key] = tuple(self.destinations(game, board, state, pos, p))
            if shared[key]:
                out[p.id] = shared[key]
        return out

    def moved(self, game: Game, board: Board, state: GameState, pos: Position, piece: Piece,
              to: str) -> Outcome:
        if piece.type == FORT:
            left = int(state.var(V_FORTS_ALLOWED, 0)) - 1
            state = state.with_var(V_FORTS_ALLOWED, left)
            ev = Event("move", f"Soviet semi-permanent fort built at {to} ({left} more may be "
                       "built this turn)", SOVIET, "9.8")
            return Outcome(state.with_piece(replace(piece, location=to)), (ev,))
        # Entry hexes are Soviet-controlled already (red row, never-German cities). A unit
        # put into the SSWFHB has moved into a portion this turn [12.7].
        marks = {A_SSW_TURN: state.turn} if to == SSWFHB_JUST_ARRIVED else {}
        return relocate(game, state, piece, to, "9.5", **marks)

    def text(self, game: Game, board: Board, state: GameState, pos: Position) -> str:
        n = len(waiting(state))
        forts = int(state.var(V_FORTS_ALLOWED, 0))
        extra = f" {n} reinforcements wait" + (f"; {forts} forts may be built" if forts else "")
        return (pos.step.prompt or pos.step.name) + f" ({extra.strip()}; any left are delayed "\
            "to next turn.)"
