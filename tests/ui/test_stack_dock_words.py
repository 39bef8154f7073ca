"""The Stack dock shows players words, not ids (issue 16): the notes a game's data declares
for a piece's attributes, worded with the game's names; its bookkeeping stays hidden."""

from __future__ import annotations

from dataclasses import replace

from pytestqt.qtbot import QtBot

from uihelpers import open_game
from wartable.engine.notes import piece_notes
from wartable.engine.session import Session
from wartable.ui.mainwindow import MainWindow


def show(win: MainWindow, session: Session) -> None:
    snap = win.snapshot
    assert snap is not None
    win.on_snapshot(replace(snap, generation=snap.generation + 1, session=session,
                            prompt=session.prompt(), new_events=()))


def test_a_loaded_infantry_reads_aboard_its_transport_not_its_attributes(
        qtbot: QtBot) -> None:
    win = open_game(qtbot, "aa_anniversary", "1941", {"table.solitaire": True})
    s = win.snapshot.session  # type: ignore[union-attr]
    st = s.state
    inf = next(p for p in st.pieces.values() if p.side == "germany" and p.type == "infantry")
    tr = next(p for p in st.pieces.values() if p.side == "germany" and p.type == "transport")
    moved = inf.with_attr("on", tr.id).with_attr("cm", True).with_attr("origin", "germany") \
        .with_attr("mp", 1.0)
    st = st.with_piece(replace(moved, location=tr.location))
    show(win, replace(s, state=st))
    win.on_stack(tr.location)
    rows = [win.inspector.list.item(i).text() for i in range(win.inspector.list.count())]
    row = next(r for r in rows if "Infantry" in r and "Aboard" in r)
    assert "Aboard Germany Transport" in row
    assert "Moved in Combat Move (Phase 3)" in row and "Started the phase in Germany" in row
    assert "cm:" not in row and "origin:" not in row and tr.id not in row
    # The title names the sea zone as the game names it, not its id.
    assert win.inspector.title.text().startswith("Sea Zone ")
    win.close()


def test_undeclared_attributes_are_never_shown(qtbot: QtBot) -> None:
    win = open_game(qtbot, "aa_anniversary", "1941", {"table.solitaire": True})
    s = win.snapshot.session  # type: ignore[union-attr]
    p = next(iter(s.state.pieces.values())).with_attr("captured_aa", True)
    assert piece_notes(s.game, s.state, p) == ()
    win.close()
