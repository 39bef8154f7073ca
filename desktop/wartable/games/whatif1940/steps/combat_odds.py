"""The odds of a prepared assault [11.3, 11.8-11.10, 11.14, 6.7, 6.11, 6.12, 8.4, 9.7, 9.8]:
who fights, with what strength, and every column shift with its reason and rule.

Pure functions of the state: the combat step uses them at resolution, the app's odds preview
while the attacker chooses (`preview`). Untried Soviet strengths are nobody's to read before
the battle [2.12]: the preview shows them as the type's typical factors, marked estimated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from wartable.engine.odds import OddsResult, Shift
from wartable.engine.rules import Game
from wartable.games.whatif1940 import fog, hidden, supply, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import (
    A_STEP,
    BELGIUM,
    EAST,
    FORMER_POLAND,
    GERMAN,
    GREATER_GERMANY,
    HOLLAND,
    NAT_BELGIAN,
    NAT_DUTCH,
    SOVIET,
    V_BELGIUM,
    V_IGNORE_RIVERS_T1,
)
from wartable.games.whatif1940.steps import combat_table, control, order
from wartable.maps.model import HexMap
from wartable.model.state import GameState, Piece

SHOCK = "sov_1st_shock"
FORT_MARKER = "sov_fort"
GARRISON_STRENGTH = 1  # [11.21] one step, defense 1


# --- who fights ----------------------------------------------------------------------------

def neutral_unit(game: Game, state: GameState, p: Piece) -> bool:
    """Belgian or Dutch units not (yet) at war [3.4, 3.6]: nobody attacks them."""
    nat = units.nation(game, p)
    if nat == NAT_BELGIAN:
        return bool(state.var(V_BELGIUM, "neutral") != "allied")
    return nat == NAT_DUTCH and p.side != GERMAN


def defenders(game: Game, state: GameState, target: str, attacker_side: str) -> list[Piece]:
    """Every enemy ground unit in the hex defends, static ones too [11.2, 11.6]."""
    return sorted((p for p in state.pieces_at(target)
                   if units.is_ground(game, p) and units.enemies(p.side, attacker_side)),
                  key=lambda p: p.id)


def garrison_side(game: Game, state: GameState, nation: str) -> str | None:
    """The side an intrinsic garrison fights for (None: a neutral Dutch garrison) [11.21]."""
    if nation == NAT_DUTCH:
        dutch = [p for p in state.pieces.values() if units.nation(game, p) == NAT_DUTCH]
        return GERMAN if dutch and dutch[0].side == GERMAN else None
    return nation


def garrison_defends(game: Game, board: Board, state: GameState, target: str,
                     attacker_side: str) -> bool:
    """[11.21] The hex's intrinsic garrison defends only when no real friendly unit is there."""
    g = control.garrison_nation(board, state, target)
    if g is None:
        return False
    side = garrison_side(game, state, g)
    if side is None or not units.enemies(side, attacker_side):
        return False
    return not any(units.is_ground(game, p) and not units.enemies(p.side, side)
                   for p in state.pieces_at(target))


def may_attack(game: Game, p: Piece) -> bool:
    """Static units (the MG, the landed 7th) never attack [11.2]."""
    return units.is_ground(game, p) and not units.is_static(game, p)


# --- strength ------------------------------------------------------------------------------

def factors(game: Game, state: GameState, p: Piece) -> tuple[int, int] | None:
    """(attack, defense) now; None while an untried counter is face down [2.12]."""
    if hidden.is_untried(p):
        return None
    shown = p.attrs.get("factors")
    if isinstance(shown, tuple) and len(shown) == 2:
        return int(shown[0]), int(shown[1])
    ut = game.definition.unit_types[p.type]
    if p.attrs.get(A_STEP) == 2 and ut.extra.get("reduced"):
        red = ut.extra["reduced"]
        return int(red[0]), int(red[1])
    return int(ut.factors[0]), int(ut.factors[1])


def typical(game: Game, p: Piece) -> tuple[int, int]:
    ut = game.definition.unit_types[p.type]
    return int(ut.factors[0]), int(ut.factors[1])


