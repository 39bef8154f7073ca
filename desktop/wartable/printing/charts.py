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

from collections.abc import Mapping, Sequence
from typing import Any

from wartable.core.errors import DataError
from wartable.engine import odds, procedures
from wartable.engine.rules import Game
from wartable.maps.model import AreaMap, HexMap
from wartable.printing import areadraw
from wartable.printing.blocks import Block, Heading, KeepTogether, Paragraph
from wartable.printing.common import counter_cell
from wartable.printing.counterart import Palette
from wartable.printing.flow import FlowDocument
from wartable.printing.page import PageSetup
from wartable.printing.tableblocks import Cell, Column, Row, Table

__all__ = ["ChartEntry", "chart_entries", "charts_document"]

META = ("id", "title", "rule", "note", "provisional", "source")
PROVISIONAL_NOTE = ("Provisional: the rulebook does not give these values; they are ours and "
                    "may be changed in the game data.")
DAGGER = "†"


class ChartEntry:
    """One printed chart: its title, whether it is provisional, and its blocks."""

    def __init__(self, key: str, title: str, blocks: list[Block], provisional: bool = False,
                 kind: str = "table") -> None:
        self.key = key
        self.title = title
        self.blocks = blocks
        self.provisional = provisional
        self.kind = kind

    def texts(self) -> list[str]:
        return [t for b in self.blocks for t in b.texts()]


def humanize(key: str) -> str:
    """A data key as a heading: "terrain_cost" -> "Terrain cost", "ipc" -> "IPC"."""
    text = key.replace("_", " ").replace("-", " ").strip()
    if len(text) <= 3 and text.isalpha():
        return text.upper()
    return text[:1].upper() + text[1:]


def _rule(ref: Any) -> str:
    r = str(ref or "").strip().removeprefix("[").removesuffix("]").strip()
    return f"[{r}]" if r else ""


def _title(key: str, d: Mapping[str, Any]) -> str:
    t = d.get("title")
    title = t if isinstance(t, str) and t else humanize(key)
    r = _rule(d.get("rule"))
    return f"{title} {r}" if r else title


def _scalar(v: Any) -> bool:
    return isinstance(v, str | int | float | bool) or v is None


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "—"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, list | tuple):
        return ", ".join(_fmt(x) for x in v)
    if isinstance(v, Mapping):
        return "; ".join(f"{k}: {_fmt(x)}" for k, x in v.items())
    return str(v)


def _head(title: str, provisional: bool, note: str, level: int = 2) -> list[Block]:
    out: list[Block] = [Heading(title, level=level, badge="PROVISIONAL" if provisional else "")]
    if provisional:
        out.append(Paragraph(PROVISIONAL_NOTE + (f" {note}" if note else ""), 8.5,
                             fill="#fdebd7"))
    elif note:
        out.append(Paragraph(note, 8.5, italic=True))
    return out


# --- the table shapes --------------------------------------------------------------------------


def procedure_chart(key: str, raw: Mapping[str, Any]) -> ChartEntry:
    """A die-roll table with its modifiers, from the procedure data."""
    proc = procedures.Procedure.from_dict(raw if "id" in raw else {"id": key, **raw}, key)
    title = proc.title + (f" {_rule(proc.rule)}" if proc.rule else "")
    blocks = _head(title, proc.provisional, proc.note)
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
        band_rows.append(Row((Cell(b.range_text(), bold=True), Cell(b.result + mark, bold=True),
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
                                 Cell(_rule(m.rule)))))
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
    """A combat results table: one column per odds (or differential) column, one row per
    die roll."""
    ladder_keys = ("kind", "columns", "below", "shift_from", "max_right", "max_left")
    ladder = odds.ladder_from_dict({k: v for k, v in raw.items() if k in ladder_keys}, key)
    labels = ladder.labels
    dice = procedures.DiceSpec.parse(str(raw.get("dice", "1d6")), key, "dice")
    rows_raw: list[tuple[str, Sequence[Any]]] = []
    if "rows" in raw:
        for i, r in enumerate(raw["rows"]):
            if not isinstance(r, Mapping) or "results" not in r:
                raise DataError(key, f"rows[{i}]", "expected a table with roll and results")
            rows_raw.append((str(r.get("roll", i + dice.lowest)), r["results"]))
    else:
        for i, r in enumerate(raw.get("results", ())):
            rows_raw.append((str(dice.lowest + i), r))
    for i, (_, res) in enumerate(rows_raw):
        if not isinstance(res, list | tuple) or len(res) != len(labels):
            raise DataError(key, f"results[{i}]", f"expected {len(labels)} results, one per "
                            "column")
    title = _title(key, raw)
    blocks = _head(title, bool(raw.get("provisional")), str(raw.get("note", "") or ""))
    what = "Attack : defense odds" if isinstance(ladder, odds.OddsLadder) else \
        "Attack minus defense"
    blocks.append(Paragraph(f"{what}, rounded in the defender's favour; roll {dice}.", 9))
    colw = max(9.0, min(18.0, 150.0 / max(1, len(labels))))
    cols = [Column("Roll", fixed_mm=14.0, align="c")] + [
        Column(lab, fixed_mm=colw, align="c") for lab in labels] + [Column("", 0.01)]
    rows = [Row((Cell(roll, bold=True), *(Cell(_fmt(x)) for x in res), Cell("")))
            for roll, res in rows_raw]
    blocks = [KeepTogether([*blocks, Table(cols, rows, size_pt=9)])]
    legend = raw.get("legend")
    if isinstance(legend, Mapping) and legend:
        blocks.append(Table([Column("Result", fixed_mm=20.0, align="c"), Column("Meaning", 1.0)],
                            [Row((Cell(str(k), bold=True), Cell(_fmt(v))))
                             for k, v in legend.items()], size_pt=8.5))
    return ChartEntry(key, title, blocks, bool(raw.get("provisional")), "crt")


