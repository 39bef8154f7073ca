"""One QThread owns the engine and the current session (DESIGN.md, The worker thread).

The GUI thread talks to `EngineClient` only. Commands cross to the worker through a
queued signal; results come back through queued signals as frozen values. Nothing
mutable is shared: cancellation of long work uses a threading.Event per request.
"""

from __future__ import annotations

import itertools
import threading
import traceback
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from wartable.core.errors import IllegalAction, WartableError
from wartable.engine.loop import deciding_side
from wartable.engine.session import Session
from wartable.persistence import autosave, gamedata, savefile
from wartable.worker.commands import (
    Command, Failure, Load, NewGame, Query, QueryResult, Redo, Save, Snapshot, Submit, Undo,
)


class _Worker(QObject):
    snapshot = Signal(object)  # Snapshot
    failure = Signal(object)  # Failure
    result = Signal(object)  # QueryResult
    progress = Signal(int, int, str)  # request, percent, text
    busy = Signal(int, bool)  # request, running

    def __init__(self, autosave_enabled: bool) -> None:
        super().__init__()
        self.session: Session | None = None
        self.generation = 0
        self.path: Path | None = None
        self.dirty = False
        self.autosave_enabled = autosave_enabled
        self.cancels: dict[int, threading.Event] = {}

    @Slot(int, object)
    def handle(self, request: int, command: Command) -> None:
        self.busy.emit(request, True)
        try:
            self._handle(request, command)
        except IllegalAction as e:
            self.failure.emit(Failure(request, str(e), True))
        except WartableError as e:
            self.failure.emit(Failure(request, str(e), False))
        except Exception as e:  # noqa: BLE001 - an engine bug must not kill the thread
            tb = traceback.format_exc(limit=6)
            self.failure.emit(Failure(
                request, f"Internal error ({type(e).__name__}: {e}). The game was not "
                f"changed. Please report this with the log.\n{tb}", False))
        finally:
            self.cancels.pop(request, None)
            self.busy.emit(request, False)

    def _publish(self, session: Session, new_events: tuple[Any, ...], dirty: bool) -> None:
        self.session = session
        self.generation += 1
        self.dirty = dirty
        side = deciding_side(session.state)
        self.snapshot.emit(Snapshot(self.generation, session, session.prompt(side), new_events,
                                    self.path, dirty))

    def _handle(self, request: int, cmd: Command) -> None:
        if isinstance(cmd, NewGame):
            game = gamedata.load_game(cmd.game_id)
            s = Session.start(game, cmd.scenario, cmd.options, cmd.seed, cmd.dice_mode)
            self.path = None
            self._publish(s, s.events, dirty=True)
        elif isinstance(cmd, Load):
            s = savefile.load_from_path(cmd.path)  # raises SaveFileError; nothing changes
            self.path = cmd.path
            self._publish(s, s.events, dirty=False)
        elif isinstance(cmd, Save):
            s = self._need()
            savefile.save_to_path(s, cmd.path, _now())
            self.path = cmd.path
            self._publish(s, (), dirty=False)
        elif isinstance(cmd, Submit):
            s = self._need()
            new = s.submit(cmd.action)
            self._publish(new, new.events[len(s.events):] if new.log != s.log else (), True)
            if self.autosave_enabled and _step_changed(s, new):
                autosave.autosave(new, _now())
        elif isinstance(cmd, Undo | Redo):
            s = self._need()
            new = s.undo() if isinstance(cmd, Undo) else s.redo()
            if new is not s:
                self._publish(new, (), True)
        elif isinstance(cmd, Query):
            s = self._need()
            gen = self.generation
            cancel = self.cancels.setdefault(request, threading.Event())

            def report(percent: int, text: str) -> None:
                self.progress.emit(request, percent, text)

            value = cmd.fn(s, report, cancel.is_set)
            self.result.emit(QueryResult(request, cmd.name, gen, value))

    def _need(self) -> Session:
        if self.session is None:
            raise WartableError("No game is open.")
        return self.session


def _step_changed(a: Session, b: Session) -> bool:
    return (a.state.step_index, a.state.turn) != (b.state.step_index, b.state.turn)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class EngineClient(QObject):
    """The GUI thread's handle on the engine thread. Every call returns at once."""

    snapshotReady = Signal(object)  # Snapshot
    failed = Signal(object)  # Failure
    queryDone = Signal(object)  # QueryResult (stale ones are dropped before this fires)
    progress = Signal(int, int, str)
    busyChanged = Signal(bool)
    _send = Signal(int, object)

    def __init__(self, parent: QObject | None = None, autosave_enabled: bool = True) -> None:
        super().__init__(parent)
        self._ids = itertools.count(1)
        self._thread = QThread()
        self._thread.setObjectName("wartable-engine")
        self._worker = _Worker(autosave_enabled)
        self._worker.moveToThread(self._thread)
        self._send.connect(self._worker.handle)
        self._worker.snapshot.connect(self._on_snapshot)
        self._worker.failure.connect(self.failed)
        self._worker.result.connect(self._on_result)
        self._worker.progress.connect(self.progress)
        self._worker.busy.connect(self._on_busy)
        self._running: set[int] = set()
        self.generation = 0
        self.latest: Snapshot | None = None
        self._thread.start()

    def send(self, command: Command) -> int:
        request = next(self._ids)
        if isinstance(command, Query):
            # Create the cancel flag now so cancel() works before the worker starts it.
            self._worker.cancels[request] = threading.Event()
        self._send.emit(request, command)
        return request

    def cancel(self, request: int) -> None:
        ev = self._worker.cancels.get(request)
        if ev is not None:
            ev.set()

    def _on_snapshot(self, snap: Snapshot) -> None:
        self.generation = snap.generation
        self.latest = snap
        self.snapshotReady.emit(snap)

    def _on_result(self, res: QueryResult) -> None:
        if res.generation == self.generation:  # a result about an older position is stale
            self.queryDone.emit(res)

    def _on_busy(self, request: int, running: bool) -> None:
        was = bool(self._running)
        (self._running.add if running else self._running.discard)(request)
        if bool(self._running) != was:
            self.busyChanged.emit(bool(self._running))

    @property
    def busy(self) -> bool:
        return bool(self._running)

    def shutdown(self, timeout_ms: int = 5000) -> None:
        for ev in list(self._worker.cancels.values()):
            ev.set()
        self._thread.quit()
        self._thread.wait(timeout_ms)




__all__ = ["EngineClient"]
