"""Charts: every game's tables, by shape, with provisional ones marked."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from wartable.core.errors import DataError
from wartable.engine import procedures
from wartable.engine.rules import Game
from wartable.games import registry
from wartable.model.values import freeze
from wartable.persistence.gamedata import load_game
from wartable.printing.charts import cards, chart_entries, charts_document, omitted, table_chart
from wartable.printing.output import write_document
from wartable.printing.page import Page, PageSetup

LOW = PageSetup(dpi=40)


def all_games() -> list[str]:
    return [m.id for m in registry.installed()]


def drawn(doc: object) -> str:
    out = []
    n = doc.page_count()  # type: ignore[attr-defined]
    for i in range(n):
        page = Page(doc.setup, i + 1, n)  # type: ignore[attr-defined]
        doc.draw_page(i, page)  # type: ignore[attr-defined]
        out.extend(t.text for t in page.texts)
    return " ".join(out)


@pytest.mark.parametrize("game_id", all_games())
def test_every_game_prints_every_table_unit_and_step(game_id: str) -> None:
    game = load_game(game_id)
    d = game.definition
    entries = chart_entries(game)
    keys = [e.key for e in entries]
    assert keys[:len(d.tables)] == list(d.tables)  # every data table, in data order
    assert "units" in keys and "sequence" in keys
    # Printed: the player aid cards, every table on one unless the game omits it as a fact
    # a player does not consult (issue 21: adjacency lists, box records, hex lists).
    doc = charts_document(game, setup=LOW)
    text = drawn(doc)
    skip = omitted(game)
    on_cards = [e for _, es in cards(game) for e in es]
    assert {e.key for e in on_cards} >= {e.key for e in entries} - skip
    for e in on_cards:
        assert e.key not in skip
        assert e.title.split(" [")[0] in text, e.title
    for ut in d.unit_types.values():
        assert ut.name in text
    for ph in d.sequence.phases:
        for st in ph.steps:
            assert st.name in text
    # Die-roll tables: every result band and modifier is printed.
    for key, raw in d.tables.items():
        if hasattr(raw, "get") and "dice" in raw and "bands" in raw:
            proc = procedures.Procedure.from_dict(raw, key)
            for b in proc.bands:
                assert b.result in text and b.range_text() in text
            for m in proc.modifiers:
                assert m.text in text and f"{m.value:+d}" in text
    for e in on_cards:
        if e.provisional:
            assert "PROVISIONAL" in e.texts()
    assert doc.page_count() >= 1


def test_the_test_games_charts() -> None:
    game = load_game("skirmish")
    entries = {e.key: e for e in chart_entries(game)}
    assert entries["crt"].kind == "procedure" and not entries["crt"].provisional
    assert entries["terrain_cost"].kind == "terrain"  # keyed by the map's terrain types
    assert entries["terrain:skirmish/field"].provisional  # the synthetic map is provisional
    text = " ".join(entries["crt"].texts())
    assert "Combat Results Table [S5.3]" in text and "5+" in text and "1 or less" in text
    assert "the game decides" in text


def shapes_game() -> Game:
    """The test game plus one table of every shape the charts know."""
    game = load_game("skirmish")
    tables = dict(game.definition.tables)
    tables.update(freeze({
        "moscow": {"title": "Moscow Falls Table", "rule": "4.3", "dice": "1d6",
                   "provisional": True, "note": "Results not printed; ours.",
                   "bands": [{"roll": "5 or less", "result": "holds", "text": "Moscow holds"},
                             {"min": 6, "result": "falls", "text": "Moscow falls",
                              "provisional": True}],
                   "modifiers": [{"id": "mud", "text": "mud", "value": -2, "kind": "confirm"},
                                 {"id": "units", "text": "Allied unit in the nation",
                                  "value": 1, "kind": "computed", "condition": "allied",
                                  "per": True, "max_count": 3}],
                   "cumulative": {"min": -2, "max": 2}, "clamp": {"min": 1, "max": 6}},
        "big_crt": {"kind": "odds", "title": "Combat Results Table", "rule": "11.14",
                    "columns": ["1-2", "1-1", "2-1", "3-1"], "dice": "1d6",
                    "results": [["AE", "AR", "DR", "DE"]] * 6,
                    "legend": {"AE": "attacker eliminated", "DE": "defender eliminated"}},
        "objectives": {"germany": {"territory": "Moscow", "ipc": 5},
                       "ussr": {"territory": "Berlin", "ipc": 5, "provisional": True}},
        "nations": [{"name": "Finland", "joins": "Axis"}, {"name": "Sweden", "joins": "—"}],
        "odd": {"nested": {"deeper": [1, {"x": 2}]}, "flag": True},
    }))
    return Game(replace(game.definition, tables=freeze(tables)), game.rules, game.maps)


def test_every_table_shape_prints() -> None:
    game = shapes_game()
    entries = {e.key: e for e in chart_entries(game)}
    assert entries["moscow"].kind == "procedure" and entries["moscow"].provisional
    moscow = " ".join(entries["moscow"].texts())
    for want in ("Moscow Falls Table [4.3]", "PROVISIONAL", "Results not printed; ours.",
                 "5 or less", "6+", "falls †", "players confirm", "+1 each",
                 "(at most 3)", "at most +2", "at least -2", "Totals above 6 count as 6"):
        assert want in moscow, want
    crt = " ".join(entries["big_crt"].texts())
    assert entries["big_crt"].kind == "crt"
    for want in ("Combat Results Table [11.14]", "1-2", "3-1", "AE", "attacker eliminated"):
        assert want in crt
    assert entries["objectives"].kind == "records" and entries["objectives"].provisional
    assert "Berlin" in entries["objectives"].texts()
    assert entries["nations"].kind == "records" and "Finland" in entries["nations"].texts()
    assert entries["odd"].kind == "text" and "Deeper:" in " ".join(entries["odd"].texts())
    doc = charts_document(game, setup=LOW)
    text = drawn(doc)
    assert "Moscow Falls Table [4.3]" in text and "Sweden" in text
    assert "PROVISIONAL" in text
    intro = doc.blocks[1].texts()[0]  # type: ignore[attr-defined]
    assert "Moscow Falls Table" in intro and "PROVISIONAL" in intro


def test_a_broken_table_is_a_data_error_naming_it() -> None:
    game = load_game("skirmish")
    with pytest.raises(DataError, match="bad_crt"):
        table_chart("bad_crt", freeze({"kind": "odds", "columns": ["1-1", "2-1"],
                                       "results": [["AE"]]}), game)
    with pytest.raises(DataError, match="bad_proc"):
        table_chart("bad_proc", freeze({"title": "x", "dice": "1d6",
                                        "bands": [{"max": 3, "result": "a"}]}), game)


def test_charts_pdf_is_small(tmp_path: Path) -> None:
    out = write_document(charts_document(load_game("skirmish")), tmp_path / "charts.pdf")
    assert out.pages == 2
    assert max(out.page_bytes) < 2 * 1024 * 1024
