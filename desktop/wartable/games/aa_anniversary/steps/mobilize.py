"""Phase 6: Mobilize New Units (pg. 21-22) and China Rules (pg. 10).

Units bought this turn move from the mobilization zone to a territory with an industrial
complex the power controlled since the start of its turn (one captured this turn does not
produce), at most as many units per complex as the territory's IPC value (sea units are
placed in a sea zone next to such a territory and count against it). A new industrial
complex goes to a territory worth at least 1 IPC that the power controlled since the start
of its turn and that has no complex. China places its infantry in Chinese-controlled
territories holding fewer than three Chinese units. Units that cannot be placed wait in the
mobilization zone.
"""

from __future__ import annotations

from dataclasses import replace

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.steps import bombing
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    controller,
    enemy_units,
    space_name,
    stats,
    world,
)
from wartable.model.state import GameState, Piece

R_MOBILIZE = "Phase 6: Mobilize New Units (pg. 21)"
R_CHINA = "China Rules (pg. 10)"


def factories(game: Game, state: GameState, power: str) -> tuple[str, ...]:
    captured = set(state.var("captured", ()))
    return tuple(
        sorted(
            {
                p.location
                for p in state.pieces.values()
                if p.side == power
                and stats(game, p).factory
                and controller(state, p.location) == power
                and p.location not in captured
            }
        )
    )


def room(game: Game, state: GameState, space: str) -> int:
    ipc = world(game).ipc.get(space, 0)
    bonus = research.factory_bonus(game, state, controller(state, space), ipc)  # Increased FP
    # Each damage marker is one unit less (Industrial Complexes, Damaged Factories, pg. 25).
    dmg = bombing.damage(game, state, space)
    return ipc + bonus - dmg - int(state.var("placed", FrozenMap()).get(space, 0))


def destinations(game: Game, state: GameState, piece: Piece) -> dict[str, str]:
    """Destination -> the territory whose production the unit uses."""
    w = world(game)
    power = piece.side
    s = stats(game, piece)
    out: dict[str, str] = {}
    if power == "china":
        for sp, o in w.original.items():
            if (
                o == "china"
                and controller(state, sp) == "china"
                and sum(1 for p in state.pieces_at(sp) if p.side == "china") < 3
            ):
                out[sp] = sp
        return out
    captured = set(state.var("captured", ()))
    if s.factory:
        for sp in w.land:
            if (
                controller(state, sp) == power
                and w.ipc.get(sp, 0) >= 1
                and sp not in captured
                and not any(stats(game, p).factory for p in state.pieces_at(sp))
            ):
                out[sp] = sp
        return out
    for f in factories(game, state, power):
        if room(game, state, f) <= 0:
            continue
        if s.sea:
            for sz in w.neighbors[f]:
                if sz in w.sea and not enemy_units(game, state, sz, power):
                    out.setdefault(sz, f)
        else:
            out[f] = f
    return out


def prompt(game: Game, state: GameState, power: str, text: str, rule: str) -> Prompt:
    moves: dict[str, tuple[str, ...]] = {}
    cache: dict[str, dict[str, str]] = {}
    for p in state.pieces_at(MOBILIZATION):
        if p.side != power:
            continue
        if p.type not in cache:
            cache[p.type] = destinations(game, state, p)
        if cache[p.type]:
            moves[p.id] = tuple(sorted(cache[p.type]))
    return Prompt(power, text, rule, moves=FrozenMap(moves), buttons=(end_step_button(),))


def place(game: Game, state: GameState, power: str, action: Action) -> Outcome:
    pid, to = action.args.get("piece"), action.args.get("to")
    if not isinstance(pid, str) or pid not in state.pieces:
        raise IllegalAction(f"There is no unit {pid!r}.")
    p = state.piece(pid)
    if p.side != power or p.location != MOBILIZATION:
        raise IllegalAction(f"{pid} is not one of your new units [{R_MOBILIZE}].")
    dests = destinations(game, state, p)
    if not isinstance(to, str) or to not in dests:
        raise IllegalAction(
            f"{game.rules.piece_name(game, p)} cannot be mobilized in {space_name(game, to)} "
            f"[{R_CHINA if power == 'china' else R_MOBILIZE}]."
        )
    if not stats(game, p).factory and power != "china":
        placed = state.var("placed", FrozenMap())
        state = state.with_var("placed", placed.set(dests[to], int(placed.get(dests[to], 0)) + 1))
    state = state.with_piece(replace(p, location=to, attrs=p.attrs.remove("new")))
    return Outcome(
        state,
        (
            Event(
                "move",
                f"{game.rules.piece_name(game, p)} mobilized in {space_name(game, to)}",
                power,
                R_MOBILIZE,
            ),
        ),
    )
