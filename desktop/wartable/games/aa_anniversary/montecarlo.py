"""Monte Carlo battles: the check on the exact calculator, with the very rules of a game.

Each battle is `combat.open_battle`, then `combat.fight_round` and `combat.conclude` until a
result, with the seeded `Rng` of the game state, so any disagreement with `calculator` is a
bug in one of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from wartable.core.errors import WartableError
from wartable.core.rng import Rng
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary.combat import (
    ATTACKER_WINS,
    DEFENDER_WINS,
    DRAW,
    EMPTY,
    RETREAT,
    STALEMATE,
    Catalog,
    Force,
    Orders,
)


@dataclass(frozen=True, slots=True)
class SimResult:
    """Frequencies over `n` simulated battles."""

    n: int
    attacker_win: float
    defender_win: float
    draw: float
    stalemate: float
    retreat: float
    capture: float
    attacker_ipc_loss: float  # mean
    defender_ipc_loss: float
    mean_rounds: float


def fight(attacker: Force, defender: Force, orders: Orders, catalog: Catalog, rng: Rng, *,
          bombard: Force = EMPTY, max_rounds: int | None = None,
          attacker_can_retreat: bool = True) -> tuple[c.BattleState, str, Rng]:
    """One battle to its end: (final state, result, rng)."""
    st, rng = c.open_battle(attacker, defender, orders, catalog, rng, bombard)
    st, res = c.conclude(st, catalog, attacker_can_retreat=attacker_can_retreat)
    while res is None:
        if max_rounds is not None and st.round >= max_rounds:
            return st, RETREAT, rng
        st, rng = c.fight_round(st, orders, catalog, rng)
        st, res = c.conclude(st, catalog, attacker_can_retreat=attacker_can_retreat)
    return st, res, rng


def simulate(attacker: Force, defender: Force, orders: Orders | None, n: int, rng: Rng, *,
             catalog: Catalog, bombard: Force = EMPTY, max_rounds: int | None = None,
             attacker_can_retreat: bool = True) -> tuple[SimResult, Rng]:
    """Fight the battle n times; orders None means `combat.default_orders`."""
    if n < 1:
        raise WartableError("Simulate at least one battle.")
    c.check_battle(attacker, defender, catalog, bombard)
    orders = orders or c.default_orders(attacker, defender, catalog)
    counts = dict.fromkeys((ATTACKER_WINS, DEFENDER_WINS, DRAW, STALEMATE, RETREAT), 0)
    capture = rounds = 0
    att_loss = def_loss = 0
    att0, def0 = c.ipc_value(attacker, catalog), c.ipc_value(defender, catalog)
    for _ in range(n):
        st, res, rng = fight(attacker, defender, orders, catalog, rng, bombard=bombard,
                             max_rounds=max_rounds, attacker_can_retreat=attacker_can_retreat)
        counts[res] += 1
        rounds += st.round
        if res == ATTACKER_WINS and any(catalog[u].capture for u, _ in st.attacker.units):
            capture += 1
        att_loss += att0 - c.ipc_value(st.attacker, catalog)
        def_loss += def0 - c.ipc_value(st.defender, catalog)
    return SimResult(
        n=n, attacker_win=counts[ATTACKER_WINS] / n, defender_win=counts[DEFENDER_WINS] / n,
        draw=counts[DRAW] / n, stalemate=counts[STALEMATE] / n, retreat=counts[RETREAT] / n,
        capture=capture / n, attacker_ipc_loss=att_loss / n, defender_ipc_loss=def_loss / n,
        mean_rounds=rounds / n,
    ), rng
