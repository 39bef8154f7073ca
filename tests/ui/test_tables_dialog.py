"""Game → Rule Tables (issue 5): the player types the printed CRT into the grid, saves,
and the file holds exactly that table; reopened, the table carries "your printed values"."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QTableWidget
from pytestqt.qtbot import QtBot

from wartable.gameui.whatif1940.oddspreview import player_tables_of
from wartable.model.values import thaw
from wartable.persistence import gamedata, tables
from wartable.ui.tablesdialog import BADGE_OURS, BADGE_YOURS, YOUR_NOTE, TablesDialog
from wartable.worker.commands import Load, NewGame, Save, Snapshot
from wartable.worker.engine_thread import EngineClient

W40 = "whatif1940"
SHOTS = Path("/tmp/wartable-shots")


def _open(qtbot: QtBot) -> TablesDialog:
    d = TablesDialog(W40)
    qtbot.addWidget(d)
    d.show()
    return d


def _select(d: TablesDialog, tid: str) -> None:
    lst = d.findChild(QListWidget, "tablesList")
    for i in range(lst.count()):
        if lst.item(i).data(Qt.ItemDataRole.UserRole) == tid:
            lst.setCurrentRow(i)
            return
    raise AssertionError(tid)


def _item_text(d: TablesDialog, tid: str) -> str:
    lst = d.findChild(QListWidget, "tablesList")
    for i in range(lst.count()):
        if lst.item(i).data(Qt.ItemDataRole.UserRole) == tid:
            return str(lst.item(i).text())
    raise AssertionError(tid)


def test_issue5_the_dialog_lists_our_provisional_tables_first(qtbot: QtBot) -> None:
    d = _open(qtbot)
    lst = d.findChild(QListWidget, "tablesList")
    texts = [lst.item(i).text() for i in range(lst.count())]
    marks = [BADGE_OURS in t for t in texts]
    assert marks[0] and marks == sorted(marks, reverse=True)  # provisional ones on top
    assert "CRT (combat)   (provisional — ours)" in texts
    assert "stacking" in texts  # given by the rules [7.4]: no badge


def test_11_3_typing_a_printed_crt_cell_saves_exactly_that_table(qtbot: QtBot) -> None:
    d = _open(qtbot)
    _select(d, "combat")
    grid = d.findChild(QTableWidget, "tablesGrid")
    # Rows in the printed column order 1:3 ... 5:1 [11.3], columns the die rolls 1-6.
    assert [grid.verticalHeaderItem(r).text() for r in range(grid.rowCount())] == \
        ["1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1"]
    assert grid.columnCount() == 6
    assert "OUR PROVISIONAL" in d.note.text()
    ours: dict[str, Any] = thaw(gamedata.load_game(W40).definition.tables["combat"])
    assert grid.item(2, 0).text() == ours["crt"]["1-1"][0] == "AL1"
    grid.item(2, 0).setText("DE")  # the 1:1 row, roll 1
    assert BADGE_YOURS in d.badge.text()
    qtbot.wait(50)  # let the layout take the new badge before the screenshot
    SHOTS.mkdir(parents=True, exist_ok=True)
    d.grab().save(str(SHOTS / "tables_dialog_crt.png"))
    assert d.save()
    data = tomllib.loads(tables.overrides_path(W40).read_text(encoding="utf-8"))
    want = dict(ours, provisional=False, note=YOUR_NOTE)
    want["crt"] = dict(ours["crt"], **{"1-1": ["DE"] + ours["crt"]["1-1"][1:]})
    assert data == {"tables": {"combat": want}}
    d.close()

    again = _open(qtbot)
    assert _item_text(again, "combat") == f"CRT (combat)   ({BADGE_YOURS})"
    _select(again, "combat")
    assert BADGE_YOURS in again.badge.text()
    assert again.findChild(QTableWidget, "tablesGrid").item(2, 0).text() == "DE"
    # Reset to ours, save: the file goes, new games use our values again.
    again.reset_table()
    assert BADGE_OURS in again.badge.text()
    assert again.save()
    assert not tables.overrides_path(W40).exists()


def test_11_3_a_wrong_code_is_not_saved_and_the_file_is_kept(qtbot: QtBot) -> None:
    d = _open(qtbot)
    _select(d, "combat")
    grid = d.findChild(QTableWidget, "tablesGrid")
    grid.item(6, 5).setText("XX")  # 5:1, roll 6
    assert not d.save()
    assert "tables.combat.crt.5-1[5]" in d.error.text()
    assert "'XX' is not a result" in d.error.text()
    assert not tables.overrides_path(W40).exists()


def test_issue5_a_table_of_values_is_a_form_and_others_are_toml(qtbot: QtBot) -> None:
    d = _open(qtbot)
    _select(d, "stacking")  # west 2, east 3 [7.4, 7.5]
    assert d.tabs.tabText(0) == "Values"
    _select(d, "turn_record")  # dates, Sov Reinf, replacements: one row per turn [3.2]
    grid = d.findChild(QTableWidget, "tablesGrid")
    assert d.tabs.tabText(0) == "Table" and grid.rowCount() == 11
    _select(d, "supply")  # routes of hexes: text only
    assert [d.tabs.tabText(i) for i in range(d.tabs.count())] == ["TOML"]
    d.text.setPlainText("[tables.supply\n")
    assert "Not valid TOML yet" in d.error.text()


# --- the worker: new games use the player's values, loaded saves keep their own ----------

def _crt_all_de_at_1_1() -> dict[str, Any]:
    t: dict[str, Any] = thaw(gamedata.load_game(W40).definition.tables["combat"])
    t["crt"]["1-1"] = ["DE"] * 6
    return t


def test_issue5_new_game_uses_the_player_file_and_a_save_keeps_its_values(
        qtbot: QtBot, tmp_path: Path) -> None:
    client = EngineClient(autosave_enabled=False)
    try:
        tables.write_overrides(W40, {"combat": _crt_all_de_at_1_1()})
        with qtbot.waitSignal(client.snapshotReady, timeout=60000) as sig:
            client.send(NewGame(W40, "standard", seed=1))
        snap: Snapshot = sig.args[0]
        assert snap.notice is None
        assert tuple(snap.session.game.definition.tables["combat"]["crt"]["1-1"]) == ("DE",) * 6
        path = tmp_path / "mine.wartable.json"
        with qtbot.waitSignal(client.snapshotReady, timeout=60000):
            client.send(Save(path))
        tables.write_overrides(W40, {})  # back to ours
        with qtbot.waitSignal(client.snapshotReady, timeout=60000,
                              check_params_cb=lambda s: s.fresh) as sig:
            client.send(Load(path))
        snap = sig.args[0]
        assert tuple(snap.session.game.definition.tables["combat"]["crt"]["1-1"]) == ("DE",) * 6
        assert snap.notice is not None
        assert snap.notice.startswith("This game uses its own printed values for: CRT")
        # A broken file: the new game says which table is wrong and plays with ours [11.3].
        bad = _crt_all_de_at_1_1()
        bad["crt"]["1-1"][0] = "D E"
        tables.overrides_path(W40).write_text(tables.to_toml({"combat": bad}), encoding="utf-8")
        with qtbot.waitSignal(client.snapshotReady, timeout=60000) as sig:
            client.send(NewGame(W40, "standard", seed=1))
        snap = sig.args[0]
        assert snap.notice is not None and "tables.combat.crt.1-1[0]" in snap.notice
        assert snap.session.game is gamedata.load_game(W40)
    finally:
        client.shutdown()


def test_issue5_the_odds_preview_knows_when_the_crt_is_the_players() -> None:
    tables.write_overrides(W40, {"combat": _crt_all_de_at_1_1()})
    mine = tables.player_tables(W40).game
    assert player_tables_of(mine) == frozenset({"combat"})  # "(your printed CRT)"
    assert player_tables_of(gamedata.load_game(W40)) == frozenset()  # "(provisional CRT)"
