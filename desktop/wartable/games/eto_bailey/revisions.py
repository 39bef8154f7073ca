"""Bailey's revisions the app computes (issue 22): the Africa and Middle East caps
[General (10)], fortress multipliers and their lapse [General (8)], the combat differential
with every multiplier explained and the second die [General (2)], the VP ledger with its
deadlines [General (13)]. Pure functions of the game and state; the steps call them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from wartable.engine.rules import Game
from wartable.maps.model import HexMap
from wartable.model.state import GameState
from wartable.model.tracks import track, with_track

# General (10): "Africa" includes the hexes south of Palestine, Palestine, Lebanon and the hex
# north of Lebanon; our map's regions for them (the map is ours, so this list is ours too).
AFRICA = frozenset({"Morocco", "Algeria", "Tunisia", "Libya", "Egypt", "Palestine",
                    "Lebanon-Syria", "Transjordan"})
MIDDLE_EAST = frozenset({"Iraq", "Persia", "Saudi Arabia", "Kuwait", "Cyprus"})
CAP_SP = 8       # General (10): no country more than 8 SP in Africa, nor in the Middle East
MAX_UNIT_SP = 3  # General (10): no unit over 3 SP placed or built there (Turkey excluded)

# General (8)(A)/(C), Finland (2): fortress hexes and their multipliers. The Atlantic coast
# (0912 to 1210) becomes a fortress only after German occupation: a status, not listed here.
FORTRESSES: Mapping[str, int] = {
    "1411": 2,  # Berlin
    "0219": 2,  # Gibraltar
    "1013": 2, "1014": 2,  # Maginot
    "1113": 2, "1114": 2,  # Siegfried
    "1322": 2,  # Malta [General (8)(B)]
    "2107": 4, "2409": 4, "2812": 4,  # Leningrad, Moscow, Stalingrad [General (8)(C)]
    "1905": 2, "2006": 2,  # Finnish hexes until Russia takes them [Finland (2)]
}
NO_RETREAT = frozenset({"1322"})  # Malta: defenders do not retreat [General (8)(B)]
PAY_TO_STAY = frozenset({"2107", "2409", "2812"})  # extra 1 SP avoids a retreat [General (8)(C)]


def region(game: Game, hex_: str) -> str | None:
    for m in game.maps.values():
        if isinstance(m, HexMap):
            try:
                return m.info(hex_).region
            except KeyError:
                continue
    return None


def area_of(game: Game, hex_: str) -> str | None:
    r = region(game, hex_)
    return "Africa" if r in AFRICA else "Middle East" if r in MIDDLE_EAST else None


def sp_of(p: object) -> int:
    attrs = getattr(p, "attrs", {})
    v = attrs.get("sp", 1)
    return v if isinstance(v, int) else 1


def sp_in_area(game: Game, state: GameState, nation: str, area: str) -> int:
    return sum(sp_of(p) for p in state.pieces.values()
               if p.attrs.get("nation") == nation and area_of(game, p.location) == area)


def cap_refusal(game: Game, state: GameState, nation: str, sp: int, to: str,
                moving_from: str | None = None) -> str | None:
    """Why General (10) refuses `sp` SP of `nation` arriving in `to` (None: allowed)."""
    area = area_of(game, to)
    if area is None or (moving_from is not None and area_of(game, moving_from) == area):
        return None
    if moving_from is None and sp > MAX_UNIT_SP:
        return (f"No unit larger than {MAX_UNIT_SP} SP may be placed or built in {area} "
                f"[General (10)].")
    have = sp_in_area(game, state, nation, area)
    if have + sp > CAP_SP:
        return (f"{nation.title()} has {have} SP in {area}; {sp} more would exceed "
                f"{CAP_SP} SP [General (10)].")
    return None


def fortress_multiplier(state: GameState, hex_: str) -> int:
    """General (8): the hex's fortress multiplier now; 1 once an attacker has occupied it
    [General (8)(D)] (the lapse is the track `fortress_lost`)."""
    if hex_ not in FORTRESSES or track(state, "fortress_lost", f"h{hex_}") == "lost":
        return 1
    return FORTRESSES[hex_]


def occupy(state: GameState, hex_: str) -> GameState:
    """An attacker occupies a fortress hex: it stops being a fortress for good [General (8)(D)]."""
    if hex_ in FORTRESSES:
        return with_track(state, "fortress_lost", f"h{hex_}", "lost")
    return state


@dataclass(frozen=True)
class Odds:
    attack: int
    defence: int  # after every multiplier
    differential: int
    reasons: tuple[str, ...]  # each multiplier with its rule
    refused: str  # why the attack may not be made ("" when it may)


def odds(game: Game, state: GameState, attackers: tuple[str, ...], hex_: str,
         rough: bool | None = None) -> Odds:
    """The differential of an attack with every multiplier explained [CRT; General (8),
    (5)(B)]. Attacks below 0 are refused (base game, ext.)."""
    att = sum(sp_of(state.pieces[a]) for a in attackers)
    defenders = [p for p in state.pieces_at(hex_)]
    base = sum(sp_of(p) for p in defenders)
    mult = 1
    why: list[str] = []
    terrain = None
    for m in game.maps.values():
        if isinstance(m, HexMap):
            try:
                terrain = m.info(hex_).terrain
            except KeyError:
                pass
    finland = region(game, hex_) == "Finland"
    is_rough = rough if rough is not None else (terrain == "rough" or finland)
    neutral = any(p.attrs.get("nation") in _neutral_minors(state) for p in defenders)
    if is_rough:
        if neutral:
            mult *= 4
            why.append("neutral minor in rough ×4 [General (5)(B)]")
        else:
            mult *= 2
            why.append("rough ×2" + (" (all of Finland is rough [Finland (1)])" if finland
                                     else " (base game)"))
    f = fortress_multiplier(state, hex_)
    if f > 1:
        mult *= f
        why.append(f"fortress ×{f} [General (8)]")
    d = base * mult
    diff = att - d
    refused = "" if diff >= 0 else f"Differential {diff}: no attacks below 0 (base game)."
    return Odds(att, d, diff, tuple(why), refused)


def _neutral_minors(state: GameState) -> frozenset[str]:
    out = set()
    for key in ("norway", "denmark", "yugoslavia", "greece", "spain", "finland"):
        if track(state, "status", key) == "neutral":
            out.add(key)
    return frozenset(out)


# General (2): the second die, rolled on an attacker's 6.
def second_die(roll: int) -> tuple[int, bool]:
    """(SP the attacker loses, whether the defender may decline to retreat)."""
    return (1, True) if roll == 1 else (1, False) if roll <= 3 else (0, False)


# General (13): the VP ledger. Each objective: (side, text, tiers of (before_turn, points));
# before_turn 0 means "at any time". The track `vp_done` holds the turn each was achieved.
VP_OBJECTIVES: Mapping[str, tuple[str, str, tuple[tuple[int, int], ...]]] = {
    "france": ("axis", "Occupy France or declare Vichy (turns counted from the campaign's "
               "start)", ((4, 4), (5, 3))),
    "balkans": ("axis", "Italian occupation of Yugoslavia and Greece", ((7, 4), (0, 3))),
    "norway": ("axis", "Occupy Norway", ((4, 2), (5, 1))),
    "leningrad": ("axis", "Leningrad", ((0, 3),)),
    "moscow": ("axis", "Moscow", ((0, 3),)),
    "stalingrad": ("axis", "Stalingrad", ((0, 3),)),
    "malta": ("axis", "Malta", ((0, 3),)),
    "gibraltar": ("axis", "Gibraltar", ((0, 3),)),
    "london": ("axis", "London occupied, even for a moment", ((0, 6),)),
    "suez": ("axis", "Suez", ((0, 4),)),
    "kuwait": ("axis", "Kuwait", ((0, 8),)),
    "paris": ("allies", "Paris", ((16, 8), (18, 6), (20, 4))),
    "berlin": ("allies", "Berlin", ((20, 10), (22, 8), (0, 4))),
    "rome": ("allies", "Rome", ((17, 6),)),
    "africa": ("allies", "Africa free of Axis troops", ((11, 8), (14, 3))),
    "finland": ("allies", "Russian occupation of Finland", ((0, 1),)),
    "liberate_balkans": ("allies", "Liberate Yugoslavia and Greece", ((0, 3),)),
    "norway_assault": ("allies", "Attempt an amphibious assault on Norway", ((0, 2),)),
    "norway_liberated": ("allies", "Liberate the non-weather area of Norway", ((0, 1),)),
}


def vp_points(objective: str, turn: int) -> int:
    """The points of an objective achieved on `turn`: the best tier whose deadline it beat
    ("before turn N": achieved on a turn < N; the tiers are best-only, digest 003)."""
    _, _, tiers = VP_OBJECTIVES[objective]
    best = 0
    for before, pts in tiers:
        if turn and (before == 0 or turn < before):
            best = max(best, pts)
    return best


def ledger(state: GameState) -> list[tuple[str, str, int, int]]:
    """(side, objective text, turn achieved, points) for every objective achieved, plus
    London's 4 VP per end of turn held (track london_turns)."""
    rows = []
    for key, (side, text, _) in VP_OBJECTIVES.items():
        t = track(state, "vp_done", key) or 0
        if isinstance(t, int) and t > 0:
            rows.append((side, text, t, vp_points(key, t)))
    held = track(state, "london_turns") or 0
    if isinstance(held, int) and held > 0:
        rows.append(("axis", f"London held at the end of {held} turn(s)", 0, 4 * held))
    return rows


def totals(state: GameState) -> dict[str, int]:
    out = {"axis": 0, "allies": 0}
    for side, _, _, pts in ledger(state):
        out[side] += pts
    return out
