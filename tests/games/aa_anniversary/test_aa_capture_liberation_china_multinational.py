"""Phase 4 (Conduct Combat) and Unit Profile rules that had no test: China's Kwangtung and
Flying Tigers, seaborne units that cannot retreat, defending aircraft, captured AA guns,
liberation while a capital is lost and capitals liberated, multinational forces, escorts,
industrial complexes and carrier fighters against submarines. One test per rule, named after
the rulebook section it checks; expected values come from the rulebook's text and hand
calculation. Battles use physical dice: each test says what was rolled.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from aa_helpers import act, at, board, dice_asked, game, moves, no_problems, start

from wartable.core.errors import IllegalAction
from wartable.engine.actions import DICE, END_STEP
from wartable.engine.loop import prompt
from wartable.games.aa_anniversary.steps.battle import forces
from wartable.games.aa_anniversary.steps.common import MOBILIZATION, controller, ipcs, set_control
from wartable.model.state import GameState


def _controlled(st: GameState, **owners: str) -> GameState:
    for space, power in owners.items():
        st = set_control(st, space, power)
    return st


def _buttons(st: GameState, verb: str) -> list[dict[str, object]]:
    return [dict(b.args) for b in prompt(game(), st).buttons if b.id == verb]


# --- General Combat, Step 7: Conclude Combat (pg. 19); Antiaircraft Guns (pg. 25) -------------

def test_general_combat_step7_captured_aa_gun_cannot_move_in_that_turns_noncombat_move() -> None:
    # "An antiaircraft gun ... in the captured territory remains there but now belongs to your
    # side ... If you capture an antiaircraft gun, you cannot move it in the Noncombat Move
    # phase of the same turn." AA guns, Subject to Capture: "They can be used by their new
    # owner in future combat." The gun neither rolls nor is a casualty in the land battle.
    st = board(start(), ("germany.infantry.1", "infantry", "finland"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"),
               ("ussr.aa_gun.1", "aa_gun", "karelia_ssr"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert dice_asked(st) == 2  # one German infantry die, one Soviet infantry die; no AA die
    st = act(st, DICE, "germany", values=(1, 6))  # the German infantry hits, the Soviet misses
    assert _buttons(st, "casualties")[0]["lost"] == {"infantry": 1}  # never the AA gun
    st = act(st, "casualties", "ussr", lost={"infantry": 1})
    assert controller(st, "karelia_ssr") == "germany"
    gun = st.piece("ussr.aa_gun.1")
    assert gun.side == "germany" and gun.location == "karelia_ssr"
    st = act(st, END_STEP, "germany")  # to Noncombat Move
    assert moves(st, "ussr.aa_gun.1") == ()
    # Germany's next turn: the gun is an ordinary German AA gun and moves in Noncombat Move.
    st = at(at(at(st, "germany", "combat_move"), "germany", "conduct_combat"), "germany",
            "noncombat_move")
    assert "finland" in moves(st, "ussr.aa_gun.1")
    no_problems(st)


# --- Liberating a Territory; Capturing and Liberating Capitals (pg. 20) -----------------------

def test_liberating_a_territory_captor_keeps_it_while_the_original_capital_is_lost() -> None:
    # "If the original controller's capital is in enemy hands at the end of the turn in which
    # you would otherwise have liberated the territory, you capture the territory ... You also
    # take ownership of any antiaircraft gun in that territory." Moscow is German.
    st = board(start(), ("uk.infantry.1", "infantry", "archangel"),
               ("germany.infantry.1", "infantry", "karelia_ssr"),
               ("germany.aa_gun.1", "aa_gun", "karelia_ssr"),
               ("germany.infantry.2", "infantry", "russia"))
    st = _controlled(st, russia="germany", karelia_ssr="germany", archangel="ussr")
    st = at(st, "uk", "combat_move")
    st = act(st, "move", "uk", piece="uk.infantry.1", to="karelia_ssr")
    st = at(st, "uk", "conduct_combat")
    st = act(st, "fight", "uk", space="karelia_ssr")
    st = act(st, DICE, "uk", values=(1, 6))
    st = act(st, "casualties", "germany", lost={"infantry": 1})
    assert controller(st, "karelia_ssr") == "uk"  # not returned to the Soviet Union
    assert st.piece("germany.aa_gun.1").side == "uk"
    no_problems(st)


def test_liberating_a_territory_returns_it_when_the_original_capital_is_held() -> None:
    # The same attack with Moscow Soviet: "You do not take control of it; instead, the
    # original controller regains the territory ... Antiaircraft guns ... revert to the
    # original controller of the territory."
    st = board(start(), ("uk.infantry.1", "infantry", "archangel"),
               ("germany.infantry.1", "infantry", "karelia_ssr"),
               ("germany.aa_gun.1", "aa_gun", "karelia_ssr"))
    st = _controlled(st, karelia_ssr="germany", archangel="ussr")
    st = at(st, "uk", "combat_move")
    st = act(st, "move", "uk", piece="uk.infantry.1", to="karelia_ssr")
    st = at(st, "uk", "conduct_combat")
    st = act(st, "fight", "uk", space="karelia_ssr")
    st = act(st, DICE, "uk", values=(1, 6))
    st = act(st, "casualties", "germany", lost={"infantry": 1})
    assert controller(st, "karelia_ssr") == "ussr"
    assert st.piece("germany.aa_gun.1").side == "ussr"
    no_problems(st)


def test_capturing_and_liberating_capitals_complex_and_aa_guns_revert() -> None:
    # "If a capital is liberated, the industrial complex and any antiaircraft guns in that
    # capital territory revert ownership to the original controller of the capital. Other
    # territories and industrial complexes that were originally controlled by the newly
    # liberated capital's controller but are in the hands of friendly powers also revert
    # control immediately. You do not collect IPCs from the controlling power when you
    # liberate a capital ... Antiaircraft guns outside the newly liberated capital territory
    # remain under their pre-liberation ownership."
    st = board(start(), ("uk.infantry.1", "infantry", "archangel"),
               ("germany.infantry.1", "infantry", "russia"),
               ("germany.factory.1", "factory", "russia"),
               ("germany.aa_gun.1", "aa_gun", "russia"),
               ("uk.factory.1", "factory", "karelia_ssr"),
               ("uk.aa_gun.1", "aa_gun", "karelia_ssr"))
    # The U.K. took Karelia while Moscow was German; the Caucasus is still German.
    st = _controlled(st, russia="germany", karelia_ssr="uk", caucasus="germany",
                     archangel="ussr")
    ger, uk, ussr = ipcs(st, "germany"), ipcs(st, "uk"), ipcs(st, "ussr")
    st = at(st, "uk", "combat_move")
    st = act(st, "move", "uk", piece="uk.infantry.1", to="russia")
    st = at(st, "uk", "conduct_combat")
    st = act(st, "fight", "uk", space="russia")
    st = act(st, DICE, "uk", values=(1, 6))
    st = act(st, "casualties", "germany", lost={"infantry": 1})
    assert controller(st, "russia") == "ussr"  # liberated, not captured by the U.K.
    assert st.piece("germany.factory.1").side == "ussr"
    assert st.piece("germany.aa_gun.1").side == "ussr"
    assert controller(st, "karelia_ssr") == "ussr"  # reverts from the U.K.
    assert st.piece("uk.factory.1").side == "ussr"
    assert st.piece("uk.aa_gun.1").side == "uk"  # outside the capital: stays British
    assert controller(st, "caucasus") == "germany"  # enemy hands: no change
    assert (ipcs(st, "germany"), ipcs(st, "uk"), ipcs(st, "ussr")) == (ger, uk, ussr)
    no_problems(st)


def test_liberating_a_territory_reverts_if_the_capital_is_liberated_the_same_turn() -> None:
    # "... in enemy hands at the end of the turn in which you would otherwise have liberated
    # the territory": the U.K. takes Karelia first (Moscow German), then liberates Moscow in
    # the same Conduct Combat; Karelia goes back to the Soviet Union.
    st = board(start(), ("uk.infantry.1", "infantry", "archangel"),
               ("uk.infantry.2", "infantry", "archangel"),
               ("germany.infantry.1", "infantry", "karelia_ssr"),
               ("germany.infantry.2", "infantry", "russia"))
    st = _controlled(st, russia="germany", karelia_ssr="germany", archangel="ussr")
    st = at(st, "uk", "combat_move")
    st = act(st, "move", "uk", piece="uk.infantry.1", to="karelia_ssr")
    st = act(st, "move", "uk", piece="uk.infantry.2", to="russia")
    st = at(st, "uk", "conduct_combat")
    st = act(st, "fight", "uk", space="karelia_ssr")
    st = act(st, DICE, "uk", values=(1, 6))
    st = act(st, "casualties", "germany", lost={"infantry": 1})
    assert controller(st, "karelia_ssr") == "uk"
    st = act(st, "fight", "uk", space="russia")
    st = act(st, DICE, "uk", values=(1, 6))
    st = act(st, "casualties", "germany", lost={"infantry": 1})
    assert controller(st, "russia") == "ussr" and controller(st, "karelia_ssr") == "ussr"
    no_problems(st)


def test_liberating_a_territory_chinese_territory_returns_to_china() -> None:
    # Liberating a Territory: "If you capture a territory that was originally controlled by
    # another member of your side, you 'liberate' the territory." China is on the Allied
    # side and has no capital to lose; China Rules: "The IPC values printed on the Chinese
    # territories indicate the number of IPCs an Axis player will receive". American
    # infantry takes Kiangsu from Japan: it returns to China.
    st = board(start(), ("usa.infantry.1", "infantry", "hupeh"),
               ("japan.infantry.1", "infantry", "kiangsu"))
    st = at(st, "usa", "combat_move")
    st = act(st, "move", "usa", piece="usa.infantry.1", to="kiangsu")
    st = at(st, "usa", "conduct_combat")
    st = act(st, "fight", "usa", space="kiangsu")
    st = act(st, DICE, "usa", values=(1, 6))
    st = act(st, "casualties", "japan", lost={"infantry": 1})
    assert controller(st, "kiangsu") == "china"
    no_problems(st)


# --- China Rules (pg. 10) ---------------------------------------------------------------------

def _china_takes_kwangtung(st: GameState) -> GameState:
    st = st.with_var("control", st.var("control").set("kwangtung", "japan"))
    st = at(st, "china", "combat_move")
    st = act(st, "move", "china", piece="china.infantry.1", to="kwangtung")
    st = at(st, "china", "conduct_combat")
    st = act(st, "fight", "china", space="kwangtung")
    st = act(st, DICE, "china", values=(1, 6))  # the Chinese infantry hits, the Japanese misses
    return act(st, "casualties", "japan", lost={"infantry": 1})


def test_china_rules_kwangtung_held_by_china_while_the_uk_capital_is_in_axis_hands() -> None:
    # "If the United Kingdom's capital is held by the Axis when China captures Kwangtung,
    # China may control it ... until the United Kingdom is liberated." Then the U.S.
    # liberates London: "Other territories ... originally controlled by the newly liberated
    # capital's controller but ... in the hands of friendly powers also revert control
    # immediately" (Capturing and Liberating Capitals): Kwangtung goes to the U.K.
    st = board(start(), ("china.infantry.1", "infantry", "fukien"),
               ("japan.infantry.1", "infantry", "kwangtung"),
               ("germany.infantry.1", "infantry", "united_kingdom"),
               ("usa.infantry.1", "infantry", "sz06"),
               ("usa.transport.1", "transport", "sz06"))
    st = game().rules.setup(game(), st)  # the American infantry is aboard its transport
    st = _controlled(st, united_kingdom="germany")
    st = _china_takes_kwangtung(st)
    assert controller(st, "kwangtung") == "china"
    st = at(st, "usa", "combat_move")
    st = act(st, "move", "usa", piece="usa.infantry.1", to="united_kingdom")
    st = at(st, "usa", "conduct_combat")
    st = act(st, "fight", "usa", space="united_kingdom")
    st = act(st, DICE, "usa", values=(1, 6))
    st = act(st, "casualties", "germany", lost={"infantry": 1})
    assert controller(st, "united_kingdom") == "uk"
    assert controller(st, "kwangtung") == "uk"
    no_problems(st)


def test_china_rules_flying_tigers_fight_as_chinese_forces() -> None:
    # "This fighter is considered part of the Chinese forces for purposes of movement and
    # combat": it attacks on China's turn, with the Chinese infantry, and is China's loss.
    st = board(start(), ("china.infantry.1", "infantry", "hupeh"),
               ("china.fighter.1", "fighter", "yunnan"),
               ("japan.infantry.1", "infantry", "kiangsu"),
               ("japan.infantry.2", "infantry", "kiangsu"))
    st = at(st, "china", "combat_move")
    st = act(st, "move", "china", piece="china.infantry.1", to="kiangsu")
    st = act(st, "move", "china", piece="china.fighter.1", to="kiangsu")
    st = at(st, "china", "conduct_combat")
    st = act(st, "fight", "china", space="kiangsu")
    assert dice_asked(st) == 4  # infantry (1), fighter (3), two Japanese infantry (2)
    st = act(st, DICE, "china", values=(6, 6, 1, 6))  # one Japanese hit
    p = prompt(game(), st)
    assert p.side == "china"  # the U.S. player chooses China's loss, for China
    st = act(st, "casualties", "china", lost={"fighter": 1})
    assert "china.fighter.1" not in st.pieces
    no_problems(st)


def test_china_rules_flying_tigers_not_replaced() -> None:
    # "If it is destroyed, the U.S. player cannot purchase a new fighter unit for China."
    # China's purchase sets aside infantry only: one per two free Chinese territories. At the
    # start of 1941, 7 of the 9 Chinese territories (Chinghai, Fukien, Hupeh, Kiangsu,
    # Manchuria, Ningxia, Sikang, Suiyuan, Yunnan) are free of the Axis: 3 infantry.
    st = start()
    st = replace(st, pieces=st.pieces.remove("china.fighter.1"))
    st = at(st, "china", "purchase")
    new = [p for p in st.pieces.values() if p.side == "china" and p.attrs.get("new")
           or p.side == "china" and p.location == "box:mobilization"]
    assert sorted(p.type for p in new) == ["infantry"] * 3
    assert not any(p.side == "china" and p.type == "fighter" for p in st.pieces.values())


# --- Amphibious Assaults, Step 3: Land Combat (pg. 17) ----------------------------------------

def _seaborne_and_overland_on_karelia() -> GameState:
    """German infantry lands in Karelia S.S.R. from a transport in sz05 (empty of enemies: no
    sea combat) while another walks in from Finland; two Soviet infantry defend."""
    st = board(start(), ("germany.infantry.1", "infantry", "sz05"),
               ("germany.transport.1", "transport", "sz05"),
               ("germany.infantry.2", "infantry", "finland"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"),
               ("ussr.infantry.2", "infantry", "karelia_ssr"))
    st = game().rules.setup(game(), st)  # the infantry is aboard from an earlier turn
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    st = act(st, "move", "germany", piece="germany.infantry.2", to="karelia_ssr")
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert dice_asked(st) == 4  # two German infantry (1), two Soviet infantry (2)
    return act(st, DICE, "germany", values=(6, 6, 6, 6))  # all miss


def test_amphibious_assaults_seaborne_units_cannot_retreat() -> None:
    # "Attacking seaborne units cannot retreat. Attacking overland land and air units can
    # retreat ... They can only retreat to a territory from which at least one of them
    # entered the contested territory." The overland infantry retreats to Finland; the
    # seaborne infantry stays and the combat goes on with it alone.
    st = _seaborne_and_overland_on_karelia()
    assert {b["to"] for b in _buttons(st, "retreat")} == {"finland"}  # not sz05
    st = act(st, "retreat", "germany", to="finland")
    assert st.piece("germany.infantry.2").location == "finland"
    assert st.piece("germany.infantry.1").location == "karelia_ssr"
    assert st.var("battle") == "karelia_ssr"  # not over: the seaborne unit fights on
    assert dice_asked(st) == 3  # the seaborne infantry and the two Soviet infantry
    st = act(st, DICE, "germany", values=(6, 6, 6))
    assert _buttons(st, "retreat") == []  # it may only press on
    st = act(st, "press", "germany")
    st = act(st, DICE, "germany", values=(6, 1, 6))  # a Soviet hit
    st = act(st, "casualties", "germany", lost={"infantry": 1})
    assert "germany.infantry.1" not in st.pieces and st.var("battle") is None
    assert controller(st, "karelia_ssr") == "ussr" and "karelia_ssr" in st.var("resolved")
    no_problems(st)


def test_amphibious_assaults_seaborne_units_capture_after_the_overland_units_retreat() -> None:
    # The seaborne unit, left alone, wins and takes the territory (General Combat, Step 7).
    st = _seaborne_and_overland_on_karelia()
    st = act(st, "retreat", "germany", to="finland")
    st = act(st, DICE, "germany", values=(1, 6, 6))  # the seaborne infantry hits
    st = act(st, "casualties", "ussr", lost={"infantry": 1})
    st = act(st, "press", "germany")
    st = act(st, DICE, "germany", values=(1, 6))
    st = act(st, "casualties", "ussr", lost={"infantry": 1})
    assert controller(st, "karelia_ssr") == "germany"
    assert st.piece("germany.infantry.2").location == "finland"
    no_problems(st)


def test_amphibious_assaults_air_units_retreat_while_seaborne_units_fight_on() -> None:
    # "Attacking air units ... may retreat according to the normal rules (they land during
    # the Noncombat Move phase)"; the seaborne infantry cannot and fights on alone.
    st = board(start(), ("germany.infantry.1", "infantry", "sz05"),
               ("germany.transport.1", "transport", "sz05"),
               ("germany.fighter.1", "fighter", "finland"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"),
               ("ussr.infantry.2", "infantry", "karelia_ssr"))
    st = game().rules.setup(game(), st)
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    st = act(st, "move", "germany", piece="germany.fighter.1", to="karelia_ssr")
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="karelia_ssr")
    st = act(st, DICE, "germany", values=(6, 6, 6, 6))  # infantry, fighter; 2 Soviet: all miss
    assert _buttons(st, "retreat") == [{"to": "karelia_ssr"}]  # the aircraft only
    st = act(st, "retreat", "germany", to="karelia_ssr")
    assert dice_asked(st) == 3  # the seaborne infantry against the two Soviet infantry
    st = act(st, DICE, "germany", values=(6, 1, 1))  # two Soviet hits: one unit to take them
    st = act(st, "casualties", "germany", lost={"infantry": 1})  # never the fighter
    assert st.piece("germany.fighter.1").location == "karelia_ssr"  # lands in Noncombat Move
    assert st.var("battle") is None and controller(st, "karelia_ssr") == "ussr"
    no_problems(st)


def test_amphibious_assaults_defending_air_units_fight_only_in_their_territory() -> None:
    # "Air units defending in a territory can only fight in that territory. They cannot
    # participate in the sea combat." The Soviet fighter in Karelia stays out of the battle
    # in sz05 and defends Karelia afterwards.
    st = board(start(), ("germany.infantry.1", "infantry", "norway"),
               ("germany.transport.1", "transport", "sz06"),
               ("germany.battleship.1", "battleship", "sz06"),
               ("ussr.destroyer.1", "destroyer", "sz05"),
               ("ussr.fighter.1", "fighter", "karelia_ssr"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="sz06")
    st = act(st, "move", "germany", piece="germany.battleship.1", to="sz05")
    st = act(st, "move", "germany", piece="germany.transport.1", to="sz05")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    st = at(st, "germany", "conduct_combat")
    assert [p.id for p in forces.defenders(game(), st, "sz05", "germany")] == [
        "ussr.destroyer.1"]
    st = act(st, "fight", "germany", space="sz05")
    assert dice_asked(st) == 2  # battleship and destroyer; not the fighter
    st = act(st, DICE, "germany", values=(1, 6))
    st = act(st, "casualties", "ussr", lost={"destroyer": 1})
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert dice_asked(st) == 3  # the landed infantry; the Soviet infantry and the fighter
    no_problems(st)


# --- Additional Optional Rules: Fighter Escorts and Interceptors (pg. 24) ---------------------

def test_fighter_escorts_take_part_in_no_other_battle() -> None:
    # "Fighters participating as either escorts or interceptors cannot participate in other
    # battles during that turn, including a battle in the territory in which the strategic
    # bombing raid is occurring." The escort stays out of the land battle in Karelia.
    st = board(start(), ("germany.bomber.1", "bomber", "karelia_ssr"),
               ("germany.fighter.1", "fighter", "karelia_ssr"),
               ("germany.infantry.1", "infantry", "karelia_ssr"),
               ("ussr.factory.1", "factory", "karelia_ssr"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"))
    st = replace(st, options=st.options.set("escorts_interceptors", True))
    st = at(st, "germany", "conduct_combat")
    st = act(st, "raid", "germany", space="karelia_ssr", bombers=1, escorts=1)
    assert st.piece("germany.fighter.1").attrs.get("raided")
    st = act(st, DICE, "germany", values=(3,))  # 3 damage, no interceptors, no AA gun
    assert [p.id for p in forces.attackers(game(), st, "karelia_ssr", "germany")] == [
        "germany.infantry.1"]
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert dice_asked(st) == 2  # the German and the Soviet infantry only
    no_problems(st)


# --- Unit Profiles: Industrial Complexes, Cannot Attack, Defend, or Move (pg. 25) -------------

def test_industrial_complexes_cannot_attack_defend_or_move() -> None:
    # "An industrial complex cannot attack, defend, or move. It cannot be transported. It is
    # not placed on the battle board."
    st = board(start(), ("germany.factory.1", "factory", "finland"),
               ("germany.transport.1", "transport", "sz05"),
               ("germany.infantry.1", "infantry", "finland"),
               ("ussr.factory.1", "factory", "karelia_ssr"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"))
    cm = at(st, "germany", "combat_move")
    assert moves(cm, "germany.factory.1") == ()  # neither attack nor be loaded
    assert moves(at(st, "germany", "noncombat_move"), "germany.factory.1") == ()
    st = act(cm, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    st = at(st, "germany", "conduct_combat")
    assert [p.id for p in forces.defenders(game(), st, "karelia_ssr", "germany")] == [
        "ussr.infantry.1"]
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert dice_asked(st) == 2  # the two infantry; the complex does not roll
    st = act(st, DICE, "germany", values=(1, 6))
    assert _buttons(st, "casualties")[0]["lost"] == {"infantry": 1}
    st = act(st, "casualties", "ussr", lost={"infantry": 1})
    # Usable by Invading Forces: the complex is captured, not destroyed.
    assert st.piece("ussr.factory.1").side == "germany"
    no_problems(st)


def test_industrial_complexes_alone_need_no_combat() -> None:
    # General Combat: "hostile territories that contain only industrial complexes and/or
    # antiaircraft guns, no actual combat is necessary. Simply skip to step 7."
    st = board(start(), ("germany.infantry.1", "infantry", "finland"),
               ("ussr.factory.1", "factory", "karelia_ssr"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert prompt(game(), st).dice is None  # no die rolled
    assert controller(st, "karelia_ssr") == "germany"
    assert st.piece("ussr.factory.1").side == "germany"
    no_problems(st)


# --- Multinational Forces (pg. 20) ------------------------------------------------------------

def _karelia_attacked(*defenders: tuple[str, str, str]) -> GameState:
    """Two German infantry from Finland attack Karelia's `defenders`; the roll is next."""
    st = board(start(), ("germany.infantry.1", "infantry", "finland"),
               ("germany.infantry.2", "infantry", "finland"), *defenders)
    st = at(st, "germany", "combat_move")
    for pid in ("germany.infantry.1", "germany.infantry.2"):
        st = act(st, "move", "germany", piece=pid, to="karelia_ssr")
    st = at(st, "germany", "conduct_combat")
    return act(st, "fight", "germany", space="karelia_ssr")


