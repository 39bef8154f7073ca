"""new_game, prompt and apply: the engine's three pure functions (DESIGN.md, The engine)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wartable.core.errors import DataError, IllegalAction, WartableError
from wartable.core.frozen import FrozenMap
from wartable.core.rng import Rng
from wartable.engine.actions import (
    DICE,
    END_STEP,
    FREE_MOVE,
    RESIGN,
    SET_DICE_MODE,
    Action,
    Button,
    DiceAsk,
    Event,
    Outcome,
    Prompt,
)
from wartable.engine.assisted import REMOVE, apply_verb, enforcement_at, is_kit_verb
from wartable.engine.conditions import eval_condition, is_kit_condition
from wartable.engine.dice import DICE_FRAME as DICE_FRAME
from wartable.engine.dice import dice_text
from wartable.engine.dice import roll_then as roll_then
from wartable.engine.kitsteps import fire_triggers, unticked
from wartable.engine.rules import Game, locations
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece
from wartable.model.tracks import initial_vars

_MAX_AUTO_STEPS = 1000  # a sequence that never stops advancing is a data error


def new_game(
    game: Game, scenario: str, options: FrozenMap[str, Any] | None = None,
    seed: int | str = 0, dice_mode: str = "digital",
) -> tuple[GameState, tuple[Event, ...]]:
    d = game.definition
    if scenario not in d.scenarios:
        raise DataError(d.id, "scenarios", f"no scenario {scenario!r}; "
                        f"this game has {', '.join(d.scenarios)}")
    if dice_mode not in ("digital", "physical"):
        raise ValueError(f"dice mode must be 'digital' or 'physical', not {dice_mode!r}")
    sc = d.scenarios[scenario]
    opts = d.default_options().update(options or {})
    pieces: dict[str, Piece] = {}
    counters: dict[tuple[str, str], int] = {}  # ids number each side's units of a type
    for pl in sc.setup:
        for _ in range(pl.count):
            n = counters.get((pl.side, pl.type), 0) + 1
            counters[(pl.side, pl.type)] = n
            pid = f"{pl.side}.{pl.type}.{n}"
            attrs = pl.attrs.set("name", pl.name) if pl.name else pl.attrs
            pieces[pid] = Piece(pid, pl.type, pl.side, pl.location, attrs)
    positions = game.positions
    state = GameState(
        game_id=d.id, data_version=d.data_version, scenario=scenario, options=opts,
        turn=sc.first_turn, step_index=0, active_side=d.sides[0].id,
        pieces=FrozenMap(pieces), vars=FrozenMap({**initial_vars(d.kit), **sc.vars}),
        frames=(), rng=Rng.from_seed(seed),
        dice_mode=dice_mode,
    )
    state = game.rules.setup(game, state)
    # Start at the first step that applies on the first turn.
    idx = 0
    while not _applies(game, state, positions[idx]):
        idx += 1
        if idx >= len(positions):
            raise DataError(d.id, "sequence", "no step of the sequence applies on turn 1")
    out = fire_triggers(game, replace(state, step_index=idx))
    out = out.then(_enter(game, out.state, positions[idx]))
    return out.state, out.events


def deciding_side(state: GameState) -> str:
    """The side whose decision the game waits for: the top frame's, else the active side."""
    return state.frames[-1].side if state.frames else state.active_side


def prompt(game: Game, state: GameState, side: str | None = None) -> Prompt:
    """What `side` may do now; for any other side, what it waits for."""
    pos = game.position(state)
    if state.result is not None:
        return Prompt(side="", text=f"Game over: {state.result}", finished=True,
                      phase=game.rules.phase_name(game, state, pos), step=pos.step.name)
    frame = state.top_frame
    if frame is None:
        p = game.rules.step_prompt(game, state, pos)
    elif frame.kind == DICE_FRAME:
        p = Prompt(side=frame.side, text=frame.text, rule=frame.rule,
                   dice=DiceAsk(int(frame.data["count"]), int(frame.data["sides"]),
                                str(frame.data["purpose"])))
    else:
        p = game.rules.frame_prompt(game, state, frame)
    p = replace(p, phase=game.rules.phase_name(game, state, pos), step=pos.step.name)
    if side is not None and side != p.side:
        who = game.definition.side(p.side).name if p.side else "the game"
        return Prompt(side=p.side, text=f"Waiting for {who}: {p.text}", rule=p.rule,
                      phase=p.phase, step=p.step, waiting=True)
    return p


