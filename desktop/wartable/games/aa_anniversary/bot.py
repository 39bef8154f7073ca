"""A "fast" bot for Axis & Allies Anniversary (issue 7), and a match runner against random play.

The bot scores the prompt's legal candidates with simple rules:
  purchase        mostly infantry, every fourth unit armour, every sixth a fighter, within
                  the IPCs and the factories' production capacity
  combat move     land units only: move into an enemy territory when every land unit that can
                  reach it attacks with P(attacker wins) >= 0.6 (exact odds, `calculate`),
                  sending the fewest (cheapest first) that win >= 0.85, else all of them;
                  high-IPC territories and capitals first; empty enemy territory takes one unit
  battles         the default casualty choice; press while P(win) >= 0.4, else retreat
  noncombat move  land units step toward the own capital or the front (own territories next to
                  the enemy); aircraft and ships stay where they are (so they stay landed)
  mobilize        land units at the factory nearest the front
Pure: no `random`, no files, no clock. Tie-breaking uses `wartable.core.rng.Rng`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

from wartable.core.errors import IllegalAction, WartableError
from wartable.core.rng import Rng
from wartable.engine.actions import DICE, END_STEP, Action, Prompt
from wartable.engine.loop import deciding_side
from wartable.engine.randomplay import random_action
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.aa_anniversary.calculator import calculate
from wartable.games.aa_anniversary.combat import Force
from wartable.games.aa_anniversary.steps import battle, income, mobilize
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    allied,
    controller,
    ipcs,
    stats,
    world,
)
from wartable.model.state import GameState

LEVELS = ("fast", "random")
ATTACK_P = 0.6  # send an attack when the attacker wins at least this often
SEND_P = 0.85  # ...sending only as many units as win this often (when so many reach)
PRESS_P = 0.4  # keep fighting while the attacker wins at least this often
CALC_ROUNDS = 6  # battles are judged over at most this many rounds (keeps the odds fast)
_CALC_CACHE: dict[tuple[int, Force, Force], float] = {}
_CALC_CACHE_MAX = 20_000


# --- odds --------------------------------------------------------------------------------
def win_chance(game: Game, att: Force, dfn: Force) -> float:
    """P(the attacker wins and may capture), cached per forces (the cache is only a memo)."""
    if not att.units:
        return 0.0
    if not dfn.units:
        return 1.0
    cat = world(game).catalog
    key = (id(cat), att, dfn)
    hit = _CALC_CACHE.get(key)
    if hit is not None:
        return hit
    try:
        r = calculate(att, dfn, cat, max_rounds=CALC_ROUNDS, attacker_can_retreat=False)
        p = r.attacker_win
    except WartableError:
        p = 0.0
    if len(_CALC_CACHE) >= _CALC_CACHE_MAX:
        _CALC_CACHE.clear()
    _CALC_CACHE[key] = p
    return p


def _force(units: Iterable[str]) -> Force:
    d: dict[str, int] = {}
    for u in units:
        d[u] = d.get(u, 0) + 1
    return Force.of(d)


# --- map helpers -------------------------------------------------------------------------
def _land_distances(game: Game, sources: Iterable[str]) -> dict[str, int]:
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


def _enemy_land(game: Game, state: GameState, power: str) -> list[str]:
    w = world(game)
    return [
        s
        for s in sorted(w.land)
        if s not in w.neutral
        and controller(state, s)
        and not allied(game, controller(state, s), power)
    ]


def _front(game: Game, state: GameState, power: str) -> list[str]:
    """Own territories next to an enemy territory, and the own capital."""
    w = world(game)
    enemy = set(_enemy_land(game, state, power))
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
def _step_kind(game: Game, state: GameState) -> str:
    return str(game.positions[state.step_index].step.kind)


def _button(p: Prompt, verb: str) -> list[Action]:
    return [Action(b.id, p.side, b.args) for b in p.buttons if b.enabled and b.id == verb]


def _end(p: Prompt) -> list[Action]:
    return _button(p, END_STEP)


def _purchase(game: Game, state: GameState, p: Prompt) -> list[Action]:
    power = p.side
    have = ipcs(state, power)
    cap = sum(mobilize.room(game, state, f) for f in mobilize.factories(game, state, power))
    bought = sum(1 for q in state.pieces_at(MOBILIZATION) if q.side == power)
    buys = {str(a.args.get("unit")): a for a in _button(p, "buy")}
    if bought >= cap:
        return _end(p)
    want: list[str] = []
    if bought % 6 == 5:
        want.append("fighter")
    if bought % 4 == 3:
        want.append("armour")
    want.append("infantry")
    for u in want:
        if u in buys and world(game).catalog[u].cost <= have:
            return [buys[u]] + _end(p)
    return _end(p)


def _combat_move(game: Game, state: GameState, p: Prompt) -> list[Action]:
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
    for target, ms in movers.items():
        ctl = controller(state, target)
        enemy = battle.defenders(game, state, target, power)
        if not enemy and (not ctl or allied(game, ctl, power)):
            continue
        here = [q.type for q in battle.attackers(game, state, target, power)]
        if not enemy and here:
            continue  # already taken (one unit is enough for an empty territory)
        dfn = battle.force(enemy)
        if not enemy:
            ms = sorted(ms, key=lambda m: (w.catalog[m[1]].cost, m[0]))[:1]
        chance = win_chance(game, _force(here + [t for _, t in ms]), dfn)
        if chance < ATTACK_P:
            continue
        if enemy:  # the fewest units (cheapest first) that win often enough, else them all
            ms = sorted(ms, key=lambda m: (w.catalog[m[1]].cost, m[0]))
            for k in range(1, len(ms)):
                pk = win_chance(game, _force(here + [t for _, t in ms[:k]]), dfn)
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
    scored.sort(key=lambda x: (-x[0], x[1]))
    out: list[Action] = []
    for _, target in scored:
        for pid, _t in movers[target]:
            out.append(Action.make("move", power, piece=pid, to=target))
    return out + _end(p)


def _noncombat(game: Game, state: GameState, p: Prompt) -> list[Action]:
    w = world(game)
    power = p.side
    dist = _land_distances(game, _front(game, state, power))
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
    return [Action.make("move", power, piece=pid, to=d) for _, pid, d in best] + _end(p)


def _mobilize(game: Game, state: GameState, p: Prompt) -> list[Action]:
    power = p.side
    dist = _land_distances(game, _enemy_land(game, state, power))
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
    return acts + _end(p)


def _press(game: Game, state: GameState, p: Prompt) -> list[Action]:
    space = str(state.var("battle"))
    power = state.active_side
    att = battle.force(battle.attackers(game, state, space, power))
    dfn = battle.force(battle.defenders(game, state, space, power))
    press = _button(p, "press")
    retreat = _button(p, "retreat")
    if win_chance(game, att, dfn) >= PRESS_P or not retreat:
        return press + retreat
    return retreat + press


def ranked_actions(session: Session) -> list[Action]:
    """The bot's candidates for the deciding side, best first (legal proposals only)."""
    game, state = session.game, session.state
    side = deciding_side(state)
    p = session.prompt(side)
    ids = {b.id for b in p.buttons if b.enabled}
    if "casualties" in ids:
        return _button(p, "casualties")  # the first button is the default order
    if "press" in ids:
        return _press(game, state, p)
    if state.frames:
        return list(game.rules.candidate_actions(game, state, p))
    kind = _step_kind(game, state)
    if kind == "purchase":
        return _purchase(game, state, p)
    if kind == "combat_move":
        return _combat_move(game, state, p)
    if kind == "conduct_combat":
        return _button(p, "fight")[:1] + _end(p)
    if kind == "noncombat_move":
        return _noncombat(game, state, p)
    if kind == "mobilize":
        return _mobilize(game, state, p)
    return _end(p) + list(game.rules.candidate_actions(game, state, p))


