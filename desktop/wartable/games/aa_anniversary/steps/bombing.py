"""Conduct Combat, Step 1: Strategic Bombing Raids (pg. 17), rockets, factory damage and repair.

Strategic Bombing Raids: bombers that ended Combat Move in an enemy territory holding an
industrial complex may raid it instead of joining a battle there (Bombers, Strategic Bombing
Raids: "either ... normal combat or ... an economic attack"). The attacker decides each
territory's raid before any other battle (Combat Sequence: 1. strategic bombing raids): how
many of the bombers there raid (the rest fight normally), or none. Then:
  1. the territory's antiaircraft gun rolls one die per raiding aircraft, hitting on a 1
     (Radar: 1-2); only one gun fires (Antiaircraft Guns, pg. 25);
  2. optional rule Fighter Escorts and Interceptors (pg. 24): one round of air combat,
     escorts attack at 1 (Jet Fighters: 2), interceptors defend at 2, bombers do not fire;
  3. each surviving bomber rolls one die (Heavy Bombers: two, the best counts); the total
     is the damage placed under the complex, which never holds more than twice the
     territory's IPC value ("Any excess damage is not applied").
A raiding bomber fights no other battle this turn (piece attr `raided`) and lands in
Noncombat Move. Escorts and interceptors fight no other battle this turn either (attrs
`raided`, `intercepting`).

Rockets (Breakthrough Chart 1): in the same step each territory with one of the power's AA
guns may fire one rocket at an enemy industrial complex within 3 spaces (not across neutral
territories), for 1d6 damage; each complex takes at most one rocket a turn.

Damage (Industrial Complexes, Damaged Factories, pg. 25): the factory piece's attr `damage`
(markers); each marker is one unit less mobilized there (steps/mobilize.room). Repairs
(Phase 2, Step 2: Pay for Units & Repairs): 1 IPC per marker, two markers per IPC with
Increased Factory Production; repairs take effect at once. Captured complexes keep their
damage (Conclude Combat).

Bookkeeping: the "resolved" var of Conduct Combat also holds "sbr:<space>" (the raid on that
space is decided), "rocket:<space>" (a complex already hit by a rocket) and
"launch:<space>" (a territory whose gun already launched).
After all of the attacker's combats (when Conduct Combat ends) interceptors land: back in
their territory, or, if it was captured, one space away in a friendly territory or on a
friendly carrier with room, chosen by their owner (frame `intercept_land`), else lost.

Decisions of ours (the rulebook is silent): interceptors are chosen as the raid begins rather
than all at once after Combat Move; hits on interceptors take the lowest-numbered fighters.
"""

from __future__ import annotations

from dataclasses import replace

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import roll_then
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.steps.common import (
    allied,
    controller,
    enemy_blocking_ships,
    enemy_units,
    ipcs,
    space_name,
    stats,
    with_ipcs,
    world,
)
from wartable.model.state import Frame, GameState, Piece

R_SBR = "Conduct Combat, 1. Strategic Bombing Raids (pg. 17)"
R_BOMBER = "Unit Profiles: Bombers, Strategic Bombing Raids (pg. 26)"
R_AA = "Unit Profiles: Antiaircraft Guns, Shoot Down Air Units (pg. 25)"
R_DAMAGE = "Unit Profiles: Industrial Complexes, Damaged Factories (pg. 25)"
R_REPAIR = "Phase 2: Purchase Units, Step 2: Pay for Units & Repairs (pg. 12)"
R_ESCORTS = "Additional Optional Rules: Fighter Escorts and Interceptors (pg. 24)"
R_HEAVY = "Research & Development, Breakthrough Chart 2: 6. Heavy Bombers"
R_RADAR = "Research & Development, Breakthrough Chart 2: 4. Radar"
R_JETS = "Research & Development, Breakthrough Chart 2: 2. Jet Fighters"
R_ROCKETS = "Research & Development, Breakthrough Chart 1: 2. Rockets"
R_IFP = "Research & Development, Breakthrough Chart 1: 4. Increased Factory Production"

OPTION = "escorts_interceptors"
ESCORT_ATTACK, ESCORT_JET_ATTACK, INTERCEPT_DEFENSE = 1, 2, 2  # Fighter Escorts (pg. 24)


