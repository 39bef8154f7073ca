"""A plane affine transform and its least-squares fit to point pairs.

Used to calibrate a scanned map under the drawn one: the player clicks three or more hex
centres on the scan, and the fit maps scan pixels to map coordinates (scale, rotation,
shear and offset: a scan may be skewed a little or stretched by the scanner).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

XY = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Affine:
    """x' = a x + b y + c;  y' = d x + e y + f."""

    a: float
    b: float
    c: float
    d: float
    e: float
    f: float

    def apply(self, x: float, y: float) -> XY:
        return (self.a * x + self.b * y + self.c, self.d * x + self.e * y + self.f)

    def determinant(self) -> float:
        return self.a * self.e - self.b * self.d

    def inverse(self) -> Affine:
        det = self.determinant()
        if det == 0:
            raise ValueError("the transform is degenerate (it flattens the plane)")
        a, b, d, e = self.e / det, -self.b / det, -self.d / det, self.a / det
        return Affine(a, b, -(a * self.c + b * self.f), d, e, -(d * self.c + e * self.f))


def _solve3(m: list[list[float]], v: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting on a 3x3 system."""
    rows = [m[i][:] + [v[i]] for i in range(3)]
    for col in range(3):
        piv = max(range(col, 3), key=lambda r: abs(rows[r][col]))
        rows[col], rows[piv] = rows[piv], rows[col]
        p = rows[col][col]
        for r in range(3):
            if r != col:
                k = rows[r][col] / p
                rows[r] = [x - k * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [rows[i][3] / rows[i][i] for i in range(3)]


def fit_affine(src: Sequence[XY], dst: Sequence[XY]) -> Affine:
    """The affine transform that best maps `src` onto `dst` (least squares).

    Raises ValueError when it is not determined: fewer than three pairs, or all the source
    points on one line (then any shear along that line fits equally well).
    """
    if len(src) != len(dst):
        raise ValueError("every point needs its partner")
    n = len(src)
    if n < 3:
        raise ValueError(f"{n} point(s) given: at least 3 are needed, not all on one line")
    # Centre the source points: better conditioning for pixel coordinates in the thousands.
    mx = sum(p[0] for p in src) / n
    my = sum(p[1] for p in src) / n
    xs = [(p[0] - mx, p[1] - my) for p in src]
    sxx = sum(x * x for x, _ in xs)
    syy = sum(y * y for _, y in xs)
    sxy = sum(x * y for x, y in xs)
    spread = sxx + syy
    # The points are collinear when the 2x2 scatter matrix is (nearly) singular.
    if spread == 0 or (sxx * syy - sxy * sxy) <= 1e-9 * spread * spread:
        raise ValueError("the points lie on one line: add a point off that line")
    m = [[sxx, sxy, 0.0], [sxy, syy, 0.0], [0.0, 0.0, float(n)]]
    out: list[list[float]] = []
    for k in (0, 1):
        t = [q[k] for q in dst]
        v = [sum(x * ti for (x, _), ti in zip(xs, t, strict=True)),
             sum(y * ti for (_, y), ti in zip(xs, t, strict=True)), sum(t)]
        out.append(_solve3(m, v))
    (a, b, c0), (d, e, f0) = out
    # Undo the centring: x' = a (x - mx) + b (y - my) + c0.
    return Affine(a, b, c0 - a * mx - b * my, d, e, f0 - d * mx - e * my)


def residuals(t: Affine, src: Sequence[XY], dst: Sequence[XY]) -> list[float]:
    """How far each fitted source point lands from its partner."""
    out = []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        px, py = t.apply(x, y)
        out.append(math.hypot(px - u, py - v))
    return out
