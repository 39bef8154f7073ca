"""East Front Surprise [5.5]: at the very start of I.D on turn 1 the German rolls once per
game on the EFST and everyone carries out the result at once. A Soviet redeployment
(inside the USSR, Estonia and Latvia) and/or reinforcements from the June pile (entered
untried, by the places of 9.5) are made by the Soviet player before the German goes on:
a frame interrupts the German turn. "Ignore rivers" sets V_IGNORE_RIVERS_T1: Soviet
defenders get no river benefit on turn 1 (German defenders in the Soviet turn keep
theirs). The table and its counts are ours (data/fronts.toml, provisional)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine import procflow
from wartable.engine.actions import END_STEP, Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import end_step
from wartable.engine.rules import Game
from wartable.games.whatif1940 import units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.handlers import FrameHandler, StepHandler
from wartable.games.whatif1940.ids import (
    EAST,
    ESTONIA,
    GERMAN,
    LATVIA,
    SOVIET,
    USSR,
    V_EFST,
    V_IGNORE_RIVERS_T1,
    trt_box,
)
from wartable.games.whatif1940.steps import control, movement, reinforce, stacking
from wartable.games.whatif1940.steps.offmap import procedure, relocate, sampled, table
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece

TABLE = "east_front_surprise"
RESUME = "east_front_surprise"
FRAME = "efst_soviet"
DONE = "efst_done"
REGIONS = (USSR, ESTONIA, LATVIA)
JUNE = trt_box(1)


class EastFrontSurprise(StepHandler):
    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        if state.var(V_EFST) is not None:
            return Outcome(state, auto_end=True)  # never more than once a game [5.5]
        proc = procedure(game, TABLE, ())
        out = procflow.run_procedure(game, state, proc, {}, side=GERMAN,
                                     purpose="East Front Surprise Table", resume=RESUME)
        # Rolled and nothing for the Soviet to do: the German goes straight on with I.D.
        return out if out.state.frames else replace(out, auto_end=True)


def resume(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
           dice: tuple[int, ...]) -> Outcome:
    proc = procedure(game, TABLE, ())
    res = procflow.resolution(proc, data, dice)
    note = " (provisional table)" if proc.provisional else ""
    events = [Event("roll", f"East Front Surprise Table{note}: {res.text()}", GERMAN, "5.5")]
    effect = table(game, "efst_effects")[res.result]
    state = state.with_var(V_EFST, res.result)
    if effect["ignore_rivers"]:
        state = state.with_var(V_IGNORE_RIVERS_T1, True)
        events.append(Event("info", "The Germans ignore rivers this turn: Soviet units get "
                            "no defensive benefit from them on turn 1", GERMAN, "5.5"))
    redeploy, reinf = int(effect["redeploy"]), int(effect["reinforce"])
    if redeploy or reinf:
        frame = Frame(FRAME, SOVIET, _frame_text(redeploy, reinf), "5.5",
                      FrozenMap(redeploy=redeploy, reinforce=reinf, moved=()))
        state = state.push_frame(frame)
    return Outcome(state, tuple(events))


def _frame_text(redeploy: int, reinforce: int) -> str:
    parts = []
    if redeploy:
        parts.append(f"redeploy up to {redeploy} units inside the USSR, Estonia and Latvia")
    if reinforce:
        parts.append(f"place up to {reinforce} June reinforcements (by 9.5)")
    return "East Front Surprise: " + " and ".join(parts) + ", then press Done."


def _redeployers(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any]
                 ) -> list[Piece]:
    if int(data["redeploy"]) <= 0:
        return []
    moved = set(data["moved"])
    return sorted((p for p in state.pieces.values()
                   if p.side == SOVIET and board.on_map(p.location) and p.id not in moved
                   and units.stacks(game, p) and board.hex(p.location).region in REGIONS),
                  key=lambda p: p.id)


def redeploy_hexes(game: Game, board: Board, state: GameState, piece: Piece) -> list[str]:
    """Soviet-controlled land hexes of the USSR, Estonia and Latvia, free of Germans, with
    room; not the red row (on-map units never go back to it [12.9])."""
    impassable = set(game.definition.tables["terrain_effects"]["impassable"])
    out = []
    for label in board.labels(EAST):
        h = board.hex(label)
        if h.region not in REGIONS or h.red_row or h.terrain in impassable:
            continue
        if label == piece.location or control.controller(board, state, label) != SOVIET:
            continue
        if movement.hostile(game, board, state, label, piece):
            continue
        if stacking.why_not(game, board, state, label, (piece,), stop=True):
            continue
        out.append(label)
    return out


def _finish(game: Game, state: GameState) -> Outcome:
    """The Soviet is done: the German goes on with I.D at once [5.5]."""
    ev = Event("info", "The Soviet surprise moves are done; the German turn goes on",
               SOVIET, "5.5")
    return Outcome(state, (ev,)).then(end_step(game, state))


class EfstFrame(FrameHandler):
    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        moves: dict[str, tuple[str, ...]] = {}
        movers = _redeployers(game, board, state, frame.data)
        if movers:  # alike armies have alike places: compute once, drop each one's own hex
            probe = replace(movers[0], id="", location="")
            shared = tuple(redeploy_hexes(game, board, state, probe))
            for p in movers:
                dests = tuple(h for h in shared if h != p.location)
                if dests:
                    moves[p.id] = dests
        if int(frame.data["reinforce"]) > 0:
            june = sorted(state.pieces_at(JUNE), key=lambda p: p.id)
            if june:
                dests = tuple(reinforce.entry_hexes(game, board, state, june[0]))
                for p in june:
                    if dests:
                        moves[p.id] = dests
        done = Button(DONE, "Done", "5.5")
        return Prompt(SOVIET, frame.text, "5.5", moves=FrozenMap(moves), buttons=(done,))

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        if action.verb in (DONE, END_STEP):  # End step also closes the surprise moves
            _, state = state.pop_frame()
            return _finish(game, state)
        if action.verb != "move":
            raise IllegalAction(f"Answer first: {frame.text}")
        pid, to = action.args.get("piece"), action.args.get("to")
        if not isinstance(pid, str) or pid not in state.pieces or not isinstance(to, str):
            raise IllegalAction("Name a unit and a hex.")
        p = state.piece(pid)
        data = frame.data
        if p.location == JUNE and int(data["reinforce"]) > 0:
            if to not in reinforce.entry_hexes(game, board, state, p):
                raise IllegalAction(f"A June reinforcement may not enter at {to} [5.5, 9.5].")
            data = data.set("reinforce", int(data["reinforce"]) - 1)
            out = relocate(game, state, p, to, "5.5")
        elif p.id in {q.id for q in _redeployers(game, board, state, data)}:
            if to not in redeploy_hexes(game, board, state, p):
                raise IllegalAction(f"The redeployment stays inside the USSR, Estonia and "
                                    f"Latvia, in Soviet hexes with room: not {to} [5.5].")
            data = data.set("redeploy", int(data["redeploy"]) - 1)
            data = data.set("moved", (*data["moved"], p.id))
            out = relocate(game, state, p, to, "5.5")
        else:
            raise IllegalAction("That unit may not move in the surprise phase [5.5].")
        _, st = out.state.pop_frame()
        if int(data["redeploy"]) <= 0 and int(data["reinforce"]) <= 0:
            return Outcome(st, out.events).then(_finish(game, st))
        nf = Frame(frame.kind, frame.side, _frame_text(int(data["redeploy"]),
                                                       int(data["reinforce"])), frame.rule, data)
        return Outcome(st.push_frame(nf), out.events)

    def candidates(self, game: Game, board: Board, state: GameState, frame: Frame,
                   prompt: Prompt) -> tuple[Action, ...] | None:
        return sampled(prompt, 4)
