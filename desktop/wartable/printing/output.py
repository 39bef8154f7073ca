"""Output: `write_document(doc, path)` picks the format from the suffix:

- ``.pdf``: our own small PDF writer (Pillow's embeds RGB pages as JPEG, which blurs text).
  Each page is one image XObject compressed losslessly with Flate, using the PNG predictors
  (the IDAT stream of a PNG encoding *is* a valid PDF Flate stream with ``/Predictor 15``).
  Pages are stored as exact palette images when they use at most 256 colours, greyscale when
  they have no colour, and RGB otherwise (a page that would still exceed `PAGE_BUDGET`, a
  map tile full of colour gradations, is reduced to 256 colours without dithering: no blur,
  no artefacts, a third of the size). An invisible text layer (PDF text render mode 3)
  holds every string drawn, so the PDF can be searched and its text copied.
- ``.png``: one file for a one-page document; ``FILE-1.png``, ``FILE-2.png`` … otherwise.

Pages are drawn one at a time and compressed at once, so memory stays at about one page
(A4 at 300 dpi: 2480 x 3508 px, 26 MB) whatever the page count. `report(percent, text)` is
called as pages are done and `cancelled()` is polled between pages; on cancellation
`PrintCancelled` is raised and no output file is left behind.
"""

from __future__ import annotations

import io
import os
import struct
import tempfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from PIL import Image, ImageChops

from wartable.core.errors import WartableError
from wartable.printing.blocks import Document
from wartable.printing.flow import Progress, render_pages
from wartable.printing.page import MM_PER_INCH, Cancelled, Report, TextRun


def compact(img: Image.Image) -> Image.Image:
    """The same pixels in the smallest lossless mode: greyscale when there is no colour, an
    exact palette for at most 256 colours, else RGB. The result is checked: a palette that
    would change a single pixel is not used."""
    img = img.convert("RGB") if img.mode != "RGB" else img
    r, g, b = img.split()
    if ImageChops.difference(r, g).getbbox() is None and \
            ImageChops.difference(g, b).getbbox() is None:
        return r
    colours = img.getcolors(256)
    if colours is not None:
        flat: list[int] = []
        for _, rgb in colours:
            flat.extend(rgb if isinstance(rgb, tuple) else (int(rgb),) * 3)
        pal = Image.new("P", (1, 1))
        pal.putpalette(flat + flat[:3] * (256 - len(colours)))  # pad with a used colour
        out = img.quantize(palette=pal, dither=Image.Dither.NONE)
        hi = out.getextrema()[1]
        if isinstance(hi, int) and hi < len(colours):
            out.putpalette(flat)  # only the colours in use
            if ImageChops.difference(out.convert("RGB"), img).getbbox() is None:
                return out
    return img


@dataclass(frozen=True)
class _Png:
    width: int
    height: int
    bits: int
    colour_type: int
    palette: bytes
    idat: bytes


def _png(img: Image.Image, dpi: int) -> tuple[bytes, _Png]:
    """PNG bytes of the image and its parsed chunks (for the PDF writer)."""
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=6, dpi=(dpi, dpi))
    data = buf.getvalue()
    pos = 8
    ihdr = b""
    palette = b""
    idat: list[bytes] = []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = body
        elif kind == b"PLTE":
            palette = body
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    w, h, bits, ctype, _, _, interlace = struct.unpack(">IIBBBBB", ihdr)
    if interlace or ctype not in (0, 2, 3):
        raise ValueError(f"unexpected PNG layout (colour type {ctype}, interlace {interlace})")
    return data, _Png(w, h, bits, ctype, palette, b"".join(idat))


PAGE_BUDGET = 1_800_000  # bytes: a page above this lossless is reduced to 256 colours


def encode_page(img: Image.Image, dpi: int,
                budget: int | None = PAGE_BUDGET) -> tuple[bytes, _Png, bool]:
    """PNG bytes, parsed chunks, and whether the colours were reduced.

    Pages are lossless. A page whose lossless encoding is over `budget` (a big map tile full
    of colour gradations) is reduced to its 256 most used colours, without dithering: edges
    and text stay exactly as sharp (no blur, no JPEG artefacts) and the page shrinks about
    three times; the smaller encoding is kept. `budget=None` keeps every page lossless.
    """
    small = compact(img)
    data, png = _png(small, dpi)
    if budget is None or len(data) <= budget or small.mode != "RGB":
        return data, png, False
    reduced = small.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    data2, png2 = _png(reduced, dpi)
    if len(data2) < len(data):
        return data2, png2, True
    return data, png, False


