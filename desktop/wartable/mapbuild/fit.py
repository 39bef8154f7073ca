"""Fitting a printed hex grid to the earth: a least-squares similarity transform.

The printed map is a conformal picture (`projection.py`) scaled, turned and shifted onto the
hex grid. A *similarity* ``u = a·x − b·y + tx, v = b·x + a·y + ty`` has exactly those four
degrees of freedom (scale = hypot(a, b), rotation = atan2(b, a)). Given control points —
projected positions (x, y) of places the rulebook puts in named hexes, and the centres (u, v)
of those hexes — the weighted least-squares similarity has a closed form (the 2-D Helmert /
Procrustes solution without reflection), `fit_similarity`.

Some rulebook facts are not points but areas ("hexes 4300–5200 lie inside Greater Germany",
"5101 is a Baltic coastal hex"). `refine` minimises any cost over the four parameters with a
deterministic Nelder–Mead simplex, so the hex builder can add such area penalties to the
point residuals. Everything here is pure Python and deterministic: same input, same floats.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["Similarity", "fit_similarity", "nelder_mead", "refine"]

XY = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Similarity:
    """``(u, v) = [[a, -b], [b, a]] · (x, y) + (tx, ty)``: scale, rotation, translation."""

    a: float
    b: float
    tx: float
    ty: float

    @staticmethod
    def from_params(scale: float, rotation_deg: float, tx: float, ty: float) -> Similarity:
        r = math.radians(rotation_deg)
        return Similarity(scale * math.cos(r), scale * math.sin(r), tx, ty)

    @property
    def scale(self) -> float:
        return math.hypot(self.a, self.b)

    @property
    def rotation_deg(self) -> float:
        """Counter-clockwise in (x, y) axes; with y down on screen that reads clockwise."""
        return math.degrees(math.atan2(self.b, self.a))

    def apply(self, x: float, y: float) -> XY:
        return (self.a * x - self.b * y + self.tx, self.b * x + self.a * y + self.ty)

    def invert(self, u: float, v: float) -> XY:
        d = self.a * self.a + self.b * self.b
        u -= self.tx
        v -= self.ty
        return ((self.a * u + self.b * v) / d, (-self.b * u + self.a * v) / d)


def fit_similarity(
    src: Sequence[XY], dst: Sequence[XY], weights: Sequence[float] | None = None
) -> Similarity:
    """The similarity minimising Σ wᵢ·|T(srcᵢ) − dstᵢ|² (closed form).

    Needs two or more points that are not all in one place. With exactly two points the fit
    is exact; with more, the residuals show how well the map's grid matches the geography.
    """
    n = len(src)
    if n != len(dst):
        raise ValueError(f"{n} source points but {len(dst)} target points")
    w = [1.0] * n if weights is None else [float(v) for v in weights]
    if len(w) != n or any(not (v >= 0 and math.isfinite(v)) for v in w):
        raise ValueError("weights must be one finite non-negative number per point")
    sw = sum(w)
    if n < 2 or sw <= 0:
        raise ValueError("a similarity fit needs at least two weighted control points")
    mx = sum(wi * p[0] for wi, p in zip(w, src, strict=True)) / sw
    my = sum(wi * p[1] for wi, p in zip(w, src, strict=True)) / sw
    mu = sum(wi * p[0] for wi, p in zip(w, dst, strict=True)) / sw
    mv = sum(wi * p[1] for wi, p in zip(w, dst, strict=True)) / sw
    sxx = sab = sba = 0.0
    for wi, (x, y), (u, v) in zip(w, src, dst, strict=True):
        x, y, u, v = x - mx, y - my, u - mu, v - mv
        sxx += wi * (x * x + y * y)
        sab += wi * (x * u + y * v)
        sba += wi * (x * v - y * u)
    if sxx <= 1e-18:
        raise ValueError("the control points all sit in one place; the fit needs two apart")
    a, b = sab / sxx, sba / sxx
    return Similarity(a, b, mu - (a * mx - b * my), mv - (b * mx + a * my))


def nelder_mead(
    f: Callable[[Sequence[float]], float],
    x0: Sequence[float],
    steps: Sequence[float],
    *,
    max_iter: int = 2000,
    tol: float = 1e-8,
) -> tuple[list[float], float]:
    """Minimise f from x0 (initial simplex x0 + stepsᵢ·eᵢ). Returns (best x, f(best x)).

    The textbook simplex (reflect 1, expand 2, contract ½, shrink ½); deterministic, so the
    same start gives the same answer on every machine.
    """
    dim = len(x0)
    pts = [list(map(float, x0))]
    for i in range(dim):
        p = list(map(float, x0))
        p[i] += steps[i]
        pts.append(p)
    vals = [f(p) for p in pts]
    for _ in range(max_iter):
        order = sorted(range(dim + 1), key=lambda i: (vals[i], i))
        pts = [pts[i] for i in order]
        vals = [vals[i] for i in order]
        if abs(vals[-1] - vals[0]) <= tol * (abs(vals[0]) + tol):
            break
        centroid = [sum(p[j] for p in pts[:-1]) / dim for j in range(dim)]
        worst = pts[-1]
        refl = [c + (c - w) for c, w in zip(centroid, worst, strict=True)]
        fr = f(refl)
        if fr < vals[0]:
            exp = [c + 2 * (c - w) for c, w in zip(centroid, worst, strict=True)]
            fe = f(exp)
            pts[-1], vals[-1] = (exp, fe) if fe < fr else (refl, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = refl, fr
        else:
            con = [c + 0.5 * (w - c) for c, w in zip(centroid, worst, strict=True)]
            fc = f(con)
            if fc < vals[-1]:
                pts[-1], vals[-1] = con, fc
            else:
                best = pts[0]
                pts = [best] + [[b + 0.5 * (p - b) for b, p in zip(best, q, strict=True)]
                                for q in pts[1:]]
                vals = [vals[0]] + [f(p) for p in pts[1:]]
    i = min(range(dim + 1), key=lambda k: (vals[k], k))
    return pts[i], vals[i]


def refine(
    start: Similarity,
    cost: Callable[[Similarity], float],
    *,
    shift: float = 0.5,
    turn_deg: float = 2.0,
    zoom: float = 0.03,
) -> tuple[Similarity, float]:
    """Minimise ``cost(T)`` over similarities near `start` (log-scale, rotation, shift).

    `shift` is the initial step of the translation in target units (hexes), `turn_deg` of
    the rotation, `zoom` of the log-scale. Restarted twice from the best point found, which
    makes the simplex far less likely to stall on a flat or kinked cost.
    """
    def make(p: Sequence[float]) -> Similarity:
        return Similarity.from_params(math.exp(p[0]), p[1], p[2], p[3])

    x = [math.log(start.scale), start.rotation_deg, start.tx, start.ty]
    best = cost(start)
    for _ in range(3):
        x, val = nelder_mead(lambda p: cost(make(p)), x, [zoom, turn_deg, shift, shift],
                             tol=1e-7, max_iter=800)
        improved = val < best - 1e-12
        best = min(best, val)
        if not improved:
            break
    out = make(x)
    return out, cost(out)
