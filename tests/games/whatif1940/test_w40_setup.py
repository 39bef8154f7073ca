"""Set-up [3.1-3.5, 3.10] and untried Soviet units [2.12]."""

from __future__ import annotations

import pytest
from w40_helpers import act, board, game, ids, put, ready, start, step_id

from wartable.core.errors import IllegalAction
from wartable.engine.loop import prompt
from wartable.games.whatif1940 import hidden
from wartable.games.whatif1940.ids import LENINGRAD, MOSCOW, V_UNTRIED
from wartable.games.whatif1940.steps import control
from wartable.model.state import GameState


def at(state: GameState, location: str, type_: str | None = None) -> list[str]:
    return sorted(p.id for p in state.pieces_at(location) if type_ in (None, p.type))


def test_2_1_counter_mix_has_176_counters_with_the_turn_marker() -> None:
    assert len(start().pieces) + 1 == 176  # the Game Turn marker is the turn display


def test_3_2_soviet_automatic_placements_and_draws() -> None:
    s = start()
    table = game().definition.tables["turn_record"]["sov_reinf"]
    assert at(s, MOSCOW) == ["soviet.sov_moscow_garrison.1"]
    assert len(at(s, "box:sswfhb_just_arrived", "sov_juggernaut")) == 3
    assert len(at(s, LENINGRAD, "sov_juggernaut")) == 2
    assert len(at(s, "box:soviet_pool", "sov_juggernaut")) == 4
    assert len(at(s, "box:sfehb")) == 3
    assert at(s, "box:trt_10") == ["soviet.sov_1st_shock.1"] + sorted(
        at(s, "box:trt_10", "sov_regular"))
    assert len(at(s, "box:soviet_set_aside", "sov_regular")) == 9
    assert len(at(s, "box:safhb", "sov_regular")) == 2
    for turn, n in enumerate(table, start=1):
        assert len(at(s, f"box:trt_{turn}", "sov_regular")) == n
    assert step_id(s) == "setup_soviet"


def test_3_2_the_draws_are_by_lot() -> None:
    a = {at(start(seed), LENINGRAD)[0] for seed in range(12)}
    assert len(a) > 1


def test_2_12_untried_fronts_are_hidden_from_both_players() -> None:
    s = start()
    jug = [p for p in s.pieces.values() if p.type == "sov_juggernaut"]
    assert all(p.attrs["untried"] and p.attrs["factors"] == "?" and "name" not in p.attrs
               for p in jug)
    names = sorted(str(hidden.secrets(s)[p.id]["name"]) for p in jug)
    assert names == sorted(["3rd", "4th", "5th", "6th", "8th", "10th", "11th", "12th", "26th"])
    for side in ("german", "soviet", None):
        assert V_UNTRIED not in game().rules.view(game(), s, side).vars
    mg = s.piece("soviet.sov_moscow_garrison.1")  # the MG is always face up [2.12]
    assert "untried" not in mg.attrs
    # The fronts are dealt by lot: piece 1 is not always the 3rd Army [2.4].
    firsts = {hidden.secrets(start(seed))["soviet.sov_juggernaut.1"]["name"] for seed in range(8)}
    assert len(firsts) > 1


def test_2_12_reveal_is_for_good() -> None:
    s = start()
    p = s.piece("soviet.sov_juggernaut.1")
    s, shown = hidden.reveal(s, p)
    assert shown.attrs["name"] and shown.attrs["factors"] != "?"
    assert p.id not in hidden.secrets(s)


def test_3_2_juggernauts_one_per_otherwise_empty_hex_in_the_soviet_area() -> None:
    s = start()
    j1, j2 = at(s, "box:soviet_pool")[:2]
    s = act(s, "move", "soviet", piece=j1, to="5512")  # Estonia
    with pytest.raises(IllegalAction, match="3.2"):
        act(s, "move", "soviet", piece=j2, to="5512")
    with pytest.raises(IllegalAction, match="3.2"):
        act(s, "move", "soviet", piece=j2, to=MOSCOW)  # the MG is there
    with pytest.raises(IllegalAction):
        act(s, "move", "soviet", piece=j2, to="4900")  # Greater Germany
    s = act(s, "move", "soviet", piece=j2, to="4705")  # Grodno, Former Poland [3.10]
    s = act(s, "move", "soviet", piece=j1, to="5513")  # placed units may be placed again
    assert s.piece(j1).location == "5513"


