"""Phase 4: Conduct Combat (pg. 16-20) on the map, with combat.py's round rules.

The attacker picks a battle ("fight", a space); then, per General Combat (pg. 18):
AA fire before the first round (Antiaircraft Guns, pg. 25), then rounds: the attacking and
defending dice are rolled together (Steps 3-4: the defender's casualties still fire), the
DEFENDING power chooses its casualties (frame, the default order offered first), then the
attacker chooses its own, then Step 6: the battle ends (Condition A) or the attacker
presses on or retreats (frame). Step 7: a won land battle with a surviving land unit
captures the territory (Conclude Combat, pg. 19-20): liberation returns it to its original
owner when that power's capital is held by its side (China has no capital: always), a
liberated capital also takes back the owner's territories and complexes held by friendly
powers, a captured capital hands the captor the loser's IPCs (Capturing and Liberating
Capitals), AA guns and factories change sides.
Damaged battleships are repaired when the phase ends (Battleships, Two Hits to Destroy).

Retreat (Step 6): the attacker's land and sea units retreat together to one adjacent
friendly space from which at least one of them moved in (the attacker chooses, a frame);
aircraft stay and land in Noncombat Move (an attack with no such unit: the aircraft alone
retreat, in place); units landed from transports never retreat and fight on alone, the
retreated aircraft out of the battle (var `withdrawn`; Amphibious Assaults, Step 3).

Step 2: submarines not facing an enemy destroyer first choose, the attacker's then the
defender's (a frame each, Submersible, pg. 30), to submerge (attr `submerged`: out of this
combat, back on the map when it ends) or make a Surprise Strike: the strikers roll first,
their casualties are chosen and removed before Steps 3-4 and never fire back (pg. 18, 30).

Amphibious Assaults, Step 2 (pg. 17): before a land battle, the attacker's battleships and
cruisers in a sea zone from which land units were offloaded into the territory, where no
combat was fought this turn, may bombard (a frame: which ships, at most one per land unit
offloaded from that zone, each ship once a turn, attr `bombarded`). One die per ship at its
attack value; the defender puts the hit units in the casualty zone (attr `pending`): they
defend in the first round and are removed with its casualties. Then AA fire.

Amphibious Assaults, Steps 1 and 3: cargo announced in Combat Move for a territory from a
sea zone with enemy warships (attr `assault`) lands when that territory's battle is fought,
which waits for the sea battle; it lands only if the zone is clear of enemy surface warships
and its transport is still there (a retreating transport keeps its cargo). A zone whose
enemies are only submarines and transports may be ignored instead of fought ("ignore": no
combat, so its ships may still bombard).

Strategic bombing raids come first (steps/bombing.py): no battle is fought while a raid is
undecided; raiding bombers and escorts (attr `raided`) and interceptors (`intercepting`)
take part in no battle.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button, roll_then
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.steps import bombing
from wartable.games.aa_anniversary.steps.common import (
    allied,
    capital_held,
    controller,
    enemy_blocking_ships,
    enemy_units,
    ipcs,
    set_control,
    space_name,
    stats,
    with_ipcs,
    world,
)
from wartable.model.state import Frame, GameState, Piece

R_PHASE = "Phase 4: Conduct Combat (pg. 16)"
R_CAPTURE = "General Combat, Step 7: Conclude Combat (pg. 19)"
R_CAPITAL = "Capturing and Liberating Capitals (pg. 20)"
R_LIBERATE = "Liberating a Territory (pg. 20)"
R_SUBMERSIBLE = "Unit Profiles: Submarines, Submersible (pg. 30)"
R_AMPHIBIOUS = "Amphibious Assaults (pg. 17)"
R_IGNORE = "Amphibious Assaults, Step 1: Sea Combat (pg. 17); Submarines, Does Not Block (pg. 30)"
MAX_OPTIONS = 12  # casualty choices offered as buttons besides the default
# The frames this module answers: casualties, press-or-retreat, Step 2's submerge choice,
# and the bombardment choice of an amphibious assault.
FRAMES = ("casualties", "press", "submerge", "bombard")


def battles(game: Game, state: GameState, power: str) -> tuple[str, ...]:
    """Spaces where the power's units face enemy units or stand in enemy territory."""
    w = world(game)
    done = set(state.var("resolved", ()))
    out = set()
    for p in state.pieces.values():
        target = p.attrs.get("assault")
        if p.side == power and isinstance(target, str) and target not in done:
            out.add(target)  # cargo announced for an amphibious assault there
            continue
        if p.side != power or p.location in done or p.location not in w.neighbors \
                or "ignored:" + p.location in done:
            continue
        s = stats(game, p)
        if not s.fights or p.attrs.get("on") or p.attrs.get("raided"):
            continue
        loc = p.location
        if loc in w.sea:
            # A sea battle needs a unit that can attack, and enemy units that are not cargo.
            if any(
                stats(game, q).attack > 0 and q.side == power and not q.attrs.get("on")
                for q in state.pieces_at(loc)
            ) and any(not q.attrs.get("on") for q in enemy_units(game, state, loc, power)):
                out.add(loc)
        elif enemy_units(game, state, loc, power):
            out.add(loc)
        elif loc in w.land:
            ctl = controller(state, loc)
            if ctl and not allied(game, ctl, power):
                out.add(loc)
    return tuple(sorted(out))


