"""A calibrated scan of the printed map under the drawn one (issue 3).

The player opens a scan (View → Scan Underlay…), clicks three or more places on it and
names each with the hex number printed there; an affine least-squares fit (core/affine.py)
maps scan pixels onto our map, and the scan is drawn above the terrain fills, below the
hexsides, grid, names and counters, at the opacity chosen. Each point's misfit is shown in
hexes, so a wrong click stands out. The calibration is remembered per map
(persistence/underlays.py); the image itself stays where the player keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QImage, QImageReader, QMouseEvent, QPainter, QPixmap, QTransform
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSlider,
    QStyleOptionGraphicsItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wartable.core.affine import Affine, fit_affine, residuals
from wartable.core.errors import WartableError
from wartable.maps.model import AreaMap, BoardMap, HexMap
from wartable.persistence.boundedread import InputFileError, check_file
from wartable.persistence.underlays import (
    CalibrationPoint,
    Underlay,
    UnderlayError,
    load_underlay,
    remove_underlay,
    save_underlay,
)
from wartable.ui.map.layers import Underlay as MapUnderlay
from wartable.ui.map.scale import hex_across, typical_space_size
from wartable.ui.map.scene import MapScene
from wartable.ui.map.view import MapView

Z_UNDERLAY = 1.0  # above the terrain fills (0), below hexsides (2), grid, names, counters
MAX_SIDE_PX = 8192  # larger scans are shown scaled down (calibration stays in full pixels)
IMAGE_LIMIT_MB = 1024
MAX_SCAN_BYTES = 2 * 1024 * 1024 * 1024  # a 600 dpi TIFF of a whole map fits


@dataclass(frozen=True)
class Scan:
    image: QImage  # as shown (maybe scaled down)
    scale: float  # shown pixels per full-size pixel (<= 1)
    full_w: int
    full_h: int


def load_scan(path: str) -> Scan:
    """Read a scan, scaled down past MAX_SIDE_PX. Raises WartableError with what to do."""
    todo = "choose a PNG, JPEG, TIFF or BMP image of the map"
    try:  # a FIFO here once blocked the image reader forever (issue 15)
        check_file(path, MAX_SCAN_BYTES, todo, Path(path).name)
    except InputFileError as e:
        raise WartableError(f"Cannot open the scan {e}") from e
    except OSError:
        pass  # missing: QImageReader below says so in its own words
    reader = QImageReader(path)
    reader.setAllocationLimit(IMAGE_LIMIT_MB)
    size = reader.size()
    if not reader.canRead() or not size.isValid():
        why = reader.errorString() if Path(path).exists() else "the file does not exist"
        raise WartableError(f"Cannot open the scan {Path(path).name}: {why}. Choose a PNG, "
                            "JPEG, TIFF or BMP image of the map.")
    w, h = size.width(), size.height()
    scale = min(1.0, MAX_SIDE_PX / max(w, h))
    if scale < 1.0:
        reader.setScaledSize(size * scale)
    img = reader.read()
    if img.isNull():
        raise WartableError(f"Cannot read the scan {Path(path).name}: "
                            f"{reader.errorString()}. Try saving it again as PNG or JPEG.")
    return Scan(img, img.width() / w, w, h)


def unit_of(board: BoardMap) -> float:
    """What one hex (or a typical space) measures in map units, for misfits."""
    if isinstance(board, HexMap):
        return hex_across(board)
    assert isinstance(board, AreaMap)
    return typical_space_size(board)


def fit_points(board: BoardMap, points: tuple[CalibrationPoint, ...]) -> tuple[Affine, list[float]]:
    """Scan pixels -> map coordinates, and each point's misfit in hexes. ValueError when
    the points don't determine a fit; WartableError for a label the map does not have."""
    known = set(board.location_ids())
    for p in points:
        if p.label not in known:
            raise WartableError(f"{p.label} is not a hex of {board.title}")
    src = [(p.x, p.y) for p in points]
    dst = [board.center(p.label) for p in points]
    t = fit_affine(src, dst)
    unit = unit_of(board)
    return t, [r / unit for r in residuals(t, src, dst)]


def item_transform(t: Affine, scale: float) -> QTransform:
    """Shown pixels -> scene: back to full-size pixels, then the fitted affine."""
    return QTransform.fromScale(1 / scale, 1 / scale) * QTransform(t.a, t.d, t.b, t.e, t.c, t.f)


