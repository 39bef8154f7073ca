"""The exact calculator: hand-derived cases, invariants, casualty choice against brute force,
and agreement with Monte Carlo battles fought with `combat.fight_round`.

The Monte Carlo comparison runs 22 battles x 20,000 here; tests/benchmarks/bench_aa_calc.py
runs them at 100,000 each and prints the agreement table and the timings.
"""

from __future__ import annotations

import math
from fractions import Fraction as Q

import pytest
from aa_battles import BATTLES, Battle, F, catalog
from hypothesis import given, settings
from hypothesis import strategies as st

from wartable.core.rng import Rng
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary.calculator import (
    CalcResult,
    calculate,
    group_pmfs,
    hit_distribution,
)
from wartable.games.aa_anniversary.combat import AIR, GENERAL, SUB, FireGroup, Force, Hits
from wartable.games.aa_anniversary.montecarlo import SimResult, simulate

CAT = catalog()
MC_N = 20_000


def test_one_infantry_against_one_infantry_by_hand() -> None:
    # Derivation in test_aa_combat: 1/4, 5/8, 1/8. Survivors: the attacker keeps its infantry
    # when it wins (1/4), the defender when it wins (5/8).
    r = calculate(F(infantry=1), F(infantry=1), CAT)
    assert r.attacker_survivors == ((Force(), 0.75), (F(infantry=1), 0.25)) or \
        dict(r.attacker_survivors) == pytest.approx({Force(): 0.75, F(infantry=1): 0.25})
    assert dict(r.defender_survivors) == pytest.approx({F(infantry=1): 0.625, Force(): 0.375})
    assert r.expected_survivors("attack") == pytest.approx({"infantry": 0.25})


def test_two_infantry_against_one_by_hand() -> None:
    # 2 infantry (1 each) vs 1 infantry (2). Attacker hits: 0 w.p. 25/36, >=1 w.p. 11/36;
    # defender hits 1/3. From (2,1): defender dies 11/36 (then attacker wins either way);
    # attacker loses one and defender lives 25/36*1/3 = 25/108 -> the 1v1 battle (1/4, 5/8,
    # 1/8); again 25/36*2/3 = 50/108. Over 58/108:
    # P(att) = (33/108 + 25/108*1/4) / (58/108) = (132 + 25)/232 = 157/232.
    r = calculate(F(infantry=2), F(infantry=1), CAT)
    assert abs(r.attacker_win - 157 / 232) < 1e-12
    assert abs(r.defender_win - (25 * 5 / 8) / 58) < 1e-12
    assert abs(r.draw - (25 / 8) / 58) < 1e-12


def test_probabilities_sum_to_one_for_every_battle() -> None:
    for b in BATTLES:
        r = calc(b)
        assert abs(r.total - 1.0) < 1e-9, b.name
        assert abs(sum(p for _, p in r.attacker_survivors) - 1.0) < 1e-9
        assert abs(sum(p for _, p in r.defender_survivors) - 1.0) < 1e-9
        assert r.capture <= r.attacker_win + 1e-12


def test_binomials_and_convolution_are_exact() -> None:
    pmf = group_pmfs([FireGroup(2, 2, GENERAL), FireGroup(1, 1, GENERAL)])
    # two dice at 1/3 and one at 1/6: P(0) = 4/9 * 5/6
    assert abs(pmf[0] - float(Q(4, 9) * Q(5, 6))) < 1e-15
    assert abs(sum(pmf) - 1.0) < 1e-15
    joint = dict(hit_distribution((FireGroup(3, 1, AIR), FireGroup(2, 1, SUB))))
    assert joint[Hits(air=1, sub=1)] == pytest.approx(1 / 2 * 1 / 3)


def test_max_rounds_only_counts_rounds() -> None:
    full = calculate(F(infantry=3, armour=1), F(infantry=3), CAT)
    many = calculate(F(infantry=3, armour=1), F(infantry=3), CAT, max_rounds=200)
    assert many.retreat < 1e-12
    assert many.attacker_win == pytest.approx(full.attacker_win, abs=1e-12)
    assert many.expected_rounds == pytest.approx(full.expected_rounds, abs=1e-9)