# Characters the text layer's WinAnsi font lacks, as the nearest plain text.
_PLAIN = str.maketrans({"✓": "", "→": "->", "←": "<-", "↑": "^", "↓": "v", "⊕": "(+)",
                        "≤": "<=", "≥": ">=", "−": "-", "\u00a0": " "})


def _pdf_string(text: str) -> bytes:
    raw = text.translate(_PLAIN).encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


class _PdfWriter:
    """A minimal PDF 1.4 writer: one full-page image per page plus invisible text."""

    def __init__(self, f: BinaryIO, n_pages: int, title: str) -> None:
        self.f = f
        self.n = n_pages
        self.offsets: dict[int, int] = {}
        self.next_page = 0
        f.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        kids = " ".join(f"{self._page_obj(i)} 0 R" for i in range(n_pages))
        self._obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        self._obj(2, f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
        self._obj(3, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
                     b"/Encoding /WinAnsiEncoding >>")
        title_hex = ("feff" + title.encode("utf-16-be").hex()).encode()
        self._obj(4, b"<< /Title <" + title_hex + b"> /Producer (Wartable) /Creator "
                  b"(Wartable) >>")

    @staticmethod
    def _page_obj(i: int) -> int:
        return 5 + 3 * i

    def _obj(self, num: int, body: bytes, stream: bytes | None = None) -> None:
        self.offsets[num] = self.f.tell()
        self.f.write(f"{num} 0 obj\n".encode())
        self.f.write(body)
        if stream is not None:
            self.f.write(b"\nstream\n")
            self.f.write(stream)
            self.f.write(b"\nendstream")
        self.f.write(b"\nendobj\n")

    def add_page(self, png: _Png, texts: Sequence[TextRun], dpi: int,
                 size_mm: tuple[float, float] | None = None) -> None:
        """One page: the image fills the paper (`size_mm`, else its pixels at `dpi`)."""
        i = self.next_page
        self.next_page += 1
        pno, cno, ino = self._page_obj(i), self._page_obj(i) + 1, self._page_obj(i) + 2
        if size_mm is not None:
            w_pt, h_pt = size_mm[0] * 72.0 / MM_PER_INCH, size_mm[1] * 72.0 / MM_PER_INCH
        else:
            w_pt, h_pt = png.width * 72.0 / dpi, png.height * 72.0 / dpi
        k = w_pt / png.width  # points per pixel
        self._obj(pno, (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w_pt:.3f} {h_pt:.3f}] "
                        f"/Resources << /XObject << /Im0 {ino} 0 R >> /Font << /F1 3 0 R >> "
                        f"/ProcSet [/PDF /Text /ImageB /ImageC /ImageI] >> "
                        f"/Contents {cno} 0 R >>").encode())
        parts = [f"q {w_pt:.3f} 0 0 {h_pt:.3f} 0 0 cm /Im0 Do Q\n".encode()]
        if texts:
            parts.append(b"BT 3 Tr\n")
            for t in texts:
                size = t.size * k
                parts.append(f"/F1 {size:.2f} Tf 1 0 0 1 {t.x * k:.2f} {h_pt - t.y * k:.2f} "
                             f"Tm ".encode() + _pdf_string(t.text) + b" Tj\n")
            parts.append(b"ET\n")
        content = zlib.compress(b"".join(parts), 6)
        self._obj(cno, f"<< /Length {len(content)} /Filter /FlateDecode >>".encode(), content)
        colours = {0: 1, 2: 3, 3: 1}[png.colour_type]
        if png.colour_type == 3:
            n = len(png.palette) // 3
            cs = f"[/Indexed /DeviceRGB {n - 1} <{png.palette.hex()}>]"
        else:
            cs = "/DeviceGray" if png.colour_type == 0 else "/DeviceRGB"
        self._obj(ino, (f"<< /Type /XObject /Subtype /Image /Width {png.width} "
                        f"/Height {png.height} /ColorSpace {cs} /BitsPerComponent {png.bits} "
                        f"/Length {len(png.idat)} /Filter /FlateDecode /DecodeParms << "
                        f"/Predictor 15 /Colors {colours} /BitsPerComponent {png.bits} "
                        f"/Columns {png.width} >> >>").encode(), png.idat)

    def close(self) -> None:
        if self.next_page != self.n:
            raise ValueError(f"wrote {self.next_page} of {self.n} pages")
        xref = self.f.tell()
        count = 5 + 3 * self.n
        self.f.write(f"xref\n0 {count}\n".encode())
        self.f.write(b"0000000000 65535 f \n")
        for num in range(1, count):
            self.f.write(f"{self.offsets[num]:010d} 00000 n \n".encode())
        self.f.write(f"trailer\n<< /Size {count} /Root 1 0 R /Info 4 0 R >>\nstartxref\n"
                     f"{xref}\n%%EOF\n".encode())


