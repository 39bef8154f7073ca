"""Stacking [7.1-7.7, 9.4]."""

from __future__ import annotations

from dataclasses import replace

import pytest
from w40_helpers import act, board, clear, game, goto, ids, moves, pair, put, ready

from wartable.core.errors import IllegalAction
from wartable.engine.actions import Action
from wartable.engine.loop import apply, prompt
from wartable.games.whatif1940.ids import EAST, MOSCOW, WEST
from wartable.games.whatif1940.steps import stacking

B = board()


def open_pair(map_id: str, region: str) -> tuple[str, str]:
    return pair(lambda a, b: B.hex(a).region == region and B.hex(b).region == region
                and not B.hex(a).city and not B.hex(b).city and not B.hex(a).red_row
                and not B.hex(b).red_row and not B.hex(b).fortified
                and B.hex(a).terrain == B.hex(b).terrain == "clear"
                and not B.side_features(a, b), map_id)


def test_7_5_three_units_per_hex_on_the_east_map() -> None:
    a, b = open_pair(EAST, "Greater Germany")
    s = clear(ready())
    inf = ids(s, "ger_infantry", 4)
    for pid in inf[:3]:
        s = put(s, pid, b)
    s = goto(put(s, inf[3], a), "german_east_move_d")
    assert b not in moves(s, inf[3])
    with pytest.raises(IllegalAction, match="no room"):
        act(s, "move", "german", piece=inf[3], to=b)
    s = act(s, "move", "german", piece=inf[2], to=a)  # make room
    s = act(s, "move", "german", piece=inf[3], to=b)
    assert len(s.pieces_at(b)) == 3


def test_7_4_two_units_per_hex_on_the_west_map() -> None:
    a, b = open_pair(WEST, "Greater Germany")
    s = clear(ready())
    inf = ids(s, "ger_infantry", 3)
    s = goto(put(put(put(s, inf[0], b), inf[1], b), inf[2], a), "german_west_move", turn=2)
    assert b not in moves(s, inf[2])


def test_7_6_static_units_count_nothing() -> None:
    s = clear(ready())
    regs = ids(s, "sov_regular", 4)
    for pid in regs[:3]:
        s = put(s, pid, MOSCOW)
    s = put(s, "soviet.sov_moscow_garrison.1", MOSCOW)
    assert stacking.problems(game(), B, s) == []
    s = put(s, regs[3], MOSCOW)
    assert stacking.problems(game(), B, s)


def test_7_7_holding_boxes_are_unlimited() -> None:
    s = ready()
    assert len(s.pieces_at("box:gsrhb_eligible")) > 3
    assert stacking.problems(game(), B, s) == []


def test_7_4_british_and_french_pass_through_but_never_stop_together() -> None:
    # A line of three French hexes: British at one end, French in the middle.
    s = clear(ready())
    br, fr = ids(s, "brit_infantry", 1)[0], ids(s, "fr_infantry", 1)[0]
    line = next((a, m, c) for a in B.labels(WEST) for m in B.neighbors[a]
                for c in B.neighbors[m]
                if c != a and c not in B.neighbors[a]
                and all(B.hex(h).region == "France" and B.hex(h).terrain == "clear"
                        and not B.hex(h).fortified for h in (a, m, c))
                and not B.side_features(a, m) and not B.side_features(m, c))
    a, m, c = line
    s = goto(put(put(s, br, a), fr, m), "af_move")
    mv = moves(s, br)
    assert m not in mv  # may not stop with the French
    assert c in mv and mv[c] == 2  # but may pass through them


def test_7_4_dutch_never_stack_nor_share_with_another_nationality() -> None:
    s = ready()
    dutch = [p for p in s.pieces.values() if p.type == "nl_infantry"]
    assert len({p.location for p in dutch}) == len(dutch)  # one per hex at set-up [3.4]
    s = act(goto(s, "af_move"), "violate_neutrality", "anglo_french", country="holland")
    nl = s.piece(ids(s, "nl_infantry", 1)[0])
    nl2 = s.piece(ids(s, "nl_infantry", 2)[1])
    ger = s.piece("german.ger_infantry.1")
    g = game()
    assert not stacking.compatible(g, s, nl, ger) and not stacking.may_pass(g, s, nl, ger)
    assert not stacking.may_pass(g, s, ger, nl)
    assert stacking.compatible(g, s, nl, nl2)  # Dutch with Dutch: normal stacking [7.4]


def test_7_2_a_full_hex_blocks_passing_through() -> None:
    a, b = open_pair(EAST, "Greater Germany")
    c = next(n for n in B.neighbors[b] if n != a and n not in B.neighbors[a]
             and B.hex(n).terrain == "clear" and not B.side_features(b, n)
             and not B.hex(n).city and not B.hex(n).red_row)
    s = clear(ready())
    inf = ids(s, "ger_infantry", 4)
    for pid in inf[:3]:
        s = put(s, pid, b)
    s = goto(put(s, inf[3], a), "german_east_move_d")
    strict = moves(s, inf[3]).get(c)
    loose = moves(replace(s, options=s.options.set("strict_pass_through", False)),
                  inf[3]).get(c)
    assert loose == 2  # through b: 1 + 1
    assert strict is None or strict > 2


def test_7_2_overstacked_hexes_at_a_phase_start_lose_units_of_the_owners_choice() -> None:
    a, _ = open_pair(EAST, "Greater Germany")
    s = clear(ready())
    inf = ids(s, "ger_infantry", 4)
    for pid in inf:
        s = put(s, pid, a)
    s = goto(s, "german_east_move_d")
    assert s.top_frame is not None and s.top_frame.kind == "overstack"
    p = prompt(game(), s)
    assert p.side == "german" and len(p.buttons) == 4
    with pytest.raises(IllegalAction):
        apply(game(), s, Action.make("eliminate", "german", piece="german.ger_panzer.1"))
    s = apply(game(), s, Action.make("eliminate", "german", piece=inf[0])).state
    assert s.frames == () and s.piece(inf[0]).location == "box:dead"
    assert stacking.problems(game(), B, s) == []


def test_9_10_eliminated_soviet_regulars_go_face_down_to_the_replacement_pile() -> None:
    from wartable.games.whatif1940 import hidden
    from wartable.games.whatif1940.steps import losses

    s = ready()
    reg = next(p.id for p in sorted(s.pieces.values(), key=lambda p: p.id)
               if p.type == "sov_regular" and not p.attrs.get("red_dot"))
    s, shown = hidden.reveal(s, s.piece(reg))
    s = losses.eliminate(game(), s, shown, "test").state
    p = s.piece(reg)
    assert p.location == "box:soviet_replacements" and p.attrs["untried"]
    jug = next(q for q in s.pieces.values() if q.type == "sov_juggernaut"
               and B.on_map(q.location))
    army = hidden.true_name(s, jug)
    s = losses.eliminate(game(), s, jug, "test").state
    assert s.piece(jug.id).location == "box:dead"  # out of the game [9.6]
    back = [q for q in s.pieces_at("box:soviet_replacements") if q.attrs.get("red_dot")]
    assert [hidden.true_name(s, q) for q in back] == [army]
