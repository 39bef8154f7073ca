"""The engine loop on the Skirmish test game: prompt/apply, sequence, frames, physical dice.

Rule numbers S3-S6 are the test game's own (tests/testgame/rules.py).
"""

from __future__ import annotations

import pytest

from wartable.core.errors import IllegalAction
from wartable.engine.actions import DICE, END_STEP, FREE_MOVE, Action
from wartable.engine.loop import apply, deciding_side, new_game, prompt
from wartable.engine.rules import Game
from wartable.model.state import GameState
from wartable.persistence.gamedata import load_game


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game("skirmish")


def start(game: Game, scenario: str = "meeting", **kw: object) -> GameState:
    state, _ = new_game(game, scenario, **kw)  # type: ignore[arg-type]
    return state


def step_name(game: Game, s: GameState) -> str:
    return game.position(s).step.name


def test_setup_places_every_unit_of_the_scenario(game: Game) -> None:
    s = start(game)
    sc = game.definition.scenarios["meeting"]
    assert len(s.pieces) == sum(p.count for p in sc.setup) == 10
    assert {(p.location, p.side, p.type) for p in s.pieces.values()} == {
        (p.location, p.side, p.type) for p in sc.setup}
    assert s.piece("blue.armour.1").attrs["name"] == "7th Armd"


def test_first_step_is_blue_movement_and_red_waits(game: Game) -> None:
    s = start(game)
    assert (s.turn, step_name(game, s), s.active_side) == (1, "Movement", "blue")
    p = prompt(game, s, "red")
    assert p.waiting and p.text.startswith("Waiting for Blue")
    assert not p.moves


def test_S3_turn_one_skips_combat_for_both_sides(game: Game) -> None:
    """The Combat step has condition not_first_turn: turn 1 is movement only."""
    s = start(game)
    seen = []
    for _ in range(4):
        seen.append((s.turn, s.active_side, step_name(game, s)))
        s = apply(game, s, Action(END_STEP, s.active_side)).state
    assert seen == [(1, "blue", "Movement"), (1, "red", "Movement"),
                    (2, "blue", "Movement"), (2, "blue", "Combat")]


def test_S4_move_costs_terrain_and_stops_at_allowance(game: Game) -> None:
    s = start(game)
    moves = prompt(game, s, "blue")
    inf = "blue.infantry.1"  # at 0205, movement 4; clear terrain around it costs 1
    dests = moves.legal_destinations(inf)
    # Row 05 is clear from column 02 to 06 (see the map dump in make_map.py's output),
    # so 0605 is four clear hexes away: cost 4 = the allowance, legal. 0905 is 7 away.
    assert "0605" in dests and moves.costs[inf]["0605"] == 4.0
    assert "0905" not in dests
    hm = game.maps["skirmish/field"]
    for d in dests:
        assert hm.info(d).terrain != "water"
    assert moves.costs[inf]["0204"] == 1.0
    out = apply(game, s, Action.make("move", "blue", piece=inf, to="0204"))
    assert out.state.piece(inf).location == "0204"
    assert "moves 0205 → 0204 (1 MP)" in out.events[0].text
    with pytest.raises(IllegalAction, match=r"already moved this step \[S4\]"):
        apply(game, out.state, Action.make("move", "blue", piece=inf, to="0205"))


def test_S4_water_is_impassable(game: Game) -> None:
    s = start(game)
    dests = prompt(game, s, "blue").legal_destinations("blue.infantry.1")
    assert "0603" not in dests and "0703" not in dests  # the lake north of 0205


def test_moving_out_of_turn_is_refused_with_a_reason(game: Game) -> None:
    s = start(game)
    with pytest.raises(IllegalAction, match="It is Blue's decision now, not Red's"):
        apply(game, s, Action.make("move", "red", piece="red.infantry.1", to="2105"))


def test_illegal_destination_leaves_state_unchanged(game: Game) -> None:
    s = start(game)
    with pytest.raises(IllegalAction, match=r"cannot reach 1616"):
        apply(game, s, Action.make("move", "blue", piece="blue.infantry.1", to="1616"))
    assert s.piece("blue.infantry.1").location == "0205"


def test_free_play_override_moves_anything_and_is_logged(game: Game) -> None:
    s = start(game)
    out = apply(game, s, Action.make(FREE_MOVE, "red", piece="blue.infantry.1", to="1616"))
    assert out.state.piece("blue.infantry.1").location == "1616"
    assert out.events[0].kind == "override"
    assert out.events[0].text.startswith("House rule: Red moved Blue 1st Inf 0205 → 1616")


def _to_blue_combat(game: Game, s: GameState) -> GameState:
    while not (s.turn == 2 and step_name(game, s) == "Combat"):
        s = apply(game, s, Action(END_STEP, deciding_side(s))).state
    return s


