"""Set-up [3.1-3.5, 3.10], in the rulebook's order: Soviet; German west with the Dutch and
Belgians; German east (at the same time as the Anglo-French, here just before them).

The draws by lot (which Juggernauts go to the Southwest box and Leningrad, the two Arctic
regulars, the Turn Record Track piles) are made by `initial_draws` when the game starts;
the players then place the rest from their set-up pools. Stacking holds throughout [3.1].
A unit placed in this step may be placed again until the step ends; "Place the rest
automatically" finishes a step with a sensible deployment for quick games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from wartable.core.errors import DataError, IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button
from wartable.engine.rules import Game
from wartable.games.whatif1940 import units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import (
    ALLIED_POOL,
    ANGLO_FRENCH,
    BALTIC_SEA,
    BELGIUM,
    EAST,
    FRANCE,
    GERMAN,
    GERMAN_POOL,
    GREATER_GERMANY,
    GSRHB_ELIGIBLE,
    HOLLAND,
    LENINGRAD,
    LUXEMBOURG,
    NAT_BELGIAN,
    NAT_BRITISH,
    NAT_DUTCH,
    NEUTRAL_POOL,
    SAFHB,
    SOVIET,
    SOVIET_POOL,
    SOVIET_REGULARS,
    SSWFHB_JUST_ARRIVED,
    WEST,
    trt_box,
)
from wartable.games.whatif1940.steps import control, movement, stacking
from wartable.model.state import GameState, Piece

A_PLACED = "placed_in"  # the set-up step that placed the unit (it may be placed again)
AUTO = "auto_setup"

STEP_SIDE = {"setup_soviet": SOVIET, "setup_german_west": GERMAN,
             "setup_german_east": GERMAN, "setup_anglo_french": ANGLO_FRENCH}
# The pools each step must empty before it may end.
POOLS = {"setup_soviet": (SOVIET_POOL,), "setup_german_west": (GERMAN_POOL, NEUTRAL_POOL),
         "setup_german_east": (BALTIC_SEA,), "setup_anglo_french": (ALLIED_POOL,)}


# --- the draws by lot [3.2] ----------------------------------------------------------------

def _draw(state: GameState, pieces: list[Piece], n: int) -> tuple[list[Piece], GameState]:
    """n pieces drawn at random (without looking: they are face down [3.2])."""
    pool = sorted(pieces, key=lambda p: p.id)
    out = []
    rng = state.rng
    for _ in range(min(n, len(pool))):
        i, rng = rng.below(len(pool))
        out.append(pool.pop(i))
    return out, replace(state, rng=rng)


def _put(state: GameState, pieces: Iterable[Piece], location: str) -> GameState:
    for p in pieces:
        state = state.with_piece(replace(state.piece(p.id), location=location))
    return state


def initial_draws(game: Game, state: GameState) -> GameState:
    """[3.2] Three Juggernauts by lot to the Southwest box, two to Leningrad; two regulars by
    lot to the Arctic box; the rest of the regulars onto the Turn Record Track."""
    jug = list(state.pieces_at(SOVIET_POOL))
    sw, state = _draw(state, jug, 3)
    state = _put(state, sw, SSWFHB_JUST_ARRIVED)
    len_, state = _draw(state, list(state.pieces_at(SOVIET_POOL)), 2)
    state = _put(state, len_, LENINGRAD)
    arctic, state = _draw(state, list(state.pieces_at(SOVIET_REGULARS)), 2)
    state = _put(state, arctic, SAFHB)
    per_turn = game.definition.tables["turn_record"]["sov_reinf"]
    rest = list(state.pieces_at(SOVIET_REGULARS))
    if sum(per_turn) != len(rest):
        raise DataError(game.definition.id, "tables.turn_record.sov_reinf",
                        f"deals {sum(per_turn)} regulars onto the track, but the counter mix "
                        f"has {len(rest)} after the Arctic draw [3.2]")
    for turn, n in enumerate(per_turn, start=1):
        drawn, state = _draw(state, list(state.pieces_at(SOVIET_REGULARS)), int(n))
        state = _put(state, drawn, trt_box(turn))
    return state


# --- where each unit may be set up ----------------------------------------------------------

def _land(game: Game, board: Board, label: str) -> bool:
    return board.hex(label).terrain not in game.definition.tables["terrain_effects"]["impassable"]


@dataclass(frozen=True)
class Setup:
    game: Game
    board: Board

    def movable(self, state: GameState, step_id: str) -> list[Piece]:
        """Units the step places: those in its pools and those it placed already."""
        pools = set(POOLS[step_id])
        out = [p for p in state.pieces.values()
               if p.location in pools or p.attrs.get(A_PLACED) == step_id]
        return sorted(out, key=lambda p: p.id)

    def area(self, state: GameState, step_id: str, piece: Piece) -> list[str]:
        """Candidate locations before stacking [3.2-3.5, 3.10]."""
        b, g = self.board, self.game
        nat = units.nation(g, piece)
        if step_id == "setup_soviet":
            return [h for h in b.labels(EAST) if _land(g, b, h)
                    and control.initial_controller(b, state, h) == SOVIET]
        if step_id == "setup_german_west":
            if nat == NAT_DUTCH:
                return [h for h in b.labels(WEST) if b.hex(h).region == HOLLAND and _land(g, b, h)]
            if nat == NAT_BELGIAN:
                return [h for h in b.labels(WEST) if b.hex(h).region == BELGIUM
                        and (b.hex(h).town or b.hex(h).city)]
            west = [h for h in b.labels(WEST) if b.hex(h).region == GREATER_GERMANY
                    and _land(g, b, h)]
            return [*west, GSRHB_ELIGIBLE, BALTIC_SEA]
        if step_id == "setup_german_east":
            return [h for h in b.labels(EAST) if _land(g, b, h)
                    and control.initial_controller(b, state, h) == GERMAN]
        return [h for h in b.labels(WEST) if b.hex(h).region == FRANCE and _land(g, b, h)]

    def why_not(self, state: GameState, step_id: str, piece: Piece, to: str) -> str:
        """Why `piece` may not be set up at `to` now ("" when it may)."""
        g, b = self.game, self.board
        if to == piece.location:
            return f"The unit is already at {to}."
        if not b.on_map(to):
            return ""  # a box of the area: no stacking limits in boxes [7.7]
        reason = movement.area_allowed(g, b, state, piece, to)
        if reason:
            return reason + "."
        if step_id == "setup_soviet" and any(q.id != piece.id for q in state.pieces_at(to)):
            return "Juggernauts set up one per otherwise empty hex [3.2]."
        if units.nation(g, piece) == NAT_DUTCH and \
                any(q.id != piece.id and units.stacks(g, q) for q in state.pieces_at(to)):
            return "Dutch units set up no more than one per hex [3.4]."
        if movement.hostile(g, b, state, to, piece):
            return f"{to} holds enemy units."
        reason = stacking.why_not(g, b, state, to, (piece,), stop=True)
        return reason + " (stacking holds at set-up [3.1])." if reason else ""

    def destinations(self, state: GameState, step_id: str, piece: Piece,
                     ignore_here: bool = False) -> list[str]:
        """Legal places. With ignore_here: for any unit of this kind not yet on the board
        (the unit itself is left where it is and counted like any other), to share."""
        probe = replace(piece, id="", location="") if ignore_here else piece
        return [h for h in self.area(state, step_id, piece)
                if not self.why_not(state, step_id, probe, h)]

    def remaining(self, state: GameState, step_id: str) -> int:
        return sum(len(state.pieces_at(p)) for p in POOLS[step_id])

    # --- the step ---------------------------------------------------------------------------

    def prompt(self, state: GameState, step_id: str, text: str, rule: str) -> Prompt:
        side = STEP_SIDE[step_id]
        moves: dict[str, tuple[str, ...]] = {}
        shared: dict[tuple[str, str], tuple[str, ...]] = {}
        for p in self.movable(state, step_id):
            # Alike units have alike places wherever they are now (a unit never counts
            # against itself): compute once per kind, then drop the unit's own place.
            key = (p.type, p.side)
            if key not in shared:
                shared[key] = tuple(self.destinations(state, step_id, p, ignore_here=True))
            dests = tuple(h for h in shared[key] if h != p.location)
            if dests:
                moves[p.id] = dests
        left = self.remaining(state, step_id)
        reason = self.can_end(state, step_id)
        buttons = (Button(AUTO, "Place the rest automatically", rule, enabled=left > 0,
                          reason="" if left else "Every unit is placed."),
                   end_step_button(reason))
        return Prompt(side, text + (f" ({left} to place)" if left else ""), rule,
                      moves=FrozenMap(moves), buttons=buttons)

    def can_end(self, state: GameState, step_id: str) -> str | None:
        left = self.remaining(state, step_id)
        if left:
            return f"{left} units still wait in the set-up pools [3.1]."
        return None

    def place(self, state: GameState, step_id: str, action: Action,
              name: Callable[[Piece], str]) -> Outcome:
        pid, to = action.args.get("piece"), action.args.get("to")
        if not isinstance(pid, str) or pid not in state.pieces:
            raise IllegalAction(f"There is no unit {pid!r}.")
        p = state.piece(pid)
        if p.id not in {q.id for q in self.movable(state, step_id)}:
            raise IllegalAction(f"{name(p)} is not set up in this step [3.1].")
        if not isinstance(to, str) or to not in self.area(state, step_id, p):
            raise IllegalAction(f"{name(p)} may not be set up at {to!r} "
                                f"[{game_rule(step_id)}].")
        reason = self.why_not(state, step_id, p, to)
        if reason:
            raise IllegalAction(reason)
        state = state.with_piece(replace(p, location=to, attrs=p.attrs.set(A_PLACED, step_id)))
        return Outcome(state, (Event("setup", f"{name(p)} set up at {to}", p.side,
                                     game_rule(step_id), private_to=p.side),))

    def finish(self, state: GameState, step_id: str) -> GameState:
        for p in state.pieces.values():
            if A_PLACED in p.attrs:
                state = state.with_piece(replace(p, attrs=p.attrs.remove(A_PLACED)))
        return state

    # --- quick set-up --------------------------------------------------------------------

    def auto(self, state: GameState, step_id: str) -> Outcome:
        """Place every unit still in the step's pools, sensibly (deterministic)."""
        g, b = self.game, self.board
        placer = _AutoPlacer(self, step_id)
        if step_id == "setup_soviet":
            german = [h for h in b.labels(EAST)
                      if control.initial_controller(b, state, h) == GERMAN]
            # Close to the Germans, not out in the strategic depth of the red row.
            ranked = [h for h in self._ranked(state, EAST, german) if not b.hex(h).red_row]
            state = placer.spread(state, list(state.pieces_at(SOVIET_POOL)), ranked,
                                  per_hex=1)
        elif step_id == "setup_german_west":
            state = self._auto_german_west(state, placer)
        elif step_id == "setup_german_east":
            soviet = [h for h in b.labels(EAST)
                      if control.initial_controller(b, state, h) == SOVIET]
            pieces = list(state.pieces_at(BALTIC_SEA))
            pz = sorted((p for p in pieces if units.is_mech(g, p)), key=lambda p: p.id)
            inf = sorted((p for p in pieces if not units.is_mech(g, p)), key=lambda p: p.id)
            order: list[Piece] = []
            while pz or inf:  # a panzer corps and two infantry corps to each front hex
                order.extend(pz[:1] + inf[:2])
                pz, inf = pz[1:], inf[2:]
            state = placer.spread(state, order, self._ranked(state, EAST, soviet), per_hex=3)
        else:
            enemy = [h for h in b.labels(WEST) if b.hex(h).region in
                     (GREATER_GERMANY, LUXEMBOURG, BELGIUM)]
            belgium = [h for h in b.labels(WEST) if b.hex(h).region == BELGIUM]
            pieces = sorted(state.pieces_at(ALLIED_POOL), key=lambda p: p.id)
            brits = [p for p in pieces if units.nation(g, p) == NAT_BRITISH]
            others = [p for p in pieces if units.nation(g, p) != NAT_BRITISH]
            state = placer.spread(state, brits, self._ranked(state, WEST, belgium), per_hex=2)
            state = placer.spread(state, others, self._ranked(state, WEST, enemy), per_hex=2)
        left = self.remaining(state, step_id)
        text = "Set up automatically" + (f"; {left} units found no legal place" if left else "")
        return Outcome(state, (Event("setup", text, STEP_SIDE[step_id], game_rule(step_id)),))

    def _auto_german_west(self, state: GameState, placer: _AutoPlacer) -> GameState:
        g, b = self.game, self.board
        pool = sorted(state.pieces_at(GERMAN_POOL), key=lambda p: p.id)
        n_west, n_box = len(pool) * 12 // 34, len(pool) * 4 // 34  # ours: 12 / 4 / 18
        outside = [h for h in b.labels(WEST) if b.hex(h).region not in (GREATER_GERMANY, None)]
        state = placer.spread(state, pool[:n_west], self._ranked(state, WEST, outside), 1)
        state = _put(state, pool[n_west:n_west + n_box], GSRHB_ELIGIBLE)
        state = _put(state, pool[n_west + n_box:], BALTIC_SEA)
        neutrals = sorted(state.pieces_at(NEUTRAL_POOL), key=lambda p: p.id)
        germany = [h for h in b.labels(WEST) if b.hex(h).region == GREATER_GERMANY]
        dutch = [p for p in neutrals if units.nation(g, p) == NAT_DUTCH]
        belgians = [p for p in neutrals if units.nation(g, p) == NAT_BELGIAN]
        state = placer.spread(state, dutch, self._ranked(state, WEST, germany), per_hex=1)
        state = placer.spread(state, belgians, self._ranked(state, WEST, germany), per_hex=2)
        return state

    def _ranked(self, state: GameState, map_id: str, toward: list[str]) -> list[str]:
        """Hexes of a map nearest first to `toward`; forts and cities first among equals."""
        dist = self.board.distances(toward)
        b = self.board

        def key(h: str) -> tuple[int, bool, bool, str]:
            return (dist.get(h, 99), not b.hex(h).fortified, not b.hex(h).city, h)

        return sorted(b.labels(map_id), key=key)


@dataclass(frozen=True)
class _AutoPlacer:
    setup: Setup
    step_id: str

    def spread(self, state: GameState, pieces: list[Piece], ranked: list[str],
               per_hex: int) -> GameState:
        """Each unit to the first ranked legal hex holding fewer than `per_hex` of those
        placed here; a second sweep fills what the first could not."""
        placed: dict[str, int] = {}
        for cap in (per_hex, 99):
            left = []
            for p in pieces:
                p = state.piece(p.id)
                area = set(self.setup.area(state, self.step_id, p))
                for h in ranked:
                    if h in area and placed.get(h, 0) < cap and \
                            not self.setup.why_not(state, self.step_id, p, h):
                        attrs = p.attrs.set(A_PLACED, self.step_id)
                        state = state.with_piece(replace(p, location=h, attrs=attrs))
                        placed[h] = placed.get(h, 0) + 1
                        break
                else:
                    left.append(p)
            pieces = left
            if not pieces:
                break
        return state


def game_rule(step_id: str) -> str:
    return {"setup_soviet": "3.2", "setup_german_west": "3.3, 3.4",
            "setup_german_east": "3.3", "setup_anglo_french": "3.5"}[step_id]

