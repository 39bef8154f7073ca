"""Amphibious Assaults (pg. 17), the steps before General Combat on land.

Step 1, Sea Combat: cargo announced in Combat Move for a territory from a sea zone with enemy
warships (attr `assault`) lands when that territory's battle is fought, which waits for the
sea battle; a zone whose enemies are only submarines and transports may be ignored instead
of fought (no combat, so its ships may still bombard).
Step 2, Battleship & Cruiser Bombardment: the attacker's battleships and cruisers in a sea
zone from which land units were offloaded into the territory, where no combat was fought
this turn, may bombard (at most one ship per land unit offloaded from that zone, each ship
once a turn, attr `bombarded`). One die per ship at its attack value; the defender puts the
hit units in the casualty zone (casualties.py: attr `pending`).
Step 3, Land Combat: the cargo lands only if the zone is clear of enemy surface warships and
its transport is still there (a retreating transport keeps its cargo).
"""

from __future__ import annotations

from dataclasses import replace

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import roll_then
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary.steps.battle.forces import (
    MAX_OPTIONS,
    attackers,
    battle_values,
    battles,
    force,
)
from wartable.games.aa_anniversary.steps.common import (
    enemy_blocking_ships,
    enemy_units,
    space_name,
    stats,
    world,
)
from wartable.model.state import Frame, GameState, Piece

R_AMPHIBIOUS = "Amphibious Assaults (pg. 17)"
R_IGNORE = "Amphibious Assaults, Step 1: Sea Combat (pg. 17); Submarines, Does Not Block (pg. 30)"


def sea_battle_first(game: Game, state: GameState, space: str, power: str) -> str:
    """Why the battle in `space` must wait ("" when it need not): its amphibious assault's
    cargo is still aboard in a sea zone with a battle of its own (Amphibious Assaults,
    1. Sea combat, pg. 17)."""
    first = sorted({p.location for p in assault_cargo(state, space, power)} & set(
        battles(game, state, power)))
    return (f"Fight the sea battle in {', '.join(space_name(game, z) for z in first)} first "
            f"[{R_AMPHIBIOUS}: 1. Sea combat]") if first else ""


def may_ignore(game: Game, state: GameState, space: str, power: str) -> bool:
    """A sea zone whose enemy units are only submarines and transports: the attacker may
    ignore them (Amphibious Assaults, Step 1; Submarines: Does Not Block Enemy Movement;
    Transports: Doesn't Block Enemy Movement)."""
    if space not in world(game).sea:
        return False
    them = [p for p in enemy_units(game, state, space, power) if not p.attrs.get("on")]
    return bool(them) and not enemy_blocking_ships(game, state, space, power)


def assault_cargo(state: GameState, space: str, power: str) -> tuple[Piece, ...]:
    return tuple(sorted((p for p in state.pieces.values()
                         if p.side == power and p.attrs.get("assault") == space),
                        key=lambda p: p.id))


def land_assault(game: Game, state: GameState, space: str,
                 power: str) -> tuple[GameState, tuple[Event, ...]]:
    """Amphibious Assaults, Step 3 (pg. 17): cargo announced for this territory lands if the
    sea battle left its zone free of enemy surface warships (transports and submarines do
    not count) and its transport survived; otherwise it stays aboard."""
    evs = []
    for p in assault_cargo(state, space, power):
        zone = p.location
        t = state.pieces.get(str(p.attrs.get("on", "")))
        attrs = p.attrs.remove("assault")
        if t is None or t.location != zone or enemy_blocking_ships(game, state, zone, power):
            state = state.with_piece(replace(p, attrs=attrs))
            evs.append(Event("combat", f"{game.rules.piece_name(game, p)} cannot land in "
                             f"{space_name(game, space)}: the sea zone was not cleared",
                             power, R_AMPHIBIOUS))
            continue
        attrs = attrs.remove("on").set("landed", True).set("amphibious", True).set("via", zone)
        state = state.with_piece(replace(p, location=space, attrs=attrs))
        evs.append(Event("move", f"{game.rules.piece_name(game, p)} lands in "
                         f"{space_name(game, space)} from {space_name(game, zone)}", power,
                         R_AMPHIBIOUS))
    return state, tuple(evs)


# --- Step 2: Battleship & Cruiser Bombardment -------------------------------------------------

