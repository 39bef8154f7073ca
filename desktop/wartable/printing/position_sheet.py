"""Position sheets: a game in progress on paper, to set it up again on a real table.

A sheet shows the turn, the step of the sequence of play, who is to act, any decision
pending, per-side status (units on the map, in each box, and the side's values from the game
state), then, map by map, a picture of the map with every counter in place and the list of
units by location (sorted as for a setup), with their step and state.

Hidden information (`Rules.view`) is left out unless asked for:

- by default the sheet shows the *public* position: each side's units as every other side
  sees them (a piece some opponent may not see is left out; a stack's top unit says how many
  are hidden under it when the game's view gives ``hidden_count``);
- ``viewer=SIDE`` prints what that side sees (its own units in full);
- ``reveal=True`` prints everything.

The functions take a loaded `Game` and `GameState` (or a `Session`); reading save files is
the caller's business (`wartable.persistence`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from wartable.core.words import plural
from wartable.engine.notes import piece_notes
from wartable.engine.rules import Game
from wartable.maps.model import HexMap
from wartable.model.definition import StateNote
from wartable.model.state import GameState, Piece
from wartable.printing import mapdraw
from wartable.printing.blocks import Block, Heading, ImageBlock, PageBreak, Paragraph, RunningHeader
from wartable.printing.common import (
    Where,
    counter_cell,
    find_side,
    locate,
    open_ended,
    setup_order,
    values_text,
)
from wartable.printing.counterart import Palette
from wartable.printing.flow import FlowDocument
from wartable.printing.page import PageSetup
from wartable.printing.tableblocks import Cell, Column, Row, Table

__all__ = ["PieceLine", "PositionSheet", "build_position_sheet", "position_document"]

# Piece attrs that are bookkeeping, not something to set up on the table.
_INTERNAL = frozenset({"name", "moved", "attacked", "hidden_count", "factors", "step",
                       "reduced"})


@dataclass(frozen=True)
class PieceLine:
    piece: Piece
    side_name: str
    name: str
    type_name: str
    values: str
    notes: str


@dataclass(frozen=True)
class LocationGroup:
    where: Where
    pieces: tuple[PieceLine, ...]


@dataclass(frozen=True)
class MapPosition:
    map_id: str
    title: str
    groups: tuple[LocationGroup, ...]

    def piece_count(self) -> int:
        return sum(len(g.pieces) for g in self.groups)


@dataclass(frozen=True)
class SideStatus:
    side_id: str
    name: str
    on_map: int
    in_boxes: tuple[tuple[str, int], ...]
    values: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class PositionSheet:
    game_title: str
    scenario_name: str
    turn: int
    last_turn: int
    step: str
    acting: str
    pending: tuple[str, ...]
    result: str | None
    sides: tuple[SideStatus, ...]
    maps: tuple[MapPosition, ...]
    elsewhere: tuple[LocationGroup, ...]
    game_values: tuple[tuple[str, str], ...]
    visibility: str  # "public", "all", or the viewing side's name
    hidden_left_out: int
    actions: int | None = None
    open_ended: bool = False  # no turn limit: "Turn 3", not "Turn 3 of 99"
    turn_word: str = "Turn"  # "Round" in A&A (Scenario.turn_word)

    def pieces(self) -> list[PieceLine]:
        return [p for m in self.maps for g in m.groups for p in g.pieces] + [
            p for g in self.elsewhere for p in g.pieces]


# --- what may be shown ---------------------------------------------------------------------


def visible_pieces(game: Game, state: GameState, viewer: str | None = None,
                   reveal: bool = False) -> tuple[dict[str, Piece], str]:
    """The pieces to print, and what they are ("all", "public", a side's name)."""
    d = game.definition
    if reveal:
        return dict(state.pieces), "all"
    if viewer is not None:
        side = find_side(d, viewer)
        return dict(game.rules.view(game, state, side.id).pieces), side.name
    views = {s.id: game.rules.view(game, state, s.id).pieces for s in d.sides}
    out: dict[str, Piece] = {}
    for pid, p in state.pieces.items():
        others = [v for sid, v in views.items() if sid != p.side] or list(views.values())
        if all(pid in v for v in others):
            out[pid] = others[0][pid] if others else p
    return out, "public"


# --- building the sheet --------------------------------------------------------------------


def _line(game: Game, p: Piece, state: GameState) -> PieceLine:
    d = game.definition
    ut = d.unit_types.get(p.type)
    type_name = ut.name if ut else p.type
    name = str(p.attrs.get("name") or type_name)
    values = values_text(game, p.type, p.attrs) if ut else ""
    notes = []
    hidden = p.attrs.get("hidden_count")
    if isinstance(hidden, int) and hidden > 0:
        notes.append(f"+{plural(hidden, 'hidden unit')} under it")
    if d.piece_notes:  # the game says which attributes players read; the rest is bookkeeping
        notes.extend(piece_notes(game, state, p))
    else:
        for k, v in sorted(p.attrs.items()):
            if k in _INTERNAL or v in (None, False, "", 0):
                continue
            notes.append(k.replace("_", " ") if v is True else f"{k.replace('_', ' ')}: {v}")
    try:
        side_name = d.side(p.side).name
    except KeyError:
        side_name = p.side
    return PieceLine(p, side_name, name, type_name, values, "; ".join(notes))


def _is_id(text: str) -> bool:
    """"anglo_french.bel_cavalry.1": a piece or record id, not words."""
    return " " not in text and "." in text.strip(".")


def _scalar_text(v: Any) -> str | None:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, str | int | float):
        text = str(v)
        return text if len(text) <= 80 else text[:79] + "…"
    if isinstance(v, list | tuple) and v and all(isinstance(x, str) and _is_id(x) for x in v):
        return None  # internal ids (pieces, places): nothing a player reads
    if isinstance(v, list | tuple) and all(isinstance(x, str | int | float) for x in v):
        text = ", ".join(str(x) for x in v)
        return text if len(text) <= 80 else text[:79] + "…"
    return None


