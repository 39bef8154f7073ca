"""General Combat, Steps 3 and 4: Attacking Units Fire, Defending Units Fire (pg. 18-19).

Both sides' dice are rolled together (the defender's casualties still fire back); the hits
are scored per fire group (combat.py) and each side then chooses its casualties
(casualties.py). Submarines that made a Surprise Strike (Step 2) do not fire again.
"""

from __future__ import annotations

from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.core.words import plural
from wartable.engine.actions import Event, Outcome
from wartable.engine.loop import roll_then
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary.steps.battle.forces import sides
from wartable.games.aa_anniversary.steps.battle.submarines import strike_groups
from wartable.games.aa_anniversary.steps.common import (
    space_name,
)
from wartable.model.state import GameState


def roll_groups(game: Game, state: GameState, groups: Any, what: str, resume: str,
                 rule: str) -> Outcome:
    """Both sides' dice for this step of the battle, rolled together (General Combat)."""
    ga, gd = groups
    space = str(state.var("battle"))
    return roll_then(game, state, count=c.dice_count((*ga, *gd)), sides=6,
                     purpose=f"{what} in {space_name(game, space)}", side=state.active_side,
                     resume=resume, rule=rule)


def fire_groups(
    game: Game, state: GameState
) -> tuple[tuple[c.FireGroup, ...], tuple[c.FireGroup, ...]]:
    att, dfn, cat, plan = sides(game, state)
    return (
        c.fire_groups(att, c.ATTACK, cat, skip_subs=plan.attacker_strikes),
        c.fire_groups(dfn, c.DEFENSE, cat, skip_subs=plan.defender_strikes),
    )


def by_group(groups: tuple[c.FireGroup, ...], hits: tuple[int, ...],
             dice: tuple[int, ...]) -> str:
    """" (at 1: 3, 5 = 0 hits; at 3: 1 = 1 hit)": each fire group's dice and its hits, so
    the log can be checked against the dice (a die hits on its value or less, pg. 18)."""
    parts, i = [], 0
    for g, h in zip(groups, hits, strict=True):
        mine = dice[i:i + g.dice]
        i += g.dice
        if mine:
            parts.append(f"at {g.value}: {', '.join(map(str, mine))} = {plural(h, 'hit')}")
    return f" ({'; '.join(parts)})" if parts else ""


def score(game: Game, state: GameState, dice: tuple[int, ...],
          strike: bool) -> tuple[c.Hits, c.Hits, Event]:
    """The attacker's and the defender's hits from the round's (or the Surprise Strike's)
    dice, the attacker's dice first, and the line that reports them."""
    space, power = str(state.var("battle")), state.active_side
    ga, gd = strike_groups(game, state) if strike else fire_groups(game, state)
    na = c.dice_count(ga)
    per_a, per_d = c.group_hits(ga, dice[:na]), c.group_hits(gd, dice[na:])
    att_hits, def_hits = c.hits_of(ga, per_a), c.hits_of(gd, per_d)
    what = "Surprise Strike" if strike else "Round"
    text = (f"{what} in {space_name(game, space)}: attacker scores {att_hits.total}"
            f"{by_group(ga, per_a, dice[:na])}, defender {def_hits.total}"
            f"{by_group(gd, per_d, dice[na:])}")
    return att_hits, def_hits, Event(
        "combat", text, power, c.R_STEP2 if strike else c.R_STEP3,
        data=FrozenMap(battle="strike" if strike else "round", space=space,
                       attacker_hits=att_hits.total, defender_hits=def_hits.total))
