"""Grid charts: tables a player reads at a glance, recognised by the shape of their data.

- `crt_grid`: a combat results table, odds or differential columns across, die rolls down,
  the results in the cells and the legend under it. Its results come as one list per roll
  (``results`` or ``rows``) or as one list per column (a mapping column -> results by roll).
- `roll_grid`: a die-roll table given as ``results`` by roll (``die`` or ``dice``), its other
  values (first turn, modifiers) as notes.
- `terrain_grid`: terrain types (and hexside features) down, effects across: every part of
  the table keyed by terrain becomes a column, its plain values become notes.
- `series_grid`: lists of equal length (one per turn) side by side; a list of pairs splits
  into one column per member.
- `grouped_records`: a mapping of lists of records (a side's objectives): one group per key.
- `pivot_grid`: records placed in a grid by two of their fields (a breakthrough chart: die
  face down, chart across), each cell a third field.

Options (from the game's ``[player_aids]`` entries): ``title``, ``rule``, ``result`` (the
result column's heading), ``index`` (the heading of the row numbers), ``split`` (the names
of a list's members), ``fields`` (the record fields shown), ``rows`` (the list of records
inside the table), ``pivot = {rows, columns, cell}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from wartable.core.errors import DataError
from wartable.engine import odds, procedures
from wartable.engine.rules import Game
from wartable.maps.model import HexMap
from wartable.printing.blocks import Block, KeepTogether, Paragraph
from wartable.printing.chartparts import (
    DAGGER,
    META,
    ChartEntry,
    Names,
    fmt,
    head,
    humanize,
    scalar,
    title_of,
)
from wartable.printing.tableblocks import Cell, Column, Row, Table

Options = Mapping[str, Any]
_ODDS = re.compile(r"^(\d+)-(\d+)$")
_LADDER_KEYS = ("kind", "columns", "below", "shift_from", "max_right", "max_left")


def _meta(raw: Mapping[str, Any], opts: Options) -> dict[str, Any]:
    return {**{k: raw[k] for k in ("title", "rule") if k in raw},
            **{k: opts[k] for k in ("title", "rule") if k in opts}}


def _start(key: str, raw: Mapping[str, Any], opts: Options) -> tuple[str, list[Block]]:
    title = title_of(key, _meta(raw, opts))
    return title, head(title, bool(raw.get("provisional")), str(raw.get("note", "") or ""))


def _notes(raw: Mapping[str, Any], skip: set[str], names: Names | None) -> list[Block]:
    """A table's plain values that are not in the grid, as one line under it."""
    parts = [f"{humanize(str(k))}: {fmt(v, names)}" for k, v in raw.items()
             if k not in META and k not in skip and (scalar(v) or (
                 isinstance(v, list | tuple) and all(scalar(x) for x in v)))]
    return [Paragraph(" · ".join(parts), 8.5)] if parts else []


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def label(opts: Options, key: str) -> str:
    """A column's heading: the entry's ``labels`` give it, else the key made readable."""
    labels = opts.get("labels")
    if isinstance(labels, Mapping) and key in labels:
        return str(labels[key])
    return humanize(key)


def _dice(raw: Mapping[str, Any], key: str) -> procedures.DiceSpec:
    spec = raw.get("dice") or (f"1d{raw['die']}" if "die" in raw else "1d6")
    return procedures.DiceSpec.parse(str(spec), key, "dice")


# --- combat results tables -------------------------------------------------------------------


def by_column_results(raw: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]] | None:
    """The part of a table that holds one list of results per column, if any."""
    cols = raw.get("columns")
    if not isinstance(cols, list | tuple) or not cols:
        return None
    for k, v in raw.items():
        if (isinstance(v, Mapping) and all(str(c) in v for c in cols)
                and all(isinstance(v[str(c)], list | tuple) for c in cols)
                and len({len(v[str(c)]) for c in cols}) == 1):
            return str(k), v
    return None