# --- damage markers --------------------------------------------------------------------------

def factory_at(game: Game, state: GameState, space: str) -> Piece | None:
    for p in state.pieces_at(space):
        if stats(game, p).factory:
            return p
    return None


def damage(game: Game, state: GameState, space: str) -> int:
    """Damage markers under the territory's industrial complex (0 without one)."""
    f = factory_at(game, state, space)
    return int(f.attrs.get("damage", 0)) if f is not None else 0


def damage_cap(game: Game, space: str) -> int:
    """Twice the territory's IPC value (Strategic Bombing Raids; Damaged Factories)."""
    return 2 * world(game).ipc.get(space, 0)


def add_damage(game: Game, state: GameState, space: str, amount: int) -> tuple[GameState, int]:
    """Place up to `amount` markers under the complex; the excess over the cap is lost."""
    f = factory_at(game, state, space)
    if f is None:
        return state, 0
    now = int(f.attrs.get("damage", 0))
    applied = max(0, min(amount, damage_cap(game, space) - now))
    return state.with_piece(f.with_attr("damage", now + applied)), applied


# --- raids -----------------------------------------------------------------------------------

def _done(state: GameState) -> set[str]:
    return set(state.var("resolved", ()))


def bombers_at(game: Game, state: GameState, space: str, power: str) -> tuple[Piece, ...]:
    """Bombers that may raid: a bomber that carried paratroopers this turn may not
    (Breakthrough Chart 1: 3. Paratroopers)."""
    return tuple(sorted((p for p in state.pieces_at(space)
                         if p.side == power and p.type == "bomber"
                         and not p.attrs.get("raided") and not p.attrs.get("on")
                         and not research.carried_paratrooper(state, p.id)),
                        key=lambda p: p.id))


def escorts_at(game: Game, state: GameState, space: str, power: str) -> tuple[Piece, ...]:
    if not state.option(OPTION, False):
        return ()
    return tuple(sorted((p for p in state.pieces_at(space)
                         if p.side == power and p.type == "fighter"
                         and not p.attrs.get("raided")), key=lambda p: p.id))


def raid_targets(game: Game, state: GameState, power: str) -> tuple[str, ...]:
    """Enemy territories with an industrial complex and the power's bombers, undecided."""
    done = _done(state)
    out = []
    for space in world(game).land:
        if "sbr:" + space in done or space in done:
            continue
        f = factory_at(game, state, space)
        ctl = controller(state, space)
        if f is None or allied(game, f.side, power) or (ctl and allied(game, ctl, power)):
            continue
        if bombers_at(game, state, space, power):
            out.append(space)
    return tuple(sorted(out))


def raiders(state: GameState, space: str, power: str) -> tuple[Piece, ...]:
    """The aircraft of the raid in progress: bombers first, then escorts."""
    return tuple(sorted((p for p in state.pieces_at(space)
                         if p.side == power and p.attrs.get("raided")),
                        key=lambda p: (p.type != "bomber", p.id)))


def interceptors(state: GameState, space: str) -> tuple[Piece, ...]:
    return tuple(sorted((p for p in state.pieces_at(space) if p.attrs.get("intercepting")),
                        key=lambda p: p.id))


def buttons(game: Game, state: GameState, power: str) -> tuple[Button, ...]:
    """Raid choices for every undecided territory, then rocket launches."""
    out: list[Button] = []
    for space in raid_targets(game, state, power):
        name = space_name(game, space)
        nb = len(bombers_at(game, state, space, power))
        ne = len(escorts_at(game, state, space, power))
        # Every bomber count with all escorts, and all bombers with fewer escorts; any other
        # mix is accepted as an action too.
        combos = [(k, ne) for k in range(nb, 0, -1)] + [(nb, e) for e in range(ne - 1, -1, -1)]
        for k, e in combos:
            label = f"Strategic bombing raid on {name}: {k} bomber{'s' * (k > 1)}"
            label += f", {e} escort{'s' * (e != 1)}" if ne else ""
            out.append(Button("raid", label, R_SBR,
                              args=FrozenMap(space=space, bombers=k, escorts=e)))
        out.append(Button("no_raid", f"No raid on {name}: its bombers join the battle there",
                          R_BOMBER, args=FrozenMap(space=space)))
    return (*out, *rocket_buttons(game, state, power))


