"""Seats at the table (issue 7): the bot seats are saved with the game and come back when it
is loaded; seat colours start as the sides' colours in the game data (two seats of one
side in a split [1.3] get distinct shades); the log filters by phase.

The side colours expected here are read from the games' data files, not from the code."""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from uihelpers import open_window, select_game
from wartable.engine.actions import Event
from wartable.engine.loop import deciding_side
from wartable.model.values import freeze
from wartable.persistence.gamedata import game_definition
from wartable.ui.logpanel import LogPanel
from wartable.ui.mainwindow import MainWindow
from wartable.ui.players import Seating

GAMES = Path(__file__).resolve().parents[2] / "desktop" / "wartable" / "games"
SHOTS = Path(os.environ.get("WARTABLE_SHOTS", "/tmp/wartable-shots"))


def data_colours(game: str) -> dict[str, str]:
    """side id -> colour, as written in the game's game.toml."""
    doc = tomllib.loads((GAMES / game / "data" / "game.toml").read_text(encoding="utf-8"))
    return {s["id"]: s["colour"].lower() for s in doc["sides"]}


@pytest.fixture
def win(qtbot: QtBot) -> Iterator[MainWindow]:
    w = open_window(qtbot)
    yield w
    w.close()


# --- colours -------------------------------------------------------------------------------

def test_each_side_row_starts_in_its_side_colour(win: MainWindow) -> None:
    s = win.start
    for game in ("aa_anniversary", "whatif1940"):
        select_game(s, game)
        want = data_colours(game)
        assert {sid: b.colour for sid, b in s.colour_buttons.items()} == want
        assert s.table_options()["table.colours"] == {
            f"Player {i}": want[sid] for i, sid in enumerate(want, 1)}


def test_1_3_two_german_seats_get_distinct_shades_of_the_german_colour(
        win: MainWindow, qtbot: QtBot) -> None:
    s = win.start
    select_game(s, "whatif1940")
    want = data_colours("whatif1940")
    s.split_editor.set_split(4)  # German west, German east, Soviet, Anglo-French [1.3]
    west, east, soviet, allied = (b.colour for b in s.split_editor.seat_colours)
    assert (west, soviet, allied) == (want["german"], want["soviet"], want["anglo_french"])
    assert east != west
    assert abs(QColor(east).hue() - QColor(west).hue()) <= 5  # a shade of the same colour
    assert abs(QColor(east).lightness() - QColor(west).lightness()) >= 30  # told apart
    s.split_editor.set_split(2)  # the Allied seat holds the Soviet first [1.3]
    assert [b.colour for b in s.split_editor.seat_colours] == [want["german"], want["soviet"]]
    s.split_editor.set_split(4)
    s.resize(900, 1000)
    s.show()
    for _ in range(3):
        QApplication.processEvents()
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert s.grab().save(str(SHOTS / "start_seat_colours.png"))


def test_an_older_save_seated_by_name_only_gets_the_side_colours() -> None:
    """A save with only "table.seats" (before colours were chosen): side colours."""
    d = game_definition("aa_anniversary")
    want = data_colours("aa_anniversary")
    seats = {sid: f"P{i}" for i, sid in enumerate(d.side_ids)}
    seats["italy"] = seats["germany"]  # one player with both: Germany's colour, first
    seating = Seating.of(d, freeze({"table.seats": seats}))
    assert seating.colour(seats["germany"]) == want["germany"]
    assert seating.colour(seats["ussr"]) == want["ussr"]
    assert seating.colour(seats["usa"]) == want["usa"]


# --- the bot seats in the save -------------------------------------------------------------

def _load(qtbot: QtBot, path: Path) -> MainWindow:
    w = open_window(qtbot)
    with qtbot.waitSignal(w.client.snapshotReady, timeout=30000,
                          check_params_cb=lambda s: s.fresh):
        w.open_path(path)
    return w


