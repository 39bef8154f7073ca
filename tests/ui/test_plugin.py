"""The game plug-in boundary (issue 14): a game's widgets come from its own plug-in,
registered by game id; the main window names no game and builds no other game's docks."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDockWidget
from pytestqt.qtbot import QtBot

from testgame.ui import SkirmishUi
from uihelpers import open_game
from wartable.core.frozen import FrozenMap
from wartable.ui.mainwindow import MainWindow
from wartable.ui.plugin import GameUi
from wartable.worker.commands import NewGame


def shown_docks(win: MainWindow) -> set[str]:
    return {d.windowTitle() for d in win.findChildren(QDockWidget) if d.isVisible()}


def centre(win: MainWindow, label: str) -> QPoint:
    v = win.map
    assert v.board is not None
    return v.viewportTransform().map(QPointF(*v.board.center(label))).toPoint()


def test_the_test_games_plug_in_from_tests_shows_its_dock_and_hears_map_clicks(
        qtbot: QtBot) -> None:
    win = open_game(qtbot, "skirmish", "meeting")
    assert isinstance(win.game_ui, SkirmishUi)
    assert "Ford report" in shown_docks(win)
    assert win.game_ui.label.text() == "Turn 1; clicked -"
    # A real click on an empty hex reaches the plug-in through the map view.
    QTest.mouseClick(win.map.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, centre(win, "1206"))
    assert win.game_ui.clicked == "1206"
    # Its dock's menu entry is in the View menu while the game is open.
    assert any(a.text() == "Ford report" for a in win.view_menu.actions())
    win.close()


def test_another_game_or_the_start_screen_takes_the_plug_ins_docks_away(
        qtbot: QtBot) -> None:
    win = open_game(qtbot, "skirmish", "meeting")
    assert "Ford report" in shown_docks(win)
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        win.client.send(NewGame("whatif1940", "standard", FrozenMap({"table.solitaire": True})))
    assert "Ford report" not in shown_docks(win)
    assert all(a.text() != "Ford report" for a in win.view_menu.actions())
    assert type(win.game_ui).__name__ == "W40GameUi"
    # The 1940 overlay is offered for 1940 only, and goes with it to the start screen.
    assert win.overlay("supply").action in win.view_menu.actions()
    win.findChild(type(win.act_end), "actNew").trigger()
    assert win.game_ui is None and win.overlay_layers == []
    assert not any(a.objectName().startswith("actOverlay_") for a in win.view_menu.actions())
    win.close()


def test_a_game_without_a_plug_in_gets_the_generic_one(qtbot: QtBot) -> None:
    from dataclasses import replace

    from wartable.games import registry

    module = registry.get("skirmish")
    registry.register(replace(module, ui_module=""))
    try:
        from wartable.ui import plugin

        saved = plugin._factories.pop("skirmish")
        win = open_game(qtbot, "skirmish", "meeting")
        assert type(win.game_ui) is GameUi
        assert "Ford report" not in shown_docks(win)
        win.close()
    finally:
        registry.register(module)
        plugin._factories["skirmish"] = saved
