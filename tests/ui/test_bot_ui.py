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
        # One action (issue 17): Germany's first hint buys one unit; the panel does not
        # list the rest of the bot's purchase.
        shown = w.bot.panel.text.toPlainText()
        assert action.verb == "buy" and "IPCs in all" in _why
        for unit in ("Infantry", "Artillery", "Tank", "Fighter", "Bomber"):
            assert unit not in shown or unit in text  # no other unit of the plan named
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


# --- 1940: What If? (issue 7) ----------------------------------------------------------------

def _start_1940(win: MainWindow, qtbot: QtBot, bots: dict[str, str]) -> None:
    s = win.start
    select_game(s, "whatif1940")
    s.solitaire.setChecked(True)  # open information: no curtain between the seats
    for side, level in bots.items():
        combo = s.bot_combos[side]
        combo.setCurrentIndex(combo.findData(level))
    assert s.table_options()["table.bots"] == bots
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        qtbot.mouseClick(s.start, Qt.MouseButton.LeftButton)


def test_1940_a_fast_bot_soviet_sets_up_then_the_german_decides(
        win: MainWindow, qtbot: QtBot) -> None:
    """[3.1] The Soviet sets up first (3.2), then the German (3.3): with the Soviet played
    by the fast bot, its set-up is played and summarised and the German human decides."""
    _start_1940(win, qtbot, {"soviet": "fast"})
    assert win.bot.levels == {"soviet": "fast"}
    qtbot.waitUntil(lambda: bool(win.bot.summaries), timeout=60000)
    snap = win.snapshot
    assert snap is not None
    assert deciding_side(snap.session.state) == "german"
    assert any(a.side == "soviet" for a in snap.session.log)
    title, reasons = win.bot.summaries[0]
    assert title.startswith("Soviet, round 1")
    assert "Soviet, round 1" in win.bot.panel.text.toPlainText()
    assert win.bot.dock.isVisible()
    assert win.bot.act_hint is not None and win.bot.act_hint.isEnabled()  # a human decides
    n = len(snap.session.log)
    qtbot.wait(300)  # the bot leaves the German's decision alone
    assert win.snapshot is not None and len(win.snapshot.session.log) == n


def test_1940_hint_in_the_german_set_up_highlights_the_destination(qtbot: QtBot) -> None:
    """[3.3] The strong German first guards the Ruhr [4.2]: its hint is a move into a Ruhr
    hex, highlighted on the map; the German is not played."""
    from wartable.core.rng import Rng
    from wartable.games.whatif1940.bot import explained_action
    from wartable.worker.commands import Submit

    w = open_game(qtbot, "whatif1940", "standard", {"table.solitaire": True})
    try:
        # The Soviet sets up first [3.2]: played here by the fast bot, outside the app.
        rng = Rng.from_seed("t")
        while (snap := w.snapshot) is not None and deciding_side(snap.session.state) == "soviet":
            action, rng, _ = explained_action(snap.session, rng, "fast")
            with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
                w.client.send(Submit(action))
        snap = w.snapshot
        assert snap is not None and deciding_side(snap.session.state) == "german"
        assert w.bot.act_hint is not None and w.bot.act_hint.isEnabled()
        w.bot.act_hint.trigger()
        qtbot.waitUntil(lambda: w.bot.last_hint is not None, timeout=60000)
        assert w.bot.last_hint is not None
        action, why, text = w.bot.last_hint
        try:
            snap.session.submit(action)  # legal in the position shown
        except IllegalAction as e:  # pragma: no cover - the failure itself
            raise AssertionError(f"illegal hint {action}: {e}") from e
        assert action.side == "german" and action.verb == "move"
        assert "[4.2]" in why and text.startswith("Move ")
        to = str(action.args["to"])
        assert any(h.loc == to for v in w.views for h in v.highlight_items("hint"))
        assert w.snapshot is not None and w.snapshot.session.log == snap.session.log
    finally:
        w.close()


def test_1940_a_seat_of_the_four_player_split_given_to_the_bot_plays_only_its_command(
        win: MainWindow, qtbot: QtBot) -> None:
    """[1.3] Four players: the German west commander's seat is the bot's. It sets up the
    west (setup_german_west, a west-commander step) and stops at the German east set-up,
    which the east commander (a human) decides [3.3]."""
    from wartable.core.rng import Rng
    from wartable.games.whatif1940.bot import explained_action
    from wartable.worker.commands import Submit

    s = win.start
    select_game(s, "whatif1940")
    s.solitaire.setChecked(True)
    s.split_editor.set_split(4)
    assert not s.bot_combos["german"].isVisibleTo(s)  # the per-side rows are hidden
    seat = s.split_editor.seat_bots[0]  # [["german_west"], ["german_east"], ...]
    seat.setCurrentIndex(seat.findData("fast"))
    assert s.table_options()["table.bots"] == {"german_west": "fast"}
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        qtbot.mouseClick(s.start, Qt.MouseButton.LeftButton)
    assert win.bot.levels == {"german_west": "fast"}
    rng = Rng.from_seed("t")
    while (snap := win.snapshot) is not None and deciding_side(snap.session.state) == "soviet":
        action, rng, _ = explained_action(snap.session, rng, "fast")  # the Soviet human
        with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
            win.client.send(Submit(action))

    def at_east_setup() -> bool:
        snap = win.snapshot
        return snap is not None and \
            snap.session.game.position(snap.session.state).step.id == "setup_german_east"

    qtbot.waitUntil(at_east_setup, timeout=60000)
    qtbot.waitUntil(lambda: win.bot.pending is None and not win.client.busy, timeout=10000)
    snap = win.snapshot
    assert snap is not None
    n = len(snap.session.log)
    qtbot.wait(300)  # the east commander is a human: the bot waits
    assert win.snapshot is not None and len(win.snapshot.session.log) == n
    assert at_east_setup()
    assert any(a.side == "german" for a in snap.session.log)  # the west set-up, by the bot
    assert win.bot.act_hint is not None and win.bot.act_hint.isEnabled()
