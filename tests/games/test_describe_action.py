"""Rules.describe_action (issue 14): an action as a player reads it, for the bot's turn
summary and the hint, worded by the game so the UI needs no list of verbs. The wording is the
bot player's (ui/botplayer.py) before the hook: compared action by action."""

from __future__ import annotations

import pytest

from wartable.engine.actions import Action
from wartable.engine.session import Session
from wartable.persistence.gamedata import load_game
from wartable.ui.botplayer import describe_action as ui_describe


def _both(session: Session, action: Action) -> str:
    """The rules' wording, checked equal to the bot player's."""
    got = session.game.rules.describe_action(session.game, session.state, action)
    assert got == ui_describe(session, action)
    return got


@pytest.fixture(scope="module")
def aa() -> Session:
    return Session.start(load_game("aa_anniversary"), "1941", seed=1)


@pytest.fixture(scope="module")
def w40() -> Session:
    return Session.start(load_game("whatif1940"), "standard", seed=1)


def test_aa_purchase_names_the_unit(aa: Session) -> None:
    assert _both(aa, Action.make("buy", "germany", unit="armour")) == "Buy Tank"


def test_aa_battle_names_the_space_by_the_board(aa: Session) -> None:
    assert (_both(aa, Action.make("fight", "germany", space="east_poland"))
            == "Fight the battle in East Poland")


def test_a_move_names_piece_and_places(aa: Session) -> None:
    p = next(p for p in aa.state.pieces.values() if p.location == "germany")
    text = _both(aa, Action.make("move", "germany", piece=p.id, to="east_poland"))
    assert text == (f"Move {aa.game.rules.piece_name(aa.game, p)} from Germany "
                    f"to East Poland")


def test_a_button_by_its_label_else_the_verb(w40: Session) -> None:
    side = w40.prompt().side
    assert _both(w40, Action.make("auto_setup", side)) == "Place the rest automatically"
    assert _both(w40, Action.make("end_step", side)) == "End step"
    assert _both(w40, Action.make("stack_top", side, piece="x")) == "Stack top"


def test_w40_prepared_assault_counts_its_attackers(w40: Session) -> None:
    one = Action.make("attack", "german", target="4624", attackers=("a",))
    two = Action.make("attack", "german", target="4624", attackers=("a", "b"))
    assert _both(w40, one) == "Attack 4624 with 1 unit"
    assert _both(w40, two) == "Attack 4624 with 2 units"
