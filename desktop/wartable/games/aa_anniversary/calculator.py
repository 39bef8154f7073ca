"""The exact battle calculator: outcome probabilities by dynamic programming, no sampling.

A battle is a Markov chain over states (attacking force, defending force) between rounds.
One round is the rules of `combat.fight_round` with every die replaced by its distribution:
the hits of a volley are a sum of Bernoulli(value/6) trials, one per die, so each group of
equal dice is binomial and the groups of one hit kind combine by convolution; hit kinds
(general, air, sub) are independent. Each side's casualties follow its casualty order through
the same `combat.select_casualties`, so a round maps a state to a distribution over states.

Every round that changes the state takes at least one hit point from a side, so states are
solved in decreasing order of total hit points, each exactly once: the mass entering a state
leaves it to strictly smaller states, scaled by 1 / (1 - P(no change)) for the rounds in which
nothing is hit (a geometric series, summed exactly). With `max_rounds`, rounds are counted
instead and the attacker retreats after that many (General Combat, Step 6, Condition B).

The numbers are exact up to float rounding (tests compare them with hand-derived fractions
and with Monte Carlo runs of `combat.fight_round`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from wartable.core.errors import WartableError
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary.combat import (
    ATTACK,
    ATTACKER_WINS,
    DEFENDER_WINS,
    DEFENSE,
    DRAW,
    EMPTY,
    RETREAT,
    STALEMATE,
    BattleState,
    Catalog,
    FireGroup,
    Force,
    Hits,
    Orders,
)
from wartable.games.aa_anniversary.research import BattleDevelopments


class CalculationCancelled(WartableError):
    """The caller's progress callback asked to stop."""


RESULTS = (ATTACKER_WINS, DEFENDER_WINS, DRAW, STALEMATE, RETREAT)
# Paths below this probability are not followed: their total stays far below the float
# rounding of the sums (measured in tests/benchmarks/bench_aa_calc.py) and skipping them
# makes the 40-unit battles several times faster.
PRUNE = 1e-20
Dist = tuple[tuple[Hits, float], ...]


@dataclass(frozen=True, slots=True)
class CalcResult:
    """What a battle comes to, as probabilities and expectations."""

    attacker_win: float  # the defenders destroyed with attacking units left
    defender_win: float  # the attackers destroyed with defending units left
    draw: float  # both sides destroyed
    stalemate: float  # units on both sides that cannot hit each other
    retreat: float  # the attacker retreated (max_rounds reached, or transports left alone)
    capture: float  # attacker won with a unit that can take the territory (Step 7)
    attacker_survivors: tuple[tuple[Force, float], ...]  # most likely first
    defender_survivors: tuple[tuple[Force, float], ...]  # fighting units (AA guns left out)
    attacker_ipc_loss: float  # expected cost of the attacker's units lost
    defender_ipc_loss: float
    expected_rounds: float
    states: int  # battle states solved

    @property
    def total(self) -> float:
        return self.attacker_win + self.defender_win + self.draw + self.stalemate + self.retreat

    @property
    def unresolved(self) -> float:
        """Probability left on paths too unlikely to follow (see `calculate`'s prune)."""
        return max(0.0, 1.0 - self.total)

    def expected_survivors(self, side: str) -> dict[str, float]:
        dist = self.attacker_survivors if side == ATTACK else self.defender_survivors
        out: dict[str, float] = {}
        for force, p in dist:
            for u, n in force.units:
                out[u] = out.get(u, 0.0) + n * p
        return out


@lru_cache(maxsize=4096)
def _binomial(n: int, value: int, best_of: int = 1) -> tuple[float, ...]:
    """P(k hits) for n units each rolling `best_of` dice and hitting when the best one
    shows value or less (one die each but for Heavy Bombers)."""
    p = min(max(value, 0), 6) / 6.0
    if best_of > 1:
        p = 1.0 - (1.0 - p) ** best_of
    q = 1.0 - p
    out = [0.0] * (n + 1)
    coeff = 1.0
    for k in range(n + 1):
        out[k] = coeff * (p ** k) * (q ** (n - k))
        coeff = coeff * (n - k) / (k + 1)
    return tuple(out)