def values_chart(key: str, raw: Mapping[str, Any], game: Game) -> ChartEntry:
    """A table of values; keyed by terrain type, it becomes a terrain effects chart."""
    data = {k: v for k, v in raw.items() if k not in META}
    terrains = _terrain_types(game)
    is_terrain = bool(data) and sum(k in terrains for k in data) * 2 >= len(data)
    title = _title(key, raw)
    blocks = _head(title, bool(raw.get("provisional")), str(raw.get("note", "") or ""))
    rows = []
    for k, v in data.items():
        if is_terrain and k in terrains:
            t = terrains[k]
            rows.append(Row((Cell(t.name, swatch=t.fill, bold=True), Cell(_fmt(v)))))
        else:
            rows.append(Row((Cell(humanize(str(k)), bold=True), Cell(_fmt(v)))))
    first = "Terrain" if is_terrain else "Item"
    blocks.append(Table([Column(first, 1.0), Column(humanize(key) if not is_terrain else
                                                     "Value", 1.2)], rows, size_pt=9))
    return ChartEntry(key, title, [KeepTogether(blocks)] if len(rows) < 25 else blocks,
                      bool(raw.get("provisional")), "terrain" if is_terrain else "values")


def records_chart(key: str, raw: Any, game: Game) -> ChartEntry:
    """A table of tables (rows by key) or a list of tables: columns are their fields."""
    meta = raw if isinstance(raw, Mapping) else {}
    if isinstance(raw, Mapping):
        items = [(str(k), v) for k, v in raw.items() if k not in META]
    else:
        items = [("", v) for v in raw]
    fields: list[str] = []
    for _, rec in items:
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
        name = sides.get(k) or humanize(k)
        cells = ([Cell(name + mark, bold=True)] if keyed else []) + [
            Cell(_fmt(rec.get(f, "")) + (mark if not keyed and i == 0 else ""))
            for i, f in enumerate(fields)]
        rows.append(Row(tuple(cells)))
    title = _title(key, meta)
    provisional = bool(meta.get("provisional"))
    blocks = _head(title, provisional, str(meta.get("note", "") or ""))
    table = Table(cols, rows, size_pt=8.5)
    blocks = [KeepTogether([*blocks, table])] if len(rows) < 25 else [*blocks, table]
    if any_prov:
        blocks.append(Paragraph(f"{DAGGER} Provisional: ours, the rulebook does not give it.",
                                8, italic=True))
    return ChartEntry(key, title, blocks, provisional or any_prov, "records")


