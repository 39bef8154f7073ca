"""The sequence of play [5.1-5.5] and the set-up order [3.1]."""

from __future__ import annotations

import pytest
from w40_helpers import act, do, game, goto, ready, start, step_id

from wartable.engine.loop import prompt
from wartable.games.whatif1940.ids import V_PLOESTI
from wartable.model.state import GameState

TURN = [
    "east_order", "german_air", "german_air_transfer", "af_interdiction", "german_west_move",
    "german_west_combat", "german_east_move_d", "german_east_combat_e", "german_replacement",
    "moscow_capture", "german_supply", "german_interdiction_east", "soviet_move",
    "soviet_combat", "far_east", "arctic", "southwest", "soviet_supply", "soviet_reinforcement",
    "armor_doctrine", "german_interdiction_west", "af_move", "af_combat", "af_supply",
    "af_replacement",
]


# Steps with nothing to do in a quiet turn 2 (no reduced units, Moscow Soviet, everyone in
# supply) end by themselves [9.9, 4.3, 6.8, 9.11]: the engine enters and leaves them.
SELF_ENDING = {"german_replacement", "moscow_capture", "german_supply", "soviet_supply",
               "af_supply", "af_replacement"}


def walk(state: GameState, order: str = "move_fight") -> tuple[list[str], GameState]:
    """Every step of one game turn that waits for a player, from its first step, ending
    each in turn."""
    seen, _, state = walk_all(state, order)
    return seen, state


def walk_all(state: GameState,
             order: str = "move_fight") -> tuple[list[str], list[str], GameState]:
    """(steps that waited for a player, every step entered as the log shows it, state)."""
    seen: list[str] = []
    entered: list[str] = []
    names = {p.step.name: p.step.id for p in game().positions}
    turn = state.turn
    while state.turn == turn and state.result is None:
        sid = step_id(state)
        seen.append(sid)
        side = prompt(game(), state).side
        out = (do(state, "declare_order", side, order=order) if sid == "east_order"
               else do(state, "end_step", side))
        entered += [names[e.text.split(" — ", 1)[1]] for e in out.events
                    if e.kind == "phase" and " — " in e.text]
        state = out.state
    return seen, entered, state


def test_3_1_setup_steps_in_the_rulebook_order() -> None:
    state = start()
    order = []
    for _ in range(4):
        order.append((step_id(state), prompt(game(), state).side))
        state = act(state, "auto_setup", order[-1][1])
        state = act(state, "end_step", order[-1][1])
    assert order == [("setup_soviet", "soviet"), ("setup_german_west", "german"),
                     ("setup_german_east", "german"), ("setup_anglo_french", "anglo_french")]
    assert step_id(state) == "east_order" and state.turn == 1


def test_5_4_turn_one_skips_west_move_west_combat_and_armor_doctrine() -> None:
    seen, state = walk(ready())
    for skipped in ("german_west_move", "german_west_combat", "armor_doctrine"):
        assert skipped not in seen
    assert "af_move" in seen and "af_combat" in seen  # III.B and III.C are not skipped
    assert state.turn == 2


def test_5_5_east_front_surprise_starts_i_d_on_turn_one_only() -> None:
    seen1, state = walk(ready())
    assert seen1.index("efst") == seen1.index("german_east_move_d") - 1
    seen2, _ = walk(state)
    assert "efst" not in seen2


def test_5_2_the_turn_sequence_in_order() -> None:
    _, state = walk(ready())
    seen, entered, state = walk_all(state)
    assert seen == [s for s in TURN if s not in SELF_ENDING]
    # Every step of the turn is entered, in 5.2's order, the self-ending ones included
    # (the last entry is the next turn's first step).
    assert entered[:-1] == TURN[1:] and entered[-1] == "east_order"
    assert state.turn == 3


def test_5_2_each_player_turn_belongs_to_its_side() -> None:
    _, state = walk(ready())
    g = game()
    for sid in TURN:
        if "interdiction" in sid:
            continue  # [8.3] the non-phasing player's step (test_w40_air)
        s = goto(state, sid, turn=2)
        want = {"german": "german", "soviet": "soviet", "anglo_french": "anglo_french"}[
            g.position(s).phase.id]
        assert prompt(g, s).side == want, sid


def test_5_3_fight_move_swaps_the_east_phases() -> None:
    _, state = walk(ready())
    seen, _ = walk(state, order="fight_move")
    i = seen.index("german_east_combat_d")
    assert seen[i:i + 2] == ["german_east_combat_d", "german_east_move_e"]
    assert "german_east_move_d" not in seen and "german_east_combat_e" not in seen


def test_5_3_the_declaration_must_be_made() -> None:
    from wartable.core.errors import IllegalAction

    state = ready()
    assert step_id(state) == "east_order"
    with pytest.raises(IllegalAction, match="5.3"):
        act(state, "end_step", "german")
    with pytest.raises(IllegalAction, match="5.3"):
        act(state, "declare_order", "german", order="sideways")


def test_6_10_after_ploesti_the_east_uses_move_fight() -> None:
    from wartable.core.errors import IllegalAction

    _, state = walk(ready())
    state = goto(state.with_var(V_PLOESTI, True), "af_replacement", turn=2)
    state = act(state, "end_step", "anglo_french")  # into turn 3: the declaration passes
    assert state.turn == 3 and step_id(state) == "german_air"
    assert state.var("east_order") == "move_fight"
    with pytest.raises(IllegalAction):
        act(goto(state, "east_order"), "declare_order", "german", order="fight_move")
