"""Phase 3: Combat Move restrictions (pg. 14-16): no ending in friendly spaces except the four
instances, submarine movement, enemy submarines and transports do not block, sea units
starting in enemy-occupied sea zones, a warship sinking an unescorted transport, canals, and
control of a territory moved out of. One test per rule, named after the rulebook section it
checks; the situations are hand-built on the 1941 map (board(): only the listed units) and
the expected answers come from the rulebook's text and the map's adjacency.

Map facts used (1941 setup control): Poland (German) borders East Poland, Baltic States
(Soviet), Germany, Czechoslovakia-Hungary, Bulgaria-Romania (German) and sz05; East Poland
borders Bulgaria-Romania. sz05 borders sz06 only among sea zones; sz06 borders sz03, sz05,
sz07, Norway, Northwestern Europe (German) and the United Kingdom. The Suez canal joins
sz15 and sz34 and belongs to whoever holds both Egypt and Trans-Jordan (British in 1941).
"""

from __future__ import annotations

import pytest
from aa_helpers import act, at, board, game, moves, no_problems, start

from wartable.core.errors import IllegalAction
from wartable.engine.actions import END_STEP, Action
from wartable.engine.loop import apply, prompt
from wartable.games.aa_anniversary import research as rd
from wartable.games.aa_anniversary.steps.battle import forces
from wartable.games.aa_anniversary.steps.common import controller
from wartable.model.state import GameState

RULE_WORDS = "cannot end their move in friendly spaces during the Combat Move"


def _end_button(st: GameState) -> tuple[bool, str]:
    b = [b for b in prompt(game(), st).buttons if b.id == END_STEP][0]
    return b.enabled, b.reason or ""


# --- Phase 3: Combat Move (pg. 14): no ending in friendly spaces ------------------------------

def test_phase3_units_cannot_end_their_move_in_friendly_spaces() -> None:
    # "Units cannot end their move in friendly spaces during the Combat Move phase except in
    # four instances." Poland's infantry may only attack: East Poland and the Baltic States
    # (Soviet); not German Germany, Czechoslovakia-Hungary or Bulgaria-Romania.
    st = board(start(), ("germany.infantry.1", "infantry", "poland"),
               ("germany.fighter.1", "fighter", "germany"))
    st = at(st, "germany", "combat_move")
    assert set(moves(st, "germany.infantry.1")) == {"east_poland", "baltic_states"}
    with pytest.raises(IllegalAction, match=RULE_WORDS):
        act(st, "move", "germany", piece="germany.infantry.1", to="germany")
    # Air units too: a fighter ends in a hostile space (no German territory, no empty sea);
    # Ukraine is three moves off with Bulgaria-Romania one move on for landing (4 in all).
    air = set(moves(st, "germany.fighter.1"))
    assert {"east_poland", "baltic_states", "ukraine"} <= air
    assert not air & {"poland", "norway", "france", "sz05", "sz06"}
    # In Noncombat Move the same infantry goes to friendly territories only.
    nc = at(board(start(), ("germany.infantry.1", "infantry", "poland")), "germany",
            "noncombat_move")
    assert set(moves(nc, "germany.infantry.1")) == {
        "germany", "czechoslovakia_hungary", "bulgaria_romania"}


def test_phase3_instance1_tanks_that_have_blitzed_may_end_in_a_friendly_territory() -> None:
    # "Tanks that have blitzed through an unoccupied hostile space": Poland -> East Poland
    # (Soviet, empty) -> Bulgaria-Romania (German). Czechoslovakia-Hungary is friendly and
    # not reachable through a hostile space: no.
    st = board(start(), ("germany.armour.1", "armour", "poland"))
    st = at(st, "germany", "combat_move")
    m = set(moves(st, "germany.armour.1"))
    assert "bulgaria_romania" in m and "czechoslovakia_hungary" not in m and "germany" not in m
    st = act(st, "move", "germany", piece="germany.armour.1", to="bulgaria_romania")
    assert controller(st, "east_poland") == "germany"  # established control as it passed
    assert "east_poland" in st.var("captured")
    assert st.piece("germany.armour.1").attrs["mp"] == 2.0  # two spaces moved
    no_problems(st)
    # A Soviet infantry in East Poland stops the blitz: Bulgaria-Romania is out of bounds.
    st = board(start(), ("germany.armour.1", "armour", "poland"),
               ("ussr.infantry.1", "infantry", "east_poland"))
    st = at(st, "germany", "combat_move")
    assert "bulgaria_romania" not in moves(st, "germany.armour.1")
    with pytest.raises(IllegalAction, match=RULE_WORDS):
        act(st, "move", "germany", piece="germany.armour.1", to="bulgaria_romania")
    # Straight into East Poland (one space) is no blitz: the empty Baltic States stay Soviet.
    st = act(st, "move", "germany", piece="germany.armour.1", to="east_poland")
    assert controller(st, "baltic_states") == "ussr" and st.var("captured") == ()


