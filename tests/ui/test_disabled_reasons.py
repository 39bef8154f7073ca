"""The side panel says in words why its greyed buttons wait (a tooltip needs a mouse, and
table mode is often played by touch): A&A Amphibious Assaults, 1. Sea combat (pg. 17)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from uihelpers import open_window
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP, Action, Button, Prompt
from wartable.engine.session import Session
from wartable.persistence.gamedata import load_game
from wartable.persistence.savefile import save_to_path
from wartable.ui.sidepanel import disabled_reasons
from wartable.worker.commands import Load


def _assault_waiting_for_its_sea_battle() -> Session:
    """Germany, 1941 turn 1: an infantry boards in Sea Zone 5, the cruiser and the transport
    sail to Sea Zone 6 (a British destroyer), the infantry is to land in the U.K."""
    s = Session.start(load_game("aa_anniversary"), "1941", FrozenMap(), seed=1,
                      dice_mode="physical")
    s = s.submit(Action(END_STEP, "germany"))
    for piece, to in (("germany.infantry.10", "sz05"), ("germany.cruiser.1", "sz06"),
                      ("germany.transport.1", "sz06"), ("germany.infantry.10", "united_kingdom")):
        s = s.submit(Action.make("move", "germany", piece=piece, to=to))
    return s.submit(Action(END_STEP, "germany"))


def test_pg17_the_panel_says_why_the_landing_waits_for_the_sea_battle(
        qtbot: QtBot, tmp_path: Path) -> None:
    path = tmp_path / "assault.wartable.json"
    save_to_path(_assault_waiting_for_its_sea_battle(), path, "2026-01-01T00:00:00+00:00")
    w = open_window(qtbot)
    try:
        with qtbot.waitSignal(w.client.snapshotReady, timeout=30000,
                              check_params_cb=lambda s: s.fresh):
            w.client.send(Load(path))
        panel = w.side
        uk = panel.button_for("fight")  # the first fight button: Sea Zone 6
        assert uk is not None and uk.text() == "Fight in Sea Zone 6" and uk.isEnabled()
        greyed = [b.text() for b in panel.buttons if not b.isEnabled()]
        assert greyed == ["Fight in United Kingdom", "End step"]
        lines = panel.why_disabled.text().splitlines()
        assert panel.why_disabled.isVisibleTo(w)
        assert lines[0].startswith("Fight in United Kingdom: Fight the sea battle in Sea Zone 6 "
                                   "first [Amphibious Assaults (pg. 17): 1. Sea combat]")
        assert lines[1] == "End step: Resolve every battle first: Sea Zone 6, United Kingdom"
    finally:
        w.close()


def test_one_line_per_reason_naming_every_button_it_holds_back() -> None:
    wait = "Decide the strategic bombing raids first"
    p = Prompt("germany", "Conduct Combat", buttons=(
        Button("fight", "Fight in A", enabled=False, reason=wait),
        Button("fight", "Fight in B", enabled=False, reason=wait),
        Button("raid", "Raid C"),
        Button("end_step", "End step", enabled=False, reason="Resolve every battle first")))
    assert disabled_reasons(p).splitlines() == [
        f"Fight in A, Fight in B: {wait}", "End step: Resolve every battle first"]
    # While another side decides, the buttons are greyed for that reason alone.
    assert disabled_reasons(Prompt("germany", "Waiting", buttons=p.buttons,
                                   waiting=True)) == ""
