"""The player's own printed values for the rule tables (issue 5, "Data the text does not
give": "give players an editor to type in their printed values; a save records which values
it used"): the override file, its checks, new games, saves and old saves."""

from __future__ import annotations

import json
import sys
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from wartable.core.errors import DataError
from wartable.engine.actions import Action
from wartable.engine.loop import apply
from wartable.engine.session import Session
from wartable.model.values import thaw
from wartable.persistence import gamedata, savefile, tables

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "whatif1940"))
from test_w40_combat import RING, TGT  # noqa: E402
from w40_helpers import clear, put, ready  # noqa: E402

W40 = "whatif1940"
RESULTS = ("AS", "AL1", "DE", "DR", "BB")  # [11.3] the CRT's results


def shipped_crt() -> dict[str, Any]:
    crt: dict[str, Any] = thaw(gamedata.load_game(W40).definition.tables["combat"])
    return crt


def all_de_at_1_1() -> dict[str, Any]:
    """Our CRT with the 1:1 row replaced by DE on every roll, as a player would type it."""
    t = shipped_crt()
    t["crt"]["1-1"] = ["DE"] * 6
    t["provisional"] = False
    t["note"] = "Printed CRT."
    return t


def write_file(game_id: str, text: str) -> Path:
    path = tables.overrides_path(game_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- the file and its checks ------------------------------------------------------------

def test_issue5_to_toml_reads_back_every_shipped_table() -> None:
    for gid in (W40, "aa_anniversary"):
        t = {k: thaw(v) for k, v in gamedata.load_game(gid).definition.tables.items()
             if isinstance(thaw(v), dict)}
        assert tomllib.loads(tables.to_toml(t))["tables"] == t, gid


def test_issue5_an_override_replaces_the_whole_table_and_nothing_else() -> None:
    write_file(W40, tables.to_toml({"combat": all_de_at_1_1()}))
    mine = tables.player_tables(W40)
    assert mine.problem is None and mine.overridden == ("combat",)
    base = gamedata.load_game(W40)
    assert mine.game is not base
    got = mine.game.definition.tables
    assert tuple(got["combat"]["crt"]["1-1"]) == ("DE",) * 6
    assert tuple(got["combat"]["crt"]["2-1"]) == tuple(base.definition.tables["combat"]["crt"]
                                                      ["2-1"])
    for k in base.definition.tables:
        if k != "combat":
            assert got[k] is base.definition.tables[k], k
    # load_game itself is unchanged: the CLI and tests keep our values.
    assert tuple(gamedata.load_game(W40).definition.tables["combat"]["crt"]["1-1"]) != \
        ("DE",) * 6
    assert gamedata.table_overrides_of(mine.game) == {"combat": all_de_at_1_1()}
    assert gamedata.table_overrides_of(base) == {}


def test_11_3_a_wrong_result_code_names_the_table_and_row_and_the_file_is_left_alone() -> None:
    t = shipped_crt()
    t["crt"]["1-1"][2] = "DX"  # not one of AS, AL1, DE, DR, BB [11.3]
    path = write_file(W40, tables.to_toml({"combat": t}))
    before = path.read_bytes()
    mine = tables.player_tables(W40)
    assert mine.problem is not None
    assert "tables.combat.crt.1-1[2]" in mine.problem
    assert "'DX' is not a result; use one of AS, AL1, DE, DR, BB" in mine.problem
    assert "shipped values" in mine.problem
    assert mine.game is gamedata.load_game(W40) and mine.overridden == ()
    assert path.read_bytes() == before


def test_issue5_write_overrides_refuses_a_bad_table_and_keeps_the_old_file() -> None:
    good = tables.write_overrides(W40, {"combat": all_de_at_1_1()})
    before = good.read_bytes()
    bad = all_de_at_1_1()
    bad["crt"]["5-1"] = ["DE"] * 5  # a row needs one result per die face [11.3]
    with pytest.raises(DataError, match=r"tables\.combat\.crt\.5-1: must give 6 results"):
        tables.write_overrides(W40, {"combat": bad})
    assert good.read_bytes() == before
    assert tables.write_overrides(W40, {}) == good and not good.exists()  # all reset


@pytest.mark.parametrize(("text", "match"), [
    ("[tables.combat\n", "is not valid TOML"),
    ("[other]\nx = 1\n", "other: is not allowed here"),
    ("[tables.no_such_table]\nx = 1\n", "tables.no_such_table: is not a table of this game"),
])
def test_issue5_a_malformed_file_is_refused_with_what_to_do(text: str, match: str) -> None:
    path = write_file(W40, text)
    mine = tables.player_tables(W40)
    assert mine.problem is not None and match in mine.problem, mine.problem
    assert "Fix the file or use Game → Rule Tables" in mine.problem
    assert path.read_text(encoding="utf-8") == text


def test_issue5_aa_research_override_is_checked_eagerly() -> None:
    base = gamedata.load_game("aa_anniversary")
    research = thaw(base.definition.tables["research"])
    research["no_such_key_in_the_chart"] = 1
    with pytest.raises(DataError, match="no_such_key_in_the_chart"):
        tables.check_overrides(base, {"research": research}, "aa.toml")


# --- new games use the player's values ------------------------------------------------------

def _goto(game: Any, state: Any, step: str, turn: int) -> Any:
    pos = next(p for p in game.positions if p.step.id == step)
    st = replace(state, step_index=pos.index, turn=turn, frames=(), active_side=pos.side)
    return game.rules.enter_step(game, st, pos).state


def test_11_3_a_new_game_with_a_printed_crt_resolves_1_to_1_with_it() -> None:
    # A panzer corps and an infantry corps (8 + 5 = 13) against a 4-13 Soviet army from
    # side-by-side hexes (not concentric [11.10]): 1:1 [11.3]. Our CRT gives AL1 on a 1;
    # the player's printed 1:1 row is DE on every roll.
    tables.write_overrides(W40, {"combat": all_de_at_1_1()})
    g = tables.player_tables(W40).game
    pz, inf = "german.ger_panzer.1", "german.ger_infantry.1"
    s = clear(ready())
    target, a, b = TGT, RING[0], RING[1]  # plain hexes in German supply, side by side
    s = put(put(s, pz, a), inf, b)
    s = put(s, "soviet.sov_regular.1", target, untried=False, factors=(4, 13))
    s = _goto(g, s, "german_east_combat_e", 2)
    s = s.with_var("air_used", ("german.ger_aircraft.1", "german.ger_aircraft.2",
                                "german.ger_aircraft.3", "german.ger_aircraft.4"))
    s = replace(s, dice_mode="physical")
    s = apply(g, s, Action.make("attack", "german", target=target, attackers=(pz, inf))).state
    fr = s.top_frame
    assert fr is not None and fr.kind == "dice" and "(1:1)" in str(fr.data["purpose"])
    out = apply(g, s, Action.make("dice", "german", values=(1,)))
    lines = [e.text for e in out.events if e.kind == "combat"]
    # The log says whose table decided it: the player's printed values, not ours.
    assert any(x.endswith(f"{target} at 1:1: roll 1 → DE (your printed CRT)") for x in lines), \
        lines


# --- saves record the values they were played with ----------------------------------------

def _played(game: Any) -> Session:
    s = Session.start(game, "standard", None, 1, "digital")
    for side in ("soviet", "german", "german", "anglo_french"):
        s = s.submit(Action.make("auto_setup", side))
        s = s.submit(Action.make("end_step", side))
    return s


def test_issue5_a_save_keeps_its_own_values_after_the_player_changes_the_file() -> None:
    tables.write_overrides(W40, {"combat": all_de_at_1_1()})
    session = _played(tables.player_tables(W40).game)
    data = savefile.dump_save(session, "2026-01-01T00:00:00")
    doc = json.loads(data)
    assert doc["format_version"] == 1  # an optional key: format 1 still
    assert doc["table_overrides"] == {"combat": all_de_at_1_1()}
    # The player now types different values: the save must still replay with its own.
    other = shipped_crt()
    other["crt"]["1-1"] = ["DR"] * 6
    tables.write_overrides(W40, {"combat": other, "gast": thaw(
        gamedata.load_game(W40).definition.tables["gast"]) | {"ploesti_drm": -2}})
    loaded = savefile.load_save(data, "mine.wartable.json")  # raises if the hash differs
    assert tuple(loaded.game.definition.tables["combat"]["crt"]["1-1"]) == ("DE",) * 6
    assert loaded.state == session.state
    assert tables.save_notice(loaded.game) == (
        "This game uses its own printed values for: CRT, GAST (kept from its save; your "
        "Rule Tables apply to new games).")
    # Saving it again records the same values.
    assert json.loads(savefile.dump_save(loaded, "2026-01-02T00:00:00"))["table_overrides"] \
        == {"combat": all_de_at_1_1()}


def test_issue5_a_save_with_our_values_has_no_key_and_loads_with_ours() -> None:
    session = _played(gamedata.load_game(W40))
    data = savefile.dump_save(session, "2026-01-01T00:00:00")
    assert "table_overrides" not in json.loads(data)
    loaded = savefile.load_save(data, "ours.wartable.json")
    assert loaded.game is gamedata.load_game(W40)
    assert tables.save_notice(loaded.game) is None
    tables.write_overrides(W40, {"combat": all_de_at_1_1()})
    assert tables.save_notice(loaded.game) == (
        "This game uses its own printed values for: CRT (kept from its save; your Rule "
        "Tables apply to new games).")


def test_issue5_an_old_save_without_the_key_still_loads() -> None:
    frozen = Path(__file__).resolve().parent / "frozen" / "skirmish-format1.wartable.json"
    doc = json.loads(frozen.read_bytes())
    assert "table_overrides" not in doc
    session = savefile.load_from_path(frozen)
    assert session.game is gamedata.load_game(doc["game_id"])


def test_issue5_a_save_whose_tables_are_not_a_table_is_refused() -> None:
    session = _played(gamedata.load_game(W40))
    doc = json.loads(savefile.dump_save(session, "2026-01-01T00:00:00"))
    doc["table_overrides"] = ["combat"]
    with pytest.raises(Exception, match="'table_overrides' should be an object"):
        savefile.load_save(json.dumps(doc).encode(), "bad.wartable.json")


@pytest.mark.parametrize(("table", "change", "match"), [
    ("turn_record", lambda t: t.update(sov_reinf=t["sov_reinf"][:-1]),
     r"tables\.turn_record\.sov_reinf: must give one number per turn \(11\), not 10"),
    ("movement_factors", lambda t: t["gemmf"].__setitem__(3, [10]),
     r"tables\.movement_factors\.gemmf\[3\]: must be \[mechanized, non-mechanized\]"),
    ("stacking", lambda t: t.update(east=0), r"tables\.stacking\.east"),
])
def test_2_10_3_2_7_4_plain_number_tables_are_checked_before_play(
        table: str, change: Any, match: str) -> None:
    # [2.10] GEMMF is a pair per turn, [3.2] the Turn Record gives one number per turn for
    # each of its 11 turns, [7.4] a hex holds at least one unit.
    base = gamedata.load_game(W40)
    t = thaw(base.definition.tables[table])
    change(t)
    with pytest.raises(DataError, match=match):
        tables.check_overrides(base, {table: t}, "mine.toml")