def test_3_1_a_setup_step_ends_only_when_its_pool_is_empty() -> None:
    s = start()
    with pytest.raises(IllegalAction, match="pool"):
        act(s, "end_step", "soviet")
    end = next(b for b in prompt(game(), s).buttons if b.id == "end_step")
    assert not end.enabled and "pool" in end.reason
    s = act(s, "auto_setup", "soviet")
    s = act(s, "end_step", "soviet")
    assert step_id(s) == "setup_german_west"


def _german_west() -> GameState:
    s = act(start(), "auto_setup", "soviet")
    return act(s, "end_step", "soviet")


def test_3_3_german_infantry_sorted_into_three_groups() -> None:
    s = _german_west()
    a, b_, c, d = at(s, "box:german_pool")[:4]
    s = act(s, "move", "german", piece=a, to="1905")  # west map, Greater Germany
    s = act(s, "move", "german", piece=b_, to="1905")
    with pytest.raises(IllegalAction, match="no room"):
        act(s, "move", "german", piece=c, to="1905")  # 2 per hex on the west map [7.4]
    with pytest.raises(IllegalAction):
        act(s, "move", "german", piece=c, to="1100")  # France
    s = act(s, "move", "german", piece=c, to="box:gsrhb_eligible")
    s = act(s, "move", "german", piece=d, to="box:baltic_sea")
    pz = at(s, "box:baltic_sea", "ger_panzer")[0]
    with pytest.raises(IllegalAction):
        act(s, "move", "german", piece=pz, to="1906")  # panzers are not sorted here [3.3]
    assert s.piece("german.ger_7th_flieger.1").location == "box:gsrhb_eligible"


def test_3_4_dutch_one_per_hex_anywhere_in_holland() -> None:
    s = _german_west()
    n1, n2 = ids(s, "nl_infantry", 2)
    s = act(s, "move", "german", piece=n1, to="2300")
    with pytest.raises(IllegalAction, match="3.4"):
        act(s, "move", "german", piece=n2, to="2300")
    with pytest.raises(IllegalAction):
        act(s, "move", "german", piece=n2, to="2001")  # Brussels, Belgium


def test_3_4_belgians_only_in_belgian_towns_and_cities() -> None:
    s = _german_west()
    b1, b2, b3 = ids(s, "bel_infantry", 3)
    cav = ids(s, "bel_cavalry", 1)[0]
    s = act(s, "move", "german", piece=b1, to="2001")  # Brussels
    s = act(s, "move", "german", piece=b2, to="2001")
    with pytest.raises(IllegalAction, match="no room"):
        act(s, "move", "german", piece=b3, to="2001")  # normal stacking
    with pytest.raises(IllegalAction):
        act(s, "move", "german", piece=b3, to="1806")  # a Belgian hex, no town or city
    with pytest.raises(IllegalAction, match="10.10"):
        act(s, "move", "german", piece=b3, to="1605")  # Bastogne: Ardennes
    s = act(s, "move", "german", piece=cav, to="1605")  # cavalry may [10.10]
    assert s.piece(cav).location == "1605"


def test_3_3_east_setup_in_greater_germany_and_lithuania_three_per_hex() -> None:
    s = act(_german_west(), "auto_setup", "german")
    s = act(s, "end_step", "german")
    assert step_id(s) == "setup_german_east"
    east = at(s, "box:baltic_sea")
    assert len(east) >= 7
    for pid in east[:3]:
        s = act(s, "move", "german", piece=pid, to="4906")  # Kaunas, Lithuania
    with pytest.raises(IllegalAction, match="no room"):
        act(s, "move", "german", piece=east[3], to="4906")
    with pytest.raises(IllegalAction):
        act(s, "move", "german", piece=east[3], to="4705")  # Former Poland: Soviet
    with pytest.raises(IllegalAction, match="12.9"):
        act(s, "move", "german", piece=east[3], to="4201")  # a red row hex
    s = act(s, "move", "german", piece=east[3], to="5102")
    assert s.piece(east[3]).location == "5102"