def text_chart(key: str, raw: Any) -> ChartEntry:
    meta = raw if isinstance(raw, Mapping) else {}
    title = _title(key, meta)
    blocks = _head(title, bool(meta.get("provisional")), str(meta.get("note", "") or ""))
    lines: list[str] = []

    def walk(v: Any, indent: int) -> None:
        pad = "\u00a0" * 4 * indent  # no-break spaces: kept by the word wrap
        if isinstance(v, Mapping):
            for k, x in v.items():
                if indent == 0 and k in META:
                    continue
                if _scalar(x) or (isinstance(x, list | tuple) and all(_scalar(y) for y in x)):
                    lines.append(f"{pad}{humanize(str(k))}: {_fmt(x)}")
                else:
                    lines.append(f"{pad}{humanize(str(k))}:")
                    walk(x, indent + 1)
        elif isinstance(v, list | tuple):
            for x in v:
                if _scalar(x):
                    lines.append(f"{pad}• {_fmt(x)}")
                else:
                    lines.append(f"{pad}•")
                    walk(x, indent + 1)
        else:
            lines.append(f"{pad}{_fmt(v)}")

    walk(raw, 0)
    blocks.append(Paragraph("\n".join(lines), 8.5))
    return ChartEntry(key, title, blocks, bool(meta.get("provisional")), "text")


def _terrain_types(game: Game) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for board in game.maps.values():
        if isinstance(board, HexMap):
            for tid, t in board.terrain_types.items():
                out.setdefault(tid, t)
    return out


def table_chart(key: str, raw: Any, game: Game) -> ChartEntry:
    """The chart of one data table, by its shape."""
    if isinstance(raw, Mapping):
        if "dice" in raw and "bands" in raw:
            return procedure_chart(key, raw)
        if raw.get("kind") in ("odds", "differential") and "columns" in raw:
            return ladder_chart(key, raw)
        data = {k: v for k, v in raw.items() if k not in META}
        if data and all(_scalar(v) or (isinstance(v, list | tuple) and all(_scalar(x) for x in v))
                        for v in data.values()):
            return values_chart(key, raw, game)
        if data and all(isinstance(v, Mapping) and all(_scalar(x) or isinstance(x, list | tuple)
                                                       for x in v.values())
                        for v in data.values()):
            return records_chart(key, raw, game)
    elif isinstance(raw, list | tuple) and raw and all(isinstance(v, Mapping) for v in raw):
        return records_chart(key, raw, game)
    return text_chart(key, raw)


# --- the fixed charts ----------------------------------------------------------------------------


EXTRA_COLUMNS = 6  # game-specific unit values per table


def unit_chart(game: Game, palette: Palette = "standard", counter_mm: float = 12.7) -> ChartEntry:
    d = game.definition
    used: dict[str, str] = {}
    for sc in d.scenarios.values():
        for pl in sc.setup:
            used.setdefault(pl.type, pl.side)
    extras: list[str] = []
    for ut in d.unit_types.values():
        for k in ut.extra:
            if k not in extras:
                extras.append(k)
    cols = [Column("Counter", fixed_mm=max(counter_mm + 3.0, 17.0)), Column("Unit", 1.4),
            Column("Symbol", 1.0), Column("Size", fixed_mm=12.0, align="c"),
            Column("Factors", fixed_mm=18.0, align="c"), Column("Move", fixed_mm=13.0, align="c")]
    rows = []
    for ut in d.unit_types.values():
        side = used.get(ut.id, d.sides[0].id)
        img = counter_cell(game, ut.id, side, {}, counter_mm, palette)
        rows.append(Row((Cell(images=(img,)), Cell(ut.name, bold=True),
                         Cell(humanize(ut.symbol)), Cell(ut.size or "—"),
                         Cell("-".join(str(f) for f in ut.factors) or "—"),
                         Cell(str(ut.movement) if ut.movement else "—"))))
    blocks: list[Block] = [Heading("Unit statistics", 2),
                           Paragraph("Each counter as printed (factors left to right, then "
                                     "movement), with the side that uses it.", 9),
                           Table(cols, rows, size_pt=9)]
    # Further values in tables of a few columns each, so names and values stay readable
    # however many a game defines (Axis & Allies has over twenty).
    for i in range(0, len(extras), EXTRA_COLUMNS):
        part = extras[i:i + EXTRA_COLUMNS]
        blocks.append(Table([Column("Unit", 1.4)] + [Column(humanize(k), 1.0) for k in part],
                            [Row((Cell(ut.name, bold=True),
                                  *(Cell(_fmt(ut.extra.get(k, ""))) for k in part)))
                             for ut in d.unit_types.values()], size_pt=9))
    return ChartEntry("units", "Unit statistics", blocks, kind="units")


