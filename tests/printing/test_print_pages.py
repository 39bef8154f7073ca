"""The page machinery: paper, layout, the lossless PDF writer, PNG pages, progress, cancel."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageChops, ImageDraw

from wartable.core.errors import WartableError
from wartable.printing import fonts
from wartable.printing.blocks import Heading, ImageBlock, PageBreak, Paragraph
from wartable.printing.flow import FlowDocument
from wartable.printing.output import compact, png_paths, write_document
from wartable.printing.page import Page, PageSetup, PrintCancelled, paper, wrap
from wartable.printing.tableblocks import BoxCell, BoxGrid, Cell, Column, Row, Table

POPPLER = shutil.which("pdfinfo") is not None and shutil.which("pdftoppm") is not None
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils (pdfinfo) not installed")


def pdfinfo(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    return dict(line.split(":", 1) for line in out.stdout.splitlines() if ":" in line)


def long_doc(setup: PageSetup, rows: int = 120) -> FlowDocument:
    table = Table([Column("Hex", fixed_mm=15), Column("Unit", 2), Column("Values", 1, align="c")],
                  [Row(group=f"Group {i // 10}") if i % 10 == 0 else
                   Row((f"{i:04d}", Cell(f"Unit number {i}", bold=True), "4-4-4"))
                   for i in range(rows)])
    return FlowDocument("Long test document", [
        Heading("A long table", 1), Paragraph("Some text. " * 40), table,
        Heading("A track", 2), BoxGrid([BoxCell(str(t), ("+1 unit",)) for t in range(1, 30)]),
    ], setup, subtitle="pages test")


# --- paper and setup -----------------------------------------------------------------------


def test_paper_sizes_at_300_dpi() -> None:
    assert PageSetup(paper("a4")).size_px == (2480, 3508)
    assert PageSetup(paper("LETTER")).size_px == (2550, 3300)
    assert PageSetup(paper("a4"), landscape=True).size_px == (3508, 2480)
    assert PageSetup(paper("a4"), dpi=150).px(25.4) == pytest.approx(150)


def test_bad_paper_dpi_and_margin_are_clear_errors() -> None:
    with pytest.raises(WartableError, match="a4 or letter"):
        paper("A5")
    with pytest.raises(WartableError, match="20 to 1200 dpi"):
        PageSetup(dpi=5)
    with pytest.raises(WartableError, match="margin"):
        PageSetup(margin_mm=90)


def test_bundled_fonts_are_found_first() -> None:
    path = fonts.font_path(bold=True)
    assert isinstance(path, Path) and path.name == "DejaVuSans-Bold.ttf"
    assert path.parent.name == "fonts" and path.parent.parent.name == "assets"
    assert (path.parent / "LICENSE-DejaVu.txt").is_file()
    f = fonts.font(40, condensed=True, italic=True)
    assert f.getname()[0] == "DejaVu Sans" and "Condensed" in f.getname()[1]


def test_a_missing_font_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fonts, "_bundled", lambda name: None)
    monkeypatch.setattr(fonts, "_SYSTEM_DIRS", ())
    with pytest.raises(fonts.FontError, match="DejaVu.*fonts-dejavu|Reinstall"):
        fonts.font_path()


def test_wrap_keeps_every_word_and_fits_the_width() -> None:
    s = PageSetup(dpi=100)
    text = "The quick brown fox jumps over the lazy dog " * 6 + "Supercalifragilistic" * 4
    lines = wrap(s, text, 300, 10)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    f = fonts.font(s.pt(10))
    assert all(f.getlength(line) <= 300 for line in lines)


# --- layout ---------------------------------------------------------------------------------


def test_a_long_table_splits_over_pages_repeating_its_header_and_group() -> None:
    doc = long_doc(PageSetup(dpi=60))
    n = doc.page_count()
    assert n >= 3
    pages = doc.paginate()
    tables = [p.block for page in pages for p in page if isinstance(p.block, Table)]
    assert len(tables) >= 2
    # Every data row is on exactly one page, in order.
    units = [r.cells[1].text for t in tables for r in t.rows  # type: ignore[union-attr]
             if not r.group]
    assert units == [f"Unit number {i}" for i in range(120) if i % 10]
    assert all(t.header for t in tables)
    # A page never ends on a group heading; a continued group repeats its heading.
    assert all(not t.rows[-1].group for t in tables)
    assert any(r.group.endswith("(continued)") for t in tables[1:] for r in t.rows[:1])


def test_blocks_stay_inside_the_page_body() -> None:
    setup = PageSetup(dpi=60)
    doc = long_doc(setup)
    x0, top, x1, bottom = doc._frame()
    for page in doc.paginate():
        for placed in page:
            h = placed.block.height(setup, x1 - x0)
            assert top - 0.01 <= placed.y and placed.y + h <= bottom + 0.01


def test_page_break_and_running_header() -> None:
    from wartable.printing.blocks import RunningHeader

    doc = FlowDocument("T", [RunningHeader("first"), Paragraph("one"), PageBreak(),
                             RunningHeader("second"), Paragraph("two")], PageSetup(dpi=40))
    assert doc.page_count() == 2
    texts = []
    for i in range(2):
        page = Page(doc.setup, i + 1, 2)
        doc.draw_page(i, page)
        texts.append([t.text for t in page.texts])
    assert "first" in texts[0] and "second" in texts[1]
    assert "Page 2 of 2" in texts[1]


# --- compact and output ---------------------------------------------------------------------


def _sample_page(colours: int) -> Image.Image:
    img = Image.new("RGB", (300, 200), "white")
    d = ImageDraw.Draw(img)
    for i in range(colours - 1):
        d.rectangle((i * 3 % 300, i // 100 * 10, i * 3 % 300 + 2, i // 100 * 10 + 9),
                    fill=(i % 256, (i * 7) % 256, (i * 13) % 256))
    return img


@pytest.mark.parametrize("colours", [2, 200, 900])
def test_compact_is_lossless(colours: int) -> None:
    img = _sample_page(colours)
    out = compact(img)
    assert out.mode == ("P" if len(img.getcolors(100000) or []) <= 256 else "RGB") or \
        colours == 2 and out.mode == "L"
    assert ImageChops.difference(out.convert("RGB"), img).getbbox() is None


def test_compact_uses_greyscale_for_grey_pages() -> None:
    img = Image.linear_gradient("L").resize((300, 300)).convert("RGB")
    img.paste((0, 0, 0), (10, 10, 50, 50))
    # 256 grey levels fit a palette; add one more to force the greyscale path.
    big = Image.new("RGB", (300, 300), (7, 7, 7))
    big.paste(img.resize((300, 299)), (0, 1))
    out = compact(big)
    assert out.mode == "L"
    assert ImageChops.difference(out.convert("RGB"), big).getbbox() is None


class FlatDoc:
    """Pages of flat colours: exercises the palette (P), greyscale (L) and RGB encodings."""

    title = "flat"

    def __init__(self, setup: PageSetup) -> None:
        self.setup = setup

    def page_count(self) -> int:
        return 3

    def draw_page(self, index: int, page: Page) -> None:
        w, h = page.image.size
        if index == 0:  # a few colours: palette
            for i in range(6):
                page.image.paste((40 * i, 200 - 30 * i, 90), (i * w // 6, 0, (i + 1) * w // 6, h))
        elif index == 1:  # greys only
            page.image.paste(Image.linear_gradient("L").resize((w, h)).convert("RGB"))
        else:  # many colours: RGB
            grad = Image.merge("RGB", [Image.linear_gradient("L").resize((w, h)),
                                       Image.linear_gradient("L").rotate(90).resize((w, h)),
                                       Image.new("L", (w, h), 128)])
            page.image.paste(grad)


needs_pdfimages = pytest.mark.skipif(shutil.which("pdfimages") is None,
                                     reason="poppler-utils (pdfimages) not installed")


@needs_poppler
@needs_pdfimages
@pytest.mark.parametrize("kind", ["text", "flat"])
def test_pdf_is_valid_lossless_and_sized(tmp_path: Path, kind: str) -> None:
    setup = PageSetup(paper("letter"), dpi=100)
    doc = long_doc(setup) if kind == "text" else FlatDoc(setup)
    out = write_document(doc, tmp_path / "doc.pdf")  # type: ignore[arg-type]
    info = pdfinfo(out.paths[0])
    assert int(info["Pages"]) == doc.page_count() == out.pages
    assert "612 x 792 pts" in info["Page size"]
    data = out.paths[0].read_bytes()
    assert b"/DCTDecode" not in data and b"/FlateDecode" in data  # no JPEG anywhere
    if kind == "flat":
        assert b"/Indexed" in data and b"/DeviceGray" in data and b"/DeviceRGB" in data
    # Lossless: every page image in the PDF is exactly what was drawn.
    subprocess.run(["pdfimages", "-png", str(out.paths[0]), str(tmp_path / "img")], check=True)
    extracted = sorted(tmp_path.glob("img-*.png"))
    assert len(extracted) == doc.page_count()
    for i, path in enumerate(extracted):
        page = Page(setup, i + 1, doc.page_count())
        doc.draw_page(i, page)
        with Image.open(path) as im:
            assert ImageChops.difference(im.convert("RGB"), page.image).getbbox() is None
    # And a viewer shows it at the right size, close to what was drawn.
    subprocess.run(["pdftoppm", "-r", "100", "-f", "1", "-l", "1", "-png", str(out.paths[0]),
                    str(tmp_path / "back")], check=True)
    back = Image.open(next(tmp_path.glob("back*.png"))).convert("RGB")
    page = Page(setup, 1, doc.page_count())
    doc.draw_page(0, page)
    assert back.size == page.image.size
    assert np.asarray(ImageChops.difference(back, page.image)).mean() < 6.0


@needs_poppler
def test_pdf_text_layer_is_searchable(tmp_path: Path) -> None:
    doc = long_doc(PageSetup(dpi=60), rows=30)
    out = write_document(doc, tmp_path / "doc.pdf")
    text = subprocess.run(["pdftotext", str(out.paths[0]), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "Unit number 29" in text and "A long table" in text


def test_png_pages_are_numbered_and_reported(tmp_path: Path) -> None:
    doc = long_doc(PageSetup(dpi=40))
    out = write_document(doc, tmp_path / "sheet.png")
    n = doc.page_count()
    assert [p.name for p in out.paths] == [f"sheet-{i}.png" for i in range(1, n + 1)]
    assert all(p.is_file() for p in out.paths)
    assert not (tmp_path / "sheet.png").exists()
    assert "sheet-1.png" in out.describe() and f"sheet-{n}.png" in out.describe()
    with Image.open(out.paths[0]) as im:
        assert im.size == PageSetup(dpi=40).size_px
        assert round(im.info["dpi"][0]) == 40
    one = FlowDocument("One", [Paragraph("Only one page.")], PageSetup(dpi=40))
    single = write_document(one, tmp_path / "one.png")
    assert single.paths == (tmp_path / "one.png",)
    assert png_paths(tmp_path / "x.png", 3)[2].name == "x-3.png"


def test_progress_rises_to_100_and_cancel_leaves_no_file(tmp_path: Path) -> None:
    seen: list[float] = []
    doc = long_doc(PageSetup(dpi=30))
    write_document(doc, tmp_path / "ok.pdf", report=lambda p, t: seen.append(p))
    assert seen == sorted(seen) and seen[-1] == 100.0
    calls = {"n": 0}

    def cancel_after_two() -> bool:
        calls["n"] += 1
        return calls["n"] > 2

    for name in ("stop.pdf", "stop.png"):
        with pytest.raises(PrintCancelled):
            write_document(doc, tmp_path / name, cancelled=cancel_after_two)
        calls["n"] = 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ok.pdf"]


def test_unknown_suffix_and_missing_folder_are_clear_errors(tmp_path: Path) -> None:
    doc = FlowDocument("x", [Paragraph("x")], PageSetup(dpi=30))
    with pytest.raises(WartableError, match=r"\.pdf .*\.png"):
        write_document(doc, tmp_path / "out.jpg")
    with pytest.raises(WartableError, match="does not exist"):
        write_document(doc, tmp_path / "nowhere" / "out.pdf")


def test_image_blocks_render_at_print_resolution() -> None:
    sizes: list[tuple[int, int]] = []

    def render(w: int, h: int) -> Image.Image:
        sizes.append((w, h))
        return Image.new("RGB", (w, h), "red")

    doc = FlowDocument("img", [ImageBlock(render, 50.8, 25.4, "caption")], PageSetup(dpi=200))
    page = Page(doc.setup)
    doc.draw_page(0, page)
    assert sizes == [(400, 200)]
    assert any(re.fullmatch("caption", t.text) for t in page.texts)


def test_a_page_over_the_size_budget_is_reduced_to_256_colours() -> None:
    from wartable.printing.output import encode_page

    w, h = 400, 300
    img = Image.merge("RGB", [Image.linear_gradient("L").resize((w, h)),
                              Image.linear_gradient("L").rotate(90).resize((w, h)),
                              Image.radial_gradient("L").resize((w, h))])
    data, png, reduced = encode_page(img, 100, budget=None)
    assert not reduced and png.colour_type == 2  # lossless RGB
    small, png2, reduced2 = encode_page(img, 100, budget=len(data) // 2)
    assert reduced2 and png2.colour_type == 3 and len(small) < len(data)
    with Image.open(__import__("io").BytesIO(small)) as back:
        diff = np.abs(np.asarray(back.convert("RGB")).astype(int) - np.asarray(img).astype(int))
    assert diff.mean() < 8  # close even on smooth 3-D gradients (the worst case); no blur
    text_page = long_doc(PageSetup(dpi=100))
    page = Page(text_page.setup, 1, text_page.page_count())
    text_page.draw_page(0, page)
    assert not encode_page(page.image, 100)[2]  # ordinary pages stay lossless
