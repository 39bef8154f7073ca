"""1940: What If?: the supply overlay [6.2-6.8] in the main window (offscreen).

A quick set-up (everyone in supply), then one German infantry corps put deep in the USSR at
5626, far from any open Rollbahn [6.5]: with View → Supply Overlay on, exactly that counter
carries the out-of-supply marker, and its tooltip gives the reason with the rule numbers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from uihelpers import open_game
from wartable.engine.actions import Action
from wartable.engine.session import Session
from wartable.games.whatif1940.overlays import COASTAL, OOS
from wartable.ui.mainwindow import MainWindow
from wartable.ui.overlays import OverlayLayer

INF = "german.ger_infantry.1"
DEEP = "5626"  # USSR, more than six hexes from every Rollbahn and from Greater Germany


@pytest.fixture
def win(qtbot: QtBot) -> Iterator[MainWindow]:
    # Solitaire: open information, so no privacy curtain for the fog of war [7.3].
    w = open_game(qtbot, "whatif1940", "standard", {"table.solitaire": True})
    yield w
    w.close()


def show_state_with_one_unit_cut_off(win: MainWindow) -> None:
    snap = win.snapshot
    assert snap is not None
    s = snap.session
    for side in ("soviet", "german", "german", "anglo_french"):
        s = s.submit(Action.make("auto_setup", side))
        s = s.submit(Action.make("end_step", side))
    p = s.state.piece(INF)
    state = s.state.with_piece(replace(p, location=DEEP))
    s = Session(s.game, s.scenario, s.options, s.seed, s.dice_mode, state, s.log, s.events)
    win.on_snapshot(replace(snap, generation=snap.generation + 1, session=s,
                            prompt=s.prompt(), new_events=()))


def markers(overlay: OverlayLayer) -> list[tuple[str, str]]:
    return sorted((m.piece_id, m.kind) for m in overlay.items if m.scene() is not None)


def test_6_3_overlay_marks_exactly_the_out_of_supply_unit(win: MainWindow, qtbot: QtBot,
                                                          tmp_path: Path) -> None:
    show_state_with_one_unit_cut_off(win)
    assert markers(win.overlay("supply")) == []  # off until chosen
    win.overlay("supply").action.trigger()
    assert win.overlay("supply").action.isChecked()
    assert markers(win.overlay("supply")) == [(INF, OOS)]
    m = win.overlay("supply").items[0]
    assert m.toolTip().startswith("Out of supply [6.5]")
    east = win.views[1]
    assert m.scene() is east.map_scene
    assert m.parentItem() is east.map_scene.piece_items[INF]  # it sits on that counter
    # A screenshot of the east map around the unit, for the notes.
    win.map_tabs.setCurrentIndex(1)
    east.set_zoom(250)
    east.center_on_location(DEEP)
    qtbot.wait(50)
    out = Path(os.environ.get("W40_SCREENSHOT_DIR", str(tmp_path)))
    assert east.grab().save(str(out / "w40_supply_overlay.png"))
    win.overlay("supply").action.trigger()  # off again: the markers go
    assert markers(win.overlay("supply")) == []


def test_6_5_overlay_marks_coastal_only_units_with_a_c(win: MainWindow, qtbot: QtBot,
                                                       tmp_path: Path) -> None:
    # Parnu 5710 touches the Baltic; while the Soviets hold Daugavpils no Rollbahn reaches
    # it: in supply by the coast alone [6.5].
    show_state_with_one_unit_cut_off(win)
    snap = win.snapshot
    assert snap is not None
    s = snap.session
    pz = s.state.piece("german.ger_panzer.1")
    state = s.state.with_piece(replace(pz, location="5710"))
    s = Session(s.game, s.scenario, s.options, s.seed, s.dice_mode, state, s.log, s.events)
    win.on_snapshot(replace(snap, generation=snap.generation + 1, session=s,
                            prompt=s.prompt(), new_events=()))
    win.overlay("supply").action.trigger()
    assert markers(win.overlay("supply")) == [(INF, OOS), ("german.ger_panzer.1", COASTAL)]
    coast = next(m for m in win.overlay("supply").items if m.kind == COASTAL)
    assert coast.toolTip().startswith("Coastal supply only [6.5]")
    east = win.views[1]
    win.map_tabs.setCurrentIndex(1)
    east.set_zoom(90)
    east.center_on_location("5718")
    qtbot.wait(50)
    out = Path(os.environ.get("W40_SCREENSHOT_DIR", str(tmp_path)))
    assert east.grab().save(str(out / "w40_supply_overlay_wide.png"))
