"""The engine thread: commands in, snapshots out; the GUI thread never waits on it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import QThread, QTimer

from wartable.engine.actions import Action
from wartable.engine.session import Session
from wartable.worker.commands import (
    Failure,
    NewGame,
    Query,
    QueryResult,
    Redo,
    Snapshot,
    Submit,
    Undo,
)
from wartable.worker.engine_thread import EngineClient


@pytest.fixture
def client(qtbot: Any) -> EngineClient:
    c = EngineClient(autosave_enabled=False)
    yield c
    c.shutdown()


def started(qtbot: Any, client: EngineClient, scenario: str = "meeting") -> Snapshot:
    with qtbot.waitSignal(client.snapshotReady, timeout=10000) as sig:
        client.send(NewGame("skirmish", scenario, seed=1))
    return sig.args[0]


def test_new_game_snapshot_comes_from_another_thread(qtbot: Any, client: EngineClient) -> None:
    seen: list[Any] = []

    def where() -> None:
        seen.append(QThread.currentThread())

    snap = started(qtbot, client)
    assert snap.prompt.side == "blue" and snap.prompt.moves
    assert snap.session.state.turn == 1 and snap.generation == 1
    # The snapshot is delivered on the GUI thread (queued), the work ran on the worker's.
    client.snapshotReady.connect(lambda _s: where())
    with qtbot.waitSignal(client.snapshotReady):
        client.send(Submit(Action.make("move", "blue", piece="blue.infantry.1", to="0204")))
    assert seen == [QThread.currentThread()]
    assert QThread.currentThread() not in client._threads


def test_illegal_action_is_reported_and_nothing_changes(qtbot: Any, client: EngineClient) -> None:
    snap = started(qtbot, client)
    with qtbot.waitSignal(client.failed) as sig:
        client.send(Submit(Action.make("move", "blue", piece="blue.infantry.1", to="1616")))
    f: Failure = sig.args[0]
    assert f.illegal and "cannot reach 1616" in f.message
    assert client.latest is snap and client.generation == 1


def test_engine_exception_is_reported_with_state_untouched(qtbot: Any,
                                                          client: EngineClient) -> None:
    snap = started(qtbot, client)

    def boom(session: Session, report: Callable[..., None], cancelled: Callable[[], bool]) -> Any:
        raise ZeroDivisionError("simulated engine bug")

    with qtbot.waitSignal(client.failed) as sig:
        client.send(Query("boom", boom))
    f: Failure = sig.args[0]
    assert not f.illegal and f.message.startswith("Internal error (ZeroDivisionError")
    assert "The game was not changed" in f.message
    # The worker is still alive and the game continues from the same state.
    with qtbot.waitSignal(client.snapshotReady) as sig2:
        client.send(Submit(Action.make("move", "blue", piece="blue.infantry.1", to="0204")))
    assert sig2.args[0].session.state.serial == snap.session.state.serial + 1


def test_moves_are_applied_while_a_long_query_runs(qtbot: Any, client: EngineClient) -> None:
    """Long analysis (bots, calculators) must not hold up the game itself."""
    started(qtbot, client)
    gate = threading.Event()
    client.send(Query("wait", lambda s, r, c: gate.wait(5)))
    with qtbot.waitSignal(client.snapshotReady, timeout=3000) as sig:
        client.send(Submit(Action.make("move", "blue", piece="blue.infantry.1", to="0204")))
    gate.set()
    assert sig.args[0].session.state.piece("blue.infantry.1").location == "0204"


def test_long_query_does_not_block_the_gui_thread(qtbot: Any, client: EngineClient) -> None:
    started(qtbot, client)
    release = threading.Event()

    def slow(session: Session, report: Callable[[int, str], None],
             cancelled: Callable[[], bool]) -> int:
        for i in range(100):
            if cancelled() or release.is_set():
                break
            report(i, "thinking")
            time.sleep(0.01)
        return len(session.state.pieces)

    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    with qtbot.waitSignal(client.queryDone, timeout=10000) as sig:
        client.send(Query("slow", slow))
    timer.stop()
    res: QueryResult = sig.args[0]
    assert res.value == 10
    # The GUI event loop kept running while the worker slept ~1 s: many timer ticks,
    # and no gap between them longer than a few frames.
    assert len(ticks) > 20
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert max(gaps) < 0.25


def test_cancel_stops_a_long_query(qtbot: Any, client: EngineClient) -> None:
    started(qtbot, client)
    steps: list[int] = []

    def slow(session: Session, report: Callable[[int, str], None],
             cancelled: Callable[[], bool]) -> str:
        for i in range(500):
            if cancelled():
                return "cancelled"
            steps.append(i)
            time.sleep(0.01)
        return "finished"

    with qtbot.waitSignal(client.queryDone, timeout=10000) as sig:
        req = client.send(Query("slow", slow))
        QTimer.singleShot(100, lambda: client.cancel(req))
    assert sig.args[0].value == "cancelled" and len(steps) < 400


def test_stale_query_result_is_dropped(qtbot: Any, client: EngineClient) -> None:
    """A query about an older position must not reach the UI once the game moved on."""
    started(qtbot, client)
    gate = threading.Event()

    def waits(session: Session, report: Callable[..., None], cancelled: Callable[[], bool]) -> int:
        gate.wait(5)
        return session.state.serial

    results: list[QueryResult] = []
    client.queryDone.connect(results.append)
    # The query runs on the analysis thread against generation 1 and waits at the gate;
    # meanwhile a move reaches the UI as generation 2, so the answer is stale.
    client.send(Query("old", waits))
    client.send(Submit(Action.make("move", "blue", piece="blue.infantry.1", to="0204")))
    qtbot.waitUntil(lambda: client.generation == 2, timeout=5000)
    gate.set()
    qtbot.waitUntil(lambda: not client.busy, timeout=5000)
    qtbot.wait(50)
    assert results == []
    # A fresh query after the move does arrive.
    with qtbot.waitSignal(client.queryDone):
        client.send(Query("new", lambda s, r, c: s.state.serial))
    assert results and results[-1].value == 1


def test_undo_and_redo_through_the_worker(qtbot: Any, client: EngineClient) -> None:
    started(qtbot, client)
    with qtbot.waitSignal(client.snapshotReady) as sig:
        client.send(Submit(Action.make("move", "blue", piece="blue.infantry.1", to="0204")))
    assert sig.args[0].undo_label == "Blue 1st Inf moves 0205 → 0204 (1 MP)"
    with qtbot.waitSignal(client.snapshotReady) as sig:
        client.send(Undo())
    snap = sig.args[0]
    assert snap.session.state.piece("blue.infantry.1").location == "0205"
    assert snap.redo_label == "Blue 1st Inf moves 0205 → 0204 (1 MP)"
    with qtbot.waitSignal(client.snapshotReady) as sig:
        client.send(Redo())
    assert sig.args[0].session.state.piece("blue.infantry.1").location == "0204"


def test_loading_a_long_save_reports_replay_progress(qtbot: Any, client: EngineClient,
                                                      tmp_path: Any) -> None:
    """A long save replays on the worker with progress (the window shows it): percentages
    rise to 100 and name the real number of moves."""
    from wartable.engine.randomplay import play_random
    from wartable.persistence.gamedata import load_game
    from wartable.persistence.savefile import save_to_path
    from wartable.worker.commands import Load

    start = Session.start(load_game("skirmish"), "meeting", None, 7, "digital")
    session = play_random(start, 7, max_actions=300).session
    n = len(session.log)
    assert n >= 50
    path = save_to_path(session, tmp_path / "long.wartable.json", "2026-11-21T00:00:00")
    seen: list[tuple[int, str]] = []
    client.progress.connect(lambda _r, pct, text: seen.append((pct, text)))
    snaps: list[Snapshot] = []
    client.snapshotReady.connect(snaps.append)
    with qtbot.waitSignal(client.snapshotReady, timeout=20000) as sig:
        client.send(Load(path))
    assert sig.args[0].session.state == session.state
    # The saved position shows first; the checked session follows the replay (issue 20).
    qtbot.waitUntil(lambda: any(x.fresh for x in snaps), timeout=20000)
    qtbot.wait(50)  # queued progress signals arrive before or with the snapshot
    pcts = [p for p, _ in seen]
    assert pcts == sorted(pcts) and pcts[-1] == 100 and len(pcts) >= 20
    assert seen[-1][1] == f"Replaying move {n} of {n}"


def _long_save(tmp_path: Any, edit: Callable[[dict[str, Any]], None] | None = None,
               ) -> tuple[Session, Any]:
    import json

    from wartable.engine.randomplay import play_random
    from wartable.persistence import savefile
    from wartable.persistence.gamedata import load_game

    start = Session.start(load_game("skirmish"), "meeting", None, 7, "digital")
    session = play_random(start, 7, max_actions=300).session
    doc = savefile.session_to_save(session, "2026-11-21T00:00:00")
    if edit is not None:
        edit(doc)
    path = tmp_path / "long.wartable.json"
    path.write_bytes(json.dumps(doc).encode())
    return session, path


def test_a_save_shows_its_position_at_once_then_its_checked_history(
        qtbot: Any, client: EngineClient, tmp_path: Any) -> None:
    """Issue 20: the first snapshot is the saved position itself (log, no replay yet, no
    history); the second, marked fresh, is the replayed session: the same position with
    its events and undo history, the file still its path and clean."""
    from wartable.worker.commands import Load

    session, path = _long_save(tmp_path)
    snaps: list[Snapshot] = []
    client.snapshotReady.connect(snaps.append)
    client.send(Load(path))
    qtbot.waitUntil(lambda: len(snaps) >= 2, timeout=20000)
    quick, checked = snaps[0], snaps[1]
    assert not quick.fresh and quick.session.state == session.state
    assert quick.session.log == session.log and quick.session.events == ()
    assert quick.path == path and not quick.dirty
    assert "checking its" in (quick.notice or "")
    assert checked.fresh and checked.session.state == session.state
    assert checked.session.events == session.events
    assert checked.session.undo_stack == session.undo_stack
    assert checked.path == path and not checked.dirty
    assert f"All {len(session.log)} moves checked" in (checked.notice or "")


def test_a_log_that_does_not_reach_the_saved_position_says_so_and_what_to_do(
        qtbot: Any, client: EngineClient, tmp_path: Any) -> None:
    """A save whose position was edited (and rehashed, so it opens) shows that position,
    then the check fails with one clear message offering what to do; the game stays open,
    unsaved, with no file to overwrite."""
    from wartable.persistence.savefile import rehash_state
    from wartable.worker.commands import Load

    def edit(doc: dict[str, Any]) -> None:
        doc["state"]["turn"] += 1
        rehash_state(doc)

    _, path = _long_save(tmp_path, edit)
    snaps: list[Snapshot] = []
    client.snapshotReady.connect(snaps.append)
    with qtbot.waitSignal(client.failed, timeout=20000) as sig:
        client.send(Load(path))
    msg = sig.args[0].message
    assert "does not match its saved position" in msg and "\n" not in msg
    assert "play on from it and save under a new name" in msg
    assert "open an earlier save or an autosave" in msg
    qtbot.waitUntil(lambda: len(snaps) >= 2)
    assert snaps[-1].path is None and snaps[-1].dirty and not snaps[-1].fresh
    assert snaps[-1].session.state.turn == snaps[0].session.state.turn