KARELIA_ALLIES = (("ussr.infantry.1", "infantry", "karelia_ssr"),
                  ("uk.infantry.1", "infantry", "karelia_ssr"),
                  ("uk.fighter.1", "fighter", "karelia_ssr"))


def test_multinational_forces_allied_units_defend_together() -> None:
    # "When a space containing a multinational force is attacked, all its units defend
    # together ... Each defender rolls separately for his or her units." Soviet and British
    # infantry and a British fighter defend Karelia together against two German infantry.
    st = _karelia_attacked(*KARELIA_ALLIES)
    assert dice_asked(st) == 5  # 2 German infantry; 2 infantry and a fighter defending
    st = act(st, DICE, "germany", values=(1, 1, 6, 6, 6))  # two German hits
    # The casualties come from the whole force: the British fighter may be one of them.
    lost = [b["lost"] for b in _buttons(st, "casualties")]
    assert {"fighter": 1, "infantry": 1} in lost and {"infantry": 2} in lost
    st = act(st, "casualties", "ussr", lost={"infantry": 2})
    assert {p.id for p in st.pieces_at("karelia_ssr") if p.side in ("ussr", "uk")} == {
        "uk.fighter.1"}
    no_problems(st)


def test_multinational_defense_if_the_defenders_cannot_agree_the_attacker_chooses() -> None:
    # Multinational Defense (pg. 20): "the defenders mutually determine the casualty. If
    # they cannot agree, the attacker chooses." Karelia as above, two German hits: the
    # defenders say they disagree, and Germany picks the British fighter and an infantry.
    st = _karelia_attacked(*KARELIA_ALLIES)
    st = act(st, DICE, "germany", values=(1, 1, 6, 6, 6))
    p = prompt(game(), st)
    assert p.side == "ussr" and any(b.id == "disagree" for b in p.buttons)
    st = act(st, "disagree", "ussr")
    p = prompt(game(), st)
    assert p.side == "germany" and "Multinational Defense" in p.rule
    assert not any(b.id == "disagree" for b in p.buttons)  # the attacker's choice is final
    with pytest.raises(IllegalAction):
        act(st, "casualties", "ussr", lost={"infantry": 2})
    st = act(st, "casualties", "germany", lost={"fighter": 1, "infantry": 1})
    left = {p.type for p in st.pieces_at("karelia_ssr") if p.side in ("ussr", "uk")}
    assert left == {"infantry"}
    no_problems(st)


