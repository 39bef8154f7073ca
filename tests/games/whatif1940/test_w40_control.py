"""Hex control with its history [3.12], intrinsic garrisons [11.21], victory [4.2, 4.4]."""

from __future__ import annotations

from dataclasses import replace

import pytest
from w40_helpers import act, board, clear, game, goto, ids, moves, pair, put, ready

from wartable.core.errors import IllegalAction
from wartable.engine.actions import Action
from wartable.engine.loop import apply, end_step
from wartable.games.whatif1940.ids import EAST, LENINGRAD, MOSCOW, WEST
from wartable.games.whatif1940.steps import control
from wartable.games.whatif1940.steps.movement import hostile

B = board()


@pytest.mark.parametrize(("hex_", "side"), [
    ("1905", "german"), ("4906", "german"), ("1003", "anglo_french"), (MOSCOW, "soviet"),
    ("5512", "soviet"), ("4705", "soviet"), ("5409", "soviet"), ("2001", None),
    ("2300", None), ("1406", None),
])
def test_3_12_control_at_the_start(hex_: str, side: str | None) -> None:
    # Greater Germany and Lithuania German; France Anglo-French; USSR, Estonia, Former
    # Poland and Latvia Soviet; Belgium, Holland and Luxembourg neutral.
    assert control.controller(B, ready(), hex_) == side


def test_3_12_control_changes_on_entry_and_the_history_stays() -> None:
    a, e = pair(lambda a, b: B.hex(a).region == "Lithuania" and B.hex(b).region in
                ("USSR", "Latvia", "Former Poland") and not B.hex(b).city
                and not B.hex(b).red_row and B.hex(b).terrain == "clear"
                and B.side_features(a, b) <= {"border"} and not B.hex(a).city, EAST)
    s = clear(ready())
    inf, sov = "german.ger_infantry.1", ids(s, "sov_regular", 1)[0]
    s = goto(put(s, inf, a), "german_east_move_d")
    s = act(s, "move", "german", piece=inf, to=e)
    assert control.controller(B, s, e) == "german"
    assert control.ever_german(B, s, e)
    # Back out, and a Soviet unit walks in: Soviet again, but it was German once.
    s = act(s, "move", "german", piece=inf, to=a)
    assert control.controller(B, s, e) == "german"  # leaving does not change control
    start = next(n for n in B.neighbors[e] if n != a and control.controller(B, s, n) ==
                 "soviet" and not B.hex(n).red_row and not B.hex(n).city
                 and B.hex(n).terrain not in ("sea", "lake")
                 and not B.side_features(e, n) & {"sea", "lake"})
    s = goto(put(s, sov, start), "soviet_move")
    s = act(s, "move", "soviet", piece=sov, to=e)
    assert control.controller(B, s, e) == "soviet"
    assert control.ever_german(B, s, e)  # for Moscow/Leningrad supply [6.5], cities [9.5]
    assert e not in s.var("control")  # back to its start: no difference kept


def test_3_12_control_changes_along_the_whole_path() -> None:
    s = clear(ready())
    inf = "german.ger_infantry.1"
    a = "4906"  # Kaunas
    s = goto(put(s, inf, a), "german_east_move_d")
    far = max(((h, c) for h, c in moves(s, inf).items()
               if B.hex(h).region == "USSR"), key=lambda hc: hc[1])[0]
    out = apply(game(), s, Action.make("move", "german", piece=inf, to=far))
    route = out.events[-1].text.split(": ", 1)[1].split(" (")[0].split(" → ")
    for h in route[1:]:
        assert control.controller(B, out.state, h) == "german", h


def test_11_21_intrinsic_garrisons_hold_their_hexes() -> None:
    s = clear(ready())
    assert control.garrison_nation(B, s, "4705") == "soviet"  # Grodno: a Soviet city
    assert control.garrison_nation(B, s, MOSCOW) is None  # not Moscow (the MG is there)
    assert control.garrison_nation(B, s, LENINGRAD) == "soviet"
    assert control.garrison_nation(B, s, "2208") == "german"  # Ruhr city
    assert control.garrison_nation(B, s, "5102") == "german"  # Königsberg, Greater Germany
    assert control.garrison_nation(B, s, "1905") == "german"  # West Wall fort, Aachen
    assert control.garrison_nation(B, s, "2703") == "dutch"  # Amsterdam
    assert control.garrison_nation(B, s, "4906") is None  # Kaunas: began German, not GG
    inf = "german.ger_infantry.1"
    assert hostile(game(), B, s, "4705", s.piece(inf))
    a = next(n for n in B.neighbors["4705"] if B.hex(n).region == "Lithuania")
    s = goto(put(s, inf, a), "german_east_move_d")
    with pytest.raises(IllegalAction, match="11.21"):
        act(s, "move", "german", piece=inf, to="4705")


def test_4_2_an_allied_unit_in_a_ruhr_city_wins_at_once() -> None:
    s = ready()
    fr = ids(s, "fr_infantry", 1)[0]
    out = apply(game(), s, Action.make("free_move", "anglo_french", piece=fr, to="2208"))
    assert out.state.result is not None and "4.2" in out.state.result


def test_4_4_default_allied_victory_or_draw() -> None:
    s = ready()
    last = goto(replace(s, turn=11), "af_replacement", turn=11)
    won = end_step(game(), last).state.result
    assert won is not None and "Allies win" in won and "4.4" in won
    fr = ids(s, "fr_infantry", 1)[0]
    dead = goto(put(replace(s, turn=11), fr, "box:dead"), "af_replacement", turn=11)
    drawn = end_step(game(), dead).state.result
    assert drawn is not None and drawn.startswith("Draw")
    nl = ids(s, "nl_infantry", 1)[0]  # Dutch losses do not count [4.4]
    dutch = goto(put(replace(s, turn=11), nl, "box:dead"), "af_replacement", turn=11)
    assert "Allies win" in str(end_step(game(), dutch).state.result)


def test_3_12_belgian_and_dutch_units_take_no_control() -> None:
    s = act(goto(ready(), "af_move"), "violate_neutrality", "anglo_french", country="holland")
    nl = ids(s, "nl_infantry", 1)[0]
    s = goto(s, "german_west_move", turn=2)
    dest = next(iter(moves(s, nl)))
    s = act(s, "move", "german", piece=nl, to=dest)
    assert control.controller(B, s, dest) is None
    assert B.map_of(dest) == WEST