def _side_values(state: GameState, side_ids: Sequence[str]) -> tuple[
        dict[str, list[tuple[str, str]]], list[tuple[str, str]]]:
    """State vars per side ({side: value} tables, "side_x" keys) and the game-wide rest."""
    per: dict[str, list[tuple[str, str]]] = {s: [] for s in side_ids}
    rest: list[tuple[str, str]] = []
    for key, v in sorted(state.vars.items()):
        label = str(key).replace("_", " ")
        if isinstance(v, Mapping) and v and all(k in per for k in v):
            for sid, x in v.items():
                text = _scalar_text(x)
                if text is not None:
                    per[sid].append((label, text))
            continue
        owner = next((s for s in side_ids if str(key).startswith((f"{s}_", f"{s}."))), None)
        text = _scalar_text(v)
        if text is None:
            continue
        if owner is not None:
            per[owner].append((str(key)[len(owner) + 1:].replace("_", " "), text))
        else:
            rest.append((label, text))
    return per, rest


def _noted_values(game: Game, state: GameState) -> tuple[
        dict[str, list[tuple[str, str]]], list[tuple[str, str]]]:
    """The variables the game says players read (`[[state_notes]]`), in its order and words."""
    d = game.definition
    names = {s.id: s.name for s in d.sides}
    per: dict[str, list[tuple[str, str]]] = {s: [] for s in d.side_ids}
    rest: list[tuple[str, str]] = []

    def text(note: StateNote, v: Any) -> str | None:
        if note.kind == "flag":
            return "yes" if v else "no"
        if note.kind == "sides" and isinstance(v, list | tuple):
            return ", ".join(names.get(str(x), str(x)) for x in v) or "none"
        if isinstance(v, str) and v in note.words:
            return note.words[v]
        return _scalar_text(v)

    for note in d.state_notes:
        v = state.vars.get(note.var)
        if v is None:
            continue
        if isinstance(v, Mapping) and v and all(k in per for k in v):
            for sid, x in v.items():
                t = text(note, x)
                if t is not None:
                    per[sid].append((note.label, t))
            continue
        t = text(note, v)
        if t is not None:
            rest.append((note.label, t))
    return per, rest


