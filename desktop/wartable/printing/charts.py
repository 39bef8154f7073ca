"""Charts: a game's tables printed for the table edge.

`charts_document(game)` prints, in this order:

1. every table of the game data (``[tables.*]``), in data order, each drawn by its shape:
   - a die-roll procedure (``dice`` + ``bands``, parsed by `engine.procedures`): the result
     bands by modified roll, the modifiers (value, when, decided by the game or confirmed by
     the players, rule), caps and clamps, notes;
   - a combat results table over an odds or differential ladder (``kind = "odds" |
     "differential"``, ``columns``, and ``results`` as one list per die roll, or ``rows`` of
     ``{roll, results}``): column headers from `engine.odds`, a legend from ``legend``;
   - a table of values keyed by terrain type (terrain effects: each with its map swatch),
     any other table of values (two columns), a table of tables (rows by key, columns by
     field) or a list of tables (national objectives, unit lists...);
   - anything else as indented key: value lines;
2. unit statistics: every unit type with its counter, symbol, size, factors, movement and
   extra fields;
3. the terrain key of every map;
4. the sequence of play, and the optional rules.

A table (or band, or modifier) with ``provisional = true`` holds our values where the
rulebook's are missing: it is printed with an orange PROVISIONAL tag and its ``note``.
Optional keys on any table: ``title``, ``rule``, ``note``, ``provisional``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wartable.core.errors import DataError
from wartable.engine import procedures
from wartable.engine.rules import Game
from wartable.maps.model import AreaMap, HexMap
from wartable.printing import areadraw
from wartable.printing.blocks import (
    Block,
    Heading,
    KeepTogether,
    PageBreak,
    Paragraph,
    RunningHeader,
)
from wartable.printing.chartgrids import (
    Options,
    crt_grid,
    grouped_records,
    is_crt,
    is_grouped_records,
    is_roll_table,
    is_series,
    is_terrain_grid,
    pivot_grid,
    roll_grid,
    series_grid,
    terrain_grid,
    terrain_ids,
)
from wartable.printing.chartparts import (
    DAGGER,
    META,
    ChartEntry,
    Names,
    fmt,
    head,
    humanize,
    names_of,
    rule_ref,
    scalar,
    title_of,
)
from wartable.printing.common import counter_cell
from wartable.printing.counterart import Palette
from wartable.printing.flow import FlowDocument
from wartable.printing.page import PageSetup
from wartable.printing.tableblocks import Cell, Column, Row, Table

__all__ = ["ChartEntry", "chart_entries", "charts_document"]

# --- the table shapes --------------------------------------------------------------------------


def procedure_chart(key: str, raw: Mapping[str, Any]) -> ChartEntry:
    """A die-roll table with its modifiers, from the procedure data."""
    proc = procedures.Procedure.from_dict(raw if "id" in raw else {"id": key, **raw}, key)
    title = proc.title + (f" {rule_ref(proc.rule)}" if proc.rule else "")
    blocks = head(title, proc.provisional, proc.note)
    how = f"Roll {proc.dice}"
    if proc.modifiers:
        how += ", add the modifiers that apply, and read the result on the modified total"
    lo, hi = proc.reachable()
    if lo != float("-inf") and hi != float("inf"):
        how += f" (totals run from {int(lo)} to {int(hi)})"
    blocks.append(Paragraph(how + ".", 9))
    band_rows = []
    for b in sorted(proc.bands, key=lambda b: -1e9 if b.low is None else b.low):
        mark = f" {DAGGER}" if b.provisional else ""
        band_rows.append(Row((Cell(b.range_text(), bold=True),
                              Cell(b.result + mark, bold=True),
                              Cell(b.text if b.text != b.result else ""))))
    blocks.append(Table([Column("Modified roll", fixed_mm=30.0, align="c"),
                         Column("Result", fixed_mm=28.0, align="c"), Column("Meaning", 1.0)],
                        band_rows, size_pt=9))
    blocks = [KeepTogether(blocks)]
    if proc.modifiers:
        mod_rows = []
        for m in proc.modifiers:
            value = f"{m.value:+d}" + (" each" if m.counted else "")
            when = m.text + (f" (at most {m.max_count})" if m.counted and m.max_count else "")
            who = "the game decides" if m.kind == "computed" else "players confirm"
            mark = f" {DAGGER}" if m.provisional else ""
            mod_rows.append(Row((Cell(value + mark, bold=True), Cell(when), Cell(who),
                                 Cell(rule_ref(m.rule)))))
        blocks.append(KeepTogether([
            Paragraph("Die-roll modifiers", 9, bold=True, after_mm=0.8),
            Table([Column("DRM", fixed_mm=18.0, align="c"), Column("When", 3.0),
                   Column("Decided by", 1.3), Column("Rule", fixed_mm=16.0, align="c")],
                  mod_rows, size_pt=9)]))
    limits = []
    if proc.cumulative_min is not None or proc.cumulative_max is not None:
        parts = []
        if proc.cumulative_max is not None:
            parts.append(f"at most {proc.cumulative_max:+d}")
        if proc.cumulative_min is not None:
            parts.append(f"at least {proc.cumulative_min:+d}")
        limits.append("The net modifier is " + " and ".join(parts) + ".")
    if proc.clamp_min is not None:
        limits.append(f"Totals below {proc.clamp_min} count as {proc.clamp_min}.")
    if proc.clamp_max is not None:
        limits.append(f"Totals above {proc.clamp_max} count as {proc.clamp_max}.")
    if any(b.provisional for b in proc.bands) or any(m.provisional for m in proc.modifiers):
        limits.append(f"{DAGGER} Provisional value: ours, the rulebook does not give it.")
    if limits:
        blocks.append(Paragraph(" ".join(limits), 8.5, italic=True))
    provisional = proc.provisional or any(b.provisional for b in proc.bands) or any(
        m.provisional for m in proc.modifiers)
    return ChartEntry(key, proc.title, blocks, provisional, "procedure")


def ladder_chart(key: str, raw: Mapping[str, Any]) -> ChartEntry:
    """A combat results table over an odds or differential ladder (`chartgrids.crt_grid`)."""
    return crt_grid(key, raw)


def values_chart(key: str, raw: Mapping[str, Any], game: Game, opts: Options | None = None,
                 names: Names | None = None) -> ChartEntry:
    """A table of values; keyed by terrain type, it becomes a terrain effects chart."""
    data = {k: v for k, v in raw.items() if k not in META}
    terrains = terrain_ids(game)
    is_terrain = bool(data) and sum(k in terrains for k in data) * 2 >= len(data)
    title = title_of(key, {**raw, **(opts or {})})
    blocks = head(title, bool(raw.get("provisional")), str(raw.get("note", "") or ""))
    rows = []
    for k, v in data.items():
        if is_terrain and k in terrains:
            t = terrains[k]
            rows.append(Row((Cell(t.name[:1].upper() + t.name[1:], swatch=t.fill, bold=True),
                             Cell(fmt(v, names)))))
        else:
            rows.append(Row((Cell(humanize(str(k)), bold=True), Cell(fmt(v, names)))))
    o = opts or {}
    first = "Terrain" if is_terrain else str(o.get("index", "Item"))
    blocks.append(Table([Column(first, 1.0), Column(str(o.get("result", humanize(key) if not
                                                              is_terrain else "Value")), 1.2)],
                        rows, size_pt=9))
    return ChartEntry(key, title, [KeepTogether(blocks)] if len(rows) < 25 else blocks,
                      bool(raw.get("provisional")), "terrain" if is_terrain else "values")


def records_chart(key: str, raw: Any, game: Game, opts: Options | None = None,
                  names: Names | None = None) -> ChartEntry:
    """A table of tables (rows by key) or a list of tables: columns are their fields."""
    meta = raw if isinstance(raw, Mapping) else {}
    if isinstance(raw, Mapping):
        items = [(str(k), v) for k, v in raw.items() if k not in META]
    else:
        items = [("", v) for v in raw]
    opts = opts or {}
    fields: list[str] = [str(f) for f in opts.get("fields", ())]
    for _, rec in items if not fields else ():
        for f in rec:
            if f not in fields and f != "provisional":
                fields.append(str(f))
    keyed = any(k for k, _ in items)
    sides = {sd.id: sd.name for sd in game.definition.sides}
    cols = ([Column("", 1.0)] if keyed else []) + [Column(humanize(f), 1.0) for f in fields]
    rows = []
    any_prov = False
    for k, rec in items:
        mark = f" {DAGGER}" if rec.get("provisional") else ""
        any_prov = any_prov or bool(mark)
        name = sides.get(k) or (names or {}).get(k) or humanize(k)
        cells = ([Cell(name + mark, bold=True)] if keyed else []) + [
            Cell(fmt(rec.get(f, ""), names) + (mark if not keyed and i == 0 else ""))
            for i, f in enumerate(fields)]
        rows.append(Row(tuple(cells)))
    title = title_of(key, {**meta, **opts})
    provisional = bool(meta.get("provisional"))
    blocks = head(title, provisional, str(meta.get("note", "") or ""))
    table = Table(cols, rows, size_pt=8.5)
    blocks = [KeepTogether([*blocks, table])] if len(rows) < 25 else [*blocks, table]
    if any_prov:
        blocks.append(Paragraph(f"{DAGGER} Provisional: ours, the rulebook does not give it.",
                                8, italic=True))
    return ChartEntry(key, title, blocks, provisional or any_prov, "records")


def text_chart(key: str, raw: Any) -> ChartEntry:
    meta = raw if isinstance(raw, Mapping) else {}
    title = title_of(key, meta)
    blocks = head(title, bool(meta.get("provisional")), str(meta.get("note", "") or ""))
    lines: list[str] = []

    def walk(v: Any, indent: int) -> None:
        pad = "\u00a0" * 4 * indent  # no-break spaces: kept by the word wrap
        if isinstance(v, Mapping):
            for k, x in v.items():
                if indent == 0 and k in META:
                    continue
                if scalar(x) or (isinstance(x, list | tuple) and all(scalar(y) for y in x)):
                    lines.append(f"{pad}{humanize(str(k))}: {fmt(x)}")
                else:
                    lines.append(f"{pad}{humanize(str(k))}:")
                    walk(x, indent + 1)
        elif isinstance(v, list | tuple):
            for x in v:
                if scalar(x):
                    lines.append(f"{pad}• {fmt(x)}")
                else:
                    lines.append(f"{pad}•")
                    walk(x, indent + 1)
        else:
            lines.append(f"{pad}{fmt(v)}")

    walk(raw, 0)
    blocks.append(Paragraph("\n".join(lines), 8.5))
    return ChartEntry(key, title, blocks, bool(meta.get("provisional")), "text")


def table_chart(key: str, raw: Any, game: Game, opts: Options | None = None,
                names: Names | None = None) -> ChartEntry:
    """The chart of one data table, by its shape (`opts`: a `[player_aids]` entry)."""
    opts = opts or {}
    if isinstance(raw, Mapping):
        if "pivot" in opts and "rows" in opts:
            return pivot_grid(key, raw, opts, names)
        if "dice" in raw and "bands" in raw:
            return procedure_chart(key, raw)
        if is_crt(raw):
            return crt_grid(key, raw, opts)
        if is_roll_table(raw):
            return roll_grid(key, raw, opts, names)
        if is_terrain_grid(raw, game):
            return terrain_grid(key, raw, game, opts)
        if is_series(raw):
            return series_grid(key, raw, opts, names)
        data = {k: v for k, v in raw.items() if k not in META}
        if data and all(scalar(v) or (isinstance(v, list | tuple) and all(scalar(x) for x in v))
                        for v in data.values()):
            return values_chart(key, raw, game, opts, names)
        if data and all(isinstance(v, Mapping) and all(scalar(x) or isinstance(x, list | tuple)
                                                       for x in v.values())
                        for v in data.values()):
            return records_chart(key, raw, game, opts, names)
        if is_grouped_records(raw):
            return grouped_records(key, raw, opts, names)
    elif isinstance(raw, list | tuple) and raw and all(isinstance(v, Mapping) for v in raw):
        return records_chart(key, raw, game, opts, names)
    return text_chart(key, raw)


# --- the fixed charts ----------------------------------------------------------------------------


EXTRA_COLUMNS = 6  # game-specific unit values per table


def unit_chart(game: Game, palette: Palette = "standard", counter_mm: float = 11.0) -> ChartEntry:
    """Every unit type with its counter and values. ``[player_aids] unit_fields`` names the
    further values a player consults (default: all but notes); a unit's ``note`` prints as a
    footnote and a ``provisional`` one is marked."""
    d = game.definition
    used: dict[str, str] = {}
    for sc in d.scenarios.values():
        for pl in sc.setup:
            used.setdefault(pl.type, pl.side)
    chosen = d.player_aids.get("unit_fields")
    extras: list[str] = [str(k) for k in chosen] if chosen is not None else []
    if chosen is None:
        for ut in d.unit_types.values():
            extras += [k for k in ut.extra if k not in extras and k not in ("note", "provisional")]
    # A column every unit leaves empty says nothing: left out.
    extras = [k for k in extras if any(ut.extra.get(k) not in (None, "", False)
                                       for ut in d.unit_types.values())]
    first, more = extras[:EXTRA_COLUMNS - 2], extras[EXTRA_COLUMNS - 2:]
    sized = any(ut.size for ut in d.unit_types.values())
    moving = any(ut.movement for ut in d.unit_types.values())
    cols = [Column("Counter", fixed_mm=max(counter_mm + 3.0, 17.0)), Column("Unit", 1.6),
            *([Column("Size", fixed_mm=12.0, align="c")] if sized else []),
            Column("Factors", fixed_mm=18.0, align="c"),
            *([Column("Move", fixed_mm=13.0, align="c")] if moving else [])] + [
        Column(humanize(k), 1.0, align="c") for k in first]
    rows = []
    notes: list[str] = []
    for ut in d.unit_types.values():
        side = used.get(ut.id, d.sides[0].id)
        img = counter_cell(game, ut.id, side, {}, counter_mm, palette)
        mark = f" {DAGGER}" if ut.extra.get("provisional") else ""
        note = str(ut.extra.get("note", "") or "")
        if note:
            notes.append(f"{ut.name}: {note}")
            mark += f" ({len(notes)})"
        rows.append(Row((Cell(images=(img,)),
                         Cell(ut.name + mark, bold=True),
                         *([Cell(ut.size or "—")] if sized else []),
                         Cell("-".join(str(f) for f in ut.factors) or "—"),
                         *([Cell(str(ut.movement) if ut.movement else "—")] if moving else []),
                         *(Cell(fmt(ut.extra.get(k, "—"))) for k in first))))
    blocks: list[Block] = [Heading("Unit chart", 2),
                           Paragraph("Each counter as printed (factors left to right, then "
                                     "movement), with its values.", 9),
                           Table(cols, rows, size_pt=9)]
    # Further values in tables of a few columns each, so names and values stay readable
    # however many a game defines.
    for i in range(0, len(more), EXTRA_COLUMNS):
        part = more[i:i + EXTRA_COLUMNS]
        blocks.append(KeepTogether([Table(
            [Column("Unit", 1.4)] + [Column(humanize(k), 1.0, align="c") for k in part],
            [Row((Cell(ut.name, bold=True), *(Cell(fmt(ut.extra.get(k, "—"))) for k in part)))
             for ut in d.unit_types.values()], size_pt=9)]))
    if any(ut.extra.get("provisional") for ut in d.unit_types.values()):
        notes.insert(0, f"{DAGGER} Provisional values: ours, the rulebook does not give them.")
    if notes:
        blocks.append(Paragraph("\n".join(f"({i}) {n}" if not n.startswith(DAGGER) else n
                                          for i, n in enumerate(notes, 0 if notes[0].startswith(
                                              DAGGER) else 1)), 7.5))
    return ChartEntry("units", "Unit chart", blocks, kind="units")


def terrain_key(game: Game) -> list[ChartEntry]:
    """Each map's key: the terrain types and hexside features found on it, with their map
    colour (their effects are the terrain effects chart's)."""
    out = []
    for board in game.maps.values():
        if isinstance(board, HexMap):
            present = {info.terrain for info in board.hexes.values()}
            rows = [Row((Cell(t.name[:1].upper() + t.name[1:], swatch=t.fill, bold=True),
                         Cell("terrain")))
                    for tid, t in board.terrain_types.items() if tid in present]
            feats = sorted({f for fs in board.hexsides.values() for f in fs})
            rows += [Row((Cell(humanize(f), bold=True), Cell("hexside"))) for f in feats]
            table = Table([Column("Key", 1.0), Column("Kind", 1.0)], rows, size_pt=9)
        elif isinstance(board, AreaMap):
            rows = [Row((Cell("Land territory", swatch=areadraw.LAND, bold=True),
                         Cell("land space"))),
                    Row((Cell("Sea zone", swatch=areadraw.SEA, bold=True), Cell("sea space")))]
            table = Table([Column("Key", 1.0), Column("Kind", 1.0)], rows, size_pt=9)
        else:
            continue
        title = f"Terrain key: {board.title}"
        blocks: list[Block] = [Heading(title, 2, badge="PROVISIONAL" if board.provisional
                                       else "")]
        if board.provisional:
            blocks.append(Paragraph("Provisional map: drawn by us from real geography where "
                                    "the printed map is missing; its terrain may differ from "
                                    "the printed map's.", 8.5, fill="#fdebd7"))
        blocks.append(table)
        out.append(ChartEntry(f"terrain:{board.id}", title, [KeepTogether(blocks)],
                              board.provisional, "terrain-key"))
    return out


def _names_in_turn(names: list[str]) -> str:
    """"Germany turn", "Japan turn" -> "Germany, Japan turns, each in turn"."""
    words = [n.split(" ") for n in names]
    tail = words[0][-1] if all(len(w) > 1 and w[-1] == words[0][-1] for w in words) else ""
    short = [" ".join(w[:-1]) if tail else " ".join(w) for w in words]
    return ", ".join(short) + (f" {tail}s" if tail else "") + ", each in turn"


def sequence_chart(game: Game) -> ChartEntry:
    """The sequence of play as a numbered outline: phases 1, 2 …, their steps 1.1, 1.2 …,
    each with what to do, when it happens and its rule. Consecutive phases with the same
    steps (each power's turn) print once, under all their names."""
    d = game.definition
    groups: list[list[Any]] = []
    seen: set[str] = set()
    for ph in d.sequence.phases:
        if ph.name in seen:
            continue
        seen.add(ph.name)
        sig = tuple((s.name, s.prompt, s.condition, s.rule) for s in ph.steps)
        if groups and groups[-1][0] == sig and groups[-1][1][0].rule == ph.rule:
            groups[-1][1].append(ph)
        else:
            groups.append([sig, [ph]])
    long_rules = any(len(rule_ref(s.rule)) > 12 for ph in d.sequence.phases for s in ph.steps)
    rows: list[Row] = []
    for n, (_, phases) in enumerate(groups, 1):
        ph = phases[0]
        name = ph.name if len(phases) == 1 else _names_in_turn([p.name for p in phases])
        note = rule_ref(ph.rule) + (f" (when {ph.condition.replace('_', ' ')})" if ph.condition
                                    else "")
        rows.append(Row(group=f"{n}. {name}", group_note=note.strip()))
        for m, st in enumerate(ph.steps, 1):
            cond = f"only if {st.condition.replace('_', ' ')}" if st.condition else ""
            rows.append(Row((Cell(f"{n}.{m}", bold=True), Cell(st.name, bold=True),
                             Cell(st.prompt or ""), Cell(cond), Cell(rule_ref(st.rule)))))
    rule_col = (Column("Rule", 1.1) if long_rules else Column("Rule", fixed_mm=15.0, align="c"))
    blocks: list[Block] = [Heading("Sequence of play", 2),
                           Table([Column("", fixed_mm=9.0), Column("Step", 1.0),
                                  Column("What to do", 2.6), Column("Condition", 1.0),
                                  rule_col], rows, size_pt=8.5)]
    return ChartEntry("sequence", "Sequence of play", blocks, kind="sequence")


def options_chart(game: Game) -> ChartEntry | None:
    opts = game.definition.options
    if not opts:
        return None
    rows = [Row((Cell(o.name, bold=True), Cell(o.description), Cell(fmt(o.default)),
                 Cell(rule_ref(o.rule)))) for o in opts]
    blocks: list[Block] = [Heading("Optional rules", 2),
                           Table([Column("Option", 1.0), Column("Effect", 2.5),
                                  Column("Default", fixed_mm=16.0, align="c"),
                                  Column("Rule", 1.0) if any(len(rule_ref(o.rule)) > 12
                                                             for o in opts)
                                  else Column("Rule", fixed_mm=15.0, align="c")],
                                 rows, size_pt=8.5)]
    return ChartEntry("options", "Optional rules", blocks, kind="options")


FIXED = ("@units", "@terrain", "@sequence", "@options")  # the charts not from a table


def _fixed(game: Game, name: str, palette: Palette) -> list[ChartEntry]:
    if name == "@units":
        return [unit_chart(game, palette)]
    if name == "@terrain":
        return terrain_key(game)
    if name == "@sequence":
        return [sequence_chart(game)]
    opt = options_chart(game)
    return [opt] if opt is not None else []


def _aids(game: Game) -> Mapping[str, Any]:
    return game.definition.player_aids


def omitted(game: Game) -> set[str]:
    """The tables a player does not consult (``[player_aids] omit``): not printed."""
    omit = _aids(game).get("omit", ())
    unknown = [k for k in omit if k not in game.definition.tables]
    if unknown:
        raise DataError(game.definition.id, "player_aids.omit", f"no table {unknown[0]!r}")
    return set(omit)


def _items(card: Mapping[str, Any], where: str) -> list[tuple[str, Mapping[str, Any]]]:
    out: list[tuple[str, Mapping[str, Any]]] = []
    for i, item in enumerate(card.get("charts", ())):
        if isinstance(item, str):
            out.append((item, {}))
        elif isinstance(item, Mapping) and isinstance(item.get("table"), str):
            out.append((item["table"], item))
        else:
            raise DataError(where, f"charts[{i}]", "expected a table id or "
                            "{ table = ..., options }")
    return out


def cards(game: Game, palette: Palette = "standard") -> list[tuple[str, list[ChartEntry]]]:
    """The player aid cards, in print order: (card title, its charts).

    A game's ``[player_aids]`` groups its tables (and the fixed charts "@units",
    "@terrain", "@sequence", "@options") into titled ``cards``, with print options per
    table (see `chartgrids`); the tables it does not name, and does not ``omit``, follow on
    a last card, so nothing a player may need is dropped. Without ``[player_aids]`` every
    table prints in data order on one card.
    """
    d = game.definition
    names = names_of(game)
    skip = omitted(game)
    out: list[tuple[str, list[ChartEntry]]] = []
    placed: set[str] = set()
    for n, card in enumerate(_aids(game).get("cards", ())):
        where = f"player_aids.cards[{n}]"
        entries: list[ChartEntry] = []
        for key, opts in _items(card, where):
            if key in FIXED:
                entries.extend(_fixed(game, key, palette))
            elif key in d.tables:
                entries.append(table_chart(key, d.tables[key], game, opts, names))
            else:
                raise DataError(d.id, where, f"no table {key!r}")
            placed.add(key)
        out.append((str(card.get("title", f"Card {n + 1}")), entries))
    rest = [table_chart(str(k), v, game, None, names) for k, v in d.tables.items()
            if k not in placed and k not in skip]
    for name in FIXED:
        if name not in placed:
            rest.extend(_fixed(game, name, palette))
    if rest:
        out.append(("Charts and tables" if not out else "Other tables", rest))
    return out


def chart_entries(game: Game, palette: Palette = "standard") -> list[ChartEntry]:
    """Every chart the game's data can print, tables first in data order (omitted ones too,
    for checking), then the fixed charts."""
    names = names_of(game)
    out = [table_chart(str(k), v, game, None, names) for k, v in game.definition.tables.items()]
    out.append(unit_chart(game, palette))
    out.extend(terrain_key(game))
    out.append(sequence_chart(game))
    opt = options_chart(game)
    if opt is not None:
        out.append(opt)
    return out


def charts_document(game: Game, *, setup: PageSetup | None = None,
                    palette: Palette = "standard",
                    entries: list[ChartEntry] | None = None) -> FlowDocument:
    """The player aid cards, each starting a page, under the game's title."""
    d = game.definition
    if entries is not None:
        skip = omitted(game)
        groups = [("Charts and tables", [e for e in entries if e.key not in skip])]
    else:
        groups = cards(game, palette)
    shown = [e for _, es in groups for e in es]
    blocks: list[Block] = [Heading(f"{d.title}: player aids", level=1)]
    prov = [e.title for e in shown if e.provisional]
    intro = (f"{len(groups)} player aid card{'s' if len(groups) != 1 else ''}, "
             f"{len(shown)} charts from the game data (version {d.data_version}).")
    if prov:
        intro += (f" {len(prov)} marked PROVISIONAL hold our values where the rulebook's are "
                  "missing: " + ", ".join(prov) + ".")
    blocks.append(Paragraph(intro, 9))
    for n, (title, es) in enumerate(groups):
        if n:
            blocks.append(PageBreak())
        if len(groups) > 1:
            blocks.append(Heading(f"Player aid card {n + 1}: {title}", level=1))
        blocks.append(RunningHeader(title))
        for e in es:
            blocks.extend(e.blocks)
    return FlowDocument(f"{d.title} — player aids", blocks, setup or PageSetup(),
                        subtitle="Player aids")
