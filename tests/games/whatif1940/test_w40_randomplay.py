"""Random legal play through the set-up and the first turns, with the invariants checked
after every action (stacking, maps and areas, unit conservation), and the registered game
driven by `wartable selfplay`."""

from __future__ import annotations

import pytest
from w40_helpers import game

from wartable.engine.randomplay import play_random
from wartable.engine.session import Session

TURNS = 2


@pytest.mark.parametrize("seed", range(20))
def test_random_play_through_setup_and_two_turns_keeps_the_invariants(seed: int) -> None:
    g = game()
    rep = play_random(Session.start(g, "standard", seed=seed), seed,
                      until=lambda s: s.state.turn > TURNS)
    assert rep.problems == ()
    st = rep.session.state
    assert st.result is None and st.turn == TURNS + 1
    moved = [e for e in rep.session.events if e.kind == "move"]
    assert moved, "random play should have moved units"
    assert g.rules.invariants(g, st) == []


def test_random_play_with_the_variant_setup() -> None:
    g = game()
    from wartable.core.frozen import FrozenMap

    s = Session.start(g, "standard", FrozenMap(variant_lithuania=True), seed=7)
    rep = play_random(s, 7, until=lambda x: x.state.turn > 1)
    assert rep.problems == ()


def test_the_game_registers_and_selfplays(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from wartable import cli
    from wartable.games import registry
    from wartable.persistence import gamedata

    # A built-in game: the registry lists it; its maps load from the installed map data
    # or, in a source checkout, from the top-level maps/ folder.
    mod = registry.get("whatif1940")
    assert (mod.title, mod.data_package, mod.map_package) == (
        "1940: What If?", "wartable.games.whatif1940.data", "wartable.mapdata.whatif1940")
    assert type(mod.rules()).__name__ == "WhatIf1940Rules"
    monkeypatch.setattr(gamedata, "_cache", {})
    rc = cli.main(["selfplay", "whatif1940", "standard", "--rounds", "2", "--seed", "5"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "1 games, 0 with invariant problems" in out


def test_the_invariants_can_fail() -> None:
    """Each invariant must be able to catch what it guards."""
    from dataclasses import replace

    from w40_helpers import put, ready

    g = game()
    s = ready()
    inf = sorted(p.id for p in s.pieces.values() if p.type == "ger_infantry")
    bad = put(put(put(s, inf[0], "1905"), inf[1], "1905"), inf[2], "1905")
    assert any("stacking at 1905" in x for x in g.rules.invariants(g, bad))
    assert any("outside its west-map limits" in x
               for x in g.rules.invariants(g, put(s, inf[0], "1003")))
    sov = next(p.id for p in s.pieces.values() if p.type == "sov_regular")
    assert any("Soviet unit on the west map" in x
               for x in g.rules.invariants(g, put(s, sov, "1003")))
    assert any("neither a hex nor a box" in x
               for x in g.rules.invariants(g, put(s, sov, "box:nowhere")))
    gone = replace(s, pieces=s.pieces.remove(sov))
    assert any("unit conservation" in x for x in g.rules.invariants(g, gone))


def test_a_saved_game_replays_to_the_same_position() -> None:
    """State values round-trip through a save file and replay is deterministic."""
    from wartable.persistence.savefile import dump_save, load_save

    g = game()
    rep = play_random(Session.start(g, "standard", seed=11), 11,
                      until=lambda s: s.state.turn > 1)
    data = dump_save(rep.session, "2026-01-01T00:00:00+00:00")
    again = load_save(data, "test.wartable", load_game=lambda gid: g)
    assert again.state == rep.session.state