def choose_action(session: Session, rng: Rng, level: str = "fast") -> tuple[Action, Rng]:
    """The bot's action for the deciding power: the best candidate the engine accepts."""
    if level == "random":
        return random_action(session, rng)
    if level != "fast":
        raise WartableError(f"Unknown bot level {level!r} (one of {', '.join(LEVELS)}).")
    side = deciding_side(session.state)
    p = session.prompt(side)
    if p.dice is not None:
        vals, rng = rng.roll_many(p.dice.count, p.dice.sides)
        return Action.make(DICE, side, values=vals), rng
    for a in ranked_actions(session):
        try:
            session.submit(a)
        except IllegalAction:
            continue
        return a, rng
    return random_action(session, rng)  # nothing scored was legal: any legal candidate


# --- matches -----------------------------------------------------------------------------
def _alliance_scores(game: Game, state: GameState) -> dict[str, tuple[int, int, int]]:
    """(victory condition met, victory cities, income) per alliance."""
    w = world(game)
    res = state.result or ""
    out: dict[str, tuple[int, int, int]] = {}
    for al, name in (("axis", "The Axis"), ("allies", "The Allies")):
        won = int(res.startswith(f"{name} win"))
        vc = income.victory_cities(game, state, al)
        inc = sum(income.production(game, state, p) for p, a in w.alliance.items() if a == al)
        out[al] = (won, vc, inc)
    return out