@dataclass(frozen=True)
class Part:
    """One unit's contribution to a side's strength, for the log and the preview."""

    piece: str
    name: str
    printed: int
    strength: int
    halved: bool  # out of supply [6.7]
    estimated: bool  # untried: the type's typical value [2.12]

    def text(self) -> str:
        s = f"{self.name} {self.strength}"
        if self.halved:
            s += f" (½ of {self.printed}, out of supply [6.7])"
        if self.estimated:
            s += " (untried: estimated)"
        return s


def _part(game: Game, board: Board, state: GameState, p: Piece, index: int) -> Part:
    f = factors(game, state, p)
    est = f is None
    value = (typical(game, p) if f is None else f)[index]
    oos = not supply.status(game, board, state, p).supplied
    # [6.7] out of supply at the start of a battle: halved, remainders rounded up.
    strength = (value + 1) // 2 if oos else value
    return Part(p.id, hidden.display_name(game, state, p), value, strength, oos, est)


def attack_parts(game: Game, board: Board, state: GameState,
                 attackers: Sequence[Piece]) -> list[Part]:
    return [_part(game, board, state, p, 0) for p in attackers]


def defense_parts(game: Game, board: Board, state: GameState, defending: Sequence[Piece],
                  garrison: bool, target: str) -> list[Part]:
    if garrison:  # [11.21] needs no supply
        return [Part("", f"intrinsic garrison of {target}", GARRISON_STRENGTH,
                     GARRISON_STRENGTH, False, False)]
    return [_part(game, board, state, p, 1) for p in defending]


# --- the column shifts ----------------------------------------------------------------------

def _delta(game: Game, board: Board, a: str, b: str) -> tuple[int, int]:
    m = game.maps[board.hex(a).map_id]
    assert isinstance(m, HexMap)
    ha, hb = m.hex_of(a), m.hex_of(b)
    return int(ha.q - hb.q), int(ha.r - hb.r)


def concentric(game: Game, board: Board, target: str, hexes: Iterable[str]) -> bool:
    """[11.10] From opposite sides, from three hexes with one hex between each and the
    next, or from more than three hexes."""
    ds = {_delta(game, board, h, target) for h in hexes}
    if len(ds) > 3:
        return True
    if any((-q, -r) in ds for q, r in ds):
        return True
    if len(ds) == 3:  # three unit vectors sum to zero only when 120 degrees apart
        return sum(q for q, _ in ds) == 0 and sum(r for _, r in ds) == 0
    return False


def fort_nation(board: Board, state: GameState, label: str) -> str | None:
    """Whose printed fortification this is: the side that held it at the start, or the
    neutral country it stands in [10.22, 11.19]."""
    start = control.initial_controller(board, state, label)
    if start is not None:
        return start
    region = board.hex(label).region
    return {HOLLAND: NAT_DUTCH, BELGIUM: NAT_BELGIAN}.get(region or "")


def owns_fort(game: Game, board: Board, state: GameState, label: str,
              defending: Sequence[Piece], garrison: bool) -> bool:
    """Defenders in their own printed fort [10.22, 11.19]: every defender's side (or, in a
    neutral country, nation) is the fort's."""
    if not board.hex(label).fortified:
        return False
    owner = fort_nation(board, state, label)
    if owner is None:
        return False
    if garrison:
        return True
    return bool(defending) and all(
        (units.nation(game, p) if owner in (NAT_DUTCH, NAT_BELGIAN) else p.side) == owner
        for p in defending)


def river_shift(game: Game, board: Board, target: str, hexes: Iterable[str]) -> Shift | None:
    """[11.8, 10.11] Only when every attacking hex attacks across a river; a city or Ruhr city
    negates the (minor) rivers around it, never major rivers."""
    left = combat_table.tables_of(game).terrain_left
    kinds = []
    for h in sorted(set(hexes)):
        feats = board.side_features(h, target)
        if "major_river" in feats:
            kinds.append("major_river")
        elif "river" in feats and not (board.hex(target).city or board.hex(h).city):
            kinds.append("river")
        else:
            return None
    if not kinds:
        return None
    kind = "major_river" if all(k == "major_river" for k in kinds) else "river"
    n = left[kind]
    if not n:
        return None
    return Shift(-n, f"all attackers cross a {kind.replace('_', ' ')}", "11.8")


