"""Draw a seam (two hex maps joined, maps/<game>/seams.json) in a lon/lat box, to check the
join by eye (issue 19).

    python maps/sources/authoring/render_seam.py GAME LON0 LAT0 LON1 LAT1 OUT.png

Each map's own hexes (on its side of the seam) are filled with their terrain colour and
outlined (West blue, East red), labelled with their number; the seam line is black and each
join pair a thin green line between the two hexes' centres; land coastlines of the 1940 regions
are drawn grey. Longitude is scaled by the cosine of the mid latitude.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "desktop"))

from PySide6.QtCore import QPointF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen, QPolygonF  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from wartable.mapbuild.commands import find_map  # noqa: E402
from wartable.mapbuild.seambuild import _georef  # noqa: E402
from wartable.maps.seams import load_seam  # noqa: E402


def main(game: str, lon0: float, lat0: float, lon1: float, lat1: float, out: str) -> None:
    _app = QApplication.instance() or QApplication([])
    seam_path = HERE.parents[1] / game / "seams.json"
    seam = load_seam(seam_path)
    width = 1400
    kx = math.cos(math.radians((lat0 + lat1) / 2))
    scale = width / ((lon1 - lon0) * kx)
    height = int((lat1 - lat0) * scale)

    def px(lon: float, lat: float) -> QPointF:
        return QPointF((lon - lon0) * kx * scale, (lat1 - lat) * scale)

    img = QImage(width, height, QImage.Format.Format_RGB32)
    img.fill(QColor("#ffffff"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setFont(QFont("DejaVu Sans", 7))
    centres: dict[tuple[str, str], QPointF] = {}
    for map_id, colour in ((seam.west, "#1040c0"), (seam.east, "#c01010")):
        m, path = find_map(map_id)
        g = _georef(path)
        for h, info in m.hexes.items():
            label = m.label_of(h)
            cx, cy = m.layout.hex_to_pixel(h)
            lon, lat = g.to_lonlat(cx, cy)
            if not (lon0 - 2 < lon < lon1 + 2 and lat0 - 2 < lat < lat1 + 2):
                continue
            c = px(lon, lat)
            centres[(map_id, label)] = c
            if not seam.owns(map_id, label):
                continue
            poly = QPolygonF([px(*g.to_lonlat(x, y)) for x, y in m.layout.corners(h)])
            p.setBrush(QColor(m.terrain_types[info.terrain].fill))
            p.setPen(QPen(QColor(colour), 1.2))
            p.drawPolygon(poly)
            p.setPen(QColor(colour))
            p.drawText(c + QPointF(-14, 3), label)
    p.setPen(QPen(QColor("#10a010"), 1.5))
    for w, e in seam.joins:
        a, b = centres.get((seam.west, w)), centres.get((seam.east, e))
        if a is not None and b is not None:
            p.drawLine(a, b)
    line = json.loads(seam_path.read_text(encoding="utf-8"))["line"]
    pts = [(line[0][0], 90.0), *[tuple(x) for x in line], (line[-1][0], -90.0)]
    p.setPen(QPen(QColor("#000000"), 2.5, Qt.PenStyle.DashLine))
    for (a0, b0), (a1, b1) in zip(pts, pts[1:], strict=False):
        p.drawLine(px(a0, min(max(b0, lat0 - 5), lat1 + 5)),
                   px(a1, min(max(b1, lat0 - 5), lat1 + 5)))
    p.setPen(QColor("#000000"))
    p.setFont(QFont("DejaVu Sans", 11))
    p.drawText(QPointF(8, 18), f"{game}: {seam.west} (blue) | {seam.east} (red); seam dashed, "
                               "joins green")
    p.end()
    img.save(out)
    print(f"{width} x {height} px -> {out}")


if __name__ == "__main__":
    a = sys.argv[1:]
    main(a[0], float(a[1]), float(a[2]), float(a[3]), float(a[4]), a[5])