def crt_grid(key: str, raw: Mapping[str, Any], opts: Options | None = None) -> ChartEntry:
    """A combat results table: columns across, die rolls down, results in the cells."""
    opts = opts or {}
    cols = [str(c) for c in raw["columns"]]
    dice = _dice(raw, key)
    rows_raw: list[tuple[str, Sequence[Any]]] = []
    skip = {"columns", "dice", "die", "legend", "results", "rows", *_LADDER_KEYS}
    if raw.get("kind") in ("odds", "differential"):
        ladder = odds.ladder_from_dict({k: v for k, v in raw.items() if k in _LADDER_KEYS}, key)
        labels = list(ladder.labels)
        what = ("Attack : defense odds" if isinstance(ladder, odds.OddsLadder)
                else "Attack minus defense")
    else:
        odds_like = all(_ODDS.match(c) for c in cols)
        labels = [_ODDS.sub(r"\1:\2", c) for c in cols]
        what = "Attack : defense odds" if odds_like else "Column"
    by_col = by_column_results(raw)
    if by_col is not None:
        skip.add(by_col[0])
        n = len(by_col[1][cols[0]])
        rows_raw = [(str(dice.lowest + i), [by_col[1][c][i] for c in cols]) for i in range(n)]
    elif "rows" in raw:
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
    title, blocks = _start(key, raw, opts)
    blocks.append(Paragraph(f"{what} across (rounded in the defender's favour), the {dice} "
                            "roll down; read the result where they meet.", 9))
    colw = max(9.0, min(20.0, 150.0 / max(1, len(labels))))
    table_cols = [Column(str(opts.get("index", "Die roll")), fixed_mm=18.0, align="c")] + [
        Column(lab, fixed_mm=colw, align="c") for lab in labels] + [Column("", 0.01)]
    rows = [Row((Cell(roll, bold=True), *(Cell(fmt(x), bold=True) for x in res), Cell("")))
            for roll, res in rows_raw]
    out: list[Block] = [KeepTogether([*blocks, Table(table_cols, rows, size_pt=10)])]
    legend = raw.get("legend")
    if isinstance(legend, Mapping) and legend:
        out.append(KeepTogether([
            Paragraph("Results", 9, bold=True, after_mm=0.8),
            Table([Column("Result", fixed_mm=18.0, align="c"), Column("What happens", 1.0)],
                  [Row((Cell(str(k), bold=True), Cell(fmt(v)))) for k, v in legend.items()],
                  size_pt=8.5)]))
    out.extend(_notes(raw, skip, None))
    return ChartEntry(key, title, out, bool(raw.get("provisional")), "crt")


def is_crt(raw: Mapping[str, Any]) -> bool:
    return "columns" in raw and (raw.get("kind") in ("odds", "differential")
                                 or by_column_results(raw) is not None)


# --- die-roll tables given by roll -----------------------------------------------------------


def is_roll_table(raw: Mapping[str, Any]) -> bool:
    res = raw.get("results")
    return (("die" in raw or "dice" in raw) and isinstance(res, list | tuple) and bool(res)
            and all(scalar(x) for x in res))


def roll_grid(key: str, raw: Mapping[str, Any], opts: Options | None = None,
              names: Names | None = None) -> ChartEntry:
    opts = opts or {}
    dice = _dice(raw, key)
    title, blocks = _start(key, raw, opts)
    res = list(raw["results"])
    blocks.append(Paragraph(f"Roll {dice}; a modified roll below {dice.lowest} reads as "
                            f"{dice.lowest}, above {dice.lowest + len(res) - 1} as "
                            f"{dice.lowest + len(res) - 1}.", 9))
    rows = [Row((Cell(str(dice.lowest + i), bold=True), Cell(fmt(r, names), bold=True)))
            for i, r in enumerate(res)]
    blocks.append(Table([Column("Die roll", fixed_mm=20.0, align="c"),
                         Column(str(opts.get("result", "Result")), fixed_mm=45.0, align="c"),
                         Column("", 0.01)], [Row((*r.cells, Cell(""))) for r in rows],
                        size_pt=10))
    blocks.extend(_notes(raw, {"results", "die", "dice"}, names))
    return ChartEntry(key, title, [KeepTogether(blocks)], bool(raw.get("provisional")), "roll")


# --- terrain effects -------------------------------------------------------------------------


def terrain_ids(game: Game) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for board in game.maps.values():
        if isinstance(board, HexMap):
            for tid, t in board.terrain_types.items():
                out.setdefault(tid, t)
    return out


