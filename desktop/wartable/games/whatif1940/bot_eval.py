"""What the 1940: What If? bot weighs (issue 7): the worth of an attack on the CRT, which
attack to declare, and how good a hex is for a unit to end its move in. Pure functions of
the state, tested on small hand-made positions (tests/games/whatif1940/test_w40_bot.py).

Every function here reads `state` as the deciding side's view (bot_view.view): the bot
never looks beneath the top of an enemy stack [7.3].

Roles: the German on the east map and the Anglo-French on the west map attack (toward
Moscow and Leningrad; toward the Ruhr [4.2]); the Soviet and the German on the west map hold
a line in front of what they must keep (Moscow [4.3]; the Ruhr [4.2]).

Levels: "fast" moves toward the objective and attacks at 2:1 or better with every adjacent
unit; "strong" also keeps units in supply [6.2, 6.7], avoids lone units next to several
enemy stacks, stacks armour, fills the key hexes the enemy can reach (two units where it is
close), attacks best column first (the attacker from 2:1, the defender from 3:1 except on
a city; concentric attacks [11.10] preferred) with the fewest units that keep the column,
keeps the units a key hex wants in place (no advance out of it [11.13]; the German west
never sends them into an attack), and never leaves Moscow empty with a German in reach.
The strong Soviet also rings Moscow (its six neighbours, one unit each) once a German stack
is within two German moves, and counts a German-held Moscow as its key hex (the Moscow
Falls rolls go on while it is held [4.3]); the strong German west screens the Ruhr (the
hexes in front of it on the French side, `screen`): two corps in each Ruhr hex an Allied
unit can reach next turn, one in each such screen hex (`wanted`), the rest drawn toward
the Ruhr (GATHER), the other west cities left (they do not decide the game [4.2-4.4]),
and every Allied stack next to a Ruhr hex counterattacked from 2:1 (`ruhr_threats`); a
Ruhr hex short of its two corps takes a screen holder (`fill_keys`), and a reduced corps
there makes room for a full one (`swap_out`). The strong German east keeps a full stack
(MOSCOW_HOLD) in a Moscow it has taken [4.3] and attacks Moscow counting every ready
Luftwaffe unit [8.4].
Every Anglo-French level drives on the Ruhr alone [4.2]: German cities elsewhere are no
goal (the strong level once aimed at them and lost the race against Moscow), and the strong
Anglo-French close up to the German line even one corps to a hex (the lone-unit penalty is
the German east's only: with it they stood off the Ruhr screen and lost the race).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from wartable.engine.rules import Game
from wartable.games.whatif1940 import air, supply, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import (
    ANGLO_FRENCH,
    DEAD,
    EAST,
    FRANCE,
    GERMAN,
    LENINGRAD,
    MOSCOW,
    SOVIET,
    WEST,
)
from wartable.games.whatif1940.steps import combat, combat_odds, control, movement, stacking
from wartable.model.state import GameState, Piece

# The attacker's worth of each CRT result [11.14-11.20]: ours, for ranking columns only.
RESULT_VALUE = {"DE": 3.0, "DR": 1.5, "DL1": 1.0, "BB": 0.3, "AS": 0.0, "AL1": -1.5}
FAST_COLUMN = "2-1"  # the fast level attacks at this column or better
COUNTER_COLUMN = "2-1"  # strong German west: counterattacks next to the Ruhr [4.2]
# (from 1:1 a BB/AL1 bled the Ruhr's holders, whose hex then fell to the next Allied
# DR/BB [11.19, 11.20]: 2:1 measured +0.15 for the German over 48 games)
STRONG_COLUMN = "3-1"  # the strong level's usual minimum [issue 7: "prefer >= 3:1"]
KEY_FILL = 4.0  # fill_keys fills the key hexes worth this much: the Ruhr, Moscow, Leningrad
KEY_FIRST = 5.0  # strong: these first (the Ruhr, Moscow, Leningrad), then swap_out, then
# the rest (the Ruhr screen, the Moscow ring)
GATHER = 0.6  # strong German west: the pull toward the Ruhr per hex [4.2] (others 0.25)
RUHR_SCREEN = 4.0  # strong German west: the hexes in front of the Ruhr (bot_eval.screen)
MOSCOW_RING = 4.5  # strong Soviet: Moscow's neighbours, held once a German can reach Moscow
MOSCOW_HOLD = 3  # strong German: units kept in a taken Moscow (the east stacking limit [7.4])
AIR_TARGETS: tuple[str, ...] = (MOSCOW,)  # strong German: every ready aircraft attacks these
GERMAN_REACH = 13  # hexes a German stack may cover in one east movement phase (12 MF + 1)
RING_REACH = 2 * GERMAN_REACH  # the ring is manned two German moves ahead (Soviets are slow)
LONE_PENALTY = 3.0  # strong German east: a lone unit next to two or more enemy stacks
FAR = 99


# --- attacks ------------------------------------------------------------------------------

def columns(game: Game) -> tuple[str, ...]:
    return tuple(game.definition.tables["combat"]["columns"])


def column_rank(game: Game, column: str | None) -> int:
    """The column's place on the CRT ladder (0 = 1:3); -1 below the ladder (auto AL1)."""
    cols = columns(game)
    return cols.index(column) if column in cols else -1