@dataclass(frozen=True)
class Output:
    """What `write_document` wrote."""

    paths: tuple[Path, ...]
    pages: int
    page_size_px: tuple[int, int]
    dpi: int
    paper: str
    bytes_per_file: tuple[int, ...]
    page_bytes: tuple[int, ...] = ()  # compressed size of each page image
    reduced_pages: int = 0  # pages over the size budget, stored in 256 colours

    @property
    def total_bytes(self) -> int:
        return sum(self.bytes_per_file)

    def describe(self) -> str:
        size = _size_text(self.total_bytes)
        what = f"{self.pages} page{'s' if self.pages != 1 else ''}"
        fmt = f"{self.paper}, {self.dpi} dpi"
        if self.reduced_pages:
            fmt += f"; {self.reduced_pages} map-heavy page{'s' if self.reduced_pages > 1 else ''}"
            fmt += " in 256 colours to stay small"
        if len(self.paths) == 1:
            return f"Wrote {what} to {self.paths[0]} ({fmt}, {size})"
        return (f"Wrote {what} as {len(self.paths)} PNG files: {self.paths[0]} … "
                f"{self.paths[-1].name} ({fmt}, {size} in all)")


def _size_text(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    return f"{max(1, round(n / 1024))} kB"


def png_paths(path: Path, pages: int) -> list[Path]:
    """FILE.png for one page; FILE-1.png, FILE-2.png … for more."""
    if pages == 1:
        return [path]
    return [path.with_name(f"{path.stem}-{i}{path.suffix}") for i in range(1, pages + 1)]


def output_format(path: Path, fmt: str | None = None) -> Literal["pdf", "png"]:
    kind = (fmt or path.suffix.lstrip(".")).lower()
    if kind not in ("pdf", "png"):
        raise WartableError(f"Cannot tell the output format of {path.name!r}: name the file "
                            "with .pdf (one multi-page PDF) or .png (one PNG per page).")
    return "pdf" if kind == "pdf" else "png"


def write_document(doc: Document, path: str | os.PathLike[str], *, fmt: str | None = None,
                   report: Report | None = None, cancelled: Cancelled | None = None,
                   progress: Progress | None = None,
                   page_budget: int | None = PAGE_BUDGET) -> Output:
    """Render `doc` and write it as one PDF or as PNG pages (by suffix, or `fmt`).

    Files appear only when every page is done (temporary files, then renamed); a failure or
    `PrintCancelled` leaves no partial output.
    """
    target = Path(path)
    kind = output_format(target, fmt)
    progress = progress or Progress(report, cancelled)
    progress.check()
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise WartableError(f"Cannot write {target}: the folder {directory} does not exist.")
    n = doc.page_count()
    temps: list[Path] = []
    finals: list[Path] = []
    page_bytes: list[int] = []
    reduced = 0
    try:
        if kind == "pdf":
            fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
            temps.append(Path(name))
            finals.append(target)
            with os.fdopen(fd, "wb") as f:
                writer = _PdfWriter(f, n, doc.title)
                for page in render_pages(doc, progress):
                    _, png, cut = encode_page(page.image, doc.setup.dpi, page_budget)
                    page_bytes.append(len(png.idat))
                    reduced += cut
                    writer.add_page(png, page.texts, doc.setup.dpi, doc.setup.size_mm)
                writer.close()
        else:
            finals = png_paths(target, n)
            for page, final in zip(render_pages(doc, progress), finals, strict=True):
                data, _, cut = encode_page(page.image, doc.setup.dpi, page_budget)
                page_bytes.append(len(data))
                reduced += cut
                fd, name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp",
                                            dir=directory)
                temps.append(Path(name))
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
        progress.check()
        for done, final in zip(temps, finals, strict=True):
            os.replace(done, final)
        temps = []
    except OSError as e:
        raise WartableError(f"Cannot write {target}: {e.strerror or e}; choose another folder "
                            "or free some disk space.") from e
    finally:
        for left in temps:
            try:
                left.unlink()
            except OSError:
                pass
    sizes = tuple(p.stat().st_size for p in finals)
    return Output(tuple(finals), n, doc.setup.size_px, doc.setup.dpi, doc.setup.paper.name,
                  sizes, tuple(page_bytes), reduced)