def raid(game: Game, state: GameState, power: str, action: Action) -> Outcome:
    space = action.args.get("space")
    if not isinstance(space, str) or space not in raid_targets(game, state, power):
        raise IllegalAction(f"No strategic bombing raid is possible on {space_name(game, space)} "
                            f"[{R_SBR}].")
    bombers = bombers_at(game, state, space, power)
    escorts = escorts_at(game, state, space, power)
    k, e = action.args.get("bombers", len(bombers)), action.args.get("escorts", 0)
    if not isinstance(k, int) or not 1 <= k <= len(bombers):
        raise IllegalAction(f"Raid with 1 to {len(bombers)} bombers [{R_SBR}].")
    if not isinstance(e, int) or not 0 <= e <= len(escorts):
        raise IllegalAction(f"Escort with 0 to {len(escorts)} fighters [{R_ESCORTS}].")
    for p in (*bombers[:k], *escorts[:e]):
        state = state.with_piece(p.with_attr("raided", True))
    state = _mark(state, "sbr:" + space).with_var("raid", space)
    who = game.definition.side(power).name
    ev = Event("combat", f"{who} raids the industrial complex in {space_name(game, space)} "
               f"with {k} bomber{'s' * (k > 1)}" + (f" and {e} escorts" if e else ""),
               power, R_SBR)
    cands = _interceptor_candidates(game, state, space, power)
    if cands:
        owner = _defender(game, state, space, power)
        frame = Frame("intercept", owner,
                      f"{game.definition.side(owner).name}: how many fighters in "
                      f"{space_name(game, space)} intercept the raid?", R_ESCORTS,
                      FrozenMap(space=space))
        return Outcome(state.push_frame(frame), (ev,))
    return Outcome(state, (ev,)).then(_aa(game, state))


def no_raid(game: Game, state: GameState, power: str, action: Action) -> Outcome:
    space = action.args.get("space")
    if not isinstance(space, str) or space not in raid_targets(game, state, power):
        raise IllegalAction(f"There is no raid to decide in {space_name(game, space)} "
                            f"[{R_SBR}].")
    return Outcome(_mark(state, "sbr:" + space), (Event(
        "combat", f"No strategic bombing raid on {space_name(game, space)}: the bombers "
        f"fight the battle there", power, R_BOMBER),))


def _mark(state: GameState, key: str) -> GameState:
    return state.with_var("resolved", (*state.var("resolved", ()), key))


def _defender(game: Game, state: GameState, space: str, power: str) -> str:
    f = factory_at(game, state, space)
    return f.side if f is not None else controller(state, space)


def _interceptor_candidates(game: Game, state: GameState, space: str,
                            power: str) -> tuple[Piece, ...]:
    if not state.option(OPTION, False):
        return ()
    return tuple(sorted((p for p in state.pieces_at(space)
                         if p.type == "fighter" and not allied(game, p.side, power)),
                        key=lambda p: p.id))


def frame_prompt(game: Game, state: GameState, frame: Frame) -> Prompt:
    space = str(frame.data["space"])
    if frame.kind == "intercept":
        n = len(_interceptor_candidates(game, state, space, state.active_side))
        return Prompt(frame.side, frame.text, frame.rule, buttons=tuple(
            Button("intercept", f"Intercept with {k} fighter{'s' * (k != 1)}", R_ESCORTS,
                   args=FrozenMap(count=k)) for k in range(n, -1, -1)))
    # "sbr_casualties": the attacker's losses to interceptor hits, escorts first by default.
    hits = int(frame.data["hits"])
    air = raiders(state, space, state.active_side)
    nb = sum(1 for p in air if p.type == "bomber")
    nf = len(air) - nb
    opts = [(b, hits - b) for b in range(0, nb + 1) if 0 <= hits - b <= nf]
    opts.sort(key=lambda o: o[0])
    return Prompt(frame.side, frame.text, frame.rule, buttons=tuple(
        Button("casualties", ("Default: " if i == 0 else "") + f"{b} bombers, {f} fighters",
               R_ESCORTS, args=FrozenMap(lost=FrozenMap(bomber=b, fighter=f)))
        for i, (b, f) in enumerate(opts)))