def column_value(game: Game, column: str | None) -> float:
    """The attacker's mean result over the die on this CRT column [11.3]."""
    if column is None or column not in columns(game):
        return RESULT_VALUE["AL1"]
    row = game.definition.tables["combat"]["crt"][column]
    return sum(RESULT_VALUE.get(str(r), 0.0) for r in row) / len(row)


@dataclass(frozen=True)
class Attack:
    target: str
    attackers: tuple[str, ...]
    column: str | None
    value: float  # CRT worth + target worth
    concentric: bool
    text: str


def target_worth(board: Board, state: GameState, side: str, target: str) -> float:
    """How much taking `target` matters: the Ruhr wins for the Allies [4.2], Moscow and
    Leningrad matter most in the east [4.3], then any city."""
    h = board.hex(target)
    if side == ANGLO_FRENCH and h.ruhr:
        return 10.0
    if side == GERMAN and target == MOSCOW:
        return 4.0
    if side == GERMAN and target == LENINGRAD:
        return 2.0
    if h.city and side != GERMAN:
        return 1.5  # a city taken back or taken from Germany counts [3.12, 4.4]
    return 0.5 if h.city else 0.0


def _strength(game: Game, state: GameState, p: Piece, defense: bool) -> int:
    f = combat_odds.factors(game, state, p) or combat_odds.typical(game, p)
    return f[1] if defense else f[0]


def evaluate_attack(game: Game, board: Board, state: GameState, side: str, target: str,
                    ids: Sequence[str], planes: int = 0) -> Attack | None:
    """The attack's odds on `state`, the side's view (bot_view.view): every unit there
    counts, the stand-ins for those hidden beneath a top included [7.3]; `planes`: the
    aircraft the side will commit, a column each [8.4]."""
    attackers = [state.piece(i) for i in ids if i in state.pieces]
    attackers = [p for p in attackers if combat_odds.may_attack(game, p)]
    if not attackers or target not in board.hexes or (
            not combat_odds.defenders(game, state, target, side)
            and not combat_odds.garrison_defends(game, board, state, target, side)):
        return None
    pv = combat_odds.compute(game, board, state, attackers, target, air_attack=planes)
    col = None if pv.automatic_al1 else pv.odds.final_column
    conc = combat_odds.concentric(game, board, target,
                                  {state.piece(i).location for i in ids})
    value = column_value(game, col) + target_worth(board, state, side, target)
    return Attack(target, tuple(ids), col, value, conc, pv.text())


def trim(game: Game, board: Board, state: GameState, side: str, a: Attack,
         planes: int = 0) -> Attack:
    """The fewest attackers (weakest dropped first) that keep the final column, so the rest
    can attack elsewhere [11.4]; concentric attacks stay concentric [11.10]."""
    best = a
    order = sorted(best.attackers, key=lambda i: (_strength(game, state, state.piece(i),
                                                            False), i))
    for pid in order:
        if len(best.attackers) == 1:
            break
        rest = tuple(i for i in best.attackers if i != pid)
        t = evaluate_attack(game, board, state, side, a.target, rest, planes)
        if t is None or column_rank(game, t.column) < column_rank(game, a.column):
            continue
        if a.concentric and not t.concentric:
            continue
        best = t
    return best