def apply(game: Game, state: GameState, action: Action) -> Outcome:
    """Apply one action; raise IllegalAction with a reason the UI shows word for word."""
    if state.result is not None:
        raise IllegalAction(f"The game is over ({state.result}).")
    if action.side not in game.definition.side_ids:
        raise IllegalAction(f"Unknown side {action.side!r}.")
    if action.verb == FREE_MOVE or is_kit_verb(action.verb):
        _check_names(game, state, action)
    # The game's own refusal comes first (it cites the rule); a made-up name that makes
    # game code stumble, or that it let through, is refused here.
    try:
        out = _apply(game, state, action)
    except (IllegalAction, DataError):
        raise
    except WartableError as e:  # a game's checks raising the base class: still a refusal
        _check_names(game, state, action)
        raise IllegalAction(str(e)) from e
    except (LookupError, TypeError, ValueError, AttributeError):
        _check_names(game, state, action)
        raise
    _check_names(game, state, action)
    st = replace(out.state, serial=state.serial + 1)
    if st.result is None:
        won = game.rules.check_victory(game, st)
        if won is not None:
            st = replace(st, result=won)
            out = replace(out, events=out.events + (Event("victory", won),))
    return _stamp(game, replace(out, state=st))


# Argument names that, in every game, name a piece or a place (issue 15: a free move to a
# place on no map was accepted, written to the save and broke every later load).
PIECE_ARGS = ("piece", "pieces")
PLACE_ARGS = ("to", "space")


def _check_names(game: Game, state: GameState, action: Action) -> None:
    """Refuse an action naming a piece or a place that does not exist."""
    # None and "" name nothing on purpose ("advance with no piece"); the game decides.
    for key in PIECE_ARGS:
        v = action.args.get(key)
        for pid in v if isinstance(v, tuple) else (v,) if v not in (None, "") else ():
            if not isinstance(pid, str) or pid not in state.pieces:
                raise IllegalAction(f"There is no piece {_quoted(pid)}.")
    if not game.maps or action.verb == REMOVE:  # its `to` is "dead", "pool" or "delete"
        return
    known = locations(game)
    for key in PLACE_ARGS:
        v = action.args.get(key)
        if v not in (None, "") and (not isinstance(v, str) or v not in known):
            raise IllegalAction(f"There is no place {_quoted(v)} on this game's maps.")


def _quoted(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:39] + "…"


def _apply(game: Game, state: GameState, action: Action) -> Outcome:
    pos = game.position(state)
    if is_kit_verb(action.verb):
        out = apply_verb(game, state, action)
    elif action.verb == FREE_MOVE and enforcement_at(game, state) != "enforced":
        out = apply_verb(game, state, action)  # assisted play: a normal move, with warnings
    elif action.verb == FREE_MOVE:
        out = _free_move(game, state, action)
    elif action.verb == SET_DICE_MODE:
        out = _set_dice_mode(game, state, action)
    else:
        who = deciding_side(state)
        if action.side != who:
            name = game.definition.side(who).name
            raise IllegalAction(f"It is {name}'s decision now, not "
                                f"{game.definition.side(action.side).name}'s.")
        frame = state.top_frame
        if action.verb == RESIGN:
            res = f"{game.definition.side(action.side).name} resigned."
            out = Outcome(replace(state, result=res), (Event("victory", res, action.side),))
        elif frame is not None and frame.kind == DICE_FRAME:
            out = _answer_dice(game, state, frame, action)
        elif frame is not None:
            out = game.rules.frame_apply(game, state, frame, action)
        elif action.verb == "move" and pos.step.kind == "assisted" \
                and enforcement_at(game, state) != "enforced" \
                and "assisted" not in game.rules.table.steps:
            out = apply_verb(game, state, action)
        elif action.verb == END_STEP:
            reason = game.rules.can_end_step(game, state, pos)
            if reason:
                raise IllegalAction(reason)
            out = end_step(game, state)
        else:
            out = game.rules.step_apply(game, state, pos, action)
    return out


def _stamp(game: Game, out: Outcome) -> Outcome:
    """Fill in the turn and step of each event for the log's filters."""
    pos = game.position(out.state)
    evs = tuple(e if e.turn else replace(e, turn=out.state.turn, step=pos.step.name)
                for e in out.events)
    return replace(out, events=evs)


def _applies(game: Game, state: GameState, pos: Position) -> bool:
    return all(
        _condition(game, c, state) for c in (pos.phase.condition, pos.step.condition) if c
    )


def _condition(game: Game, cond: str, state: GameState) -> bool:
    if cond.startswith("!"):
        return not _condition(game, cond[1:], state)
    first = game.definition.scenarios[state.scenario].first_turn
    if cond == "first_turn":
        return state.turn == first
    if cond == "not_first_turn":
        return state.turn != first
    if cond.startswith("option:"):
        return bool(state.options.get(cond[7:], False))
    if is_kit_condition(cond):
        return eval_condition(game, state, cond)
    return game.rules.condition(game, cond, state)


