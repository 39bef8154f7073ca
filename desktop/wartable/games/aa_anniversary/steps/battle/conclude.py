"""General Combat, Step 7: Conclude Combat (pg. 19-20).

A won land battle with a surviving land unit captures the territory: liberation returns it to
its original owner when that power's capital is held by its side (China has no capital:
always), a liberated capital also takes back the owner's territories and complexes held by
friendly powers, a captured capital hands the captor the loser's IPCs (Capturing and
Liberating Capitals), AA guns and factories change sides. Submerged submarines come back to
the map as the battle ends. Damaged battleships are repaired when the phase ends
(Battleships, Two Hits to Destroy).
"""

from __future__ import annotations

from dataclasses import replace

from wartable.core.frozen import FrozenMap
from wartable.core.words import plural
from wartable.engine.actions import Event, Outcome
from wartable.engine.rules import Game
from wartable.games.aa_anniversary.steps.battle.forces import R_PHASE
from wartable.games.aa_anniversary.steps.common import (
    allied,
    capital_held,
    controller,
    ipcs,
    set_control,
    space_name,
    stats,
    with_ipcs,
    world,
)
from wartable.model.state import GameState

R_CAPTURE = "General Combat, Step 7: Conclude Combat (pg. 19)"
R_CAPITAL = "Capturing and Liberating Capitals (pg. 20)"
R_LIBERATE = "Liberating a Territory (pg. 20)"


def done(game: Game, state: GameState, text: str, result: str, outcome: str = "") -> Outcome:
    """The battle is over: `result` says how (won, ends, no_land_unit, retreats,
    no_attacker), `outcome` the combat rules' result when it "ends" (combat.DEFENDER_WINS...),
    both in the event's data for the panels."""
    space = str(state.var("battle"))
    for p in state.pieces_at(space):  # submerged subs are back on the map (pg. 30)
        if p.attrs.get("submerged"):
            state = state.with_piece(replace(p, attrs=p.attrs.remove("submerged")))
    state = state.with_var("battle", None).with_var("withdrawn", ()).with_var(
        "battle_defender", None)
    state = state.with_var("resolved", tuple(state.var("resolved", ())) + (space,))
    data: FrozenMap[str, str] = FrozenMap(battle="end", space=space, result=result,
                                          outcome=outcome)
    return Outcome(state, (Event("combat", text, state.active_side, R_PHASE, data=data),))


def capture(game: Game, state: GameState, space: str, power: str) -> Outcome:
    """Step 7: take control; liberation, capital plunder, AA guns and factories change sides."""
    w = world(game)
    loser = controller(state, space)
    owner = power
    orig = w.original.get(space, "")
    evs = []
    # A capital is liberated even though its owner does not hold it (it is this territory).
    # China has no capital (capital_held): a Chinese territory always returns to China
    # (China Rules: only an Axis power earns its IPCs).
    own_capital = bool(orig) and w.capital.get(orig) == space
    if (
        orig
        and orig != power
        and allied(game, orig, power)
        and (capital_held(game, state, orig) or own_capital)
    ):
        owner = orig
        evs.append(
            Event(
                "combat",
                f"{space_name(game, space)} is liberated for {game.definition.side(orig).name}",
                power,
                R_LIBERATE,
                data=FrozenMap(liberated=space, owner=orig),
            )
        )
    if space == "kwangtung" and power == "china":
        owner = "uk" if capital_held(game, state, "uk") else "china"
    if loser and allied(game, loser, owner):
        return Outcome(state, tuple(evs))
    state = set_control(state, space, owner)
    state = state.with_var("captured", tuple(state.var("captured", ())) + (space,))
    evs.append(
        Event(
            "combat",
            f"{game.definition.side(power).name} captures {space_name(game, space)}",
            power,
            R_CAPTURE,
            data=FrozenMap(captured=space, by=power),
        )
    )
    if loser and w.capital.get(loser) == space:
        loot = ipcs(state, loser)
        state = with_ipcs(with_ipcs(state, power, ipcs(state, power) + loot), loser, 0)
        evs.append(
            Event(
                "combat",
                f"{game.definition.side(power).name} captures the capital "
                f"of {game.definition.side(loser).name} and takes {plural(loot, 'IPC')}",
                power,
                R_CAPITAL,
                data=FrozenMap(capital=space, by=power, loser=loser, loot=loot),
            )
        )
    for p in state.pieces_at(space):
        s = stats(game, p)
        if (s.factory or s.aa) and not allied(game, p.side, power):
            attrs = p.attrs.set("captured_aa", True) if s.aa else p.attrs
            state = state.with_piece(replace(p, side=owner, attrs=attrs))
    if own_capital and owner == orig:
        state, more = _revert_to(game, state, orig)
        evs.extend(more)
    return Outcome(state, tuple(evs))


def _revert_to(game: Game, state: GameState, power: str) -> tuple[GameState, tuple[Event, ...]]:
    """Capturing and Liberating Capitals (pg. 20): once a capital is liberated, the power's
    original territories held by friendly powers, and their industrial complexes, revert to
    it at once (a territory liberated earlier this turn too: "at the end of the turn",
    Liberating a Territory; Kwangtung held by China goes back to the U.K., China Rules).
    AA guns outside the capital keep their owner."""
    w = world(game)
    evs = []
    for space, orig in sorted(w.original.items()):
        ctl = controller(state, space)
        if orig != power or not ctl or ctl == power or not allied(game, ctl, power):
            continue
        state = set_control(state, space, power)
        for p in state.pieces_at(space):
            if stats(game, p).factory and p.side != power:
                state = state.with_piece(replace(p, side=power))
        evs.append(Event("combat", f"{space_name(game, space)} reverts to "
                         f"{game.definition.side(power).name}: its capital is liberated",
                         power, R_CAPITAL))
    return state, tuple(evs)


def repair(game: Game, state: GameState) -> GameState:
    """Battleships: Two Hits to Destroy (pg. 28): repaired once the combat is over.
    Interceptors land afterwards (bombing.land_interceptors: their owner chooses where when
    their territory was captured; Fighter Escorts and Interceptors, pg. 24)."""
    for p in state.pieces.values():
        if p.attrs.get("damaged"):
            state = state.with_piece(replace(p, attrs=p.attrs.remove("damaged")))
    return state