def test_phase3_instance1_mechanized_infantry_blitzes_along_with_its_tank() -> None:
    # Mechanized Infantry (Breakthrough Chart 1): "each infantry matched up with a tank can
    # move two spaces along with the tank"; our reading: it may end with a tank that blitzed
    # in a friendly territory (instance 1). One infantry per tank; none without the tank.
    units = (("germany.armour.1", "armour", "poland"),
             ("germany.infantry.1", "infantry", "poland"),
             ("germany.infantry.2", "infantry", "poland"))
    st = board(start(), *units)
    st = at(rd.with_development(st, "germany", rd.IMPROVED_MECHANIZED_INFANTRY), "germany",
            "combat_move")
    assert "bulgaria_romania" not in moves(st, "germany.infantry.1")  # no tank there yet
    st = act(st, "move", "germany", piece="germany.armour.1", to="bulgaria_romania")
    assert "bulgaria_romania" in moves(st, "germany.infantry.1")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="bulgaria_romania")
    assert st.piece("germany.infantry.1").attrs["mech"] == "germany.armour.1"
    assert "bulgaria_romania" not in moves(st, "germany.infantry.2")  # the tank is taken
    no_problems(st)
    # Without the development the infantry cannot follow the tank into a friendly space.
    plain = at(board(start(), *units), "germany", "combat_move")
    plain = act(plain, "move", "germany", piece="germany.armour.1", to="bulgaria_romania")
    assert "bulgaria_romania" not in moves(plain, "germany.infantry.1")


def _loaded_transport_in_sz05(*extra: tuple[str, str, str]) -> GameState:
    """A German transport in sz05 with an infantry aboard from an earlier turn."""
    st = board(start(), ("germany.infantry.1", "infantry", "sz05"),
               ("germany.transport.1", "transport", "sz05"), *extra)
    st = game().rules.setup(game(), st)  # the infantry is aboard
    return at(st, "germany", "combat_move")


def test_phase3_instance2_sea_units_for_an_amphibious_assault_from_an_uncontested_zone() -> None:
    # "Sea units that will be participating in an amphibious assault from an uncontested sea
    # zone": the loaded transport may end in empty sz06 (next to the United Kingdom); an
    # empty transport may not, nor may a battleship until an assault is made from there.
    st = _loaded_transport_in_sz05(("germany.transport.2", "transport", "sz05"),
                                   ("germany.battleship.1", "battleship", "sz05"))
    assert "sz06" in moves(st, "germany.transport.1")
    assert moves(st, "germany.transport.2") == ()
    assert "sz06" not in moves(st, "germany.battleship.1")
    st = act(st, "move", "germany", piece="germany.transport.1", to="sz06")
    # Its cargo lands only to attack: the United Kingdom, not German Norway or NW Europe.
    assert moves(st, "germany.infantry.1") == ("united_kingdom",)
    ok, why = _end_button(st)
    assert not ok and "amphibious assault" in why
    with pytest.raises(IllegalAction, match="amphibious assault"):
        act(st, END_STEP, "germany")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="united_kingdom")
    # Now the battleship may join the assault from sz06 (bombardment, pg. 17).
    assert "sz06" in moves(st, "germany.battleship.1")
    st = act(st, "move", "germany", piece="germany.battleship.1", to="sz06")
    assert _end_button(st)[0]
    no_problems(st)