def attackers(game: Game, state: GameState, space: str, power: str) -> tuple[Piece, ...]:
    # "withdrawn": aircraft that retreated while seaborne units fight on (Amphibious Assaults).
    out = set(state.var("withdrawn", ()))
    return tuple(
        sorted(
            (
                p
                for p in state.pieces_at(space)
                if p.side == power and stats(game, p).fights and not p.attrs.get("on")
                and not p.attrs.get("raided") and not p.attrs.get("submerged")
                and p.id not in out
            ),
            key=lambda p: p.id,
        )
    )


def defenders(game: Game, state: GameState, space: str, power: str) -> tuple[Piece, ...]:
    return tuple(
        sorted(
            (
                p
                for p in enemy_units(game, state, space, power)
                if not stats(game, p).factory and not p.attrs.get("on")
                and not p.attrs.get("intercepting") and not p.attrs.get("submerged")
            ),
            key=lambda p: p.id,
        )
    )


def force(pieces: tuple[Piece, ...]) -> c.Force:
    units: dict[str, int] = {}
    dmg: dict[str, int] = {}
    for p in pieces:
        units[p.type] = units.get(p.type, 0) + 1
        if p.attrs.get("damaged"):
            dmg[p.type] = dmg.get(p.type, 0) + 1
    return c.Force.of(units, dmg)


def defending_power(game: Game, state: GameState, space: str, power: str) -> str:
    """The territory's controller decides if it has units there, else the first defender."""
    defs = defenders(game, state, space, power)
    ctl = controller(state, space)
    if any(p.side == ctl for p in defs):
        return ctl
    if defs:
        return defs[0].side
    # Every defender fell in this round (both sides fire before casualties are removed,
    # General Combat Steps 3-5): the power that defended when the battle began.
    return ctl or str(state.var("battle_defender", "") or "")


def battle_values(game: Game, state: GameState) -> c.Catalog:
    """Unit values in the battle under way, with the attacking and defending powers'
    developments (Phase 1: Research & Development; research.battle_catalog)."""
    space, power = str(state.var("battle")), state.active_side
    return research.battle_catalog(game, state, power, defending_power(game, state, space, power),
                                   world(game).catalog)


def prompt(game: Game, state: GameState, power: str, text: str, rule: str) -> Prompt:
    todo = battles(game, state, power)
    raids = bombing.raid_targets(game, state, power)
    wait = f"Decide the strategic bombing raids first [{bombing.R_SBR}]" if raids else ""
    buttons = []
    for s in todo:
        why = wait or sea_battle_first(game, state, s, power)
        buttons.append(Button("fight", f"Fight in {space_name(game, s)}", R_PHASE,
                              enabled=not why, reason=why, args=FrozenMap(space=s)))
    buttons += [Button("ignore", f"Ignore the submarines and transports in {s}", R_IGNORE,
                       enabled=not raids, reason=wait, args=FrozenMap(space=s))
                for s in todo if may_ignore(game, state, s, power)]
    reason = (f"Resolve every battle first: {', '.join(space_name(game, b) for b in todo)}"
              if todo else None)
    return Prompt(
        power,
        text,
        rule,
        targets=FrozenMap(fight=todo),
        buttons=(*bombing.buttons(game, state, power), *buttons, end_step_button(reason)),
    )


