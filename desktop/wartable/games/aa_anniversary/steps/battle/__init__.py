"""Phase 4: Conduct Combat (pg. 16-20) on the map, with combat.py's round rules: the
General Combat Sequence (pg. 18), one module per step, run in order by this one.

The attacker picks a battle ("fight", a space); Amphibious Assaults (amphibious.py: the sea
battle first, bombardment, the landing), then Step 1 (forces.py: who fights), AA fire before
the first round (Antiaircraft Guns, pg. 25), then rounds: Step 2 (submarines.py: submerge or
Surprise Strike), Steps 3-4 (fire.py: the attacking and defending dice are rolled together,
the defender's casualties still fire), Step 5 (casualties.py: the DEFENDING power chooses its
casualties, then the attacker its own), Step 6 (retreat.py: the battle ends, Condition A, or
the attacker presses on or retreats), Step 7 (conclude.py: capture, liberation, capitals).

Each step's substance lives in its module; this one holds what happens next (the steps
continue into each other, and a retreat or a press goes back to the next round), the
prompts and frames the rules dispatch to, and the dice the battle waits for (`resume`).

Strategic bombing raids come first (steps/bombing.py): no battle is fought while a raid is
undecided; raiding bombers and escorts (attr `raided`) and interceptors (`intercepting`)
take part in no battle.
"""

from __future__ import annotations

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.core.words import plural
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button, roll_then
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.steps import bombing
from wartable.games.aa_anniversary.steps.battle.amphibious import (
    R_IGNORE,
    bombard,
    bombard_choices,
    bombard_prompt,
    chosen_ships,
    land_assault,
    may_ignore,
    sea_battle_first,
)
from wartable.games.aa_anniversary.steps.battle.casualties import (
    DISAGREE,
    attacker_chooses,
    casualty_prompt,
    chosen_casualties,
    drop_pending,
    push_casualties,
    removal_rule,
    remove,
    to_casualty_zone,
)
from wartable.games.aa_anniversary.steps.battle.conclude import capture, done
from wartable.games.aa_anniversary.steps.battle.fire import fire_groups, roll_groups, score
from wartable.games.aa_anniversary.steps.battle.forces import (
    R_PHASE,
    attackers,
    battle_values,
    battles,
    defenders,
    defending_power,
    force,
    force_data,
    pending,
    role_pieces,
    round_plan,
)
from wartable.games.aa_anniversary.steps.battle.retreat import (
    may_retreat,
    press_frame,
    press_prompt,
    retreat_options,
    retreat_to,
    withdraw,
)
from wartable.games.aa_anniversary.steps.battle.submarines import (
    strike_groups,
    strike_plan,
    submerge,
    submerge_frame,
    submerge_prompt,
)
from wartable.games.aa_anniversary.steps.common import space_name, stats, world
from wartable.model.state import Frame, GameState

FRAMES = ("casualties", "press", "submerge", "bombard")


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
        data=FrozenMap(battle="start", space=space, attacker=force_data(att),
                       defender=force_data(dfn)),
    )
    if not attackers(game, state, space, power):
        return Outcome(state, (*landing, ev)).then(
            done(game, state, f"No unit left to attack {space_name(game, space)}",
                 "no_attacker"))
    if space in world(game).land and defenders(game, state, space, power) \
            and bombard_choices(game, state, space, power):
        frame = Frame("bombard", power, f"{game.definition.side(power).name}: bombard "
                      f"{space_name(game, space)} before the landing?", c.R_BOMBARD,
                      FrozenMap(space=space))
        return Outcome(state.push_frame(frame), (*landing, ev))
    return Outcome(state, (*landing, ev)).then(aa_fire(game, state))


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
    """Step 2 (Submersible, pg. 30): subs that could make a Surprise Strike may submerge
    instead; the attacker decides first, then the defender, before any dice are rolled."""
    frame = submerge_frame(game, state, role)
    if frame is not None:
        return Outcome(state.push_frame(frame))
    if role == "attacker":
        return ask_submerge(game, state, "defender")
    return _strike_or_fire(game, state)


def _strike_or_fire(game: Game, state: GameState) -> Outcome:
    """After the submerge choices: the battle may be over, else Step 2 strikes, else Step 3."""
    settled = settle(game, state)
    if settled is not None:
        return settled
    state = strike_plan(game, state)
    plan = round_plan(state)
    if plan.attacker_strikes or plan.defender_strikes:
        return roll_groups(game, state, strike_groups(game, state), "Submarine Surprise Strike",
                           "strike", c.R_STEP2)
    return fire(game, state)


