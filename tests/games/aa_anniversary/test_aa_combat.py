"""Combat rules of the Anniversary Edition, one test per rule, named after its section.

Probabilities are exact (the calculator) and derived by hand in the comments; dice-level
checks use the step functions with given dice, or many seeded battles of `fight_round`.
"""

from __future__ import annotations

from fractions import Fraction as Q

import pytest
from aa_battles import F, catalog

from wartable.core.errors import WartableError
from wartable.core.rng import Rng
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary.calculator import calculate
from wartable.games.aa_anniversary.combat import (
    AIR,
    ATTACK,
    DEFENSE,
    GENERAL,
    SUB,
    BattleState,
    Casualties,
    FireGroup,
    Force,
    Hits,
    OrderEntry,
)

CAT = catalog()


def close(x: float, q: Q) -> bool:
    return abs(x - float(q)) < 1e-12


def odds(att: Force, dfn: Force, **kw: object) -> tuple[float, float, float, float]:
    r = calculate(att, dfn, CAT, **kw)  # type: ignore[arg-type]
    assert abs(r.total - 1.0) < 1e-12
    return r.attacker_win, r.defender_win, r.draw, r.stalemate


# --- General Combat, Steps 3-5 -------------------------------------------------------------

def test_general_combat_step3_step4_defender_casualties_fire_back() -> None:
    # 1 infantry (hits on 1) attacks 1 infantry (defends on 2). A round: both hit 1/6*1/3 =
    # 1/18 (draw: the defender's casualty still fires), attacker only 1/6*2/3 = 1/9, defender
    # only 5/6*1/3 = 5/18, nothing 5/6*2/3 = 5/9 (again). Dividing by 1 - 5/9 = 4/9:
    # attacker 1/4, defender 5/8, draw 1/8; rounds 1/(4/9) = 9/4.
    r = calculate(F(infantry=1), F(infantry=1), CAT)
    assert close(r.attacker_win, Q(1, 4))
    assert close(r.defender_win, Q(5, 8))
    assert close(r.draw, Q(1, 8))
    assert close(r.expected_rounds, Q(9, 4))
    assert close(r.attacker_ipc_loss, Q(3) * (Q(5, 8) + Q(1, 8)))


def test_general_combat_step3_as_many_hits_as_possible_must_be_assigned() -> None:
    # The rulebook's example: a cruiser and 2 subs score 3 hits on a carrier with a fighter:
    # the cruiser's hit must go to the fighter, a sub hit to the carrier.
    dfn = F(carrier=1, fighter=1)
    hits = Hits(general=1, sub=2)
    assert c.max_assignable(dfn, hits, CAT, air_hits_subs=False) == 2
    assert c.casualty_options(dfn, hits, CAT, air_hits_subs=False) == (
        Casualties.of({"carrier": 1, "fighter": 1}),)
    # With two fighters, one general and one sub hit: the sub hit can only sink the carrier.
    dfn = F(carrier=1, fighter=2)
    opts = c.casualty_options(dfn, Hits(general=1, sub=1), CAT, air_hits_subs=False)
    assert opts == (Casualties.of({"carrier": 1, "fighter": 1}),)
    bad = Casualties.of({"fighter": 2})
    assert "cannot all go there" in (c.check_casualties(dfn, Hits(general=1, sub=1), bad, CAT,
                                                        air_hits_subs=False) or "")
    short = Casualties.of({"fighter": 1})
    assert "as many hits" in (c.check_casualties(dfn, Hits(general=1, sub=1), short, CAT,
                                                 air_hits_subs=False) or "")


def test_unit_profiles_infantry_supported_by_artillery() -> None:
    # Two artillery and five infantry attacking: two infantry at 2, three at 1 (pg. 24).
    f = F(infantry=5, artillery=2)
    assert c.fire_groups(f, ATTACK, CAT) == (FireGroup(1, 3, GENERAL), FireGroup(2, 4, GENERAL))
    # "Infantry are not supported by artillery on defense."
    assert c.fire_groups(f, DEFENSE, CAT) == (FireGroup(2, 7, GENERAL),)


def test_general_combat_step3_dice_hit_on_value_or_less() -> None:
    groups = (FireGroup(1, 2, GENERAL), FireGroup(3, 2, AIR), FireGroup(2, 1, SUB))
    per = c.group_hits(groups, (1, 2, 3, 4, 2))
    assert per == (1, 1, 1)
    assert c.hits_of(groups, per) == Hits(general=1, air=1, sub=1)
    with pytest.raises(WartableError):
        c.group_hits(groups, (1, 2))