def build_position_sheet(game: Game, state: GameState, *, viewer: str | None = None,
                         reveal: bool = False, actions: int | None = None) -> PositionSheet:
    d = game.definition
    shown, visibility = visible_pieces(game, state, viewer, reveal)
    hidden_out = len(state.pieces) - len(shown)
    by_loc: dict[str, list[Piece]] = {}
    for p in sorted(shown.values(), key=lambda p: p.id):
        by_loc.setdefault(p.location, []).append(p)
    wheres = {loc: locate(game, loc) for loc in by_loc}
    maps: list[MapPosition] = []
    for map_id, board in game.maps.items():
        locs = sorted((loc for loc, w in wheres.items() if w.map_id == map_id),
                      key=lambda loc: (setup_order(game, wheres[loc]), loc))
        groups = tuple(LocationGroup(wheres[loc], tuple(_line(game, p, state) for p in by_loc[loc]))
                       for loc in locs)
        maps.append(MapPosition(map_id, board.title, groups))
    elsewhere = tuple(LocationGroup(wheres[loc], tuple(_line(game, p, state) for p in by_loc[loc]))
                      for loc in sorted(by_loc) if wheres[loc].map_id is None)
    per, rest = (_noted_values(game, state) if d.state_notes
                 else _side_values(state, d.side_ids))
    sides = []
    for s in d.sides:
        mine = [p for p in shown.values() if p.side == s.id]
        boxes: dict[str, int] = {}
        on_map = 0
        for p in mine:
            w = wheres[p.location]
            if w.kind == "box":
                boxes[w.label] = boxes.get(w.label, 0) + 1
            elif w.map_id is not None:
                on_map += 1
        sides.append(SideStatus(s.id, s.name, on_map, tuple(sorted(boxes.items())),
                                tuple(per[s.id])))
    pos = game.position(state)
    sc = d.scenarios.get(state.scenario)
    acting_id = state.frames[-1].side if state.frames else state.active_side
    try:
        acting = d.side(acting_id).name
    except KeyError:
        acting = acting_id
    pending = tuple(f.text for f in state.frames if f.text)
    return PositionSheet(
        game_title=d.title, scenario_name=sc.name if sc else state.scenario, turn=state.turn,
        last_turn=sc.last_turn if sc else state.turn, step=pos.label, acting=acting,
        pending=pending, result=state.result, sides=tuple(sides), maps=tuple(maps),
        elsewhere=elsewhere, game_values=tuple(rest), visibility=visibility,
        hidden_left_out=hidden_out, actions=actions,
        open_ended=sc is not None and open_ended(game, sc),
        turn_word=sc.turn_word if sc is not None else "Turn")


# --- the document ----------------------------------------------------------------------------


def position_document(game: Game, state: GameState, *, viewer: str | None = None,
                      reveal: bool = False, setup: PageSetup | None = None,
                      palette: Palette = "standard", actions: int | None = None,
                      map_pictures: bool = True,
                      sheet: PositionSheet | None = None) -> FlowDocument:
    """The position sheet of a game state (see the module docstring for hidden pieces)."""
    setup = setup or PageSetup()
    sheet = sheet or build_position_sheet(game, state, viewer=viewer, reveal=reveal,
                                          actions=actions)
    shown = {p.piece.id: p.piece for p in sheet.pieces()}
    blocks: list[Block] = [Heading(
        f"{sheet.game_title}: position on {sheet.turn_word.lower()} {sheet.turn}", 1)]
    facts = [f"Scenario: {sheet.scenario_name}.",
             (f"{sheet.turn_word} {sheet.turn}" if sheet.open_ended else
              f"{sheet.turn_word} {sheet.turn} of {sheet.last_turn}") + f"; step: {sheet.step}."]
    if sheet.result:
        facts.append(f"Game over: {sheet.result}")
    else:
        facts.append(f"{sheet.acting} to act.")
    if sheet.actions is not None:
        facts.append(f"{plural(sheet.actions, 'action')} played so far.")
    blocks.append(Paragraph(" ".join(facts), 9.5))
    for text in sheet.pending:
        blocks.append(Paragraph(f"Decision pending: {text}", 9, fill="#fff6dc"))
    if sheet.visibility == "public":
        vis = "Public information only: each side's units as the other sides see them."
        if sheet.hidden_left_out:
            vis += f" {plural(sheet.hidden_left_out, 'unit')} hidden from an opponent "
            vis += "are left out."
    elif sheet.visibility == "all":
        vis = "Everything, hidden information included: do not show this sheet to a player " \
              "who must not see it."
    else:
        vis = f"As {sheet.visibility} sees it: hidden enemy units are left out."
    blocks.append(Paragraph(vis, 8.5, italic=True))
    blocks.append(_status_table(sheet))
    if sheet.game_values:
        blocks.append(Table([Column("Game state", 1.0), Column("Value", 2.0)],
                            [Row((Cell(k, bold=True), Cell(v))) for k, v in sheet.game_values],
                            size_pt=8.5))
    x0, y0, x1, y1 = setup.content_px
    body_w_mm = (x1 - x0) * 25.4 / setup.dpi
    body_h_mm = (y1 - y0) * 25.4 / setup.dpi
    max_h_mm = body_h_mm * 0.62
    # The first map shares its page with the summary: shrink it to the room left if that is
    # not much less than a full picture (landscape pages), rather than leave a blank page.
    used_mm = sum(b.height(setup, x1 - x0) for b in blocks) * 25.4 / setup.dpi
    room_mm = body_h_mm - used_mm - 32.0  # running header and footer, heading, caption
    first_max_h = min(max_h_mm, room_mm) if room_mm >= body_h_mm * 0.4 else max_h_mm
    size_mm = 8.0
    first = True
    for mp in sheet.maps:
        if not mp.groups:
            continue
        board = game.maps[mp.map_id]
        if not first:
            blocks.append(PageBreak())
        first = False
        blocks.append(RunningHeader(f"{sheet.turn_word} {sheet.turn} — {mp.title}"))
        blocks.append(Heading(f"{mp.title}: {plural(mp.piece_count(), 'unit')}", 2))
        if map_pictures:
            # The part of the map that holds units; off-map boxes are in the table below.
            on_map = [loc for g in mp.groups if g.where.kind != "box"
                      for loc in g.where.locations]
            pad = mapdraw.hex_across(board) * 0.75 if isinstance(board, HexMap) else 0.0
            region = mapdraw.location_bounds(board, on_map, pad) if on_map else board.bounds()
            w_u, h_u = region[2] - region[0], region[3] - region[1]
            limit = first_max_h if mp is _first_shown(sheet) else max_h_mm
            k_mm = min(body_w_mm / w_u, limit / h_u, mapdraw.mm_per_unit(board))
            pieces = [shown[p.piece.id] for g in mp.groups if g.where.kind != "box"
                      for p in g.pieces]
            blocks.append(ImageBlock(_map_render(board, region, pieces, game, palette),
                                     w_u * k_mm, h_u * k_mm,
                                     f"{mp.title} at {k_mm / mapdraw.mm_per_unit(board) * 100:.0f}"
                                     " % of the paper map; stacks show up to four counters, "
                                     "boxes are listed below.",
                                     words=tuple(g.where.label for g in mp.groups)))
        blocks.append(_units_table(game, mp.groups, size_mm, palette))
    if sheet.elsewhere:
        blocks.append(Heading("Elsewhere", 2))
        blocks.append(_units_table(game, sheet.elsewhere, size_mm, palette))
    return FlowDocument(f"{sheet.game_title} — position", blocks, setup,
                        subtitle=f"{sheet.turn_word} {sheet.turn} — {sheet.step}")