def sea_battle_first(game: Game, state: GameState, space: str, power: str) -> str:
    """Why the battle in `space` must wait ("" when it need not): its amphibious assault's
    cargo is still aboard in a sea zone with a battle of its own (Amphibious Assaults,
    1. Sea combat, pg. 17)."""
    first = sorted({p.location for p in assault_cargo(state, space, power)} & set(
        battles(game, state, power)))
    return (f"Fight the sea battle in {', '.join(space_name(game, z) for z in first)} first "
            f"[{R_AMPHIBIOUS}: 1. Sea combat]") if first else ""


def fight(game: Game, state: GameState, power: str, action: Action) -> Outcome:
    space = action.args.get("space")
    if not isinstance(space, str) or space not in battles(game, state, power):
        raise IllegalAction(f"There is no battle for you in {space!r} [{R_PHASE}].")
    if bombing.raid_targets(game, state, power):
        raise IllegalAction(f"Decide the strategic bombing raids first [{bombing.R_SBR}].")
    first = sea_battle_first(game, state, space, power)
    if first:
        raise IllegalAction(first + ".")
    state, landing = land_assault(game, state, space, power)
    state = state.with_var("battle", space)
    state = state.with_var("battle_defender", defending_power(game, state, space, power))
    att = force(attackers(game, state, space, power))
    dfn = force(defenders(game, state, space, power))
    ev = Event(
        "combat",
        f"Battle in {space_name(game, space)}: {att.describe(world(game).catalog)} attack "
        f"{dfn.describe(world(game).catalog)}",
        power,
        R_PHASE,
    )
    if not attackers(game, state, space, power):
        return Outcome(state, (*landing, ev)).then(
            done(game, state, f"No unit left to attack {space_name(game, space)}"))
    if space in world(game).land and defenders(game, state, space, power) \
            and bombard_choices(game, state, space, power):
        frame = Frame("bombard", power, f"{game.definition.side(power).name}: bombard "
                      f"{space_name(game, space)} before the landing?", c.R_BOMBARD,
                      FrozenMap(space=space))
        return Outcome(state.push_frame(frame), (*landing, ev))
    return Outcome(state, (*landing, ev)).then(aa_fire(game, state))


def may_ignore(game: Game, state: GameState, space: str, power: str) -> bool:
    """A sea zone whose enemy units are only submarines and transports: the attacker may
    ignore them (Amphibious Assaults, Step 1; Submarines: Does Not Block Enemy Movement;
    Transports: Doesn't Block Enemy Movement)."""
    if space not in world(game).sea:
        return False
    them = [p for p in enemy_units(game, state, space, power) if not p.attrs.get("on")]
    return bool(them) and not enemy_blocking_ships(game, state, space, power)


def ignore(game: Game, state: GameState, power: str, action: Action) -> Outcome:
    space = action.args.get("space")
    if not isinstance(space, str) or space not in battles(game, state, power) \
            or not may_ignore(game, state, space, power):
        raise IllegalAction(f"Only enemy submarines and transports alone may be ignored "
                            f"[{R_IGNORE}].")
    if bombing.raid_targets(game, state, power):
        raise IllegalAction(f"Decide the strategic bombing raids first [{bombing.R_SBR}].")
    # Not a combat: the zone's ships may still bombard (Amphibious Assaults, Step 2).
    state = state.with_var("resolved", (*state.var("resolved", ()), "ignored:" + space))
    return Outcome(state, (Event("combat", f"The enemy submarines and transports in "
                                 f"{space_name(game, space)} are ignored", power, R_IGNORE),))


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


def aa_fire(game: Game, state: GameState) -> Outcome:
    """Before the first round: the AA gun fires at the attacking aircraft (pg. 25)."""
    space, power = str(state.var("battle")), state.active_side
    att = force(attackers(game, state, space, power))
    dfn = force(defenders(game, state, space, power))
    groups = c.aa_groups(att, dfn, battle_values(game, state))
    if groups:
        return roll_then(game, state, count=c.dice_count(groups), sides=6,
                         purpose=f"AA fire in {space_name(game, space)}",
                         side=defending_power(game, state, space, power), resume="aa",
                         rule=c.R_AA)
    return next_round(game, state)


# --- Amphibious Assaults, Step 2: Battleship & Cruiser Bombardment (pg. 17) ------------------

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


def _bombard(game: Game, state: GameState, ships: tuple[str, ...]) -> Outcome:
    space, power = str(state.var("battle")), state.active_side
    if not ships:
        return aa_fire(game, state)
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