# --- Submarines and destroyers --------------------------------------------------------------

def test_submarine_surprise_strike_casualties_do_not_fire_back() -> None:
    # Step 2 (pg. 18) and Submarines (pg. 30): a sub attacks a cruiser, no destroyer. The sub
    # strikes first (1/3); a sunk cruiser is removed before it fires. Else the cruiser fires in
    # Step 4 (1/2); the sub does not roll again in Step 3. A round: attacker 1/3, defender
    # 2/3*1/2 = 1/3, again 1/3; no draw is possible: attacker 1/2, defender 1/2.
    a, d, draw, _ = odds(F(submarine=1), F(cruiser=1))
    assert close(a, Q(1, 2)) and close(d, Q(1, 2)) and draw == 0.0
    plan = c.round_plan(F(submarine=1), F(cruiser=1), CAT)
    assert plan.attacker_strikes and not plan.defender_strikes
    # The same in single seeded rounds: whenever the cruiser sinks, the sub survives.
    orders = c.default_orders(F(submarine=1), F(cruiser=1), CAT)
    rng = Rng.from_seed("surprise")
    sunk = 0
    for _ in range(400):
        st, rng = c.fight_round(BattleState(F(submarine=1), F(cruiser=1)), orders, CAT, rng)
        if not st.defender:
            sunk += 1
            assert st.attacker == F(submarine=1)
    assert sunk > 50


def test_submarine_surprise_strike_both_sides_fire_before_casualties() -> None:
    # Both sides' subs strike in Step 2, the defender's "including those in the casualty
    # zone". 1 sub (2) vs 1 sub (1): both hit 1/3*1/6 = 1/18 (draw), attacker only 5/18,
    # defender only 2/18, again 10/18; over 8/18: attacker 5/8, defender 1/4, draw 1/8.
    a, d, draw, _ = odds(F(submarine=1), F(submarine=1))
    assert close(a, Q(5, 8)) and close(d, Q(1, 4)) and close(draw, Q(1, 8))


def test_destroyer_cancels_surprise_strike() -> None:
    # Destroyers, Anti-sub Vessel (pg. 29): with a defending destroyer the attacking sub fires
    # in Step 3 and the destroyer, even if hit, fires back in Step 4. Each hits 1/3: attacker
    # 1/3*2/3 = 2/9, defender 2/9, draw 1/9, again 4/9: 2/5, 2/5, 1/5.
    plan = c.round_plan(F(submarine=1), F(destroyer=1), CAT)
    assert not plan.attacker_strikes
    a, d, draw, _ = odds(F(submarine=1), F(destroyer=1))
    assert close(a, Q(2, 5)) and close(d, Q(2, 5)) and close(draw, Q(1, 5))


def test_destroyer_of_the_other_side_only_cancels() -> None:
    # An attacking destroyer cancels the defending subs' strike, not its own side's subs'.
    plan = c.round_plan(F(submarine=1, destroyer=1), F(submarine=1, carrier=1), CAT)
    assert plan.attacker_strikes and not plan.defender_strikes
    assert plan.attacker_air_hits_subs and not plan.defender_air_hits_subs


def test_air_cannot_hit_submarines_without_destroyer() -> None:
    # Air Units (pg. 26), Submarines "Cannot Be Hit by Air Units" (pg. 30).
    subs = F(submarine=2)
    assert c.max_assignable(subs, Hits(air=2), CAT, air_hits_subs=False) == 0
    assert c.select_casualties(subs, Hits(air=2), (), CAT, air_hits_subs=False) == Casualties()
    # Fighters alone against subs alone: neither can hit the other, the battle stops.
    st, res = c.conclude(BattleState(F(fighter=2), subs), CAT)
    assert res == c.STALEMATE and st.attacker == F(fighter=2)
    # With a destroyer in the attack, air hits may sink subs.
    assert c.select_casualties(subs, Hits(air=1), (), CAT, air_hits_subs=True) == \
        Casualties.of({"submarine": 1})