def test_phase3_instance3_units_escape_an_enemy_occupied_sea_zone() -> None:
    # "Units moving from an enemy-occupied sea zone to escape combat as their combat move":
    # a Soviet destroyer shares sz05 with a German cruiser at the start of the turn; the
    # cruiser may sail to empty sz06. A zone holding only an enemy submarine is friendly
    # ("the normal rules for combat movement apply"): no escape to sz06 from there.
    st = board(start(), ("germany.cruiser.1", "cruiser", "sz05"),
               ("ussr.destroyer.1", "destroyer", "sz05"))
    st = at(st, "germany", "combat_move")
    assert "sz06" in moves(st, "germany.cruiser.1")
    calm = board(start(), ("germany.cruiser.1", "cruiser", "sz05"),
                 ("ussr.submarine.1", "submarine", "sz05"))
    calm = at(calm, "germany", "combat_move")
    assert "sz06" not in moves(calm, "germany.cruiser.1")
    with pytest.raises(IllegalAction, match=RULE_WORDS):
        act(calm, "move", "germany", piece="germany.cruiser.1", to="sz06")


def test_phase3_instance4_units_attack_a_zone_with_only_enemy_submarines_or_transports() -> None:
    # "Units moving into a sea zone containing only enemy submarines and/or transports in
    # order to attack those units": sz06 holds a British submarine, sz03 nothing.
    st = board(start(), ("germany.destroyer.1", "destroyer", "sz05"),
               ("germany.transport.1", "transport", "sz05"),
               ("germany.fighter.1", "fighter", "germany"),
               ("uk.submarine.1", "submarine", "sz06"))
    st = at(st, "germany", "combat_move")
    assert "sz06" in moves(st, "germany.destroyer.1")
    assert "sz03" not in moves(st, "germany.destroyer.1")
    assert "sz06" in moves(st, "germany.fighter.1")  # air units may attack there too
    # A transport may not attack alone (No Combat Value): only once the destroyer is there.
    assert "sz06" not in moves(st, "germany.transport.1")
    st = act(st, "move", "germany", piece="germany.destroyer.1", to="sz06")
    assert "sz06" in moves(st, "germany.transport.1")
    assert "sz06" in forces.battles(game(), at(st, "germany", "conduct_combat"), "germany")


# --- Unit Profiles: Submarines, Sub Movement (pg. 30) ----------------------------------------

def test_submarines_treat_hostile_zones_as_friendly_a_destroyer_ends_their_move() -> None:
    # "Submarines treat hostile sea zones as if they were friendly for purposes of both combat
    # and noncombat movement. However, if a submarine enters a sea zone containing an enemy
    # destroyer, its movement ends immediately." A British cruiser holds sz06; a British
    # transport waits alone in sz07.
    units = (("germany.submarine.1", "submarine", "sz05"),
             ("germany.cruiser.1", "cruiser", "sz05"),
             ("uk.cruiser.1", "cruiser", "sz06"),
             ("uk.transport.1", "transport", "sz07"))
    st = at(board(start(), *units), "germany", "combat_move")
    assert {"sz06", "sz07"} <= set(moves(st, "germany.submarine.1"))  # through sz06
    assert "sz07" not in moves(st, "germany.cruiser.1")  # a surface ship stops in sz06
    nc = at(board(start(), *units), "germany", "noncombat_move")
    sub_nc = set(moves(nc, "germany.submarine.1"))
    assert "sz03" in sub_nc and "sz06" not in sub_nc  # passes sz06, does not stay there
    assert moves(nc, "germany.cruiser.1") == ()  # sz06 is closed to the cruiser
    # A British destroyer in sz06 ends the submarine's move there.
    guarded = board(start(), *units, ("uk.destroyer.1", "destroyer", "sz06"))
    st = at(guarded, "germany", "combat_move")
    assert set(moves(st, "germany.submarine.1")) == {"sz06"}
    assert moves(at(guarded, "germany", "noncombat_move"), "germany.submarine.1") == ()


# --- Enemy submarines and transports do not block (pg. 14; Transports, pg. 31) ---------------

def test_phase3_enemy_submarines_and_transports_do_not_block() -> None:
    # "An enemy submarine and/or transport does not block any of your units' movement." sz06
    # holds only a British submarine and transport; the German cruiser sails through it to
    # attack the British cruiser in sz07. A British cruiser in sz06 would stop it there.
    units = (("germany.cruiser.1", "cruiser", "sz05"),
             ("uk.submarine.1", "submarine", "sz06"),
             ("uk.transport.1", "transport", "sz06"),
             ("uk.cruiser.2", "cruiser", "sz07"))
    st = at(board(start(), *units), "germany", "combat_move")
    assert {"sz06", "sz07"} <= set(moves(st, "germany.cruiser.1"))
    st = act(st, "move", "germany", piece="germany.cruiser.1", to="sz07")
    assert st.piece("germany.cruiser.1").location == "sz07"
    blocked = at(board(start(), *units, ("uk.cruiser.1", "cruiser", "sz06")), "germany",
                 "combat_move")
    assert "sz07" not in moves(blocked, "germany.cruiser.1")


