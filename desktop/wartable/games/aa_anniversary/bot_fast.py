"""The "fast" bot for Axis & Allies Anniversary (issue 7), and the pieces both bot levels use.

The bot scores the prompt's legal candidates with simple rules:
  purchase        mostly infantry, every fourth unit armour, every sixth a fighter, within
                  the IPCs and the factories' production capacity
  combat move     land units only: move into an enemy territory when every land unit that can
                  reach it attacks with P(attacker wins) >= 0.6 (exact odds, `calculate`,
                  with both sides' developments: `battle_developments`),
                  sending the fewest (cheapest first) that win >= 0.85, else all of them;
                  high-IPC territories and capitals first; empty enemy territory takes one unit
  battles         the default casualty choice; press while P(win) >= 0.4, else retreat
  noncombat move  land units step toward the own capital or the front (own territories next to
                  the enemy); aircraft and ships stay where they are (so they stay landed)
  mobilize        land units at the factory nearest the front
The "strong" level (bot_strong/) builds on this module's odds, map and prompt helpers; bot.py
picks the level. Pure: no `random`, no files, no clock.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from wartable.core.errors import WartableError
from wartable.engine.actions import END_STEP, Action, Prompt
from wartable.engine.loop import deciding_side
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.aa_anniversary.calculator import calculate
from wartable.games.aa_anniversary.combat import Force
from wartable.games.aa_anniversary.research import (
    BattleDevelopments,
    developments,
    research_table,
)
from wartable.games.aa_anniversary.steps import mobilize
from wartable.games.aa_anniversary.steps.battle import forces
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    allied,
    controller,
    ipcs,
    space_name,
    stats,
    world,
)
from wartable.model.state import GameState

ATTACK_P = 0.6  # send an attack when the attacker wins at least this often
SEND_P = 0.85  # ...sending only as many units as win this often (when so many reach)
PRESS_P = 0.4  # keep fighting while the attacker wins at least this often
CALC_ROUNDS = 6  # battles are judged over at most this many rounds (keeps the odds fast)
_CALC_CACHE: dict[
    tuple[int, Force, Force, int, frozenset[str], frozenset[str]],
    tuple[float, float, float, float],
] = {}
_CALC_CACHE_MAX = 20_000


# --- odds --------------------------------------------------------------------------------
def battle_developments(game: Game, state: GameState, attackers: Iterable[str],
                        defenders: Iterable[str]) -> BattleDevelopments | None:
    """The developments (Phase 1: Research & Development) of the powers on each side of a
    battle, for the calculator; None when neither side has one. Several enemy powers in one
    threat count the union of theirs (an upper bound: a decision of ours, the bot's guess)."""
    att: frozenset[str] = frozenset().union(*(developments(state, p) for p in set(attackers)))
    dfn: frozenset[str] = frozenset().union(*(developments(state, p) for p in set(defenders)))
    if not att and not dfn:
        return None
    return BattleDevelopments(research_table(game), att, dfn)


def battle_odds(
    game: Game, att: Force, dfn: Force, rounds: int = CALC_ROUNDS,
    devs: BattleDevelopments | None = None,
) -> tuple[float, float, float, float]:
    """(P(attacker wins), P(it wins and can capture), attacker's and defender's expected
    IPC loss) over at most `rounds` rounds with the sides' developments `devs` (see
    `battle_developments`), cached per forces (the cache is only a memo)."""
    if not att.units:
        return (0.0, 0.0, 0.0, 0.0)
    cat = world(game).catalog
    if not dfn.units:
        cap = any(cat[u].capture for u, _ in att.units)
        return (1.0, 1.0 if cap else 0.0, 0.0, 0.0)
    empty: frozenset[str] = frozenset()
    key = (id(cat), att, dfn, rounds, devs.attacker if devs else empty,
           devs.defender if devs else empty)
    hit = _CALC_CACHE.get(key)
    if hit is not None:
        return hit
    try:
        r = calculate(att, dfn, cat, max_rounds=rounds, attacker_can_retreat=False,
                      developments=devs)
        out = (r.attacker_win, r.capture, r.attacker_ipc_loss, r.defender_ipc_loss)
    except WartableError:
        out = (0.0, 0.0, 0.0, 0.0)
    if len(_CALC_CACHE) >= _CALC_CACHE_MAX:
        _CALC_CACHE.clear()
    _CALC_CACHE[key] = out
    return out


def win_chance(game: Game, att: Force, dfn: Force,
               devs: BattleDevelopments | None = None) -> float:
    """P(the attacker wins and may capture) over CALC_ROUNDS rounds."""
    if not att.units:
        return 0.0
    if not dfn.units:
        return 1.0
    return battle_odds(game, att, dfn, devs=devs)[0]


def force_of(units: Iterable[str]) -> Force:
    d: dict[str, int] = {}
    for u in units:
        d[u] = d.get(u, 0) + 1
    return Force.of(d)


# --- map helpers -------------------------------------------------------------------------
def land_distances(game: Game, sources: Iterable[str]) -> dict[str, int]:
    """Land-path distances from the sources (breadth first over land territories)."""
    w = world(game)
    dist: dict[str, int] = {}
    q: deque[str] = deque()
    for s in sorted(set(sources)):
        if s in w.land:
            dist[s] = 0
            q.append(s)
    while q:
        s = q.popleft()
        for n in w.neighbors[s]:
            if n in w.land and n not in w.neutral and n not in dist:
                dist[n] = dist[s] + 1
                q.append(n)
    return dist


def enemy_land(game: Game, state: GameState, power: str) -> list[str]:
    w = world(game)
    return [
        s
        for s in sorted(w.land)
        if s not in w.neutral
        and controller(state, s)
        and not allied(game, controller(state, s), power)
    ]


def front(game: Game, state: GameState, power: str) -> list[str]:
    """Own territories next to an enemy territory, and the own capital."""
    w = world(game)
    enemy = set(enemy_land(game, state, power))
    out = [
        s
        for s in sorted(w.land)
        if controller(state, s) == power and any(n in enemy for n in w.neighbors[s])
    ]
    cap = w.capital.get(power)
    if cap is not None and controller(state, cap) == power:
        out.append(cap)
    return out


# --- the decision per prompt -------------------------------------------------------------
def step_kind(game: Game, state: GameState) -> str:
    return str(game.positions[state.step_index].step.kind)


def button(p: Prompt, verb: str) -> list[Action]:
    return [Action(b.id, p.side, b.args) for b in p.buttons if b.enabled and b.id == verb]


def end_buttons(p: Prompt) -> list[Action]:
    return button(p, END_STEP)


def _purchase(game: Game, state: GameState, p: Prompt) -> list[tuple[Action, str]]:
    power = p.side
    have = ipcs(state, power)
    cap = sum(mobilize.room(game, state, f) for f in mobilize.factories(game, state, power))
    bought = sum(1 for q in state.pieces_at(MOBILIZATION) if q.side == power)
    buys = {str(a.args.get("unit")): a for a in button(p, "buy")}
    if bought >= cap:
        return _plain(end_buttons(p))
    want: list[str] = []
    if bought % 6 == 5:
        want.append("fighter")
    if bought % 4 == 3:
        want.append("armour")
    want.append("infantry")
    why = "Buy mostly infantry, every fourth unit armour, every sixth a fighter" \
        if bought == 0 else ""
    for u in want:
        if u in buys and world(game).catalog[u].cost <= have:
            return [(buys[u], why)] + _plain(end_buttons(p))
    return _plain(end_buttons(p))


def _combat_move(game: Game, state: GameState, p: Prompt) -> list[tuple[Action, str]]:
    w = world(game)
    power = p.side
    movers: dict[str, list[tuple[str, str]]] = {}  # target -> (piece id, unit type)
    for pid, dests in sorted(p.moves.items()):
        piece = state.pieces[pid]
        s = stats(game, piece)
        if not s.land or piece.attrs.get("on") or piece.location not in w.land:
            continue
        for d in dests:
            if d in w.land and d not in w.neutral:
                movers.setdefault(d, []).append((pid, piece.type))
    scored: list[tuple[float, str]] = []
    odds: dict[str, float] = {}
    for target, ms in movers.items():
        ctl = controller(state, target)
        enemy = forces.defenders(game, state, target, power)
        if not enemy and (not ctl or allied(game, ctl, power)):
            continue
        here = [q.type for q in forces.attackers(game, state, target, power)]
        if not enemy and here:
            continue  # already taken (one unit is enough for an empty territory)
        dfn = forces.force(enemy)
        devs = battle_developments(game, state, [power], {q.side for q in enemy})
        if not enemy:
            ms = sorted(ms, key=lambda m: (w.catalog[m[1]].cost, m[0]))[:1]
        chance = win_chance(game, force_of(here + [t for _, t in ms]), dfn, devs)
        if chance < ATTACK_P:
            continue
        if enemy:  # the fewest units (cheapest first) that win often enough, else them all
            ms = sorted(ms, key=lambda m: (w.catalog[m[1]].cost, m[0]))
            for k in range(1, len(ms)):
                pk = win_chance(game, force_of(here + [t for _, t in ms[:k]]), dfn, devs)
                if pk >= SEND_P:
                    ms, chance = ms[:k], pk
                    break
        value = (
            w.ipc.get(target, 0)
            + (10 if target in w.capital.values() else 0)
            + (3 if target in w.victory else 0)
        )
        scored.append((value + chance, target))
        movers[target] = ms
        odds[target] = chance
    scored.sort(key=lambda x: (-x[0], x[1]))
    out: list[tuple[Action, str]] = []
    for _, target in scored:
        why = (f"Attack {space_name(game, target)}: {odds[target]:.0%} win, "
               f"{len(movers[target])} units")
        for i, (pid, _t) in enumerate(movers[target]):
            out.append((Action.make("move", power, piece=pid, to=target), why if i == 0 else ""))
    return out + _plain(end_buttons(p))


def _noncombat(game: Game, state: GameState, p: Prompt) -> list[Action]:
    w = world(game)
    power = p.side
    dist = land_distances(game, front(game, state, power))
    best: list[tuple[int, str, str]] = []
    for pid, dests in sorted(p.moves.items()):
        piece = state.pieces[pid]
        s = stats(game, piece)
        if not s.land or piece.attrs.get("on") or piece.location not in dist:
            continue
        here = dist[piece.location]
        if here == 0:
            continue
        for d in dests:
            if (
                d in dist
                and d in w.land
                and controller(state, d)
                and allied(game, controller(state, d), power)
                and dist[d] < here
            ):
                best.append((dist[d] - here, pid, d))
    best.sort()
    return [Action.make("move", power, piece=pid, to=d) for _, pid, d in best] + end_buttons(p)


def _mobilize(game: Game, state: GameState, p: Prompt) -> list[Action]:
    power = p.side
    dist = land_distances(game, enemy_land(game, state, power))
    out: list[tuple[int, str, str]] = []
    for pid, dests in sorted(p.moves.items()):
        for d in dests:
            out.append((dist.get(d, 99), pid, d))
    out.sort()
    seen: set[str] = set()
    acts: list[Action] = []
    for _, pid, d in out:
        if pid not in seen:
            seen.add(pid)
            acts.append(Action.make("move", power, piece=pid, to=d))
    return acts + end_buttons(p)


def press_or_retreat(game: Game, state: GameState, p: Prompt) -> list[Action]:
    space = str(state.var("battle"))
    power = state.active_side
    dfn_pieces = forces.defenders(game, state, space, power)
    att = forces.force(forces.attackers(game, state, space, power))
    dfn = forces.force(dfn_pieces)
    devs = battle_developments(game, state, [power], {q.side for q in dfn_pieces})
    press = button(p, "press")
    retreat = button(p, "retreat")
    if win_chance(game, att, dfn, devs) >= PRESS_P or not retreat:
        return press + retreat
    return retreat + press


def raid_choice(game: Game, state: GameState, p: Prompt) -> list[tuple[Action, str]]:
    """Strategic Bombing Raids (pg. 17), decided before the battles: bombers that came
    with an attack join its battle; bombers alone over an enemy factory raid it."""
    out: list[tuple[Action, str]] = []
    for b in p.buttons:
        if not b.enabled or b.id not in ("raid", "no_raid"):
            continue
        space = str(b.args.get("space"))
        battle_there = bool(forces.defenders(game, state, space, p.side))
        if b.id == "no_raid" and battle_there:
            out.append((Action(b.id, p.side, b.args), ""))
            break
        if b.id == "raid" and not battle_there:  # the first: all its bombers and escorts
            out.append((Action(b.id, p.side, b.args),
                        f"Strategic bombing raid on {space_name(game, space)}"))
            break
    return out


def _plain(actions: Iterable[Action]) -> list[tuple[Action, str]]:
    return [(a, "") for a in actions]


def ranked_actions(session: Session) -> list[Action]:
    """The bot's candidates for the deciding side, best first (legal proposals only)."""
    return [a for a, _why in ranked_explained(session)]


def ranked_explained(session: Session) -> list[tuple[Action, str]]:
    """`ranked_actions` with the reasons the fast bot gives (purchase and attacks)."""
    game, state = session.game, session.state
    side = deciding_side(state)
    p = session.prompt(side)
    ids = {b.id for b in p.buttons if b.enabled}
    if "casualties" in ids:
        return _plain(button(p, "casualties"))  # the first button is the default order
    if "press" in ids:
        return _plain(press_or_retreat(game, state, p))
    if state.frames:
        return _plain(game.rules.candidate_actions(game, state, p))
    kind = step_kind(game, state)
    if kind == "purchase":
        return _purchase(game, state, p)
    if kind == "combat_move":
        return _combat_move(game, state, p)
    if kind == "conduct_combat":
        # Every battle, in order: the engine may want one first (a sea battle before the
        # landing it covers, Amphibious Assaults pg. 17); the trial submit finds it.
        return raid_choice(game, state, p) + _plain(button(p, "fight") + end_buttons(p))
    if kind == "noncombat_move":
        return _plain(_noncombat(game, state, p))
    if kind == "mobilize":
        return _plain(_mobilize(game, state, p))
    return _plain(end_buttons(p) + list(game.rules.candidate_actions(game, state, p)))
