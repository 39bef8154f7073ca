"""The combat tables as data [11.3, 11.8, 11.14, 6.11]: the CRT (tables.combat), the
terrain column shifts (tables.terrain_effects.combat_left) and the GAST (tables.gast), read
once per loaded game through the checked Reader. All three are OUR PROVISIONAL values
except the hill 2L and river 1L shifts (NOTES.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wartable.engine.odds import OddsLadder
from wartable.engine.rules import Game
from wartable.model.parse import Reader

RESULTS = ("AS", "AL1", "DE", "DR", "BB")
CONVERSIONS = ("DL1",)  # a result only by a German DR conversion [11.19]
TERRAIN_SHIFTS = ("clear", "forest", "hill", "marsh", "ardennes", "town", "city", "fortified",
                  "river", "major_river")
SOURCE = "whatif1940 data (combat.toml, game.toml)"


@dataclass(frozen=True)
class CombatTables:
    ladder: OddsLadder  # 1:3 ... 5:1, shifts on the unbounded ladder, below 1:3 = none
    crt: dict[str, tuple[str, ...]]  # column -> result per die roll 1..6
    die: int
    provisional: bool
    note: str
    terrain_left: dict[str, int]  # columns toward the defender [11.8]
    gast_first_turn: int
    gast_die: int
    gast_ploesti_drm: int
    gast_results: tuple[int | str, ...]  # per modified roll 1..die: columns left, or "cancel"
    gast_provisional: bool
    legend: tuple[tuple[str, str], ...] = ()  # result -> what it does [11.15-11.20]

    def row(self, column: str) -> tuple[str, ...]:
        return self.crt[column]

    @property
    def mark(self) -> str:
        """For the log: the rulebook prints no CRT, so ours is provisional; a CRT that is
        not is the players' own printed one (Game → Rule Tables) [11.3]."""
        return " (provisional CRT)" if self.provisional else " (your printed CRT)"

    def result(self, column: str, roll: int) -> str:
        return self.crt[column][roll - 1]

    def gast(self, roll: int) -> int | str:
        """The GAST result for a modified roll (clamped to the table)."""
        return self.gast_results[min(max(roll, 1), self.gast_die) - 1]

    def gast_outcome(self, roll: int, ploesti_captured: bool) -> tuple[int | str, str]:
        """[6.11, 6.10] The result of a GAST roll, with the Ploesti modifier when Ploesti
        has fallen, and the modifier's text for the log ("" without one)."""
        drm = self.gast_ploesti_drm if ploesti_captured else 0
        return self.gast(roll + drm), (f" {drm:+d} Ploesti [6.10]" if drm else "")


def read(tables: Mapping[str, Any]) -> CombatTables:
    top = Reader(tables, SOURCE, "tables")
    r = top.sub("combat")
    r.known("provisional", "note", "columns", "die", "crt", "legend")
    cols = tuple(r.seq("columns", nonempty=True, of="text"))
    try:
        ladder = OddsLadder(cols, below="none", shift_from="virtual")
    except ValueError as e:
        raise r.fail("columns", str(e)) from None
    die = r.integer("die", minimum=1)
    crt_r = r.sub("crt")
    crt_r.known(*cols)
    crt: dict[str, tuple[str, ...]] = {}
    for c in cols:
        row = tuple(crt_r.seq(c, nonempty=True, of="text"))
        if len(row) != die:
            raise crt_r.fail(c, f"must give {die} results (one per die roll), not {len(row)}")
        for i, res in enumerate(row):
            if res not in RESULTS:
                raise crt_r.fail(f"{c}[{i}]", f"{res!r} is not a result; use one of "
                                 f"{', '.join(RESULTS)}")
        crt[c] = row
    leg = r.sub("legend")
    leg.known(*RESULTS, *CONVERSIONS)
    legend = tuple((code, leg.text(code, nonempty=True)) for code in (*RESULTS, *CONVERSIONS))
    tec = top.sub("terrain_effects").sub("combat_left")
    tec.known(*TERRAIN_SHIFTS)
    left = {k: tec.integer(k, minimum=0) for k in TERRAIN_SHIFTS}
    g = top.sub("gast")
    g.known("provisional", "note", "first_turn", "die", "ploesti_drm", "results")
    gdie = g.integer("die", minimum=1)
    res = tuple(g.seq("results", nonempty=True))
    if len(res) != gdie:
        raise g.fail("results", f"must give {gdie} results (one per roll), not {len(res)}")
    for i, x in enumerate(res):
        ok = x == "cancel" or (isinstance(x, int) and not isinstance(x, bool) and x >= 0)
        if not ok:
            raise g.fail(f"results[{i}]", f"must be 'cancel' or a number of columns left, "
                         f"not {x!r}")
    return CombatTables(ladder, crt, die, r.opt_flag("provisional"), r.opt_text("note", ""),
                        left, g.integer("first_turn", minimum=1), gdie,
                        g.integer("ploesti_drm"), res, g.opt_flag("provisional"), legend)


def tables_of(game: Game) -> CombatTables:
    """The CRT, GAST and column shifts, read once per game (held with it: Game.derived)."""
    return game.derived(_read_tables)


def _read_tables(game: Game) -> CombatTables:
    return read(game.definition.tables)
