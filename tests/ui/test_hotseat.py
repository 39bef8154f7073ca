"""Face to face on one screen with hidden information (issue 7): the privacy curtain.

The test game's fog of war [S7] hides all but the top unit of each enemy stack and keeps
each side's moves out of the other's log. These tests record every set of pieces the
window hands to the map, so a hidden unit drawn even once fails them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from uihelpers import act as submit
from uihelpers import open_window, sit, start_game
from wartable.engine.actions import Action
from wartable.ui.mainwindow import MainWindow


@pytest.fixture
def win(qtbot: QtBot) -> Iterator[MainWindow]:
    w = open_window(qtbot)
    drawn: list[set[str]] = []
    original = w.map.set_pieces

    def record(pieces: Any) -> None:
        drawn.append({p.id for p in pieces})
        original(pieces)

    w.map.set_pieces = record  # type: ignore[method-assign]
    w.drawn = drawn  # type: ignore[attr-defined]
    yield w
    w.close()


def start(win: MainWindow, qtbot: QtBot, fog: bool = True, solitaire: bool = False) -> None:
    start_game(win, qtbot, "skirmish", "meeting", {"fog": fog}, {"blue": "Ann", "red": "Bob"},
               solitaire, 10000)


def act(win: MainWindow, qtbot: QtBot, action: Action) -> None:
    submit(win, qtbot, action, timeout_ms=5000)


def red_stack(win: MainWindow, qtbot: QtBot) -> None:
    """Blue ends its move; Bob sits and stacks Red 22nd Rifle onto the 21st at 2205."""
    sit(win, qtbot, "Ann")
    act(win, qtbot, Action("end_step", "blue"))
    sit(win, qtbot, "Bob")
    assert "2205" in win.snapshot.prompt.moves["red.infantry.2"]
    act(win, qtbot, Action.make("move", "red", piece="red.infantry.2", to="2205"))
    act(win, qtbot, Action("end_step", "red"))


def test_curtain_before_the_first_side_acts_and_nothing_is_drawn(win: MainWindow,
                                                                 qtbot: QtBot) -> None:
    start(win, qtbot)
    assert win.stack.currentWidget() is win.curtain
    assert win.curtain.button.text() == "I am Ann: show my side"
    assert all(d == set() for d in win.drawn)
    assert win.side.button_for("end_step") is None  # nobody acts behind the curtain
    sit(win, qtbot, "Ann")
    assert len(win.drawn[-1]) == 10  # no stacks yet: every unit is visible


def test_hidden_units_never_drawn_for_the_other_side(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot)
    red_stack(win, qtbot)
    # Blue's turn: the curtain is down for Ann; the map holds nothing.
    assert win.curtain.player == "Ann" and win.drawn[-1] == set()
    mark = len(win.drawn)
    sit(win, qtbot, "Ann")
    after = win.drawn[mark:]
    assert after and all("red.infantry.2" not in d for d in after)  # hidden under the top
    assert all("red.infantry.1" in d for d in after)  # the top unit shows
    top = win.map.piece_item("red.infantry.1")
    assert top is not None
    # The log does not tell Ann where Red's units went [S7].
    assert not any("22nd Rifle moves" in t for t in win.log.visible_texts())
    # Bob's own view, on his next turn, shows his whole stack. (Turn 2: Blue moves, then
    # fights [S3], so two steps end before Red decides.)
    act(win, qtbot, Action("end_step", "blue"))
    assert win.stack.currentWidget() is win.map_tabs  # still Ann's: no curtain between her steps
    act(win, qtbot, Action("end_step", "blue"))
    mark = len(win.drawn)
    sit(win, qtbot, "Bob")
    assert {"red.infantry.1", "red.infantry.2"} <= win.drawn[-1]
    assert all(d == set() or "red.infantry.2" in d for d in win.drawn[mark:])


def test_the_wrong_player_cannot_lift_the_curtain(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot)
    red_stack(win, qtbot)
    mark = len(win.drawn)
    win.take_seat("Bob")  # Bob reaches for the button while Ann is asked to sit
    assert win.stack.currentWidget() is win.curtain
    assert win.drawn[mark:] == []
    win.map.set_zoom(200)  # other UI events still draw nothing hidden
    assert all("red.infantry.2" not in d for d in win.drawn[mark:])


def test_no_curtain_without_hidden_information(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot, fog=False)
    assert win.stack.currentWidget() is win.map_tabs
    act(win, qtbot, Action("end_step", "blue"))
    assert win.stack.currentWidget() is win.map_tabs


def test_solitaire_plays_every_side_in_the_open(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot, fog=True, solitaire=True)
    assert win.stack.currentWidget() is win.map_tabs
    act(win, qtbot, Action("end_step", "blue"))
    act(win, qtbot, Action.make("move", "red", piece="red.infantry.2", to="2205"))
    assert {"red.infantry.1", "red.infantry.2"} <= win.drawn[-1]
    assert any("22nd Rifle moves" in t for t in win.log.visible_texts())


def test_seating_is_saved_with_the_game(win: MainWindow, qtbot: QtBot, tmp_path: Any) -> None:
    start(win, qtbot)
    sit(win, qtbot, "Ann")
    path = tmp_path / "fog.wartable.json"
    with qtbot.waitSignal(win.client.snapshotReady):
        win.save_to(path)
    other = MainWindow(autosave=False, confirm_close=False)
    qtbot.addWidget(other)
    other.show()
    with qtbot.waitSignal(other.client.snapshotReady, timeout=10000,
                          check_params_cb=lambda s: s.fresh):
        other.open_path(path)
    assert other.stack.currentWidget() is other.curtain  # reopening asks who sits
    assert other.curtain.player == "Ann"
    other.close()
