"""A local correction after the global fit: a thin-plate spline through the control points.

The similarity of `fit.py` carries a conformal picture of the earth onto the printed grid. A
printed map that was drawn on another projection, or by hand, does not follow one similarity
everywhere: AETO's east map puts Murmansk, Moscow, Baku and Cairo on hexes no single scale
and rotation reaches. After the similarity, each control point still misses its hex centre by
a residual; `ThinPlateSpline` is the smoothest displacement field (least bending energy) that
carries every control point onto its hex centre, or nearly so with a smoothing `lam`:

    d(p) = a0 + a1·x + a2·y + Σ wᵢ·U(|p − pᵢ|),   U(r) = r²·log r

solved from the (n+3)² linear system [[K + λ·I, P], [Pᵀ, 0]] · [w; a] = [r; 0] (Bookstein
1989, "Principal warps"), one system per axis. Far from the points the field is the affine
part, so regions without control points move with their neighbours and no further.

Pure Python (Gaussian elimination with partial pivoting, in a fixed order): the same input
gives the same floats, so map builds stay byte-identical. Units are the map's (miles).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["ThinPlateSpline", "fit_tps", "solve_linear"]

XY = tuple[float, float]


def _u(r2: float) -> float:
    """The thin-plate kernel r²·log r, written with r² (0 at r = 0)."""
    return 0.5 * r2 * math.log(r2) if r2 > 1e-300 else 0.0


def solve_linear(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    """Solve A·X = B (A n×n, B n×m) by Gaussian elimination with partial pivoting.

    Raises ValueError when A is singular (for a spline: all control points on one line).
    """
    n = len(a)
    m = len(b[0]) if b else 0
    aug = [list(map(float, a[i])) + list(map(float, b[i])) for i in range(n)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: (abs(aug[r][col]), -r))
        if abs(aug[piv][col]) < 1e-12:
            raise ValueError("the linear system is singular (control points on one line?)")
        aug[col], aug[piv] = aug[piv], aug[col]
        pr = aug[col]
        inv = 1.0 / pr[col]
        for r in range(col + 1, n):
            row = aug[r]
            f = row[col] * inv
            if f != 0.0:
                for k in range(col, n + m):
                    row[k] -= f * pr[k]
    x = [[0.0] * m for _ in range(n)]
    for i in range(n - 1, -1, -1):
        row = aug[i]
        for j in range(m):
            s = row[n + j] - sum(row[k] * x[k][j] for k in range(i + 1, n))
            x[i][j] = s / row[i]
    return x


@dataclass(frozen=True, slots=True)
class ThinPlateSpline:
    """The displacement field d(p); `apply` returns p + d(p). Map units in and out."""

    points: tuple[XY, ...]  # the control points' positions after the similarity
    wx: tuple[float, ...]
    wy: tuple[float, ...]
    ax: tuple[float, float, float]  # affine part of d_x: a0 + a1·x + a2·y
    ay: tuple[float, float, float]
    lam: float = 0.0

    def displacement(self, x: float, y: float) -> XY:
        dx = self.ax[0] + self.ax[1] * x + self.ax[2] * y
        dy = self.ay[0] + self.ay[1] * x + self.ay[2] * y
        for (px, py), wx, wy in zip(self.points, self.wx, self.wy, strict=True):
            k = _u((x - px) ** 2 + (y - py) ** 2)
            dx += wx * k
            dy += wy * k
        return dx, dy

    def apply(self, x: float, y: float) -> XY:
        dx, dy = self.displacement(x, y)
        return x + dx, y + dy

    def invert(self, u: float, v: float, *, tol: float = 1e-9, max_iter: int = 200) -> XY:
        """The p with apply(p) = (u, v), by fixed-point iteration p ← q − d(p).

        Converges while the field is gentler than the identity (no fold), which the build
        checks (`min_jacobian`)."""
        x, y = u, v
        for _ in range(max_iter):
            dx, dy = self.displacement(x, y)
            nx, ny = u - dx, v - dy
            if abs(nx - x) + abs(ny - y) < tol:
                return nx, ny
            x, y = nx, ny
        return x, y

    def jacobian_det(self, x: float, y: float, h: float) -> float:
        """det of the map's derivative at (x, y), by central differences of step h.
        Below 0 the warp folds the map over itself; near 1 it hardly stretches."""
        ax1, ay1 = self.apply(x + h, y)
        ax0, ay0 = self.apply(x - h, y)
        bx1, by1 = self.apply(x, y + h)
        bx0, by0 = self.apply(x, y - h)
        j11, j21 = (ax1 - ax0) / (2 * h), (ay1 - ay0) / (2 * h)
        j12, j22 = (bx1 - bx0) / (2 * h), (by1 - by0) / (2 * h)
        return j11 * j22 - j12 * j21

    def min_jacobian(self, box: tuple[float, float, float, float], step: float) -> float:
        """The smallest Jacobian determinant on a lattice of `step` over `box`."""
        x0, y0, x1, y1 = box
        nx = max(1, int((x1 - x0) / step))
        ny = max(1, int((y1 - y0) / step))
        return min(self.jacobian_det(x0 + i * (x1 - x0) / nx, y0 + j * (y1 - y0) / ny,
                                     0.25 * step)
                   for i in range(nx + 1) for j in range(ny + 1))

    def to_dict(self) -> dict[str, Any]:
        r = _r
        return {"type": "thin_plate_spline", "lambda": self.lam,
                "points": [[r(x), r(y)] for x, y in self.points],
                "wx": [r(v) for v in self.wx], "wy": [r(v) for v in self.wy],
                "ax": [r(v) for v in self.ax], "ay": [r(v) for v in self.ay]}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> ThinPlateSpline:
        ax, ay = d["ax"], d["ay"]
        return ThinPlateSpline(tuple((float(p[0]), float(p[1])) for p in d["points"]),
                               tuple(float(v) for v in d["wx"]),
                               tuple(float(v) for v in d["wy"]),
                               (float(ax[0]), float(ax[1]), float(ax[2])),
                               (float(ay[0]), float(ay[1]), float(ay[2])),
                               float(d.get("lambda", 0.0)))

    def rounded(self) -> ThinPlateSpline:
        """The same spline with its numbers rounded as `to_dict` writes them, so the map
        built now and the georeference read back later agree to the last bit."""
        return ThinPlateSpline.from_dict(self.to_dict())


def _r(v: float) -> float:
    return float(f"{v:.12g}")


def fit_tps(src: Sequence[XY], dst: Sequence[XY], lam: float = 0.0,
            scale: float = 1.0) -> ThinPlateSpline:
    """The thin-plate spline carrying each src point to its dst point (map units).

    `lam` smooths: 0 interpolates exactly; larger values leave residuals and bend less.
    It is given in units of `scale`² (pass the hex step so λ does not depend on the units).
    Needs three or more points not all on one line.
    """
    n = len(src)
    if n != len(dst):
        raise ValueError(f"{n} source points but {len(dst)} target points")
    if n < 3:
        raise ValueError("a thin-plate spline needs at least three control points")
    # Work in units of `scale` around the centroid: a well-conditioned system.
    cx = sum(p[0] for p in src) / n
    cy = sum(p[1] for p in src) / n
    s = float(scale)
    ps = [((x - cx) / s, (y - cy) / s) for x, y in src]
    size = n + 3
    a = [[0.0] * size for _ in range(size)]
    for i in range(n):
        for j in range(n):
            if i != j:
                a[i][j] = _u((ps[i][0] - ps[j][0]) ** 2 + (ps[i][1] - ps[j][1]) ** 2)
        a[i][i] = lam
        a[i][n], a[i][n + 1], a[i][n + 2] = 1.0, ps[i][0], ps[i][1]
        a[n][i], a[n + 1][i], a[n + 2][i] = 1.0, ps[i][0], ps[i][1]
    b = [[(dst[i][0] - src[i][0]) / s, (dst[i][1] - src[i][1]) / s] for i in range(n)]
    b += [[0.0, 0.0]] * 3
    x = solve_linear(a, b)
    # Back to map units (weights, points and affine part rewritten; see _Scaled).
    wx = tuple(x[i][0] for i in range(n))
    wy = tuple(x[i][1] for i in range(n))
    ax = (x[n][0], x[n + 1][0], x[n + 2][0])
    ay = (x[n][1], x[n + 1][1], x[n + 2][1])
    return _Scaled.make(ps, wx, wy, ax, ay, lam, cx, cy, s)


class _Scaled:
    """Express a spline solved in scaled, centred units in map units exactly.

    With p' = (p − c)/s and d = s·d'(p'): U(|p'−q'|) = U(|p−q|)/s² − |p−q|²·ln(s)/s², and
    Σw·|p−q|² = Σw·(|p|² − 2p·q + |q|²) reduces, by the side conditions Σw = Σw·q = 0, to
    Σw·|q|², a constant. So the map-unit spline has weights w/s, the same points (in map
    units) and the affine part rewritten for p, plus that constant."""

    @staticmethod
    def make(ps: Sequence[XY], wx: Sequence[float], wy: Sequence[float],
             ax: Sequence[float], ay: Sequence[float], lam: float,
             cx: float, cy: float, s: float) -> ThinPlateSpline:
        pts = tuple((cx + x * s, cy + y * s) for x, y in ps)
        ln_s = math.log(s)

        def convert(w: Sequence[float], a: Sequence[float]) -> tuple[tuple[float, ...],
                                                                     tuple[float, float, float]]:
            # d(p) = s·[a0 + a1·(x−cx)/s + a2·(y−cy)/s + Σw·U'(p')]
            #      = s·a0 − a1·cx − a2·cy + a1·x + a2·y + Σ(w/s)·U(|p−q|) − (ln s/s)·Σw|p−q|²
            const = s * a[0] - a[1] * cx - a[2] * cy
            q2 = sum(wi * (qx * qx + qy * qy) for wi, (qx, qy) in zip(w, ps, strict=True))
            # Σw|p'−q'|² = Σw|q'|² (side conditions), in scaled units; times s for d.
            const -= ln_s * s * q2
            return tuple(wi / s for wi in w), (const, a[1], a[2])

        wxs, axs = convert(wx, ax)
        wys, ays = convert(wy, ay)
        return ThinPlateSpline(pts, wxs, wys, axs, ays, lam)
