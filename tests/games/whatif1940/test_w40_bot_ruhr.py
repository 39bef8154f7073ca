"""The strong German's defence of the Ruhr (issue 7): one Allied unit entering a Ruhr city
hex wins the game [4.2], so the strong German keeps Luftwaffe units from the east for the
Ruhr's defence [8.4, 8.6], gives up a screen hex to fill a Ruhr hex short of its two corps,
restores the Ruhr's reduced corps first [9.9], swaps a reduced corps there for a full
one (two a hex [7.4]) and converts a DR in the west to DL1, holding its line [11.19].
Hand-made positions; each checks the bot's chosen action."""

from __future__ import annotations

from dataclasses import replace

import pytest
from w40_helpers import AIR, base, board, game, goto, ids, plain, put

from wartable.core.rng import Rng
from wartable.engine.actions import DICE, Action
from wartable.engine.session import Session
from wartable.games.whatif1940 import bot, bot_eval
from wartable.games.whatif1940.ids import A_STEP, ANGLO_FRENCH, EAST, GERMAN, USSR, V_AIR_USED, WEST
from wartable.games.whatif1940.steps import combat
from wartable.model.state import GameState

G = game()
B = board()
INF = [f"german.ger_infantry.{i}" for i in range(1, 10)]
LUFTWAFFE = AIR[:4]
ALLIED_AIR = AIR[4:]
RUHR = "2008"
FR = [f"anglo_french.fr_infantry.{i}" for i in range(1, 5)]


def session_at(s: GameState) -> Session:
    return replace(Session.start(G, "standard", seed=1), state=s)


def choose(s: GameState, level: str) -> Action:
    a, _ = bot.choose_action(session_at(s), Rng.from_seed("t"), level)
    return a


def _open_pair(region: str, map_id: str) -> tuple[str, str]:
    for h in B.labels(map_id):
        if B.hex(h).region == region and plain(h):
            for n in B.neighbors[h]:
                if B.map_of(n) == map_id and plain(n) and B.hex(n).region == region \
                        and not B.side_features(h, n):
                    return h, n
    raise AssertionError("no such hexes")


def _battle(s: GameState, side: str, target: str, attackers: tuple[str, ...]) -> GameState:
    ses = session_at(s).submit(Action.make(combat.VERB, side, target=target,
                                           attackers=attackers))
    return ses.state


# --- the Luftwaffe kept for the Ruhr [8.4, 8.6] ---------------------------------------------

@pytest.mark.parametrize(("level", "allies_near", "count"),
                         [("strong", True, 2), ("fast", True, 4), ("strong", False, 4)])
def test_8_4_the_strong_german_keeps_two_luftwaffe_units_out_of_an_east_attack(
        level: str, allies_near: bool, count: int) -> None:
    """Each aircraft flies one mission a game turn [8.6]; the Anglo-French combat phase ends
    the game turn, after the German east attacks. Four ready and a French corps within a
    west move of the Ruhr: the strong German commits two (WEST_AIR_RESERVE = 2 kept for a
    Ruhr defence), the fast one all four; no Allied unit in reach: all four."""
    sov, ger = _open_pair(USSR, EAST)
    s = put(put(base(), "soviet.sov_regular.1", sov, untried=False, factors=(4, 5)), INF[0], ger)
    if allies_near:
        s = _near_allied(s)
    assert bot.ruhr_in_reach(G, s) == allies_near
    s = goto(s, "german_east_combat_e", 2).with_var(V_AIR_USED, ("soviet.sov_aircraft.1",))
    s = _battle(s, GERMAN, sov, (INF[0],))
    assert s.frames and s.frames[-1].kind == combat.F_AIR and s.frames[-1].side == GERMAN
    a = choose(s, level)
    assert (a.verb, a.args["count"]) == ("air", count)


def _allied_attack(target_ruhr: bool) -> GameState:
    """Two French corps attack a German corps in the Ruhr hex 2008 (or in a plain hex of
    the west map); the Allied aircraft have flown: the German defence's air frame."""
    if target_ruhr:
        t = RUHR
        f = next(h for h in B.neighbors[t] if B.map_of(h) == WEST and not B.hex(h).ruhr)
    else:
        t, f = _open_pair("Greater Germany", WEST)
    s = put(put(put(base(), INF[0], t), FR[0], f), FR[1], f)
    s = goto(s, "af_combat", 2).with_var(V_AIR_USED, ALLIED_AIR)
    s = _battle(s, ANGLO_FRENCH, t, (FR[0], FR[1]))
    assert s.frames and s.frames[-1].kind == combat.F_AIR and s.frames[-1].side == GERMAN
    return s