def attack_options(game: Game, board: Board, state: GameState, side: str, map_id: str,
                   level: str) -> list[Attack]:
    """The attacks worth declaring now, best first: every target with all the units that
    may attack it [11.1-11.7], kept at the level's minimum column; the strong level trims
    each to the fewest units that keep its column."""
    found = combat.targets(game, board, state, side, map_id)
    least = column_rank(game, STRONG_COLUMN if level == "strong" else FAST_COLUMN)
    keep: frozenset[str] = frozenset()
    if level == "strong" and side == GERMAN and role(side, map_id) == "defend":  # the Ruhr
        # stays held [4.2] (the Soviet's holders still counterattack: measured better; the
        # Ruhr's holders only from 3:1 was measured worse: fewer Allied corps die [4.4])
        ctx = context(game, board, state, side, map_id, level)
        keep = frozenset(p.id for ps in ctx.friends.values() for p in ps if holds(ctx, p))
    threats = ruhr_threats(board, state, target_hexes=found) if keep else frozenset()
    out: list[Attack] = []
    for target, ps in sorted(found.items()):
        # An Allied stack next to the Ruhr is hit by everything in reach, holders too:
        # they fight from where they stand and do not advance out of it [11.13, 4.2].
        ids = tuple(p.id for p in ps if p.id not in keep or target in threats)
        if not ids:
            continue
        # The strong German sends every aircraft against Moscow [4.3, 8.4] (bot.py)
        planes = len(air.available(game, state, side, map_id, "attack")) \
            if level == "strong" and side == GERMAN and target in AIR_TARGETS else 0
        a = evaluate_attack(game, board, state, side, target, ids, planes)
        if a is None:
            continue
        need = least
        if level == "strong" and (role(side, map_id) == "attack" or board.hex(target).city):
            need = min(need, column_rank(game, FAST_COLUMN))  # the attacker; cities count
        if target in threats:
            need = min(need, column_rank(game, COUNTER_COLUMN))
        if column_rank(game, a.column) < need:
            continue
        if level == "strong":
            a = trim(game, board, state, side, a, planes)
        out.append(a)
    bonus = 0.5 if level == "strong" else 0.0
    out.sort(key=lambda a: (-(a.value + (bonus if a.concentric else 0.0)), a.target))
    return out


def threat(game: Game, board: Board, state: GameState, side: str, hex_id: str) -> int:
    """The attack strength of the enemy ground units next to the hex (as seen [7.3])."""
    near = set(board.neighbors.get(hex_id, ()))
    return sum(_strength(game, state, p, False) for p in state.pieces.values()
               if p.location in near and units.enemies(p.side, side)
               and units.is_ground(game, p) and not combat_odds.neutral_unit(game, state, p))


def ruhr_threats(board: Board, state: GameState,
                 target_hexes: Iterable[str]) -> frozenset[str]:
    """Of the target hexes, those next to a Ruhr hex [4.2]: the strong German west's
    counterattacks."""
    return frozenset(t for t in target_hexes
                     if any(board.hex(n).ruhr for n in board.neighbors[t]
                            if board.map_of(n) == WEST))


# --- movement -------------------------------------------------------------------------------

def role(side: str, map_id: str) -> str:
    """"attack" or "defend" (see the module text)."""
    if (side == GERMAN and map_id == EAST) or (side == ANGLO_FRENCH and map_id == WEST):
        return "attack"
    return "defend"


@dataclass
class MoveContext:
    """What one side sees on one map before a move: stacks, distances, objectives."""

    game: Game
    board: Board
    state: GameState
    side: str
    map_id: str
    level: str
    enemy: dict[str, int]  # hex -> enemy defense strength there
    friends: dict[str, list[Piece]]  # hex -> own ground units
    dist_enemy: dict[str, int]
    dist_goal: dict[str, float]  # weighted distance to the objectives (lower = better)
    keys: dict[str, float]  # hexes to hold -> worth
    _supplied: dict[Any, frozenset[str]] = field(default_factory=dict)

    def supplied_at(self, p: Piece, hex_id: str) -> bool:
        key = (units.nation(self.game, p), units.mobility(self.game, p))
        got = self._supplied.get(key)
        if got is None:
            if self.board.map_of(p.location) != self.map_id:  # a reinforcement: as if here
                p = replace(p, location=hex_id)
            got = self._supplied[key] = supply.supplied_hexes(self.game, self.board,
                                                              self.state, p)
        return hex_id in got