def hexside_features(game: Game) -> set[str]:
    out: set[str] = set()
    for board in game.maps.values():
        if isinstance(board, HexMap):
            for fs in board.hexsides.values():
                out.update(fs)
    return out


def _terrain_keyed(v: Any, known: set[str]) -> bool:
    return (isinstance(v, Mapping) and bool(v) and all(scalar(x) for x in v.values())
            and sum(str(k) in known for k in v) * 2 >= len(v))


def is_terrain_grid(raw: Mapping[str, Any], game: Game) -> bool:
    known = set(terrain_ids(game)) | hexside_features(game)
    data = {k: v for k, v in raw.items() if k not in META}
    keyed = [v for v in data.values() if _terrain_keyed(v, known)]
    rest_plain = all(scalar(v) or (isinstance(v, list | tuple) and all(scalar(x) for x in v))
                     for v in data.values() if not _terrain_keyed(v, known))
    return bool(keyed) and rest_plain


def terrain_grid(key: str, raw: Mapping[str, Any], game: Game,
                 opts: Options | None = None) -> ChartEntry:
    """Terrain effects: one row per terrain type or hexside feature, one column per effect."""
    opts = opts or {}
    terrains = terrain_ids(game)
    known = set(terrains) | hexside_features(game)
    effects = {str(k): v for k, v in raw.items() if k not in META and _terrain_keyed(v, known)}
    order = [t for t in terrains if any(t in v for v in effects.values())]
    for v in effects.values():
        order += [str(k) for k in v if str(k) not in order]
    title, blocks = _start(key, raw, opts)
    rows = []
    for t in order:
        first = (Cell(_cap(terrains[t].name), swatch=terrains[t].fill, bold=True) if t in terrains
                 else Cell(humanize(t), bold=True))
        rows.append(Row((first, *(Cell(fmt(v[t]) if t in v else "—") for v in effects.values()))))
    cols = [Column("Terrain", fixed_mm=32.0)] + [
        Column(label(opts, e), 1.0, align="c") for e in effects]
    blocks.append(Table(cols, rows, size_pt=9))
    blocks.extend(_notes(raw, set(effects), None))
    return ChartEntry(key, title, [KeepTogether(blocks)], bool(raw.get("provisional")),
                      "terrain")


# --- values by turn --------------------------------------------------------------------------


def _series(raw: Mapping[str, Any]) -> dict[str, Sequence[Any]]:
    lists = {str(k): v for k, v in raw.items()
             if k not in META and isinstance(v, list | tuple) and len(v) >= 3
             and all(scalar(x) or isinstance(x, list | tuple) for x in v)}
    if not lists:
        return {}
    lengths = [len(v) for v in lists.values()]
    n = max(set(lengths), key=lengths.count)
    return {k: v for k, v in lists.items() if len(v) == n}


def is_series(raw: Mapping[str, Any]) -> bool:
    ser = _series(raw)
    nested = any(all(isinstance(x, list | tuple) for x in v) for v in ser.values())
    plain = all(scalar(v) or isinstance(v, list | tuple) for k, v in raw.items()
                if k not in META and k not in ser)
    return plain and (len(ser) >= 2 or nested)


def series_grid(key: str, raw: Mapping[str, Any], opts: Options | None = None,
                names: Names | None = None) -> ChartEntry:
    opts = opts or {}
    ser = _series(raw)
    split = [str(s) for s in opts.get("split", ())]
    heads: list[str] = []
    columns: list[list[Any]] = []
    for k, v in ser.items():
        if all(isinstance(x, list | tuple) for x in v):
            width = max(len(x) for x in v)
            for j in range(width):
                part = split[j] if j < len(split) else f"{j + 1}"
                heads.append(f"{label(opts, k)}: {part}")
                columns.append([x[j] if j < len(x) else "" for x in v])
        else:
            heads.append(label(opts, k))
            columns.append(list(v))
    n = len(columns[0])
    title, blocks = _start(key, raw, opts)
    rows = [Row((Cell(str(i + 1), bold=True), *(Cell(fmt(c[i], names)) for c in columns)))
            for i in range(n)]
    cols = [Column(str(opts.get("index", "Turn")), fixed_mm=14.0, align="c")] + [
        Column(h, 1.0, align="c") for h in heads]
    blocks.append(Table(cols, rows, size_pt=9))
    blocks.extend(_notes(raw, set(ser), names))
    return ChartEntry(key, title, [KeepTogether(blocks)], bool(raw.get("provisional")),
                      "series")


