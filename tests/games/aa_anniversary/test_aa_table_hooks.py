"""What A&A tells the table (issue 16): cargo's attribute, battles due, units that moved,
the mobilization zone as a placement box, and the units an action would lose (Air Units,
pg. 26: aircraft that cannot land are lost at the end of Noncombat Move)."""

from __future__ import annotations

from aa_helpers import act, at, board, game, start

from wartable.engine.actions import END_STEP, Action
from wartable.engine.rules import Rules
from wartable.games.aa_anniversary.steps.common import MOBILIZATION


def test_pg26_aircraft_that_cannot_land_are_named_before_noncombat_ends() -> None:
    g = game()
    s = at(board(start(), ("germany.fighter.1", "fighter", "sz05"),
                 ("germany.fighter.2", "fighter", "germany"),
                 ("germany.infantry.1", "infantry", "germany")), "germany", "noncombat_move")
    lost = g.rules.would_lose(g, s, Action(END_STEP, "germany"))
    assert [p.id for p in lost] == ["germany.fighter.1"]  # no carrier in Sea Zone 5
    # The engine agrees: ending the step removes exactly that fighter.
    after = act(s, END_STEP, "germany")
    assert "germany.fighter.1" not in after.pieces and "germany.fighter.2" in after.pieces
    # Other actions, and other steps, lose nothing by themselves.
    assert g.rules.would_lose(g, s, Action.make("move", "germany", piece="germany.fighter.1",
                                                 to="germany")) == ()
    cm = at(s, "germany", "combat_move")
    assert g.rules.would_lose(g, cm, Action(END_STEP, "germany")) == ()


def test_table_hooks_cargo_battles_moved_and_the_mobilization_zone() -> None:
    g = game()
    assert g.rules.cargo_attribute(g) == "on"  # Transports (pg. 15)
    assert g.rules.placement_boxes(g) == (MOBILIZATION,)
    s = at(start(), "germany", "combat_move")
    assert g.rules.pending_battles(g, s) == ()
    s = act(s, "move", "germany", piece="germany.infantry.16", to="east_poland")
    assert g.rules.pending_battles(g, s) == ("east_poland",)
    assert g.rules.moved_pieces(g, s) == frozenset({"germany.infantry.16"})


def test_the_defaults_are_a_plain_table() -> None:
    g = game()
    plain = Rules()
    s = start()
    assert plain.cargo_attribute(g) is None and plain.placement_boxes(g) == ()
    assert plain.pending_battles(g, s) == () and plain.moved_pieces(g, s) == frozenset()
    assert plain.would_lose(g, s, Action(END_STEP, "germany")) == ()
    assert plain.stack_move(g, s, "germany", ("a", "b"), "x") is None
