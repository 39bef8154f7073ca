"""Game > Hint while a roll is asked for (physical dice, issue 7): what the roll decides and
its chances. Each game is brought to a real dice prompt by real play, saved, and opened in
the window; nothing is rolled by asking.

Axis & Allies, 1941: 2 infantry, 1 artillery and 1 tank from Poland attack the 2 Soviet
infantry in East Poland (1941 set-up chart); Conduct Combat asks for the round's 6 dice.
By hand (General Combat, pg. 18; Unit Profiles, pg. 24: infantry attack 1, 2 when matched
with artillery; artillery 2; tank 3; infantry defend 2):
  attacker: 1 die at 1, 2 dice at 2, 1 die at 3:
    P(no hit) = 5/6 * (4/6)^2 * 3/6 = 80/432 = 0.185 -> 81% at least one hit,
    expected 1/6 + 2*2/6 + 3/6 = 8/6 = 1.33 hits; P(4 hits) = 1/6*(2/6)^2*3/6 = 0.9%;
  defender: 2 dice at 2: P(no hit) = (4/6)^2 = 16/36 -> 56% at least one, 0.67 expected;
    exactly 2 hits (2/6)^2 = 11%.

1940: What If?, turn 1: the East Front Surprise Table [5.5] is a single d6; the hint lists
each face's result as the game's data table prints it (read here from fronts.toml).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from uihelpers import open_window
from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP, Action
from wartable.engine.session import Session
from wartable.model.values import freeze
from wartable.persistence.gamedata import load_game
from wartable.persistence.savefile import save_to_path
from wartable.ui.mainwindow import MainWindow
from wartable.worker.commands import Load

GAMES = Path(__file__).resolve().parents[2] / "desktop" / "wartable" / "games"
SHOTS = Path(os.environ.get("WARTABLE_SHOTS", "/tmp/wartable-shots"))
ATTACKERS = ("germany.infantry.16", "germany.infantry.17", "germany.artillery.4",
             "germany.armour.7")


def _aa_combat_roll() -> Session:
    s = Session.start(load_game("aa_anniversary"), "1941", FrozenMap(), seed=1,
                      dice_mode="physical")
    s = s.submit(Action(END_STEP, "germany"))  # no purchase
    for pid in ATTACKERS:
        s = s.submit(Action.make("move", "germany", piece=pid, to="east_poland"))
    s = s.submit(Action(END_STEP, "germany"))
    s = s.submit(Action.make("fight", "germany", space="east_poland"))
    assert s.prompt().dice is not None and s.prompt().dice.count == 6  # type: ignore[union-attr]
    return s


def _w40_surprise_roll() -> Session:
    """Turn 1 of the standard game, solitaire (no curtain), physical dice: both set-ups made
    automatically, each step ended, up to the East Front Surprise roll [5.5]."""
    g = load_game("whatif1940")
    s = Session.start(g, "standard", freeze({"table.solitaire": True}), seed=1,
                      dice_mode="physical")
    done: set[str] = set()
    for _ in range(100):
        p = s.prompt()
        if p.dice is not None:
            assert p.dice.purpose == "East Front Surprise Table"
            return s
        pos = g.position(s.state)
        if pos.step.kind == "setup" and pos.step.id not in done:
            s = s.submit(Action("auto_setup", p.side))
            done.add(pos.step.id)
            continue
        # End the step, or make its first offered choice (the east order [5.3]).
        for a in [Action(END_STEP, p.side)] + [Action(b.id, p.side, b.args)
                                               for b in p.buttons if b.enabled]:
            try:
                s = s.submit(a)
                break
            except IllegalAction:
                continue
    raise AssertionError("no dice prompt on turn 1")


def _open(qtbot: QtBot, session: Session, tmp_path: Path) -> MainWindow:
    path = tmp_path / "roll.wartable.json"
    save_to_path(session, path, "2026-01-01T00:00:00+00:00")
    w = open_window(qtbot)
    with qtbot.waitSignal(w.client.snapshotReady, timeout=30000,
                          check_params_cb=lambda s: s.fresh):
        w.client.send(Load(path))
    return w


def _hint(qtbot: QtBot, w: MainWindow) -> list[str]:
    assert w.snapshot is not None and w.snapshot.prompt.dice is not None
    assert w.bot.act_hint is not None and w.bot.act_hint.isEnabled()
    n = len(w.snapshot.session.log)
    w.bot.act_hint.trigger()
    qtbot.waitUntil(lambda: w.bot.last_dice_hint is not None, timeout=30000)
    hint = w.bot.last_dice_hint
    assert hint is not None
    assert hint.title in w.bot.panel.text.toPlainText()
    assert w.bot.dock.isVisible()
    assert w.snapshot is not None and len(w.snapshot.session.log) == n  # nothing rolled
    return [hint.title, *hint.lines]


def _shot(w: MainWindow, name: str) -> None:
    w.bot.dock.raise_()
    for _ in range(3):
        QApplication.processEvents()
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert w.grab().save(str(SHOTS / name))


def test_hint_at_an_aa_battle_roll_gives_each_sides_chances(qtbot: QtBot,
                                                             tmp_path: Path) -> None:
    w = _open(qtbot, _aa_combat_roll(), tmp_path)
    try:
        title, *lines = _hint(qtbot, w)
        assert title.startswith("Combat round in East Poland: roll 6d6")
        attacker, defender = lines
        who, _, attacker = attacker.partition("): ")
        assert who.startswith("Attacker (") and sorted(who[10:].split(", ")) == [
            "1 Artillery", "1 Tank", "2 Infantry"]
        assert attacker.startswith("1 die at 1, 2 dice at 2, 1 die at 3")
        assert "81% at least one hit" in attacker and "1.33 hits expected" in attacker
        assert "4: 1%" in attacker
        assert defender.startswith("Defender (2 Infantry): 2 dice at 2")
        assert "56% at least one hit" in defender and "0.67 hits expected" in defender
        assert "2: 11%" in defender
        _shot(w, "dice_hint_aa.png")
    finally:
        w.close()


def test_hint_at_the_east_front_surprise_roll_lists_each_face(qtbot: QtBot,
                                                               tmp_path: Path) -> None:
    """[5.5] Each face's result, as the data table gives it, and marked provisional (the
    table is not printed in the rules)."""
    doc = tomllib.loads((GAMES / "whatif1940" / "data" / "fronts.toml").read_text("utf-8"))
    bands = doc["tables"]["east_front_surprise"]["bands"]
    w = _open(qtbot, _w40_surprise_roll(), tmp_path)
    try:
        title, *lines = _hint(qtbot, w)
        assert title == "East Front Surprise Table: roll 1d6 [5.5] (provisional table)"
        rows = lines[1:]
        assert len(rows) == len(bands) == 5
        for row, band in zip(rows, bands, strict=True):
            faces = 2 if "-" in band["roll"] else 1
            assert row == f"{band['roll']} ({round(100 * faces / 6)}%): {band['text']}"
        _shot(w, "dice_hint_w40.png")
    finally:
        w.close()


def test_the_hint_does_not_change_the_roll_to_come() -> None:
    """The faces are tried on copies: the session still asks for the same roll."""
    from wartable.ui.dicehint import dice_hint

    s = _w40_surprise_roll()
    before = s.state
    assert dice_hint(s) is not None
    assert s.state is before and s.prompt().dice is not None
    try:
        s.submit(Action.make("dice", "german", values=(3,)))
    except IllegalAction as e:  # pragma: no cover - the failure itself
        raise AssertionError(e) from e


def test_11_3_hint_at_a_crt_roll_lists_each_faces_result() -> None:
    """[11.3] A German prepared assault: 3 corps against one Soviet regular on open ground
    (the set-up of tests/games/whatif1940/test_w40_combat.py). The hint lists the CRT row
    of the column the roll is made on, as our provisional combat.toml prints it, with the
    results named as in [11.15-11.20]."""
    import re
    import sys

    sys.path.insert(0, str(GAMES.parents[2] / "tests" / "games" / "whatif1940"))
    import test_w40_combat as w40

    from wartable.ui.dicehint import dice_hint

    s = w40.sov(w40.base(), 1, w40.TGT)
    for i in range(3):
        s = w40.put(s, w40.INF[i], w40.RING[i])
    s = w40.attack(w40.at(s), w40.TGT, w40.INF[:3])
    hint = dice_hint(Session(w40.G, "standard", s.options, 1, "physical", s))
    assert hint is not None
    m = re.search(r"\((\d):(\d)\): roll 1d6 \[11\.3\] \(provisional table\)$", hint.title)
    assert m is not None, hint.title
    doc = tomllib.loads((GAMES / "whatif1940" / "data" / "combat.toml").read_text("utf-8"))
    crt = doc["tables"]["combat"]["crt"][f"{m[1]}-{m[2]}"]
    faces: dict[str, list[int]] = {}
    for face, result in enumerate(crt, 1):
        faces.setdefault(result, []).append(face)
    legend = [r for r in hint.lines[1:] if " = " in r]
    rows = [r for r in hint.lines[1:] if r[0].isdigit()]
    assert len(rows) == len(faces)  # the row's results are in runs of faces
    for row in rows:
        span, _, rest = row.partition(" (")
        result = rest.partition("): ")[2].split()[0]
        lo, _, hi = span.partition("-")
        assert list(range(int(lo), int(hi or lo) + 1)) == faces[result], row
    # Under the faces, what each result of this row does, worded as combat.toml words it
    # [11.15-11.20]; no DL1, which only a German defender may choose [11.19].
    meaning = doc["tables"]["combat"]["legend"]
    assert legend == [f"{code} = {meaning[code]}" for code in meaning if code in faces]
    assert hint.lines[-len(legend) - 1] == "What the results do:"
