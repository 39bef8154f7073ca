"""Draws Wartable's app icon with Pillow: a green map hex with a unit counter on it (a
NATO infantry symbol, the one thing every wargamer reads at a glance).

Writes assets/icons/wartable-<N>.png for N in SIZES, wartable.png (256 px, the one the
app loads for its window icon) and wartable.ico (16-256 px, for the Windows installer).
Small sizes are drawn with thicker lines and no strength numbers, so they stay crisp.

Run from anywhere: `python installers/tools/make_icons.py` (needs only Pillow). The
output is deterministic, so re-running it leaves git clean unless the drawing changed.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "assets" / "icons"
SIZES = (16, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)

HEX_FILL = (86, 122, 58)  # olive map green
HEX_LIGHT = (118, 156, 82)
HEX_EDGE = (44, 64, 30)
COUNTER = (236, 224, 190)  # buff card stock
COUNTER_EDGE = (58, 48, 36)
INK = (28, 40, 74)  # dark navy print


def _hex(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A flat-topped hexagon of circumradius r."""
    return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in range(0, 360, 60)]


def _draw_hex(d: ImageDraw.ImageDraw, s: int, small: bool) -> None:
    """The map hex, filling the square edge to edge (a flat-top hex is wider than tall)."""
    u = s / 64
    c = s / 2
    r = 31.5 * u
    edge = round((3.2 if small else 2.0) * u)
    d.polygon(_hex(c, c, r), fill=HEX_EDGE)
    d.polygon(_hex(c, c, r - edge), fill=HEX_FILL)
    if not small:  # a lighter inner band: the hex reads as a raised map cell
        d.polygon(_hex(c, c, r - edge - 1.2 * u), fill=HEX_LIGHT)
        d.polygon(_hex(c, c, r - edge - 3.0 * u), fill=HEX_FILL)


def draw(size: int) -> Image.Image:
    """The icon at `size` px: drawn 8x larger, then reduced (anti-aliasing)."""
    small = size <= 32
    s = size * 8
    u = s / 64  # one unit = 1/64 of the icon
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)

    c = s / 2
    _draw_hex(d, s, small)

    # The counter: a square card a little below centre, with a soft shadow.
    half = (17.5 if small else 15.5) * u
    cx, cy = c, c + 1.0 * u
    box = (cx - half, cy - half, cx + half, cy + half)
    rad = round(2.2 * u)
    shadow = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    sd = ImageDraw.Draw(shadow)
    off = 1.6 * u
    sd.rounded_rectangle((box[0] + off, box[1] + off, box[2] + off, box[3] + off), rad,
                         fill=(0, 0, 0, 110))
    shadow = shadow.filter(ImageFilter.GaussianBlur(1.4 * u))
    img.alpha_composite(shadow)
    d = ImageDraw.Draw(img)
    line = round((2.4 if small else 1.3) * u)
    d.rounded_rectangle(box, rad, fill=COUNTER, outline=COUNTER_EDGE, width=line)

    # NATO infantry symbol: a box with a saltire.
    sw = (12.5 if small else 9.5) * u  # half width of the symbol box
    sh = sw * 0.62
    sy = cy - (0 if small else 1.8 * u)
    sym = (cx - sw, sy - sh, cx + sw, sy + sh)
    ink = round((2.6 if small else 1.5) * u)
    d.rectangle(sym, outline=INK, width=ink)
    inset = ink / 2
    d.line((sym[0] + inset, sym[1] + inset, sym[2] - inset, sym[3] - inset), fill=INK,
           width=ink)
    d.line((sym[0] + inset, sym[3] - inset, sym[2] - inset, sym[1] + inset), fill=INK,
           width=ink)

    if not small:
        # Unit size "II" (battalion) above the symbol box.
        bar = 1.3 * u
        for x0 in (-1.9, 0.6):
            d.rectangle((cx + x0 * u, sym[1] - 4.6 * u, cx + x0 * u + bar, sym[1] - 1.6 * u),
                        fill=INK)
        # Combat and movement factors "4-4", stroked (no font, so every machine draws the
        # same pixels).
        fw = round(1.4 * u)
        top, bottom = cy + 6.4 * u, cy + 12.0 * u
        mid = top + (bottom - top) * 0.66

        def four(x: float) -> None:  # the digit 4, 4.4 units wide
            right = x + 3.3 * u
            d.line((right, top, right, bottom), fill=INK, width=fw)
            d.line((right, top, x, mid, x + 4.4 * u, mid), fill=INK, width=fw, joint="curve")

        four(cx - 8.2 * u)
        d.line((cx - 1.4 * u, mid - 0.6 * u, cx + 1.4 * u, mid - 0.6 * u), fill=INK, width=fw)
        four(cx + 3.6 * u)

    return img.resize((size, size), Image.Resampling.LANCZOS)


def draw16() -> Image.Image:
    """16 px: the anti-aliased hex, then the counter placed pixel by pixel (a reduced
    drawing blurs the saltire into noise at this size)."""
    big = Image.new("RGBA", (128, 128), (0, 0, 0, 0))
    _draw_hex(ImageDraw.Draw(big), 128, small=True)
    img = big.resize((16, 16), Image.Resampling.LANCZOS)
    d = ImageDraw.Draw(img)
    d.rectangle((2, 2, 13, 13), fill=COUNTER, outline=COUNTER_EDGE)
    d.rectangle((3, 4, 12, 10), outline=INK)
    # The saltire on the 8x5 interior (x 4-11, y 5-9), as a line algorithm would put it.
    diagonal = ((4, 5), (5, 6), (6, 6), (7, 7), (8, 7), (9, 8), (10, 8), (11, 9))
    for x, y in diagonal + tuple((x, 14 - y) for x, y in diagonal):
        d.point((x, y), fill=INK)
    return img


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    images = {n: draw16() if n == 16 else draw(n)
              for n in sorted(set(SIZES) | set(ICO_SIZES))}
    for n in SIZES:
        images[n].save(OUT / f"wartable-{n}.png", optimize=True)
    images[256].save(OUT / "wartable.png", optimize=True)
    # Pillow's ICO writer scales its first image; hand it the largest and the sizes.
    images[256].save(OUT / "wartable.ico", sizes=[(n, n) for n in ICO_SIZES],
                     append_images=[images[n] for n in ICO_SIZES if n != 256])
    print(f"Wrote {len(SIZES)} PNGs, wartable.png and wartable.ico to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
