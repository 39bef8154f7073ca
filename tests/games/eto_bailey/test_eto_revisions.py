"""Bailey's revisions (issue 22), each set up in its situation, on the real game data and map.
Rule names as in the revisions: General (n), <Country> (n)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP, Action, Outcome
from wartable.engine.loop import apply, new_game
from wartable.engine.rules import Game
from wartable.model.state import GameState, Piece
from wartable.model.tracks import track, with_track
from wartable.persistence.gamedata import load_game


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game("eto_bailey")


def empty(game: Game) -> GameState:
    return new_game(game, "owner")[0]


def put(state: GameState, pid: str, type_: str, side: str, at: str, sp: int,
        nation: str) -> GameState:
    return state.with_piece(Piece(pid, type_, side, at, FrozenMap(sp=sp, nation=nation)))


def act(game: Game, state: GameState, verb: str, side: str = "axis", **args: Any) -> Outcome:
    return apply(game, state, Action.make(verb, side, **args))


def at_step(game: Game, state: GameState, step_id: str) -> GameState:
    for _ in range(60):
        if game.position(state).step.id == step_id and not state.frames:
            return state
        state = apply(game, state, Action(END_STEP, state.active_side)).state
    raise AssertionError(f"never reached {step_id}")


def roll(game: Game, state: GameState, table: str, dice: tuple[int, ...],
         side: str = "allies") -> Outcome:
    return act(game, state, "assist.roll", side, table=table, dice=dice)


# --- General (2): the second die -------------------------------------------------------------

def combat_state(game: Game) -> GameState:
    s = at_step(game, empty(game), "axis_combat")
    s = put(s, "a1", "ger_inf", "axis", "1212", 4, "germany")
    s = put(s, "a2", "ger_inf", "axis", "1212", 4, "germany")
    return put(s, "d1", "fr_inf", "allies", "1211", 3, "france")  # clear hex, no fortress


@pytest.mark.parametrize("second,attacker_loses,may_decline", [
    (1, 1, True), (2, 1, False), (3, 1, False), (4, 0, False), (6, 0, False)])
def test_general_2_second_die_on_a_six(game: Game, second: int, attacker_loses: int,
                                       may_decline: bool) -> None:
    s = combat_state(game)
    out = act(game, s, "attack", attackers=("a1", "a2"), hex="1211", dice=(6, second))
    texts = [e.text for e in out.events]
    assert "differential 5, die 6" in texts[0]
    sd = [e for e in out.events if e.rule == "General (2)"][0]
    assert sd.data["attacker_loss"] == attacker_loses
    assert sd.data["may_decline"] is may_decline
    left = sum(int(p.attrs["sp"]) for p in out.state.pieces.values() if p.side == "axis")
    assert left == 8 - attacker_loses


def test_general_2_no_second_die_below_six(game: Game) -> None:
    out = act(game, combat_state(game), "attack", attackers=("a1", "a2"), hex="1211", dice=(5, 1))
    assert not [e for e in out.events if e.rule == "General (2)"]


def test_crt_no_attack_below_0(game: Game) -> None:
    s = combat_state(game)
    s = put(s, "d2", "fr_inf", "allies", "1211", 3, "france")
    with pytest.raises(IllegalAction, match="no attacks below 0"):
        act(game, s, "attack", attackers=("a1",), hex="1211", dice=(3,))


# --- General (8): fortresses ------------------------------------------------------------------

def test_general_8_maginot_doubles_then_lapses_after_occupation(game: Game) -> None:
    s = at_step(game, empty(game), "axis_combat")
    s = put(s, "a1", "ger_inf", "axis", "1113", 4, "germany")
    s = put(s, "a2", "ger_mech", "axis", "1113", 4, "germany")
    s = put(s, "d1", "fr_inf", "allies", "1013", 2, "france")
    out = act(game, s, "attack", attackers=("a1", "a2"), hex="1013", dice=(5,))
    first = out.events[0].text
    assert "8 against 4 (fortress ×2 [General (8)])" in first  # 2 SP doubled
    st = out.state
    assert not [p for p in st.pieces_at("1013") if p.side == "allies"]
    assert {p.id for p in st.pieces_at("1013")} == {"a1", "a2"}
    assert track(st, "fortress_lost", "h1013") == "lost"
    # A French counterattack on the occupied hex meets no fortress [General (8)(D)]
    from wartable.games.eto_bailey.revisions import odds
    st = put(st, "f1", "fr_inf", "allies", "0913", 3, "france")
    o = odds(game, st, ("f1",), "1013")
    assert (o.defence, o.reasons) == (8, ())  # 4+4 SP, no ×2


def test_general_8_C_moscow_is_x4(game: Game) -> None:
    from wartable.games.eto_bailey.revisions import odds
    s = put(empty(game), "r", "sov_inf", "allies", "2409", 2, "russia")
    s = put(s, "g", "ger_inf", "axis", "2408", 4, "germany")
    assert odds(game, s, ("g",), "2409").defence == 8


# --- General (10): the Africa cap ---------------------------------------------------------------

def test_general_10_africa_cap_refuses_a_ninth_sp(game: Game) -> None:
    s = at_step(game, empty(game), "allies_reinforce")
    for i, h in enumerate(("2325", "2324", "2224")):  # Egypt: 3+3+2 = 8 British SP
        s = put(s, f"b{i}", "brit_inf", "allies", h, 3 if i < 2 else 2, "britain")
    s = put(s, "b9", "brit_inf", "allies", "0810", 1, "britain")  # London
    with pytest.raises(IllegalAction, match=r"has 8 SP in Africa; 1 more would exceed 8 SP "
                                            r"\[General \(10\)\]"):
        act(game, s, "place_unit", "allies", type="brit_inf", location="2224", sp=1,
            nation="britain")
    s = at_step(game, s, "allies_move")
    with pytest.raises(IllegalAction, match=r"General \(10\)"):
        act(game, s, "move", "allies", pieces=("b9",), to="2224")


def test_general_10_no_unit_over_3_sp_placed_in_africa(game: Game) -> None:
    s = at_step(game, empty(game), "axis_reinforce")
    with pytest.raises(IllegalAction, match="larger than 3 SP"):
        act(game, s, "place_unit", type="ger_mech", location="1024", sp=4, nation="germany")
    out = act(game, s, "place_unit", type="ger_mech", location="1024", sp=3, nation="germany")
    assert [p.attrs["sp"] for p in out.state.pieces_at("1024")] == [3]


# --- United States (1): entry from each event -------------------------------------------------

@pytest.mark.parametrize("table,dice,enters", [
    ("us_event_france", (2, 2), True), ("us_event_france", (2, 3), False),
    ("us_event_britain", (5,), True), ("us_event_britain", (6,), False),
    ("us_event_russia", (1, 2), True), ("us_event_russia", (2, 2), False),
    ("us_event_suez", (5,), True), ("us_event_suez", (6,), False),
    ("us_entry_early", (1, 1), True), ("us_entry_early", (1, 2), False),
    ("us_entry", (2,), True), ("us_entry", (6,), False),
])
def test_united_states_1_entry_rolls(game: Game, table: str, dice: tuple[int, ...],
                                     enters: bool) -> None:
    out = roll(game, empty(game), table, dice)
    assert track(out.state, "us_status", "usa") == ("at_war" if enters else "neutral")


def test_united_states_1A_entry_automatic_on_turn_11(game: Game) -> None:
    s = empty(game)
    assert track(s, "us_status", "usa") == "neutral"
    for _ in range(400):
        if s.turn >= 11:
            break
        s = apply(game, s, Action(END_STEP, s.active_side)).state
    # the rolls of turns 3-10 may have brought the US in already; on 11 it is at war anyway
    assert s.turn == 11 and track(s, "us_status", "usa") == "at_war"


# --- France (3): Vichy; General (8)(B): Malta ---------------------------------------------------

@pytest.mark.parametrize("table,die,result", [
    ("vichy_area", 3, "vichy"), ("vichy_area", 4, "free_french"),
    ("vichy_unit", 1, "removed"), ("vichy_unit", 6, "free_french")])
def test_france_3_vichy_rolls(game: Game, table: str, die: int, result: str) -> None:
    ev = roll(game, empty(game), table, (die,)).events[0]
    assert ev.data["result"] == result and ev.rule == "France (3)"


def test_general_8_B_malta_interdiction_rolled_per_sp(game: Game) -> None:
    s = empty(game)
    results = []
    for die in (1, 3, 4, 6):  # four SP crossing the Mediterranean: one roll each
        out = roll(game, s, "malta", (die,))
        s = out.state
        results.append(out.events[0].data["result"])
    assert results == ["turned_back", "turned_back", "through", "through"]


# --- General (13): the VP ledger at each deadline -----------------------------------------------

@pytest.mark.parametrize("objective,turn,points", [
    ("paris", 15, 8), ("paris", 16, 6), ("paris", 17, 6), ("paris", 18, 4), ("paris", 20, 0),
    ("berlin", 19, 10), ("berlin", 21, 8), ("berlin", 23, 4),
    ("france", 3, 4), ("france", 4, 3), ("france", 5, 0),
    ("africa", 10, 8), ("africa", 13, 3), ("africa", 14, 0),
    ("norway", 3, 2), ("norway", 4, 1), ("rome", 16, 6), ("rome", 17, 0),
    ("balkans", 6, 4), ("balkans", 12, 3),
])
def test_general_13_vp_ledger_deadlines(game: Game, objective: str, turn: int,
                                        points: int) -> None:
    from wartable.games.eto_bailey.revisions import VP_OBJECTIVES, totals
    s = with_track(empty(game), "vp_done", objective, turn)
    side = VP_OBJECTIVES[objective][0]
    assert totals(s)[side] == points


def test_general_13_london_4_vp_each_turn_held(game: Game) -> None:
    from wartable.games.eto_bailey.revisions import totals
    s = with_track(empty(game), "vp_done", "london", 9)
    s = with_track(s, "london_turns", "", 2)  # two ends of turn held
    assert totals(s)["axis"] == 6 + 8


# --- random legal play ---------------------------------------------------------------------------

def test_selfplay_random_games_with_invariants() -> None:
    r = subprocess.run([sys.executable, "-m", "wartable", "selfplay", "eto_bailey", "1939",
                        "--games", "5"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "5 games, 0 with invariant problems" in r.stdout


@pytest.mark.parametrize("scenario", ["1939", "owner"])
def test_wartable_new_starts_each_scenario(scenario: str, tmp_path: Any) -> None:
    out = tmp_path / "g.json"
    r = subprocess.run([sys.executable, "-m", "wartable", "new", "eto_bailey", scenario,
                        "-o", str(out)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert f"scenario {scenario}" in r.stdout and out.exists()