def test_8_4_the_strong_german_commits_every_aircraft_to_a_ruhr_hex_defence() -> None:
    """Each aircraft shifts the Allied attack a column [8.4]: all four to the Ruhr hex."""
    a = choose(_allied_attack(True), "strong")
    assert (a.verb, a.args["count"]) == ("air", 4)


def test_8_4_the_strong_german_keeps_its_aircraft_from_a_defence_outside_the_ruhr() -> None:
    """An attack elsewhere in the west does not lose the game: none, they wait for a Ruhr
    hex attacked later in the phase [4.2]; the fast German commits all of them."""
    s = _allied_attack(False)
    assert choose(s, "strong").args["count"] == 0
    assert choose(s, "fast").args["count"] == 4


# --- the Ruhr's corps [4.2, 7.4, 9.9] ----------------------------------------------------------

def _near_allied(s: GameState) -> GameState:
    """A French corps four hexes from the Ruhr hex: within an Allied west move [2.10]."""
    d = B.distances([RUHR], 99)
    near = next(h for h in B.labels(WEST) if d.get(h) == 4 and plain(h))
    return put(s, FR[3], near)


def test_4_2_a_screen_holder_fills_a_ruhr_hex_short_of_its_two_corps() -> None:
    """A Ruhr hex with one corps (an Allied unit in reach: two wanted) and the only other
    corps holding a screen hex next to it: the screen hex is given up, the corps goes into
    the Ruhr hex (worth 6 against the screen's 4)."""
    scr = next(h for h in bot_eval.screen(B, base()) if h in B.neighbors[RUHR])
    s = _near_allied(put(put(base(), INF[0], RUHR), INF[1], scr))
    ctx = bot_eval.context(G, B, s, GERMAN, WEST, "strong")
    assert bot_eval.wanted(ctx, RUHR) == 2 and bot_eval.wanted(ctx, scr) == 1
    assert bot_eval.holds(ctx, s.piece(INF[1]))
    m = bot_eval.fill_keys(ctx, [(INF[1], (RUHR, scr))])
    assert m is not None and (m.piece, m.to) == (INF[1], RUHR)


def test_9_9_the_strong_german_restores_a_ruhr_corps_first() -> None:
    """Two reduced supplied infantry corps, one in a Ruhr hex: the strong German restores
    that one first (the fast one the first offered, here the other)."""
    out = next(h for h in B.labels(WEST) if B.hex(h).region == "Greater Germany" and plain(h))
    s = put(put(base(), INF[0], out, **{A_STEP: 2}), INF[8], RUHR, **{A_STEP: 2})
    s = goto(s, "german_replacement", 2)
    p = session_at(s).prompt(GERMAN)
    offered = [b.args["piece"] for b in p.buttons if b.id == "replace_step"]
    assert offered[0] == INF[0] and INF[8] in offered
    assert choose(s, "strong").args["piece"] == INF[8]
    assert choose(s, "fast").args["piece"] == INF[0]


def test_9_9_of_two_ruhr_corps_the_one_with_enemies_next_to_it_is_restored_first() -> None:
    """Reduced corps in two Ruhr hexes, two French corps next to the second one only: the
    strong German restores that one (one infantry corps a turn [9.9])."""
    quiet, hot = RUHR, "2309"
    assert B.hex(hot).ruhr and hot not in B.neighbors[quiet]
    front = next(h for h in B.neighbors[hot] if B.map_of(h) == WEST and not B.hex(h).ruhr
                 and quiet not in B.neighbors[h])
    s = put(put(base(), INF[0], quiet, **{A_STEP: 2}), INF[8], hot, **{A_STEP: 2})
    s = put(put(s, FR[0], front), FR[1], front)
    s = goto(s, "german_replacement", 2)
    offered = [b.args["piece"] for b in session_at(s).prompt(GERMAN).buttons
               if b.id == "replace_step"]
    assert offered[:2] == [INF[0], INF[8]]
    assert choose(s, "strong").args["piece"] == INF[8]


