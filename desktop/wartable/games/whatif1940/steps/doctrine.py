"""III.A Anglo-French Armor Doctrine Phase, from turn 2, at the start of the player turn:

1. The Ardennes roll [10.10]: a 1 opens the Ardennes (forest for the rest of the game).
2. The tank corps rolls [9.2]: one die for the British Army and one for the French until
   each has its tank corps; a 1 brings it (a 1 or 2 on the turns after the other army's
   corps entered). The corps is drawn blind from its three variants [9.3], and the
   Anglo-French player places it, face up at two steps, in any Anglo-French supply source
   hex [6.4]: 1700-1011 on the west map.
3. The 1st Allied Tank Army roll [9.4]: when both top-rung corps are on the map, in supply
   and at two steps, a 1 forms the Army (from then on they stack, move and attack together
   as one nationality: steps/stacking.py).

The rolls come one after another through the engine's dice (physical dice work); the
placement is a frame asking the Anglo-French player for the hex.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Event, Outcome, Prompt
from wartable.engine.loop import roll_then
from wartable.engine.rules import Game
from wartable.games.whatif1940 import supply, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.handlers import FrameHandler, StepHandler
from wartable.games.whatif1940.ids import A_STEP, ANGLO_FRENCH, V_ARDENNES_OPEN
from wartable.games.whatif1940.steps import stacking
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece

RESUME = "ardennes"
RESUME_TANK = "tank_corps_roll"
RESUME_ARMY = "tank_army_roll"
F_PLACE = "place_tank_corps"
VERB_PLACE = "place_tank_corps"
TANK_POOL = "box:allied_tank_pool"
V_TANK_ENTERED = "tank_corps_entered"  # army ("british" | "french") -> game turn it entered
V_TANK_ARMY = "tank_army_formed"  # read by steps/stacking.py [9.4]
ARMIES = {"british": ("brit_tank_top", "brit_tank_inferior", "brit_tank_stillborn"),
          "french": ("fr_tank_top", "fr_tank_inferior", "fr_tank_stillborn")}
ARMY_NAMES = {"british": "British Army (1st Tank Corps)",
              "french": "French Army (21st Tank Corps)"}
ORDER = ("ardennes", "british", "french", "army")


def entered(state: GameState) -> FrozenMap[str, int]:
    value: FrozenMap[str, int] = state.var(V_TANK_ENTERED, FrozenMap())
    return value


def target(state: GameState, army: str) -> int:
    """[9.2] The roll needed: a 1, or 1-2 on game turns after the other army's corps
    entered."""
    other = "french" if army == "british" else "british"
    when = entered(state).get(other)
    return 2 if when is not None and when < state.turn else 1


def _army_ready(game: Game, board: Board, state: GameState) -> bool:
    """[9.4] Both top-rung corps on the map, in supply, at two steps; not formed yet."""
    if state.var(V_TANK_ARMY, False):
        return False
    tops = [p for p in state.pieces.values()
            if p.type in ("brit_tank_top", "fr_tank_top") and not p.location.startswith("box:")]
    return len(tops) == 2 and all(
        p.attrs.get(A_STEP) != 2 and supply.supplied(game, board, state, p) for p in tops)


def _next(game: Game, board: Board, state: GameState, after: str) -> Outcome:
    """The next roll of the phase after `after` ("" = the start), or nothing left."""
    for stage in ORDER[ORDER.index(after) + 1 if after else 0:]:
        if stage == "ardennes" and not state.var(V_ARDENNES_OPEN, False):
            return roll_then(game, state, count=1, sides=6, purpose="Ardennes roll",
                             side=ANGLO_FRENCH, resume=RESUME, rule="10.10")
        if stage in ARMIES and stage not in entered(state):
            need = target(state, stage)
            return roll_then(game, state, count=1, sides=6,
                             purpose=f"{ARMY_NAMES[stage]} tank corps roll (needs "
                                     f"{'a 1' if need == 1 else '1-2'})",
                             side=ANGLO_FRENCH, resume=RESUME_TANK,
                             data=FrozenMap(army=stage, need=need), rule="9.2")
        if stage == "army" and _army_ready(game, board, state):
            return roll_then(game, state, count=1, sides=6, purpose="1st Allied Tank Army roll",
                             side=ANGLO_FRENCH, resume=RESUME_ARMY, rule="9.4")
    return Outcome(state)


def resume_ardennes(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
                    dice: tuple[int, ...]) -> Outcome:
    if dice[0] == 1:
        ev = Event("info", "The Ardennes are open: forest for the rest of the game",
                   ANGLO_FRENCH, "10.10")
        state = state.with_var(V_ARDENNES_OPEN, True)
    else:
        ev = Event("info", "The Ardennes stay closed", ANGLO_FRENCH, "10.10")
    return Outcome(state, (ev,)).then(_next(game, board, state, "ardennes"))


def resume_tank(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
                dice: tuple[int, ...]) -> Outcome:
    army, need = str(data["army"]), int(data["need"])
    if dice[0] > need:
        ev = Event("info", f"{ARMY_NAMES[army]}: rolled {dice[0]}, no tank corps this turn",
                   ANGLO_FRENCH, "9.2")
        return Outcome(state, (ev,)).then(_next(game, board, state, army))
    # [9.2, 9.3] Drawn blind: one of the army's three variants, by the game's dice.
    pool = sorted((p for p in state.pieces_at(TANK_POOL) if p.type in ARMIES[army]),
                  key=lambda p: p.id)
    i, rng = state.rng.below(len(pool))
    state = replace(state, rng=rng)
    drawn = pool[i]
    state = state.with_var(V_TANK_ENTERED, entered(state).set(army, state.turn))
    ev = Event("info", f"{ARMY_NAMES[army]}: rolled {dice[0]}; the tank corps forms as the "
               f"{game.definition.unit_types[drawn.type].name} (drawn blind)", ANGLO_FRENCH,
               "9.2, 9.3")
    frame = Frame(F_PLACE, ANGLO_FRENCH,
                  f"Place the {game.definition.unit_types[drawn.type].name} at two steps in "
                  "an Anglo-French supply source hex (1700-1011).", "9.2, 6.4",
                  FrozenMap(piece=drawn.id, army=army))
    return Outcome(state.push_frame(frame), (ev,))


def resume_army(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
                dice: tuple[int, ...]) -> Outcome:
    if dice[0] == 1:
        state = state.with_var(V_TANK_ARMY, True)
        ev = Event("info", "The 1st Allied Tank Army is formed: the two tank corps may now "
                   "stack, move and attack together", ANGLO_FRENCH, "9.4")
    else:
        ev = Event("info", f"1st Allied Tank Army roll {dice[0]}: not formed", ANGLO_FRENCH,
                   "9.4")
    return Outcome(state, (ev,))


def places(game: Game, board: Board, state: GameState, piece: Piece) -> tuple[str, ...]:
    """[9.2, 6.4, 7.4] Supply source hexes free of enemy units where it may stack."""
    out = []
    for h in supply.static(game, board).cfg.allied_sources:
        if any(p.side != ANGLO_FRENCH for p in state.pieces_at(h)):
            continue
        if stacking.can_enter(game, board, state, h, [piece], True):
            out.append(h)
    return tuple(out)


class ArmorDoctrine(StepHandler):
    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        return _next(game, board, state, "")


class PlaceTankCorps(FrameHandler):
    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        pid = str(frame.data["piece"])
        return Prompt(frame.side, frame.text, frame.rule,
                      moves=FrozenMap({pid: places(game, board, state, state.piece(pid))}))

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        pid = str(frame.data["piece"])
        if action.verb not in ("move", VERB_PLACE) or action.side != frame.side \
                or action.args.get("piece", pid) != pid:
            raise IllegalAction(f"Place the new tank corps first [9.2]: {frame.text}")
        to = str(action.args.get("to", ""))
        piece = state.piece(pid)
        if to not in places(game, board, state, piece):
            raise IllegalAction(f"{to or 'That'} is not an Anglo-French supply source hex "
                                "free for it (1700-1011) [9.2, 6.4].")
        _, state = state.pop_frame()
        attrs = piece.attrs.remove(A_STEP) if A_STEP in piece.attrs else piece.attrs
        state = state.with_piece(replace(piece, location=to, attrs=attrs))
        ev = Event("move", f"{units.nation(game, piece).title()} tank corps enters at {to} "
                   "at two steps", ANGLO_FRENCH, "9.2")
        return Outcome(state, (ev,)).then(_next(game, board, state, str(frame.data["army"])))


HANDLER = ArmorDoctrine()
PLACE = PlaceTankCorps()