def _enter(game: Game, state: GameState, pos: Position) -> Outcome:
    if pos.side != "*":
        state = replace(state, active_side=pos.side)
    phase = game.rules.phase_name(game, state, pos)
    label = game.definition.date_label(state.turn)
    sc = game.definition.scenarios.get(state.scenario)
    word = sc.turn_word if sc is not None else "Turn"
    turn = f"{word} {state.turn} ({label})" if label else f"{word} {state.turn}"
    ev = Event("phase", f"{turn}: {phase} — {pos.step.name}",
               pos.side if pos.side != "*" else "", pos.step.rule, state.turn, pos.step.name)
    return Outcome(state, (ev,)).then(game.rules.enter_step(game, state, pos))


def end_step(game: Game, state: GameState) -> Outcome:
    """Leave the current step and enter the next one that applies (auto steps run through)."""
    out = Outcome(state)
    for _ in range(_MAX_AUTO_STEPS):
        st = out.state
        out = out.then(game.rules.exit_step(game, st, game.position(st)))
        left = unticked(game, out.state, game.position(st))
        if left is not None:
            out = Outcome(out.state, out.events + (left,), out.revealed, out.auto_end)
        st = out.state
        positions = game.positions
        idx, turn = st.step_index, st.turn
        last = game.definition.scenarios[st.scenario].last_turn
        while True:
            idx += 1
            if idx >= len(positions):
                idx, turn = 0, turn + 1
                if turn > last:
                    res = game.rules.end_of_game(game, st)
                    return out.then(Outcome(replace(st, result=res), (Event("victory", res),)))
            cand = replace(st, step_index=idx, turn=turn)
            if _applies(game, cand, positions[idx]):
                break
        if cand.turn != st.turn:  # a new turn: its date triggers fire first
            fired = fire_triggers(game, cand)
            out = Outcome(out.state, out.events + fired.events, out.revealed, out.auto_end)
            cand = fired.state
            if cand.result is not None:
                return replace(out, state=cand, auto_end=False)
        out = out.then(_enter(game, cand, positions[idx]))
        if not out.auto_end or out.state.result is not None or out.state.frames:
            return replace(out, auto_end=False)
    raise DataError(game.definition.id, "sequence", "the sequence of play never stops advancing")


def _free_move(game: Game, state: GameState, action: Action) -> Outcome:
    pid = action.args.get("piece")
    to = action.args.get("to")
    if not isinstance(pid, str) or pid not in state.pieces:
        raise IllegalAction(f"There is no piece {pid!r}.")
    if not isinstance(to, str) or not to:
        raise IllegalAction("A free move needs a destination.")
    p = state.pieces[pid]
    text = (f"House rule: {game.definition.side(action.side).name} moved "
            f"{game.rules.piece_name(game, p)} {p.location} → {to} (free play)")
    moved = state.with_piece(replace(p, location=to))
    # House rules move pieces freely, but not into a position the game's own code cannot
    # handle (issue 15: 1,042 accepted free moves broke the games' invariants).
    broken = set(game.rules.invariants(game, moved)) - set(game.rules.invariants(game, state))
    if broken:
        raise IllegalAction(f"Even in free play, not there: {sorted(broken)[0]}")
    return Outcome(moved, (Event("override", text, action.side),))


def _set_dice_mode(game: Game, state: GameState, action: Action) -> Outcome:
    """Players may switch between computer and physical dice at any time; the next roll
    uses the new mode. A roll already asked for stays as asked."""
    mode = action.args.get("mode")
    if mode not in ("digital", "physical"):
        raise IllegalAction("Dice mode must be 'digital' (computer dice) or 'physical'.")
    if mode == state.dice_mode:
        raise IllegalAction(f"The game already uses {_MODE_NAMES[mode]}.")
    who = game.definition.side(action.side).name
    return Outcome(replace(state, dice_mode=mode),
                   (Event("dice", f"{who} switched to {_MODE_NAMES[mode]}", action.side),))


_MODE_NAMES = {"digital": "computer dice", "physical": "physical dice"}


# --- dice ---------------------------------------------------------------------

def _answer_dice(game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
    if action.verb != DICE:
        raise IllegalAction(f"Type the dice first: {frame.text}")
    count, sides = int(frame.data["count"]), int(frame.data["sides"])
    raw = action.args.get("values")
    if not isinstance(raw, tuple) or len(raw) != count or not all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= sides for v in raw
    ):
        raise IllegalAction(f"Type {count} {'die' if count == 1 else 'dice'} "
                            f"from 1 to {sides}, got {raw!r}.")
    _, state = state.pop_frame()
    ev = Event("dice", f"{frame.data['purpose']}: rolled {dice_text(raw, game.rules.dice_summed)} "
               "(physical dice)",
               frame.side, frame.rule,
               data=FrozenMap(dice=tuple(raw), resume=str(frame.data["resume"]), physical=True))
    return Outcome(state, (ev,)).then(
        game.rules.resume(game, state, str(frame.data["resume"]), frame.data["data"], raw))


def end_step_button(enabled_reason: str | None = None) -> Button:
    return Button(END_STEP, "End step", enabled=enabled_reason is None,
                  reason=enabled_reason or "")