def terrain_key(game: Game) -> list[ChartEntry]:
    out = []
    for board in game.maps.values():
        if isinstance(board, HexMap):
            counts: dict[str, int] = {}
            for info in board.hexes.values():
                counts[info.terrain] = counts.get(info.terrain, 0) + 1
            rows = [Row((Cell(t.name, swatch=t.fill, bold=True), Cell(str(counts.get(tid, 0)))))
                    for tid, t in board.terrain_types.items()]
            feats: dict[str, int] = {}
            for fs in board.hexsides.values():
                for f in fs:
                    feats[f] = feats.get(f, 0) + 1
            rows += [Row((Cell(humanize(f) + " (hexside)", bold=True), Cell(str(n))))
                     for f, n in sorted(feats.items())]
            table = Table([Column("Terrain", 1.0), Column("Hexes / hexsides", 1.0, align="c")],
                          rows, size_pt=9)
        elif isinstance(board, AreaMap):
            land = sum(1 for s in board.spaces.values() if s.kind == "land")
            rows = [Row((Cell("Land territory", swatch=areadraw.LAND, bold=True), Cell(str(land)))),
                    Row((Cell("Sea zone", swatch=areadraw.SEA, bold=True),
                         Cell(str(len(board.spaces) - land))))]
            table = Table([Column("Space", 1.0), Column("Count", 1.0, align="c")], rows, size_pt=9)
        else:
            continue
        title = f"Terrain key: {board.title}"
        blocks: list[Block] = [Heading(title, 2, badge="PROVISIONAL" if board.provisional
                                       else "")]
        if board.provisional:
            blocks.append(Paragraph("Provisional map: drawn by us where the printed map is "
                                    "missing." + (f" {board.notes}" if board.notes else ""),
                                    8.5, fill="#fdebd7"))
        blocks.append(table)
        out.append(ChartEntry(f"terrain:{board.id}", title, [KeepTogether(blocks)],
                              board.provisional, "terrain-key"))
    return out


def sequence_chart(game: Game) -> ChartEntry:
    rows: list[Row] = []
    seen: set[str] = set()
    d = game.definition
    for ph in d.sequence.phases:
        name = ph.name
        if name in seen:
            continue
        seen.add(name)
        note = _rule(ph.rule) + (f" (when {ph.condition.replace('_', ' ')})" if ph.condition
                                 else "")
        rows.append(Row(group=name, group_note=note.strip()))
        for st in ph.steps:
            cond = f"only if {st.condition.replace('_', ' ')}" if st.condition else ""
            rows.append(Row((Cell(st.name, bold=True), Cell(st.prompt or ""), Cell(cond),
                             Cell(_rule(st.rule)))))
    blocks: list[Block] = [Heading("Sequence of play", 2),
                           Table([Column("Step", 1.0), Column("What to do", 2.6),
                                  Column("Condition", 1.0),
                                  Column("Rule", fixed_mm=15.0, align="c")], rows, size_pt=8.5)]
    return ChartEntry("sequence", "Sequence of play", blocks, kind="sequence")


def options_chart(game: Game) -> ChartEntry | None:
    opts = game.definition.options
    if not opts:
        return None
    rows = [Row((Cell(o.name, bold=True), Cell(o.description), Cell(_fmt(o.default)),
                 Cell(_rule(o.rule)))) for o in opts]
    blocks: list[Block] = [Heading("Optional rules", 2),
                           Table([Column("Option", 1.0), Column("Effect", 2.5),
                                  Column("Default", fixed_mm=16.0, align="c"),
                                  Column("Rule", fixed_mm=15.0, align="c")], rows, size_pt=8.5)]
    return ChartEntry("options", "Optional rules", blocks, kind="options")


def chart_entries(game: Game, palette: Palette = "standard") -> list[ChartEntry]:
    """Every chart of a game, in print order."""
    out = [table_chart(str(k), v, game) for k, v in game.definition.tables.items()]
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
    d = game.definition
    entries = entries if entries is not None else chart_entries(game, palette)
    blocks: list[Block] = [Heading(f"{d.title}: charts and tables", level=1)]
    prov = [e.title for e in entries if e.provisional]
    intro = f"{len(entries)} charts from the game data (version {d.data_version})."
    if prov:
        intro += (f" {len(prov)} marked PROVISIONAL hold our values where the rulebook's are "
                  "missing: " + ", ".join(prov) + ".")
    blocks.append(Paragraph(intro, 9))
    for e in entries:
        blocks.extend(e.blocks)
    return FlowDocument(f"{d.title} — charts", blocks, setup or PageSetup(),
                        subtitle="Charts and tables")