def test_3_5_anglo_french_in_france_two_per_hex_never_mixed() -> None:
    s = ready()
    s = act(start(), "auto_setup", "soviet")
    s = act(act(s, "end_step", "soviet"), "auto_setup", "german")
    s = act(act(s, "end_step", "german"), "auto_setup", "german")
    s = act(s, "end_step", "german")
    assert step_id(s) == "setup_anglo_french"
    br = ids(s, "brit_infantry", 2)
    fr = [p for p in ids(s, "fr_infantry", 3)]
    s = act(s, "move", "anglo_french", piece=br[0], to="1003")
    with pytest.raises(IllegalAction, match="7.4"):
        act(s, "move", "anglo_french", piece=fr[0], to="1003")  # no British with French
    s = act(s, "move", "anglo_french", piece=br[1], to="1003")
    s = act(s, "move", "anglo_french", piece=fr[0], to="1004")
    s = act(s, "move", "anglo_french", piece=fr[1], to="1004")
    with pytest.raises(IllegalAction, match="no room"):
        act(s, "move", "anglo_french", piece=fr[2], to="1004")
    with pytest.raises(IllegalAction):
        act(s, "move", "anglo_french", piece=fr[2], to="2001")  # Belgium
    cav = ids(s, "fr_cavalry", 1)[0]
    with pytest.raises(IllegalAction, match="10.10"):
        act(s, "move", "anglo_french", piece=fr[2], to="1502")  # French Ardennes
    s = act(s, "move", "anglo_french", piece=cav, to="1502")
    assert s.piece(cav).location == "1502"
    # Tank corps and aircraft stay aside [3.5].
    assert len(at(s, "box:allied_tank_pool")) == 6 and len(at(s, "box:allied_air")) == 2


def test_3_10_variant_too_late_to_keep_lithuania() -> None:
    b = board()
    s = start(variant_lithuania=True)
    assert control.initial_controller(b, s, "4906") == "soviet"  # Kaunas, Lithuania
    assert control.initial_controller(b, s, "4301") == "german"  # Polish revision
    j = at(s, "box:soviet_pool")[0]
    s2 = act(s, "move", "soviet", piece=j, to="4906")  # Soviets may set up there
    assert s2.piece(j).location == "4906"
    with pytest.raises(IllegalAction):
        act(s, "move", "soviet", piece=j, to="4301")  # removed from the Soviet area
    s = act(act(s, "auto_setup", "soviet"), "end_step", "soviet")
    s = act(act(s, "auto_setup", "german"), "end_step", "german")
    pz = at(s, "box:baltic_sea", "ger_panzer")[0]
    with pytest.raises(IllegalAction):
        act(s, "move", "german", piece=pz, to="5207")  # Lithuania: no Germans
    s = act(s, "move", "german", piece=pz, to="4301")
    assert s.piece(pz).location == "4301"
    std = start()
    assert control.initial_controller(b, std, "4906") == "german"
    assert control.initial_controller(b, std, "4301") == "soviet"


@pytest.mark.parametrize("seed", range(5))
def test_3_1_quick_setup_is_legal(seed: int) -> None:
    for variant in (False, True):
        s = ready(seed, variant_lithuania=variant)
        assert game().rules.invariants(game(), s) == []
        assert step_id(s) == "east_order"
        for pool in ("soviet_pool", "german_pool", "neutral_pool", "baltic_sea", "allied_pool"):
            assert at(s, f"box:{pool}") == []


def test_3_1_setup_prompt_offers_only_legal_places() -> None:
    s = _german_west()
    p = prompt(game(), s)
    pid = at(s, "box:german_pool")[0]
    dests = p.moves[pid]
    assert "box:gsrhb_eligible" in dests and "box:baltic_sea" in dests
    b = board()
    assert all(d.startswith("box:") or b.hex(d).region == "Greater Germany" for d in dests)
    s = put(s, pid, "1905", placed_in="setup_german_west")
    p = prompt(game(), s)
    assert "1905" not in p.moves[pid]  # its own hex
    other = at(s, "box:german_pool")[0]
    assert "1905" in p.moves[other]  # one more fits
