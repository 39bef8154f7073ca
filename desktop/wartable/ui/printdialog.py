"""File > Print…: setup sheets, charts, the position, or the map, with a preview.

Rendering runs on the engine client's analysis thread (a Query), so the window stays
responsive; a quick low-resolution preview first, then the real 300 dpi file on Save.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from wartable.engine.session import Session
from wartable.printing import jobs
from wartable.ui.widgets import scrolled
from wartable.worker.commands import Failure, Query, QueryResult
from wartable.worker.engine_thread import EngineClient

KINDS = {
    "setup": "Setup sheets",
    "charts": "Player aids (charts and tables)",
    "position": "Position (what every side may see)",
    "map": "Map (A4/Letter tiles to assemble)",
}
PREVIEW_DPI = 45


def run_job(kind: str, session: Session, path: Path, *, side: str | None, paper: str,
            dpi: int, report: Callable[[int, str], None],
            cancelled: Callable[[], bool]) -> jobs.Output:
    """One print job on a session (runs on the analysis thread)."""
    def rep(fraction: float, text: str) -> None:
        report(int(fraction * 100), text)

    game, state = session.game, session.state
    common: dict[str, Any] = {"paper_name": paper, "dpi": dpi, "report": rep,
                              "cancelled": cancelled}
    if kind == "setup":
        return jobs.print_setup(game, session.scenario, path, side=side, **common)
    if kind == "charts":
        return jobs.print_charts(game, path, **common)
    if kind == "position":
        return jobs.print_position(game, state, path, viewer=side, actions=len(session.log),
                                   **common)
    board = next(iter(game.maps.values()))
    return jobs.export_map(board, path, **common)


class PrintDialog(QDialog):
    def __init__(self, client: EngineClient, parent: QWidget | None = None,
                 kind: str = "setup") -> None:
        super().__init__(parent)
        self.setObjectName("printDialog")
        self.setWindowTitle("Print")
        self.resize(760, 820)
        self.client = client
        self._request: int | None = None
        self._purpose = ""
        self._tmp = tempfile.TemporaryDirectory(prefix="wartable-preview-")
        self._last_dir = str(Path.home())
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.kind = QComboBox()
        self.kind.setObjectName("printKind")
        for k, text in KINDS.items():
            self.kind.addItem(text, k)
        self.kind.setCurrentIndex(self.kind.findData(kind))
        form.addRow("Print", self.kind)
        self.side = QComboBox()
        self.side.setObjectName("printSide")
        form.addRow("Side", self.side)
        self.paper = QComboBox()
        self.paper.addItem("A4", "a4")
        self.paper.addItem("Letter", "letter")
        form.addRow("Paper", self.paper)
        self.format = QComboBox()
        self.format.setObjectName("printFormat")
        self.format.addItem("PDF (one file)", "pdf")
        self.format.addItem("PNG (one image per page)", "png")
        form.addRow("Format", self.format)
        lay.addLayout(form)
        self.pages = QVBoxLayout()
        holder = QWidget()
        holder.setLayout(self.pages)
        scroll = scrolled(holder, framed=True)
        lay.addWidget(scroll, 1)
        self.status = QLabel()
        self.status.setObjectName("printStatus")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        row = QHBoxLayout()
        self.progress = QProgressBar()
        row.addWidget(self.progress, 1)
        self.cancel = QPushButton("Cancel")
        self.cancel.clicked.connect(self._cancel)
        row.addWidget(self.cancel)
        self.save = QPushButton("Save…")
        self.save.setObjectName("printSave")
        self.save.clicked.connect(self._save)
        row.addWidget(self.save)
        close = QPushButton("Close")
        close.clicked.connect(self.reject)
        row.addWidget(close)
        lay.addLayout(row)
        client.queryDone.connect(self._done)
        client.failed.connect(self._failed)
        client.progress.connect(self._progress)
        self._fill_sides()
        for w in (self.kind, self.side, self.paper):
            w.currentIndexChanged.connect(self.preview)
        self.format.currentIndexChanged.connect(self._format_changed)
        self._format_changed()
        self._set_running(False)

    def _format_changed(self) -> None:
        self.save.setText(f"Save {str(self.format.currentData()).upper()}…")

    def default_name(self) -> str:
        """The file name the save dialog proposes: the game, scenario, side and sheet."""
        snap = self.client.latest
        kind = str(self.kind.currentData())
        fmt = str(self.format.currentData())
        if snap is None:
            return f"wartable-{kind}.{fmt}"
        session = snap.session
        side = self.side.currentText() if self.side.currentData() is not None else ""
        return jobs.suggested_name(session.game.definition.title, kind,
                                   scenario=session.scenario, side=side,
                                   turn=session.state.turn, fmt=fmt)

    def _fill_sides(self) -> None:
        snap = self.client.latest
        self.side.clear()
        self.side.addItem("Every side", None)
        if snap is not None:
            for s in snap.session.game.definition.sides:
                self.side.addItem(s.name, s.id)

    def _job(self, path: Path, dpi: int, purpose: str) -> None:
        kind, side, paper = self.kind.currentData(), self.side.currentData(), \
            self.paper.currentData()
        if self._request is not None:
            self.client.cancel(self._request)
        self._purpose = purpose
        self._set_running(True)
        self._request = self.client.send(Query(f"print:{purpose}", lambda s, report, c: run_job(
            kind, s, path, side=side, paper=paper, dpi=dpi, report=report, cancelled=c)))

    def preview(self) -> None:
        self.side.setEnabled(self.kind.currentData() in ("setup", "position"))
        self.status.setText("Preparing the preview…")
        self._job(Path(self._tmp.name) / f"preview-{self.kind.currentData()}.png", PREVIEW_DPI,
                  "preview")

    def _save(self) -> None:
        fmt = str(self.format.currentData())
        filters = {"pdf": "PDF (*.pdf)", "png": "PNG pages (*.png)"}
        start = str(Path(self._last_dir) / self.default_name())
        name, _ = QFileDialog.getSaveFileName(self, "Save as", start, filters[fmt])
        if name:
            path = Path(name)
            if path.suffix.lower() not in (".pdf", ".png"):
                path = path.with_name(path.name + f".{fmt}")
            self._last_dir = str(path.parent)
            self.save_to(path)

    def save_to(self, path: Path) -> None:
        self.status.setText(f"Writing {path.name} at 300 dpi…")
        self._job(path, 300, "save")

    def _cancel(self) -> None:
        if self._request is not None:
            self.client.cancel(self._request)

    def _progress(self, request: int, percent: int, text: str) -> None:
        if request == self._request:
            self.progress.setValue(percent)
            self.progress.setFormat(f"{text} %p%")

    def _done(self, res: QueryResult) -> None:
        if res.request != self._request:
            return
        self._request = None
        self._set_running(False)
        out: jobs.Output = res.value
        if self._purpose == "preview":
            self._show_pages(out.paths)
            self.status.setText(f"Preview of {out.pages} page{'s' * (out.pages != 1)}.")
        else:
            self.status.setText(out.describe())  # "Wrote 3 pages to …" with the paths
        self.last_output = out

    def _failed(self, f: Failure) -> None:
        if f.request != self._request:
            return
        self._request = None
        self._set_running(False)
        first = f.message.splitlines()[0]
        self.status.setText("Cancelled." if "cancel" in first.lower() else first)

    def _show_pages(self, paths: tuple[Path, ...]) -> None:
        while self.pages.count():
            item = self.pages.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.deleteLater()
        for p in paths:
            label = QLabel()
            label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            label.setPixmap(QPixmap(str(p)))
            label.setStyleSheet("border: 1px solid #999; background: white;")
            self.pages.addWidget(label)
        self.page_count = len(paths)

    def _set_running(self, running: bool) -> None:
        self.cancel.setEnabled(running)
        self.save.setEnabled(not running)
        self.progress.setVisible(running)

    def done(self, result: int) -> None:  # noqa: D102 - QDialog override
        self._cancel()
        for sig, slot in ((self.client.queryDone, self._done), (self.client.failed, self._failed),
                          (self.client.progress, self._progress)):
            sig.disconnect(slot)
        self._tmp.cleanup()
        super().done(result)