def test_air_hits_subs_only_while_a_destroyer_starts_the_round() -> None:
    # "Whenever a round of combat starts and there is no enemy destroyer, submarines cannot be
    # hit by air units." Destroyer (2) + fighter (3) attack a sub (defends 1). The sub cannot
    # strike (attacking destroyer) and fires in Step 4 at the destroyer only (subs cannot hit
    # air). Round: the sub dies with 1 - 2/3*1/2 = 2/3 (attacker wins); it lives and sinks the
    # destroyer 1/3*1/6 = 1/18, leaving a fighter and a sub that cannot hit each other
    # (stalemate); nothing 1/3*5/6 = 5/18. Over 13/18: attacker 12/13, stalemate 1/13.
    a, d, draw, stale = odds(F(destroyer=1, fighter=1), F(submarine=1))
    assert close(a, Q(12, 13)) and close(stale, Q(1, 13)) and d == 0.0 and draw == 0.0


def test_submarines_cannot_hit_air_units() -> None:
    # Carrier fighters defend "in the air" and can never be chosen for a sub hit (pg. 28, 30).
    dfn = F(carrier=1, fighter=2)
    assert c.select_casualties(dfn, Hits(sub=3), (OrderEntry("fighter"),), CAT,
                               air_hits_subs=False) == Casualties.of({"carrier": 1})
    # Subs against fighters alone: a stalemate.
    assert c.conclude(BattleState(F(submarine=2), F(fighter=1)), CAT)[1] == c.STALEMATE


# --- Battleships ----------------------------------------------------------------------------

def test_battleship_takes_two_hits() -> None:
    # Two Hits to Destroy (pg. 28): the first hit turns it on its side, the second sinks it.
    bb = F(battleship=1)
    once = c.take_hits(bb, Hits(general=1), (), CAT, air_hits_subs=False)
    assert once == Force.of({"battleship": 1}, {"battleship": 1})
    assert c.take_hits(once, Hits(general=1), (), CAT, air_hits_subs=False) == Force()
    assert c.take_hits(bb, Hits(general=2), (), CAT, air_hits_subs=False) == Force()
    assert c.hit_points(F(battleship=2), CAT) == 4
    # 1 battleship (4) attacks 1 destroyer (2): the destroyer needs two hits. Exact odds from
    # the chain over (battleship hits taken, destroyer alive) agree with a hand solve:
    # P(att) = 8/9 + ... ; we check the structure: no draw unless the battleship was damaged.
    r = calculate(F(battleship=1), F(destroyer=1), CAT)
    # From the undamaged state: BB hits 2/3; DD hits 1/3. Undamaged: att wins (DD sunk) 2/3
    # regardless of DD's shot; DD misses BB 1/3*2/3 = 2/9 again; BB damaged 1/3*1/3 = 1/9.
    # Damaged: att 2/3*2/3 = 4/9, def 1/3*1/3 = 1/9, draw 2/3*1/3 = 2/9, again 2/9 -> over 7/9:
    # 4/7, 1/7, 2/7. Undamaged over 7/9: win 6/7 + (1/7)*(4/7), def (1/7)(1/7), draw (1/7)(2/7).
    assert close(r.attacker_win, Q(6, 7) + Q(1, 7) * Q(4, 7))
    assert close(r.defender_win, Q(1, 49))
    assert close(r.draw, Q(2, 49))


def test_battleship_damage_from_surprise_strike_lasts_the_combat() -> None:
    # "Any hits made during this attack that do not destroy units (such as battleships) remain
    # in effect until the end of the combat" (pg. 30).
    after = c.take_hits(F(battleship=1, transport=1), Hits(sub=1), (), CAT, air_hits_subs=False)
    assert after.damaged_count("battleship") == 1
    orders = c.default_orders(F(submarine=1), F(battleship=1), CAT)
    st = BattleState(F(submarine=1), Force.of({"battleship": 1}, {"battleship": 1}))
    assert c.select_casualties(st.defender, Hits(sub=1), orders.defender, CAT,
                               air_hits_subs=False) == Casualties.of({"battleship": 1})


def test_battleship_casualty_options_damage_or_sink() -> None:
    opts = c.casualty_options(F(battleship=1, destroyer=1), Hits(general=2), CAT,
                              air_hits_subs=False)
    assert set(opts) == {
        Casualties.of({"battleship": 1}),  # two hits on the battleship
        Casualties.of({"destroyer": 1}, {"battleship": 1}),
    }


# --- AA guns and bombardment ---------------------------------------------------------------