def frame_apply(game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
    space = str(frame.data["space"])
    power = state.active_side
    if frame.kind == "intercept":
        cands = _interceptor_candidates(game, state, space, power)
        k = action.args.get("count")
        if action.verb != "intercept" or not isinstance(k, int) or not 0 <= k <= len(cands):
            raise IllegalAction(f"Intercept with 0 to {len(cands)} fighters [{R_ESCORTS}].")
        _, state = state.pop_frame()
        for p in cands[:k]:
            state = state.with_piece(p.with_attr("intercepting", True))
        ev = Event("combat", f"{k} fighters intercept the raid on {space_name(game, space)}",
                   frame.side, R_ESCORTS)
        return Outcome(state, (ev,)).then(_aa(game, state))
    lost = action.args.get("lost", FrozenMap())
    try:
        b, f = int(dict(lost).get("bomber", 0)), int(dict(lost).get("fighter", 0))
    except (TypeError, ValueError, AttributeError):
        raise IllegalAction("Casualties are given as unit type -> count.") from None
    air = raiders(state, space, power)
    bombers = [p for p in air if p.type == "bomber"]
    fighters = [p for p in air if p.type == "fighter"]
    hits = int(frame.data["hits"])
    if action.verb != "casualties" or b + f != hits or not (0 <= b <= len(bombers)) \
            or not (0 <= f <= len(fighters)):
        raise IllegalAction(f"Choose exactly {hits} of your raiding aircraft [{R_ESCORTS}].")
    _, state = state.pop_frame()
    state, evs = destroy(game, state, (*bombers[:b], *fighters[:f]), R_ESCORTS)
    return Outcome(state, evs).then(_bomb(game, state))


def destroy(game: Game, state: GameState, pieces: tuple[Piece, ...] | list[Piece],
            rule: str) -> tuple[GameState, tuple[Event, ...]]:
    evs = []
    for p in pieces:
        state = state.without_piece(p.id)
        evs.append(Event("combat", f"{game.rules.piece_name(game, p)} is destroyed", p.side,
                         rule, data=FrozenMap(lost=p.type, piece=p.id, how="destroyed")))
    if pieces:
        state = state.with_var("lost_total", int(state.var("lost_total", 0)) + len(pieces))
    return state, tuple(evs)


def aa_value(game: Game, state: GameState, space: str, power: str) -> int:
    """The best enemy AA gun's hit number (Radar: 2), 0 without a gun (pg. 25); only one gun
    fires, so the defender fires the best one."""
    best = 0
    for p in state.pieces_at(space):
        s = stats(game, p)
        if s.aa and not allied(game, p.side, power):
            best = max(best, research.aa_hit_max(game, state, p.side, p.type))
    return best


def _aa(game: Game, state: GameState) -> Outcome:
    space, power = str(state.var("raid")), state.active_side
    air = raiders(state, space, power)
    if aa_value(game, state, space, power) and air:
        nb = sum(1 for p in air if p.type == "bomber")
        order = f"{nb} at the bombers" + (f", then {len(air) - nb} at the escorts"
                                          if len(air) > nb else "")
        return roll_then(game, state, count=len(air), sides=6,
                         purpose=f"AA fire at the raid on {space_name(game, space)} ({order})",
                         side=_defender(game, state, space, power), resume="sbr_aa", rule=R_AA)
    return _air_battle(game, state)


def _air_battle(game: Game, state: GameState) -> Outcome:
    space, power = str(state.var("raid")), state.active_side
    air, icpt = raiders(state, space, power), interceptors(state, space)
    if not air or not icpt:
        return _bomb(game, state)
    escorts = sum(1 for p in air if p.type == "fighter")
    return roll_then(game, state, count=escorts + len(icpt), sides=6,
                     purpose=f"Escorts and interceptors over {space_name(game, space)}",
                     side=power, resume="sbr_air", rule=R_ESCORTS)


def _bomb(game: Game, state: GameState) -> Outcome:
    space, power = str(state.var("raid")), state.active_side
    n = sum(1 for p in raiders(state, space, power) if p.type == "bomber")
    if not n:
        return _finish(game, state, "no bomber reaches the target", FrozenMap())
    per = research.bomber_dice(game, state, power)
    return roll_then(game, state, count=n * per, sides=6,
                     purpose=f"Bombing the industrial complex in {space_name(game, space)}",
                     side=power, resume="sbr_damage", rule=R_HEAVY if per > 1 else R_SBR)


def _finish(game: Game, state: GameState, text: str, damage: FrozenMap[str, int]) -> Outcome:
    """The raid's last line; `damage` (rolled, applied, markers, cap) when bombs fell."""
    space = str(state.var("raid"))
    state = state.with_var("raid", None)
    return Outcome(state, (Event("combat", f"Raid on {space_name(game, space)}: {text}",
                                 state.active_side, R_SBR,
                                 data=FrozenMap(raid=space, **damage)),))


def resume(game: Game, state: GameState, kind: str, data: FrozenMap[str, object],
           dice: tuple[int, ...]) -> Outcome:
    power = state.active_side
    if kind == "rocket":
        return _rocket_hit(game, state, data, dice)
    space = str(state.var("raid"))
    air = raiders(state, space, power)
    if kind == "sbr_aa":
        # One die per aircraft, in the order named: bombers, then escorts (pg. 25).
        v = aa_value(game, state, space, power)
        state, evs = destroy(game, state, [p for p, d in zip(air, dice, strict=True) if d <= v],
                             R_RADAR if v > 1 else R_AA)
        return Outcome(state, evs).then(_air_battle(game, state))
    if kind == "sbr_air":
        escorts = [p for p in air if p.type == "fighter"]
        icpt = interceptors(state, space)
        av = ESCORT_JET_ATTACK if research.has(state, power, research.JET_FIGHTERS) \
            else ESCORT_ATTACK
        att_hits = sum(1 for d in dice[:len(escorts)] if d <= av)
        def_hits = sum(1 for d in dice[len(escorts):] if d <= INTERCEPT_DEFENSE)
        evs = (Event("combat", f"Air battle over {space_name(game, space)}: escorts score "
                     f"{att_hits}, interceptors {def_hits}", power, R_ESCORTS),)
        # Both sides fired together (one round, General Combat); now take the losses.
        state, more = destroy(game, state, icpt[:att_hits], R_ESCORTS)
        evs += more
        hits = min(def_hits, len(air))
        kinds = {p.type for p in air}
        if hits and hits < len(air) and len(kinds) > 1:
            frame = Frame("sbr_casualties", power,
                          f"{game.definition.side(power).name}: choose {hits} raiding "
                          f"aircraft lost over {space_name(game, space)}.", R_ESCORTS,
                          FrozenMap(space=space, hits=hits))
            return Outcome(state.push_frame(frame), evs)
        # No choice left: one kind of aircraft, or every raider is hit.
        state, more = destroy(game, state, air[:hits], R_ESCORTS)
        return Outcome(state, evs + more).then(_bomb(game, state))
    # "sbr_damage": each bomber's die (Heavy Bombers: the better of two) adds to the total.
    per = research.bomber_dice(game, state, power)
    rolls = [max(dice[i:i + per]) for i in range(0, len(dice), per)]
    state, applied = add_damage(game, state, space, sum(rolls))
    text = (f"{sum(rolls)} damage rolled, {applied} applied ({damage(game, state, space)} of "
            f"at most {damage_cap(game, space)} markers now) [{R_DAMAGE}]")
    return _finish(game, state, text, FrozenMap(
        rolled=sum(rolls), applied=applied, markers=damage(game, state, space),
        cap=damage_cap(game, space)))


# --- rockets ---------------------------------------------------------------------------------

def _in_sbr_step(state: GameState) -> bool:
    """No battle after the raids has been fought yet (Combat Sequence, pg. 16)."""
    return all(":" in str(k) for k in state.var("resolved", ()))


def within(game: Game, start: str, steps: int) -> frozenset[str]:
    """Spaces reachable in `steps` moves without crossing a neutral territory."""
    w = world(game)
    seen = {start}
    frontier = [start]
    for _ in range(steps):
        nxt = []
        for s in frontier:
            for n in w.neighbors[s]:
                if n not in seen and n not in w.neutral:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return frozenset(seen)


def rocket_launches(game: Game, state: GameState, power: str) -> tuple[tuple[str, str], ...]:
    """(launch territory, target territory) pairs open to the power now."""
    reach = research.rocket_range(game, state, power)
    if not reach or not _in_sbr_step(state):
        return ()
    done = _done(state)
    sites = sorted({p.location for p in state.pieces.values()
                    if p.side == power and stats(game, p).aa
                    and p.location in world(game).land and "launch:" + p.location not in done})
    out = []
    for site in sites:
        for t in sorted(within(game, site, reach)):
            f = factory_at(game, state, t)
            if f is not None and not allied(game, f.side, power) and "rocket:" + t not in done:
                out.append((site, t))
    return tuple(out)


def rocket_buttons(game: Game, state: GameState, power: str) -> tuple[Button, ...]:
    return tuple(Button("rocket", f"Rocket from {space_name(game, a)} at the industrial "
                        f"complex in {space_name(game, b)}", R_ROCKETS,
                        args=FrozenMap(launch=a, target=b))
                 for a, b in rocket_launches(game, state, power))


def rocket(game: Game, state: GameState, power: str, action: Action) -> Outcome:
    pair = (action.args.get("launch"), action.args.get("target"))
    if pair not in rocket_launches(game, state, power):
        raise IllegalAction(f"No rocket can be launched from {pair[0]!r} at {pair[1]!r}: an AA "
                            f"gun of yours, one launch per territory, a complex within "
                            f"range, once per complex [{R_ROCKETS}].")
    a, b = str(pair[0]), str(pair[1])
    state = _mark(_mark(state, "launch:" + a), "rocket:" + b)
    return roll_then(game, state, count=research.rocket_dice(game, state, power), sides=6,
                     purpose=f"Rocket at {space_name(game, b)}", side=power, resume="rocket",
                     data=FrozenMap(launch=a, target=b), rule=R_ROCKETS)


def _rocket_hit(game: Game, state: GameState, data: FrozenMap[str, object],
                dice: tuple[int, ...]) -> Outcome:
    target = str(data["target"])
    state, applied = add_damage(game, state, target, sum(dice))
    return Outcome(state, (Event(
        "combat", f"Rocket hits the industrial complex in {space_name(game, target)}: "
        f"{sum(dice)} damage, {applied} applied (cap {damage_cap(game, target)})",
        state.active_side, R_ROCKETS,
        data=FrozenMap(rocket=target, rolled=sum(dice), applied=applied,
                       cap=damage_cap(game, target))),))


# --- repair (Phase 2) ------------------------------------------------------------------------

def repair_buttons(game: Game, state: GameState, power: str) -> tuple[Button, ...]:
    out = []
    have = ipcs(state, power)
    for p in sorted(state.pieces.values(), key=lambda q: q.location):
        dmg = int(p.attrs.get("damage", 0))
        if p.side != power or not stats(game, p).factory or dmg <= 0:
            continue
        for n in sorted({1, dmg}):
            k = research.repair_cost(game, state, power, n)
            out.append(Button("repair", f"Repair {n} damage in {space_name(game, p.location)} "
                              f"({k} IPC{'s' * (k != 1)})", R_REPAIR, enabled=k <= have,
                              reason="" if k <= have else f"{have} IPCs left",
                              args=FrozenMap(space=p.location, markers=n)))
    return tuple(out)


def repair(game: Game, state: GameState, power: str, action: Action) -> Outcome:
    space, n = action.args.get("space"), action.args.get("markers", 1)
    f = factory_at(game, state, space) if isinstance(space, str) else None
    if f is None or f.side != power:
        raise IllegalAction(f"You have no industrial complex in {space_name(game, space)} "
                            f"[{R_REPAIR}].")
    dmg = int(f.attrs.get("damage", 0))
    if not isinstance(n, int) or not 1 <= n <= dmg:
        raise IllegalAction(f"The complex in {space_name(game, space)} has {dmg} damage "
                            f"markers [{R_REPAIR}].")
    k = research.repair_cost(game, state, power, n)
    have = ipcs(state, power)
    if k > have:
        raise IllegalAction(f"Removing {n} markers costs {k} IPCs; you have {have} "
                            f"[{R_REPAIR}].")
    state = with_ipcs(state, power, have - k)
    left = dmg - n
    state = state.with_piece(f.with_attr("damage", left))
    return Outcome(state, (Event("purchase", f"{game.definition.side(power).name} repairs {n} "
                                 f"damage in {space_name(game, space)} for {k} IPCs "
                                 f"({left} left)", power, R_REPAIR,
                                 data=FrozenMap(repair=space, markers=n, cost=k, left=left)),))


# --- interceptors land (Fighter Escorts and Interceptors, pg. 24) ------------------------------

LAND_FRAME = "intercept_land"


def displaced_interceptors(game: Game, state: GameState) -> tuple[Piece, ...]:
    """Interceptors whose territory was captured: "Defending interceptors must land in their
    original territory after the combat. If that territory is captured, they may move one
    space to land in a friendly territory or on a friendly aircraft carrier." """
    return tuple(sorted((p for p in state.pieces.values() if p.attrs.get("intercepting")
                         and not allied(game, controller(state, p.location) or p.side, p.side)),
                        key=lambda p: p.id))


def landing_spots(game: Game, state: GameState, fighter: Piece) -> tuple[str, ...]:
    """One space away: a friendly territory free of enemy units, or a sea zone with a
    friendly carrier that has room (two fighters a carrier) and no enemy surface warships."""
    w, power = world(game), fighter.side
    out = []
    for n in w.neighbors[fighter.location]:
        if n in w.land:
            ctl = controller(state, n)
            if ctl and allied(game, ctl, power) and not enemy_units(game, state, n, power):
                out.append(n)
        elif n in w.sea and not enemy_blocking_ships(game, state, n, power):
            here = [q for q in state.pieces_at(n) if allied(game, q.side, power)]
            room = sum(int(game.definition.unit_types[q.type].extra.get("carrier_capacity", 0))
                       for q in here) - sum(1 for q in here if q.type == "fighter")
            if room > 0:
                out.append(n)
    return tuple(sorted(out))


def land_interceptors(game: Game, state: GameState) -> Outcome:
    """After all of the attacker's combats (the end of Conduct Combat): interceptors back in
    a friendly territory simply land; each one whose territory was captured is moved one
    space by its owner (a frame with the legal spots), or lost if there is none."""
    for p in sorted(state.pieces.values(), key=lambda q: q.id):
        if p.attrs.get("intercepting") and p not in displaced_interceptors(game, state):
            state = state.with_piece(replace(p, attrs=p.attrs.remove("intercepting")))
    evs: list[Event] = []
    for p in displaced_interceptors(game, state):
        spots = landing_spots(game, state, p)
        name = game.rules.piece_name(game, p)
        if spots:
            frame = Frame(LAND_FRAME, p.side, f"{game.definition.side(p.side).name}: "
                          f"{space_name(game, p.location)} was captured. Where does the "
                          f"interceptor {name} land (one space)?", R_ESCORTS,
                          FrozenMap(piece=p.id, space=p.location))
            return Outcome(state.push_frame(frame), tuple(evs))
        state = state.without_piece(p.id).with_var(
            "lost_total", int(state.var("lost_total", 0)) + 1)
        evs.append(Event("combat", f"{name} has no friendly territory or carrier one space "
                         f"from {space_name(game, p.location)} to land: it is lost", p.side,
                         R_ESCORTS))
    return Outcome(state, tuple(evs))


def land_prompt(game: Game, state: GameState, frame: Frame) -> Prompt:
    p = state.piece(str(frame.data["piece"]))
    return Prompt(frame.side, frame.text, frame.rule, buttons=tuple(
        Button("land", f"Land in {space_name(game, s)}", R_ESCORTS, args=FrozenMap(to=s))
        for s in landing_spots(game, state, p)))


def land_apply(game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
    p = state.piece(str(frame.data["piece"]))
    spots = landing_spots(game, state, p)
    to = action.args.get("to")
    if action.verb != "land" or to not in spots:
        raise IllegalAction(f"Land the interceptor one space away, in "
                            f"{', '.join(spots)} [{R_ESCORTS}].")
    _, state = state.pop_frame()
    state = state.with_piece(replace(p, location=str(to), attrs=p.attrs.remove("intercepting")))
    ev = Event("move", f"{game.rules.piece_name(game, p)} lands in {space_name(game, str(to))} "
               f"after intercepting over captured {space_name(game, p.location)}", p.side,
               R_ESCORTS)
    return Outcome(state, (ev,)).then(land_interceptors(game, state))
