"""II.C Soviet Grand-Strategy Phase: the off-map fronts [12.4-12.8].

C.1 Far East [12.5]: 1-3 armies may go from the SFEHB to this turn's TRT box (they enter
    at II.E as reinforcements); any transfer forces a JIFET roll. Japan at war freezes the
    armies left in the box and gives the MFT its anti-Soviet DRM. The box is never
    reinforced.
C.2 Arctic [12.6]: armies go out of the SAFHB (to this turn's TRT box) or into it (from
    this turn's TRT box), one direction per turn; then, with 2 or fewer armies in the box,
    an FJWT roll. Finland at war freezes the box and gives the MFT its pro-German DRM.
C.3 Southwest [12.7, 12.8]: Just Arrived -> Eligible to Leave -> In Romania (or back to
    this turn's TRT box, to enter as a reinforcement); no unit moves into more than one
    portion in a Soviet player turn. The first Soviet entry into Romania in a war lets the
    German react at once from the GSRHB [12.4] (a frame). With Germans there, the Soviets
    must attack, once a turn: one prepared assault in clear terrain, both sides supplied,
    a DR becomes AS [12.8], resolved on the combat part's CRT (steps/combat_table.py).
    A C.3 that ends with only Soviets In Romania takes Ploesti for good [6.10]; one that
    ends with nobody or only Germans there ends the war (a new one brings a new reaction).

The tables (JIFET, FJWT) are ours: data/fronts.toml, provisional.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine import procflow
from wartable.engine.actions import END_STEP, Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import roll_then
from wartable.engine.odds import OddsResult, Shift
from wartable.engine.rules import Game
from wartable.games.whatif1940 import hidden, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.handlers import FrameHandler
from wartable.games.whatif1940.ids import (
    A_GSRHB_TURN,
    A_SSW_TURN,
    A_STEP,
    GERMAN,
    GSRHB_ELIGIBLE,
    SAFHB,
    SFEHB,
    SOVIET,
    SSWFHB_ELIGIBLE,
    SSWFHB_JUST_ARRIVED,
    SSWFHB_ROMANIA,
    V_FINLAND,
    V_FRONT,
    V_JAPAN,
    V_PLOESTI,
    V_ROMANIA_WAR,
    trt_box,
)
from wartable.games.whatif1940.steps import combat_odds, combat_table, losses
from wartable.games.whatif1940.steps.offmap import (
    MoveStep,
    memo,
    name,
    procedure,
    relocate,
    remember,
    sampled,
)
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece

ATTACK = "attack_romania"
RESUME_JIFET = "japan_invades"
RESUME_FJWT = "finland_joins"
RESUME_ROMANIA = "romania_combat"
REACTION = "romania_reaction"
LOSS = "romania_loss"
BB_COUNT = "romania_bloodbath"
DONE = "done"
SEVENTH = "ger_7th_flieger"
INFANTRY = ("ger_infantry", "ger_mountain")
SHOCK = "sov_1st_shock"


def armies(game: Game, state: GameState, location: str, side: str = SOVIET) -> list[Piece]:
    return sorted((p for p in state.pieces_at(location)
                   if p.side == side and units.is_ground(game, p)), key=lambda p: p.id)


# --- C.1 Far East [12.5] -------------------------------------------------------------------

class FarEast(MoveStep):
    """Transfers are moves to this turn's TRT box; ending the step with any made rolls the
    JIFET (the transfer decision is then made) [12.5]."""

    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        state = remember(state.with_var(V_FRONT, FrozenMap()), moved=0)
        if state.var(V_JAPAN, False):
            ev = Event("info", "Japan is at war: the Far East armies left are frozen", SOVIET,
                       "12.5")
            return Outcome(state, (ev,), auto_end=True)
        if not armies(game, state, SFEHB):
            return Outcome(state, auto_end=True)
        return Outcome(state)

    def movers(self, game: Game, board: Board, state: GameState, pos: Position) -> list[Piece]:
        if state.var(V_JAPAN, False):
            return []
        return armies(game, state, SFEHB)

    def destinations(self, game: Game, board: Board, state: GameState, pos: Position,
                     piece: Piece) -> list[str]:
        return [trt_box(state.turn)]

    def moved(self, game: Game, board: Board, state: GameState, pos: Position, piece: Piece,
              to: str) -> Outcome:
        out = relocate(game, state, piece, to, "12.5")
        return Outcome(remember(out.state, moved=int(memo(state).get("moved", 0)) + 1),
                       out.events)

    def text(self, game: Game, board: Board, state: GameState, pos: Position) -> str:
        return ("Far East [12.5]: move 1-3 armies to this turn's Turn Record Track box to "
                "enter at II.E, or none. Ending the step after a transfer rolls on the Japan "
                "Invades Far East Table (provisional).")

    def exit(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        n = int(memo(state).get("moved", 0))
        if not n:
            return Outcome(state)
        proc = procedure(game, RESUME_JIFET, ("far_east_transferred",))
        return procflow.run_procedure(game, state, proc, {"far_east_transferred": lambda: n},
                                      side=SOVIET, purpose="Japan Invades Far East Table",
                                      resume=RESUME_JIFET)


def resume_jifet(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
                 dice: tuple[int, ...]) -> Outcome:
    proc = procedure(game, RESUME_JIFET, ("far_east_transferred",))
    res = procflow.resolution(proc, data, dice)
    events = [Event("roll", f"JIFET (provisional table): {res.text()}", SOVIET, "12.5")]
    if res.result == "japan_enters":
        state = state.with_var(V_JAPAN, True)
        left = len(armies(game, state, SFEHB))
        events.append(Event("info", f"Japan is at war for good: {left} Far East armies are "
                            "frozen in their box; the Moscow Falls Table gains its anti-Soviet "
                            "modifier", SOVIET, "12.5"))
    return Outcome(state, tuple(events))


# --- C.2 Arctic [12.6] -----------------------------------------------------------------------

class Arctic(MoveStep):
    """Moves out of the SAFHB (to this turn's TRT box) or into it (from that box), one way
    a turn; ending the step is the decision, and with 2 or fewer armies left in the box
    it rolls the FJWT [12.6]."""

    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        return Outcome(remember(state.with_var(V_FRONT, FrozenMap()), way=""))

    def movers(self, game: Game, board: Board, state: GameState, pos: Position) -> list[Piece]:
        way = memo(state).get("way")
        out = []
        if way != "in" and not state.var(V_FINLAND, False):
            out.extend(armies(game, state, SAFHB))  # frozen once Finland is in [12.6]
        if way != "out":
            out.extend(p for p in armies(game, state, trt_box(state.turn))
                       if not units.is_static(game, p))
        return out

    def destinations(self, game: Game, board: Board, state: GameState, pos: Position,
                     piece: Piece) -> list[str]:
        return [trt_box(state.turn)] if piece.location == SAFHB else [SAFHB]

    def moved(self, game: Game, board: Board, state: GameState, pos: Position, piece: Piece,
              to: str) -> Outcome:
        out = relocate(game, state, piece, to, "12.6")  # untried stay untried [12.6, 2.12]
        return Outcome(remember(out.state, way="in" if to == SAFHB else "out"), out.events)

    def text(self, game: Game, board: Board, state: GameState, pos: Position) -> str:
        n = len(armies(game, state, SAFHB))
        text = (f"Arctic [12.6]: {n} armies in the Arctic box. Move armies out (to this "
                "turn's Turn Record Track box) or in (from it), one way this turn, or leave "
                "it.")
        if not state.var(V_FINLAND, False):
            text += (" Ending the step with 2 or fewer there rolls on the Finland Joins the "
                     "War Table (provisional).")
        return text

    def exit(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        n = len(armies(game, state, SAFHB))
        if state.var(V_FINLAND, False) or n > 2:
            return Outcome(state)  # 3 or more armies: no chance of Finnish entry [12.6]
        short = 3 - n
        proc = procedure(game, RESUME_FJWT, ("arctic_shortfall",))
        return procflow.run_procedure(game, state, proc, {"arctic_shortfall": lambda: short},
                                      side=SOVIET, purpose="Finland Joins the War Table",
                                      resume=RESUME_FJWT)


def resume_fjwt(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
                dice: tuple[int, ...]) -> Outcome:
    proc = procedure(game, RESUME_FJWT, ("arctic_shortfall",))
    res = procflow.resolution(proc, data, dice)
    events = [Event("roll", f"FJWT (provisional table): {res.text()}", SOVIET, "12.6")]
    if res.result == "finland_enters":
        state = state.with_var(V_FINLAND, True)
        events.append(Event("info", "Finland joins the war for good: the Soviet units in the "
                            "Arctic box are frozen; the Moscow Falls Table gains its "
                            "pro-German modifier", SOVIET, "12.6"))
    return Outcome(state, tuple(events))


# --- C.3 Southwest and Romania [12.4, 12.7, 12.8] -------------------------------------------

def both_in_romania(game: Game, state: GameState) -> bool:
    return bool(armies(game, state, SSWFHB_ROMANIA)) and \
        bool(armies(game, state, SSWFHB_ROMANIA, GERMAN))


def reaction_units(game: Game, state: GameState) -> list[Piece]:
    """[12.4] Infantry corps and/or the 7th Flieger Eligible to Leave the GSRHB."""
    return [p for p in armies(game, state, GSRHB_ELIGIBLE, GERMAN)
            if p.type in INFANTRY or p.type == SEVENTH]


class Southwest(MoveStep):
    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        return Outcome(remember(state.with_var(V_FRONT, FrozenMap()), attacked=False))

    def movers(self, game: Game, board: Board, state: GameState, pos: Position) -> list[Piece]:
        out: list[Piece] = []
        for loc in (SSWFHB_JUST_ARRIVED, SSWFHB_ELIGIBLE):
            out.extend(p for p in armies(game, state, loc)
                       if p.attrs.get(A_SSW_TURN) != state.turn)
        return out

    def destinations(self, game: Game, board: Board, state: GameState, pos: Position,
                     piece: Piece) -> list[str]:
        if piece.location == SSWFHB_JUST_ARRIVED:
            return [SSWFHB_ELIGIBLE]
        if memo(state).get("attacked"):
            return [trt_box(state.turn)]  # transfers into Romania come before the attack
        return [SSWFHB_ROMANIA, trt_box(state.turn)]

    def moved(self, game: Game, board: Board, state: GameState, pos: Position, piece: Piece,
              to: str) -> Outcome:
        rule = "12.7" if to != SSWFHB_ROMANIA else "12.7, 12.4"
        out = relocate(game, state, piece, to, rule, **{A_SSW_TURN: state.turn})
        if to != SSWFHB_ROMANIA or state.var(V_ROMANIA_WAR, False):
            return out
        st = out.state.with_var(V_ROMANIA_WAR, True)
        evs = (*out.events, Event("info", "The Soviets invade Romania", SOVIET, "12.7"))
        if reaction_units(game, st):
            st = st.push_frame(Frame(REACTION, GERMAN, "The Soviets invade Romania: send any "
                                     "infantry corps and/or the 7th Flieger from the GSRHB "
                                     "Eligible to Leave portion to In Romania, then press "
                                     "Done [12.4].", "12.4"))
        return Outcome(st, evs)

    def buttons(self, game: Game, board: Board, state: GameState,
                pos: Position) -> tuple[Button, ...]:
        if both_in_romania(game, state) and not memo(state).get("attacked"):
            return (Button(ATTACK, "Attack in Romania (one prepared assault) [12.8]",
                           "12.8"),)
        return ()

    def can_end(self, game: Game, board: Board, state: GameState, pos: Position) -> str | None:
        if both_in_romania(game, state) and not memo(state).get("attacked"):
            return "With German units In Romania, the Soviets there must attack [12.8]."
        return None

    def verb(self, game: Game, board: Board, state: GameState, pos: Position,
             action: Action) -> Outcome | None:
        if action.verb != ATTACK:
            return None
        if self.can_end(game, board, state, pos) is None:
            raise IllegalAction("One attack a turn, against German units In Romania [12.8].")
        state = remember(state, attacked=True)
        for p in armies(game, state, SSWFHB_ROMANIA):  # [2.12] revealed as the attack begins
            state, _ = hidden.reveal(state, p)
        if romania_odds(game, state)[2].final_column is None:
            return resume_romania(game, board, state, FrozenMap(), ())  # no roll below 1:3
        return roll_then(game, state, count=1, sides=combat_table.tables_of(game).die,
                         purpose="Combat in Romania", side=SOVIET, resume=RESUME_ROMANIA,
                         rule="12.8")

    def exit(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        soviets = armies(game, state, SSWFHB_ROMANIA)
        germans = armies(game, state, SSWFHB_ROMANIA, GERMAN)
        if soviets and not germans and not state.var(V_PLOESTI, False):
            state = state.with_var(V_PLOESTI, True)
            return Outcome(state, (Event("info", "Only Soviet units are In Romania: Ploesti "
                                         "falls for good. No more German mobile assaults, "
                                         "German east mech movement halved, move/fight only, "
                                         "and the MFT and GAST modifiers [6.10]", SOVIET,
                                         "12.8, 6.10"),))
        if not soviets and state.var(V_ROMANIA_WAR, False):
            state = state.with_var(V_ROMANIA_WAR, False)
            return Outcome(state, (Event("info", "No Soviet units are left In Romania: that "
                                         "war is over; a new invasion brings a new German "
                                         "reaction [12.8, 12.4]", SOVIET, "12.8"),))
        return Outcome(state)


def _steps(game: Game, pieces: list[Piece]) -> int:
    return sum(units.steps_left(game, p) for p in pieces)


def romania_odds(game: Game, state: GameState) -> tuple[int, int, OddsResult, list[Shift]]:
    """[12.8] Soviet attack factors against German defense factors, clear terrain, both
    sides supplied: the only shift is the 1st Shock Army's [9.7]."""
    sov = armies(game, state, SSWFHB_ROMANIA)
    ger = armies(game, state, SSWFHB_ROMANIA, GERMAN)
    attack = sum((combat_odds.factors(game, state, p) or combat_odds.typical(game, p))[0]
                 for p in sov)
    defense = sum((combat_odds.factors(game, state, p) or combat_odds.typical(game, p))[1]
                  for p in ger)
    shifts = [Shift(1, "1st Shock Army attacks", "9.7")] if any(p.type == SHOCK
                                                                  for p in sov) else []
    odds = combat_table.tables_of(game).ladder.resolve(attack, max(defense, 1), shifts)
    return attack, defense, odds, shifts


def resume_romania(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
                   dice: tuple[int, ...]) -> Outcome:
    """[12.8] One grand PA in clear terrain, both sides supplied; DR becomes AS."""
    t = combat_table.tables_of(game)
    sov = armies(game, state, SSWFHB_ROMANIA)
    ger = armies(game, state, SSWFHB_ROMANIA, GERMAN)
    attack, defense, odds, shifts = romania_odds(game, state)
    if odds.final_column is None:
        result, how = "AL1", "below 1:3: automatic AL1 [11.14]"
    else:
        result = t.result(odds.final_column, dice[0])
        how = f"{odds.final_column}, roll {dice[0]} → {result}"
    shift_text = "".join(f", {s.text()}" for s in shifts)
    text = f"Combat in Romania: {attack} against {defense}{shift_text}; {how}"
    if result == "DR":
        result = "AS"
        text += "; a DR in Romania becomes AS [12.8]"
    events = [Event("combat", text + t.mark, SOVIET,
                    "12.8")]
    out = Outcome(state, tuple(events))
    if result == "AL1":
        return out.then(_ask_loss(state, SOVIET, 1))
    if result == "DE":  # [11.17] one-step defenders die, the others lose a step
        for p in ger:
            out = out.then(lose_step(game, out.state, out.state.piece(p.id)))
        return out
    if result == "BB":  # [11.20] the side with fewer steps dies; the other loses as many
        s_sov, s_ger = _steps(game, sov), _steps(game, ger)
        if s_sov != s_ger:
            lesser, greater, n = (sov, GERMAN, s_sov) if s_sov < s_ger else (ger, SOVIET, s_ger)
            out = out.then(_wipe(game, out.state, lesser))
            return out.then(_ask_loss(out.state, greater, n))
        # Equal steps: the attacker names how many steps each side loses, 1 to all [11.20].
        frame = Frame(BB_COUNT, SOVIET, f"Bloodbath in Romania with {s_sov} steps a side: how "
                      "many steps does each side lose? [11.20]", "11.20", FrozenMap(n=s_sov))
        return out.then(Outcome(out.state.push_frame(frame)))
    return out  # AS: nothing happens [11.15]


def _wipe(game: Game, state: GameState, pieces: list[Piece]) -> Outcome:
    out = Outcome(state)
    for p in pieces:
        out = out.then(losses.eliminate(game, out.state, out.state.piece(p.id), "11.20, 12.8"))
    return out


def lose_step(game: Game, state: GameState, piece: Piece) -> Outcome:
    """One step off a unit: a full two-step unit is reduced, anything else eliminated."""
    if units.steps_left(game, piece) >= 2:
        state = state.with_piece(replace(piece, attrs=piece.attrs.set(A_STEP, 2)))
        return Outcome(state, (Event("loss", f"{name(game, state, piece)} loses a step",
                                     piece.side, "12.8"),))
    return losses.eliminate(game, state, piece, "12.8")


def _ask_loss(state: GameState, side: str, n: int) -> Outcome:
    if n <= 0:
        return Outcome(state)
    text = (f"Combat in Romania: choose the unit In Romania to lose a step ({n} to "
            "take) [12.8]")
    return Outcome(state.push_frame(Frame(LOSS, side, text, "12.8", FrozenMap(n=n))))


class LossFrame(FrameHandler):
    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        buttons = tuple(Button(LOSS, f"{name(game, state, p)} loses a step", "12.8",
                               args=FrozenMap(piece=p.id))
                        for p in armies(game, state, SSWFHB_ROMANIA, frame.side))
        return Prompt(frame.side, frame.text, frame.rule, buttons=buttons)

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        pid = action.args.get("piece")
        mine = {p.id for p in armies(game, state, SSWFHB_ROMANIA, frame.side)}
        if action.verb != LOSS or pid not in mine:
            raise IllegalAction(f"Answer first: {frame.text}")
        _, state = state.pop_frame()
        out = lose_step(game, state, state.piece(str(pid)))
        n = int(frame.data["n"]) - 1
        if n > 0 and armies(game, out.state, SSWFHB_ROMANIA, frame.side):
            return out.then(_ask_loss(out.state, frame.side, n))
        return out


class BloodbathFrame(FrameHandler):
    """[11.20] Equal steps: the Soviet attacker names the number of steps exchanged."""

    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        n = int(frame.data["n"])
        buttons = tuple(Button(BB_COUNT, f"{k} step{'s' if k > 1 else ''} each", "11.20",
                               args=FrozenMap(steps=k)) for k in range(1, n + 1))
        return Prompt(frame.side, frame.text, frame.rule, buttons=buttons)

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        k = action.args.get("steps")
        if action.verb != BB_COUNT or not isinstance(k, int) or \
                not 1 <= k <= int(frame.data["n"]):
            raise IllegalAction(f"Answer first: {frame.text}")
        _, state = state.pop_frame()
        out = _ask_loss(state, GERMAN, k)  # asked second: the Soviet chooses first
        return out.then(_ask_loss(out.state, SOVIET, k))


class ReactionFrame(FrameHandler):
    """[12.4] The German interrupt: GSRHB Eligible to Leave -> In Romania."""

    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        moves = {p.id: (SSWFHB_ROMANIA,) for p in reaction_units(game, state)}
        return Prompt(GERMAN, frame.text, frame.rule, moves=FrozenMap(moves),
                      buttons=(Button(DONE, "Done", "12.4"),))

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        if action.verb in (DONE, END_STEP):  # End step also closes the reaction
            _, state = state.pop_frame()
            return Outcome(state)
        pid = action.args.get("piece")
        if action.verb != "move" or action.args.get("to") != SSWFHB_ROMANIA or \
                pid not in {p.id for p in reaction_units(game, state)}:
            raise IllegalAction(f"Answer first: {frame.text}")
        p = state.piece(str(pid))
        out = relocate(game, state, p, SSWFHB_ROMANIA, "12.4", **{A_GSRHB_TURN: state.turn})
        if not reaction_units(game, out.state):
            _, st = out.state.pop_frame()
            return Outcome(st, out.events)
        return out

    def candidates(self, game: Game, board: Board, state: GameState, frame: Frame,
                   prompt: Prompt) -> tuple[Action, ...] | None:
        return sampled(prompt, 1)
