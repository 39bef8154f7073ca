"""Setup sheets: one side's starting forces of a scenario, ready to lay out on the table.

Per side, a sheet holds:

1. the scenario's title, description and turns, and the side's setup notes;
2. a map excerpt per map with every setup location marked by its number (hexes and spaces
   outlined in red, set-up zones and free-placement regions tinted violet, reinforcement
   entry points green with "R<turn>"; off-map boxes are named in the table only);
3. the setup table, grouped by location and sorted as a player sets up (map by map, hexes
   in label order, then regions, boxes and free placements): each unit's counter at true
   size, its designation, type, printed values and count, with a box to tick;
4. reinforcements by turn (the same rows, where they enter) and written schedules;
5. replacements by turn;
6. the turn record track, each turn's box noting the side's arrivals and replacements
   (none for a scenario without a turn limit).

Units that differ only by their designation share one row ("I, II, III … ×32").

Counters are drawn by `counterart` / `counter_pil`, the board's own renderer, at the size
they have on the printed map (`mapdraw.counter_mm`: 1/2 inch on a 17.6 mm hex by default),
or at `counter_size_mm`.

Data conventions (a game's TOML; nothing here is game specific):

- ``Placement.location``: a hex label, an area-map space id or name, or ``box:<id>``: a
  fixed location. ``region:<name>``: free placement anywhere in the hexes of that region (the
  excerpt tints them). Any other text is a free-placement instruction printed as written.
- ``Placement.attrs``: ``turn`` (a whole number) makes the unit a reinforcement arriving that
  turn at its location; ``placement`` or ``note`` is an instruction printed with its location
  ("at most one per hex"); ``region`` names the region to mark for a free placement;
  ``step = 2`` or ``reduced = true`` prints the reduced side.
- ``Scenario.vars``: ``setup_notes`` (a text, or a table side id -> text or list of texts),
  ``reinforcements`` and ``replacements`` (lists of tables ``{side, turn, text}``; a
  replacement entry may give ``from_turn``/``to_turn`` instead of ``turn``), ``turn_names``
  (a table "turn" -> name, or a list from the first turn: "Jun I 41"...). Shapes other than
  these are ignored, so a game may keep other data under the same names.
- A scenario without a turn limit (``no_turn_limit``) prints no turn track.
- ``[player_aids]`` of the game (print data, not in the game state): ``setup_zones`` (a
  free set-up: a list of
  ``{scenario?, side, from, types?, name, map, regions, boxes?, limit, rule}``; the units
  placed in the pool ``from`` (of ``types``, when given) are listed under the zone, whose
  regions are tinted on the map excerpt, with the limit and the rule).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from wartable.core.errors import WartableError
from wartable.core.words import plural
from wartable.engine.rules import Game
from wartable.maps.model import HexMap
from wartable.model.definition import Scenario, Side
from wartable.printing import mapdraw
from wartable.printing.blocks import (
    Block,
    Heading,
    ImageBlock,
    KeepTogether,
    PageBreak,
    Paragraph,
    RunningHeader,
)
from wartable.printing.common import (
    Where,
    counter_cell,
    locate,
    open_ended,
    region_hexes,
    region_locations,
    setup_order,
    sides_of,
    values_text,
)
from wartable.printing.counterart import Palette, mix
from wartable.printing.flow import FlowDocument
from wartable.printing.page import PageSetup
from wartable.printing.tableblocks import BoxCell, BoxGrid, Cell, Column, Row, Table

__all__ = ["Arrival", "SetupGroup", "SetupSheet", "SetupUnit", "SideSetup", "TurnBox",
           "build_setup_sheet", "setup_sheet_document"]

MARK_FIXED = "#c01818"
MARK_REGION = "#8a2be2"  # violet: apart from the map's blue rivers and magenta borders
MARK_ARRIVAL = "#1b8a3a"


@dataclass(frozen=True)
class SetupUnit:
    type: str
    type_name: str
    name: str
    values: str
    count: int
    attrs: Mapping[str, Any]
    placement: int  # index of its entry in the scenario's setup
    location: str = ""  # the placement's location (a set-up pool, for a unit of a zone)


@dataclass(frozen=True)
class SetupGroup:
    """The units that set up in one location (or one free-placement region)."""

    key: str  # the number marking it on the map excerpt
    where: Where
    units: tuple[SetupUnit, ...]
    instructions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Arrival:
    """Reinforcements arriving on one turn at one place."""

    turn: int
    where: Where
    units: tuple[SetupUnit, ...]
    instructions: tuple[str, ...] = ()


@dataclass(frozen=True)
class ScheduleEntry:
    text: str
    turn: int | None = None
    until: int | None = None  # last turn of a "from turn N" entry

    def turns_text(self) -> str:
        if self.turn is None:
            return "—"
        if self.until is None:
            return str(self.turn)
        if self.until == self.turn:
            return str(self.turn)
        return f"{self.turn}–{self.until}"


@dataclass(frozen=True)
class TurnBox:
    turn: int
    name: str
    lines: tuple[str, ...]
    arrivals: int


@dataclass(frozen=True)
class SideSetup:
    side: Side
    groups: tuple[SetupGroup, ...]
    arrivals: tuple[Arrival, ...]
    reinforcement_notes: tuple[ScheduleEntry, ...]
    replacements: tuple[ScheduleEntry, ...]
    notes: tuple[str, ...]
    turns: tuple[TurnBox, ...]

    def unit_count(self) -> int:
        return sum(u.count for g in self.groups for u in g.units)

    def arrival_count(self) -> int:
        return sum(u.count for a in self.arrivals for u in a.units)


@dataclass(frozen=True)
class SetupSheet:
    game_title: str
    scenario: Scenario
    sides: tuple[SideSetup, ...]


# --- the data --------------------------------------------------------------------------------


def _int(v: Any) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        return int(v)
    return None


def _schedule(raw: Any, side: str, first: int, last: int) -> tuple[ScheduleEntry, ...]:
    """Entries for `side` from a list of {side, turn | from_turn/to_turn, text}, or from a
    table side -> {turn -> text}."""
    out: list[ScheduleEntry] = []
    if isinstance(raw, Mapping):
        mine = raw.get(side)
        if isinstance(mine, Mapping):
            for t, text in mine.items():
                turn = _int(t)
                if turn is not None and isinstance(text, str | int):
                    out.append(ScheduleEntry(str(text), turn))
        elif isinstance(mine, str):
            out.append(ScheduleEntry(mine))
    elif isinstance(raw, list | tuple):
        for e in raw:
            if not isinstance(e, Mapping) or e.get("side") not in (side, "*", None):
                continue
            text = e.get("text")
            if not isinstance(text, str | int):
                continue
            turn = _int(e.get("turn"))
            start, end = _int(e.get("from_turn")), _int(e.get("to_turn"))
            if turn is None and start is not None:
                out.append(ScheduleEntry(str(text), start, end if end is not None else last))
            else:
                out.append(ScheduleEntry(str(text), turn))
    return tuple(sorted(out, key=lambda e: (e.turn if e.turn is not None else first - 1)))


def _notes(raw: Any, side: str) -> tuple[str, ...]:
    if isinstance(raw, str):
        return (raw,)
    if isinstance(raw, Mapping):
        out: list[str] = []
        for key in ("*", "all", side):
            v = raw.get(key)
            if isinstance(v, str):
                out.append(v)
            elif isinstance(v, list | tuple):
                out.extend(str(x) for x in v if isinstance(x, str))
        return tuple(out)
    return ()


def turn_names(scenario: Scenario) -> dict[int, str]:
    raw = scenario.vars.get("turn_names")
    out: dict[int, str] = {}
    if isinstance(raw, Mapping):
        for k, v in raw.items():
            t = _int(k)
            if t is not None and isinstance(v, str):
                out[t] = v
    elif isinstance(raw, list | tuple):
        for i, v in enumerate(raw):
            if isinstance(v, str):
                out[scenario.first_turn + i] = v
    return out


def build_setup_sheet(game: Game, scenario_id: str, side: str | None = None) -> SetupSheet:
    """The setup of every side (or of `side`, by id or name in any case) of a scenario."""
    d = game.definition
    if scenario_id not in d.scenarios:
        known = ", ".join(f"{s.id} ({s.name})" for s in d.scenarios.values())
        raise WartableError(f"{d.title} has no scenario {scenario_id!r}; its scenarios are "
                            f"{known}.")
    sc = d.scenarios[scenario_id]
    names = turn_names(sc)
    zones = setup_zones(game, sc)
    out: list[SideSetup] = []
    for s in sides_of(d, side):
        at_start: dict[str, list[tuple[int, SetupUnit, str]]] = {}
        wheres: dict[str, Where] = {}
        arriving: dict[tuple[int, str], list[tuple[SetupUnit, str]]] = {}
        for i, pl in enumerate(sc.setup):
            if pl.side != s.id:
                continue
            ut = d.unit_types[pl.type]
            attrs = dict(pl.attrs)
            if pl.name:
                attrs["name"] = pl.name
            unit = SetupUnit(pl.type, ut.name, pl.name, values_text(game, pl.type, attrs),
                             pl.count, attrs, i, pl.location)
            zone = _zone_of(zones, s.id, pl.location, pl.type)
            key = f"zone:{zones.index(zone)}" if zone is not None else pl.location
            where = wheres.get(key)
            if where is None:
                where = (_zone_where(game, zone, key) if zone is not None
                         else _where(game, pl.location, attrs))
                wheres[key] = where
            note = str(attrs.get("placement") or attrs.get("note") or "")
            turn = _int(attrs.get("turn"))
            if turn is not None:
                arriving.setdefault((turn, key), []).append((unit, note))
            else:
                at_start.setdefault(key, []).append((i, unit, note))
        ordered = sorted(at_start, key=lambda loc: (setup_order(game, wheres[loc]), loc))
        groups = tuple(
            SetupGroup(str(n), wheres[loc], tuple(u for _, u, _ in at_start[loc]),
                       _unique(note for _, _, note in at_start[loc]))
            for n, loc in enumerate(ordered, start=1))
        arrivals = tuple(
            Arrival(turn, wheres[loc], tuple(u for u, _ in arriving[(turn, loc)]),
                    _unique(note for _, note in arriving[(turn, loc)]))
            for turn, loc in sorted(arriving, key=lambda k: (k[0], setup_order(game, wheres[
                k[1]]), k[1])))
        reinf = _schedule(sc.vars.get("reinforcements"), s.id, sc.first_turn, sc.last_turn)
        repl = _schedule(sc.vars.get("replacements"), s.id, sc.first_turn, sc.last_turn)
        out.append(SideSetup(s, groups, arrivals, reinf, repl,
                             _notes(sc.vars.get("setup_notes"), s.id),
                             _turns(sc, names, arrivals, reinf, repl)))
    return SetupSheet(d.title, sc, tuple(out))


def _where(game: Game, location: str, attrs: Mapping[str, Any]) -> Where:
    where = locate(game, location)
    region = attrs.get("region")
    if where.kind == "free" and isinstance(region, str) and region:
        map_id, hexes = region_locations(game, region)
        if hexes:
            return Where("region", location, where.label, f"{len(hexes)} hexes of {region}",
                         map_id, hexes)
    return where


def setup_zones(game: Game, sc: Scenario) -> list[Mapping[str, Any]]:
    """The scenario's set-up zones (``[[player_aids.setup_zones]]`` of the game's data)."""
    raw = game.definition.player_aids.get("setup_zones")
    if not isinstance(raw, list | tuple):
        return []
    return [z for z in raw if isinstance(z, Mapping) and isinstance(z.get("from"), str)
            and z.get("scenario") in (None, sc.id)]


def _zone_of(zones: Sequence[Mapping[str, Any]], side: str, location: str,
             type_id: str) -> Mapping[str, Any] | None:
    """The set-up zone that the units of a set-up pool go to (a free set-up)."""
    for z in zones:
        if z.get("side") not in (side, None) or z["from"] != location:
            continue
        types = z.get("types")
        if isinstance(types, list | tuple) and type_id not in types:
            continue
        return z
    return None


def _zone_where(game: Game, zone: Mapping[str, Any], key: str) -> Where:
    """A set-up zone as a region: the hexes (or spaces) of its regions on its map, the boxes
    it allows besides, the limit and the rule."""
    map_id = zone.get("map")
    board = game.maps.get(str(map_id)) if map_id else None
    regions = [str(r) for r in zone.get("regions", ()) if isinstance(r, str)]
    hexes: list[str] = []
    if board is not None:
        for r in regions:
            hexes.extend(h for h in region_hexes(board, r) if h not in hexes)
    else:
        for r in regions:
            mid, found = region_locations(game, r)
            map_id = map_id or mid
            hexes.extend(h for h in found if h not in hexes)
    boxes = [locate(game, f"box:{b}").label for b in zone.get("boxes", ())
             if isinstance(b, str)]
    limit = str(zone.get("limit", "") or "")
    if boxes and not limit:  # a written limit names the boxes itself
        limit = "or in the " + " or the ".join(boxes) + " box"
    rule = str(zone.get("rule", "") or "").strip()
    if rule:
        limit += f" [{rule}]"
    label = str(zone.get("name") or ", ".join(regions) or key)
    return Where("region", key, label, limit, str(map_id) if map_id else None, tuple(hexes))


def _unique(items: Any) -> tuple[str, ...]:
    out: list[str] = []
    for it in items:
        if it and it not in out:
            out.append(it)
    return tuple(out)


def _turns(sc: Scenario, names: Mapping[int, str], arrivals: Sequence[Arrival],
           reinf: Sequence[ScheduleEntry], repl: Sequence[ScheduleEntry]) -> tuple[TurnBox, ...]:
    out: list[TurnBox] = []
    for t in range(sc.first_turn, sc.last_turn + 1):
        lines: list[str] = []
        n = sum(u.count for a in arrivals if a.turn == t for u in a.units)
        if n:
            lines.append(f"+{plural(n, 'unit')}")
        lines.extend(f"R: {e.text}" for e in reinf if e.turn == t)
        for e in repl:
            if e.turn is not None and (e.turn == t if e.until is None else e.turn <= t <= e.until):
                lines.append(f"Repl: {e.text}")
        out.append(TurnBox(t, names.get(t, ""), tuple(lines), n))
    return tuple(out)


# --- the document ----------------------------------------------------------------------------


def setup_sheet_document(
    game: Game,
    scenario_id: str,
    side: str | None = None,
    *,
    setup: PageSetup | None = None,
    counter_size_mm: float | None = None,
    hex_mm: float | None = None,
    palette: Palette = "standard",
    map_excerpt: bool = True,
    sheet: SetupSheet | None = None,
) -> FlowDocument:
    """The printable setup sheets: one section per side, each starting on a new page."""
    sheet = sheet or build_setup_sheet(game, scenario_id, side)
    setup = setup or PageSetup()
    first_map = next(iter(game.maps.values()), None)
    size = counter_size_mm or mapdraw.counter_mm(first_map, hex_mm)
    if not 3.0 <= size <= 60.0:
        raise WartableError(f"A counter of {size:g} mm cannot be printed; choose 3 to 60 mm.")
    sc = sheet.scenario
    blocks: list[Block] = []
    for i, ss in enumerate(sheet.sides):
        if i:
            blocks.append(PageBreak())
        blocks.append(RunningHeader(f"{sc.name} — {ss.side.name} setup"))
        blocks.extend(_side_blocks(game, sheet, ss, setup, size, hex_mm, palette, map_excerpt))
    who = sheet.sides[0].side.name if len(sheet.sides) == 1 else "all sides"
    return FlowDocument(f"{sheet.game_title} — setup sheet", blocks, setup,
                        subtitle=f"{sc.name} — {who}")


def _side_blocks(game: Game, sheet: SetupSheet, ss: SideSetup, setup: PageSetup, size: float,
                 hex_mm: float | None, palette: Palette, excerpt: bool) -> list[Block]:
    sc = sheet.scenario
    out: list[Block] = [Heading(f"{ss.side.name}: {sc.name}", level=1)]
    turns = turns_text(game, sc)
    summary = (f"{sheet.game_title}. {turns}. {ss.side.name} sets up "
               f"{plural(ss.unit_count(), 'unit')} in {plural(len(ss.groups), 'location')}")
    if ss.arrivals:
        summary += f"; {plural(ss.arrival_count(), 'unit')} arrive as reinforcements"
    out.append(Paragraph(summary + ".", 9.5))
    if sc.description:
        out.append(Paragraph(sc.description, 9, italic=True))
    for note in ss.notes:
        out.append(Paragraph(note, 9, fill="#fff6dc"))
    if excerpt:
        out.extend(_excerpts(game, ss, setup, hex_mm))
    out.append(Heading("Setup", level=2))
    if ss.groups:
        out.append(_unit_table(game, ss, [(g.key + ".  " + g.where.label, _group_note(g.where,
                                           g.instructions), g.units) for g in ss.groups],
                               size, palette))
    else:
        out.append(Paragraph(f"{ss.side.name} has no units on the map at the start.", 9))
    if ss.arrivals or ss.reinforcement_notes:
        out.append(Heading("Reinforcements", level=2))
        names = turn_names(sc)
        if ss.arrivals:
            rows = []
            for a in ss.arrivals:
                when = f"Turn {a.turn}" + (f" ({names[a.turn]})" if a.turn in names else "")
                where = a.where.label if a.where.kind != "free" else a.where.raw
                note = f"enter: {where}" if a.where.kind != "free" else where
                rows.append((when, "; ".join((note, *a.instructions)), a.units))
            out.append(_unit_table(game, ss, rows, size, palette))
        if ss.reinforcement_notes:
            out.append(_schedule_table(ss.reinforcement_notes, "Reinforcements"))
    if ss.replacements:
        out.append(Heading("Replacements", level=2))
        out.append(_schedule_table(ss.replacements, "Replacements"))
    if not open_ended(game, sc):
        # Compact when long or when no box has anything to say; never split over pages.
        small = len(ss.turns) > 40 or not any(t.lines or t.name for t in ss.turns)
        tint = mix(ss.side.colour, "#ffffff", 0.7)
        cells = [BoxCell(str(t.turn), t.lines, tint if t.lines else None, t.name)
                 for t in ss.turns]
        out.append(KeepTogether([Heading("Turn record track", level=2),
                                 BoxGrid(cells, 15.5 if small else 23.0,
                                         11.0 if small else 17.0)]))
    return out


def turns_text(game: Game, sc: Scenario) -> str:
    if open_ended(game, sc):
        return f"From turn {sc.first_turn} until a side wins"
    if sc.last_turn > sc.first_turn:
        return f"Turns {sc.first_turn} to {sc.last_turn}"
    return f"Turn {sc.first_turn}"


def _group_note(where: Where, instructions: Sequence[str]) -> str:
    desc = where.description
    if where.kind in ("hex", "area") and desc.startswith(where.label):
        desc = desc[len(where.label):].lstrip(" —")
    if where.kind == "free":
        desc = "free placement"
    return "; ".join(x for x in (desc, *instructions) if x)


def _unit_table(game: Game, ss: SideSetup,
                groups: Sequence[tuple[str, str, Sequence[SetupUnit]]], size: float,
                palette: Palette) -> Table:
    cols = [Column("✓", fixed_mm=6.0, align="c"), Column("Counter", fixed_mm=max(size + 3.0, 17.0)),
            Column("Unit", 2.2), Column("Type", 1.6), Column("Values", fixed_mm=20.0, align="c"),
            Column("Qty", fixed_mm=10.0, align="c")]
    rows: list[Row] = []
    for title, note, units in groups:
        rows.append(Row(group=title, group_note=note))
        for alike in _alike(units):
            u = alike[0]
            img = counter_cell(game, u.type, ss.side.id, u.attrs, size, palette)
            count = sum(x.count for x in alike)
            name = (", ".join(x.name for x in alike) if len(alike) > 1
                    else u.name or u.type_name)
            rows.append(Row((Cell(swatch="#ffffff"), Cell(images=(img,)),
                             Cell(name, bold=True), Cell(u.type_name),
                             Cell(u.values), Cell(f"×{count}" if count > 1 else "1"))))
    return Table(cols, rows, size_pt=9)


def _alike(units: Sequence[SetupUnit]) -> list[list[SetupUnit]]:
    """Units that differ only by their designation, together (one row: "I, II, III … ×34"),
    in the order of their first appearance."""
    out: dict[tuple[Any, ...], list[SetupUnit]] = {}
    for u in units:
        rest = tuple(sorted((k, repr(v)) for k, v in u.attrs.items() if k != "name"))
        key = (u.type, u.values, rest) if u.name else (u.type, u.values, rest, u.placement)
        out.setdefault(key, []).append(u)
    return list(out.values())


def _schedule_table(entries: Sequence[ScheduleEntry], what: str) -> Table:
    rows = [Row((Cell(e.turns_text(), bold=True), Cell(e.text))) for e in entries]
    return Table([Column("Turn", fixed_mm=18.0, align="c"), Column(what, 1.0)], rows)


def _excerpts(game: Game, ss: SideSetup, setup: PageSetup, hex_mm: float | None) -> list[Block]:
    """One map excerpt per map holding setup locations or entry points of this side."""
    marks: dict[str, list[mapdraw.Mark]] = {}
    for g in ss.groups:
        if g.where.map_id is None or not g.where.locations or g.where.kind == "box":
            continue  # a box is found on the mapsheet by its name, not on the excerpt
        colour = MARK_REGION if g.where.kind == "region" else MARK_FIXED
        marks.setdefault(g.where.map_id, []).append(
            mapdraw.Mark(g.where.locations, g.key, colour, 45 if g.where.kind == "region" else 70))
    seen: set[tuple[int, str]] = set()
    for a in ss.arrivals:
        w = a.where
        if w.map_id is None or not w.locations or (a.turn, w.raw) in seen:
            continue
        seen.add((a.turn, w.raw))
        marks.setdefault(w.map_id, []).append(mapdraw.Mark(w.locations, f"R{a.turn}",
                                                           MARK_ARRIVAL, 50))
    out: list[Block] = []
    x0, y0, x1, y1 = setup.content_px
    body_w_mm = (x1 - x0) * 25.4 / setup.dpi
    max_h_mm = (y1 - y0) * 25.4 / setup.dpi * 0.62
    for map_id, ms in marks.items():
        board = game.maps[map_id]
        pad = mapdraw.hex_across(board) * 0.75 if isinstance(board, HexMap) else 0.0
        locs = [loc for m in ms for loc in m.locations]
        region = mapdraw.location_bounds(board, locs, pad)
        if not isinstance(board, HexMap):
            rx0, ry0, rx1, ry1 = region
            grow = max(rx1 - rx0, ry1 - ry0) * 0.05
            region = mapdraw.location_bounds(board, locs, grow)
        k_mm = mapdraw.mm_per_unit(board, hex_mm)
        w_mm = (region[2] - region[0]) * k_mm
        h_mm = (region[3] - region[1]) * k_mm
        f = min(1.0, body_w_mm / w_mm, max_h_mm / h_mm)
        scale_note = "true scale" if f >= 0.999 else f"{f * 100:.0f} % of the paper map"
        if isinstance(board, HexMap):
            scale_note += f", 1 hex = {(hex_mm or mapdraw.DEFAULT_HEX_MM) * f:.1f} mm"
        caption = (f"{board.title}: setup locations numbered as in the table below "
                   f"({scale_note}).")
        if any(m.colour == MARK_REGION for m in ms):
            caption += " Violet: set-up zones (free placement)."
        if any(m.colour == MARK_ARRIVAL for m in ms):
            caption += " Green R<n>: where reinforcements enter on turn n."
        out.append(ImageBlock(_map_render(board, region, ms), w_mm * f, h_mm * f, caption,
                              words=tuple(m.label for m in ms)))
    return out


def _map_render(board: Any, region: tuple[float, float, float, float],
                marks: Sequence[mapdraw.Mark]) -> Callable[[int, int], Image.Image]:
    def render(w: int, h: int) -> Image.Image:
        k = w / (region[2] - region[0])
        img = mapdraw.draw_map(board, region, k, marks=marks)
        if img.size != (w, h):
            fixed = Image.new("RGB", (w, h), "white")
            fixed.paste(img, (0, 0))
            img = fixed
        return img

    return render


def describe_sheet(sheet: SetupSheet) -> str:
    """A one-line summary for the command line."""
    parts = [f"{s.side.name}: {plural(s.unit_count(), 'unit')} in "
             f"{plural(len(s.groups), 'location')}" for s in sheet.sides]
    return f"{sheet.scenario.name} — " + "; ".join(parts)

