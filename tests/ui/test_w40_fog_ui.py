"""1940: What If? face to face with the fog of war [7.3] (issues 5 and 7): the privacy curtain
at each change of side, and an enemy stack drawn as its top unit over anonymous counters.

Two players: Gerd holds the German side, Sasha the Soviet and Anglo-French (the Allies,
one side of the war [1.3, 4.1]). The set-up is played through the window; the German east
set-up stacks three corps per hex [3.3]. Every set of pieces the window hands to the east
map is recorded, so a hidden unit drawn even once fails the test.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from uihelpers import open_window, set_up, sit, start_game
from wartable.games.whatif1940 import fog, units
from wartable.model.state import Piece
from wartable.ui.mainwindow import MainWindow
from wartable.ui.map.view import MapView

SHOTS = Path(os.environ.get("WARTABLE_SHOTS", "/tmp/w40_fog_shots"))
EAST = "whatif1940/east"


@pytest.fixture
def win(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    """A window whose map views record every set of pieces they are handed."""
    drawn: list[list[Piece]] = []
    original = MapView.set_pieces

    def record(self: MapView, pieces: Any) -> None:
        drawn.append(list(pieces))
        original(self, pieces)

    monkeypatch.setattr(MapView, "set_pieces", record)
    w = open_window(qtbot)
    w.drawn = drawn  # type: ignore[attr-defined]
    yield w
    w.close()


def east_view(win: MainWindow) -> MapView:
    return next(v for v in win.views if v.board is not None and v.board.id == EAST)


def start(win: MainWindow, qtbot: QtBot, fog_on: bool = True, solitaire: bool = False) -> None:
    start_game(win, qtbot, "whatif1940", "standard", {fog.OPTION: fog_on},
               {"german": "Gerd", "soviet": "Sasha", "anglo_french": "Sasha"}, solitaire, 30000)


def german_stacks(win: MainWindow) -> dict[str, list[Piece]]:
    """East-map hexes holding two or more German ground units, in the true state."""
    snap = win.snapshot
    assert snap is not None
    g, st = snap.session.game, snap.session.state
    out: dict[str, list[Piece]] = {}
    for p in st.pieces.values():
        if p.side == "german" and not p.location.startswith("box:") and \
                units.is_ground(g, p) and g.rules.board(g).map_of(p.location) == EAST:
            out.setdefault(p.location, []).append(p)
    return {h: ps for h, ps in out.items() if len(ps) >= 2}


def to_the_allied_set_up(win: MainWindow, qtbot: QtBot) -> None:
    """Sasha sets up the Soviets; Gerd the Germans west and east; the curtain falls."""
    sit(win, qtbot, "Sasha")
    set_up(win, qtbot, "soviet")
    sit(win, qtbot, "Gerd")
    set_up(win, qtbot, "german")
    set_up(win, qtbot, "german")


def test_7_3_curtain_then_the_allies_see_only_the_top_of_each_german_stack(
        win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot)
    to_the_allied_set_up(win, qtbot)
    stacks = german_stacks(win)
    assert stacks, "the German east set-up stacks corps three to a hex [3.3]"
    hidden_ids = set()
    g = win.snapshot.session.game  # type: ignore[union-attr]
    st = win.snapshot.session.state  # type: ignore[union-attr]
    for h, ps in stacks.items():
        top = fog.top_of(st, h, ps)
        hidden_ids |= {p.id for p in ps if p.id != top.id}
    # The change of side: the curtain is down for Sasha and nothing of anyone is drawn.
    assert win.stack.currentWidget() is win.curtain and win.curtain.player == "Sasha"
    assert win.drawn[-1] == []  # type: ignore[attr-defined]
    # Nor does the log show Gerd's private lines (his set-up) to whoever sits next [7.3].
    assert not any("Set up automatically" in t for t in win.log.visible_texts())
    SHOTS.mkdir(parents=True, exist_ok=True)
    win.grab().save(str(SHOTS / "w40_fog_curtain.png"))
    mark = len(win.drawn)  # type: ignore[attr-defined]
    win.map.set_zoom(150)  # other UI events draw nothing behind the curtain
    assert all(d == [] for d in win.drawn[mark:])  # type: ignore[attr-defined]
    sit(win, qtbot, "Sasha")
    # Seated, Sasha reads her own set-up line, never Gerd's.
    mine = [t for t in win.log.visible_texts() if "Set up automatically" in t]
    assert mine and all("[3.2]" in t for t in mine)
    after = win.drawn[mark:]  # type: ignore[attr-defined]
    assert after
    for d in after:
        ids = {p.id for p in d}
        assert not ids & hidden_ids  # never drawn as themselves
    last = after[-1]
    hexes = set(stacks)
    for h, ps in stacks.items():
        here = [p for p in last if p.location == h]
        assert len(here) == len(ps)  # the stack's height shows
        anon = [p for p in here if p.id.startswith(fog.PREFIX)]
        assert len(anon) == len(ps) - 1 and all(p.type == fog.UNKNOWN_TYPE for p in anon)
    # The map's items: the anonymous counters are drawn with the "unknown" type, the top
    # unit as itself.
    h = sorted(hexes)[0]
    view = east_view(win)
    win.map_tabs.setCurrentIndex(win.views.index(view))
    for pid in view.map_scene.stack_at(h):
        item = view.map_scene.piece_items[pid]
        if pid.startswith(fog.PREFIX):
            assert item.piece.type == fog.UNKNOWN_TYPE
            assert item.piece.attrs.get("name") == fog.HIDDEN_NAME
        else:
            assert pid not in hidden_ids
    # Inspecting the stack (a click on it) shows the top and anonymous counters only.
    win.on_stack(h)
    listed = win.inspector.piece_ids()
    assert len(listed) == len(stacks[h]) and not set(listed) & hidden_ids
    texts = [win.inspector.list.item(i).text() + win.inspector.list.item(i).toolTip()
             for i in range(win.inspector.list.count())]
    top = fog.top_of(st, h, stacks[h])
    ut = g.definition.unit_types
    hidden_types = {ut[p.type].name for p in stacks[h] if p.id != top.id} - {ut[top.type].name}
    assert not any(t in x for t in hidden_types for x in texts)
    assert not any(p.id in x for p in stacks[h] if p.id != top.id for x in texts)
    assert sum("Unknown unit type" in x for x in texts) == len(stacks[h]) - 1
    # Hovering says what the hex is, not what is in it.
    assert not any(p.id in view.describe(h) for p in stacks[h])
    shoot(win, qtbot, view, h)


def shoot(win: MainWindow, qtbot: QtBot, view: Any, h: str) -> None:
    """Screenshots of the fogged stack and of the stack inspector, as Sasha sees them."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    view.set_zoom(300)
    view.center_on_location(h)
    qtbot.wait(200)
    view.grab().save(str(SHOTS / "w40_fog_stack.png"))
    win.inspector_dock.setFloating(True)
    win.inspector_dock.resize(420, 300)
    qtbot.wait(100)
    win.inspector_dock.grab().save(str(SHOTS / "w40_fog_inspector.png"))
    win.grab().save(str(SHOTS / "w40_fog_window.png"))


