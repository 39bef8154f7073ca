"""The strong A&A bot's Axis play (issue 7): Japan holds its victory cities on the Asian
mainland. Transports carry land units from Japan to a threatened own victory city and offload
them in Noncombat Move (Phase 5, pg. 21: transports load, move and offload in Noncombat
Move), empty transports sail back to the factory where land units wait, aircraft land first
where the enemy's attack is most likely to win (Air Units, pg. 26), and a new fighter is
placed on a new carrier (Mobilize New Units, pg. 22). The situations are set up at Japan's
Noncombat Move (or Mobilize) of 1941 with only the test's units (plus the starting land units
of the other powers)."""

from __future__ import annotations

from dataclasses import replace

from aa_helpers import game

from wartable.core.frozen import FrozenMap
from wartable.core.rng import Rng
from wartable.engine.session import Session
from wartable.games.aa_anniversary.bot import choose_action, explained_action
from wartable.games.aa_anniversary.bot_fast import step_kind
from wartable.games.aa_anniversary.bot_strong import common, noncombat, placement
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    controller,
    set_control,
    world,
)
from wartable.model.state import GameState, Piece


def _japan_noncombat(seed: str, step: str = "noncombat_move") -> Session:
    """The fast bot plays Germany and the Soviet Union (and Japan up to `step`); stops at
    Japan's Noncombat Move (or `step`)."""
    g = game()
    s = Session.start(g, "1941", seed=seed)
    rng = Rng.from_seed(seed)
    for _ in range(5000):
        st = s.state
        if st.active_side == "japan" and step_kind(g, st) == step and not st.frames:
            return s
        a, rng = choose_action(s, rng)
        s = s.submit(a)
    raise AssertionError(f"Japan's {step} not reached")


def _only_test_units(st: GameState) -> GameState:
    """Japan's units and every sea and air unit removed (factories stay)."""
    for p in list(st.pieces.values()):
        if p.location == MOBILIZATION or p.type == "factory":
            continue
        if p.side == "japan" or p.type in ("fighter", "bomber") or p.location in world(
                game()).sea:
            st = st.without_piece(p.id)
    return st


def _add(st: GameState, prefix: str, unit: str, side: str, where: str, n: int) -> GameState:
    for i in range(n):
        st = st.with_piece(Piece(f"{prefix}{i}", unit, side, where))
    return st


def test_ncm_pg21_transports_carry_infantry_from_japan_to_threatened_kiangsu() -> None:
    """Phase 5 (pg. 21), Transports (pg. 31): Kiangsu (a Japanese victory city) holds one
    infantry against six Chinese infantry next door in Fukien; four infantry wait in Japan,
    two empty transports lie in Sea Zone 62 next to it, one move from Sea Zone 61 next to
    Kiangsu. No land unit reaches Kiangsu by land, so the bot boards the four, sails to Sea
    Zone 61 and offloads them into Kiangsu in the same Noncombat Move; the engine takes the
    plan in order and the reason names Kiangsu."""
    g = game()
    w = world(g)
    assert "sz61" in w.neighbors["kiangsu"] and "sz62" in w.neighbors["japan"]
    assert "sz61" in w.neighbors["sz62"]
    s = _japan_noncombat("axis1")
    st = _only_test_units(s.state)
    assert controller(st, "kiangsu") == "japan"
    st = _add(st, "test.kg", "infantry", "japan", "kiangsu", 1)
    st = _add(st, "test.cn", "infantry", "china", "fukien", 6)
    st = _add(st, "test.jp", "infantry", "japan", "japan", 4)
    st = _add(st, "test.tr", "transport", "japan", "sz62", 2)
    s = replace(s, state=st)
    assert common.threat(g, st, "japan", "kiangsu") > common.DEFEND_P  # premise
    plan = noncombat.plan_noncombat(g, st, s.prompt("japan"), None)
    moves = [(str(x.action.args.get("piece")), str(x.action.args.get("to"))) for x in plan]
    assert [m for m in moves if m[0].startswith("test.jp")][-4:] == [
        (f"test.jp{i}", "kiangsu") for i in range(4)], moves
    assert ("test.tr0", "sz61") in moves and ("test.tr1", "sz61") in moves, moves
    assert any("Kiangsu" in x.reason and "Transports carry" in x.reason for x in plan)
    for x in plan:  # the engine takes the whole plan in order
        s = s.submit(x.action)
    there = [q.id for q in s.state.pieces_at("kiangsu") if q.side == "japan"]
    assert sorted(there) == ["test.jp0", "test.jp1", "test.jp2", "test.jp3", "test.kg0"]
    assert common.threat(g, s.state, "japan", "kiangsu") <= 0.5