def test_S5_attack_rolls_and_resolves_on_the_crt(game: Game) -> None:
    s = _to_blue_combat(game, start(game, "contact", seed=11))
    p = prompt(game, s, "blue")
    assert "1105" in p.targets["attack"]
    out = apply(game, s, Action.make("attack", "blue", attackers=("blue.armour.1",),
                                     target="1105"))
    texts = [e.text for e in out.events]
    assert texts[0].startswith("Attack on 1105: rolled ")
    roll = int(texts[0].rsplit(" ", 1)[1])
    # 6 attack vs 4 defense: no odds modifier; 1105 clear: no terrain modifier.
    expected = {1: "attacker eliminated", 2: "attacker retreats", 3: "defender retreats",
                4: "defender retreats", 5: "defender eliminated", 6: "defender eliminated"}
    assert texts[1] == f"Attack on 1105: roll {roll} → {expected[roll]}"
    assert out.state.rng != s.rng


def test_S5_5_defender_chooses_retreat_in_attackers_turn_physical_dice(game: Game) -> None:
    """Physical dice: the roll is typed; a DR pushes a frame that RED must answer
    during Blue's combat step, then play returns to Blue."""
    s = _to_blue_combat(game, start(game, "contact", dice_mode="physical"))
    s = apply(game, s, Action.make("attack", "blue", attackers=("blue.armour.1",),
                                   target="1105")).state
    ask = prompt(game, s, "blue").dice
    assert ask is not None and (ask.count, ask.sides) == (1, 6)
    with pytest.raises(IllegalAction, match="from 1 to 6"):
        apply(game, s, Action.make(DICE, "blue", values=(7,)))
    out = apply(game, s, Action.make(DICE, "blue", values=(3,)))  # 3 → DR
    s = out.state
    assert "roll 3 → defender retreats" in [e.text for e in out.events][1]
    assert deciding_side(s) == "red" and s.active_side == "blue"
    opts = prompt(game, s, "red").targets["retreat"]
    assert opts and "1005" not in opts  # never into the attacker's hex
    with pytest.raises(IllegalAction, match="may not retreat"):
        apply(game, s, Action.make("retreat", "red", to="1005"))
    s = apply(game, s, Action.make("retreat", "red", to=opts[0])).state
    assert s.piece("red.infantry.1").location == opts[0]
    assert deciding_side(s) == "blue" and not s.frames


def test_S5_3_defender_eliminated_goes_to_the_dead_pile(game: Game) -> None:
    s = _to_blue_combat(game, start(game, "contact", dice_mode="physical"))
    s = apply(game, s, Action.make("attack", "blue", attackers=("blue.armour.1",),
                                   target="1105")).state
    s = apply(game, s, Action.make(DICE, "blue", values=(6,))).state
    assert s.piece("red.infantry.1").location == "box:eliminated"


def test_S6_eliminating_every_enemy_unit_ends_the_game(game: Game) -> None:
    s = start(game, "contact", dice_mode="physical")
    s = apply(game, s, Action.make(FREE_MOVE, "blue", piece="red.infantry.2",
                                   to="box:eliminated")).state
    s = _to_blue_combat(game, s)
    s = apply(game, s, Action.make("attack", "blue", attackers=("blue.armour.1",),
                                   target="1105")).state
    s = apply(game, s, Action.make(DICE, "blue", values=(6,))).state
    assert s.result == "Blue win: every Red unit is eliminated [S6]."
    assert prompt(game, s).finished
    with pytest.raises(IllegalAction, match="The game is over"):
        apply(game, s, Action(END_STEP, "blue"))


def test_game_ends_after_last_turn(game: Game) -> None:
    s = start(game, "contact")
    while s.result is None:
        s = apply(game, s, Action(END_STEP, deciding_side(s))).state
    assert s.turn == 4 and s.result == "Draw: both sides have 2 units left [S6]."


def test_same_seed_same_rolls(game: Game) -> None:
    def roll(seed: int) -> str:
        s = _to_blue_combat(game, start(game, "contact", seed=seed))
        out = apply(game, s, Action.make("attack", "blue", attackers=("blue.armour.1",),
                                         target="1105"))
        return out.events[0].text
    assert roll(5) == roll(5)
    assert len({roll(n) for n in range(12)}) > 1


def test_dice_mode_can_switch_mid_game_and_is_logged(game: Game) -> None:
    """Issue 7: any roll can be typed from real dice, per game or from a point on."""
    from wartable.engine.actions import SET_DICE_MODE

    s = start(game, "contact")
    out = apply(game, s, Action.make(SET_DICE_MODE, "red", mode="physical"))
    assert out.state.dice_mode == "physical"
    assert out.events[0].text == "Red switched to physical dice"
    with pytest.raises(IllegalAction, match="already uses physical dice"):
        apply(game, out.state, Action.make(SET_DICE_MODE, "blue", mode="physical"))
    s = _to_blue_combat(game, out.state)
    s = apply(game, s, Action.make("attack", "blue", attackers=("blue.armour.1",),
                                   target="1105")).state
    assert prompt(game, s, "blue").dice is not None  # the roll is asked, not made
