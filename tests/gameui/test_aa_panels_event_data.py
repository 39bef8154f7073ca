"""The A&A panels read each event's data (Event.data), never its wording (issue 14): every
log line of a played session is reworded and each panel shows exactly what it showed before.
"""

from __future__ import annotations

from dataclasses import replace

from pytestqt.qtbot import QtBot
from test_aa_play_panels import _germany_turn, _to_combat

from wartable.engine.actions import DICE, Action
from wartable.engine.session import Session
from wartable.gameui.aa_anniversary.battleboard import BattleBoard
from wartable.gameui.aa_anniversary.battlerecord import battle_start
from wartable.gameui.aa_anniversary.turnsummary import summarize, summary_html


def reworded(s: Session) -> Session:
    """The same session with every log line's text replaced (the data kept)."""
    return replace(s, events=tuple(replace(e, text=f"Reworded line {i}: {e.text[::-1]}")
                                   for i, e in enumerate(s.events)))


def _board_text(qtbot: QtBot, s: Session) -> tuple[str, ...]:
    board = BattleBoard()
    qtbot.addWidget(board)
    board.show_session(s, s.prompt())
    return (board.heading.text(), board.dice.text(), board.att_lost.text(),
            board.def_lost.text(), *(r.title + r.summary for r in board._record))


def test_order_of_play_turn_summary_reads_event_data_not_wording() -> None:
    s = _germany_turn(objectives=True)
    before = [summary_html(t) for t in summarize(s)]
    assert "Battle in East Poland won" in before[0] and "2 Infantry" in before[0]  # premise
    assert [summary_html(t) for t in summarize(reworded(s))] == before


def _default_casualties(s: Session) -> Session:
    p = s.prompt()
    return s.submit(Action(p.buttons[0].id, p.side, p.buttons[0].args))


def test_general_combat_board_reads_event_data_not_wording(qtbot: QtBot) -> None:
    """Mid-battle (a round rolled, casualties to choose), after a round's casualties (the
    units lost so far), and once the battle is won."""
    s = _to_combat()
    s = s.submit(Action.make("fight", "germany", space="east_poland"))
    won = s.submit(Action.make(DICE, "germany", values=(1, 1, 1, 1, 6, 6)))
    mid = _board_text(qtbot, won)
    assert "<b>Round 1</b> <i>(attacker scores 4, defender 0)</i>" in mid[1]  # premise
    assert _board_text(qtbot, reworded(won)) == mid
    won = _default_casualties(won)  # the USSR's two infantry: the battle is won
    after = _board_text(qtbot, won)
    assert after[0] == "Battle in East Poland won"  # premise
    assert _board_text(qtbot, reworded(won)) == after
    # One hit each (the tank's 1, the defender's 1): both choose, the battle goes on.
    s = s.submit(Action.make(DICE, "germany", values=(6, 6, 6, 1, 1, 6)))
    s = _default_casualties(_default_casualties(s))
    lost = _board_text(qtbot, s)
    assert lost[2] == lost[3] == "Lost so far: Infantry"  # premise
    assert _board_text(qtbot, reworded(s)) == lost


def test_general_combat_record_finds_the_battle_by_its_data() -> None:
    s = _to_combat()
    s = s.submit(Action.make("fight", "germany", space="east_poland"))
    start = battle_start(s.events)
    assert start >= 0 and s.events[start].data["space"] == "east_poland"
    assert battle_start(reworded(s).events) == start


def test_general_combat_lost_so_far_keeps_the_last_rounds_losses_when_the_battle_ends(
        qtbot: QtBot) -> None:
    """East Poland, round 1: the attacker's dice (at 1, 2, 2, 3) all hit, the defender's
    two dice at 2 roll 1 and 6: one hit. The USSR loses both infantry, Germany one unit, and
    the battle is over (Step 6, Condition A). The board's "Lost so far" lists both sides'
    losses of that last round; it used to say "none" for the attacker once the battle ended.
    The log files Germany's loss under Step 4 (pg. 19: the attacker "removes it from play")
    and the Soviet losses under Step 5."""
    s = _to_combat()
    s = s.submit(Action.make("fight", "germany", space="east_poland"))
    s = s.submit(Action.make(DICE, "germany", values=(1, 1, 1, 1, 1, 6)))
    s = _default_casualties(_default_casualties(s))  # the USSR's, then Germany's
    assert s.state.var("battle") is None  # premise: the battle is over
    text = _board_text(qtbot, s)
    assert text[0] == "Battle in East Poland won"
    assert text[2] == "Lost so far: Infantry"
    assert text[3] == "Lost so far: Infantry, Infantry"
    gone = [e for e in s.events if e.kind == "combat" and e.data.get("how") == "destroyed"]
    assert sorted((e.side, e.rule.split(":")[0]) for e in gone) == [
        ("germany", "General Combat, Step 4"), ("ussr", "General Combat, Step 5"),
        ("ussr", "General Combat, Step 5")]