def former_poland(game: Game, board: Board, state: GameState, soviets: Sequence[Piece]) -> str:
    """[6.12] Why Soviet units here fight one column worse ("" when they do not): in or
    from Former Poland, or supplied in Greater Germany through Former Poland."""
    for p in soviets:
        if p.side != SOVIET or not board.on_map(p.location):
            continue
        region = board.hex(p.location).region
        if region == FORMER_POLAND:
            return "in Former Poland"
        if region == GREATER_GERMANY and supply.status(game, board, state, p).via_former_poland:
            return "in Greater Germany, supplied through Former Poland"
    return ""


def shifts(game: Game, board: Board, state: GameState, attackers: Sequence[Piece],
           target: str, defending: Sequence[Piece], garrison: bool, *, air_attack: int = 0,
           air_defense: int = 0, gast_left: int = 0, mobile: bool = False) -> list[Shift]:
    """Every column shift of a prepared (or, `mobile`, a mobile) assault, with its reason
    and rule."""
    t = combat_table.tables_of(game)
    h = board.hex(target)
    side = attackers[0].side
    out: list[Shift] = []
    left = t.terrain_left
    terrain = h.terrain if h.terrain in left else "clear"
    if left[terrain]:
        out.append(Shift(-left[terrain], f"defender in {terrain}", "11.8"))
    if h.town and left["town"]:
        out.append(Shift(-left["town"], "defender in a town", "11.8"))
    if h.city and left["city"]:
        what = "Ruhr city" if h.ruhr else "city"
        out.append(Shift(-left["city"], f"defender in a {what}", "11.8"))
    if owns_fort(game, board, state, target, defending, garrison) and left["fortified"]:
        out.append(Shift(-left["fortified"], "defender in its own fortification", "11.8, 10.22"))
    if any(p.type == FORT_MARKER for p in state.pieces_at(target)) and \
            any(p.side == SOVIET for p in defending):
        out.append(Shift(-1, "Soviet semi-permanent fort", "9.8"))
    hexes = sorted({p.location for p in attackers})
    rs = river_shift(game, board, target, hexes)
    if rs is not None and state.turn == 1 and state.var(V_IGNORE_RIVERS_T1, False) and \
            any(p.side == SOVIET for p in defending):
        rs = None  # [5.5] the East Front Surprise: Soviet defenders lose rivers on turn 1
    if rs is not None:
        out.append(rs if not mobile else Shift(rs.amount, rs.reason, "10.23"))
    # [11.10] PA only: never for an MA (without the 7th), Soviet attackers or into a city.
    if not mobile and side != SOVIET and not h.city and concentric(game, board, target, hexes):
        out.append(Shift(1, "concentric attack", "11.10"))
    if not mobile and side == GERMAN and h.map_id == EAST and not order.move_first(state):
        out.append(Shift(1, "German fight/move", "5.3, 11.9"))
    if side == SOVIET and any(p.type == SHOCK for p in attackers):
        out.append(Shift(1, "1st Shock Army attacks", "9.7"))
    fp = former_poland(game, board, state, attackers if side == SOVIET else defending)
    if side == SOVIET and fp:
        out.append(Shift(-1, f"Soviets attacking {fp}", "6.12"))
    elif side == GERMAN and fp:
        out.append(Shift(1, f"Soviets defending {fp}", "6.12"))
    if air_attack:
        out.append(Shift(air_attack, f"air support of the attack ({air_attack} aircraft)",
                         "8.4"))
    if air_defense:
        out.append(Shift(-air_defense, f"air support of the defence ({air_defense} aircraft)",
                         "8.4"))
    if gast_left:
        out.append(Shift(-gast_left, "German attenuated supply", "6.11"))
    return out


# --- the whole computation ---------------------------------------------------------------