def pending(game: Game, state: GameState) -> tuple[Piece, ...]:
    """Defenders in the casualty zone: hit by bombardment, they still defend in the first
    round and are removed with its casualties (Amphibious Assaults, Step 2)."""
    space, power = str(state.var("battle")), state.active_side
    return tuple(p for p in defenders(game, state, space, power) if p.attrs.get("pending"))


def _drop_pending(game: Game, state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    gone = pending(game, state)
    if not gone:
        return state, ()
    evs = []
    for p in gone:
        state = state.without_piece(p.id)
        evs.append(Event("combat", f"{game.rules.piece_name(game, p)} is destroyed "
                         f"(bombardment casualty)", p.side, c.R_BOMBARD))
    state = state.with_var("lost_total", int(state.var("lost_total", 0)) + len(gone))
    return state, tuple(evs)


def next_round(game: Game, state: GameState) -> Outcome:
    """Step 6 check, then roll the next round's dice."""
    space = str(state.var("battle"))
    power = state.active_side
    cat = world(game).catalog
    settled = settle(game, state)
    if settled is not None:
        return settled
    att = force(attackers(game, state, space, power))
    dfn = force(defenders(game, state, space, power))
    # What holds for the whole round is fixed as it starts (Step 2; Air Units, pg. 26).
    plan = c.round_plan(att, dfn, cat)
    state = state.with_var(
        "battle_plan",
        (
            plan.attacker_strikes,
            plan.defender_strikes,
            plan.attacker_air_hits_subs,
            plan.defender_air_hits_subs,
        ),
    )
    if plan.attacker_strikes or plan.defender_strikes:
        return ask_submerge(game, state, "attacker")
    return fire(game, state)


def ask_submerge(game: Game, state: GameState, role: str) -> Outcome:
    """Submersible (pg. 30): subs that could make a Surprise Strike may submerge instead;
    the attacker decides first, then the defender, before any dice are rolled."""
    plan = _plan(state)
    may = plan.attacker_strikes if role == "attacker" else plan.defender_strikes
    subs = [p for p in role_pieces(game, state, role) if stats(game, p).sub]
    if may and subs:
        space, power = str(state.var("battle")), state.active_side
        side = power if role == "attacker" else defending_power(game, state, space, power)
        frame = Frame("submerge", side, f"{game.definition.side(side).name}: your "
                      f"submarines in {space_name(game, space)} make a Surprise Strike or "
                      f"submerge?", R_SUBMERSIBLE, FrozenMap(role=role))
        return Outcome(state.push_frame(frame))
    if role == "attacker":
        return ask_submerge(game, state, "defender")
    return _strike_or_fire(game, state)


def _strike_or_fire(game: Game, state: GameState) -> Outcome:
    """After the submerge choices: the battle may be over, else Step 2 strikes, else Step 3."""
    settled = settle(game, state)
    if settled is not None:
        return settled
    space, power = str(state.var("battle")), state.active_side
    old = _plan(state)
    now = c.round_plan(force(attackers(game, state, space, power)),
                       force(defenders(game, state, space, power)), battle_values(game, state))
    state = state.with_var("battle_plan", (now.attacker_strikes, now.defender_strikes,
                                           old.attacker_air_hits_subs,
                                           old.defender_air_hits_subs))
    if now.attacker_strikes or now.defender_strikes:
        return _roll_groups(game, state, _strike_groups(game, state), "Submarine Surprise Strike",
                            "strike", c.R_STEP2)
    return fire(game, state)


def _submerge_prompt(game: Game, state: GameState, frame: Frame) -> Prompt:
    n = sum(1 for p in role_pieces(game, state, str(frame.data["role"])) if stats(game, p).sub)
    buttons = [Button("submerge", "Surprise Strike with every submarine", c.R_STEP2,
                      args=FrozenMap(count=0))]
    buttons += [Button("submerge", f"Submerge {k} submarine{'s' * (k > 1)}"
                       + (" (the others strike)" if k < n else ""), R_SUBMERSIBLE,
                       args=FrozenMap(count=k)) for k in range(n, 0, -1)]
    return Prompt(frame.side, frame.text, frame.rule, buttons=tuple(buttons))


def _submerge_apply(game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
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
    nxt = ask_submerge(game, state, "defender") if role == "attacker" \
        else _strike_or_fire(game, state)
    return Outcome(state, tuple(evs)).then(nxt)


def _roll_groups(game: Game, state: GameState, groups: Any, what: str, resume: str,
                 rule: str) -> Outcome:
    """Both sides' dice for this step of the battle, rolled together (General Combat)."""
    ga, gd = groups
    space = str(state.var("battle"))
    return roll_then(game, state, count=c.dice_count((*ga, *gd)), sides=6,
                     purpose=f"{what} in {space_name(game, space)}", side=state.active_side,
                     resume=resume, rule=rule)


def _plan(state: GameState) -> c.RoundPlan:
    a, d, aa, da = state.var("battle_plan", (False, False, False, False))
    return c.RoundPlan(bool(a), bool(d), bool(aa), bool(da))


def _sides(game: Game, state: GameState) -> tuple[c.Force, c.Force, c.Catalog, c.RoundPlan]:
    """The battle's attacking and defending forces now, the catalog, and the round's plan."""
    space, power = str(state.var("battle")), state.active_side
    return (force(attackers(game, state, space, power)),
            force(defenders(game, state, space, power)), battle_values(game, state), _plan(state))


def _strike_groups(
    game: Game, state: GameState
) -> tuple[tuple[c.FireGroup, ...], tuple[c.FireGroup, ...]]:
    att, dfn, cat, plan = _sides(game, state)
    ga = c.strike_groups(att, c.ATTACK, cat) if plan.attacker_strikes else ()
    gd = c.strike_groups(dfn, c.DEFENSE, cat) if plan.defender_strikes else ()
    return ga, gd


def _fire_groups(
    game: Game, state: GameState
) -> tuple[tuple[c.FireGroup, ...], tuple[c.FireGroup, ...]]:
    att, dfn, cat, plan = _sides(game, state)
    return (
        c.fire_groups(att, c.ATTACK, cat, skip_subs=plan.attacker_strikes),
        c.fire_groups(dfn, c.DEFENSE, cat, skip_subs=plan.defender_strikes),
    )


def fire(game: Game, state: GameState) -> Outcome:
    """Steps 3-4: every unit that did not strike rolls (the defender's casualties too)."""
    state = state.with_var("battle_step", "fire")
    space, power = str(state.var("battle")), state.active_side
    if not attackers(game, state, space, power) or not defenders(game, state, space, power):
        return after_round(game, state)
    return _roll_groups(game, state, _fire_groups(game, state), "Combat round", "round",
                        c.R_GENERAL)


def resume(game: Game, state: GameState, kind: str, dice: tuple[int, ...]) -> Outcome:
    space = str(state.var("battle"))
    power = state.active_side
    cat = battle_values(game, state)
    att = force(attackers(game, state, space, power))
    dfn = force(defenders(game, state, space, power))
    if kind == "bombard":
        ships = tuple(state.piece(i) for i in state.var("bombard", ()) if i in state.pieces)
        groups = c.bombard_groups(force(ships), cat)
        hits = c.hits_of(groups, c.group_hits(groups, dice))
        state = state.with_var("battle_step", "bombard")
        ev = Event("combat", f"Bombardment of {space_name(game, space)}: {hits.total} hits",
                   power, c.R_BOMBARD)
        before = len(state.frames)
        state = push_casualties(game, state, "bombard", hits, False,
                                defending_power(game, state, space, power))
        if len(state.frames) == before:
            return Outcome(state, (ev,)).then(aa_fire(game, state))
        return Outcome(state, (ev,))
    if kind == "aa":
        groups = c.aa_groups(att, dfn, cat)
        lost = c.aa_losses(groups, c.group_hits(groups, dice))
        state, evs = remove(game, state, attackers(game, state, space, power), lost)
        # Paratroopers (Breakthrough Chart 1): the infantry of a bomber shot down is lost.
        gone = research.stranded_paratroopers(state, space)
        if gone:
            state, more = remove(game, state, gone, c.Casualties(force(gone).units))
            evs += more
        return Outcome(state, evs).then(next_round(game, state))
    strike = kind == "strike"
    ga, gd = _strike_groups(game, state) if strike else _fire_groups(game, state)
    na = c.dice_count(ga)
    att_hits = c.hits_of(ga, c.group_hits(ga, dice[:na]))
    def_hits = c.hits_of(gd, c.group_hits(gd, dice[na:]))
    plan = _plan(state)
    what = "Surprise Strike" if strike else "Round"
    text = (f"{what} in {space_name(game, space)}: attacker scores {att_hits.total}, "
            f"defender {def_hits.total}")
    evs = (Event("combat", text, power, c.R_STEP2 if strike else c.R_STEP3),)
    state = state.with_var("battle_step", "strike" if strike else "fire")
    # The defender chooses first (Step 5), the attacker after; frames stack, so the
    # attacker's frame goes underneath.
    before = len(state.frames)
    state = push_casualties(
        game, state, "attacker", def_hits, plan.defender_air_hits_subs and not strike, power
    )
    state = push_casualties(
        game,
        state,
        "defender",
        att_hits,
        plan.attacker_air_hits_subs and not strike,
        defending_power(game, state, space, power),
    )
    if len(state.frames) == before:
        return Outcome(state, evs).then(fire(game, state) if strike else after_round(game, state))
    return Outcome(state, evs)


def push_casualties(
    game: Game, state: GameState, role: str, hits: c.Hits, air_subs: bool, side: str
) -> GameState:
    space = str(state.var("battle"))
    pieces = role_pieces(game, state, role)
    if c.max_assignable(force(pieces), hits, world(game).catalog, air_hits_subs=air_subs) == 0:
        return state
    who = game.definition.side(side).name
    frame = Frame(
        "casualties",
        side,
        f"{who}: choose casualties in {space_name(game, space)} ({hits.total} hits)"
        + (": they go to the casualty zone and still defend in the first round."
           if role == "bombard" else "."),
        c.R_BOMBARD if role == "bombard" else c.R_STEP5 if role == "defender" else c.R_STEP3,
        FrozenMap(role=role, hits=(hits.general, hits.air, hits.sub), air_subs=air_subs),
    )
    return state.push_frame(frame)


def role_pieces(game: Game, state: GameState, role: str) -> tuple[Piece, ...]:
    space = str(state.var("battle"))
    power = state.active_side
    if role == "attacker":
        return attackers(game, state, space, power)
    # Units already in the casualty zone (bombardment) cannot be chosen again.
    return tuple(p for p in defenders(game, state, space, power) if not p.attrs.get("pending"))


def frame_hits(frame: Frame) -> tuple[c.Hits, bool]:
    g, a, s = frame.data["hits"]
    return c.Hits(int(g), int(a), int(s)), bool(frame.data["air_subs"])


def options(game: Game, state: GameState, frame: Frame) -> tuple[c.Casualties, ...]:
    """The default order's choice first, then other legal choices, cheapest first. The
    default order reads the battle's developed values (Jet Fighters, Super Submarines...)."""
    cat = battle_values(game, state)
    f = force(role_pieces(game, state, str(frame.data["role"])))
    hits, air_subs = frame_hits(frame)
    order = c.default_casualty_order(f, cat, attacking=frame.data["role"] == "attacker")
    first = c.select_casualties(f, hits, order, cat, air_hits_subs=air_subs)
    rest = [o for o in c.casualty_options(f, hits, cat, air_hits_subs=air_subs) if o != first]
    return (first, *rest[:MAX_OPTIONS])


def frame_prompt(game: Game, state: GameState, frame: Frame) -> Prompt:
    cat = world(game).catalog
    if frame.kind == "submerge":
        return _submerge_prompt(game, state, frame)
    if frame.kind == "bombard":
        space = str(frame.data["space"])
        choices = bombard_choices(game, state, space, state.active_side)
        return Prompt(frame.side, frame.text, frame.rule, buttons=tuple(
            Button("bombard", ("Default: " if i == 0 and ch else "") + (", ".join(
                f"{game.rules.piece_name(game, state.piece(pid))}" for pid in ch)
                or "No bombardment"), c.R_BOMBARD, args=FrozenMap(ships=ch))
            for i, ch in enumerate(choices)))
    if frame.kind == "press":
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
    buttons = []
    for i, o in enumerate(options(game, state, frame)):
        label = ("Default: " if i == 0 else "") + o.describe(cat)
        buttons.append(
            Button(
                "casualties",
                label,
                frame.rule,
                args=FrozenMap(lost=FrozenMap(dict(o.lost)), damaged=FrozenMap(dict(o.damaged))),
            )
        )
    return Prompt(frame.side, frame.text, frame.rule, buttons=tuple(buttons))


def frame_apply(game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
    cat = world(game).catalog
    if frame.kind == "submerge":
        return _submerge_apply(game, state, frame, action)
    if frame.kind == "bombard":
        ships = action.args.get("ships", ())
        choices = bombard_choices(game, state, str(frame.data["space"]), state.active_side)
        if action.verb != "bombard" or not isinstance(ships, tuple) or tuple(ships) not in {
                tuple(ch) for ch in choices}:
            raise IllegalAction(f"Choose the bombarding ships: at most one per land unit "
                                f"offloaded from their sea zone [{c.R_BOMBARD}].")
        _, state = state.pop_frame()
        return _bombard(game, state, tuple(ships))
    if frame.kind == "press":
        if action.verb not in ("press", "retreat"):
            raise IllegalAction(f"Press the attack or retreat [{c.R_STEP6}].")
        _, state = state.pop_frame()
        if action.verb == "press":
            return next_round(game, state)
        to = action.args.get("to")
        opts = retreat_options(game, state)
        if not isinstance(to, str) or to not in opts:
            raise IllegalAction(f"Retreat to one of: {', '.join(opts) or 'nowhere'} [{c.R_STEP6}].")
        return retreat(game, state, to)
    if action.verb != "casualties":
        raise IllegalAction(f"Choose your casualties [{frame.rule}].")
    lost = action.args.get("lost", FrozenMap())
    damaged = action.args.get("damaged", FrozenMap())
    try:
        cas = c.Casualties.of(
            {str(k): int(v) for k, v in dict(lost).items()},
            {str(k): int(v) for k, v in dict(damaged).items()},
        )
    except (TypeError, ValueError, AttributeError):
        raise IllegalAction("Casualties are given as unit type -> count.") from None
    pieces = role_pieces(game, state, str(frame.data["role"]))
    hits, air_subs = frame_hits(frame)
    why = c.check_casualties(force(pieces), hits, cas, cat, air_hits_subs=air_subs)
    if why:
        raise IllegalAction(why)
    _, state = state.pop_frame()
    if frame.data["role"] == "bombard":  # to the casualty zone: they defend in round one
        evs_b = []
        for unit, n in cas.lost:
            for p in [q for q in pieces if q.type == unit][:n]:
                state = state.with_piece(p.with_attr("pending", True))
                evs_b.append(Event("combat", f"{game.rules.piece_name(game, p)} is hit by the "
                                   f"bombardment (casualty zone)", p.side, c.R_BOMBARD))
        return Outcome(state, tuple(evs_b)).then(aa_fire(game, state))
    state, evs = remove(game, state, pieces, cas)
    if state.frames and state.top_frame is not None and state.top_frame.kind == "casualties":
        return Outcome(state, evs)
    if state.var("battle_step") == "strike":  # Step 2 done: the others fire (Steps 3-4)
        return Outcome(state, evs).then(fire(game, state))
    return Outcome(state, evs).then(after_round(game, state))


def after_round(game: Game, state: GameState) -> Outcome:
    space = str(state.var("battle"))
    power = state.active_side
    state, evs = _drop_pending(game, state)  # Step 5 of round one (Amphibious Assaults)
    if evs:
        return Outcome(state, evs).then(after_round(game, state))
    settled = settle(game, state)
    if settled is not None:
        return settled
    frame = Frame(
        "press",
        power,
        f"{game.definition.side(power).name}: press the attack in "
        f"{space_name(game, space)} or retreat?",
        c.R_STEP6,
    )
    return Outcome(state.push_frame(frame))


def settle(game: Game, state: GameState) -> Outcome | None:
    """Step 6, Condition A and Defenseless Transports: end the battle if it is over (removing
    transports destroyed at once), else None."""
    space = str(state.var("battle"))
    power = state.active_side
    cat = world(game).catalog
    a_pieces = attackers(game, state, space, power)
    d_pieces = role_pieces(game, state, "defender")
    final, result = c.conclude(
        c.BattleState(force(a_pieces), force(d_pieces), force(pending(game, state))),
        cat,
        attacker_can_retreat=may_retreat(game, state),
    )
    if result is None:
        return None
    state, evs = _drop_pending(game, state)
    for pieces, left in ((a_pieces, final.attacker), (d_pieces, final.defender)):
        have = force(pieces)
        gone = {u: n - left.count(u) for u, n in have.units if n > left.count(u)}
        if gone:
            state, more = remove(game, state, pieces, c.Casualties.of(gone))
            evs += (
                Event("combat", "Defenseless transports are destroyed", power, c.R_DEFENSELESS),
            ) + more
    return Outcome(state, evs).then(finish(game, state, result))


def remove(
    game: Game, state: GameState, pieces: tuple[Piece, ...], cas: c.Casualties
) -> tuple[GameState, tuple[Event, ...]]:
    """Take the chosen casualties off the board: damaged battleships sink first."""
    evs = []
    lost = 0
    for unit, n in cas.lost:
        cands = sorted(
            (p for p in pieces if p.type == unit), key=lambda p: (not p.attrs.get("damaged"), p.id)
        )
        for p in cands[:n]:
            state = state.without_piece(p.id)
            lost += 1
            evs.append(
                Event("combat", f"{game.rules.piece_name(game, p)} is destroyed", p.side, c.R_STEP5)
            )
            # Cargo goes down with its transport (Transports, pg. 31).
            for q in state.pieces_at(p.location):
                if q.attrs.get("on") == p.id:
                    state = state.without_piece(q.id)
                    lost += 1
                    evs.append(
                        Event(
                            "combat",
                            f"{game.rules.piece_name(game, q)} is lost with its transport",
                            q.side,
                            c.R_TRANSPORT,
                        )
                    )
    for unit, n in cas.damaged:
        cands = [
            p
            for p in pieces
            if p.type == unit and not p.attrs.get("damaged") and p.id in state.pieces
        ]
        for p in cands[:n]:
            state = state.with_piece(p.with_attr("damaged", True))
            evs.append(
                Event(
                    "combat", f"{game.rules.piece_name(game, p)} is damaged", p.side, c.R_BATTLESHIP
                )
            )
    if lost:
        state = state.with_var("lost_total", int(state.var("lost_total", 0)) + lost)
    return state, tuple(evs)


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


def retreat(game: Game, state: GameState, to: str | None = None) -> Outcome:
    """Land and sea units (with their cargo) go to `to`; aircraft stay and land in
    Noncombat Move; without a destination (a stalemate) every unit stays. Seaborne land
    units cannot retreat: they fight on alone (Amphibious Assaults, Step 3, pg. 17)."""
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
        return Outcome(state, tuple(evs)).then(next_round(game, state))
    return Outcome(state, tuple(evs)).then(
        done(game, state, f"The attack on {space_name(game, space)} retreats")
    )


def done(game: Game, state: GameState, text: str) -> Outcome:
    space = str(state.var("battle"))
    for p in state.pieces_at(space):  # submerged subs are back on the map (pg. 30)
        if p.attrs.get("submerged"):
            state = state.with_piece(replace(p, attrs=p.attrs.remove("submerged")))
    state = state.with_var("battle", None).with_var("withdrawn", ()).with_var(
        "battle_defender", None)
    state = state.with_var("resolved", tuple(state.var("resolved", ())) + (space,))
    return Outcome(state, (Event("combat", text, state.active_side, R_PHASE),))


def finish(game: Game, state: GameState, result: str) -> Outcome:
    space = str(state.var("battle"))
    power = state.active_side
    if result == c.RETREAT:  # only transports left against defenders that can fire
        opts = retreat_options(game, state)
        return retreat(game, state, opts[0] if opts else None)
    if result == c.STALEMATE:
        return retreat(game, state)
    if result != c.ATTACKER_WINS or space not in world(game).land:
        return done(game, state, f"Battle in {space_name(game, space)} ends: {result}")
    if not any(stats(game, p).land for p in attackers(game, state, space, power)):
        return done(
            game, state, f"Battle in {space_name(game, space)}: no land unit survives to take it"
        )
    cap = capture(game, state, space, power)
    return cap.then(done(game, cap.state, f"Battle in {space_name(game, space)} won"))


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
        )
    )
    if loser and w.capital.get(loser) == space:
        loot = ipcs(state, loser)
        state = with_ipcs(with_ipcs(state, power, ipcs(state, power) + loot), loser, 0)
        evs.append(
            Event(
                "combat",
                f"{game.definition.side(power).name} captures the capital "
                f"of {game.definition.side(loser).name} and takes {loot} IPCs",
                power,
                R_CAPITAL,
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