def test_aa_gun_fires_at_air_before_first_round() -> None:
    # Antiaircraft Guns (pg. 25): one die per attacking aircraft before the first round, hits
    # on 1. A bomber (4) attacks 1 infantry (2) with an AA gun: shot down 1/6 (defender wins).
    # Otherwise a round: attacker 2/3*2/3 = 4/9, defender 1/3*1/3 = 1/9, draw 2/3*1/3 = 2/9,
    # again 2/9 -> 4/7, 1/7, 2/7. Total: attacker 5/6*4/7 = 10/21, defender 1/6 + 5/42 = 2/7,
    # draw 5/21. The gun does not fire again in later rounds.
    a, d, draw, _ = odds(F(bomber=1), F(infantry=1, aa_gun=1))
    assert close(a, Q(10, 21)) and close(d, Q(2, 7)) and close(draw, Q(5, 21))
    groups = c.aa_groups(F(bomber=1, fighter=2, infantry=3), F(infantry=1, aa_gun=1), CAT)
    assert groups == (FireGroup(1, 1, "bomber"), FireGroup(1, 2, "fighter"))
    assert c.aa_losses(groups, (1, 0)) == Casualties.of({"bomber": 1})


def test_aa_gun_only_one_fires_and_it_is_never_a_casualty() -> None:
    assert c.aa_groups(F(fighter=1), F(infantry=1, aa_gun=3), CAT) == (FireGroup(1, 1, "fighter"),)
    assert odds(F(bomber=1), F(infantry=1, aa_gun=3)) == odds(F(bomber=1), F(infantry=1, aa_gun=1))
    # AA guns have no defense in the rounds and take no hits.
    assert c.fire_groups(F(aa_gun=1), DEFENSE, CAT) == ()
    assert c.max_assignable(F(aa_gun=1, infantry=1), Hits(general=3), CAT,
                            air_hits_subs=False) == 1


def test_general_combat_territory_with_only_aa_guns_needs_no_combat() -> None:
    # "hostile territories that contain only industrial complexes and/or antiaircraft guns":
    # no combat, straight to Step 7; the gun does not fire.
    assert c.aa_groups(F(fighter=2, infantry=1), F(aa_gun=1), CAT) == ()
    r = calculate(F(fighter=2, infantry=1), F(aa_gun=1), CAT)
    assert r.attacker_win == 1.0 and r.capture == 1.0 and r.attacker_ipc_loss == 0.0


def test_amphibious_bombardment_casualties_defend_in_first_round() -> None:
    # Amphibious Assaults, Step 2 (pg. 17): a battleship bombards (hits on 4) before 1 infantry
    # lands against 1 infantry. Hit (2/3): the defender is in the casualty zone but fires in
    # the first round (1/3): draw 1/3, else the attacker wins 2/3. Miss (1/3): the 1-vs-1
    # battle (1/4, 5/8, 1/8). Attacker 4/9 + 1/12 = 19/36, defender 5/24, draw 2/9 + 1/24 = 19/72.
    a, d, draw, _ = odds(F(infantry=1), F(infantry=1), bombard=F(battleship=1))
    assert close(a, Q(19, 36)) and close(d, Q(5, 24)) and close(draw, Q(19, 72))


def test_amphibious_bombardment_only_battleships_and_cruisers() -> None:
    with pytest.raises(WartableError, match="cannot bombard"):
        calculate(F(infantry=1), F(infantry=1), CAT, bombard=F(destroyer=1))
    with pytest.raises(WartableError, match="sea battle"):
        calculate(F(destroyer=1), F(destroyer=1), CAT, bombard=F(cruiser=1))


# --- Transports ------------------------------------------------------------------------------

def test_transports_chosen_last() -> None:
    dfn = F(destroyer=1, transport=1)
    assert c.select_casualties(dfn, Hits(general=1), (OrderEntry("transport"),), CAT,
                               air_hits_subs=False) == Casualties.of({"destroyer": 1})
    assert "chosen last" in (c.check_casualties(dfn, Hits(general=1),
                                                Casualties.of({"transport": 1}), CAT,
                                                air_hits_subs=False) or "").lower()
    # "fighters attacking transports and submarines will hit the transports"
    assert c.select_casualties(F(submarine=1, transport=1), Hits(air=1), (), CAT,
                               air_hits_subs=False) == Casualties.of({"transport": 1})


def test_transports_no_combat_value_cannot_attack_alone() -> None:
    assert c.fire_groups(F(transport=3), ATTACK, CAT) == ()
    with pytest.raises(WartableError, match="No Combat Value"):
        calculate(F(transport=2), F(submarine=1), CAT)


