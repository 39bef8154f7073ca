"""General Combat, Step 6: Press Attack or Retreat (pg. 19).

The attacker's land and sea units retreat together to one adjacent friendly space from which
at least one of them moved in (the attacker chooses, a frame); aircraft stay and land in
Noncombat Move (an attack with no such unit: the aircraft alone retreat, in place); units
landed from transports never retreat and fight on alone, the retreated aircraft out of the
battle (var `withdrawn`; Amphibious Assaults, Step 3).
"""

from __future__ import annotations

from dataclasses import replace

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Prompt
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary.steps.battle.amphibious import R_AMPHIBIOUS
from wartable.games.aa_anniversary.steps.battle.forces import attackers
from wartable.games.aa_anniversary.steps.common import (
    allied,
    controller,
    enemy_units,
    space_name,
    stats,
    world,
)
from wartable.model.state import Frame, GameState


def retreat_options(game: Game, state: GameState) -> tuple[str, ...]:
    """Adjacent friendly spaces from which an attacking land or sea unit moved in (Step 6).
    With no such unit in the attack, only aircraft (and seaborne land units, which never
    retreat), the aircraft may still retreat: they stay in the space and land in Noncombat
    Move (Condition B; Amphibious Assaults, Step 3): the option is the battle's space."""
    space = str(state.var("battle"))
    power = state.active_side
    w = world(game)
    out = set()
    units = attackers(game, state, space, power)
    if not any(not stats(game, p).air and not p.attrs.get("amphibious") for p in units):
        return (space,) if any(stats(game, p).air for p in units) else ()
    for p in units:
        via = p.attrs.get("via")
        if stats(game, p).air or p.attrs.get("amphibious") or not isinstance(via, str):
            continue
        if via not in w.neighbors[space]:
            continue
        if via in w.sea:
            if not any(not q.attrs.get("on") for q in enemy_units(game, state, via, power)):
                out.add(via)
        elif (
            controller(state, via)
            and allied(game, controller(state, via), power)
            and not enemy_units(game, state, via, power)
        ):
            out.add(via)
    return tuple(sorted(out))


def may_retreat(game: Game, state: GameState) -> bool:
    return bool(retreat_options(game, state))


def press_frame(game: Game, state: GameState) -> Frame:
    """The attacker's choice after a round that did not end the battle."""
    space, power = str(state.var("battle")), state.active_side
    return Frame(
        "press",
        power,
        f"{game.definition.side(power).name}: press the attack in "
        f"{space_name(game, space)} or retreat?",
        c.R_STEP6,
    )


def press_prompt(game: Game, state: GameState, frame: Frame) -> Prompt:
    """Press the attack, or retreat to one of the spaces the attackers came from."""
    opts = retreat_options(game, state)
    return Prompt(
        frame.side,
        frame.text,
        frame.rule,
        targets=FrozenMap(retreat=opts),
        buttons=(
            Button("press", "Press the attack", c.R_STEP6),
            *(
                Button("retreat", f"Retreat to {space_name(game, o)}"
                       if o != state.var("battle") else
                       "Retreat the aircraft (they land in Noncombat Move)", c.R_STEP6,
                       args=FrozenMap(to=o))
                for o in opts
            ),
        ),
    )


def retreat_to(game: Game, state: GameState, action: Action) -> str:
    """The space the retreat action names, if it is one the attackers may retreat to."""
    to = action.args.get("to")
    opts = retreat_options(game, state)
    if not isinstance(to, str) or to not in opts:
        raise IllegalAction(f"Retreat to one of: {', '.join(opts) or 'nowhere'} [{c.R_STEP6}].")
    return to


def withdraw(game: Game, state: GameState,
             to: str | None = None) -> tuple[GameState, tuple[Event, ...], bool]:
    """Land and sea units (with their cargo) go to `to`; aircraft stay and land in
    Noncombat Move; without a destination (a stalemate) every unit stays. Seaborne land
    units cannot retreat: they fight on alone (Amphibious Assaults, Step 3, pg. 17).
    The third value: seaborne units fight on (the battle goes on)."""
    space = str(state.var("battle"))
    power = state.active_side
    evs = []
    seaborne = [p.id for p in attackers(game, state, space, power) if p.attrs.get("amphibious")]
    for p in attackers(game, state, space, power):
        if to is not None and stats(game, p).air:
            evs.append(Event("move", f"{game.rules.piece_name(game, p)} retreats: it lands in "
                             f"Noncombat Move", power, c.R_STEP6))
        if to is None or stats(game, p).air or p.attrs.get("amphibious"):
            continue  # Amphibious Assaults: units from transports never retreat (pg. 17)
        for q in state.pieces_at(space):
            if q.attrs.get("on") == p.id:  # a retreating transport cannot offload this turn
                attrs = q.attrs.remove("assault") if "assault" in q.attrs else q.attrs
                state = state.with_piece(replace(q, location=to, attrs=attrs))
        state = state.with_piece(replace(p, location=to))
        evs.append(
            Event(
                "move",
                f"{game.rules.piece_name(game, p)} retreats to {space_name(game, to)}",
                power,
                c.R_STEP6,
            )
        )
    if to is not None and seaborne:
        # The overland and air units retreat together; the seaborne ones press on.
        air = tuple(p.id for p in attackers(game, state, space, power) if stats(game, p).air)
        state = state.with_var("withdrawn", (*state.var("withdrawn", ()), *air))
        evs.append(Event("combat", f"The seaborne units in {space_name(game, space)} cannot "
                         f"retreat and fight on", power, R_AMPHIBIOUS))
        return state, tuple(evs), True
    return state, tuple(evs), False