def _convolve(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return tuple(out)


def group_pmfs(groups: Iterable[FireGroup]) -> tuple[float, ...]:
    """The distribution of the total hits of some groups of dice."""
    pmf: tuple[float, ...] = (1.0,)
    for g in groups:
        pmf = _convolve(pmf, _binomial(g.count, g.value, g.best_of))
    return pmf


@lru_cache(maxsize=100_000)
def hit_distribution(groups: tuple[FireGroup, ...]) -> Dist:
    """The joint distribution of a volley's hits by kind (kinds are independent)."""
    pmfs = {kind: group_pmfs(g for g in groups if g.kind == kind)
            for kind in (c.GENERAL, c.AIR, c.SUB)}
    out: list[tuple[Hits, float]] = []
    for g, pg in enumerate(pmfs[c.GENERAL]):
        for a, pa in enumerate(pmfs[c.AIR]):
            for s, ps in enumerate(pmfs[c.SUB]):
                p = pg * pa * ps
                if p > 0.0:
                    out.append((Hits(g, a, s), p))
    return tuple(out)


def _aa_distribution(groups: tuple[FireGroup, ...]) -> list[tuple[c.Casualties, float]]:
    out: list[tuple[c.Casualties, float]] = [(c.Casualties(), 1.0)]
    for g in groups:
        pmf = _binomial(g.count, g.value)
        out = [(c.Casualties(cas.lost + ((g.kind, k),) if k else cas.lost), p * pk)
               for cas, p in out for k, pk in enumerate(pmf) if pk > 0.0]
    return out


_KEY = 1 << 24  # a state (attacker id, defender id) is packed as a * _KEY + d
# One Step-2 outcome of a round: (probability, [(defender id, p)], [(attacker id, p)]).
_Branch = tuple[float, list[tuple[int, float]], list[tuple[int, float]]]


class _Solver:
    """Caches for one calculation: forces interned to ints, volleys, casualties, results."""

    def __init__(self, catalog: Catalog, orders: Orders, attacker_can_retreat: bool) -> None:
        self.catalog = catalog
        self.orders = orders
        self.can_retreat = attacker_can_retreat
        self.forces: list[Force] = []
        self.ids: dict[Force, int] = {}
        self.caps: list[tuple[int, int, int]] = []
        self.hp: list[int] = []
        # Forces with a unit firing general hits (neither sub nor aircraft) in each role:
        # two such forces facing each other can always hit each other, so Step 6 has
        # nothing to check between them.
        self.sure: dict[str, list[bool]] = {ATTACK: [], DEFENSE: []}
        self.fire_cache: dict[tuple[int, str, bool], Dist] = {}
        self.fold_cache: dict[tuple[int, str, bool, bool, bool],
                              tuple[tuple[int, int, int, float], ...]] = {}
        self.take_cache: dict[tuple[int, str, int, int, int], int] = {}
        self.end_cache: dict[int, tuple[int, int, str | None]] = {}

    def fid(self, force: Force) -> int:
        i = self.ids.get(force)
        if i is None:
            i = len(self.forces)
            if i >= _KEY:
                raise WartableError("This battle is too large for the exact calculator.")
            self.ids[force] = i
            self.forces.append(force)
            k = c._capacity(force, self.catalog)
            self.caps.append((k[0], k[1], k[2]))
            self.hp.append(k[0] + k[1] + k[2])
            for role in (ATTACK, DEFENSE):
                self.sure[role].append(any(
                    g.kind == c.GENERAL for g in c.fire_groups(force, role, self.catalog)))
        return i

    def fire(self, i: int, role: str, skip_subs: bool) -> Dist:
        key = (i, role, skip_subs)
        d = self.fire_cache.get(key)
        if d is None:
            groups = c.fire_groups(self.forces[i], role, self.catalog, skip_subs=skip_subs)
            d = self.fire_cache[key] = hit_distribution(groups)
        return d

    def folded(self, i: int, role: str, skip_subs: bool, target: int,
               air_hits_subs: bool) -> tuple[tuple[int, int, int, float], ...]:
        """The volley of force i made canonical for the target: a restricted hit that can
        reach every unit of the target counts as general."""
        k_sub, _, k_oth = self.caps[target]
        fold_sub = k_oth == 0
        fold_air = k_sub == 0 or air_hits_subs
        key = (i, role, skip_subs, fold_sub, fold_air)
        out = self.fold_cache.get(key)
        if out is None:
            acc: dict[tuple[int, int, int], float] = {}
            for h, p in self.fire(i, role, skip_subs):
                g, a, s = h.general, h.air, h.sub
                if fold_sub:
                    g, s = g + s, 0
                if fold_air:
                    g, a = g + a, 0
                acc[(g, a, s)] = acc.get((g, a, s), 0.0) + p
            out = self.fold_cache[key] = tuple((g, a, s, p) for (g, a, s), p in acc.items())
        return out

    def take(self, i: int, owner: str, g: int, a: int, s: int, air_hits_subs: bool) -> int:
        """The force after its owner's casualties for these (canonical) hits."""
        if g == 0 and a == 0 and s == 0:
            return i
        key = (i, owner, g, a, s)
        j = self.take_cache.get(key)
        if j is None:
            order = self.orders.attacker if owner == ATTACK else self.orders.defender
            if a == 0 and s == 0 and g > 1:
                # General hits only: the order's choice for g hits is its choice for one
                # hit, g times over (a greedy prefix; tests check it), so each force needs
                # one casualty choice of one hit, shared by all forces along the chain.
                j = self.take(self.take(i, owner, 1, 0, 0, air_hits_subs), owner, g - 1, 0, 0,
                              air_hits_subs)
            else:
                after = c.take_hits(self.forces[i], Hits(g, a, s), order, self.catalog,
                                    air_hits_subs=air_hits_subs)
                j = self.fid(after)
            self.take_cache[key] = j
        return j

    def spread(self, firer: int, role: str, skip_subs: bool, target: int,
               air_hits_subs: bool) -> list[tuple[int, float]]:
        """Where the target ends after the firer's volley, with probabilities."""
        owner = DEFENSE if role == ATTACK else ATTACK
        hp = self.hp[target]
        out: dict[int, float] = {}
        for g, a, s, p in self.folded(firer, role, skip_subs, target, air_hits_subs):
            if a == 0 and s == 0 and g > hp:
                g = hp  # overkill: every unit is lost however many more hits
            j = self.take(target, owner, g, a, s, air_hits_subs)
            out[j] = out.get(j, 0.0) + p
        return list(out.items())

    def strike_spread(self, firer: int, role: str, target: int) -> dict[int, float]:
        owner = DEFENSE if role == ATTACK else ATTACK
        out: dict[int, float] = {}
        for h, p in hit_distribution(c.strike_groups(self.forces[firer], role, self.catalog)):
            # subs hit sea units only; in a sea battle with carrier fighters that matters
            j = self.take(target, owner, h.general, h.air, h.sub, False)
            out[j] = out.get(j, 0.0) + p
        return out

    def round(self, ia: int, idd: int, pending: Force = EMPTY) -> list[_Branch]:
        """One round from (attacker, defender), before Step 6, in factored form: for each
        outcome of Step 2, its probability, where the defender ends (Step 3) and where the
        attacker ends (Step 4), the two being independent. Mirrors `combat.fight_round`."""
        plan = c.round_plan(self.forces[ia], self.forces[idd], self.catalog)
        a_strike, d_strike = plan.attacker_strikes, plan.defender_strikes
        if a_strike or d_strike:
            d2 = self.strike_spread(ia, ATTACK, idd) if a_strike else {idd: 1.0}
            a2 = self.strike_spread(idd, DEFENSE, ia) if d_strike else {ia: 1.0}
            post2 = [(i, j, p * q) for i, p in a2.items() for j, q in d2.items()]
        else:
            post2 = [(ia, idd, 1.0)]
        out: list[_Branch] = []
        for i2, j2, p in post2:
            d3 = self.spread(i2, ATTACK, a_strike, j2, plan.attacker_air_hits_subs)
            firing = j2 if not pending else self.fid(self.forces[j2].plus(pending))
            a3 = self.spread(firing, DEFENSE, d_strike, i2, plan.defender_air_hits_subs)
            out.append((p, d3, a3))
        return out

    def end(self, key: int) -> tuple[int, int, str | None]:
        """Step 6 for a packed state: (attacker, defender, result or None)."""
        r = self.end_cache.get(key)
        if r is None:
            ia, idd = divmod(key, _KEY)
            st, res = c.conclude(BattleState(self.forces[ia], self.forces[idd]), self.catalog,
                                 attacker_can_retreat=self.can_retreat)
            r = self.end_cache[key] = (self.fid(st.attacker), self.fid(st.defender), res)
        return r


class _Tally:
    """Terminal states by (attacker, defender, result); statistics computed once at the end."""

    def __init__(self) -> None:
        self.ends: dict[tuple[int, int, str], float] = {}

    def add(self, ia: int, idd: int, result: str, p: float) -> None:
        key = (ia, idd, result)
        self.ends[key] = self.ends.get(key, 0.0) + p


def calculate(attacker: Force, defender: Force, catalog: Catalog, *,
              orders: Orders | None = None, bombard: Force = EMPTY,
              max_rounds: int | None = None, attacker_can_retreat: bool = True,
              prune: float = PRUNE,
              progress: Callable[[int], bool] | None = None,
              developments: BattleDevelopments | None = None) -> CalcResult:
    """Exact odds of a battle fought to the end, or for at most `max_rounds` rounds.

    `bombard`: battleships and cruisers bombarding before a landing (pg. 17); the caller
    keeps to the limit of one ship per seaborne land unit. Casualty orders default to
    `combat.default_orders`. AA guns in the defender fire before the first round (pg. 25).
    `prune`: paths less likely than this are dropped (0 keeps every one); what they carried
    is `CalcResult.unresolved`, about 1e-13 at most in the 40-unit benchmarks.
    `progress`: called with the number of states solved every 512 states; returning False
    cancels the calculation (`CalculationCancelled`), so a worker thread can stop it.
    `developments`: both sides' research results (Phase 1: Research & Development) that
    change unit values (Advanced Artillery, Super Submarines, Jet Fighters, Heavy Bombers,
    Radar); the catalog as given otherwise.
    """
    if developments is not None:
        catalog = developments.catalog(catalog)
    c.check_battle(attacker, defender, catalog, bombard)
    if max_rounds is not None and max_rounds < 1:
        raise WartableError("max_rounds must be at least 1 (or None to fight to the end).")
    orders = orders or c.default_orders(attacker, defender, catalog)
    s = _Solver(catalog, orders, attacker_can_retreat)
    tally = _Tally()
    rounds = 0.0

    # Before the first round: bombardment, then AA fire (combat.open_battle).
    openings: dict[tuple[Force, Force, Force], float] = {}
    bgroups = c.bombard_groups(bombard, catalog) if bombard else ()
    for h, pb in hit_distribution(bgroups):
        cas = c.select_casualties(defender, h, orders.defender, catalog, air_hits_subs=False)
        dfn = c.apply_casualties(defender, cas)
        pending = Force.of(dict(cas.lost))
        agroups = c.aa_groups(attacker, dfn.plus(pending), catalog)
        for acas, pa in _aa_distribution(agroups):
            start = (c.apply_casualties(attacker, acas), dfn, pending)
            openings[start] = openings.get(start, 0.0) + pb * pa

    sure_a, sure_d = s.sure[ATTACK], s.sure[DEFENSE]

    def settle(branches: list[_Branch], scale: float, into: dict[int, float],
               fresh: list[int] | None = None, skip: int = -1) -> None:
        """Step 6 for each next state (except `skip`): fight on (into, and new keys to
        fresh) or a result (tally). Products below `prune` are dropped: both factors are
        visited largest first, so the loops stop at the first one too small."""
        get = into.get
        for p, d3, a3 in branches:
            rows = sorted(((i3 * _KEY, scale * p * q2, sure_a[i3]) for i3, q2 in a3),
                          key=lambda r: -r[1])
            top = rows[0][1] if rows else 0.0
            for j3, q1 in sorted(d3, key=lambda r: -r[1]):
                if top * q1 < prune:
                    break
                sd = sure_d[j3]
                for base, w, sa in rows:
                    v = w * q1
                    if v < prune:
                        break
                    key = base + j3
                    if key == skip:
                        continue
                    if not (sa and sd):
                        fa, fd, res = s.end(key)
                        if res is not None:
                            tally.add(fa, fd, res, v)
                            continue
                        key = fa * _KEY + fd
                    old = get(key)
                    if old is None:
                        into[key] = v
                        if fresh is not None:
                            fresh.append(key)
                    else:
                        into[key] = old + v

    def stay(branches: list[_Branch], ia: int, idd: int) -> float:
        """P(the round changes nothing): both volleys leave their target as it was."""
        total = 0.0
        for p, d3, a3 in branches:
            total += p * sum(q for j, q in d3 if j == idd) * sum(q for i, q in a3 if i == ia)
        return total

    # Battles that need a first round: (attacker, defender, casualty zone, probability).
    starts: list[tuple[int, int, Force, float]] = []
    for (att, dfn, pending), p in openings.items():
        st, res = c.conclude(BattleState(att, dfn, pending), catalog,
                             attacker_can_retreat=attacker_can_retreat)
        if res is None:
            starts.append((s.fid(st.attacker), s.fid(st.defender), st.pending, p))
        else:
            tally.add(s.fid(st.attacker), s.fid(st.defender), res, p)

    solved = 0
    mass: dict[int, float] = {}
    if max_rounds is None:
        for ia, idd, pending, p in starts:
            if pending:  # the first round with the casualty zone still firing
                solved += 1
                rounds += p
                settle(s.round(ia, idd, pending), p, mass)
            else:
                mass[ia * _KEY + idd] = mass.get(ia * _KEY + idd, 0.0) + p
        # Solve states from the most hit points down: each is entered only from larger ones.
        heap = [(-(s.hp[k // _KEY] + s.hp[k % _KEY]), k) for k in mass]
        heapq.heapify(heap)
        while heap:
            _, key = heapq.heappop(heap)
            m = mass.pop(key, 0.0)
            if m < prune or m == 0.0:
                continue
            solved += 1
            if progress is not None and solved % 512 == 0 and not progress(solved):
                raise CalculationCancelled(f"Battle calculation cancelled after {solved} states.")
            ia, idd = divmod(key, _KEY)
            branches = s.round(ia, idd)
            p_stay = stay(branches, ia, idd)
            if p_stay >= 1.0 - 1e-12:  # nothing can change any more (not expected)
                tally.add(ia, idd, STALEMATE, m)
                continue
            scale = m / (1.0 - p_stay)  # the rounds in which nothing is hit, summed
            rounds += scale
            fresh: list[int] = []
            settle(branches, scale, mass, fresh, skip=key)
            for k in fresh:
                heapq.heappush(heap, (-(s.hp[k // _KEY] + s.hp[k % _KEY]), k))
    else:
        layer: dict[int, float] = {}
        for ia, idd, pending, p in starts:
            solved += 1
            rounds += p
            settle(s.round(ia, idd, pending), p, layer)
        for _ in range(max_rounds - 1):
            nxt_layer: dict[int, float] = {}
            for key, m in layer.items():
                solved += 1
                if progress is not None and solved % 512 == 0 and not progress(solved):
                    raise CalculationCancelled(
                        f"Battle calculation cancelled after {solved} states.")
                rounds += m
                settle(s.round(*divmod(key, _KEY)), m, nxt_layer)
            layer = nxt_layer
        for key, m in layer.items():
            ia, idd = divmod(key, _KEY)
            tally.add(ia, idd, RETREAT, m)
    return _result(s, tally, attacker, defender, rounds, solved)


def _result(s: _Solver, tally: _Tally, attacker: Force, defender: Force, rounds: float,
            solved: int) -> CalcResult:
    cat = s.catalog
    p = dict.fromkeys(RESULTS, 0.0)
    att: dict[Force, float] = {}
    dfn: dict[Force, float] = {}
    capture = att_loss = def_loss = 0.0
    att0, def0 = c.ipc_value(attacker, cat), c.ipc_value(defender, cat)
    for (ia, idd, res), m in tally.ends.items():
        a, d = s.forces[ia], c.fighting(s.forces[idd], cat)
        p[res] += m
        if res == ATTACKER_WINS and any(cat[u].capture for u, _ in a.units):
            capture += m
        att[a] = att.get(a, 0.0) + m
        dfn[d] = dfn.get(d, 0.0) + m
        att_loss += m * (att0 - c.ipc_value(a, cat))
        def_loss += m * (def0 - c.ipc_value(d, cat))

    def ranked(dist: dict[Force, float]) -> tuple[tuple[Force, float], ...]:
        return tuple(sorted(((f, q) for f, q in dist.items() if q > 0.0),
                            key=lambda fq: (-fq[1], fq[0].units, fq[0].damaged)))

    return CalcResult(
        attacker_win=p[ATTACKER_WINS], defender_win=p[DEFENDER_WINS], draw=p[DRAW],
        stalemate=p[STALEMATE], retreat=p[RETREAT], capture=capture,
        attacker_survivors=ranked(att), defender_survivors=ranked(dfn),
        attacker_ipc_loss=att_loss, defender_ipc_loss=def_loss,
        expected_rounds=rounds, states=solved,
    )
