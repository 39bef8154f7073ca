"""General Combat, Step 2: Submarine Surprise Strike or Submerge (pg. 18; Submarines,
Submersible, pg. 30).

Submarines not facing an enemy destroyer first choose, the attacker's then the defender's (a
frame each), to submerge (attr `submerged`: out of this combat, back on the map when it
ends) or make a Surprise Strike: the strikers roll first, their casualties are chosen and
removed before Steps 3-4 and never fire back.
"""

from __future__ import annotations

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Prompt
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary.steps.battle.forces import (
    attackers,
    battle_values,
    defenders,
    defending_power,
    force,
    role_pieces,
    round_plan,
    sides,
)
from wartable.games.aa_anniversary.steps.common import (
    space_name,
    stats,
)
from wartable.model.state import Frame, GameState

R_SUBMERSIBLE = "Unit Profiles: Submarines, Submersible (pg. 30)"


def submerge_frame(game: Game, state: GameState, role: str) -> Frame | None:
    """The frame asking `role`'s submarines that could make a Surprise Strike whether they
    submerge instead (the attacker decides first, then the defender, before any dice are
    rolled), or None when that side has none."""
    plan = round_plan(state)
    may = plan.attacker_strikes if role == "attacker" else plan.defender_strikes
    subs = [p for p in role_pieces(game, state, role) if stats(game, p).sub]
    if not (may and subs):
        return None
    space, power = str(state.var("battle")), state.active_side
    side = power if role == "attacker" else defending_power(game, state, space, power)
    return Frame("submerge", side, f"{game.definition.side(side).name}: your "
                 f"submarines in {space_name(game, space)} make a Surprise Strike or "
                 f"submerge?", R_SUBMERSIBLE, FrozenMap(role=role))


def strike_plan(game: Game, state: GameState) -> GameState:
    """After the submerge choices: which sides still strike this round (the air-hits-subs
    parts of the round's plan are kept)."""
    space, power = str(state.var("battle")), state.active_side
    old = round_plan(state)
    now = c.round_plan(force(attackers(game, state, space, power)),
                       force(defenders(game, state, space, power)), battle_values(game, state))
    return state.with_var("battle_plan", (now.attacker_strikes, now.defender_strikes,
                                          old.attacker_air_hits_subs,
                                          old.defender_air_hits_subs))


def submerge_prompt(game: Game, state: GameState, frame: Frame) -> Prompt:
    n = sum(1 for p in role_pieces(game, state, str(frame.data["role"])) if stats(game, p).sub)
    buttons = [Button("submerge", "Surprise Strike with every submarine", c.R_STEP2,
                      args=FrozenMap(count=0))]
    buttons += [Button("submerge", f"Submerge {k} submarine{'s' * (k > 1)}"
                       + (" (the others strike)" if k < n else ""), R_SUBMERSIBLE,
                       args=FrozenMap(count=k)) for k in range(n, 0, -1)]
    return Prompt(frame.side, frame.text, frame.rule, buttons=tuple(buttons))


def submerge(game: Game, state: GameState, frame: Frame,
             action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """The frame's answer: that many of the side's submarines submerge (the damaged last)."""
    role = str(frame.data["role"])
    subs = sorted((p for p in role_pieces(game, state, role) if stats(game, p).sub),
                  key=lambda p: (not p.attrs.get("damaged"), p.id))
    k = action.args.get("count")
    if action.verb != "submerge" or not isinstance(k, int) or not 0 <= k <= len(subs):
        raise IllegalAction(f"Submerge 0 to {len(subs)} submarines [{R_SUBMERSIBLE}].")
    _, state = state.pop_frame()
    evs = []
    for p in subs[:k]:
        state = state.with_piece(p.with_attr("submerged", True))
        evs.append(Event("combat", f"{game.rules.piece_name(game, p)} submerges: out of this "
                         f"combat", p.side, R_SUBMERSIBLE))
    return state, tuple(evs)


def strike_groups(
    game: Game, state: GameState
) -> tuple[tuple[c.FireGroup, ...], tuple[c.FireGroup, ...]]:
    att, dfn, cat, plan = sides(game, state)
    ga = c.strike_groups(att, c.ATTACK, cat) if plan.attacker_strikes else ()
    gd = c.strike_groups(dfn, c.DEFENSE, cat) if plan.defender_strikes else ()
    return ga, gd
