"""Player aid cards (issue 21): each chart is a grid built from the game's data, the cards
group them, and facts a player does not consult are not printed."""

from __future__ import annotations

from typing import Any

from wartable.persistence.gamedata import load_game
from wartable.printing.chartparts import ChartEntry
from wartable.printing.charts import cards, charts_document, omitted
from wartable.printing.page import Page, PageSetup
from wartable.printing.tableblocks import Cell, Table

LOW = PageSetup(dpi=40)


def entry(game_id: str, key: str) -> ChartEntry:
    for _, es in cards(load_game(game_id)):
        for e in es:
            if e.key == key:
                return e
    raise AssertionError(f"{key} is on no card")


def tables_of(e: ChartEntry) -> list[Table]:
    out: list[Table] = []

    def walk(blocks: Any) -> None:
        for b in blocks:
            if isinstance(b, Table):
                out.append(b)
            walk(getattr(b, "blocks", ()))

    walk(e.blocks)
    return out


def cells(t: Table) -> list[list[str]]:
    return [[c.text if isinstance(c, Cell) else str(c) for c in r.cells] for r in t.rows
            if not r.group]


def drawn(doc: Any) -> str:
    out = []
    n = doc.page_count()
    for i in range(n):
        page = Page(doc.setup, i + 1, n)
        doc.draw_page(i, page)
        out.extend(t.text for t in page.texts)
    return " ".join(out)


def test_the_1940_crt_is_a_grid_of_odds_columns_by_die_rows() -> None:
    """[11.3, 11.14]: one column per odds column, one row per d6 roll, the results of the
    data in the cells, and the legend of every result."""
    game = load_game("whatif1940")
    raw = game.definition.tables["combat"]
    e = entry("whatif1940", "combat")
    assert e.kind == "crt" and e.provisional
    grid, legend = tables_of(e)
    heads = [c.title for c in grid.columns]
    assert heads[1:8] == ["1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1"]
    rows = cells(grid)
    assert [r[0] for r in rows] == ["1", "2", "3", "4", "5", "6"]
    for j, col in enumerate(raw["columns"]):
        assert [r[j + 1] for r in rows] == list(raw["crt"][col])
    assert [r[0] for r in cells(legend)] == list(raw["legend"])


def test_the_terrain_effects_chart_is_terrain_by_effect() -> None:
    """[10.8-10.14]: a row per terrain type or hexside feature, a column per effect."""
    raw = load_game("whatif1940").definition.tables["terrain_effects"]
    (grid,) = tables_of(entry("whatif1940", "terrain_effects"))
    effects = ["mech", "nonmech", "hexside_mech", "hexside_nonmech", "combat_left"]
    assert len(grid.columns) == 1 + len(effects)
    rows = {r[0].lower(): r[1:] for r in cells(grid)}
    for j, eff in enumerate(effects):
        for terrain, value in raw[eff].items():
            key = next(k for k in rows if k.replace(" ", "_").startswith(terrain))
            assert rows[key][j] == str(value), (terrain, eff)


def test_die_roll_and_turn_tables_have_a_row_per_roll_and_turn() -> None:
    t = load_game("whatif1940").definition.tables
    (gast,) = tables_of(entry("whatif1940", "gast"))
    assert [r[1] for r in cells(gast)] == [str(x) for x in t["gast"]["results"]]
    assert gast.columns[1].title == "Columns shifted left"
    (track,) = tables_of(entry("whatif1940", "turn_record"))
    rows = cells(track)
    assert len(rows) == 11 and [r[1] for r in rows] == list(t["turn_record"]["dates"])
    (mf,) = tables_of(entry("whatif1940", "movement_factors"))
    assert [c.title for c in mf.columns][1:] == ["German east MF: mech",
                                                 "German east MF: non-mech"]
    assert cells(mf)[0][1:] == ["12", "6"]


def test_the_breakthrough_charts_are_a_face_by_chart_grid() -> None:
    """A&A pg. 12: the two breakthrough charts, die face down, chart across."""
    devs = load_game("aa_anniversary").definition.tables["research"]["developments"]
    grid = tables_of(entry("aa_anniversary", "research"))[0]
    rows = cells(grid)
    assert [r[0] for r in rows] == ["1", "2", "3", "4", "5", "6"]
    for d in devs:
        assert rows[d["face"] - 1][d["chart"]] == d["name"]


def test_the_sequence_is_a_numbered_outline_with_alike_turns_once() -> None:
    game = load_game("aa_anniversary")
    (t,) = tables_of(entry("aa_anniversary", "sequence"))
    groups = [r.group for r in t.rows if r.group]
    assert groups[0].startswith("1. Germany, Soviet Union") and "each in turn" in groups[0]
    first = game.definition.sequence.phases[0]
    numbered = [r for r in cells(t) if r[0].startswith("1.")]
    assert [r[1] for r in numbered] == [s.name for s in first.steps]


def test_facts_a_player_does_not_consult_are_not_printed() -> None:
    """Adjacency pairs, territory records, box records and supply hex lists stay in the
    data; ids that are printed read as their names."""
    aa = load_game("aa_anniversary")
    assert {"adjacency", "spaces"} <= omitted(aa)
    text = drawn(charts_document(aa, setup=LOW))
    assert "Adjacency" not in text and "sz64" not in text and "alaska" not in text
    assert "Sea Zone 15" in text  # the Suez canal's sea zone, by name
    w40 = load_game("whatif1940")
    text = drawn(charts_document(w40, setup=LOW))
    assert "german_pool" not in text and "Rollbahn" not in text
    assert "Player aid card 1: Combat" in text


def test_cards_follow_the_games_data() -> None:
    game = load_game("whatif1940")
    titles = [t for t, _ in cards(game)]
    want = [str(c["title"]) for c in game.definition.player_aids["cards"]]
    assert titles == want  # every table is on a named card: no "Other tables" card