def bombard_zones(game: Game, state: GameState, space: str,
                  power: str) -> tuple[tuple[str, tuple[Piece, ...], int], ...]:
    """(sea zone, its ships that may bombard, the most of them that may) for each zone the
    assault's seaborne land units came from: no combat in that zone this turn, one ship per
    land unit offloaded from it into this territory, each ship supports one assault."""
    w = world(game)
    done = set(state.var("resolved", ()))
    landed: dict[str, int] = {}
    for p in attackers(game, state, space, power):
        via = p.attrs.get("via")
        if p.attrs.get("amphibious") and isinstance(via, str) and via in w.sea:
            landed[via] = landed.get(via, 0) + 1
    out = []
    for zone, n in sorted(landed.items()):
        if zone in done:  # a sea battle there this turn: no bombardment
            continue
        ships = tuple(sorted((p for p in state.pieces_at(zone)
                              if p.side == power and stats(game, p).bombard
                              and not p.attrs.get("bombarded")),
                             key=lambda p: (-stats(game, p).attack, p.id)))
        if ships:
            out.append((zone, ships, n))
    return tuple(out)


def bombard_choices(game: Game, state: GameState, space: str,
                    power: str) -> tuple[tuple[str, ...], ...]:
    """The legal sets of bombarding ships (piece ids), the strongest first, none last."""
    per_zone: list[list[tuple[str, ...]]] = []
    for _zone, ships, limit in bombard_zones(game, state, space, power):
        by_type: dict[str, list[str]] = {}
        for p in ships:
            by_type.setdefault(p.type, []).append(p.id)
        kinds = sorted(by_type, key=lambda t: -world(game).catalog[t].attack)
        picks: list[tuple[str, ...]] = [()]
        for t in kinds:
            picks = [pk + tuple(by_type[t][:k]) for pk in picks
                     for k in range(len(by_type[t]) + 1) if len(pk) + k <= limit]
        picks.sort(key=lambda pk: (-len(pk), -sum(
            world(game).catalog[state.piece(i).type].attack for i in pk)))
        per_zone.append(picks)
    if not per_zone:
        return ()
    combos: list[tuple[str, ...]] = [()]
    for picks in per_zone:
        combos = [a + b for a in combos for b in picks]
    combos = [x for x in combos if x] + [()]
    return tuple(combos[:MAX_OPTIONS] + ([()] if len(combos) > MAX_OPTIONS else []))


def bombard(game: Game, state: GameState, ships: tuple[str, ...]) -> Outcome:
    """The chosen ships (at least one) bombard: their dice are rolled (resume "bombard")."""
    space, power = str(state.var("battle")), state.active_side
    evs = []
    for pid in ships:
        p = state.piece(pid)
        state = state.with_piece(p.with_attr("bombarded", True))
        evs.append(Event("combat", f"{game.rules.piece_name(game, p)} bombards "
                         f"{space_name(game, space)}", power, c.R_BOMBARD))
    state = state.with_var("bombard", ships)
    groups = c.bombard_groups(force(tuple(state.piece(i) for i in ships)),
                              battle_values(game, state))
    return Outcome(state, tuple(evs)).then(roll_then(
        game, state, count=c.dice_count(groups), sides=6,
        purpose=f"Bombardment of {space_name(game, space)}", side=power, resume="bombard",
        rule=c.R_BOMBARD))


def bombard_prompt(game: Game, state: GameState, frame: Frame) -> Prompt:
    """The bombard frame: which ships bombard, the default (the strongest) first."""
    space = str(frame.data["space"])
    choices = bombard_choices(game, state, space, state.active_side)
    return Prompt(frame.side, frame.text, frame.rule, buttons=tuple(
        Button("bombard", ("Default: " if i == 0 and ch else "") + (", ".join(
            f"{game.rules.piece_name(game, state.piece(pid))}" for pid in ch)
            or "No bombardment"), c.R_BOMBARD, args=FrozenMap(ships=ch))
        for i, ch in enumerate(choices)))


def chosen_ships(game: Game, state: GameState, frame: Frame, action: Action) -> tuple[str, ...]:
    """The bombarding ships the action names, if they are one of the legal choices."""
    ships = action.args.get("ships", ())
    choices = bombard_choices(game, state, str(frame.data["space"]), state.active_side)
    if action.verb != "bombard" or not isinstance(ships, tuple) or tuple(ships) not in {
            tuple(ch) for ch in choices}:
        raise IllegalAction(f"Choose the bombarding ships: at most one per land unit "
                            f"offloaded from their sea zone [{c.R_BOMBARD}].")
    return tuple(ships)