# --- Sea Units Starting in Enemy-Occupied Sea Zones (pg. 14) ---------------------------------

def test_sea_units_starting_in_enemy_occupied_sea_zones_leave_or_stay_and_fight() -> None:
    # "Remain in the sea zone and conduct combat" / "Leave the sea zone ... and conduct combat
    # elsewhere" / "Leave the sea zone and conduct no combat"; "once these sea units have
    # moved and/or participated in combat, they cannot move ... in the Noncombat Move".
    units = (("germany.cruiser.1", "cruiser", "sz05"),
             ("germany.destroyer.1", "destroyer", "sz05"),
             ("germany.submarine.1", "submarine", "sz05"),
             ("ussr.destroyer.1", "destroyer", "sz05"),
             ("uk.transport.1", "transport", "sz06"))
    st = at(board(start(), *units), "germany", "combat_move")
    # Leave and fight elsewhere: the destroyer attacks the British transport in sz06.
    st = act(st, "move", "germany", piece="germany.destroyer.1", to="sz06")
    # Leave and fight no more: the submarine slips away to empty sz03.
    assert "sz03" in moves(st, "germany.submarine.1")
    st = act(st, "move", "germany", piece="germany.submarine.1", to="sz03")
    # The cruiser stays: a battle in sz05.
    st = act(st, END_STEP, "germany")
    cc = at(st, "germany", "conduct_combat")
    assert set(forces.battles(game(), cc, "germany")) == {"sz05", "sz06"}
    # The submarine that left, and the cruiser that stays and fights, do not move again in
    # Noncombat Move (the cruiser's battle is recorded as fought).
    nc = at(cc.with_var("resolved", ("sz05", "sz06")), "germany", "noncombat_move")
    assert moves(nc, "germany.submarine.1") == ()
    assert moves(nc, "germany.cruiser.1") == ()
    with pytest.raises(IllegalAction, match="took part in combat"):
        act(nc, "move", "germany", piece="germany.cruiser.1", to="sz06")


def test_sea_units_starting_in_enemy_occupied_sea_zones_load_only_in_friendly_zones() -> None:
    # "Remember, you can only load units in friendly sea zones, so if this sea zone is
    # hostile, you must load them elsewhere." A Soviet destroyer shares sz05 with the German
    # transport: the infantry in Germany cannot board it there.
    units = (("germany.infantry.1", "infantry", "germany"),
             ("germany.transport.1", "transport", "sz05"))
    st = at(board(start(), *units, ("ussr.destroyer.1", "destroyer", "sz05")), "germany",
            "combat_move")
    assert "sz05" not in moves(st, "germany.infantry.1")
    with pytest.raises(IllegalAction):
        act(st, "move", "germany", piece="germany.infantry.1", to="sz05")
    calm = at(board(start(), *units, ("ussr.submarine.1", "submarine", "sz05")), "germany",
              "combat_move")  # a submarine does not make the zone hostile
    assert "sz05" in moves(calm, "germany.infantry.1")


# --- Transports: a warship that sinks an unescorted transport (pg. 16) ------------------------

def test_transports_warship_that_sinks_an_unescorted_transport_ends_its_move_there() -> None:
    # "Any units can pass through a sea zone containing only transports during the Combat
    # Move phase. However, if a warship chooses to sink an unescorted transport, that warship
    # must end its move in that sea zone."
    units = (("germany.destroyer.1", "destroyer", "sz05"),
             ("uk.transport.1", "transport", "sz06"),
             ("uk.cruiser.1", "cruiser", "sz07"))
    # Passing through: no battle in sz06, the transport survives.
    st = at(board(start(), *units), "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.destroyer.1", to="sz07")
    cc = at(st, "germany", "conduct_combat")
    assert forces.battles(game(), cc, "germany") == ("sz07",)
    assert "uk.transport.1" in cc.pieces
    # Sinking it: the destroyer ends its move in sz06 and moves no further.
    st = at(board(start(), *units), "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.destroyer.1", to="sz06")
    assert moves(st, "germany.destroyer.1") == ()
    with pytest.raises(IllegalAction):
        act(st, "move", "germany", piece="germany.destroyer.1", to="sz07")
    cc = at(st, "germany", "conduct_combat")
    cc = act(cc, "fight", "germany", space="sz06")  # defenseless: destroyed at once
    assert "uk.transport.1" not in cc.pieces
    no_problems(cc)