def _weighted(board: Board, goals: dict[str, float]) -> dict[str, float]:
    """min over goals of (hexes to the goal - its bonus). Kept on the board: the goals
    (cities held) rarely change from one move to the next. Read-only for callers."""
    key = ("bot_weighted", tuple(sorted(goals.items())))
    hit: dict[str, float] | None = board.memo.get(key)
    if hit is not None:
        return hit
    out: dict[str, float] = {}
    for g, bonus in goals.items():
        for h, d in board.distances([g], FAR).items():
            v = d - bonus
            if v < out.get(h, float(FAR)):
                out[h] = v
    board.memo[key] = out
    return out


def context(game: Game, board: Board, state: GameState, side: str, map_id: str,
            level: str) -> MoveContext:
    enemy: dict[str, int] = {}
    friends: dict[str, list[Piece]] = {}
    for p in state.pieces.values():
        if board.map_of(p.location) != map_id or not units.is_ground(game, p):
            continue
        if units.enemies(p.side, side) and not combat_odds.neutral_unit(game, state, p):
            enemy[p.location] = enemy.get(p.location, 0) + _strength(game, state, p, True)
        elif p.side == side:
            friends.setdefault(p.location, []).append(p)
    dist_enemy = board.distances(enemy, FAR) if enemy else {}
    goals: dict[str, float] = {}
    keys: dict[str, float] = {}
    if side == GERMAN and map_id == EAST:
        for h in board.labels(EAST):
            if board.hex(h).city and control.controller(board, state, h) == SOVIET:
                goals[h] = 6.0 if h == MOSCOW else 4.0 if h == LENINGRAD else 0.0
        if level == "strong":  # keep Moscow for the Moscow Falls rolls [4.3]
            keys = {h: w for h, w in ((MOSCOW, 8.0), (LENINGRAD, 5.0))
                    if control.controller(board, state, h) == GERMAN}
    elif side == ANGLO_FRENCH:  # the Ruhr wins [4.2]: every level drives on it alone
        for h in board.labels(WEST):
            x = board.hex(h)
            if x.ruhr:
                goals[h] = 3.0
    elif side == SOVIET:
        for h in board.labels(EAST):
            if board.hex(h).city and control.controller(board, state, h) == SOVIET:
                keys[h] = 8.0 if h == MOSCOW else 5.0 if h == LENINGRAD else 1.5
        goals = {MOSCOW: 0.0}
        if level == "strong":
            keys[MOSCOW] = 8.0  # taken back too: the Moscow Falls rolls go on while held [4.3]
            if dist_enemy.get(MOSCOW, FAR) <= RING_REACH:
                for n in board.neighbors[MOSCOW]:  # the ring: no German next to Moscow [4.3]
                    if board.map_of(n) == EAST:
                        keys.setdefault(n, MOSCOW_RING)
    else:  # the German in the west keeps the Ruhr [4.2] and the cities before it
        for h in board.labels(WEST):
            x = board.hex(h)
            if x.city and control.controller(board, state, h) == GERMAN and \
                    (x.ruhr or level != "strong"):  # strong: the Ruhr alone decides [4.2]
                keys[h] = 6.0 if x.ruhr else 2.0
        goals = {h: 0.0 for h in board.labels(WEST) if board.hex(h).ruhr}
        if level == "strong":  # a screen: no Allied stack next to a Ruhr hex [4.2]
            keys.update({h: RUHR_SCREEN for h in screen(board, state) if h not in keys})
    return MoveContext(game, board, state, side, map_id, level, enemy, friends, dist_enemy,
                       _weighted(board, goals) if goals else {}, keys)


