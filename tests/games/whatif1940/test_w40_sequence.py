"""The sequence of play [5.1-5.5] and the set-up order [3.1]."""

from __future__ import annotations

import pytest
from w40_helpers import act, game, goto, ready, start, step_id

from wartable.engine.loop import prompt
from wartable.games.whatif1940.ids import V_PLOESTI
from wartable.model.state import GameState

TURN = [
    "east_order", "german_air_transfer", "german_west_move", "german_west_combat",
    "german_east_move_d", "german_east_combat_e", "german_replacement", "moscow_capture",
    "german_supply", "soviet_move", "soviet_combat", "far_east", "arctic", "southwest",
    "soviet_supply", "soviet_reinforcement", "armor_doctrine", "af_move", "af_combat",
    "af_supply", "af_replacement",
]


def walk(state: GameState, order: str = "move_fight") -> tuple[list[str], GameState]:
    """Every step of one game turn, from its first step, ending each in turn."""
    seen = []
    turn = state.turn
    while state.turn == turn and state.result is None:
        sid = step_id(state)
        seen.append(sid)
        side = prompt(game(), state).side
        if sid == "east_order":
            state = act(state, "declare_order", side, order=order)
        else:
            state = act(state, "end_step", side)
    return seen, state


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
    seen, state = walk(state)
    assert seen == TURN
    assert state.turn == 3


def test_5_2_each_player_turn_belongs_to_its_side() -> None:
    _, state = walk(ready())
    g = game()
    for sid in TURN:
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
    assert state.turn == 3 and step_id(state) == "german_air_transfer"
    assert state.var("east_order") == "move_fight"
    with pytest.raises(IllegalAction):
        act(goto(state, "east_order"), "declare_order", "german", order="fight_move")
