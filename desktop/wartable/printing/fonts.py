"""The fonts of printed output: DejaVu Sans, bundled in assets/fonts so every machine prints
the same pages.

Lookup order: the installed package data (``wartable.assets/fonts``), the source checkout's
top-level ``assets/fonts``, then common system font folders. When none holds the file,
`font_path` raises a `WartableError` that says what to install.

Sizes are in pixels (the em height); `pt_to_px` converts a size in points at a resolution.
"""

from __future__ import annotations

import io
import os
from functools import lru_cache
from importlib import resources
from pathlib import Path

from PIL import ImageFont

from wartable.core.errors import WartableError

__all__ = ["FontError", "font", "font_path", "pt_to_px"]

FontT = ImageFont.FreeTypeFont

# (bold, condensed, italic) -> file name. Italic exists in the condensed cut only.
_FILES: dict[tuple[bool, bool, bool], str] = {
    (False, False, False): "DejaVuSans.ttf",
    (True, False, False): "DejaVuSans-Bold.ttf",
    (False, True, False): "DejaVuSansCondensed.ttf",
    (True, True, False): "DejaVuSansCondensed-Bold.ttf",
    (False, True, True): "DejaVuSansCondensed-Oblique.ttf",
    (True, True, True): "DejaVuSansCondensed-BoldOblique.ttf",
}
_SYSTEM_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/Library/Fonts"),
    Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts",
)


class FontError(WartableError):
    """No usable font file: printing cannot go on."""


def _file_name(bold: bool, condensed: bool, italic: bool) -> str:
    if italic and not condensed:
        condensed = True  # only the condensed cut is bundled in italic
    return _FILES[(bold, condensed, italic)]


def _bundled(name: str) -> Path | bytes | None:
    """The bundled font: a real path when the package lives on disk, else its bytes."""
    try:
        entry = resources.files("wartable.assets") / "fonts" / name
        if entry.is_file():
            return entry if isinstance(entry, Path) else entry.read_bytes()
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        pass
    checkout = Path(__file__).resolve().parents[3] / "assets" / "fonts" / name
    return checkout if checkout.is_file() else None


def font_path(bold: bool = False, condensed: bool = False, italic: bool = False) -> Path | bytes:
    """Where the font is: the bundled copy first, then the system's. Raises `FontError`."""
    name = _file_name(bold, condensed, italic)
    found = _bundled(name)
    if found is not None:
        return found
    for d in _SYSTEM_DIRS:
        if (d / name).is_file():
            return d / name
    raise FontError(
        f"The font {name} is missing: it ships in Wartable's assets/fonts folder. Reinstall "
        "Wartable, or install the DejaVu fonts (package fonts-dejavu) and try again."
    )


@lru_cache(maxsize=512)
def font(size_px: float, bold: bool = False, condensed: bool = False,
         italic: bool = False) -> FontT:
    """DejaVu Sans at `size_px` pixels (em height), cached."""
    size = max(1.0, float(size_px))
    src = font_path(bold, condensed, italic)
    try:
        if isinstance(src, bytes):
            return ImageFont.truetype(io.BytesIO(src), size)
        return ImageFont.truetype(str(src), size)
    except OSError as e:
        raise FontError(f"The font file {src!r} cannot be read ({e}); reinstall Wartable.") from e


def pt_to_px(points: float, dpi: float) -> float:
    """A size in typographic points (1/72 inch) in pixels at `dpi`."""
    return points * dpi / 72.0