def test_7_3_the_german_sees_his_own_stacks_whole(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot)
    to_the_allied_set_up(win, qtbot)
    stacks = german_stacks(win)
    sit(win, qtbot, "Sasha")
    set_up(win, qtbot, "anglo_french")
    # Turn 1 begins with the German: the curtain falls for Gerd, then his whole stacks show.
    assert win.curtain.player == "Gerd"
    mark = len(win.drawn)  # type: ignore[attr-defined]
    sit(win, qtbot, "Gerd")
    last = win.drawn[-1]  # type: ignore[attr-defined]
    assert len(win.drawn) > mark  # type: ignore[attr-defined]
    ids = {p.id for p in last}
    for ps in stacks.values():
        assert {p.id for p in ps} <= ids
    assert not any(p.id.startswith(fog.PREFIX) and p.side == "german" for p in last)


def test_7_3_fog_off_and_solitaire_show_every_unit(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot, fog_on=False)
    assert win.stack.currentWidget() is win.map_tabs  # no secrets kept: no curtain
    set_up(win, qtbot, "soviet")
    set_up(win, qtbot, "german")
    set_up(win, qtbot, "german")
    assert win.stack.currentWidget() is win.map_tabs
    ids = {p.id for p in win.drawn[-1]}  # type: ignore[attr-defined]
    for ps in german_stacks(win).values():
        assert {p.id for p in ps} <= ids
    assert not any(p.id.startswith(fog.PREFIX) for p in win.drawn[-1])  # type: ignore


def test_7_3_solitaire_plays_in_the_open(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot, fog_on=True, solitaire=True)
    assert win.stack.currentWidget() is win.map_tabs
    set_up(win, qtbot, "soviet")
    set_up(win, qtbot, "german")
    set_up(win, qtbot, "german")
    ids = {p.id for p in win.drawn[-1]}  # type: ignore[attr-defined]
    for ps in german_stacks(win).values():
        assert {p.id for p in ps} <= ids