def fire(game: Game, state: GameState) -> Outcome:
    """Steps 3-4: every unit that did not strike rolls (the defender's casualties too)."""
    state = state.with_var("battle_step", "fire")
    space, power = str(state.var("battle")), state.active_side
    if not attackers(game, state, space, power) or not defenders(game, state, space, power):
        return after_round(game, state)
    return roll_groups(game, state, fire_groups(game, state), "Combat round", "round",
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
        ev = Event("combat",
                   f"Bombardment of {space_name(game, space)}: {plural(hits.total, 'hit')}",
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
        state, evs = remove(game, state, attackers(game, state, space, power), lost, c.R_AA)
        # Paratroopers (Breakthrough Chart 1): the infantry of a bomber shot down is lost.
        gone = research.stranded_paratroopers(state, space)
        if gone:
            state, more = remove(game, state, gone, c.Casualties(force(gone).units))
            evs += more
        return Outcome(state, evs).then(next_round(game, state))
    strike = kind == "strike"
    att_hits, def_hits, ev = score(game, state, dice, strike)
    plan = round_plan(state)
    evs = (ev,)
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


def frame_prompt(game: Game, state: GameState, frame: Frame) -> Prompt:
    if frame.kind == "submerge":
        return submerge_prompt(game, state, frame)
    if frame.kind == "bombard":
        return bombard_prompt(game, state, frame)
    if frame.kind == "press":
        return press_prompt(game, state, frame)
    return casualty_prompt(game, state, frame)


def frame_apply(game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
    if frame.kind == "submerge":
        role = str(frame.data["role"])
        state, evs = submerge(game, state, frame, action)
        nxt = ask_submerge(game, state, "defender") if role == "attacker" \
            else _strike_or_fire(game, state)
        return Outcome(state, evs).then(nxt)
    if frame.kind == "bombard":
        ships = chosen_ships(game, state, frame, action)
        _, state = state.pop_frame()
        return bombard(game, state, ships) if ships else aa_fire(game, state)
    if frame.kind == "casualties" and action.verb == DISAGREE:
        state, ev = attacker_chooses(game, state, frame)
        return Outcome(state, (ev,))
    if frame.kind == "press":
        if action.verb not in ("press", "retreat"):
            raise IllegalAction(f"Press the attack or retreat [{c.R_STEP6}].")
        _, state = state.pop_frame()
        if action.verb == "press":
            return next_round(game, state)
        return retreat(game, state, retreat_to(game, state, action))
    pieces, cas = chosen_casualties(game, state, frame, action)
    _, state = state.pop_frame()
    if frame.data["role"] == "bombard":  # to the casualty zone: they defend in round one
        state, evs = to_casualty_zone(game, state, pieces, cas)
        return Outcome(state, evs).then(aa_fire(game, state))
    state, evs = remove(game, state, pieces, cas, removal_rule(
        str(frame.data["role"]), state.var("battle_step") == "strike"))
    if state.frames and state.top_frame is not None and state.top_frame.kind == "casualties":
        return Outcome(state, evs)
    if state.var("battle_step") == "strike":  # Step 2 done: the others fire (Steps 3-4)
        return Outcome(state, evs).then(fire(game, state))
    return Outcome(state, evs).then(after_round(game, state))


def after_round(game: Game, state: GameState) -> Outcome:
    state, evs = drop_pending(game, state)  # Step 5 of round one (Amphibious Assaults)
    if evs:
        return Outcome(state, evs).then(after_round(game, state))
    settled = settle(game, state)
    if settled is not None:
        return settled
    return Outcome(state.push_frame(press_frame(game, state)))


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
    state, evs = drop_pending(game, state)
    for pieces, left in ((a_pieces, final.attacker), (d_pieces, final.defender)):
        have = force(pieces)
        gone = {u: n - left.count(u) for u, n in have.units if n > left.count(u)}
        if gone:
            state, more = remove(game, state, pieces, c.Casualties.of(gone), c.R_DEFENSELESS)
            evs += (
                Event("combat", "Defenseless transports are destroyed", power, c.R_DEFENSELESS),
            ) + more
    return Outcome(state, evs).then(finish(game, state, result))


def retreat(game: Game, state: GameState, to: str | None = None) -> Outcome:
    """Step 6: the attackers withdraw (retreat.withdraw); seaborne units that cannot
    retreat fight the next round, else the battle ends."""
    space = str(state.var("battle"))
    state, evs, fights_on = withdraw(game, state, to)
    if fights_on:
        return Outcome(state, evs).then(next_round(game, state))
    return Outcome(state, evs).then(
        done(game, state, f"The attack on {space_name(game, space)} retreats", "retreats")
    )


# How the log says a battle ended (General Combat Step 7, pg. 20), not the result's id.
RESULT_WORDS = {
    c.ATTACKER_WINS: "the attacker wins",
    c.DEFENDER_WINS: "the defender wins",
    c.DRAW: "both sides are destroyed",
}


def finish(game: Game, state: GameState, result: str) -> Outcome:
    space = str(state.var("battle"))
    power = state.active_side
    if result == c.RETREAT:  # only transports left against defenders that can fire
        opts = retreat_options(game, state)
        return retreat(game, state, opts[0] if opts else None)
    if result == c.STALEMATE:
        return retreat(game, state)
    if result != c.ATTACKER_WINS or space not in world(game).land:
        return done(game, state, f"Battle in {space_name(game, space)} ends: "
                    f"{RESULT_WORDS.get(result, result)}", "ends", result)
    if not any(stats(game, p).land for p in attackers(game, state, space, power)):
        return done(
            game, state, f"Battle in {space_name(game, space)}: no land unit survives to take it",
            "no_land_unit")
    cap = capture(game, state, space, power)
    return cap.then(done(game, cap.state, f"Battle in {space_name(game, space)} won", "won"))