def test_4_2_a_reduced_corps_makes_room_in_the_ruhr_for_a_full_one() -> None:
    """A Ruhr hex held by a full and a reduced corps (9 defence, not 12), an Allied unit in
    reach and a full corps two hexes off: the reduced one leaves (two a hex [7.4]), then the
    full one moves in."""
    d = B.distances([RUHR], 99)
    spare = next(h for h in B.labels(WEST) if d.get(h) == 2 and not B.hex(h).ruhr
                 and plain(h) and B.hex(h).region == "Greater Germany")
    s = put(put(base(), INF[0], RUHR), INF[1], RUHR, **{A_STEP: 2})
    s = _near_allied(put(s, INF[2], spare))
    others = [h for h in B.labels(WEST) if B.hex(h).ruhr and h != RUHR]
    corps = iter(i for i in ids(s, "ger_infantry", 32) if i not in INF)
    for h in others:  # every other Ruhr hex has its two full corps
        s = put(put(s, next(corps), h), next(corps), h)
    s = goto(s, "german_west_move", 2)
    a = choose(s, "strong")
    assert a.verb == "move" and a.args["piece"] == INF[1]
    assert not B.hex(str(a.args["to"])).ruhr
    ses = session_at(s).submit(a)
    b, _ = bot.choose_action(ses, Rng.from_seed("t"), "strong")
    assert b.verb == "move" and (b.args["piece"], b.args["to"]) == (INF[2], RUHR)
    # the fast German leaves the reduced corps where it is
    f = choose(s, "fast")
    assert f.args.get("piece") != INF[1]


# --- a DR in the west [11.19] ------------------------------------------------------------------

@pytest.mark.parametrize(("level", "choice"), [("strong", "dl1"), ("fast", "retreat")])
def test_11_19_the_strong_german_west_converts_a_dr_to_dl1_and_holds_its_line(
        level: str, choice: str) -> None:
    """Two French corps (8) against a full German corps (6) in a plain hex of Germany: 8:6
    is 1:1, a roll of 5 is DR (data/combat.toml). Not a city nor its own fortification,
    so the German may convert it to DL1 [11.19]: the strong German west does (the line in
    front of the Ruhr holds, no Allied advance), the fast one retreats."""
    t, f = _open_pair("Greater Germany", WEST)
    assert not (B.hex(t).city or B.hex(t).fortified)
    s = put(put(put(base(), INF[0], t), FR[0], f), FR[1], f)
    s = goto(s, "af_combat", 2).with_var(V_AIR_USED, AIR)
    s = replace(s, dice_mode="physical")  # the die is entered: a 5
    ses = session_at(s).submit(Action.make(combat.VERB, ANGLO_FRENCH, target=t,
                                           attackers=(FR[0], FR[1])))
    assert ses.prompt(ANGLO_FRENCH).dice is not None
    ses = ses.submit(Action.make(DICE, ANGLO_FRENCH, values=(5,)))
    assert ses.state.frames[-1].kind == combat.F_DL1
    a = choose(ses.state, level)
    assert (a.verb, a.args["choice"]) == ("dl1", choice)


@pytest.mark.parametrize(("french", "offered"), [(2, False), (1, True)])
def test_4_2_the_ruhr_holders_counterattack_next_to_the_ruhr_from_2_1_only(
        french: int, offered: bool) -> None:
    """Two German corps (5 each) in the Ruhr hex 2008 and French corps (5 each) in a clear
    hex next to it: against two the attack is 10:10 = 1:1, where a BB or AL1 costs the
    Ruhr's holders steps and a Ruhr hex short of steps falls to the next Allied DR/BB
    [4.2, 11.19, 11.20]; not declared (COUNTER_COLUMN 2-1, measured +0.15 for the German).
    Against one it is 10:5 = 2:1: declared."""
    f = next(h for h in B.neighbors[RUHR] if B.map_of(h) == WEST and not B.hex(h).ruhr
             and plain(h) and not B.side_features(RUHR, h))
    s = put(put(base(), INF[0], RUHR), INF[1], RUHR)
    for i in range(french):
        s = put(s, FR[i], f)
    s = goto(s, "german_west_combat", 2)
    opts = bot_eval.attack_options(G, B, s, GERMAN, WEST, "strong")
    assert (f in {a.target for a in opts}) == offered