def _first_shown(sheet: PositionSheet) -> MapPosition | None:
    return next((m for m in sheet.maps if m.groups), None)


def _status_table(sheet: PositionSheet) -> Table:
    rows = []
    for s in sheet.sides:
        boxes = ", ".join(f"{name}: {n}" for name, n in s.in_boxes) or "—"
        values = "; ".join(f"{k}: {v}" for k, v in s.values) or "—"
        rows.append(Row((Cell(s.name, bold=True), Cell(str(s.on_map)), Cell(boxes),
                         Cell(values))))
    return Table([Column("Side", 1.0), Column("Units on the map", fixed_mm=26.0, align="c"),
                  Column("Off-map boxes", 1.6), Column("Status", 2.4)], rows, size_pt=9)


def _units_table(game: Game, groups: Sequence[LocationGroup], size_mm: float,
                 palette: Palette) -> Table:
    rows: list[Row] = []
    for g in groups:
        desc = g.where.description
        if g.where.kind == "hex" and desc.startswith(g.where.label):
            desc = desc[len(g.where.label):].lstrip(" —")
        rows.append(Row(group=g.where.label, group_note=desc))
        for alike in _alike(g.pieces):
            pl = alike[0]
            p = pl.piece
            img = counter_cell(game, p.type, p.side, p.attrs, size_mm, palette) \
                if p.type in game.definition.unit_types else None
            name = ", ".join(x.name for x in alike)
            count = f" ×{len(alike)}" if len(alike) > 1 and len({x.name for x in alike}) == 1 \
                else ""
            rows.append(Row((Cell(images=(img,) if img else ()), Cell(pl.side_name),
                             Cell(alike[0].name + count if count else name, bold=True),
                             Cell(pl.type_name), Cell(pl.values), Cell(pl.notes))))
    return Table([Column("", fixed_mm=size_mm + 3.0), Column("Side", 0.8),
                  Column("Unit", 1.3), Column("Type", 1.1),
                  Column("Values", fixed_mm=22.0, align="c"), Column("Notes", 1.6)], rows,
                 size_pt=8.5)


def _alike(lines: Sequence[PieceLine]) -> list[list[PieceLine]]:
    """Units in one place that differ only by their designation, together (one row)."""
    out: dict[tuple[Any, ...], list[PieceLine]] = {}
    for pl in lines:
        p = pl.piece
        out.setdefault((p.side, p.type, pl.values, pl.notes, pl.type_name), []).append(pl)
    return list(out.values())


def _map_render(board: Any, region: tuple[float, float, float, float], pieces: Sequence[Piece],
                game: Game, palette: Palette) -> Any:
    def render(w: int, h: int) -> Image.Image:
        k = w / (region[2] - region[0])
        img = mapdraw.draw_map(board, region, k, pieces, game.definition, palette=palette)
        if img.size != (w, h):
            fixed = Image.new("RGB", (w, h), "white")
            fixed.paste(img, (0, 0))
            img = fixed
        return img

    return render

