"""Map projections in pure Python: Lambert conformal conic on the WGS84 ellipsoid.

A hex map is a grid laid over a flat picture of the earth. The picture must be *conformal*
(angles and small shapes kept) so a similarity transform (scale, rotation, translation) can
carry it onto the printed grid: the rulebook's control points then fix the fit (`fit.py`).
Lambert conformal conic with two standard parallels inside the map keeps the scale error
under ~1% across a map of Europe's size, which is far below a hex.

Formulas: J. P. Snyder, *Map Projections — A Working Manual* (USGS PP 1395, 1987), §15,
ellipsoidal forms (15-1 … 15-11). Output is in kilometres, x east and y **north** (the usual
projection convention); the hex builder flips y to the map's y-down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

__all__ = ["WGS84_A_KM", "WGS84_F", "LambertConformalConic"]

WGS84_A_KM = 6378.137
WGS84_F = 1 / 298.257223563
_E2 = WGS84_F * (2 - WGS84_F)
_E = math.sqrt(_E2)


def _m(phi: float) -> float:
    s = math.sin(phi)
    return math.cos(phi) / math.sqrt(1 - _E2 * s * s)


def _t(phi: float) -> float:
    s = math.sin(phi)
    return float(math.tan(math.pi / 4 - phi / 2) / ((1 - _E * s) / (1 + _E * s)) ** (_E / 2))


@dataclass(frozen=True, slots=True)
class LambertConformalConic:
    """Lambert conformal conic, two standard parallels (degrees), origin (lat0, lon0).

    >>> p = LambertConformalConic(lat0=56, lon0=30, lat1=53, lat2=59)
    >>> x, y = p.forward(37.62, 55.75)          # Moscow
    >>> round(x), round(y)
    (477, -1)
    >>> lon, lat = p.inverse(x, y)
    >>> round(lon, 9), round(lat, 9)
    (37.62, 55.75)
    """

    lat0: float
    lon0: float
    lat1: float
    lat2: float
    _n: float = field(init=False, repr=False, compare=False)
    _af: float = field(init=False, repr=False, compare=False)
    _rho0: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("lat0", "lat1", "lat2"):
            v = getattr(self, name)
            if not (math.isfinite(v) and -89.0 < v < 89.0):
                raise ValueError(f"{name} must be a latitude between -89 and 89, not {v}")
        if not (math.isfinite(self.lon0) and -180.0 <= self.lon0 <= 180.0):
            raise ValueError(f"lon0 must be a longitude between -180 and 180, not {self.lon0}")
        if self.lat1 == -self.lat2:
            raise ValueError("the standard parallels may not be symmetric about the equator")
        p1, p2 = math.radians(self.lat1), math.radians(self.lat2)
        m1, m2 = _m(p1), _m(p2)
        t1, t2 = _t(p1), _t(p2)
        if abs(p1 - p2) < 1e-12:
            n = math.sin(p1)
        else:
            n = (math.log(m1) - math.log(m2)) / (math.log(t1) - math.log(t2))
        af = WGS84_A_KM * m1 / (n * t1**n)
        object.__setattr__(self, "_n", n)
        object.__setattr__(self, "_af", af)
        object.__setattr__(self, "_rho0", af * _t(math.radians(self.lat0)) ** n)

    @property
    def n(self) -> float:
        """The cone constant (sin of the latitude where the cone touches, roughly)."""
        return self._n

    def forward(self, lon: float, lat: float) -> tuple[float, float]:
        """Longitude, latitude (degrees) → x, y in km (x east, y north of the origin)."""
        if not -89.9 < lat < 89.9:
            raise ValueError(f"latitude {lat} is outside the projection's range")
        rho = self._af * _t(math.radians(lat)) ** self._n
        dlon = (lon - self.lon0 + 180.0) % 360.0 - 180.0
        theta = self._n * math.radians(dlon)
        return rho * math.sin(theta), self._rho0 - rho * math.cos(theta)

    def inverse(self, x: float, y: float) -> tuple[float, float]:
        """x, y in km → longitude, latitude in degrees (the inverse of `forward`)."""
        n = self._n
        dy = self._rho0 - y
        rho = math.copysign(math.hypot(x, dy), n)
        if n < 0:
            theta = math.atan2(-x, -dy)
        else:
            theta = math.atan2(x, dy)
        t = (rho / self._af) ** (1.0 / n)
        phi = math.pi / 2 - 2 * math.atan(t)
        for _ in range(30):  # Snyder 7-9: converges to 1e-12 in a handful of steps
            s = math.sin(phi)
            nxt = math.pi / 2 - 2 * math.atan(t * ((1 - _E * s) / (1 + _E * s)) ** (_E / 2))
            if abs(nxt - phi) < 1e-14:
                phi = nxt
                break
            phi = nxt
        lon = self.lon0 + math.degrees(theta / n)
        lon = (lon + 180.0) % 360.0 - 180.0
        return lon, math.degrees(phi)

    def scale_factor(self, lat: float) -> float:
        """Point scale k at a latitude (1.0 on the standard parallels)."""
        phi = math.radians(lat)
        return float(self._af * self._n * _t(phi) ** self._n / (WGS84_A_KM * _m(phi)))