class UnderlayItem(QGraphicsItem):
    """The scan in the scene, placed by the fit. The map's tiles draw it, above the terrain
    fills and below the hexsides (ui/map/tiles.py): the item registers it with its scene."""

    def __init__(self, scan: Scan, t: Affine, opacity: float) -> None:
        super().__init__()
        self.underlay = MapUnderlay(scan.image, item_transform(t, scan.scale), opacity)
        self.setTransform(self.underlay.transform)
        self.setZValue(Z_UNDERLAY)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return QRectF(self.underlay.image.rect())

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        pass  # drawn with the map's static layers

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange,  # noqa: N802 - Qt's name
                   value: Any) -> Any:
        scene = self.scene()
        if change == QGraphicsItem.GraphicsItemChange.ItemSceneChange and \
                isinstance(scene, MapScene) and scene.underlay() is self.underlay:
            scene.set_underlay(None)  # leaving its scene
        elif change == QGraphicsItem.GraphicsItemChange.ItemSceneHasChanged and \
                isinstance(scene, MapScene):
            scene.set_underlay(self.underlay)
        return super().itemChange(change, value)


class _ScanView(QGraphicsView):
    """The scan, zoomable with the wheel; a left click reports the full-size pixel."""

    clicked = Signal(float, float)

    def __init__(self, scan: Scan, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scan = scan
        self.setScene(QGraphicsScene(self))
        self.scene().addPixmap(QPixmap.fromImage(scan.image))
        self.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setCursor(Qt.CursorShape.CrossCursor)

    def wheelEvent(self, event: object) -> None:  # noqa: N802 - Qt's name
        dy = event.angleDelta().y()  # type: ignore[attr-defined]
        f = 1.25 if dy > 0 else 0.8
        self.scale(f, f)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if event.button() == Qt.MouseButton.LeftButton and \
                not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            p = self.mapToScene(event.position().toPoint())
            s = self.scan.scale
            self.clicked.emit(p.x() / s, p.y() / s)
            return
        super().mousePressEvent(event)  # shift-drag pans


class CalibrationDialog(QDialog):
    """Type a hex number, click that hex's centre on the scan; three or more points."""

    def __init__(self, board: BoardMap, image: str, scan: Scan,
                 points: tuple[CalibrationPoint, ...] = (), opacity: float = 0.6,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Scan underlay: {board.title}")
        self.resize(1000, 720)
        self.board = board
        self.image = image
        self.points: list[CalibrationPoint] = list(points)
        self.view = _ScanView(scan, self)
        self.view.clicked.connect(self._clicked)
        self.label_edit = QLineEdit()
        self.label_edit.setObjectName("underlayLabel")
        self.label_edit.setPlaceholderText("hex number, e.g. 1905")
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["Hex", "Scan x", "Scan y", "Off (hexes)"])
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.table.setFixedWidth(330)
        remove = QPushButton("Remove point")
        remove.clicked.connect(self._remove)
        self.opacity = QSlider(Qt.Orientation.Horizontal)
        self.opacity.setRange(5, 100)
        self.opacity.setValue(round(opacity * 100))
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        side = QVBoxLayout()
        side.addWidget(QLabel("1. Type the number of a hex printed on the scan.\n"
                              "2. Click that hex's centre on the scan.\n"
                              "Three or more points, spread out, not in one line.\n"
                              "Wheel zooms; shift-drag pans."))
        side.addWidget(self.label_edit)
        side.addWidget(self.table, 1)
        side.addWidget(remove)
        side.addWidget(QLabel("Opacity over the map"))
        side.addWidget(self.opacity)
        side.addWidget(self.status)
        row = QHBoxLayout()
        row.addWidget(self.view, 1)
        row.addLayout(side)
        lay = QVBoxLayout(self)
        lay.addLayout(row, 1)
        lay.addWidget(self.buttons)
        self._refresh()

    def _clicked(self, x: float, y: float) -> None:
        label = self.label_edit.text().strip().upper()
        if label not in set(self.board.location_ids()):
            self.status.setText(f"Type a hex number of {self.board.title} first"
                                + (f" ({label!r} is not one)." if label else "."))
            return
        self.points = [p for p in self.points if p.label != label]  # a re-click replaces it
        self.points.append(CalibrationPoint(round(x, 2), round(y, 2), label))
        self.label_edit.clear()
        self._refresh()

    def _remove(self) -> None:
        row = self.table.currentRow()
        if 0 <= row < len(self.points):
            del self.points[row]
            self._refresh()

    def _refresh(self) -> None:
        got = None
        reason = ""
        try:
            got = fit_points(self.board, tuple(self.points))
        except (ValueError, WartableError) as e:
            reason = str(e)
        self.table.setRowCount(len(self.points))
        for i, p in enumerate(self.points):
            off = f"{got[1][i]:.2f}" if got else "–"
            for j, text in enumerate((p.label, f"{p.x:.0f}", f"{p.y:.0f}", off)):
                self.table.setItem(i, j, QTableWidgetItem(text))
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(got is not None)
        if got is None:
            self.status.setText(f"Not calibrated yet: {reason}")
        else:
            worst = max(got[1])
            self.status.setText(f"Calibrated on {len(self.points)} points; the worst is "
                                f"{worst:.2f} hex off" + (" — check that click." if worst > 0.5
                                                          else "."))

    def result_underlay(self) -> Underlay:
        return Underlay(self.board.id, self.image, tuple(self.points),
                        self.opacity.value() / 100)


class UnderlayController:
    """The window's scan underlays: one per map, restored when the map is shown."""

    def __init__(self, parent: QWidget) -> None:
        self.parent = parent
        self._scans: dict[str, Scan] = {}  # image path -> scan, read once
        self.items: dict[int, UnderlayItem] = {}  # id(view) -> its underlay item

    def _scan(self, path: str) -> Scan:
        got = self._scans.get(path)
        if got is None:
            got = self._scans[path] = load_scan(path)
        return got

    def apply(self, view: MapView, board: BoardMap) -> str | None:
        """Put the map's saved underlay (if any) under it; a problem comes back as text."""
        self._drop(view)
        try:
            u = load_underlay(board.id)
            if u is None or not u.visible:
                return None
            t, _ = fit_points(board, u.points)
            item = UnderlayItem(self._scan(u.image), t, u.opacity)
        except (UnderlayError, WartableError, ValueError) as e:
            return f"Scan underlay not shown: {e}"
        view.map_scene.addItem(item)
        self.items[id(view)] = item
        return None

    def _drop(self, view: MapView) -> None:
        item = self.items.pop(id(view), None)
        if item is not None and item.scene() is view.map_scene:
            view.map_scene.removeItem(item)

    def calibrate(self, view: MapView, board: BoardMap, image: str | None = None) -> bool:
        """Ask for (or reuse) the scan, run the calibration dialog, save and show it."""
        try:
            old = load_underlay(board.id)
        except UnderlayError as e:
            QMessageBox.warning(self.parent, "Scan underlay", f"{e}\nStarting afresh; the "
                                "damaged file is replaced only if you finish calibrating.")
            old = None
        if image is None:
            image = old.image if old is not None and Path(old.image).exists() else None
        if image is None:
            image, _ = QFileDialog.getOpenFileName(
                self.parent, "Open a scan of the printed map", "",
                "Images (*.png *.jpg *.jpeg *.tif *.tiff *.bmp)")
            if not image:
                return False
        try:
            scan = self._scan(image)
        except WartableError as e:
            QMessageBox.warning(self.parent, "Scan underlay", str(e))
            return False
        same = old is not None and old.image == image
        dlg = CalibrationDialog(board, image, scan, old.points if same and old else (),
                                old.opacity if old else 0.6, self.parent)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return False
        save_underlay(dlg.result_underlay())
        self.apply(view, board)
        return True

    def toggle(self, view: MapView, board: BoardMap) -> str | None:
        """Show or hide the map's underlay (remembered); a problem comes back as text."""
        try:
            u = load_underlay(board.id)
        except UnderlayError as e:
            return str(e)
        if u is None:
            return "No scan underlay for this map yet: View → Scan Underlay… to add one."
        save_underlay(replace(u, visible=not u.visible))
        return self.apply(view, board)

    def remove(self, view: MapView, board: BoardMap) -> None:
        self._drop(view)
        remove_underlay(board.id)


def scan_point(t: Affine, board: BoardMap, label: str) -> QPointF:
    """Where a hex's centre is on the scan (full-size pixels): the fit, inverted."""
    x, y = t.inverse().apply(*board.center(label))
    return QPointF(x, y)
