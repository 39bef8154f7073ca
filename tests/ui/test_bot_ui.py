"""The Axis & Allies bot in the app (issue 7): bot-played powers, the turn summary, Hint.

A 1941 game is started from the start screen with Germany (the first power of the 1941
order of play, Order of Play pg. 11) set to a bot; the bot's actions go through the worker
like a player's, and its reasons show in the Bot dock when Germany's turn is over.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from uihelpers import open_game, open_window, select_game

from wartable.core.errors import IllegalAction
from wartable.engine.loop import deciding_side
from wartable.ui.mainwindow import MainWindow


@pytest.fixture
def win(qtbot: QtBot) -> Iterator[MainWindow]:
    w = open_window(qtbot)
    yield w
    w.close()


def _start_1941(win: MainWindow, qtbot: QtBot, bots: dict[str, str]) -> None:
    s = win.start
    select_game(s, "aa_anniversary")
    s.scenario.setCurrentIndex(s.scenario.findData("1941"))
    for side, level in bots.items():
        combo = s.bot_combos[side]
        combo.setCurrentIndex(combo.findData(level))
    assert s.table_options()["table.bots"] == bots
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        qtbot.mouseClick(s.start, Qt.MouseButton.LeftButton)


def _play_humans(win: MainWindow, qtbot: QtBot, bot: str, seconds: float) -> None:
    """Until the bot's turn is summarised: a human defender takes the default casualties
    (General Combat, Step 4: the defender chooses its own casualties, pg. 18)."""
    for _ in range(int(seconds * 20)):
        if win.bot.summaries:
            return
        snap = win.snapshot
        if snap is not None and snap is win.client.latest and not win.client.busy \
                and deciding_side(snap.session.state) != bot:
            picks = [b for b in snap.prompt.buttons if b.enabled and b.id == "casualties"]
            if picks:
                with qtbot.waitSignal(win.client.snapshotReady, timeout=10000):
                    win.on_button(picks[0])
                continue
        qtbot.wait(50)
    raise AssertionError("the bot's turn did not end")


def test_a_bot_played_germany_plays_its_turn_and_explains_it(
        win: MainWindow, qtbot: QtBot) -> None:
    _start_1941(win, qtbot, {"germany": "fast"})
    assert win.bot.levels == {"germany": "fast"}
    _play_humans(win, qtbot, "germany", 120)
    snap = win.snapshot
    assert snap is not None
    log = snap.session.log
    germany = [a for a in log if a.side == "germany"]
    assert any(a.verb == "buy" for a in germany)  # Phase 2 purchases were applied
    assert any(a.verb == "move" for a in germany)
    # The turn passed to the next power of the 1941 order (the Soviet Union), a human.
    assert deciding_side(snap.session.state) != "germany"
    title, reasons = win.bot.summaries[0]
    assert title.startswith("Germany, round 1")
    assert reasons, "the bot gave no reasons"
    assert win.bot.dock.isVisible()
    html = win.bot.panel.text.toPlainText()
    assert "Germany, round 1" in html and reasons[0] in html
    # The human's turn: the bot waits, and its actions were normal log entries.
    n = len(log)
    qtbot.wait(300)
    assert win.snapshot is not None and len(win.snapshot.session.log) == n


def test_hint_shows_a_legal_action_without_playing_it(qtbot: QtBot) -> None:
    w = open_game(qtbot, "aa_anniversary", "1941")
    try:
        assert w.bot.act_hint is not None and w.bot.act_hint.isEnabled()
        before = w.snapshot
        assert before is not None
        w.bot.act_hint.trigger()
        qtbot.waitUntil(lambda: w.bot.last_hint is not None, timeout=60000)
        assert w.bot.last_hint is not None
        action, _why, text = w.bot.last_hint
        try:
            before.session.submit(action)  # legal in the position shown
        except IllegalAction as e:  # pragma: no cover - the failure itself
            raise AssertionError(f"illegal hint {action}: {e}") from e
        assert action.side == deciding_side(before.session.state)
        assert text in w.bot.panel.text.toPlainText()
        assert "Hint" in w.bot.panel.text.toPlainText()
        assert w.snapshot is not None and w.snapshot.session.log == before.session.log
    finally:
        w.close()


def test_game_menu_toggle_hands_the_deciding_power_to_the_bot(qtbot: QtBot) -> None:
    w = open_game(qtbot, "aa_anniversary", "1941")
    try:
        assert w.bot.levels == {}
        assert w.bot.act_bot is not None and not w.bot.act_bot.isChecked()
        fast = w.findChild(type(w.bot.act_bot), "actBotLevel_fast")
        assert fast is not None
        fast.trigger()
        w.bot.act_bot.trigger()
        assert w.bot.levels == {"germany": "fast"}

        def bought() -> bool:
            snap = w.snapshot
            return snap is not None and any(
                a.side == "germany" and a.verb == "buy" for a in snap.session.log)

        qtbot.waitUntil(bought, timeout=60000)
        w.bot.act_bot.trigger()  # and back to a human: the bot stops
        assert w.bot.levels == {} and not w.bot.act_bot.isChecked()
        qtbot.waitUntil(lambda: w.bot.pending is None and not w.client.busy, timeout=10000)
        qtbot.wait(200)  # a last action sent before the toggle has come back by now
        assert w.snapshot is not None
        n = len(w.snapshot.session.log)
        qtbot.wait(500)
        assert w.snapshot is not None and len(w.snapshot.session.log) == n
    finally:
        w.close()
