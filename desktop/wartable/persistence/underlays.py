"""Scan underlays: a player's scanned printed map, calibrated to one of our maps.

One small JSON file per map in the data folder ("underlays/<map>.json"): the image's path,
the calibration points (scan pixel -> hex label) and how the scan is shown. The image stays
where the player keeps it; we only remember where. A damaged file is reported, not lost:
it is replaced only when the player calibrates again.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from wartable.core.errors import DataError
from wartable.model.parse import Reader
from wartable.persistence import boundedread
from wartable.persistence.locations import data_dir
from wartable.persistence.savefile import write_atomic

FORMAT = 1
MAX_BYTES = 1 << 20
_LIMITS = boundedread.Limits(MAX_BYTES, max_nodes=100_000, max_depth=20)


class UnderlayError(DataError):
    """A calibration file that cannot be used (the file is left as it is)."""


@dataclass(frozen=True, slots=True)
class CalibrationPoint:
    x: float  # scan pixel, in the full-size image
    y: float
    label: str  # the hex (or space) there, as printed


@dataclass(frozen=True, slots=True)
class Underlay:
    map_id: str
    image: str  # absolute path of the scan
    points: tuple[CalibrationPoint, ...]
    opacity: float = 0.6
    visible: bool = True


def underlay_path(map_id: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", map_id)
    return data_dir() / "underlays" / f"{safe}.json"


def underlay_to_dict(u: Underlay) -> dict[str, object]:
    return {"format": FORMAT, "map": u.map_id, "image": u.image, "opacity": u.opacity,
            "visible": u.visible,
            "points": [{"x": p.x, "y": p.y, "label": p.label} for p in u.points]}


def underlay_from_dict(d: object, source: str) -> Underlay:
    r = Reader(d, source, error=UnderlayError, table_word="an object")
    r.known("format", "map", "image", "opacity", "visible", "points")
    fmt = r.integer("format", minimum=1)
    if fmt > FORMAT:
        raise r.fail("format", f"is {fmt}, written by a newer Wartable; update Wartable")
    opacity = r.opt_number("opacity", 0.6)
    if not 0.05 <= opacity <= 1.0:
        raise r.fail("opacity", f"must be between 0.05 and 1, not {opacity}")
    points = tuple(CalibrationPoint(p.number("x"), p.number("y"), p.text("label", nonempty=True))
                   for p in r.items("points"))
    return Underlay(r.text("map", nonempty=True), r.text("image", nonempty=True), points,
                    opacity, r.opt_flag("visible", True))


def load_underlay(map_id: str) -> Underlay | None:
    """The map's calibration, None when there is none. Raises UnderlayError (saying what is
    wrong and what to do) for a damaged file, which is left untouched."""
    path = underlay_path(map_id)
    source = str(path)
    try:  # bounded: a FIFO here once hung the app (issue 15)
        d = boundedread.read_json(path, _LIMITS, "calibrate the scan again (View → Scan "
                                  "Underlay…) to replace it")
    except FileNotFoundError:
        return None
    except boundedread.InputFileError as e:
        raise UnderlayError(source, "", f"{e.problem}; {e.todo}") from e
    u = underlay_from_dict(d, source)
    if u.map_id != map_id:
        raise UnderlayError(source, "map", f"is {u.map_id!r}, not {map_id!r}")
    return u


def save_underlay(u: Underlay) -> Path:
    path = underlay_path(u.map_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(underlay_to_dict(u), indent=1).encode("utf-8"))
    return path


def remove_underlay(map_id: str) -> None:
    try:
        os.remove(underlay_path(map_id))
    except FileNotFoundError:
        pass
