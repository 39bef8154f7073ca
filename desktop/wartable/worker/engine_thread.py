"""One QThread owns the engine and the current session (DESIGN.md, The worker thread).

The GUI thread talks to `EngineClient` only. Commands cross to the worker through a
queued signal; results come back through queued signals as frozen values. Nothing
mutable is shared: cancellation of long work uses a threading.Event per request.
"""

from __future__ import annotations

import itertools
import threading
import traceback
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEventLoop, QObject, QThread, QTimer, Signal, Slot

from wartable.core.errors import IllegalAction, SaveFileError, WartableError
from wartable.engine.loop import deciding_side
from wartable.engine.session import Session
from wartable.persistence import autosave, gamedata, savefile, tables
from wartable.worker.commands import (
    Command,
    Failure,
    Load,
    NewGame,
    Query,
    QueryResult,
    Redo,
    Save,
    SetTable,
    Snapshot,
    Submit,
    Undo,
)


class _Worker(QObject):
    """Lives on the engine thread: owns the current session; applies commands in order."""

    snapshot = Signal(object)  # Snapshot
    failure = Signal(object)  # Failure
    busy = Signal(int, int)  # request, running (1/0: ints cross threads safely)
    progress = Signal(int, int, str)  # request, percent, text (replaying a save)

    def __init__(self, autosave_enabled: bool) -> None:
        super().__init__()
        self.request = 0
        self.session: Session | None = None
        self.generation = 0
        self.path: Path | None = None
        self.autosave_enabled = autosave_enabled

    @Slot(int, object)
    def handle(self, request: int, command: Command) -> None:
        self.busy.emit(request, 1)
        self.request = request
        try:
            self._handle(command)
        except Exception as e:  # noqa: BLE001 - reported; the thread and the game live on
            self.failure.emit(_failure(request, e))
        finally:
            self.busy.emit(request, 0)

    def _publish(self, session: Session, new_events: tuple[Any, ...], dirty: bool,
                 notice: str | None = None, path: Path | None | str = "same") -> None:
        """Make `session` current. Everything that can fail (the prompt) is worked out
        first, so a failure leaves the worker exactly as it was (issue 15: a failed
        command once left its change behind, which the next Save wrote)."""
        side = deciding_side(session.state)
        prompt = session.prompt(side)
        new_path = self.path if isinstance(path, str) else path
        snap = Snapshot(self.generation + 1, session, prompt, new_events, new_path, dirty,
                        notice)
        self.session, self.path, self.generation = session, new_path, self.generation + 1
        self.snapshot.emit(snap)

    def _autosave(self, session: Session) -> None:
        """Autosave after a change already made: a failure says so truthfully."""
        if not self.autosave_enabled:
            return
        try:
            autosave.autosave(session, _now())
        except Exception as e:  # noqa: BLE001 - the move stands; only the autosave failed
            raise WartableError(f"The move was made, but the autosave failed: {e}") from e

    def _handle(self, cmd: Command) -> None:
        if isinstance(cmd, NewGame):
            # The player's own printed values for the rule tables, when valid (issue 5).
            mine = tables.player_tables(cmd.game_id)
            s = Session.start(mine.game, cmd.scenario, cmd.options, cmd.seed, cmd.dice_mode)
            self._publish(s, s.events, dirty=True, notice=_notice(mine.problem), path=None)
        elif isinstance(cmd, Load):
            self._load(cmd.path)
        elif isinstance(cmd, Save):
            s = self._need()
            savefile.save_to_path(s, cmd.path, _now())
            try:
                self._publish(s, (), dirty=False, path=cmd.path)
            except Exception as e:  # the file is written: never report the save as failed
                raise WartableError(f"The game was saved to {cmd.path.name}, but the view "
                                    f"could not be refreshed ({type(e).__name__}: {e}).") from e
        elif isinstance(cmd, SetTable):
            # Seats change, not the game: the log and the state stay (issue 7).
            s = self._need()
            new = replace(s, options=s.options.update(cmd.options))
            self._publish(new, (), True)
            self._autosave(new)
        elif isinstance(cmd, Submit):
            s = self._need()
            new = s.submit(cmd.action)
            self._publish(new, new.events[len(s.events):], True)
            if _step_changed(s, new):
                self._autosave(new)
        elif isinstance(cmd, Undo | Redo):
            s = self._need()
            new = s.undo() if isinstance(cmd, Undo) else s.redo()
            if new is not s:
                self._publish(new, (), True)

    def _load(self, path: Path) -> None:
        """Show the save at its saved position at once, then replay its log here (commands
        sent meanwhile wait their turn) and swap in the checked session, with its history.
        A bad file raises SaveFileError before anything changes; a log that does not lead
        to the saved position leaves that position shown, unchecked, and says what to do."""
        opened = savefile.open_from_path(path)
        n = opened.actions
        self._publish(opened.session, (), dirty=False, path=path,
                      notice=_notice(f"Opened at its saved position; checking its {n} moves…"
                                     if n else None))
        try:
            s = savefile.check_replay(opened, progress=self._replaying)
        except SaveFileError as e:
            # A plain Save must not overwrite the file with this game: no path.
            self._publish(opened.session, (), dirty=True, path=None,
                          notice="Unchecked position: its moves do not replay (see the message).")
            raise SaveFileError(
                f"{e} The position shown is the one saved, unchecked: you may play on from "
                "it and save under a new name (its moves cannot be undone), or open an "
                "earlier save or an autosave.") from e
        self.generation += 1
        self.session = s
        self.snapshot.emit(Snapshot(self.generation, s, s.prompt(deciding_side(s.state)),
                                    (), self.path, False,
                                    tables.save_notice(s.game) or
                                    (f"All {n} moves checked: they replay to the saved "
                                     "position." if n else None), fresh=True))

    def _replaying(self, done: int, total: int) -> None:
        self.progress.emit(self.request, done * 100 // total, f"Replaying move {done} of {total}")

    def _need(self) -> Session:
        if self.session is None:
            raise WartableError("No game is open.")
        return self.session


class _Analyst(QObject):
    """Lives on the analysis thread: long read-only work (AI, calculators, overlays) on an
    immutable session, so the game itself never waits for it."""

    result = Signal(object)  # QueryResult
    failure = Signal(object)  # Failure
    progress = Signal(int, int, str)  # request, percent, text
    busy = Signal(int, int)

    def __init__(self, cancels: dict[int, threading.Event]) -> None:
        super().__init__()
        # Written by the GUI thread (one Event per request), read here: Event is thread-safe.
        self.cancels = cancels

    @Slot(int, object, object, int)
    def run(self, request: int, query: Query, session: Session, generation: int) -> None:
        self.busy.emit(request, 1)
        cancel = self.cancels.get(request) or threading.Event()
        try:
            value = query.fn(session, lambda pct, text: self.progress.emit(request, pct, text),
                             cancel.is_set)
            self.result.emit(QueryResult(request, query.name, generation, value))
        except Exception as e:  # noqa: BLE001
            self.failure.emit(_failure(request, e))
        finally:
            self.cancels.pop(request, None)
            self.busy.emit(request, 0)


def _failure(request: int, e: Exception) -> Failure:
    if isinstance(e, IllegalAction):
        return Failure(request, str(e), True)
    if isinstance(e, WartableError):
        return Failure(request, str(e), False)
    tb = traceback.format_exc(limit=6)
    return Failure(request, f"Internal error ({type(e).__name__}: {e}). The game was not "
                   f"changed. Please report this with the log.\n{tb}", False)


def _notice(first: str | None) -> str | None:
    """The status line for a game just opened: its own notice and any about the player's
    files that loading the game set aside (gamedata.take_notices)."""
    parts = [p for p in (first, *gamedata.take_notices()) if p]
    return " ".join(parts) or None


def _step_changed(a: Session, b: Session) -> bool:
    return (a.state.step_index, a.state.turn) != (b.state.step_index, b.state.turn)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class EngineClient(QObject):
    """The GUI thread's handle on the engine. Every call returns at once.

    Two threads: the engine thread applies game commands in order; the analysis thread
    runs queries on the session the UI last saw. A query result about an older position
    than the one now shown is stale and dropped.
    """

    snapshotReady = Signal(object)  # Snapshot
    failed = Signal(object)  # Failure
    queryDone = Signal(object)  # QueryResult (stale ones are dropped before this fires)
    progress = Signal(int, int, str)
    busyChanged = Signal(bool)
    handled = Signal(int)  # a request the worker finished (after its snapshot or failure)
    _send = Signal(int, object)
    _ask = Signal(int, object, object, int)

    def __init__(self, parent: QObject | None = None, autosave_enabled: bool = True) -> None:
        super().__init__(parent)
        self._ids = itertools.count(1)
        self._cancels: dict[int, threading.Event] = {}
        self.cancelled: set[int] = set()  # requests the GUI cancelled: their failure is no error
        self._threads = (QThread(), QThread())
        self._threads[0].setObjectName("wartable-engine")
        self._threads[1].setObjectName("wartable-analysis")
        self._worker = _Worker(autosave_enabled)
        self._analyst = _Analyst(self._cancels)
        self._worker.moveToThread(self._threads[0])
        self._analyst.moveToThread(self._threads[1])
        self._send.connect(self._worker.handle)
        self._ask.connect(self._analyst.run)
        self._worker.snapshot.connect(self._on_snapshot)
        for src in (self._worker, self._analyst):
            src.failure.connect(self.failed)
            src.busy.connect(self._on_busy)
        self._analyst.result.connect(self._on_result)
        self._analyst.progress.connect(self.progress)
        self._worker.progress.connect(self.progress)
        self._running: set[int] = set()
        self.generation = 0
        self.latest: Snapshot | None = None
        for t in self._threads:
            t.start()

    def send(self, command: Command) -> int:
        request = next(self._ids)
        if isinstance(command, Query):
            if self.latest is None:
                self.failed.emit(Failure(request, "No game is open.", False))
                return request
            self._cancels[request] = threading.Event()
            self._ask.emit(request, command, self.latest.session, self.latest.generation)
        else:
            self._send.emit(request, command)
        return request

    def send_and_wait(self, command: Command, timeout_ms: int = 120_000) -> Failure | None:
        """Send a command and wait until the worker has handled it (events keep flowing):
        for closing, New and Open, where nothing else may happen before the game is on
        disk (issue 15). None when it succeeded, else its Failure."""
        loop = QEventLoop()
        mine: list[int] = []
        failures: list[Failure] = []
        finished: list[bool] = []

        def on_failure(f: Failure) -> None:
            if mine and f.request == mine[0]:
                failures.append(f)

        def on_busy(request: int) -> None:  # on this thread, after the request's failure
            if mine and request == mine[0]:
                finished.append(True)
                loop.quit()

        self.failed.connect(on_failure)
        self.handled.connect(on_busy)
        try:
            mine.append(self.send(command))
            QTimer.singleShot(timeout_ms, loop.quit)
            if not finished:
                loop.exec()
        finally:
            self.failed.disconnect(on_failure)
            self.handled.disconnect(on_busy)
        if failures:
            return failures[0]
        if not finished:
            return Failure(mine[0], "The engine did not answer in time; the game was not "
                           "saved.", False)
        return None

    def cancel(self, request: int) -> None:
        ev = self._cancels.get(request)
        if ev is not None:
            self.cancelled.add(request)
            ev.set()

    def _on_snapshot(self, snap: Snapshot) -> None:
        self.generation = snap.generation
        self.latest = snap
        self.snapshotReady.emit(snap)

    def _on_result(self, res: QueryResult) -> None:
        if res.generation == self.generation:
            self.queryDone.emit(res)

    def _on_busy(self, request: int, running: int) -> None:
        was = bool(self._running)
        (self._running.add if running else self._running.discard)(request)
        if bool(self._running) != was:
            self.busyChanged.emit(bool(self._running))
        if not running:
            self.handled.emit(request)

    @property
    def busy(self) -> bool:
        return bool(self._running)

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Cancel long work and stop both threads (idempotent)."""
        for ev in list(self._cancels.values()):
            ev.set()
        for t in self._threads:
            t.quit()
        for t in self._threads:
            t.wait(timeout_ms)


__all__ = ["EngineClient"]
