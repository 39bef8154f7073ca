"""Which unit the 1940: What If? bots show on top of their own stacks [7.3] (issue 7).

The enemy may not look beneath the top unit of a stack [7.3]; the owner names that unit
with the free "stack_top" action (fog.set_top), in any step. The enemy's bot counts each
hidden unit as this side's typical counter, a full unit of its most numerous ground type
(bot_view.stand_in_type), and a human opponent guesses much the same. So the top that says
least about the stack is a full unit of that type: the enemy's estimate is then the same
whatever lies beneath it (armour, reduced units). A stack without one shows its weakest-
looking unit (the least attack + defence as printed), hiding armour beneath it.

Only stacks within TOP_RANGE hexes of a visible enemy unit on their map are dressed, and
only when the bot is about to end a step (its units have moved or fought by then), one
action a stack whose top is not yet the chosen look: few actions a turn. Both levels do it.
Decided on the side's view (bot_view.view): the own units are all shown there, the chosen
top last (fog.view draws it on top), so nothing of the enemy's hidden units is read.
"""

from __future__ import annotations

from wartable.engine.actions import Action
from wartable.engine.rules import Game
from wartable.games.whatif1940 import bot_view, fog, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.steps import combat_odds
from wartable.model.state import GameState, Piece

TOP_RANGE = 8  # hexes: a stack this close to a visible enemy unit gets a chosen top (ours)
WHY = "Show a typical unit on top: the enemy may not look beneath it [7.3]"


def looks(game: Game, p: Piece) -> tuple[str, bool]:
    """What the enemy reads off a top unit: its type and whether it is reduced [2.11]."""
    return p.type, units.full_steps(game, p) > 1 and units.steps_left(game, p) == 1


def _shown(game: Game, state: GameState, p: Piece) -> int:
    f = combat_odds.factors(game, state, p) or combat_odds.typical(game, p)
    return f[0] + f[1]


def wanted_top(game: Game, state: GameState, stack: list[Piece], typical: str) -> Piece:
    """The unit to show: a full one of the typical type, else the weakest-looking one."""
    return min(stack, key=lambda p: (looks(game, p) != (typical, False),
                                     _shown(game, state, p), p.id))


def own_stacks(game: Game, board: Board, state: GameState,
               side: str) -> dict[str, list[Piece]]:
    """Map hex -> the side's ground units there (two or more), in the view's order: the
    last is the one on top [7.3] (fog.view)."""
    out: dict[str, list[Piece]] = {}
    for p in state.pieces.values():
        if p.side == side and board.on_map(p.location) and units.is_ground(game, p) \
                and not combat_odds.neutral_unit(game, state, p):  # (no fog for those [7.3])
            out.setdefault(p.location, []).append(p)
    return {h: ps for h, ps in out.items() if len(ps) > 1}


def top_actions(game: Game, board: Board, state: GameState, side: str) -> list[Action]:
    """The "stack_top" actions still worth making for `side` on its view `state`: one per
    stack near the enemy whose top does not yet look like the chosen unit."""
    if not fog.enabled(state):
        return []
    stacks = own_stacks(game, board, state, side)
    if not stacks:
        return []
    enemy: dict[str, list[str]] = {}
    for p in state.pieces.values():
        if units.enemies(p.side, side) and board.on_map(p.location) and \
                units.is_ground(game, p):
            enemy.setdefault(board.hex(p.location).map_id, []).append(p.location)
    near = {m: board.distances(hs, TOP_RANGE) for m, hs in enemy.items()}
    typical = bot_view.stand_in_type(game, state, side)
    out: list[Action] = []
    for h, ps in sorted(stacks.items()):
        if h not in near.get(board.hex(h).map_id, {}):
            continue
        want = wanted_top(game, state, ps, typical)
        if looks(game, ps[-1]) != looks(game, want):
            out.append(Action.make(fog.VERB, side, piece=want.id))
    return out
