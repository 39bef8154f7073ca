"""Map export: PNG at paper scale and a chosen dpi, PDF tiles with overlap marks, regions,
and the print map renderer on hex and area maps."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from shapely.geometry import box as rect

from wartable.core.errors import WartableError
from wartable.core.frozen import FrozenMap
from wartable.maps.model import AreaMap, BoardMap, OffMapBox, Place, Space
from wartable.persistence.gamedata import load_game
from wartable.printing import areadraw, mapdraw
from wartable.printing.map_export import (
    TiledMap,
    export_map,
    parse_region,
    tiled_map_document,
)
from wartable.printing.page import Page, PageSetup, paper


@pytest.fixture(scope="module")
def field() -> BoardMap:
    return load_game("skirmish").maps["skirmish/field"]


def area_map() -> AreaMap:
    """Six land territories and three sea zones on a 300 x 200 plane, plus a box."""
    spaces = {}
    for i in range(3):
        for j in range(2):
            sid = f"land{i}{j}"
            spaces[sid] = Space(sid, f"Land {i}{j}", "land", rect(i * 80, j * 70, i * 80 + 80,
                                                                  j * 70 + 70),
                                (i * 80 + 40, j * 70 + 35))
    for i in range(3):
        sid = f"sea{i}"
        spaces[sid] = Space(sid, f"Sea {i}", "sea", rect(i * 100, 140, i * 100 + 100, 200),
                            (i * 100 + 50, 170))
    adj = frozenset(frozenset((a, b)) for a in spaces for b in spaces
                    if a < b and spaces[a].polygon.touches(spaces[b].polygon))
    return AreaMap("test/areas", "Areas", 1, FrozenMap(spaces), adj,
                   boxes=(OffMapBox("pool", "Pool", 250, 0, 50, 60),),
                   places=(Place("Capital", "capital", "land00"),))


# --- regions ----------------------------------------------------------------------------------


def test_regions(field: BoardMap) -> None:
    whole = field.bounds()
    assert parse_region(field, None) == whole
    x0, y0, x1, y1 = parse_region(field, "1005,2")
    cx, cy = field.center("1005")
    assert x0 < cx < x1 and y0 < cy < y1
    assert (x1 - x0) == pytest.approx(5 * 1.5 + 0.5, abs=1e-6)  # five flat hex columns
    a = parse_region(field, "0101:0505")
    assert a[0] == whole[0] and a[1] == whole[1]
    assert parse_region(field, "1,2,10,8") == (1.0, 2.0, 10.0, 8.0)
    assert parse_region(field, "-5,-5,3,3") == (0.0, 0.0, 3.0, 3.0)  # clipped to the map
    for bad, msg in (("9999", "not a location"), ("5,5,1,1", "empty"),
                     ("1005,x", "not a whole number"), ("500,500,600,600", "outside")):
        with pytest.raises(WartableError, match=msg):
            parse_region(field, bad)


# --- the renderer ----------------------------------------------------------------------------


def test_draw_map_has_the_exact_size_and_marks(field: BoardMap) -> None:
    region = parse_region(field, "1005,2")
    k = 37.3
    plain = mapdraw.draw_map(field, region, k)
    assert plain.size == (math.ceil((region[2] - region[0]) * k),
                          math.ceil((region[3] - region[1]) * k))
    marked = mapdraw.draw_map(field, region, k, marks=[mapdraw.Mark(("1005",), "1")])
    x, y = field.center("1005")
    px, py = round((x - region[0]) * k), round((y - region[1]) * k)
    # The mark's round tag sits on the hex centre, in the mark colour.
    r, g, b = marked.getpixel((px + 3, py - 6))[:3]  # type: ignore[index,misc]
    assert r > 150 and g < 80 and b < 80
    assert plain.getpixel((px + 3, py - 6)) != marked.getpixel((px + 3, py - 6))


def test_counters_are_drawn_where_the_pieces_stand(field: BoardMap) -> None:
    game = load_game("skirmish")
    piece = mapdraw.MapPiece("1005", "armour", "blue", {"name": "7th"})
    k = 60.0
    region = parse_region(field, "1005,1")
    img = mapdraw.draw_map(field, region, k, [piece], game.definition)
    x, y = field.center("1005")
    px, py = round((x - region[0]) * k), round((y - region[1]) * k)
    side = mapdraw.counter_units(field) * k
    # A counter covers the hex centre, in Blue's colour somewhere inside.
    patch = np.asarray(img.crop((round(px - side / 2), round(py - side / 2),
                                 round(px + side / 2), round(py + side / 2))))
    blue = np.array([0x7f, 0xa7, 0xd9])
    assert (np.abs(patch.astype(int) - blue).sum(axis=2) < 30).mean() > 0.3


def test_area_maps_draw_spaces_boxes_and_names() -> None:
    amap = area_map()
    img = mapdraw.draw_map(amap, None, 4.0)
    assert img.size == (1200, 800)
    land = np.array(Image.new("RGB", (1, 1), areadraw.LAND).getpixel((0, 0)))
    sea = np.array(Image.new("RGB", (1, 1), areadraw.SEA).getpixel((0, 0)))
    a = np.asarray(img).astype(int)
    assert np.abs(a[300, 100] - land).sum() < 10 and np.abs(a[700, 100] - sea).sum() < 10
    # The box is drawn over the map; space names are printed (dark pixels at the label).
    box_px = np.array(Image.new("RGB", (1, 1), areadraw.BOX_FILL).getpixel((0, 0)))
    assert np.abs(a[200, 1150] - box_px).sum() < 10
    cx, cy = 160, 140  # "Land 00" label point at 4 px per unit
    assert a[cy - 10:cy + 10, cx - 40:cx + 40].min() < 80
    marked = mapdraw.draw_map(amap, None, 4.0, marks=[mapdraw.Mark(("land11",), "2")])
    assert np.asarray(marked)[380, 500].tolist() != a[380, 500].tolist()


# --- PNG ---------------------------------------------------------------------------------------


def test_png_export_is_at_paper_scale_and_dpi(field: BoardMap, tmp_path: Path) -> None:
    out = export_map(field, tmp_path / "map.png", dpi=100)
    x0, y0, x1, y1 = field.bounds()
    mm = (x1 - x0) * mapdraw.mm_per_unit(field)
    with Image.open(out.paths[0]) as im:
        assert im.width == math.ceil(mm / 25.4 * 100 - 1e-6)
        assert round(im.info["dpi"][0]) == 100
    # One hex is 17.6 mm across on paper by default: 69.4 px at 100 dpi.
    assert mapdraw.mm_per_unit(field) * mapdraw.hex_across(field) == pytest.approx(17.64, 0.01)
    part = export_map(field, tmp_path / "part.png", dpi=150, region=parse_region(field, "1005,1"),
                      hex_mm=25.0)
    with Image.open(part.paths[0]) as im:
        assert im.width == math.ceil((1.5 * 3 + 0.5) * 25.0 / math.sqrt(3) / 25.4 * 150 - 1e-6)
    with pytest.raises(WartableError, match="too big"):
        export_map(field, tmp_path / "huge.png", dpi=1200, hex_mm=400)
    with pytest.raises(WartableError, match=r"\.png .*\.pdf"):
        export_map(field, tmp_path / "map.svg")


def test_png_bands_join_without_seams(field: BoardMap, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import wartable.printing.map_export as me

    whole = export_map(field, tmp_path / "one.png", dpi=60)
    monkeypatch.setattr(me, "BAND_PX", 97)
    banded = export_map(field, tmp_path / "bands.png", dpi=60)
    with Image.open(whole.paths[0]) as a, Image.open(banded.paths[0]) as b:
        diff = np.abs(np.asarray(a.convert("RGB")).astype(int) -
                      np.asarray(b.convert("RGB")).astype(int))
    assert diff.mean() < 1.0  # antialiasing at band edges may differ a little, no more


# --- tiles ---------------------------------------------------------------------------------------


def test_tiles_cover_the_map_with_the_overlap(field: BoardMap) -> None:
    doc = TiledMap(field, PageSetup(paper("a4"), dpi=300), overlap_mm=10.0)
    assert (doc.rows, doc.cols) == (2, 3) and doc.page_count() == 6
    k = doc.mm_per_unit
    x0, y0, x1, y1 = field.bounds()
    # Tiles start at the map's corner, step by the page area less the overlap, cover it all.
    first = doc.tile(0, 0)
    right = doc.tile(0, 1)
    below = doc.tile(1, 0)
    assert first is not None and right is not None and below is not None
    assert first.bounds[:2] == (x0, y0)
    assert (first.bounds[2] - right.bounds[0]) * k == pytest.approx(10.0)
    assert (first.bounds[3] - below.bounds[1]) * k == pytest.approx(10.0)
    assert max(t.bounds[2] for t in doc.tiles) >= x1
    assert max(t.bounds[3] for t in doc.tiles) >= y1
    assert [t.name for t in doc.tiles] == ["A1", "A2", "A3", "B1", "B2", "B3"]
    # Left to choose, the orientation that needs fewer pages wins.
    auto = tiled_map_document(field)
    assert auto.setup.landscape and auto.page_count() == 4
    letter = tiled_map_document(field, paper_name="letter", landscape=False)
    assert letter.setup.paper.name == "Letter" and not letter.setup.landscape


def test_tile_pages_carry_their_marks(field: BoardMap) -> None:
    doc = TiledMap(field, PageSetup(paper("a4"), dpi=60), overlap_mm=10.0)
    page = Page(doc.setup, 5, doc.page_count())
    doc.draw_page(4, page)  # B2: neighbours on every side but below
    texts = [t.text for t in page.texts]
    assert "B2" in texts and "edge of B1" in texts and "edge of A2" in texts
    assert "B3 →" in texts and "← B1" in texts and "↑ A2" in texts
    assert any("row 2 of 2, column 2 of 3" in t for t in texts)
    assert any("Print at 100 %" in t for t in texts)


@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="needs poppler-utils")
@pytest.mark.parametrize(("paper_name", "size"), [("a4", (841.89, 595.28)),
                                                  ("letter", (792.0, 612.0))])
def test_tiled_pdf(field: BoardMap, tmp_path: Path, paper_name: str,
                   size: tuple[float, float]) -> None:
    out = export_map(field, tmp_path / "tiles.pdf", paper_name=paper_name, dpi=100)
    info = subprocess.run(["pdfinfo", str(out.paths[0])], capture_output=True, text=True,
                          check=True).stdout
    assert f"Pages:           {out.pages}" in info and out.pages == 4
    w, h = (float(v) for v in info.split("Page size:")[1].split("pts")[0].split(" x "))
    assert (w, h) == pytest.approx(size, abs=0.01)  # landscape: fewer pages for this map


def test_area_map_tiles() -> None:
    doc = tiled_map_document(area_map(), dpi=40)
    assert doc.page_count() >= 1
    page = Page(doc.setup, 1, doc.page_count())
    doc.draw_page(0, page)
    assert any("1 unit =" in t.text for t in page.texts)
