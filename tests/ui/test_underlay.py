"""Issue 3: a calibrated scan of the printed map under the drawn one.

The "scan" is an image drawn here through a known affine transform of the map (scale,
rotation, offset), with a dot on each of four hex centres. Clicking those dots in the
calibration dialog must recover the transform: the underlay then lies exactly on the map.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox
from pytestqt.qtbot import QtBot

from uihelpers import open_game
from wartable.core.affine import Affine
from wartable.persistence.underlays import load_underlay, underlay_path
from wartable.ui.underlay import CalibrationDialog, UnderlayItem

# Map units -> scan pixels: 38 px per unit, turned 3 degrees, offset (60, 45).
ANGLE = math.radians(3)
TRUTH = Affine(38 * math.cos(ANGLE), -38 * math.sin(ANGLE), 60,
               38 * math.sin(ANGLE), 38 * math.cos(ANGLE), 45)
HEXES = ("0101", "1401", "0110", "1310")


def make_scan(path: Path, board: object) -> dict[str, tuple[float, float]]:
    img = Image.new("RGB", (700, 520), "white")
    d = ImageDraw.Draw(img)
    where = {}
    for label in HEXES:
        x, y = TRUTH.apply(*board.center(label))  # type: ignore[attr-defined]
        d.ellipse((x - 3, y - 3, x + 3, y + 3), fill="red")
        where[label] = (x, y)
    img.save(path)
    return where


def click_scan(qtbot: QtBot, dlg: CalibrationDialog, label: str, x: float, y: float) -> None:
    dlg.label_edit.clear()  # a refused label stays in the field for the player to fix
    QTest.keyClicks(dlg.label_edit, label)
    vp = dlg.view.mapFromScene(QPointF(x, y))
    QTest.mouseClick(dlg.view.viewport(), Qt.MouseButton.LeftButton, pos=vp)


def test_calibrated_scan_lies_on_the_map_and_is_remembered(qtbot: QtBot, tmp_path: Path) -> None:
    w = open_game(qtbot, "skirmish", "meeting")
    board = next(iter(w.snapshot.session.game.maps.values()))
    scan = tmp_path / "scan.png"
    where = make_scan(scan, board)
    seen: list[CalibrationDialog] = []

    def operate() -> None:
        dlg = next(x for x in QApplication.topLevelWidgets()
                   if isinstance(x, CalibrationDialog) and x.isVisible())
        seen.append(dlg)
        try:
            calibrate(dlg)
        finally:
            if dlg.isVisible():  # a failed check must not leave the modal dialog open
                dlg.reject()

    def calibrate(dlg: CalibrationDialog) -> None:
        ok = dlg.buttons.button(QDialogButtonBox.StandardButton.Ok)
        click_scan(qtbot, dlg, "9999", 10, 10)  # not a hex of this map: refused, said so
        assert "not one" in dlg.status.text() and not dlg.points
        for i, label in enumerate(HEXES[:3]):
            assert not ok.isEnabled()  # fewer than three points: no fit yet
            click_scan(qtbot, dlg, label, *where[label])
            assert len(dlg.points) == i + 1, dlg.status.text()
        assert ok.isEnabled()
        click_scan(qtbot, dlg, HEXES[3], *where[HEXES[3]])
        misfits = [float(dlg.table.item(r, 3).text()) for r in range(4)]
        # Clicks land on whole viewport pixels: within a few hundredths of a hex.
        assert max(misfits) < 0.05
        ok.click()

    QTimer.singleShot(200, operate)
    assert w.calibrate_underlay(str(scan))
    assert seen and seen[0].result() == 1
    item = next(i for i in w.map.map_scene.items() if isinstance(i, UnderlayItem))
    # Each dot of the scan lands on its hex centre on our map (within 0.05 hex).
    unit = 38.0
    for label in HEXES:
        p = item.sceneTransform().map(QPointF(*where[label]))
        cx, cy = board.center(label)
        assert math.hypot(p.x() - cx, p.y() - cy) < 0.05 * math.sqrt(3), label
    # A point between the dots, never clicked, lands where the truth says it should.
    mid = board.center("0705")
    px, py = TRUTH.apply(*mid)
    q = item.sceneTransform().map(QPointF(px, py))
    assert abs(q.x() - mid[0]) * unit < 2 and abs(q.y() - mid[1]) * unit < 2
    assert item.zValue() < 2  # under the hexsides, grid, names and counters
    # Remembered: the file names the scan and the four points; hiding it is remembered too.
    u = load_underlay(board.id)
    assert u is not None and u.image == str(scan) and len(u.points) == 4
    w.toggle_underlay()
    assert not any(isinstance(i, UnderlayItem) for i in w.map.map_scene.items())
    assert load_underlay(board.id).visible is False  # type: ignore[union-attr]
    w.toggle_underlay()
    assert any(isinstance(i, UnderlayItem) for i in w.map.map_scene.items())


def test_damaged_calibration_is_reported_and_left_alone(qtbot: QtBot) -> None:
    w = open_game(qtbot, "skirmish", "meeting")
    board = next(iter(w.snapshot.session.game.maps.values()))
    path = underlay_path(board.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"format": 1, "map": board.id, "image": "/x.png",
                                "points": [{"x": 1, "y": "two", "label": "0101"}]}))
    before = path.read_bytes()
    problem = w.underlays.apply(w.map, board)
    assert problem is not None and "points[0]" in problem and "y" in problem
    assert path.read_bytes() == before
    assert not any(isinstance(i, UnderlayItem) for i in w.map.map_scene.items())


def test_a_file_that_is_not_an_image_is_refused_with_what_to_do(qtbot: QtBot,
                                                              tmp_path: Path) -> None:
    from wartable.core.errors import WartableError
    from wartable.ui.underlay import load_scan

    bad = tmp_path / "notes.png"
    bad.write_text("this is not a picture")
    with pytest.raises(WartableError, match="Choose a PNG"):
        load_scan(str(bad))
