"""The build report: what the builder did, as text a person reads after `wartable map build`.

It lists every control point (target label, fitted label, residual in hexes), every area
constraint and whether it holds, the grid alternatives that were tried, what the builder
changed to honour a rule (a city forced to clear terrain [10.14], a named place kept out of
the water), places that fall off the map, and counts. No timestamps: the same build gives the
same report, so it can be committed next to the map.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

__all__ = ["BuildReport", "ConstraintResult", "ControlResult", "CandidateResult"]


@dataclass(frozen=True, slots=True)
class ControlResult:
    place: str
    rule: str
    target: str
    fitted: str  # the label of the hex the place's real position falls in ("off map" if none)
    residual_hexes: float  # from the target hex centre, in hex steps
    # With a warp (`warp.py`): the hex and residual after it; these decide `ok`.
    warped: str | None = None
    warped_residual: float | None = None
    inconsistent: str = ""  # a known rulebook inconsistency: reported, never a failure

    @property
    def ok(self) -> bool:
        if self.inconsistent:
            return True
        return (self.warped if self.warped is not None else self.fitted) == self.target


@dataclass(frozen=True, slots=True)
class ConstraintResult:
    kind: str
    rule: str
    what: str  # e.g. "in Greater Germany"
    total: int
    failed: tuple[str, ...]  # labels that break it, with what they are instead
    note: str = ""

    @property
    def ok(self) -> bool:
        return not self.failed


@dataclass(frozen=True, slots=True)
class CandidateResult:
    grid: str  # "pointy odd-r"
    rms: float
    worst: float
    misses: int  # control points that land on another hex
    area_penalty: float
    failed_constraints: int
    km_per_hex: float
    rotation_deg: float
    chosen: bool


@dataclass(slots=True)
class BuildReport:
    map_id: str
    spec: str
    output: str = ""
    grid: str = ""
    km_per_hex: float = 0.0
    nominal_miles: float = 0.0
    rotation_deg: float = 0.0
    controls: list[ControlResult] = field(default_factory=list)
    constraints: list[ConstraintResult] = field(default_factory=list)
    candidates: list[CandidateResult] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    off_map: list[str] = field(default_factory=list)
    coast: list[str] = field(default_factory=list)  # each port, island and strait, its result
    # every named place of the map: (ok, line) with its hex, terrain, region and how it was
    # placed; a place on a water hex fails (issue 19)
    named: list[tuple[bool, str]] = field(default_factory=list)
    terrain: Counter[str] = field(default_factory=Counter)
    regions: Counter[str] = field(default_factory=Counter)
    hexsides: Counter[str] = field(default_factory=Counter)
    hexes: int = 0
    places: int = 0
    rivers: str = ""
    warp: str = ""  # the local correction, described ("" = none)
    warp_min_jacobian: float = 1.0

    @property
    def ok(self) -> bool:
        return (all(c.ok for c in self.controls) and all(c.ok for c in self.constraints)
                and all(ok for ok, _ in self.named))

    def text(self) -> str:
        miles = self.km_per_hex / 1.609344
        turn = "clockwise" if self.rotation_deg >= 0 else "anticlockwise"
        out: list[str | None] = [
            f"Map {self.map_id}  (spec {self.spec})",
            f"  written: {self.output}" if self.output else None,
            f"  grid: {self.grid}",
            f"  fitted scale {self.km_per_hex:.2f} km = {miles:.2f} mi per hex (printed scale "
            f"{self.nominal_miles:g} mi); true north points {abs(self.rotation_deg):.1f} deg "
            f"{turn} from the map's top on the projection's central meridian",
            "",
            "Control points (target = the rulebook's hex; fitted = where the real place falls):",
        ]
        w = max([len(c.place) for c in self.controls] + [5])
        for c in self.controls:
            mark = "KNOWN" if c.inconsistent else "ok  " if c.ok else "MISS"
            if c.warped is None:
                out.append(f"  {mark} {c.place:<{w}}  target {c.target}  fitted {c.fitted}  "
                           f"residual {c.residual_hexes:.2f} hex  {c.rule}")
            else:
                out.append(f"  {mark:<5} {c.place:<{w}}  target {c.target}  similarity "
                           f"{c.fitted} ({c.residual_hexes:.2f} hex)  warped {c.warped} "
                           f"({c.warped_residual or 0.0:.2f} hex)  {c.rule}")
            if c.inconsistent:
                out.append(f"         known rulebook inconsistency: {c.inconsistent}")
        if self.warp:
            out += ["", f"Local warp: {self.warp}; smallest Jacobian determinant "
                    f"{self.warp_min_jacobian:.2f} (1 = no stretch, 0 or less = folded)"]
        if self.constraints:
            out += ["", "Area constraints:"]
            for k in self.constraints:
                mark = "ok  " if k.ok else "FAIL"
                line = f"  {mark} {k.total} hex{'es' if k.total != 1 else ''} {k.what}  {k.rule}"
                out.append(line)
                if k.failed:
                    out.append("         not so: " + ", ".join(k.failed))
                if k.note:
                    out.append("         note: " + k.note)
        if self.candidates:
            out += ["", "Grids tried (each fitted the same way, to the control points and the "
                    "area constraints; broken = hex centres on the wrong side):"]
            for g in self.candidates:
                mark = "->" if g.chosen else "  "
                out.append(f"  {mark} {g.grid:<13} rms {g.rms:.2f} worst {g.worst:.2f} hex, "
                           f"{g.misses} on the wrong hex, area penalty {g.area_penalty:.2f}, "
                           f"{g.failed_constraints} constraint(s) broken, "
                           f"{g.km_per_hex / 1.609344:.1f} mi/hex, rot {g.rotation_deg:+.1f}")
        if self.changes:
            out += ["", "Changed to honour the rules:"] + [f"  {c}" for c in self.changes]
        if self.warnings:
            out += ["", "Warnings:"] + [f"  {c}" for c in self.warnings]
        if self.coast:
            out += ["", "Ports, islands and straits (coast.geojson) on this map, each with its "
                    "hex's terrain and region:"] + [f"  {c}" for c in self.coast]
        if self.named:
            out += ["", "Named places, each with its hex, terrain and region (a city on a "
                    "water hex fails):"]
            out += [f"  {'ok  ' if ok else 'FAIL'} {line}" for ok, line in self.named]
        if self.off_map:
            out += ["", "Listed places that fall off this map: " + ", ".join(self.off_map)]
        out += ["", f"Counts: {self.hexes} hexes, {self.places} named places"]
        out.append("  terrain: " + ", ".join(f"{k} {v}" for k, v in sorted(self.terrain.items())))
        out.append("  regions: " + ", ".join(f"{k} {v}" for k, v in sorted(self.regions.items())))
        out.append("  hexsides: " + ", ".join(f"{k} {v}" for k, v in sorted(self.hexsides.items())))
        if self.rivers:
            out.append(f"  rivers: {self.rivers}")
        verdict = "all control points and constraints hold" if self.ok else "SOME CHECKS FAIL"
        out += ["", f"Result: {verdict}."]
        return "\n".join(line for line in out if line is not None) + "\n"