# --- Canals (pg. 7) --------------------------------------------------------------------------

def test_canals_controlled_at_the_start_of_your_turn_not_the_turn_captured() -> None:
    # "Your side ... must control it at the start of your turn (that is, you cannot use it
    # the turn you capture it)." Italy takes Egypt and Trans-Jordan during its turn: its
    # cruiser in sz15 still cannot pass the Suez to sz34 in that turn's Noncombat Move.
    st = at(board(start(), ("italy.cruiser.1", "cruiser", "sz15")), "italy", "combat_move")
    ctl = st.var("control").set("egypt", "italy").set("trans_jordan", "italy")
    st = st.with_var("control", ctl).with_var("captured", ("egypt", "trans_jordan"))
    assert "sz34" not in moves(at(st, "italy", "noncombat_move"), "italy.cruiser.1")
    # Held at the start of the turn: open.
    held = board(start(), ("italy.cruiser.1", "cruiser", "sz15"))
    held = held.with_var("control", ctl)
    held = at(at(held, "italy", "combat_move"), "italy", "noncombat_move")
    assert "sz34" in moves(held, "italy.cruiser.1")


def test_canals_air_units_unaffected() -> None:
    # "The movement of air units is completely unaffected by canals ... They can pass between
    # sea zones connected by the canal regardless of which side controls it." The U.K. holds
    # the Suez; an Italian fighter on its carrier in sz15 attacks a British cruiser in sz34
    # straight across the canal (one move), which the carrier cannot do.
    st = board(start(), ("italy.fighter.1", "fighter", "sz15"),
               ("italy.carrier.1", "carrier", "sz15"),
               ("uk.cruiser.1", "cruiser", "sz34"))
    st = at(st, "italy", "combat_move")
    p = prompt(game(), st)
    assert p.costs["italy.fighter.1"]["sz34"] == 1.0
    assert "sz34" not in p.moves.get("italy.carrier.1", ())


# --- Keep control of a territory you move out of (pg. 14) ------------------------------------

