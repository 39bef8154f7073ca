"""Assisted play through the engine's `apply` (issue 18), on the Kit Front test game
(tests/assistedgame; rule numbers K1.. are its own)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from kithelpers import act, end_step, start, texts

from wartable.core.errors import IllegalAction
from wartable.engine.actions import FREE_MOVE, Action
from wartable.engine.conditions import eval_condition
from wartable.engine.effects import apply_effects
from wartable.engine.kitsteps import CONFIRM, CONFIRM_FRAME
from wartable.engine.loop import apply, prompt
from wartable.engine.rules import Game
from wartable.model.state import GameState
from wartable.model.tracks import DEAD_PILE, FORCE_POOL, flag, track, with_flag, with_track


def at_step(game: Game, state: GameState, step_id: str) -> GameState:
    for _ in range(40):
        if game.position(state).step.id == step_id and not state.frames:
            return state
        if state.frames:  # answer the Norway table's weather question: no storms
            state = apply(game, state, Action.make(
                CONFIRM, state.frames[-1].side, answers={"weather": False})).state
            continue
        state = end_step(game, state).state
    raise AssertionError(f"never reached {step_id}")


# --- tracks, flags, effects, conditions ------------------------------------------------------

def test_K2_1_set_track_is_logged_with_its_rule_and_undoable_as_a_state(game: Game) -> None:
    s = start(game)
    out = act(game, s, "assist.set_track", track="econ", key="axis", value=95)
    assert track(out.state, "econ", "axis") == 95 and track(s, "econ", "axis") == 120
    ev = out.events[0]
    assert ev.kind == "track" and ev.rule == "K2.1" and "Economic points (Axis): 120 → 95" \
        in ev.text


def test_K2_1_a_track_above_its_bound_warns_with_the_rule_and_is_set(game: Game) -> None:
    s = start(game)
    out = act(game, s, "assist.set_track", track="econ", key="axis", value=250)
    assert track(out.state, "econ", "axis") == 250
    assert texts(out, "warning") == ["Warning: Economic points may not go above 200 [K2.1]"]


def test_K2_3_a_status_track_refuses_a_status_it_does_not_have(game: Game) -> None:
    with pytest.raises(IllegalAction, match="one of neutral, invaded, conquered"):
        act(game, start(game), "assist.set_track", track="status", key="norway", value="won")


def test_K3_set_flag(game: Game) -> None:
    out = act(game, start(game), "assist.set_flag", flag="vichy", value=True)
    assert flag(out.state, "vichy") and out.events[0].rule == "K3.2"


def test_effects_apply_in_order_and_log_each(game: Game) -> None:
    s = start(game)
    out = apply_effects(game, s, [{"add": "track.econ.allies", "by": -5},
                                  {"set": "flag.sitzkrieg", "to": False},
                                  {"log": "Norway falls [K6]"}], side="axis", rule="K6")
    assert track(out.state, "econ", "allies") == 75 and not flag(out.state, "sitzkrieg")
    assert [e.kind for e in out.events] == ["track", "flag", "info"]


def test_end_game_effect_ends_the_game(game: Game) -> None:
    out = apply_effects(game, start(game), [{"end_game": "The Axis wins [K9]"}])
    assert out.state.result == "The Axis wins [K9]"


def test_conditions_read_tracks_flags_turn_and_date(game: Game) -> None:
    s = start(game)
    assert eval_condition(game, s, "flag:sitzkrieg and not flag:vichy")
    assert not eval_condition(game, s, "track:us_entry>=1")
    assert eval_condition(game, with_track(s, "us_entry", "", 2), "track:us_entry>=1")
    assert eval_condition(game, s, "track:status.norway<invaded")  # statuses in their order
    assert eval_condition(game, s, "turn>=1 and date<1940-03")
    assert eval_condition(game, replace(s, turn=4), "date>=1940-03")


# --- rolls on demand and procedure steps ---------------------------------------------------

def test_K6_roll_on_demand_logs_modifiers_and_applies_the_band(game: Game) -> None:
    s = with_track(start(game), "status", "norway", "invaded")  # +2 computed [K6.4]
    out = act(game, s, "assist.roll", table="norway", answers={"weather": False}, dice=(4,))
    roll = out.events[0]
    assert roll.kind == "roll" and roll.rule == "K6"
    assert roll.text == "Norway Table: roll 4, +2 Norway already invaded = 6 → Norway conquered" \
        " (physical dice)"
    assert roll.data["result"] == "conquered" and roll.data["applied"]
    st = out.state
    assert track(st, "status", "norway") == "conquered"
    assert track(st, "econ", "axis") == 130
    assert not any(p.attrs.get("tags") for p in st.pieces.values())  # garrison removed
    assert track(st, "losses", "allies") == 1  # the game's code effect [K6.3]


def test_K6_roll_on_demand_asks_the_confirm_modifier_when_not_answered(game: Game) -> None:
    out = act(game, start(game), "assist.roll", table="norway")
    frame = out.state.top_frame
    assert frame is not None and frame.kind == CONFIRM_FRAME
    p = prompt(game, out.state)
    assert p.targets["confirm"] == ("weather",)
    done = apply(game, out.state, Action.make(CONFIRM, "axis", answers={"weather": True}))
    assert not done.state.frames and done.events[0].kind == "roll"
    assert "storms in the North Sea" in done.events[0].text


def test_a_roll_may_propose_its_effects_then_apply_them(game: Game) -> None:
    s = start(game)
    out = act(game, s, "assist.roll", table="norway", answers={"weather": False}, dice=(5,),
              apply=False)
    assert track(out.state, "status", "norway") == "neutral"
    assert "Effects proposed" in texts(out, "info")[0]
    done = act(game, out.state, "assist.apply", table="norway", result="invaded")
    assert track(done.state, "status", "norway") == "invaded"


def test_K6_roll_in_physical_mode_asks_for_the_dice(game: Game) -> None:
    s = start(game, dice_mode="physical")
    out = act(game, s, "assist.roll", table="us_entry")
    assert out.state.top_frame is not None and out.state.top_frame.kind == "dice"
    done = apply(game, out.state, Action.make("dice", "axis", values=(6,)))
    assert track(done.state, "us_entry") == 1  # 6 -1 Sitzkrieg = 5 → closer [K7]


def test_K6_the_procedure_step_rolls_on_entry_and_applies_its_band(game: Game) -> None:
    s = start(game)
    out = end_step(game, s)  # Operations -> Norway: rolled on entry, weather asked
    assert game.position(out.state).step.id == "norway"
    assert out.state.top_frame is not None and out.state.top_frame.kind == CONFIRM_FRAME
    done = apply(game, out.state, Action.make(CONFIRM, "axis", answers={"weather": False}))
    assert [e.kind for e in done.events][0] == "dice" or done.events[0].kind == "roll"
    assert any(e.kind == "roll" and e.data["table"] == "norway" for e in done.events)


def test_K6_a_step_condition_on_a_track_skips_the_step(game: Game) -> None:
    s = with_track(start(game), "status", "norway", "conquered")
    out = end_step(game, s)
    assert game.position(out.state).step.id == "allied_ops"


def test_dice_roller_rolls_NdM_plus_modifier(game: Game) -> None:
    out = act(game, start(game), "assist.dice", count=2, sides=6, modifier=1)
    ev = out.events[0]
    assert ev.kind == "dice" and ev.data["total"] == sum(ev.data["dice"]) + 1


# --- counters -----------------------------------------------------------------------------

def test_K4_1_an_assisted_move_over_the_stacking_limit_warns_and_moves(game: Game) -> None:
    s = start(game)
    s = act(game, s, "assist.place", type="inf", side="axis", location="0203").state
    out = act(game, s, "move", piece="axis.inf.1", to="0203")
    assert out.state.piece("axis.inf.1").location == "0203"
    assert out.events[0].kind == "move" and "House rule" not in out.events[0].text
    assert texts(out, "warning") == [
        "Warning: 3 Axis pieces in 0203, above the stacking limit of 2 [K4.1]"]


def test_K4_2_free_move_into_water_is_a_normal_move_with_a_warning(game: Game) -> None:
    out = act(game, start(game), FREE_MOVE, piece="axis.inf.1", to="1104")
    assert out.state.piece("axis.inf.1").location == "1104"
    assert [e.kind for e in out.events] == ["move", "warning"]
    assert out.events[1].rule == "K4.2" and "land units may not enter water" in out.events[1].text


def test_K9_a_free_step_gives_no_warnings(game: Game) -> None:
    s = at_step(game, start(game), "admin")
    out = act(game, s, "move", "allies", piece="axis.inf.1", to="1104")
    assert not texts(out, "warning")


def test_place_beyond_the_counter_mix_warns(game: Game) -> None:
    s = start(game)
    for i in range(2):
        s = act(game, s, "assist.place", type="inf", side="axis", location=f"050{i + 1}").state
    out = act(game, s, "assist.place", type="inf", side="axis", location="0601")
    assert "the counter mix has 3 Axis Infantry; 4 are in play" in texts(out, "warning")[0]


def test_edit_flip_and_remove_counters(game: Game) -> None:
    s = start(game)
    out = act(game, s, "assist.edit", piece="axis.arm.1", attrs={"steps": 1, "flipped": True})
    p = out.state.piece("axis.arm.1")
    assert p.attrs["steps"] == 1 and p.attrs["flipped"] is True
    s = act(game, out.state, "assist.remove", piece="axis.arm.1", to="dead").state
    assert s.piece("axis.arm.1").location == DEAD_PILE
    s = act(game, s, "assist.remove", piece="axis.arm.1", to="pool").state
    assert s.piece("axis.arm.1").location == FORCE_POOL
    s = act(game, s, "assist.remove", piece="axis.arm.1", to="delete").state
    assert "axis.arm.1" not in s.pieces
    assert not game.rules.invariants(game, s)


def test_place_refuses_a_place_on_no_map(game: Game) -> None:
    with pytest.raises(IllegalAction, match="no place"):
        act(game, start(game), "assist.place", type="inf", side="axis", location="9999")


# --- checklists, triggers, enforcement ----------------------------------------------------

def test_K4_checklist_items_are_ticked_and_unticked_items_warn_at_the_end(game: Game) -> None:
    s = start(game)
    s = act(game, s, "assist.check", step="axis_ops", item=0, value=True).state
    out = end_step(game, s)
    warn = [e for e in out.events if e.kind == "warning"]
    assert len(warn) == 1 and "Check stacking [K4.1]" in warn[0].text
    assert "Spend economic points" not in warn[0].text


def test_K5_1_a_turn_trigger_reminds_at_the_start_of_its_turn(game: Game) -> None:
    s = with_flag(start(game), "vichy", True)  # no Norway step: turn 1 has no frames
    seen = []
    for _ in range(12):
        out = end_step(game, s)
        seen.extend(e.text for e in out.events if e.kind == "remind")
        s = out.state
        if s.turn == 2:
            break
    assert seen == ["Reminder, Dec 1939–Feb 1940 (turn 2): Winter supply: check every unit's "
                    "supply [K5.1]"]


def test_K3_1_a_date_trigger_applies_its_effects(game: Game) -> None:
    s = with_flag(start(game), "vichy", True)
    s = with_track(s, "us_entry", "", 3)
    while s.turn < 4:
        s = end_step(game, s).state
    assert not flag(s, "sitzkrieg")


def test_assist_verbs_are_refused_in_enforced_steps_except_checks_and_notes(
        game: Game) -> None:
    import dataclasses

    d = dataclasses.replace(game.definition, enforcement="enforced")
    enforced = dataclasses.replace(game, definition=d)
    s = start(game)
    with pytest.raises(IllegalAction, match="played by the rules"):
        act(enforced, s, "assist.set_flag", flag="vichy", value=True)
    assert act(enforced, s, "assist.note", text="watch Norway").state.vars["notes.axis"]


# --- hidden information -------------------------------------------------------------------

def test_K8_a_drawn_chit_is_private_to_the_drawer(game: Game) -> None:
    s = start(game)
    with pytest.raises(IllegalAction, match="does not draw"):
        act(game, s, "assist.draw", "axis", cup="ultra")
    out = act(game, s, "assist.draw", "allies", cup="ultra")
    public = [e for e in out.events if not e.private_to]
    assert [e.text for e in public] == ["Allies draws a chit from the Ultra cup"]
    private = [e for e in out.events if e.private_to]
    assert private and private[0].private_to == "allies" and "Ultra:" in private[0].text
    st = out.state
    held = st.vars["hand.allies"]
    assert len(held) == 1 and len(st.vars["cup.ultra"]) == 2
    axis_view = game.rules.view(game, st, "axis")
    assert axis_view.vars["hand.allies"] == (("?", "?"),)
    assert set(axis_view.vars["cup.ultra"]) == {"?"}
    assert game.rules.view(game, st, "allies").vars["hand.allies"] == held
    assert game.rules.hidden_information(game, st)
    played = act(game, st, "assist.play", "allies", chit=held[0][1])
    assert "plays a chit from the Ultra cup: Ultra:" in played.events[0].text
    assert played.state.vars["hand.allies"] == ()
    back = act(game, st, "assist.return", "allies", chit=held[0][1])
    assert len(back.state.vars["cup.ultra"]) == 3 and "returns a chit" in back.events[0].text
    assert held[0][1] not in back.events[0].text


def test_private_notes_and_public_markers(game: Game) -> None:
    s = start(game)
    s = act(game, s, "assist.note", "axis", text="Attack Norway in spring").state
    assert "notes.axis" not in game.rules.view(game, s, "allies").vars
    assert game.rules.view(game, s, "axis").vars["notes.axis"] == "Attack Norway in spring"
    out = act(game, s, "assist.marker", "allies", location="0505", text="Fortified")
    assert out.state.vars["markers"] == {"0505": "Fortified"}
    assert "Fortified" in out.events[0].text