def play_match(
    game: Game,
    scenario: str,
    seed: int | str,
    bots: Mapping[str, str],
    rounds: int,
    max_actions: int = 20_000,
) -> dict[str, Any]:
    """Play a game with each power's bot level ("fast" or "random"; missing = random) until
    the game ends or `rounds` rounds are over. The winner: the victory conditions, then
    victory cities held, then income (issue 7's scoring)."""
    session = Session.start(game, scenario, seed=seed)
    first = (
        game.definition.scenarios[scenario].first_turn
        if scenario in game.definition.scenarios
        else 1
    )
    last = first + rounds - 1
    rng = Rng.from_seed(f"bot:{seed}")
    applied = refused = 0
    while session.state.result is None and session.state.turn <= last and applied < max_actions:
        side = deciding_side(session.state)
        action, rng = choose_action(session, rng, bots.get(side, "random"))
        try:
            session = session.submit(action)
        except IllegalAction:
            refused += 1
            if refused > 50 * (applied + 10):
                break
            continue
        applied += 1
    st = session.state
    scores = _alliance_scores(game, st)
    if scores["axis"] > scores["allies"]:
        winner = "axis"
    elif scores["allies"] > scores["axis"]:
        winner = "allies"
    else:
        winner = "draw"
    return {
        "seed": str(seed),
        "winner": winner,
        "turn": st.turn,
        "result": st.result,
        "actions": applied,
        "refused": refused,
        "scores": {k: list(v) for k, v in scores.items()},
        "bots": dict(sorted(bots.items())),
    }


def bot_selfplay(
    game: Game,
    scenario: str,
    bot_level: str,
    vs_level: str,
    games: int,
    rounds: int,
    seed: int | str = 1,
) -> dict[str, Any]:
    """`bot_level` plays the Axis in even games and the Allies in odd ones, `vs_level` the
    other alliance. win_rate counts a win as 1 and a draw as 1/2; bot_victory_cities and
    bot_income are the means of what the bot's alliance holds at the end."""
    w = world(game)
    results: list[dict[str, Any]] = []
    score = 0.0
    vc = inc = 0
    for g in range(games):
        side = "axis" if g % 2 == 0 else "allies"
        bots = {p: (bot_level if a == side else vs_level) for p, a in w.alliance.items()}
        r = play_match(game, scenario, f"{seed}.{g}", bots, rounds)
        r["bot_alliance"] = side
        score += 1.0 if r["winner"] == side else 0.5 if r["winner"] == "draw" else 0.0
        vc += int(r["scores"][side][1])
        inc += int(r["scores"][side][2])
        results.append(r)
    n = max(1, games)
    return {
        "game": game.definition.id,
        "scenario": scenario,
        "bot": bot_level,
        "vs": vs_level,
        "games": games,
        "rounds": rounds,
        "win_rate": score / games if games else 0.0,
        "bot_victory_cities": vc / n,
        "bot_income": inc / n,
        "results": results,
    }