def screen(board: Board, state: GameState) -> list[str]:
    """The hexes in front of the Ruhr [4.2]: those next to a Ruhr hex, not Ruhr hexes
    themselves, nearer France than that Ruhr hex (the way the Anglo-French come)."""
    ruhr = [h for h in board.labels(WEST) if board.hex(h).ruhr]
    france = board.distances([h for h in board.labels(WEST) if board.hex(h).region == FRANCE],
                             FAR)
    out: set[str] = set()
    for r in ruhr:
        for n in board.neighbors[r]:
            if board.map_of(n) == WEST and not board.hex(n).ruhr and \
                    france.get(n, FAR) < france.get(r, FAR):
                out.add(n)
    return sorted(out)


def exposure(ctx: MoveContext, hex_id: str) -> int:
    """Enemy stacks next to the hex."""
    return sum(1 for n in ctx.board.neighbors[hex_id] if n in ctx.enemy)


def _terrain_bonus(board: Board, hex_id: str) -> float:
    h = board.hex(hex_id)
    return 0.6 if h.terrain in ("hill", "forest", "marsh") or h.city or h.fortified else 0.0


def dest_score(ctx: MoveContext, p: Piece, hex_id: str) -> float:
    """How good it is for `p` to end its move in `hex_id` (higher is better)."""
    game, board = ctx.game, ctx.board
    strong = ctx.level == "strong"
    here = [q for q in ctx.friends.get(hex_id, []) if q.id != p.id]
    goal = ctx.dist_goal.get(hex_id, float(FAR))
    dist_e = ctx.dist_enemy.get(hex_id, FAR)
    adj = exposure(ctx, hex_id)
    s = 0.0
    if role(ctx.side, ctx.map_id) == "attack":
        s -= goal
        if hex_id in ctx.keys:
            s += ctx.keys[hex_id] * _key_share(ctx, hex_id, len(here))
        if adj:  # in contact: sets up the next prepared assault
            weakest = min(ctx.enemy[n] for n in board.neighbors[hex_id] if n in ctx.enemy)
            s += 1.0 + (1.0 if weakest <= 2 else 0.0)
        if strong:
            if adj >= 2 and not here and ctx.side == GERMAN:
                # a lone unit next to several enemy stacks [issue 7: coherent front]; not
                # the Anglo-French: every hex in reach of the Ruhr touches two German
                # stacks of its screen, and holding back lost them the race [4.2]
                s -= LONE_PENALTY
            if units.is_mech(game, p):
                s += 0.8 * sum(1 for q in here if units.is_mech(game, q))  # panzer stacks
            else:
                s += 0.4 * min(len(here), 1)
    else:
        s -= (GATHER if ctx.side == GERMAN and strong else 0.25) * goal
        if hex_id in ctx.keys:
            s += ctx.keys[hex_id] * _key_share(ctx, hex_id, len(here))
        if dist_e < FAR:  # the Soviet holds a line; the German west holds the Ruhr first
            w = 0.3 if ctx.side != SOVIET else 0.4 if strong else 0.7
            s -= w * abs(dist_e - (1 if ctx.level == "fast" else 2))
        if strong:
            s += _terrain_bonus(board, hex_id)
            s += 0.5 * min(len(here), 2)
            if adj >= 2 and not here:
                s -= 2.5
            elif adj and here:  # counterattack weak stacks from a stacked line [issue 7]
                weakest = min(ctx.enemy[n] for n in board.neighbors[hex_id] if n in ctx.enemy)
                s += 0.5 if weakest <= 2 else 0.0
    if strong and not ctx.supplied_at(p, hex_id) and not adj:
        s -= 6.0  # out of supply and not attacking [6.2, 6.7]
    return s


def moscow_threatened(ctx: MoveContext) -> bool:
    """A German stack is within reach of Moscow [4.3]."""
    return ctx.side == SOVIET and ctx.dist_enemy.get(MOSCOW, FAR) <= GERMAN_REACH


