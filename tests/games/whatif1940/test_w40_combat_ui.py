"""The prepared-assault odds preview panel [11.3-11.14] (issue 5, "an odds preview while
choosing attackers that shows the raw odds, every shift with its reason and the final
column")."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from test_w40_combat import INF, PZ, RING, TGT, at, base, put, sov
from w40_helpers import game

from wartable.engine.actions import Button
from wartable.engine.loop import prompt
from wartable.engine.session import Session
from wartable.gameui.whatif1940.oddspreview import OddsPreviewPanel


def test_11_3_the_panel_shows_raw_odds_each_shift_the_final_column_and_sends_the_attack(
        qtbot: QtBot) -> None:
    g = game()
    s = sov(put(put(put(base(), PZ[0], RING[0]), PZ[1], RING[3]), INF[0], RING[1]), 1, TGT, 4, 5)
    s = at(s)
    sess = replace(Session.start(g, "standard", seed=1), state=s)
    sent: list[Button] = []
    panel = OddsPreviewPanel(sent.append)
    qtbot.addWidget(panel)
    panel.show_session(sess, prompt(g, s))
    panel.set_target(TGT)
    assert panel.target.currentText() == TGT
    assert set(panel.chosen()) == {PZ[0], PZ[1], INF[0]}
    text = panel.odds.text()
    # 8 + 8 + 5 = 21 against 5: 4:1; concentric (+1) -> 5:1.
    assert "Raw odds 21:5 → <b>4:1</b>" in text
    assert "+1 concentric attack [11.10]" in text
    assert "Final column: <b>5:1</b>" in text and "provisional CRT" in text
    panel.attackers.item(0).setCheckState(Qt.CheckState.Unchecked)
    assert len(panel.chosen()) == 2
    panel.attack.click()
    assert sent and sent[0].id == "attack" and sent[0].args["target"] == TGT
    assert len(sent[0].args["attackers"]) == 2
