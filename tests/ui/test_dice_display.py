"""The roll overlay on the map (ui/dicedisplay.py): a long result line wraps inside its box.

Issue 17: "the result banner that overflows its box". A&A's round lines now list each fire
group's dice and hits, which is long; the box must grow to hold every wrapped line and stay
inside the map's viewport."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QGraphicsScene, QGraphicsView
from pytestqt.qtbot import QtBot

from wartable.engine.actions import Event
from wartable.ui.dicedisplay import DiceDisplay

LINES = (
    "Round in East Poland: attacker scores 4 (at 1: 1 = 1 hit; at 2: 1, 1 = 2 hits; "
    "at 3: 1 = 1 hit), defender 1 (at 2: 1, 6 = 1 hit)",
    "Soviet Union Infantry is destroyed",
    "Germany Infantry is destroyed",
    "Battle in East Poland ends: the attacker wins",
)


def test_a_long_result_wraps_inside_its_box_within_the_map(qtbot: QtBot) -> None:
    view = QGraphicsView(QGraphicsScene())
    qtbot.addWidget(view)
    view.resize(640, 480)
    view.show()
    qtbot.waitExposed(view)
    box = DiceDisplay(view)
    assert box.show_events([Event("combat", t, "germany", "") for t in LINES])
    fm = box.fontMetrics()
    inner = box.contentsRect().width() - 36  # the style sheet's 18 px padding each side
    wrapped = box.heightForWidth(box.width())
    assert box.height() >= wrapped > fm.height() * len(LINES)  # the first line wraps
    assert max(fm.horizontalAdvance(t) for t in LINES) > inner  # premise: it must wrap
    vp = view.viewport().geometry()
    assert vp.contains(box.geometry())
    if os.environ.get("WARTABLE_SHOTS"):
        view.grab().save(os.path.join(os.environ["WARTABLE_SHOTS"], "dice_overlay_long.png"))