def wanted(ctx: MoveContext, hex_id: str) -> int:
    """Strong: units wanted in a key hex. Defending: two with an enemy stack within two
    hexes, one with an enemy within reach next turn, else none; Moscow two more [4.3].
    Attacking (a prize taken, e.g. Moscow for the Moscow Falls rolls): two or one."""
    if hex_id not in ctx.keys:
        return 0
    d = ctx.dist_enemy.get(hex_id, FAR)
    if role(ctx.side, ctx.map_id) == "attack":  # a prize taken: held whatever the threat
        if hex_id == MOSCOW:  # a full stack: each turn held is a Moscow Falls roll [4.3]
            return MOSCOW_HOLD
        return 2 if d <= 2 else 1
    if ctx.side == GERMAN and ctx.map_id == WEST and ctx.level == "strong":
        # The Ruhr first: two units in each Ruhr hex an enemy can reach, one in its screen
        # (a lone unit in a Ruhr hex falls to any stack next to it [4.2])
        near = d <= threat_range(ctx)
        return (2 if ctx.board.hex(hex_id).ruhr else 1) if near else 0
    extra = 2 if hex_id == MOSCOW else 0  # Moscow falling ends the game [4.3]
    ring = ctx.side == SOVIET and hex_id in ctx.board.neighbors[MOSCOW]
    return 2 + extra if d <= 2 else 1 + extra if d <= threat_range(ctx) or ring else 0


def _key_share(ctx: MoveContext, hex_id: str, others: int) -> float:
    """How much of a key hex's worth one more unit there earns, `others` being there."""
    if ctx.level != "strong":
        return 1.0 if not others else 0.3
    if others < max(wanted(ctx, hex_id), 1):
        return 1.0 if not others else 0.8
    return 0.1


def holds(ctx: MoveContext, p: Piece) -> bool:
    """Strong: the unit is one of those wanted in its key hex: it stays."""
    if ctx.level != "strong" or p.location not in ctx.keys:
        return False
    return len(ctx.friends.get(p.location, [])) <= wanted(ctx, p.location)


def keeps_moscow(ctx: MoveContext, p: Piece) -> bool:
    """The strong Soviet never moves the last unit out of Moscow while a German stack could
    reach it."""
    if ctx.level != "strong" or p.location != MOSCOW or not moscow_threatened(ctx):
        return False
    return len([q for q in ctx.friends.get(MOSCOW, []) if q.id != p.id]) == 0


@dataclass(frozen=True)
class Move:
    piece: str
    to: str
    gain: float
    why: str


def best_moves(ctx: MoveContext, moves: Iterable[tuple[str, Sequence[str]]],
               skip: frozenset[str] = frozenset()) -> list[Move]:
    """Each unit's best destination among its legal ones, when better than staying,
    biggest gain first."""
    state = ctx.state
    empty_moscow = moscow_threatened(ctx) and ctx.level == "strong" and \
        not ctx.friends.get(MOSCOW)
    out: list[Move] = []
    for pid, dests in moves:
        if pid in skip:
            continue
        p = state.piece(pid)
        if keeps_moscow(ctx, p) or holds(ctx, p):
            continue
        stay = dest_score(ctx, p, p.location)
        best: tuple[float, str] | None = None
        for d in dests:
            v = dest_score(ctx, p, d)
            if empty_moscow and d == MOSCOW:
                v += 50.0  # garrison Moscow first [4.3]
            if best is None or v > best[0] or (v == best[0] and d < best[1]):
                best = (v, d)
        if best is not None and best[0] > stay + 0.05:
            why = "Garrison Moscow [4.3]" if best[1] == MOSCOW and empty_moscow else ""
            out.append(Move(pid, best[1], best[0] - stay, why))
    out.sort(key=lambda m: (-m.gain, m.piece))
    return out


def threat_range(ctx: MoveContext) -> int:
    """Hexes an enemy stack may cover before attacking next turn: the German east MF + 1,
    the west-map MF (6) + 1 [2.10]."""
    return GERMAN_REACH if ctx.map_id == EAST else 7


