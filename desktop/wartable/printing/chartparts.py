"""The pieces every chart shares: `ChartEntry`, headings with the PROVISIONAL tag, rule
references, and values as text (location and side ids shown by their printed names)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wartable.engine.rules import Game
from wartable.maps.model import AreaMap, HexMap
from wartable.printing.blocks import Block, Heading, Paragraph

META = ("id", "title", "rule", "note", "provisional", "source")
PROVISIONAL_NOTE = ("Provisional: the rulebook does not give these values; they are ours and "
                    "may be changed in the game data.")
DAGGER = "†"
# Short words that are abbreviations in a data key ("ploesti_drm" -> "Ploesti DRM").
_ABBREVIATIONS = {"drm", "ipc", "ipcs", "crt", "aa", "sz", "hq", "mf", "dr", "vp"}

Names = Mapping[str, str]


class ChartEntry:
    """One printed chart: its title, whether it is provisional, and its blocks."""

    def __init__(self, key: str, title: str, blocks: list[Block], provisional: bool = False,
                 kind: str = "table") -> None:
        self.key = key
        self.title = title
        self.blocks = blocks
        self.provisional = provisional
        self.kind = kind

    def texts(self) -> list[str]:
        return [t for b in self.blocks for t in b.texts()]


def humanize(key: str) -> str:
    """A data key as a heading: "terrain_cost" -> "Terrain cost", "ipc" -> "IPC"."""
    text = key.replace("_", " ").replace("-", " ").strip()
    words = [w.upper() if w.lower() in _ABBREVIATIONS else w for w in text.split(" ")]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def rule_ref(ref: Any) -> str:
    r = str(ref or "").strip().removeprefix("[").removesuffix("]").strip()
    return f"[{r}]" if r else ""


def title_of(key: str, d: Mapping[str, Any]) -> str:
    t = d.get("title")
    title = t if isinstance(t, str) and t else humanize(key)
    r = rule_ref(d.get("rule"))
    return f"{title} {r}" if r and len(r) <= 24 else title


def scalar(v: Any) -> bool:
    return isinstance(v, str | int | float | bool) or v is None


def fmt(v: Any, names: Names | None = None) -> str:
    """A value as printed; a string that is a location or side id reads as its name."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "—"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, list | tuple):
        return ", ".join(fmt(x, names) for x in v)
    if isinstance(v, Mapping):
        return "; ".join(f"{humanize(str(k))}: {fmt(x, names)}" for k, x in v.items())
    if names and isinstance(v, str):
        return names.get(v, v)
    return str(v)


def names_of(game: Game) -> dict[str, str]:
    """The printed name of every id a table may hold: sides, area-map spaces, boxes."""
    out: dict[str, str] = {}
    for board in game.maps.values():
        if isinstance(board, AreaMap):
            out.update({s.id: s.name for s in board.spaces.values()})
        out.update({b.id: b.name for b in board.boxes})
    for board in game.maps.values():
        if isinstance(board, HexMap):  # a hex a table names: its label and place
            for pl in board.places:
                out.setdefault(pl.hex_or_space, f"{pl.hex_or_space} {pl.name}")
    out.update({s.id: s.name for s in game.definition.sides})
    out.update({o.id: o.name for o in game.definition.options})
    return out


def head(title: str, provisional: bool, note: str, level: int = 2) -> list[Block]:
    out: list[Block] = [Heading(title, level=level, badge="PROVISIONAL" if provisional else "")]
    if provisional:
        out.append(Paragraph(PROVISIONAL_NOTE + (f" {note}" if note else ""), 8.5,
                             fill="#fdebd7"))
    elif note:
        out.append(Paragraph(note, 8.5, italic=True))
    return out
