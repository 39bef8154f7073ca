"""What 1940 tells the table (issue 16): its set-up pools are placement boxes [3.1], and
units selected together move as one force [10.4] in a movement phase."""

from __future__ import annotations

from w40_helpers import game, goto, ready_default, start

from wartable.engine.loop import apply
from wartable.games.whatif1940.ids import ALLIED_POOL, GERMAN_POOL, NEUTRAL_POOL, SOVIET_POOL


def test_3_1_the_set_up_pools_are_placement_boxes() -> None:
    g = game()
    assert set(g.rules.placement_boxes(g)) == {GERMAN_POOL, ALLIED_POOL, SOVIET_POOL,
                                               NEUTRAL_POOL}


def test_10_4_a_selection_moves_as_one_force_in_movement_only() -> None:
    g = game()
    ids = ("german.ger_infantry.28", "german.ger_infantry.29")
    assert g.rules.stack_move(g, start(), "soviet", ids, "4401") is None  # set-up: one by one
    s = goto(ready_default(), "german_east_move_d")
    a = g.rules.stack_move(g, s, "german", ids, "4401")
    assert a is not None and a.verb == "move" and a.args["pieces"] == ids
    after = apply(g, s, a).state
    assert [after.pieces[p].location for p in ids] == ["4401", "4401"]