def test_phase3_keep_control_of_a_territory_you_move_out_of() -> None:
    # "If you move all of your units out of a territory you control, you still retain control
    # of that territory until the enemy moves into and captures it."
    st = board(start(), ("germany.infantry.1", "infantry", "poland"),
               ("germany.armour.1", "armour", "poland"),
               ("ussr.infantry.1", "infantry", "east_poland"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="east_poland")
    st = act(st, "move", "germany", piece="germany.armour.1", to="east_poland")
    assert st.pieces_at("poland") == ()
    assert controller(st, "poland") == "germany"
    st = act(st, END_STEP, "germany")
    assert controller(st, "poland") == "germany"


# --- A unit may move more than once in a phase, within its movement allowance ------------------

def test_pg31_transport_loads_moves_loads_again_and_offloads() -> None:
    """Transports (pg. 31): "A transport can pick up cargo, move one sea zone, pick up more
    cargo, move one more sea zone, and offload the cargo at the end of its movement." U.K.
    Noncombat Move: the transport in sz09 takes Eastern Canada's infantry, sails to sz08,
    takes the infantry of the United Kingdom (pg. 15: it loads "in any friendly sea zone
    along its route"), sails on to sz07 and offloads both in the United Kingdom."""
    st = board(start(), ("uk.transport.1", "transport", "sz09"),
               ("uk.infantry.1", "infantry", "eastern_canada"),
               ("uk.infantry.2", "infantry", "united_kingdom"))
    st = at(st, "uk", "noncombat_move")
    st = act(st, "move", "uk", piece="uk.infantry.1", to="sz09")  # boards in sz09
    st = act(st, "move", "uk", piece="uk.transport.1", to="sz08")
    assert st.piece("uk.transport.1").attrs["mp"] == 1.0
    st = act(st, "move", "uk", piece="uk.infantry.2", to="sz08")  # boards along the route
    assert "sz07" in moves(st, "uk.transport.1")  # one sea zone of movement left
    st = act(st, "move", "uk", piece="uk.transport.1", to="sz07")
    assert {st.piece(p).location for p in ("uk.infantry.1", "uk.infantry.2")} == {"sz07"}
    assert moves(st, "uk.transport.1") == ()  # its 2 moves are spent
    st = act(st, "move", "uk", piece="uk.infantry.1", to="united_kingdom")
    st = act(st, "move", "uk", piece="uk.infantry.2", to="united_kingdom")
    assert st.piece("uk.infantry.2").location == "united_kingdom"
    no_problems(st)


def test_pg31_a_transport_may_not_move_beyond_its_allowance_in_legs() -> None:
    """Two legs of one sea zone spend the transport's 2 moves: a third is refused."""
    st = board(start(), ("uk.transport.1", "transport", "sz09"))
    st = at(st, "uk", "noncombat_move")
    st = act(st, "move", "uk", piece="uk.transport.1", to="sz08")
    st = act(st, "move", "uk", piece="uk.transport.1", to="sz07")
    with pytest.raises(IllegalAction, match="may not move now"):
        act(st, "move", "uk", piece="uk.transport.1", to="sz06")


def test_pg14_a_land_unit_that_entered_a_hostile_territory_moves_no_further() -> None:
    """Combat Move (pg. 14): a land unit stops on entering a hostile territory; a tank with
    a move left does not go on from East Poland (Soviet, defended) to Belorussia."""
    st = board(start(), ("germany.tank.1", "armour", "poland"),
               ("ussr.infantry.1", "infantry", "east_poland"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.tank.1", to="east_poland")
    assert st.piece("germany.tank.1").attrs["mp"] == 1.0
    assert moves(st, "germany.tank.1") == ()


def test_pg21_noncombat_a_tank_moves_in_two_legs_within_its_two_moves() -> None:
    """Noncombat Move (pg. 21): a tank moves Germany → Poland, then Poland → East Poland
    (German in this position): two legs of one, its allowance of 2; no third leg."""
    st = board(start(), ("germany.tank.1", "armour", "germany"))
    st = st.with_var("control", st.var("control").set("east_poland", "germany"))
    st = at(st, "germany", "noncombat_move")
    st = act(st, "move", "germany", piece="germany.tank.1", to="poland")
    st = act(st, "move", "germany", piece="germany.tank.1", to="east_poland")
    assert st.piece("germany.tank.1").location == "east_poland"
    assert moves(st, "germany.tank.1") == ()
    no_problems(st)


# --- The player chooses the route ---------------------------------------------------------------

def _blitz_position() -> GameState:
    """1941 control: East Poland and the Baltic States are Soviet and here empty; a German
    tank in Poland attacks a Soviet infantry in Belorussia, two spaces away through either."""
    st = board(start(), ("germany.armour.1", "armour", "poland"),
               ("ussr.infantry.1", "infantry", "belorussia"))
    return at(st, "germany", "combat_move")


@pytest.mark.parametrize("through, other", [("east_poland", "baltic_states"),
                                             ("baltic_states", "east_poland")])
def test_pg15_blitzing_through_the_territory_the_player_chose(through: str, other: str) -> None:
    """Tanks and Blitzing (pg. 15): the tank blitzes through the empty enemy territory the
    player routes it through, which is captured; the other stays Soviet."""
    st = _blitz_position()
    out = apply_move(st, "germany.armour.1", "belorussia", via=[through])
    assert controller(out, through) == "germany"
    assert controller(out, other) == "ussr"
    assert out.piece("germany.armour.1").location == "belorussia"
    assert out.piece("germany.armour.1").attrs["mp"] == 2.0
    no_problems(out)


def test_pg15_without_a_route_the_engine_chooses_and_says_which() -> None:
    st = _blitz_position()
    evs = apply(game(), st, Action.make("move", "germany", piece="germany.armour.1",
                                        to="belorussia")).events
    line = evs[0].text
    assert "(the route the rules chose)" in line
    taken = [x for x in ("East Poland", "Baltic States") if x in line]
    assert len(taken) == 1  # it names the one territory it blitzed through


def test_pg14_a_route_longer_than_the_movement_left_or_through_a_defended_space_is_refused(
) -> None:
    st = _blitz_position()
    with pytest.raises(IllegalAction, match="moves left"):
        apply_move(st, "germany.armour.1", "belorussia", via=["east_poland", "ukraine"])
    st = board(start(), ("germany.armour.1", "armour", "poland"),
               ("ussr.infantry.1", "infantry", "belorussia"),
               ("ussr.infantry.2", "infantry", "east_poland"))
    st = at(st, "germany", "combat_move")
    with pytest.raises(IllegalAction, match="cannot pass through East Poland"):
        apply_move(st, "germany.armour.1", "belorussia", via=["east_poland"])


def apply_move(st: GameState, pid: str, to: str, via: list[str]) -> GameState:
    return apply(game(), st, Action.make("move", pid.split(".")[0], piece=pid, to=to,
                                         via=tuple(via))).state


def test_pg15_only_tanks_blitz_an_aircraft_routed_over_an_empty_territory_captures_nothing(
) -> None:
    """Tanks and Blitzing (pg. 15): "A tank can 'blitz'"; a fighter flying over the empty
    Soviet East Poland to attack Belorussia leaves it Soviet."""
    st = board(start(), ("germany.fighter.1", "fighter", "poland"),
               ("ussr.infantry.1", "infantry", "belorussia"))
    st = at(st, "germany", "combat_move")
    out = apply_move(st, "germany.fighter.1", "belorussia", via=["east_poland"])
    assert controller(out, "east_poland") == "ussr"
    assert out.piece("germany.fighter.1").location == "belorussia"


def test_transports_loading_and_offloading_is_a_land_units_whole_move() -> None:
    """Transports: a land unit cannot move before loading or after offloading. A tank that
    moved Germany → Poland in Noncombat Move is not offered Sea Zone 5's transport; cargo
    offloading takes no route inland."""
    st = board(start(), ("germany.armour.1", "armour", "germany"),
               ("germany.transport.1", "transport", "sz05"))
    st = at(st, "germany", "noncombat_move")
    st = act(st, "move", "germany", piece="germany.armour.1", to="poland")
    assert "sz05" not in moves(st, "germany.armour.1")
    with pytest.raises(IllegalAction):
        act(st, "move", "germany", piece="germany.armour.1", to="sz05")
    st = board(start(), ("germany.transport.1", "transport", "sz05"),
               ("germany.armour.1", "armour", "sz05"))
    st = st.with_piece(st.piece("germany.armour.1").with_attr("on", "germany.transport.1"))
    st = at(st, "germany", "noncombat_move")
    with pytest.raises(IllegalAction, match="whole move"):
        apply_move(st, "germany.armour.1", "poland", via=["germany"])


def test_pg30_a_submarines_route_ends_at_an_enemy_destroyer() -> None:
    """Submarines (pg. 30): a sub entering a zone with an enemy destroyer stops there, so a
    route through Sea Zone 2 (a British destroyer) to Sea Zone 8 is refused."""
    st = board(start(), ("germany.submarine.1", "submarine", "sz01"),
               ("uk.destroyer.1", "destroyer", "sz02"))
    st = at(st, "germany", "noncombat_move")
    with pytest.raises(IllegalAction, match="cannot pass through Sea Zone 2"):
        apply_move(st, "germany.submarine.1", "sz08", via=["sz02"])


def test_pg21_aircraft_may_fly_over_hostile_spaces_in_noncombat_move() -> None:
    """Noncombat Move (pg. 21): only aircraft and submarines move through hostile spaces; a
    fighter routed over the Soviet East Poland lands in Bulgaria-Romania."""
    st = board(start(), ("germany.fighter.1", "fighter", "poland"))
    st = at(st, "germany", "noncombat_move")
    out = apply_move(st, "germany.fighter.1", "bulgaria_romania", via=["east_poland"])
    assert out.piece("germany.fighter.1").location == "bulgaria_romania"


def test_pg14_a_route_may_not_loop_to_spend_the_landing_reserve() -> None:
    """Air units keep movement to land (pg. 14, 26): a route that doubles back is refused."""
    st = board(start(), ("germany.fighter.1", "fighter", "germany"),
               ("ussr.infantry.1", "infantry", "east_poland"))
    st = at(st, "germany", "combat_move")
    with pytest.raises(IllegalAction, match="each space once"):
        apply_move(st, "germany.fighter.1", "east_poland", via=["poland", "germany", "poland"])
