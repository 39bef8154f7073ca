"""Position sheets: a saved game's units where they stand, hidden information left out."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from testgame.rules import SkirmishRules
from wartable.core.frozen import FrozenMap
from wartable.engine.randomplay import play_random
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.model.state import GameState
from wartable.persistence.gamedata import load_game
from wartable.persistence.savefile import load_from_path, save_to_path
from wartable.printing.output import write_document
from wartable.printing.page import Page, PageSetup
from wartable.printing.position_sheet import (
    build_position_sheet,
    position_document,
    visible_pieces,
)

LOW = PageSetup(dpi=40)


def drawn(doc: object) -> list[str]:
    out = []
    n = doc.page_count()  # type: ignore[attr-defined]
    for i in range(n):
        page = Page(doc.setup, i + 1, n)  # type: ignore[attr-defined]
        doc.draw_page(i, page)  # type: ignore[attr-defined]
        out.extend(t.text for t in page.texts)
    return out


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Session:
    """A game played for a while, saved and loaded back."""
    s = Session.start(load_game("skirmish"), "meeting", seed=7)
    s = play_random(s, 7, max_actions=40).session
    path = tmp_path_factory.mktemp("saves") / "game.wartable.json"
    save_to_path(s, path, "2026-01-01T00:00:00+00:00")
    return load_from_path(path)


def test_a_saved_game_lists_every_unit_where_it_stands(saved: Session) -> None:
    game, state = saved.game, saved.state
    sheet = build_position_sheet(game, state, actions=len(saved.log))
    got = sorted((p.piece.id, p.piece.location) for p in sheet.pieces())
    assert got == sorted((p.id, p.location) for p in state.pieces.values())
    assert sheet.turn == state.turn and sheet.step == game.position(state).label
    assert sheet.hidden_left_out == 0 and sheet.visibility == "public"
    for mp in sheet.maps:
        for g in mp.groups:
            assert all(p.piece.location == g.where.raw for p in g.pieces)
    # Per side: on-map and off-map counts add up to the side's units.
    for s in sheet.sides:
        total = s.on_map + sum(n for _, n in s.in_boxes)
        assert total == sum(1 for p in state.pieces.values() if p.side == s.side_id)
    text = " ".join(drawn(position_document(game, state, setup=LOW, actions=len(saved.log))))
    for p in state.pieces.values():
        assert str(p.attrs["name"]) in text
        label = "Eliminated units" if p.location == "box:eliminated" else p.location
        assert label in text
    assert f"position on turn {state.turn}" in text and game.position(state).step.name in text


class SecretRules(SkirmishRules):
    """Hidden information for the test: a piece with attr "secret" is seen by its own side
    only; the top unit of a stack tells how many are hidden (as the test game's fog does)."""

    def view(self, game: Game, state: GameState, side: str | None) -> GameState:
        if side is None:
            return state
        pieces = dict(state.pieces)
        for pid, p in state.pieces.items():
            if p.side != side and p.attrs.get("secret"):
                del pieces[pid]
                others = [q for q in state.pieces_at(p.location) if q.id in pieces]
                if others:
                    top = others[0]
                    pieces[top.id] = top.with_attr("hidden_count",
                                                   pieces[top.id].attrs.get("hidden_count", 0) + 1)
        return replace(state, pieces=FrozenMap(pieces))


def secret_game() -> tuple[Game, GameState]:
    base = load_game("skirmish")
    game = Game(base.definition, SecretRules(), base.maps)
    state = Session.start(base, "contact", seed=1).state
    hid = state.piece("red.infantry.2")
    state = state.with_piece(replace(hid, location="1105", attrs=hid.attrs.set("secret", True)))
    return game, state


def test_hidden_units_are_left_out_unless_asked_for() -> None:
    game, state = secret_game()
    public, what = visible_pieces(game, state)
    assert what == "public" and "red.infantry.2" not in public and len(public) == 3
    assert public["red.infantry.1"].attrs["hidden_count"] == 1  # as Blue sees the stack
    red, who = visible_pieces(game, state, viewer="RED")
    assert who == "Red" and set(red) == set(state.pieces)
    blue, _ = visible_pieces(game, state, viewer="blue")
    assert set(blue) == set(public)
    everything, what = visible_pieces(game, state, reveal=True)
    assert what == "all" and everything == dict(state.pieces)

    sheet = build_position_sheet(game, state)
    assert sheet.hidden_left_out == 1
    text = " ".join(drawn(position_document(game, state, setup=LOW)))
    assert "22nd Rifle" not in text and "21st Rifle" in text
    assert "+1 hidden unit under it" in text and "1 unit hidden from an opponent" in text
    shown = " ".join(drawn(position_document(game, state, reveal=True, setup=LOW)))
    assert "22nd Rifle" in shown and "hidden information included" in shown


def test_side_status_and_game_values() -> None:
    game = load_game("skirmish")
    state = Session.start(game, "contact", seed=1).state
    dead = state.piece("blue.infantry.1")
    state = state.with_piece(replace(dead, location="box:eliminated"))
    state = replace(state, vars=FrozenMap({"ipc": FrozenMap({"blue": 30, "red": 24}),
                                           "red_morale": "shaken", "weather": "mud",
                                           "big": FrozenMap({"x": FrozenMap({"y": 1})})}))
    sheet = build_position_sheet(game, state)
    blue, red = sheet.sides
    assert blue.on_map == 1 and blue.in_boxes == (("Eliminated units", 1),)
    assert ("ipc", "30") in blue.values and ("morale", "shaken") in red.values
    assert sheet.game_values == (("weather", "mud"),)
    text = " ".join(drawn(position_document(game, state, setup=LOW)))
    assert "Eliminated units: 1" in text and "ipc: 24" in text and "mud" in text


def test_position_pdf(tmp_path: Path, saved: Session) -> None:
    doc = position_document(saved.game, saved.state)
    out = write_document(doc, tmp_path / "pos.pdf")
    assert out.pages == doc.page_count() >= 1
    assert max(out.page_bytes) < 2 * 1024 * 1024


def test_a_side_under_fog_prints_hidden_units_as_blank_counters() -> None:
    """1940 [7.3]: under fog of war the German sees only the top unit of an enemy stack; the
    units beneath reach the sheet as pieces of no known type. The map picture draws them as
    blank counters and the list says nothing of them but that they are there."""
    s = Session.start(load_game("whatif1940"), "standard", seed=1)
    s = play_random(s, 1, max_actions=3000, until=lambda x: x.state.turn >= 2,
                    check=False).session
    game, state = s.game, s.state
    sheet = build_position_sheet(game, state, viewer="german")
    lines = [pl for pl in sheet.pieces()]
    blank = [pl for pl in lines if pl.piece.type not in game.definition.unit_types]
    assert blank, "no stack hides a unit: the case is not exercised"
    hidden_ids = {pl.piece.id for pl in blank}
    for pl in blank:
        assert pl.values == "" and pl.piece.side != "german"
        real = state.pieces.get(pl.piece.id)
        if real is not None:  # the hidden unit's own name and values are never printed
            assert real.type not in pl.type_name
    doc = position_document(game, state, viewer="german", setup=PageSetup(dpi=30),
                            sheet=sheet)
    text = " ".join(drawn(doc))  # draws every page, map pictures included
    assert "German" in text and hidden_ids


def test_aa_position_sheet_shows_ipcs_in_words_and_no_bookkeeping() -> None:
    """A&A 1941 at the start: the sheet names each power's treasury (pg. 8: Germany starts
    with 31 IPCs, the United Kingdom 43) and leaves out the turn order, running totals and
    battle records, which are the rules' bookkeeping ([[state_notes]] in game.toml)."""
    game = load_game("aa_anniversary")
    state = Session.start(game, "1941", seed=1).state
    sheet = build_position_sheet(game, state)
    by_side = {s.side_id: dict(s.values) for s in sheet.sides}
    assert by_side["germany"]["IPCs in the treasury"] == "31"
    assert by_side["uk"]["IPCs in the treasury"] == "43"
    assert sheet.game_values == ()
    text = " ".join(drawn(position_document(game, state, setup=LOW, map_pictures=False)))
    for bookkeeping in ("turn order", "bought total", "initial units", "germany, ussr"):
        assert bookkeeping not in text


def test_1940_position_sheet_reads_neutrals_in_words() -> None:
    """1940 [3.6]: Belgium's state is printed as the rule says it, not as the variable."""
    game = load_game("whatif1940")
    state = Session.start(game, "standard", seed=1).state
    state = state.with_var("belgium", "frozen").with_var("ploesti_captured", True)
    sheet = build_position_sheet(game, state)
    values = dict(sheet.game_values)
    assert values["Belgium [3.6]"] == "frozen in its set-up hexes"
    assert values["Holland [3.6]"] == "neutral"
    assert values["Ploesti captured [6.10]"] == "yes"
    assert not any("piece" in k or "ever" in k or "untried" in k for k in values)