def test_bot_seats_chosen_on_the_start_screen_and_in_play_come_back_on_loading(
        win: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    """1941: the Soviet Union to the strong bot on the start screen (Germany, first in the
    order of play, stays human so nothing moves); then, during play, the United Kingdom to
    the fast bot and the Soviet Union back to a person (Game > Bot Plays This Power)."""
    s = win.start
    select_game(s, "aa_anniversary")
    s.scenario.setCurrentIndex(s.scenario.findData("1941"))
    combo = s.bot_combos["ussr"]
    combo.setCurrentIndex(combo.findData("strong"))
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        qtbot.mouseClick(s.start, Qt.MouseButton.LeftButton)
    assert win.snapshot is not None and deciding_side(win.snapshot.session.state) == "germany"
    first = tmp_path / "first.wartable.json"
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        win.save_to(first)
    assert json.loads(first.read_text())["bots"] == {"ussr": "strong"}
    w2 = _load(qtbot, first)
    try:
        assert w2.bot.levels == {"ussr": "strong"}
        assert w2.bot.dock.isVisible()
        # During play: the seats change through the worker (the save must see them).
        with qtbot.waitSignal(w2.client.snapshotReady, timeout=20000):
            w2.bot.set_bot("uk", "fast")
        with qtbot.waitSignal(w2.client.snapshotReady, timeout=20000):
            w2.bot.set_bot("ussr", None)
        second = tmp_path / "second.wartable.json"
        with qtbot.waitSignal(w2.client.snapshotReady, timeout=20000):
            w2.save_to(second)
    finally:
        w2.close()
    doc = json.loads(second.read_text())
    assert doc["bots"] == {"uk": "fast"}
    assert doc["options"]["table.bots"] == {"ussr": "strong"}  # as the game started
    w3 = _load(qtbot, second)
    try:
        assert w3.bot.levels == {"uk": "fast"}
        assert w3.snapshot is not None
        assert w3.snapshot.session.log == win.snapshot.session.log
    finally:
        w3.close()


def test_the_game_menu_toggle_is_sent_to_the_game(qtbot: QtBot) -> None:
    """Game > Bot Plays This Power on the deciding power changes the session's seats."""
    from uihelpers import open_game

    w = open_game(qtbot, "aa_anniversary", "1941")
    try:
        assert w.bot.act_bot is not None
        with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
            w.bot.act_bot.trigger()  # Germany to the strong bot (the default level)
        with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
            w.bot.act_bot.trigger()  # and back, before it can play much
        qtbot.waitUntil(lambda: not w.client.busy, timeout=30000)
        assert w.bot.levels == {}
        assert w.client.latest is not None
        assert dict(w.client.latest.session.options["table.bots"]) == {}
    finally:
        w.close()


# --- the log by phase ----------------------------------------------------------------------

def test_the_log_filters_by_phase(qtbot: QtBot) -> None:
    """The phases are the steps of the sequence (A&A: Phase 2 Purchase Units, Phase 3
    Combat Move); an event belongs to the step opened before it."""
    log = LogPanel()
    qtbot.addWidget(log)
    log.set_events([
        Event("phase", "Turn 1: Germany turn — Purchase Units", "germany", "", 1,
              "Purchase Units"),
        Event("info", "Germany buys 1 Tank", "germany", "", 1, "Combat Move"),
        Event("phase", "Turn 1: Germany turn — Combat Move", "germany", "", 1, "Combat Move"),
        Event("move", "Tank moves to Poland", "germany", "", 1, "Combat Move"),
    ])
    log.append([Event("phase", "Turn 1: Soviet Union turn — Purchase Units", "ussr", "", 1,
                      "Purchase Units"),
                Event("info", "The Soviet Union buys 2 Infantry", "ussr", "", 1,
                      "Purchase Units")])
    assert log.phase_names() == ["Purchase Units", "Combat Move"]
    log.phase.setCurrentText("Combat Move")
    assert log.visible_texts() == ["T1 Turn 1: Germany turn — Combat Move",
                                   "T1 Tank moves to Poland"]
    log.phase.setCurrentText("Purchase Units")  # the purchase was logged as it ended
    assert log.visible_texts() == [
        "T1 Turn 1: Germany turn — Purchase Units", "T1 Germany buys 1 Tank",
        "T1 Turn 1: Soviet Union turn — Purchase Units", "T1 The Soviet Union buys 2 Infantry"]
    # With the side filter too: only the Soviet purchase.
    log.side.addItem("Soviet Union", "ussr")
    log.side.setCurrentText("Soviet Union")
    assert log.visible_texts() == ["T1 Turn 1: Soviet Union turn — Purchase Units",
                                   "T1 The Soviet Union buys 2 Infantry"]


def test_a_real_game_log_offers_its_phases(qtbot: QtBot, tmp_path: Path) -> None:
    """A&A 1941: Germany ends Purchase and moves a tank in Combat Move; the phase filter
    offers both (Order of Play, pg. 11) and Combat Move shows the move, not the purchase."""
    from uihelpers import act, open_game
    from wartable.engine.actions import END_STEP, Action

    w = open_game(qtbot, "aa_anniversary", "1941")
    try:
        act(w, qtbot, Action.make("buy", "germany", unit="armour"))
        act(w, qtbot, Action(END_STEP, "germany"))
        act(w, qtbot, Action.make("move", "germany", piece="germany.armour.7",
                                  to="east_poland"))
        names = w.log.phase_names()
        assert "Purchase Units" in names and "Combat Move" in names
        assert names.index("Purchase Units") < names.index("Combat Move")
        w.log.phase.setCurrentText("Combat Move")
        shown = w.log.visible_texts()
        assert any("East Poland" in t for t in shown)
        assert not any("buy" in t.lower() or "bought" in t.lower() for t in shown[1:])
    finally:
        w.close()


def _contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio, computed here from the standard's formula."""
    def lum(h: str) -> float:
        c = [int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_a_dark_side_colour_still_titles_the_curtain_legibly(qtbot: QtBot) -> None:
    """A&A's Soviet red on the curtain's dark ground: lightened to large-text contrast 3."""
    import re

    from wartable.ui.curtain import Curtain

    soviet = data_colours("aa_anniversary")["ussr"]
    assert _contrast(soviet, "#20262e") < 3  # as in the data: too dark to read there
    c = Curtain()
    qtbot.addWidget(c)
    c.ask("Sasha", "Soviet Union", soviet)
    m = re.search(r"color: (#[0-9a-f]{6})", c.title.styleSheet())
    assert m is not None
    assert _contrast(m.group(1), "#20262e") >= 3
    # The button keeps the seat's own colour, with black or white text, whichever reads.
    assert f"background: {soviet}; color: #ffffff" in c.button.styleSheet()
