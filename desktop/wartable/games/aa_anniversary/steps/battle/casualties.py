"""General Combat, Step 5: Remove Defender's Casualties (pg. 19), and the attacker's.

The DEFENDING power chooses its casualties first (a frame, the default order offered first),
then the attacker its own; damaged battleships sink first (Battleships, Two Hits to
Destroy); cargo goes down with its transport. Units hit by bombardment go to the casualty
zone (attr `pending`): they defend in the first round and are removed with its casualties
(Amphibious Assaults, Step 2).
"""

from __future__ import annotations

from dataclasses import replace

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.core.words import plural
from wartable.engine.actions import Action, Button, Event, Prompt
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary.steps.battle.forces import (
    MAX_OPTIONS,
    battle_values,
    force,
    pending,
    role_pieces,
)
from wartable.games.aa_anniversary.steps.common import (
    space_name,
    world,
)
from wartable.model.state import Frame, GameState, Piece


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
        f"{who}: choose casualties in {space_name(game, space)} ({plural(hits.total, 'hit')})"
        + (": they go to the casualty zone and still defend in the first round."
           if role == "bombard" else "."),
        removal_rule(role, state.var("battle_step") == "strike"),
        FrozenMap(role=role, hits=(hits.general, hits.air, hits.sub), air_subs=air_subs),
    )
    return state.push_frame(frame)


def removal_rule(role: str, strike: bool) -> str:
    """The step whose casualties these are: a Surprise Strike's in Step 2; otherwise the
    attacker removes its units in Step 4 ("the attacker chooses one unit for each hit
    scored and removes it from play", pg. 19), the defender in Step 5 (pg. 18)."""
    if role == "bombard":
        return c.R_BOMBARD
    if strike:
        return c.R_STEP2
    return c.R_STEP5 if role == "defender" else c.R_STEP4


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


def casualty_prompt(game: Game, state: GameState, frame: Frame) -> Prompt:
    """The casualties frame: one button per legal choice, the default order first."""
    cat = world(game).catalog
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
    if disputable(game, state, frame):
        buttons.append(Button(DISAGREE, "We disagree: the attacker chooses", R_MULTINATIONAL))
    return Prompt(frame.side, frame.text, frame.rule, buttons=tuple(buttons))


DISAGREE = "disagree"
R_MULTINATIONAL = "Multinational Forces: Multinational Defense (pg. 20)"


def disputable(game: Game, state: GameState, frame: Frame) -> bool:
    """Multinational Defense: "the defenders mutually determine the casualty. If they cannot
    agree, the attacker chooses." Offered while the defenders of more than one power choose."""
    if frame.data.get("role") != "defender" or frame.side == state.active_side:
        return False
    return len({p.side for p in role_pieces(game, state, "defender")}) > 1


def attacker_chooses(game: Game, state: GameState, frame: Frame) -> tuple[GameState, Event]:
    """The defenders disagree: the same choice passes to the attacker (Multinational
    Defense)."""
    if not disputable(game, state, frame):
        raise IllegalAction(f"Only defenders of several powers can disagree [{R_MULTINATIONAL}].")
    _, state = state.pop_frame()
    attacker = game.definition.side(state.active_side).name
    moved = replace(frame, side=state.active_side,
                    text=f"The defenders disagree: {attacker} chooses their casualties "
                         f"({frame.text.split('(', 1)[-1].rstrip('.')}.",
                    rule=R_MULTINATIONAL)
    ev = Event("combat", f"The defenders cannot agree on their casualties: {attacker} "
               f"chooses them", frame.side, R_MULTINATIONAL)
    return state.push_frame(moved), ev


def chosen_casualties(game: Game, state: GameState, frame: Frame,
                      action: Action) -> tuple[tuple[Piece, ...], c.Casualties]:
    """The side's pieces in the battle and the casualties the action names, if legal."""
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
    why = c.check_casualties(force(pieces), hits, cas, world(game).catalog,
                             air_hits_subs=air_subs)
    if why:
        raise IllegalAction(why)
    return pieces, cas


def to_casualty_zone(game: Game, state: GameState, pieces: tuple[Piece, ...],
                     cas: c.Casualties) -> tuple[GameState, tuple[Event, ...]]:
    """Bombardment casualties go to the casualty zone: they defend in round one."""
    evs = []
    for unit, n in cas.lost:
        for p in [q for q in pieces if q.type == unit][:n]:
            state = state.with_piece(p.with_attr("pending", True))
            evs.append(Event("combat", f"{game.rules.piece_name(game, p)} is hit by the "
                             f"bombardment (casualty zone)", p.side, c.R_BOMBARD))
    return state, tuple(evs)


def remove(
    game: Game, state: GameState, pieces: tuple[Piece, ...], cas: c.Casualties,
    rule: str = c.R_STEP5,
) -> tuple[GameState, tuple[Event, ...]]:
    """Take the chosen casualties off the board: damaged battleships sink first. `rule`
    is the step that removes them (the attacker's in Step 4, the defender's in Step 5)."""
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
                Event("combat", f"{game.rules.piece_name(game, p)} is destroyed", p.side, rule,
                      data=FrozenMap(lost=p.type, piece=p.id, how="destroyed"))
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
                            data=FrozenMap(lost=q.type, piece=q.id, how="with_transport"),
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


def drop_pending(game: Game, state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    """The casualty zone is cleared when round one's casualties are removed."""
    gone = pending(game, state)
    if not gone:
        return state, ()
    evs = []
    for p in gone:
        state = state.without_piece(p.id)
        evs.append(Event("combat", f"{game.rules.piece_name(game, p)} is destroyed "
                         f"(bombardment casualty)", p.side, c.R_BOMBARD,
                         data=FrozenMap(lost=p.type, piece=p.id, how="bombardment")))
    state = state.with_var("lost_total", int(state.var("lost_total", 0)) + len(gone))
    return state, tuple(evs)