def fill_keys(ctx: MoveContext, moves: Iterable[tuple[str, Sequence[str]]],
              skip: frozenset[str] = frozenset(), least: float = KEY_FILL) -> Move | None:
    """Strong defence: one unit into a key hex worth KEY_FILL or more (the Ruhr [4.2],
    Moscow, Leningrad [4.3]) holding fewer units than `wanted`. The most valuable key goes
    first, then the one with the fewest units able to reach it; it takes the unit with the
    fewest other such keys in reach, so one move does not take the only unit that could
    hold another key; a full unit before a reduced one. Units a key hex wants stay in it,
    unless a key worth more is short (a screen hex is given up for a Ruhr hex). `least`:
    only keys worth that much (the German fills the Ruhr before its screen)."""
    if role(ctx.side, ctx.map_id) != "defend" or ctx.level != "strong":
        return None
    empty = {h for h in ctx.keys if ctx.keys[h] >= least
             and len(ctx.friends.get(h, [])) < wanted(ctx, h)}
    if not empty:
        return None
    can: dict[str, list[str]] = {}  # key -> units that can reach it
    keys_of: dict[str, int] = {}  # unit -> empty keys it can reach
    gives_up: dict[str, float] = {}  # unit -> the worth of the key hex it would leave
    for pid, dests in moves:
        if pid in skip:
            continue
        p = ctx.state.piece(pid)
        # A unit its own key hex wants stays, unless a key worth more is short (a screen
        # hex is given up to fill a Ruhr hex [4.2])
        here = ctx.keys.get(p.location, 0.0) if holds(ctx, p) else 0.0
        reachable = [d for d in dests if d in empty and ctx.keys[d] > here]
        if not reachable:
            continue
        keys_of[pid] = len(reachable)
        gives_up[pid] = here
        for d in reachable:
            can.setdefault(d, []).append(pid)
    if not can:
        return None
    key = min(can, key=lambda h: (-ctx.keys[h], len(can[h]), ctx.dist_enemy.get(h, FAR), h))
    pid = min(can[key], key=lambda i: (reduced(ctx.game, ctx.state.piece(i)), gives_up[i],
                                       keys_of[i], i))
    return Move(pid, key, ctx.keys[key], f"Hold {key} [4.2, 4.3]")


def reduced(game: Game, p: Piece) -> bool:
    """A two-step unit down to its last step [2.11]."""
    return units.full_steps(game, p) > 1 and units.steps_left(game, p) == 1


SWAP_SEARCH = 6  # strong German west: how far (hexes) a full corps is looked for


def swap_out(ctx: MoveContext, moves: Sequence[tuple[str, Sequence[str]]],
             skip: frozenset[str] = frozenset()) -> Move | None:
    """Strong German west: a reduced unit leaves a full Ruhr hex an enemy can reach when a
    full unit not holding a Ruhr hex can take its place this phase (stacking two [7.4]:
    it must leave first); fill_keys then sends the full unit in (it takes full units
    first). Two full corps defend 12, one reduced less: 3 less is a column of odds [4.2]."""
    if ctx.level != "strong" or ctx.side != GERMAN or ctx.map_id != WEST:
        return None
    board, state = ctx.board, ctx.state
    legal = dict(moves)
    for h in sorted(ctx.keys):
        have = ctx.friends.get(h, [])
        if not board.hex(h).ruhr or wanted(ctx, h) < 2 or len(have) < 2:
            continue
        weak = [p for p in have if reduced(ctx.game, p) and p.id in legal
                and p.id not in skip]
        if not weak:
            continue
        r = weak[0]
        dests = [d for d in legal[r.id] if not board.hex(d).ruhr]
        if not dests:
            continue
        near = board.distances([h], SWAP_SEARCH)
        spare = sorted((near[p.location], p.id) for ps in ctx.friends.values() for p in ps
                       if p.id in legal and p.id not in skip and p.location in near
                       and not reduced(ctx.game, p) and not board.hex(p.location).ruhr)
        gone = replace(state, pieces=state.pieces.set(r.id, replace(r, location=DEAD)))
        for _, fid in spare:
            reach = movement.reach_of(ctx.game, board, gone, (gone.piece(fid),), WEST)
            if h in reach.costs:
                to = max(dests, key=lambda d: (dest_score(ctx, r, d), d))
                return Move(r.id, to, 0.0, f"Make room in {h} for a full corps [4.2, 7.4]")
    return None


def placement_score(ctx: MoveContext, p: Piece, hex_id: str) -> float:
    """Where a reinforcement is best placed: the defend role's hex worth [9.5]."""
    return dest_score(ctx, p, hex_id)


def stack_room(game: Game, board: Board, state: GameState, hex_id: str, p: Piece) -> bool:
    return stacking.can_enter(game, board, state, hex_id, (p,), stop=True)