@dataclass(frozen=True)
class OddsPreview:
    """What the attacker sees while choosing: strengths, raw odds, every shift, the final
    column and its CRT row (provisional values marked)."""

    target: str
    attack_parts: tuple[Part, ...]
    defense_parts: tuple[Part, ...]
    odds: OddsResult
    row: tuple[str, ...]  # the CRT row of the final column; () when below 1:3
    automatic_al1: bool  # final odds below 1:3 [11.14]
    provisional: bool
    hidden_defenders: int = 0  # units beneath the top the attacker may not see yet [7.3]

    @property
    def attack(self) -> int:
        return sum(x.strength for x in self.attack_parts)

    @property
    def defense(self) -> int:
        return sum(x.strength for x in self.defense_parts)

    @property
    def estimated(self) -> bool:
        return any(x.estimated for x in self.attack_parts + self.defense_parts)

    def column_text(self) -> str:
        return "automatic AL1 (below 1:3)" if self.automatic_al1 else \
            str(self.odds.final_column).replace("-", ":")

    def text(self) -> str:
        """E.g. "17:6 → 2:1; -2 defender in hill [11.8]; +1 concentric attack [11.10] → 1:1"."""
        o = self.odds
        out = f"{self.attack}:{self.defense} → {o.raw_column.replace('-', ':')}"
        for s in o.shifts:
            out += f"; {s.text()}"
        if o.shifts or o.final_column != o.raw_column:
            out += f" → {self.column_text()}"
        if self.estimated:
            out += " (untried strengths estimated)"
        if self.hidden_defenders:
            n = self.hidden_defenders
            out += (f" (+{n} unit{'s' if n > 1 else ''} hidden beneath the top, not counted: "
                    "the true odds show once the attack is committed [7.3])")
        return out


def compute(game: Game, board: Board, state: GameState, attackers: Sequence[Piece],
            target: str, *, air_attack: int = 0, air_defense: int = 0, gast_left: int = 0,
            exclude: Iterable[str] = (), mobile: bool = False,
            known_only: bool = False) -> OddsPreview:
    """The odds of `attackers` against `target`; `exclude`: defenders who retreated in this
    phase and add no strength [11.11]. `known_only`: before the attack is committed, only
    what the attacker may see: the top of the stack, not the units beneath it [7.3]."""
    t = combat_table.tables_of(game)
    side = attackers[0].side
    defending = defenders(game, state, target, side)
    unseen = {p.id for p in fog.hidden_from(game, state, side).get(target, ())} \
        if known_only else set()
    defending = [p for p in defending if p.id not in unseen]
    garrison = garrison_defends(game, board, state, target, side)
    skip = set(exclude)
    counted = [p for p in defending if p.id not in skip] or defending
    ap = attack_parts(game, board, state, attackers)
    dp = defense_parts(game, board, state, counted, garrison, target)
    att = max(sum(x.strength for x in ap), 0)
    dfn = max(sum(x.strength for x in dp), 1)
    sh = shifts(game, board, state, attackers, target, defending, garrison,
                air_attack=air_attack, air_defense=air_defense, gast_left=gast_left,
                mobile=mobile)
    if att <= 0:  # nothing to attack with: below any ladder
        odds = t.ladder.resolve(1, dfn * 100, sh)
    else:
        odds = t.ladder.resolve(att, dfn, sh)
    row = () if odds.final_column is None else t.row(odds.final_column)
    return OddsPreview(target, tuple(ap), tuple(dp), odds, row, odds.below_ladder,
                       t.provisional, len(unseen))


def preview(game: Game, board: Board, state: GameState, attacker_ids: Sequence[str],
            target_hex: str, air_attack: int = 0, air_defense: int = 0) -> OddsPreview | None:
    """The odds preview for the app (None when there is nothing to compute yet): before
    the attack is committed the attacker sees only the top of a stack [7.3]."""
    attackers = [state.piece(i) for i in attacker_ids if i in state.pieces]
    attackers = [p for p in attackers if may_attack(game, p)]
    if not attackers or target_hex not in board.hexes:
        return None
    side = attackers[0].side
    if not defenders(game, state, target_hex, side) and \
            not garrison_defends(game, board, state, target_hex, side):
        return None
    return compute(game, board, state, attackers, target_hex, air_attack=air_attack,
                   air_defense=air_defense, known_only=True)