def test_general_combat_step6_defenseless_transports() -> None:
    # The defender has only transports left: all destroyed without rolling.
    st, res = c.conclude(BattleState(F(destroyer=1), F(transport=3)), CAT)
    assert res == c.ATTACKER_WINS and not st.defender
    # "the defender has only transports and submarines remaining, and the attacker has only
    # air units": the transports are destroyed, and then no one can hit anyone.
    st, res = c.conclude(BattleState(F(fighter=1), F(transport=2, submarine=1)), CAT)
    assert res == c.STALEMATE and st.defender == F(submarine=1)
    # Attacking transports left alone retreat (they can), or die if they cannot.
    assert c.conclude(BattleState(F(transport=1), F(destroyer=1)), CAT)[1] == c.RETREAT
    st, res = c.conclude(BattleState(F(transport=1), F(destroyer=1)), CAT,
                         attacker_can_retreat=False)
    assert res == c.DEFENDER_WINS


# --- Step 6 and Step 7 -----------------------------------------------------------------------

def test_general_combat_step6_condition_a_both_destroyed_is_a_draw() -> None:
    assert c.conclude(BattleState(Force(), F(aa_gun=1)), CAT)[1] == c.DRAW
    assert c.conclude(BattleState(F(infantry=1), Force()), CAT)[1] == c.ATTACKER_WINS
    assert c.conclude(BattleState(Force(), F(infantry=1)), CAT)[1] == c.DEFENDER_WINS
    assert c.conclude(BattleState(F(infantry=1), F(infantry=1)), CAT)[1] is None


def test_general_combat_step6_condition_b_attacker_retreats() -> None:
    # Retreat after one round of 1 infantry vs 1 infantry: the round's four outcomes.
    r = calculate(F(infantry=1), F(infantry=1), CAT, max_rounds=1)
    assert close(r.attacker_win, Q(1, 9)) and close(r.defender_win, Q(5, 18))
    assert close(r.draw, Q(1, 18)) and close(r.retreat, Q(5, 9))
    assert close(r.expected_rounds, Q(1))


def test_general_combat_step7_only_land_units_capture() -> None:
    # A fighter (3) against an infantry (2): 1/3, 1/6, draw 1/6, again 1/3 -> 1/2, 1/4, 1/4;
    # it wins half the time but never takes the territory.
    r = calculate(F(fighter=1), F(infantry=1), CAT)
    assert close(r.attacker_win, Q(1, 2)) and r.capture == 0.0
    r = calculate(F(armour=1, fighter=1), F(infantry=1), CAT)
    assert 0.0 < r.capture <= r.attacker_win


def test_battle_board_rejects_impossible_battles() -> None:
    with pytest.raises(WartableError, match="Industrial complexes"):
        calculate(F(infantry=1), F(factory=1), CAT)
    with pytest.raises(WartableError, match="at sea or on land"):
        calculate(F(infantry=1), F(destroyer=1), CAT)
    with pytest.raises(WartableError, match="cannot attack"):
        calculate(F(aa_gun=1), F(infantry=1), CAT)


# --- Casualty choice -------------------------------------------------------------------------

def test_default_casualty_order_cheapest_first_battleships_damaged_first() -> None:
    order = c.default_casualty_order(F(battleship=1, cruiser=1, destroyer=1, transport=1), CAT,
                                     attacking=False)
    assert [e.text for e in order] == ["damage:battleship", "destroyer", "cruiser", "battleship",
                                       "transport"]


def test_default_casualty_order_keeps_one_land_unit_to_capture() -> None:
    att = F(infantry=2, armour=1, fighter=2)
    order = c.default_casualty_order(att, CAT, attacking=True)
    assert [e.text for e in order] == ["infantry", "armour@1", "fighter", "armour"]
    cas = c.select_casualties(att, Hits(general=4), order, CAT, air_hits_subs=False)
    assert cas == Casualties.of({"infantry": 2, "fighter": 2})


def test_parse_casualty_order_names_bad_units() -> None:
    order = c.parse_casualty_order("damage:battleship, infantry, armour@1, fighter", CAT)
    assert order == (OrderEntry("battleship", damage_only=True), OrderEntry("infantry"),
                     OrderEntry("armour", 1), OrderEntry("fighter"))
    with pytest.raises(WartableError, match="Valid units"):
        c.parse_casualty_order("tank", CAT)
    with pytest.raises(WartableError, match="two hits"):
        c.parse_casualty_order("damage:cruiser", CAT)