def test_ncm_pg26_fighters_land_first_where_the_enemy_attack_is_likeliest_to_win() -> None:
    """Air Units (pg. 26): two fighters in Manchuria may land in Kiangsu (one infantry) or
    Kwangtung (Japanese since the turn began, two infantry); six Chinese infantry in Fukien
    threaten both, Kiangsu more. The first fighter lands in Kiangsu, where the enemy's
    attack is likeliest to win; the next goes where the odds are then worst."""
    g = game()
    s = _japan_noncombat("axis2")
    st = _only_test_units(s.state)
    st = set_control(st, "kwangtung", "japan")  # held since the turn began:
    st = st.with_var("captured", tuple(x for x in st.var("captured", ()) if x != "kwangtung"))
    for p in st.pieces_at("kwangtung"):
        st = st.without_piece(p.id)
    st = _add(st, "test.kg", "infantry", "japan", "kiangsu", 1)
    st = _add(st, "test.kw", "infantry", "japan", "kwangtung", 2)
    st = _add(st, "test.cn", "infantry", "china", "fukien", 6)
    st = _add(st, "test.f", "fighter", "japan", "manchuria", 2)
    s = replace(s, state=st)
    p_kiangsu = common.threat(g, st, "japan", "kiangsu")
    p_kwangtung = common.threat(g, st, "japan", "kwangtung")
    assert p_kiangsu > p_kwangtung > common.DEFEND_P, (p_kiangsu, p_kwangtung)  # premise
    p = s.prompt("japan")
    assert all(d in p.moves["test.f0"] for d in ("kiangsu", "kwangtung"))
    plan = noncombat.plan_noncombat(g, st, p, None)
    lands = [str(x.action.args.get("to")) for x in plan
             if str(x.action.args.get("piece")).startswith("test.f")]
    assert lands and lands[0] == "kiangsu", lands
    after = common.threat(g, st, "japan", "kiangsu", extra=["fighter"])
    assert lands[1] == ("kiangsu" if after > p_kwangtung else "kwangtung"), (lands, after)


def test_ncm_pg21_empty_transports_sail_back_to_the_factory_where_infantry_waits() -> None:
    """Phase 5 (pg. 21), Transports (pg. 31): two empty transports two sea moves from Sea
    Zone 62 (the only zone next to Japan, Japan's factory), four infantry waiting in Japan:
    the transports sail back to Sea Zone 62 to pick them up next turn."""
    g = game()
    w = world(g)
    s = _japan_noncombat("axis3")
    st = _only_test_units(s.state)
    far = common.sea_distances(g, ["sz62"])
    z = next(x for x in sorted(far) if far[x] == 2)
    st = _add(st, "test.jp", "infantry", "japan", "japan", 4)
    st = _add(st, "test.tr", "transport", "japan", z, 2)
    s = replace(s, state=st)
    p = s.prompt("japan")
    assert "sz62" in p.moves["test.tr0"] and [x for x in w.neighbors["japan"]
                                              if x in w.sea] == ["sz62"]  # premise
    plan = noncombat.plan_noncombat(g, st, p, None)
    moves = {str(x.action.args.get("piece")): str(x.action.args.get("to")) for x in plan}
    assert moves.get("test.tr0") == "sz62" and moves.get("test.tr1") == "sz62", (z, plan)
    assert any("Empty transports sail" in x.reason for x in plan)
    for x in plan:
        s = s.submit(x.action)
    assert {s.state.pieces[f"test.tr{i}"].location for i in range(2)} == {"sz62"}


def test_mobilize_pg22_a_new_fighter_is_placed_on_the_new_carrier() -> None:
    """Mobilize New Units (pg. 22): "Place fighters ... on an aircraft carrier owned by your
    power in a sea zone ... adjacent to a territory with such an industrial complex. The
    aircraft carrier may be either a new one or an existing one". Japan bought a carrier and
    a fighter (and no place is threatened: only the test's units): the carrier goes to Sea
    Zone 62 (the only zone next to Japan's factory) and the fighter on board it."""
    g = game()
    s = _japan_noncombat("axis4", "mobilize")
    st = _only_test_units(s.state)
    for p in st.pieces_at(MOBILIZATION):
        st = st.without_piece(p.id)
    for unit in ("carrier", "fighter"):
        st = st.with_piece(Piece(f"test.{unit}", unit, "japan", MOBILIZATION,
                                 FrozenMap(new=True)))
    s = replace(s, state=st)
    p = s.prompt("japan")
    assert "sz62" not in p.moves["test.fighter"]  # premise: offered once the carrier is there
    plan = placement.plan_mobilize(g, st, p, None)
    moves = [(str(x.action.args.get("piece")), str(x.action.args.get("to"))) for x in plan]
    assert moves == [("test.carrier", "sz62"), ("test.fighter", "sz62")], moves
    rng = Rng.from_seed("m")
    while s.state.step_index == st.step_index and s.state.active_side == "japan":
        a, rng, _why = explained_action(s, rng, "strong")
        s = s.submit(a)
    assert s.state.pieces["test.carrier"].location == "sz62"
    assert s.state.pieces["test.fighter"].location == "sz62"