# --- records ---------------------------------------------------------------------------------


def _fields(records: Sequence[Mapping[str, Any]], opts: Options) -> list[str]:
    if "fields" in opts:
        return [str(f) for f in opts["fields"]]
    out: list[str] = []
    for rec in records:
        for f in rec:
            if f not in out and f not in ("provisional", "id"):
                out.append(str(f))
    return out


def is_grouped_records(raw: Mapping[str, Any]) -> bool:
    data = {k: v for k, v in raw.items() if k not in META}
    return bool(data) and all(isinstance(v, list | tuple) and all(isinstance(x, Mapping)
                                                                  for x in v)
                              for v in data.values())


def grouped_records(key: str, raw: Mapping[str, Any], opts: Options | None = None,
                    names: Names | None = None) -> ChartEntry:
    """Lists of records under group rows (one group per key: a side, a nation)."""
    opts = opts or {}
    data = {str(k): v for k, v in raw.items() if k not in META}
    fields = _fields([r for v in data.values() for r in v], opts)
    rows: list[Row] = []
    any_prov = False
    for k, recs in data.items():
        rows.append(Row(group=(names or {}).get(k, humanize(k))))
        for rec in recs:
            mark = f" {DAGGER}" if rec.get("provisional") else ""
            any_prov = any_prov or bool(mark)
            rows.append(Row(tuple(Cell(fmt(rec.get(f, ""), names) + (mark if i == 0 else ""))
                                  for i, f in enumerate(fields))))
    title, blocks = _start(key, raw, opts)
    weights = [3.0 if f in ("text", "effect", "description") else 1.0 for f in fields]
    blocks.append(Table([Column(humanize(f), w) for f, w in zip(fields, weights, strict=True)],
                        rows, size_pt=8.5))
    if any_prov:
        blocks.append(Paragraph(f"{DAGGER} Provisional: ours, the rulebook does not give it.",
                                8, italic=True))
    return ChartEntry(key, title, blocks, bool(raw.get("provisional")) or any_prov, "records")


def pivot_grid(key: str, raw: Mapping[str, Any], opts: Options,
               names: Names | None = None) -> ChartEntry:
    """Records of ``raw[opts.rows]`` in a grid: ``pivot.rows`` down, ``pivot.columns``
    across, ``pivot.cell`` in the cells; then every record with its ``fields``."""
    recs = raw.get(str(opts["rows"]))
    piv = opts["pivot"]
    if not isinstance(recs, list | tuple) or not all(isinstance(r, Mapping) for r in recs):
        raise DataError(key, str(opts["rows"]), "expected a list of records to print")
    rk, ck, cell = str(piv["rows"]), str(piv["columns"]), str(piv["cell"])
    rvals = sorted({r[rk] for r in recs})
    cvals = sorted({r[ck] for r in recs})
    grid = {(r[rk], r[ck]): fmt(r.get(cell, ""), names) for r in recs}
    title, blocks = _start(key, raw, opts)
    rows = [Row((Cell(str(rv), bold=True), *(Cell(grid.get((rv, cv), "—"), bold=True)
                                               for cv in cvals))) for rv in rvals]
    blocks.append(Table([Column(humanize(rk), fixed_mm=18.0, align="c")] + [
        Column(f"{humanize(ck)} {cv}", 1.0, align="c") for cv in cvals], rows, size_pt=9.5))
    blocks.extend(_notes(raw, {str(opts["rows"])}, names))
    out: list[Block] = [KeepTogether(blocks)]
    fields = _fields(recs, opts)
    if fields:
        out.append(Table([Column(humanize(f), 3.0 if f in ("effect", "text") else 1.0)
                          for f in fields],
                         [Row(tuple(Cell(fmt(r.get(f, ""), names), bold=(i == 0))
                                    for i, f in enumerate(fields))) for r in recs], size_pt=8.5))
    return ChartEntry(key, title, out, bool(raw.get("provisional")), "pivot")
