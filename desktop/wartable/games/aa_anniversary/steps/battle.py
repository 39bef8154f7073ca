"""Phase 4: Conduct Combat (pg. 16-20) on the map, with combat.py's round rules.

The attacker picks a battle ("fight", a space); then, per General Combat (pg. 18):
AA fire before the first round (Antiaircraft Guns, pg. 25), then rounds: the attacking and
defending dice are rolled together (Steps 3-4: the defender's casualties still fire), the
DEFENDING power chooses its casualties (frame, the default order offered first), then the
attacker chooses its own, then Step 6: the battle ends (Condition A) or the attacker
presses on or retreats (frame). Step 7: a won land battle with a surviving land unit
captures the territory (Conclude Combat, pg. 19-20): liberation returns it to its original
owner when that power's capital is held by its side, a captured capital hands the captor the
loser's IPCs (Capturing and Liberating Capitals), AA guns and factories change sides.
Damaged battleships are repaired when the phase ends (Battleships, Two Hits to Destroy).

Retreat (Step 6): the attacker's land and sea units retreat together to one adjacent
friendly space from which at least one of them moved in (the attacker chooses, a frame);
aircraft stay and land in Noncombat Move; units landed from transports never retreat.

Step 2: submarines not facing an enemy destroyer make a Surprise Strike: they roll first,
their casualties are chosen and removed before Steps 3-4 and never fire back (pg. 18, 30).
Not modelled: the choice to submerge instead (subs always strike when they may).
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
from wartable.games.aa_anniversary.steps.common import (
    allied,
    capital_held,
    controller,
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
MAX_OPTIONS = 12  # casualty choices offered as buttons besides the default


def battles(game: Game, state: GameState, power: str) -> tuple[str, ...]:
    """Spaces where the power's units face enemy units or stand in enemy territory."""
    w = world(game)
    done = set(state.var("resolved", ()))
    out = set()
    for p in state.pieces.values():
        if p.side != power or p.location in done or p.location not in w.neighbors:
            continue
        s = stats(game, p)
        if not s.fights or p.attrs.get("on"):
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
    return tuple(
        sorted(
            (
                p
                for p in state.pieces_at(space)
                if p.side == power and stats(game, p).fights and not p.attrs.get("on")
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
    return defs[0].side if defs else ctl


def prompt(game: Game, state: GameState, power: str, text: str, rule: str) -> Prompt:
    todo = battles(game, state, power)
    buttons = [Button("fight", f"Fight in {s}", R_PHASE, args=FrozenMap(space=s)) for s in todo]
    reason = f"Resolve every battle first: {', '.join(todo)}" if todo else None
    return Prompt(
        power,
        text,
        rule,
        targets=FrozenMap(fight=todo),
        buttons=(*buttons, end_step_button(reason)),
    )


def fight(game: Game, state: GameState, power: str, action: Action) -> Outcome:
    space = action.args.get("space")
    if not isinstance(space, str) or space not in battles(game, state, power):
        raise IllegalAction(f"There is no battle for you in {space!r} [{R_PHASE}].")
    state = state.with_var("battle", space)
    att = force(attackers(game, state, space, power))
    dfn = force(defenders(game, state, space, power))
    ev = Event(
        "combat",
        f"Battle in {space_name(game, space)}: {att.describe(world(game).catalog)} attack "
        f"{dfn.describe(world(game).catalog)}",
        power,
        R_PHASE,
    )
    cat = world(game).catalog
    groups = c.aa_groups(att, dfn, cat)
    if groups:
        n = sum(g.count for g in groups)
        return Outcome(state, (ev,)).then(
            roll_then(
                game,
                state,
                count=n,
                sides=6,
                purpose=f"AA fire in {space_name(game, space)}",
                side=defending_power(game, state, space, power),
                resume="aa",
                rule=c.R_AA,
            )
        )
    return Outcome(state, (ev,)).then(next_round(game, state))


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
        return _roll_groups(game, state, _strike_groups(game, state), "Submarine Surprise Strike",
                            "strike", c.R_STEP2)
    return fire(game, state)


def _roll_groups(game: Game, state: GameState, groups: Any, what: str, resume: str,
                 rule: str) -> Outcome:
    """Both sides' dice for this step of the battle, rolled together (General Combat)."""
    ga, gd = groups
    space = str(state.var("battle"))
    return roll_then(game, state, count=sum(g.count for g in (*ga, *gd)), sides=6,
                     purpose=f"{what} in {space_name(game, space)}", side=state.active_side,
                     resume=resume, rule=rule)


def _plan(state: GameState) -> c.RoundPlan:
    a, d, aa, da = state.var("battle_plan", (False, False, False, False))
    return c.RoundPlan(bool(a), bool(d), bool(aa), bool(da))


def _sides(game: Game, state: GameState) -> tuple[c.Force, c.Force, c.Catalog, c.RoundPlan]:
    """The battle's attacking and defending forces now, the catalog, and the round's plan."""
    space, power = str(state.var("battle")), state.active_side
    return (force(attackers(game, state, space, power)),
            force(defenders(game, state, space, power)), world(game).catalog, _plan(state))


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
    cat = world(game).catalog
    att = force(attackers(game, state, space, power))
    dfn = force(defenders(game, state, space, power))
    if kind == "aa":
        groups = c.aa_groups(att, dfn, cat)
        lost = c.aa_losses(groups, c.group_hits(groups, dice))
        state, evs = remove(game, state, attackers(game, state, space, power), lost)
        return Outcome(state, evs).then(next_round(game, state))
    strike = kind == "strike"
    ga, gd = _strike_groups(game, state) if strike else _fire_groups(game, state)
    na = sum(g.count for g in ga)
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
    pieces = _role_pieces(game, state, role)
    if c.max_assignable(force(pieces), hits, world(game).catalog, air_hits_subs=air_subs) == 0:
        return state
    who = game.definition.side(side).name
    frame = Frame(
        "casualties",
        side,
        f"{who}: choose casualties in {space_name(game, space)} ({hits.total} hits).",
        c.R_STEP5 if role == "defender" else c.R_STEP3,
        FrozenMap(role=role, hits=(hits.general, hits.air, hits.sub), air_subs=air_subs),
    )
    return state.push_frame(frame)


def _role_pieces(game: Game, state: GameState, role: str) -> tuple[Piece, ...]:
    space = str(state.var("battle"))
    power = state.active_side
    if role == "attacker":
        return attackers(game, state, space, power)
    return defenders(game, state, space, power)


def _frame_hits(frame: Frame) -> tuple[c.Hits, bool]:
    g, a, s = frame.data["hits"]
    return c.Hits(int(g), int(a), int(s)), bool(frame.data["air_subs"])


def options(game: Game, state: GameState, frame: Frame) -> tuple[c.Casualties, ...]:
    """The default order's choice first, then other legal choices, cheapest first."""
    cat = world(game).catalog
    f = force(_role_pieces(game, state, str(frame.data["role"])))
    hits, air_subs = _frame_hits(frame)
    order = c.default_casualty_order(f, cat, attacking=frame.data["role"] == "attacker")
    first = c.select_casualties(f, hits, order, cat, air_hits_subs=air_subs)
    rest = [o for o in c.casualty_options(f, hits, cat, air_hits_subs=air_subs) if o != first]
    return (first, *rest[:MAX_OPTIONS])


def frame_prompt(game: Game, state: GameState, frame: Frame) -> Prompt:
    cat = world(game).catalog
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
                    Button("retreat", f"Retreat to {o}", c.R_STEP6, args=FrozenMap(to=o))
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
    pieces = _role_pieces(game, state, str(frame.data["role"]))
    hits, air_subs = _frame_hits(frame)
    why = c.check_casualties(force(pieces), hits, cas, cat, air_hits_subs=air_subs)
    if why:
        raise IllegalAction(why)
    _, state = state.pop_frame()
    state, evs = remove(game, state, pieces, cas)
    if state.frames and state.top_frame is not None and state.top_frame.kind == "casualties":
        return Outcome(state, evs)
    if state.var("battle_step") == "strike":  # Step 2 done: the others fire (Steps 3-4)
        return Outcome(state, evs).then(fire(game, state))
    return Outcome(state, evs).then(after_round(game, state))


def after_round(game: Game, state: GameState) -> Outcome:
    space = str(state.var("battle"))
    power = state.active_side
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
    d_pieces = defenders(game, state, space, power)
    final, result = c.conclude(
        c.BattleState(force(a_pieces), force(d_pieces)),
        cat,
        attacker_can_retreat=may_retreat(game, state),
    )
    if result is None:
        return None
    evs: tuple[Event, ...] = ()
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
    """Adjacent friendly spaces from which an attacking land or sea unit moved in (Step 6)."""
    space = str(state.var("battle"))
    power = state.active_side
    w = world(game)
    out = set()
    for p in attackers(game, state, space, power):
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
    Noncombat Move; without a destination (a stalemate) every unit stays."""
    space = str(state.var("battle"))
    power = state.active_side
    evs = []
    for p in attackers(game, state, space, power):
        if to is None or stats(game, p).air or p.attrs.get("amphibious"):
            continue  # Amphibious Assaults: units from transports never retreat (pg. 17)
        for q in state.pieces_at(space):
            if q.attrs.get("on") == p.id:
                state = state.with_piece(replace(q, location=to))
        state = state.with_piece(replace(p, location=to))
        evs.append(
            Event(
                "move",
                f"{game.rules.piece_name(game, p)} retreats to {space_name(game, to)}",
                power,
                c.R_STEP6,
            )
        )
    return Outcome(state, tuple(evs)).then(
        done(game, state, f"The attack on {space_name(game, space)} retreats")
    )


def done(game: Game, state: GameState, text: str) -> Outcome:
    space = str(state.var("battle"))
    state = state.with_var("battle", None)
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
    if (
        orig
        and orig != power
        and allied(game, orig, power)
        and orig != "china"
        and capital_held(game, state, orig)
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
    return Outcome(state, tuple(evs))


def repair(game: Game, state: GameState) -> GameState:
    """Battleships: Two Hits to Destroy (pg. 28): repaired once the combat is over."""
    for p in state.pieces.values():
        if p.attrs.get("damaged"):
            state = state.with_piece(replace(p, attrs=p.attrs.remove("damaged")))
    return state