def test_multinational_defense_a_single_power_cannot_disagree_with_itself() -> None:
    st = _karelia_attacked(("ussr.infantry.1", "infantry", "karelia_ssr"),
                           ("ussr.infantry.2", "infantry", "karelia_ssr"))
    st = act(st, DICE, "germany", values=(1, 6, 6, 6))
    assert not any(b.id == "disagree" for b in prompt(game(), st).buttons)
    with pytest.raises(IllegalAction, match="Only defenders of several powers"):
        act(st, "disagree", "ussr")


def test_multinational_forces_an_allys_units_in_an_attacked_sea_zone_stay_out() -> None:
    # "Any units in a sea zone in which a battle occurs that belong to an ally of the
    # attacker ... cannot participate in the battle in any way. Such units cannot be taken as
    # losses in the sea combat and have no effect on defending submarines." The Italian
    # destroyer in sz06 does not roll, cannot be hit, and does not cancel the British
    # submarine's Surprise Strike (only the attacker's destroyer would, Destroyers pg. 29).
    st = board(start(), ("germany.cruiser.1", "cruiser", "sz05"),
               ("italy.destroyer.1", "destroyer", "sz06"),
               ("uk.submarine.1", "submarine", "sz06"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.cruiser.1", to="sz06")
    st = at(st, "germany", "conduct_combat")
    assert [p.id for p in forces.attackers(game(), st, "sz06", "germany")] == [
        "germany.cruiser.1"]
    st = act(st, "fight", "germany", space="sz06")
    p = prompt(game(), st)  # the British submarine may strike or submerge
    assert p.side == "uk" and {b.args["count"] for b in p.buttons if b.id == "submerge"} == {
        0, 1}
    st = act(st, "submerge", "uk", count=0)  # Surprise Strike
    assert dice_asked(st) == 1  # the submarine alone
    st = act(st, DICE, "germany", values=(1,))
    st = act(st, "casualties", "germany", lost={"cruiser": 1})
    assert "germany.cruiser.1" not in st.pieces
    assert st.piece("italy.destroyer.1").location == "sz06"
    no_problems(st)


def test_multinational_forces_fighter_launches_from_an_allys_carrier() -> None:
    # "An attacking fighter may launch from an aircraft carrier owned by an ally, but the
    # ally's carrier cannot move until its owner's turn." The British fighter on the American
    # carrier in sz06 attacks Norway, then lands back on the carrier.
    st = board(start(), ("usa.carrier.1", "carrier", "sz06"),
               ("uk.fighter.1", "fighter", "sz06"),
               ("germany.infantry.1", "infantry", "norway"))
    st = at(st, "uk", "combat_move")
    assert "norway" in moves(st, "uk.fighter.1")
    assert moves(st, "usa.carrier.1") == ()
    st = act(st, "move", "uk", piece="uk.fighter.1", to="norway")
    st = at(st, "uk", "conduct_combat")
    st = act(st, "fight", "uk", space="norway")
    st = act(st, DICE, "uk", values=(6, 6))  # both miss
    # Condition B: "Retreating air units remain in the contested space temporarily."
    assert _buttons(st, "retreat") == [{"to": "norway"}]
    st = act(st, "retreat", "uk", to="norway")
    assert st.var("battle") is None and controller(st, "norway") == "germany"
    st = act(st, END_STEP, "uk")  # to Noncombat Move
    assert "sz06" in moves(st, "uk.fighter.1")
    st = act(st, "move", "uk", piece="uk.fighter.1", to="sz06")
    no_problems(st)


# --- Unit Profiles: Aircraft Carriers, Fighter Defense (pg. 28) -------------------------------

def test_aircraft_carriers_fighter_defense_against_submarines_only() -> None:
    # "Whenever a carrier is attacked, its fighters (even those belonging to friendly powers)
    # are considered to be defending in the air and fight normally, even if only submarines
    # are attacking and the fighters cannot hit them because there is no defending destroyer.
    # (However, a fighter cannot be chosen as a casualty from a submarine hit ...)"
    st = board(start(), ("germany.submarine.1", "submarine", "sz05"),
               ("uk.carrier.1", "carrier", "sz06"),
               ("uk.fighter.1", "fighter", "sz06"),
               ("usa.fighter.1", "fighter", "sz06"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.submarine.1", to="sz06")
    st = at(st, "germany", "conduct_combat")
    assert {p.id for p in forces.defenders(game(), st, "sz06", "germany")} == {
        "uk.carrier.1", "uk.fighter.1", "usa.fighter.1"}
    st = act(st, "fight", "germany", space="sz06")
    st = act(st, "submerge", "germany", count=0)  # Surprise Strike (no British destroyer)
    assert dice_asked(st) == 1
    st = act(st, DICE, "germany", values=(1,))  # the submarine hits
    assert [b["lost"] for b in _buttons(st, "casualties")] == [{"carrier": 1}]  # no fighter
    st = act(st, "casualties", "uk", lost={"carrier": 1})
    assert dice_asked(st) == 2  # the two fighters still fire (Step 4)
    st = act(st, DICE, "germany", values=(1, 1))  # both "hit": no destroyer, no effect
    assert "germany.submarine.1" in st.pieces
    no_problems(st)


def test_amphibious_assaults_air_units_fight_in_the_sea_battle_or_the_land_attack() -> None:
    # "Each attacking air unit may participate in the sea battle or the attack on the coastal
    # territory; it cannot do both. The attacking player must declare which ... and cannot
    # change their assignments later." The declaration is the space the aircraft flies to in
    # Combat Move: the fighter sent to sz05 fights there only, the bomber sent to Karelia only
    # in Karelia.
    st = board(start(), ("germany.infantry.1", "infantry", "norway"),
               ("germany.transport.1", "transport", "sz06"),
               ("germany.battleship.1", "battleship", "sz06"),
               ("germany.fighter.1", "fighter", "norway"),
               ("germany.bomber.1", "bomber", "germany"),
               ("ussr.destroyer.1", "destroyer", "sz05"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="sz06")
    st = act(st, "move", "germany", piece="germany.battleship.1", to="sz05")
    st = act(st, "move", "germany", piece="germany.transport.1", to="sz05")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    st = act(st, "move", "germany", piece="germany.fighter.1", to="sz05")
    st = act(st, "move", "germany", piece="germany.bomber.1", to="karelia_ssr")
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="sz05")
    assert dice_asked(st) == 3  # battleship, fighter; the Soviet destroyer
    st = act(st, DICE, "germany", values=(1, 6, 6))
    st = act(st, "casualties", "ussr", lost={"destroyer": 1})
    assert st.piece("germany.fighter.1").location == "sz05"  # stays for Noncombat Move
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert {p.id for p in forces.attackers(game(), st, "karelia_ssr", "germany")} == {
        "germany.infantry.1", "germany.bomber.1"}
    assert dice_asked(st) == 3  # infantry, bomber; the Soviet infantry
    no_problems(st)


# --- Unit Profiles: Destroyers, Anti-sub Vessel (pg. 29); Submarines (pg. 30) ----------------

def test_destroyers_stop_enemy_submarine_movement() -> None:
    # Sub Movement: "Submarines treat hostile sea zones as if they were friendly ... However,
    # if a submarine enters a sea zone containing an enemy destroyer, its movement ends
    # immediately." The German submarine passes the British cruiser in sz06 to reach the
    # transport in sz07, but not a British destroyer there.
    st = board(start(), ("germany.submarine.1", "submarine", "sz05"),
               ("uk.cruiser.1", "cruiser", "sz06"),
               ("uk.transport.1", "transport", "sz07"))
    assert set(moves(at(st, "germany", "combat_move"), "germany.submarine.1")) == {
        "sz06", "sz07"}
    st = board(start(), ("germany.submarine.1", "submarine", "sz05"),
               ("uk.destroyer.1", "destroyer", "sz06"),
               ("uk.transport.1", "transport", "sz07"))
    assert set(moves(at(st, "germany", "combat_move"), "germany.submarine.1")) == {"sz06"}


def test_submarines_do_not_block_enemy_movement() -> None:
    # "Any sea zone that contains only enemy submarines does not stop the movement of a sea
    # unit ... Sea units may also end their noncombat movement in a sea zone containing only
    # enemy submarines." The British cruiser passes the German submarine in sz06 to attack
    # the cruiser in sz05; in Noncombat Move it may pass or stop in sz06.
    st = board(start(), ("uk.cruiser.1", "cruiser", "sz07"),
               ("germany.submarine.1", "submarine", "sz06"),
               ("germany.cruiser.1", "cruiser", "sz05"))
    assert "sz05" in moves(at(st, "uk", "combat_move"), "uk.cruiser.1")
    st = board(start(), ("uk.cruiser.1", "cruiser", "sz07"),
               ("germany.submarine.1", "submarine", "sz06"))
    assert {"sz03", "sz05", "sz06"} <= set(moves(at(st, "uk", "noncombat_move"), "uk.cruiser.1"))


def test_china_rules_kwangtung_held_by_china_counts_toward_its_infantry() -> None:
    # China Rules (pg. 10): "one new Chinese infantry unit for every two Chinese territories
    # that are not under Axis control (rounded down)"; Kwangtung, held by China while the
    # U.K. capital is in Axis hands, counts "toward earning infantry units". The board has
    # nine Chinese territories; in 1941 Manchuria and Kiangsu are Japanese: 7 free -> 3.
    def new_chinese(st: GameState) -> int:
        st = at(st, "china", "purchase")
        return sum(1 for p in st.pieces.values()
                   if p.side == "china" and p.location == MOBILIZATION)

    assert new_chinese(start()) == 3
    held = _controlled(start(), united_kingdom="germany", kwangtung="china")
    assert new_chinese(held) == 4  # 8 territories


def test_china_rules_flying_tigers_stay_in_china() -> None:
    # China Rules (pg. 10): the Flying Tigers fighter "is considered part of the Chinese
    # forces for purposes of movement and combat", and Chinese units "can move only into
    # Chinese territories" (and Kwangtung). From Yunnan, with Japanese infantry next door in
    # French Indo-China and in Kiangsu and Manchuria, it may attack only the two Chinese
    # territories, never Indo-China; in Noncombat Move it stays out of Burma and India.
    st = board(start(), ("china.fighter.1", "fighter", "yunnan"),
               ("japan.infantry.1", "infantry", "french_indo_china_thailand"),
               ("japan.infantry.2", "infantry", "kiangsu"),
               ("japan.infantry.3", "infantry", "manchuria"))
    cm = at(st, "china", "combat_move")
    assert set(moves(cm, "china.fighter.1")) == {"kiangsu", "manchuria"}
    ncm = at(st, "china", "noncombat_move")
    reach = set(moves(ncm, "china.fighter.1"))
    assert "hupeh" in reach and "sikang" in reach
    assert not reach & {"burma", "india", "french_indo_china_thailand"}


def test_general_combat_step5_the_defender_stays_known_after_its_last_unit_falls() -> None:
    # General Combat, Steps 3-5 (pg. 18-19): both sides fire before casualties are removed,
    # so the attacker may still be choosing its casualties after the last defender is gone.
    # The battle (the battle board's heading, the defender's developments) is still against
    # Japan: a U.S. destroyer and a Japanese destroyer in sz10 hit each other.
    st = board(start(), ("usa.destroyer.1", "destroyer", "sz11"),
               ("usa.destroyer.2", "destroyer", "sz11"),
               ("japan.destroyer.1", "destroyer", "sz10"))
    st = at(st, "usa", "combat_move")
    st = act(st, "move", "usa", piece="usa.destroyer.1", to="sz10")
    st = act(st, "move", "usa", piece="usa.destroyer.2", to="sz10")
    st = at(st, "usa", "conduct_combat")
    st = act(st, "fight", "usa", space="sz10")
    assert dice_asked(st) == 3  # two attacking destroyers, one defending
    st = act(st, DICE, "usa", values=(1, 6, 1))  # one hit each way
    for _ in range(3):  # casualty choices until the attacker's own
        top = st.top_frame
        if top is None or top.data.get("role") == "attacker":
            break
        st = act(st, "casualties", top.side, lost={"destroyer": 1})
    assert "japan.destroyer.1" not in st.pieces
    assert st.top_frame is not None and st.top_frame.data.get("role") == "attacker"
    assert forces.defending_power(game(), st, "sz10", "usa") == "japan"