def test_a_given_casualty_order_changes_the_odds() -> None:
    att, dfn = F(infantry=3, armour=3), F(infantry=5)
    cheap = calculate(att, dfn, CAT)
    tanks_first = calculate(att, dfn, CAT, orders=c.Orders(
        c.parse_casualty_order("armour, infantry", CAT), c.default_casualty_order(dfn, CAT,
                                                                                  attacking=False)))
    assert tanks_first.attacker_win < cheap.attacker_win
    assert tanks_first.attacker_ipc_loss > cheap.attacker_ipc_loss - 1.0


def test_forty_against_forty_is_solved() -> None:
    r = calculate(F(infantry=40), F(infantry=40), CAT)
    assert abs(r.total - 1.0) < 1e-9 and r.states == 40 * 40


# --- casualty choice against brute force ---------------------------------------------------

def brute_max(force: Force, hits: Hits, air_hits_subs: bool) -> int:
    """Largest assignment of hits to hit points by plain augmenting paths (Kuhn's algorithm),
    independent of the closed form in combat._matched."""
    slots: list[str] = []  # one entry per hit point
    for u, n in force.units:
        s = CAT[u]
        if s.fights:
            slots += [u] * (n * s.hits)
    for u, n in force.damaged:
        for _ in range(n):
            slots.remove(u)
    kinds = [GENERAL] * hits.general + [AIR] * hits.air + [SUB] * hits.sub

    def ok(kind: str, u: str) -> bool:
        s = CAT[u]
        if kind == SUB:
            return s.sea
        if kind == AIR:
            return not s.sub or air_hits_subs
        return True

    owner: list[int | None] = [None] * len(slots)

    def augment(h: int, seen: set[int]) -> bool:
        for i, u in enumerate(slots):
            if i not in seen and ok(kinds[h], u):
                seen.add(i)
                o = owner[i]
                if o is None or augment(o, seen):
                    owner[i] = h
                    return True
        return False

    return sum(1 for h in range(len(kinds)) if augment(h, set()))


UNITS = ["submarine", "destroyer", "fighter", "transport", "battleship"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=5, max_size=5), st.integers(0, 1),
       st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.booleans())
def test_assignment_is_maximal_and_choices_are_legal(counts: list[int], dmg: int, g: int,
                                                     a: int, s: int, dd: bool) -> None:
    force = Force.of(dict(zip(UNITS, counts, strict=True)),
                     {"battleship": min(dmg, counts[4])})
    if force.size > 4:
        return
    hits = Hits(g, a, s)
    need = c.max_assignable(force, hits, CAT, air_hits_subs=dd)
    assert need == brute_max(force, hits, dd)
    options = c.casualty_options(force, hits, CAT, air_hits_subs=dd)
    assert options
    for order in (c.default_casualty_order(force, CAT, attacking=False),
                  c.parse_casualty_order("transport, fighter, battleship, submarine", CAT)):
        pick = c.select_casualties(force, hits, order, CAT, air_hits_subs=dd)
        assert c.check_casualties(force, hits, pick, CAT, air_hits_subs=dd) is None
        assert pick in options


# --- Monte Carlo agreement ---------------------------------------------------------------------

_calc_cache: dict[str, CalcResult] = {}


def calc(b: Battle) -> CalcResult:
    if b.name not in _calc_cache:
        _calc_cache[b.name] = calculate(b.attacker, b.defender, CAT, bombard=b.bombard,
                                        max_rounds=b.max_rounds)
    return _calc_cache[b.name]


def loss_sd(b: Battle, r: CalcResult) -> tuple[float, float]:
    """Standard deviations of each side's IPC loss, from the exact survivor distributions."""
    out = []
    for start, dist, mean in ((b.attacker, r.attacker_survivors, r.attacker_ipc_loss),
                              (b.defender, r.defender_survivors, r.defender_ipc_loss)):
        v0 = c.ipc_value(start, CAT)
        out.append(math.sqrt(sum(p * (v0 - c.ipc_value(f, CAT) - mean) ** 2 for f, p in dist)))
    return out[0], out[1]


