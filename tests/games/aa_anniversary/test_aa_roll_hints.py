"""What a roll to be typed in decides (`AARules.explain_roll`, Game > Hint with physical dice,
issue 7), for every A&A roll that is not a single table die. Each test asks for the roll the
rule describes and checks the chances against hand calculation."""

from __future__ import annotations

from aa_helpers import act, at, board, dice_asked, escorted_raid, game, start

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP
from wartable.engine.loop import new_game
from wartable.games.aa_anniversary import research as rd
from wartable.model.state import GameState


def said(state: GameState) -> tuple[str, ...]:
    frame = state.top_frame
    assert frame is not None and frame.kind == "dice"
    notes = game().rules.explain_roll(game(), state, frame)
    assert notes is not None and not notes.with_faces
    return notes.lines


def test_antiaircraft_guns_hint_at_two_raiding_bombers() -> None:
    """AA Guns (pg. 25): one die at 1 per raider: P(at least one down) = 1 - (5/6)^2 = 11/36."""
    st = board(start(), ("germany.bomber.1", "bomber", "karelia_ssr"),
               ("germany.bomber.2", "bomber", "karelia_ssr"),
               ("ussr.factory.1", "factory", "karelia_ssr"),
               ("ussr.aa_gun.1", "aa_gun", "karelia_ssr"))
    st = act(at(st, "germany", "conduct_combat"), "raid", "germany", space="karelia_ssr",
             bombers=2)
    (line,) = said(st)
    assert line.startswith("AA gun (2 Bomber): 2 dice at 1")
    assert "31% at least one aircraft shot down" in line  # 11/36 = 30.6%


def test_strategic_bombing_raids_hint_damage_against_the_cap() -> None:
    """Pg. 17: each bomber rolls 1 die of damage; Karelia (2 IPCs) takes at most 4 markers.
    Two dice: 2 with 1/36, 3 with 2/36, 4 or more with 33/36 -> (2 + 6 + 132)/36 = 3.89."""
    st = board(start(), ("germany.bomber.1", "bomber", "karelia_ssr"),
               ("germany.bomber.2", "bomber", "karelia_ssr"),
               ("ussr.factory.1", "factory", "karelia_ssr"))
    st = act(at(st, "germany", "conduct_combat"), "raid", "germany", space="karelia_ssr",
             bombers=2)
    assert dice_asked(st) == 2
    (line,) = said(st)
    assert line.startswith("Damage to the industrial complex in Karelia S.S.R.: 2d6, 2-12, "
                           "7.0 expected")
    assert "at most 4 counts, so 3.9 expected (92% to reach it)" in line


def test_heavy_bombers_hint_counts_the_better_of_two_dice() -> None:
    """Breakthrough Chart 2, Heavy Bombers: the better of two dice per bomber: a face k comes
    up with (2k - 1)/36, so each bomber averages 161/36 = 4.47 and two 8.94 (the U.K.'s cap of
    16 is out of reach, so no cap is quoted)."""
    st = board(start(), ("germany.bomber.1", "bomber", "united_kingdom"),
               ("germany.bomber.2", "bomber", "united_kingdom"),
               ("uk.factory.1", "factory", "united_kingdom"))
    st = rd.with_development(st, "germany", rd.HEAVY_BOMBERS)
    st = act(at(st, "germany", "conduct_combat"), "raid", "germany", space="united_kingdom",
             bombers=2)
    (line,) = said(st)
    assert line.endswith("2d6 (the better of 2 each), 2-12, 8.9 expected")


def test_fighter_escorts_and_interceptors_hint_both_sides() -> None:
    """Pg. 24: escorts attack at 1, interceptors defend at 2, one round together."""
    st = act(escorted_raid(), "raid", "germany", space="united_kingdom", bombers=1, escorts=1)
    st = act(st, "intercept", "uk", count=2)
    escorts, interceptors = said(st)
    assert escorts.startswith("Escorts: 1 die at 1") and "17% at least one hit" in escorts
    assert interceptors.startswith("Interceptors: 2 dice at 2")
    assert "56% at least one hit" in interceptors  # 1 - (4/6)^2 = 20/36


def test_rd_step2_hint_chance_of_a_breakthrough_with_three_researchers() -> None:
    """Phase 1, Step 2: one die per researcher, any 6 is a breakthrough:
    1 - (5/6)^3 = 91/216 = 42%."""
    st = new_game(game(), "1941", FrozenMap(research=True), seed=1, dice_mode="physical")[0]
    st = at(st, "germany", "research")
    for _ in range(3):
        st = act(st, "buy_researcher", "germany")
    st = act(st, "research", "germany")
    (line,) = said(st)
    assert line.startswith("Research dice: 3 dice, a 6 is a breakthrough — 42% at least one "
                           "breakthrough")


def test_rockets_hint_damage_capped_at_twice_the_ipc_value() -> None:
    """Rockets (Chart 1): 1d6 of damage; Karelia's cap of 4: (1+2+3+4+4+4)/6 = 3.0, the cap
    reached on 4, 5 or 6 (50%)."""
    st = board(start(), ("germany.aa_gun.1", "aa_gun", "germany"),
               ("ussr.factory.1", "factory", "karelia_ssr"))
    st = rd.with_development(st, "germany", rd.ROCKETS)
    st = act(at(st, "germany", "conduct_combat"), "rocket", "germany", launch="germany",
             target="karelia_ssr")
    (line,) = said(st)
    assert line == ("Rocket damage to the industrial complex in Karelia S.S.R.: 1d6, 1-6, "
                    "3.5 expected; at most 4 counts, so 3.0 expected (50% to reach it)")


def test_war_bonds_hint_1d6_ipcs() -> None:
    st = rd.with_development(start(), "germany", rd.WAR_BONDS)
    st = act(at(st, "germany", "mobilize"), END_STEP, "germany")
    assert said(st) == ("War Bonds: IPCs collected: 1d6, 1-6, 3.5 expected",)
