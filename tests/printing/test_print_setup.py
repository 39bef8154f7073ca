"""Setup sheets: every scenario of every installed game, per side, and the data conventions
(free placement, reinforcements, replacements, turn names) on a made-up scenario."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from wartable.core.errors import WartableError
from wartable.core.frozen import FrozenMap
from wartable.engine.rules import Game
from wartable.games import registry
from wartable.maps.model import HexMap
from wartable.model.definition import Placement, Scenario
from wartable.model.values import freeze
from wartable.persistence.gamedata import load_game
from wartable.printing import mapdraw
from wartable.printing.common import locate
from wartable.printing.output import write_document
from wartable.printing.page import Page, PageSetup, paper
from wartable.printing.setup_sheet import build_setup_sheet, setup_sheet_document

LOW = PageSetup(dpi=40)  # layout is in mm and points: the same pages at any resolution


def every_scenario() -> list[tuple[str, str]]:
    out = []
    for mod in registry.installed():
        game = load_game(mod.id)
        out.extend((mod.id, sc) for sc in game.definition.scenarios)
    return out


def drawn_texts(doc: object) -> list[list[str]]:
    """Every string drawn, page by page (at the document's resolution)."""
    out = []
    n = doc.page_count()  # type: ignore[attr-defined]
    for i in range(n):
        page = Page(doc.setup, i + 1, n)  # type: ignore[attr-defined]
        doc.draw_page(i, page)  # type: ignore[attr-defined]
        out.append([t.text for t in page.texts])
    return out


@pytest.mark.parametrize(("game_id", "scenario"), every_scenario())
def test_every_scenario_lists_its_units_and_locations(game_id: str, scenario: str) -> None:
    game = load_game(game_id)
    sc = game.definition.scenarios[scenario]
    sheet = build_setup_sheet(game, scenario)
    assert [s.side.id for s in sheet.sides] == list(game.definition.side_ids)
    for ss in sheet.sides:
        want = Counter((p.type, p.name, p.location, p.count) for p in sc.setup
                       if p.side == ss.side.id)
        got = Counter((u.type, u.name, u.location, u.count) for g in ss.groups for u in g.units)
        got += Counter((u.type, u.name, a.where.raw, u.count) for a in ss.arrivals
                       for u in a.units)
        assert got == want
        # Each location is listed once, resolved on the map when it is a map location; a
        # unit of a set-up pool with a set-up zone is listed under the zone, on the map.
        raws = [g.where.raw for g in ss.groups]
        assert len(raws) == len(set(raws))
        for g in ss.groups:
            if g.where.raw.startswith("zone:"):
                assert g.where.kind == "region" and g.where.locations and g.where.map_id
                continue
            assert g.where == locate(game, g.where.raw)
            assert all(u.location == g.where.raw for u in g.units)
        assert [t.turn for t in ss.turns] == list(range(sc.first_turn, sc.last_turn + 1))


@pytest.mark.parametrize(("game_id", "scenario"), every_scenario())
def test_every_scenario_prints_every_unit_and_location(game_id: str, scenario: str) -> None:
    game = load_game(game_id)
    doc = setup_sheet_document(game, scenario, setup=LOW)
    pages = drawn_texts(doc)
    sheet = build_setup_sheet(game, scenario)
    assert len(pages) == doc.page_count() >= len(sheet.sides)
    # Each side starts on its own page, and its pages name it in the header.
    for ss in sheet.sides:
        mine = [t for page in pages if any(f"{ss.side.name} setup" in x for x in page)
                for t in page]
        names = [u.name or u.type_name for g in ss.groups for u in g.units]
        # Units alike but for their designation share a row: "I, II, III …" (wrapped).
        shown = [n.strip() for t in mine for n in t.split(",")]
        assert Counter(n for n in shown if n in set(names)) >= Counter(names)
        for g in ss.groups:
            assert any(g.where.label in t for t in mine), g.where.label
        sc = game.definition.scenarios[scenario]
        if sc.turn_limit is not None:
            assert str(sc.last_turn) in mine  # turn record track
        else:  # no turn limit: said so, and no track of placeholder turns
            assert not any(str(sc.last_turn) in t for t in mine)
            assert any("until a side wins" in t for t in mine)


def test_side_is_found_by_id_or_name_in_any_case() -> None:
    game = load_game("skirmish")
    for text in ("red", "Red", "RED", " red "):
        sheet = build_setup_sheet(game, "meeting", text)
        assert [s.side.id for s in sheet.sides] == ["red"]
    with pytest.raises(WartableError, match=r"no side 'green'.*Blue \(blue\), Red \(red\)"):
        build_setup_sheet(game, "meeting", "green")
    with pytest.raises(WartableError, match="no scenario 'nope'.*meeting"):
        build_setup_sheet(game, "nope")


def test_groups_are_sorted_as_a_player_sets_up() -> None:
    game = load_game("skirmish")
    sheet = build_setup_sheet(game, "meeting", "blue")
    labels = [g.where.label for g in sheet.sides[0].groups]
    assert labels == sorted(labels) == ["0205", "0207", "0208", "0211", "0309"]
    assert [g.key for g in sheet.sides[0].groups] == ["1", "2", "3", "4", "5"]


def test_counters_print_at_true_size() -> None:
    game = load_game("skirmish")
    board = game.maps["skirmish/field"]
    assert mapdraw.counter_mm(board) == pytest.approx(12.7)  # 1/2 inch on a 17.6 mm hex
    assert mapdraw.counter_mm(board, hex_mm=22.0) == pytest.approx(22.0 * 0.72)
    doc = setup_sheet_document(game, "contact", "blue", setup=PageSetup(dpi=300))
    table = next(b for b in doc.blocks if type(b).__name__ == "Table")
    img = table.rows[1].cells[1].images[0]  # type: ignore[attr-defined]
    assert img.width_mm == pytest.approx(12.7)
    assert img.render(150, 150).size == (150, 150)  # 12.7 mm at 300 dpi
    sized = setup_sheet_document(game, "contact", "blue", counter_size_mm=16.0)
    table = next(b for b in sized.blocks if type(b).__name__ == "Table")
    assert table.rows[1].cells[1].images[0].width_mm == 16.0  # type: ignore[attr-defined]
    with pytest.raises(WartableError, match="3 to 60 mm"):
        setup_sheet_document(game, "contact", counter_size_mm=100)


# --- the conventions, on a made-up scenario ----------------------------------------------------


def conventions_game() -> Game:
    """The test game with a scenario using every setup convention."""
    game = load_game("skirmish")
    d = game.definition
    setup = (
        Placement("infantry", "blue", "0205", 2, "1st Inf"),
        Placement("armour", "blue", "region:West", 1, "7th Armd",
                  freeze({"placement": "at most one per hex"})),
        Placement("artillery", "blue", "Anywhere within 2 hexes of Carsk", 1, "11th Arty"),
        Placement("infantry", "blue", "0101", 1, "4th Inf", freeze({"turn": 3})),
        Placement("armour", "blue", "box:eliminated", 1, "Wreck", freeze({"step": 2})),
        Placement("infantry", "red", "2205", 1, "21st Rifle"),
        Placement("infantry", "red", "1203", 1, "Late Rifle", freeze({"turn": 2})),
    )
    vars_ = freeze({
        "setup_notes": {"blue": "Blue sets up first.", "*": "Stacking: two units per hex."},
        "reinforcements": [{"side": "red", "turn": 4, "text": "2 rifle units, drawn blind"}],
        "replacements": [{"side": "blue", "from_turn": 2, "to_turn": 3, "text": "1 step"},
                         {"side": "red", "turn": 5, "text": "one infantry step"}],
        "turn_names": ["Jun I", "Jun II", "Jul I", "Jul II", "Aug I"],
    })
    sc = Scenario("conventions", "Conventions", "Every setup convention.", 1, 5, setup, vars_)
    return Game(replace(d, scenarios=FrozenMap({**dict(d.scenarios), sc.id: sc})), game.rules,
                game.maps)


def test_conventions_build_the_right_sheet() -> None:
    game = conventions_game()
    sheet = build_setup_sheet(game, "conventions")
    blue, red = sheet.sides
    kinds = [(g.where.kind, g.where.label) for g in blue.groups]
    assert kinds == [("hex", "0205"), ("region", "Anywhere in West"),
                     ("box", "Eliminated units"),
                     ("free", "Anywhere within 2 hexes of Carsk")]
    region = blue.groups[1]
    board = game.maps["skirmish/field"]
    west = {board.label_of(h) for h, i in board.hexes.items() if i.region == "West"}
    assert set(region.where.locations) == west
    assert region.instructions == ("at most one per hex",)
    assert blue.groups[0].units[0].count == 2 and blue.unit_count() == 5
    assert blue.groups[2].units[0].values.endswith("(reduced)")
    assert [(a.turn, a.where.label) for a in blue.arrivals] == [(3, "0101")]
    assert blue.notes == ("Stacking: two units per hex.", "Blue sets up first.")
    assert [(e.turns_text(), e.text) for e in blue.replacements] == [("2–3", "1 step")]
    assert [(e.turn, e.text) for e in red.reinforcement_notes] == [
        (4, "2 rifle units, drawn blind")]
    track = {t.turn: t for t in blue.turns}
    assert track[1].name == "Jun I" and track[5].name == "Aug I"
    assert track[3].lines == ("+1 unit", "Repl: 1 step") and track[2].lines == ("Repl: 1 step",)
    red_track = {t.turn: t for t in red.turns}
    assert red_track[2].arrivals == 1 and "R: 2 rifle units, drawn blind" in red_track[4].lines
    assert red_track[5].lines == ("Repl: one infantry step",)


def test_conventions_are_printed() -> None:
    game = conventions_game()
    doc = setup_sheet_document(game, "conventions", setup=LOW)
    text = " ".join(t for page in drawn_texts(doc) for t in page)
    for want in ("Anywhere in West", "at most one per hex", "Anywhere within 2 hexes of Carsk",
                 "Reinforcements", "Turn 3 (Jul I)", "enter: 0101", "Replacements", "2–3",
                 "1 step", "2 rifle units, drawn blind", "Blue sets up first.", "Jun II",
                 "Eliminated units", "set-up zones (free placement)", "reinforcements enter"):
        assert want in text, want
    # The map excerpt marks each location by its number, entry hexes by R<turn>.
    assert {"1", "2", "3", "R3"} <= set(doc.texts())


@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="needs poppler-utils")
@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_setup_pdf_pages_have_the_paper_size(tmp_path: Path, paper_name: str) -> None:
    game = load_game("skirmish")
    setup = PageSetup(paper(paper_name), dpi=300)
    doc = setup_sheet_document(game, "meeting", setup=setup)
    out = write_document(doc, tmp_path / "setup.pdf")
    info = subprocess.run(["pdfinfo", str(out.paths[0])], capture_output=True, text=True,
                          check=True).stdout
    w, h = (float(v) for v in re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
    assert (w, h) == pytest.approx((595.28, 841.89) if paper_name == "a4" else (612, 792),
                                   abs=0.01)
    assert re.search(rf"Pages:\s+{doc.page_count()}\n", info)
    assert doc.page_count() == 4  # two pages per side: the excerpt, the table, the track
    # Small enough to e-mail: every page well under 2 MB.
    assert max(out.page_bytes) < 2 * 1024 * 1024


def test_a_free_set_up_lists_its_units_under_set_up_zones_on_the_real_map() -> None:
    """1940 [3.3]: the German infantry and panzer corps wait in set-up pools; the sheet lists
    them under the zones where they go (Greater Germany on each map), tinted on the map
    excerpt, with the limit and the rule, and never names the app's own pools."""
    game = load_game("whatif1940")
    sc = game.definition.scenarios["standard"]
    sheet = build_setup_sheet(game, "standard", "german")
    (ss,) = sheet.sides
    pools = {z["from"] for z in game.definition.player_aids["setup_zones"]}
    zones = [g for g in ss.groups if g.where.raw.startswith("zone:")]
    assert [g.where.map_id for g in zones] == ["whatif1940/west", "whatif1940/east"]
    assert all(g.where.raw not in pools for g in ss.groups)
    west = game.maps["whatif1940/west"]
    assert isinstance(west, HexMap)
    assert {west.hexes[west.hex_of(h)].region for h in zones[0].where.locations} == {
        "Greater Germany"}
    assert "[3.3]" in zones[0].where.description and "2 per hex" in zones[0].where.description
    placed = sum(p.count for p in sc.setup if p.side == "german")
    assert ss.unit_count() == placed
    text = " ".join(t for page in drawn_texts(setup_sheet_document(game, "standard", "german",
                                                                     setup=LOW)) for t in page)
    assert "Greater Germany" in text and "set-up zones" in text
    assert "infantry corps to sort" not in text and "(continued) (continued)" not in text