def agreement(b: Battle, r: CalcResult, m: SimResult) -> list[str]:
    """Each statistic outside 4.5 standard errors (+0.001), as text."""
    bad = []
    for name in ("attacker_win", "defender_win", "draw", "stalemate", "retreat", "capture"):
        p, ph = getattr(r, name), getattr(m, name)
        tol = 4.5 * math.sqrt(p * (1 - p) / m.n) + 1e-3
        if abs(p - ph) >= tol:
            bad.append(f"{b.name}: {name} exact {p:.4f} vs simulated {ph:.4f}")
    sa, sd = loss_sd(b, r)
    for name, sdev in (("attacker_ipc_loss", sa), ("defender_ipc_loss", sd)):
        p, ph = getattr(r, name), getattr(m, name)
        if abs(p - ph) >= 4.5 * sdev / math.sqrt(m.n) + 1e-3:
            bad.append(f"{b.name}: {name} exact {p:.3f} vs simulated {ph:.3f}")
    return bad


@pytest.mark.parametrize("battle", BATTLES, ids=[b.name for b in BATTLES])
def test_calculator_agrees_with_monte_carlo(battle: Battle) -> None:
    r = calc(battle)
    m, _ = simulate(battle.attacker, battle.defender, None, MC_N,
                    Rng.from_seed(f"mc:{battle.name}"), catalog=CAT, bombard=battle.bombard,
                    max_rounds=battle.max_rounds)
    assert agreement(battle, r, m) == []


def test_monte_carlo_would_catch_a_wrong_rule() -> None:
    """The comparison must be able to fail: the 1v1 calculator odds against a simulation of
    a different battle (2 infantry attacking) are far outside the tolerance."""
    b = BATTLES[0]
    m, _ = simulate(F(infantry=2), F(infantry=1), None, 5000, Rng.from_seed(3), catalog=CAT)
    assert agreement(b, calc(b), m) != []


def test_progress_reports_and_cancels() -> None:
    from wartable.games.aa_anniversary.calculator import CalculationCancelled

    seen: list[int] = []
    calculate(F(infantry=30), F(infantry=30), CAT, progress=lambda n: seen.append(n) or True)
    assert seen and seen == sorted(seen)
    with pytest.raises(CalculationCancelled):
        calculate(F(infantry=30), F(infantry=30), CAT, progress=lambda n: False)


def test_general_hits_take_the_casualties_of_one_hit_that_many_times() -> None:
    """The calculator takes g general hits as one hit g times over (issue 20: one casualty
    choice per force instead of one per force and hit count). That holds because the order's
    greedy choice for g hits is a prefix: checked on land and sea forces at every size,
    with damaged battleships and kept land units, from each side's default order."""
    armies = (
        (F(infantry=8, artillery=4, armour=4, fighter=2, bomber=2),
         F(infantry=12, artillery=4, armour=2, fighter=2, aa_gun=1)),
        (F(submarine=6, destroyer=4, cruiser=2, battleship=2, carrier=2, fighter=4),
         Force.of({"submarine": 4, "destroyer": 4, "cruiser": 2, "battleship": 2, "carrier": 4,
                   "fighter": 4, "transport": 2}, {"battleship": 1})),
    )
    checked = 0
    for att, dfn in armies:
        orders = c.default_orders(att, dfn, CAT)
        for force, order in ((att, orders.attacker), (dfn, orders.defender)):
            for ahs in (False, True):
                step = force
                chain = [force]
                while c.hit_points(step, CAT):
                    step = c.take_hits(step, Hits(1), order, CAT, air_hits_subs=ahs)
                    chain.append(step)
                for g in range(1, len(chain) + 2):
                    at_once = c.take_hits(force, Hits(g), order, CAT, air_hits_subs=ahs)
                    assert at_once == chain[min(g, len(chain) - 1)], (force, g)
                    checked += 1
    assert checked > 100
