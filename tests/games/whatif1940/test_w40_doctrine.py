"""III.A Anglo-French Armor Doctrine Phase: the tank corps rolls [9.2, 9.3] and the 1st
Allied Tank Army [9.4], after the Ardennes roll [10.10]. Typed (physical) dice throughout,
so each test sets the exact roll the rule talks about."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from w40_helpers import act, board, game, goto, put, ready

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.loop import prompt
from wartable.games.whatif1940.ids import ANGLO_FRENCH, V_ARDENNES_OPEN
from wartable.games.whatif1940.steps import doctrine, stacking
from wartable.model.state import GameState

AF = ANGLO_FRENCH
# [6.4] The French map edge "from 1700 to 1011": the west edge 1700 down to 1000, then the
# south edge 1000 to 1011.
SOURCES = tuple(f"{c}00" for c in range(17, 9, -1)) + tuple(f"10{r:02d}" for r in range(1, 12))


@cache
def _ready() -> GameState:
    return ready()


def at_doctrine(turn: int = 2, ardennes_open: bool = True,
                entered: dict[str, int] | None = None, state: GameState | None = None
                ) -> GameState:
    s = state or _ready()
    s = replace(s, dice_mode="physical").with_var(V_ARDENNES_OPEN, ardennes_open)
    if entered:
        s = s.with_var(doctrine.V_TANK_ENTERED, FrozenMap(entered))
    return goto(s, "armor_doctrine", turn=turn)


def roll(s: GameState, value: int) -> GameState:
    fr = s.top_frame
    assert fr is not None and fr.kind == "dice", fr
    return act(s, "dice", AF, values=(value,))


def purpose(s: GameState) -> str:
    fr = s.top_frame
    assert fr is not None and fr.kind == "dice", fr
    return str(fr.data["purpose"])


def tanks_on_map(s: GameState, army: str) -> list[str]:
    return [p.id for p in s.pieces.values()
            if p.type in doctrine.ARMIES[army] and board().on_map(p.location)]


def test_9_2_a_one_brings_the_british_tank_corps_drawn_blind_into_a_source_hex() -> None:
    s = at_doctrine()
    assert purpose(s).startswith("British Army") and "needs a 1" in purpose(s)
    s = roll(s, 1)
    fr = s.top_frame
    assert fr is not None and fr.kind == doctrine.F_PLACE
    drawn = str(fr.data["piece"])
    assert s.piece(drawn).type in doctrine.ARMIES["british"]
    # The places offered are exactly the supply source hexes [6.4] (all empty here or
    # holding French units it may not stack with [7.4]).
    offered = set(prompt(game(), s).moves[drawn])
    assert offered and offered <= set(SOURCES)
    with pytest.raises(IllegalAction, match="9.2"):
        act(s, "move", AF, piece=drawn, to="1905")  # not a supply source hex
    h = sorted(offered)[0]
    s = act(s, "move", AF, piece=drawn, to=h)
    assert s.piece(drawn).location == h and s.piece(drawn).attrs.get("step") != 2
    assert len([p for p in s.pieces_at(doctrine.TANK_POOL)
                if p.type in doctrine.ARMIES["british"]]) == 2  # the other variants wait
    # Then the French roll: a 3 brings nothing.
    assert purpose(s).startswith("French Army")
    s = roll(s, 3)
    assert tanks_on_map(s, "french") == [] and not s.frames
    assert s.var(doctrine.V_TANK_ENTERED)["british"] == 2


def test_9_2_a_two_does_not_bring_a_tank_corps_while_neither_is_in_play() -> None:
    s = roll(roll(at_doctrine(), 2), 2)
    assert tanks_on_map(s, "british") == [] and tanks_on_map(s, "french") == []
    assert not s.frames


def test_9_2_on_turns_after_the_other_army_entered_a_two_suffices() -> None:
    s = at_doctrine(turn=3, entered={"british": 2})
    assert purpose(s).startswith("French Army") and "1-2" in purpose(s)
    s = roll(s, 2)
    fr = s.top_frame
    assert fr is not None and fr.kind == doctrine.F_PLACE
    assert s.piece(str(fr.data["piece"])).type in doctrine.ARMIES["french"]


def test_9_2_the_same_turn_the_other_army_entered_still_needs_a_one() -> None:
    # The British corps came this very turn: "on game turns thereafter" the French need 1-2.
    s = at_doctrine(turn=4, entered={"british": 4})
    assert "needs a 1" in purpose(s)


def test_9_2_no_rolls_once_both_corps_are_in_play() -> None:
    s = at_doctrine(turn=5, entered={"british": 2, "french": 3})
    assert not s.frames  # nothing to roll (and no Tank Army: the corps are in the pool)


def test_10_10_the_ardennes_roll_comes_first_while_they_are_closed() -> None:
    s = at_doctrine(ardennes_open=False)
    assert purpose(s) == "Ardennes roll"
    s = roll(s, 1)
    assert s.var(V_ARDENNES_OPEN) is True and purpose(s).startswith("British Army")


def _both_top_rung(s: GameState, reduced: bool = False) -> GameState:
    brit = next(p.id for p in s.pieces.values() if p.type == "brit_tank_top")
    fr = next(p.id for p in s.pieces.values() if p.type == "fr_tank_top")
    s = put(s, brit, "1300", **({"step": 2} if reduced else {}))
    return put(s, fr, "1200")


def test_9_4_both_top_rung_corps_in_supply_at_two_steps_roll_one_forms_the_army() -> None:
    s = _both_top_rung(_ready())
    s = at_doctrine(turn=5, entered={"british": 2, "french": 3}, state=s)
    assert purpose(s) == "1st Allied Tank Army roll"
    s = roll(s, 1)
    assert s.var(doctrine.V_TANK_ARMY) is True
    brit, fr = (next(p for p in s.pieces.values() if p.type == t)
                for t in ("brit_tank_top", "fr_tank_top"))
    # From now on they may stack together "as if both were of the same nationality".
    assert stacking.compatible(game(), s, brit, fr)


def test_9_4_a_roll_other_than_one_leaves_them_apart() -> None:
    s = _both_top_rung(_ready())
    s = roll(at_doctrine(turn=5, entered={"british": 2, "french": 3}, state=s), 4)
    brit, fr = (next(p for p in s.pieces.values() if p.type == t)
                for t in ("brit_tank_top", "fr_tank_top"))
    assert not s.var(doctrine.V_TANK_ARMY, False)
    assert not stacking.compatible(game(), s, brit, fr)  # British and French apart [7.4]


def test_9_4_no_roll_while_a_corps_is_reduced() -> None:
    s = _both_top_rung(_ready(), reduced=True)
    s = at_doctrine(turn=5, entered={"british": 2, "french": 3}, state=s)
    assert not s.frames
