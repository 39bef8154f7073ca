"""The Moscow Falls Table [4.3], the East Front Surprise [5.5] and the off-map fronts
[12.4-12.8]. Rolls are typed in (physical dice) so each test picks its die; the expected
results are worked by hand from the provisional tables in data/fronts.toml and
data/combat.toml (the printed ones are not in the rulebook)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from w40_helpers import act, board, clear, do, game, goto, ids, put, ready, step_id

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.loop import prompt
from wartable.games.whatif1940 import hidden
from wartable.games.whatif1940.ids import (
    A_STEP,
    DEAD,
    ESTONIA,
    GSRHB_ELIGIBLE,
    LATVIA,
    LENINGRAD,
    MOSCOW,
    SAFHB,
    SFEHB,
    SOVIET_REPLACEMENTS,
    SSWFHB_ELIGIBLE,
    SSWFHB_JUST_ARRIVED,
    SSWFHB_ROMANIA,
    USSR,
    V_CONTROL,
    V_EFST,
    V_FINLAND,
    V_GERMAN_WIN,
    V_IGNORE_RIVERS_T1,
    V_JAPAN,
    V_PLOESTI,
    V_ROMANIA_WAR,
    trt_box,
)
from wartable.model.state import GameState


def physical(s: GameState) -> GameState:
    return replace(s, dice_mode="physical")


def roll(s: GameState, side: str, die: int) -> GameState:
    assert s.frames and s.frames[-1].kind == "dice", "a roll should be waiting"
    return act(s, "dice", side, values=(die,))


def german_control(s: GameState, *hexes: str) -> GameState:
    return s.with_var(V_CONTROL, FrozenMap({h: "german" for h in hexes}))


def log_text(s: GameState, side: str, die: int) -> str:
    from w40_helpers import do as do_

    out = do_(s, "dice", side, values=(die,))
    return " | ".join(e.text for e in out.events)


# --- Moscow Falls [4.3] --------------------------------------------------------------------

def test_4_3_no_moscow_falls_roll_unless_moscow_is_german() -> None:
    s = goto(physical(ready()), "moscow_capture", turn=3)
    assert not s.frames  # nothing to roll: the step ends by itself


def test_4_3_moscow_falls_drm_finland_and_leningrad_plus_two() -> None:
    s = german_control(physical(ready()), MOSCOW, LENINGRAD).with_var(V_FINLAND, True)
    s = goto(s, "moscow_capture", turn=3)
    text = log_text(s, "german", 4)
    assert "roll 4, +1 Finland at war, +1 Leningrad German-controlled = 6" in text
    s = roll(s, "german", 4)
    assert s.var(V_GERMAN_WIN)  # 6 on our MFT: Moscow falls
    assert s.result is not None and "Germans win" in s.result


def test_4_3_moscow_holds_on_a_plain_five() -> None:
    s = goto(german_control(physical(ready()), MOSCOW), "moscow_capture", turn=3)
    s = roll(s, "german", 5)
    assert s.result is None and not s.var(V_GERMAN_WIN)
    s = goto(german_control(physical(ready()), MOSCOW), "moscow_capture", turn=3)
    assert roll(s, "german", 6).result is not None


def test_4_3_japan_anti_soviet_and_ploesti_pro_soviet_drms() -> None:
    s = german_control(physical(ready()), MOSCOW).with_var(V_JAPAN, True)
    s = goto(s, "moscow_capture", turn=3)
    assert roll(s, "german", 5).result is not None  # 5 + 1 Japan = 6
    s = german_control(physical(ready()), MOSCOW).with_var(V_PLOESTI, True)
    s = goto(s, "moscow_capture", turn=3)
    assert roll(s, "german", 6).result is None  # 6 - 1 Ploesti = 5


# --- East Front Surprise [5.5] ---------------------------------------------------------------

def _efst(seed: int = 1) -> GameState:
    s = physical(ready(seed))
    s = act(s, "declare_order", "german", order="move_fight")
    while step_id(s) != "efst":
        s = act(s, "end_step", prompt(game(), s).side)
    return s


def test_5_5_efst_rolled_at_the_start_of_i_d_on_turn_1() -> None:
    s = _efst()
    assert s.turn == 1 and s.frames[-1].kind == "dice" and s.frames[-1].side == "german"


def test_5_5_ignore_rivers_on_turn_1() -> None:
    s = roll(_efst(), "german", 1)
    assert s.var(V_IGNORE_RIVERS_T1) is True and s.var(V_EFST) == "total_surprise"
    assert not s.frames  # nothing for the Soviet to do: the German ends the step
    assert step_id(act(s, "end_step", "german")) == "german_east_move_d"


def test_5_5_efst_is_never_consulted_twice() -> None:
    s = roll(_efst(), "german", 3)
    again = goto(s, "efst", turn=1)
    assert not again.frames  # already rolled this game


def test_5_5_soviet_redeployment_only_inside_ussr_estonia_latvia() -> None:
    s = roll(_efst(), "german", 4)  # our EFST: redeploy 2
    assert s.frames[-1].kind == "efst_soviet" and s.frames[-1].side == "soviet"
    p = prompt(game(), s)
    b = board()
    assert p.moves
    for dests in p.moves.values():
        assert all(b.hex(h).region in (USSR, ESTONIA, LATVIA) and not b.hex(h).red_row
                   for h in dests)
    pid = sorted(p.moves)[0]
    with pytest.raises(IllegalAction):
        do(s, "move", "soviet", piece=pid, to="4304")  # Former Poland
    s = act(s, "move", "soviet", piece=pid, to=p.moves[pid][0])
    assert s.piece(pid).location == p.moves[pid][0]
    assert pid not in prompt(game(), s).moves  # each unit redeploys once
    s = act(s, "move", "soviet", piece=sorted(prompt(game(), s).moves)[0],
            to=prompt(game(), s).moves[sorted(prompt(game(), s).moves)[0]][0])
    assert not s.frames and step_id(s) == "german_east_move_d"  # the German goes on


def test_5_5_june_reinforcements_enter_untried_by_the_places_of_9_5() -> None:
    s = roll(_efst(), "german", 5)  # our EFST: 2 June reinforcements
    p = prompt(game(), s)
    june = {x.id for x in s.pieces_at(trt_box(1))}
    assert set(p.moves) == june
    pid = sorted(june)[0]
    assert "4215" in p.moves[pid] and "4500" not in p.moves[pid]
    s = act(s, "move", "soviet", piece=pid, to="4215")
    assert hidden.is_untried(s.piece(pid))
    with pytest.raises(IllegalAction):  # only the June pile comes early, not turn 2's
        do(s, "move", "soviet", piece=next(iter(s.pieces_at(trt_box(2)))).id, to="4215")
    s = act(s, "efst_done", "soviet")
    assert not s.frames and step_id(s) == "german_east_move_d"


# --- Far East [12.5] -----------------------------------------------------------------------

def _soviet_step(step: str, turn: int = 2, s: GameState | None = None) -> GameState:
    return goto(physical(s if s is not None else clear(ready())), step, turn=turn)


def test_12_5_far_east_armies_go_to_this_turns_trt_box_and_force_a_jifet_roll() -> None:
    s = _soviet_step("far_east")
    fe = sorted(p.id for p in s.pieces_at(SFEHB))
    assert set(prompt(game(), s).moves) == set(fe)
    s = act(s, "move", "soviet", piece=fe[0], to=trt_box(2))
    s = act(s, "move", "soviet", piece=fe[1], to=trt_box(2))
    s = act(s, "end_step", "soviet")
    s = roll(s, "soviet", 5)  # 5 + 2 transferred = 7: Japan enters (our JIFET)
    assert s.var(V_JAPAN) is True
    s = _soviet_step("far_east", turn=3, s=s)
    assert not prompt(game(), s).moves  # the last army is frozen [12.5]
    assert s.piece(fe[2]).location == SFEHB


def test_12_5_no_transfer_no_jifet_roll() -> None:
    s = act(_soviet_step("far_east"), "end_step", "soviet")
    assert not s.frames and not s.var(V_JAPAN, False)


def test_12_5_japan_stays_out_on_a_low_roll() -> None:
    s = _soviet_step("far_east")
    fe = sorted(p.id for p in s.pieces_at(SFEHB))
    s = act(act(s, "move", "soviet", piece=fe[0], to=trt_box(2)), "end_step", "soviet")
    s = roll(s, "soviet", 5)  # 5 + 1 = 6: no entry
    assert not s.var(V_JAPAN, False)


# --- Arctic [12.6] ---------------------------------------------------------------------------

def test_12_6_arctic_moves_only_one_way_a_turn() -> None:
    s = _soviet_step("arctic")
    inside = sorted(p.id for p in s.pieces_at(SAFHB))
    new = sorted(p.id for p in s.pieces_at(trt_box(2)))
    assert len(inside) == 2 and new
    s = act(s, "move", "soviet", piece=new[0], to=SAFHB)
    moves = prompt(game(), s).moves
    assert not set(inside) & set(moves)  # reinforcing this turn: nobody comes out
    with pytest.raises(IllegalAction):
        do(s, "move", "soviet", piece=inside[0], to=trt_box(2))


def test_12_6_fjwt_rolled_with_two_or_fewer_armies_in_the_box() -> None:
    s = act(_soviet_step("arctic"), "end_step", "soviet")
    assert s.frames[-1].kind == "dice"  # 2 armies: the Finns are tempted
    s = roll(s, "soviet", 6)  # 6 + 1 (one army short of 3) = 7: Finland joins
    assert s.var(V_FINLAND) is True


def test_12_6_no_fjwt_with_three_armies_in_the_box() -> None:
    s = _soviet_step("arctic")
    new = sorted(p.id for p in s.pieces_at(trt_box(2)))
    s = act(act(s, "move", "soviet", piece=new[0], to=SAFHB), "end_step", "soviet")
    assert not s.frames and not s.var(V_FINLAND, False)


def test_12_6_finland_at_war_freezes_the_arctic_box() -> None:
    s = _soviet_step("arctic", s=clear(ready()).with_var(V_FINLAND, True))
    inside = {p.id for p in s.pieces_at(SAFHB)}
    assert inside and not inside & set(prompt(game(), s).moves)


# --- Southwest and Romania [12.4, 12.7, 12.8] ------------------------------------------------

def test_12_7_no_unit_moves_into_two_portions_in_one_turn() -> None:
    s = _soviet_step("southwest")
    jugs = sorted(p.id for p in s.pieces_at(SSWFHB_JUST_ARRIVED))
    assert len(jugs) == 3 and prompt(game(), s).moves[jugs[0]] == (SSWFHB_ELIGIBLE,)
    s = act(s, "move", "soviet", piece=jugs[0], to=SSWFHB_ELIGIBLE)
    assert jugs[0] not in prompt(game(), s).moves
    with pytest.raises(IllegalAction):
        do(s, "move", "soviet", piece=jugs[0], to=SSWFHB_ROMANIA)
    s = _soviet_step("southwest", turn=3, s=s)
    assert SSWFHB_ROMANIA in prompt(game(), s).moves[jugs[0]]


def _eligible_jugs(s: GameState) -> tuple[GameState, list[str]]:
    jugs = sorted(p.id for p in s.pieces_at(SSWFHB_JUST_ARRIVED))
    for pid in jugs:
        s = put(s, pid, SSWFHB_ELIGIBLE)
    return s, jugs


def test_12_7_eligible_units_may_enter_the_map_through_the_trt_box() -> None:
    s, jugs = _eligible_jugs(clear(ready()))
    s = act(_soviet_step("southwest", s=s), "move", "soviet", piece=jugs[0], to=trt_box(2))
    s = goto(s, "soviet_reinforcement", turn=2)
    assert "4215" in prompt(game(), s).moves[jugs[0]]


def test_12_4_germans_react_the_first_time_the_soviets_enter_romania() -> None:
    s, jugs = _eligible_jugs(clear(ready()))
    inf = ids(s, "ger_infantry", 2)
    s = put(put(s, inf[0], GSRHB_ELIGIBLE), inf[1], GSRHB_ELIGIBLE)
    s = act(_soviet_step("southwest", s=s), "move", "soviet", piece=jugs[0], to=SSWFHB_ROMANIA)
    assert s.var(V_ROMANIA_WAR) is True
    assert s.frames[-1].kind == "romania_reaction" and s.frames[-1].side == "german"
    s = act(s, "move", "german", piece=inf[0], to=SSWFHB_ROMANIA)
    s = act(s, "done", "german")
    assert not s.frames and s.piece(inf[0]).location == SSWFHB_ROMANIA
    s = act(s, "move", "soviet", piece=jugs[1], to=SSWFHB_ROMANIA)
    assert not s.frames  # no second interrupt in the same war


def test_12_8_soviets_in_romania_must_attack_the_germans_there() -> None:
    s, jugs = _eligible_jugs(clear(ready()))
    inf = ids(s, "ger_infantry", 1)[0]
    s = put(s, inf, SSWFHB_ROMANIA).with_var(V_ROMANIA_WAR, True)
    s = act(_soviet_step("southwest", s=s), "move", "soviet", piece=jugs[0], to=SSWFHB_ROMANIA)
    with pytest.raises(IllegalAction):
        do(s, "end_step", "soviet")
    assert any(b.id == "attack_romania" for b in prompt(game(), s).buttons)


def _crt(column: str) -> tuple[str, ...]:
    return tuple(game().definition.tables["combat"]["crt"][column])


def _romania(attackers: int) -> tuple[GameState, list[str], str]:
    """`attackers` Juggernauts with one German infantry corps In Romania (war on)."""
    s, jugs = _eligible_jugs(clear(ready()))
    inf = ids(s, "ger_infantry", 1)[0]
    s = put(s, inf, SSWFHB_ROMANIA).with_var(V_ROMANIA_WAR, True)
    s = _soviet_step("southwest", s=s)
    for pid in jugs[:attackers]:
        s = act(s, "move", "soviet", piece=pid, to=SSWFHB_ROMANIA)
    return s, jugs[:attackers], inf


def _odds_column(s: GameState, jugs: list[str], inf: str) -> str:
    """By hand: the Juggernauts' hidden attack factors against the corps' defense 6."""
    att = sum(int(hidden.secrets(s)[pid]["values"][0]) for pid in jugs)
    ratio = att // 6  # 1:1 .. 5:1, rounded for the defender
    return f"{min(max(ratio, 1), 5)}-1" if att >= 6 else ("1-2" if att * 2 >= 6 else "1-3")


def test_12_8_a_dr_in_romania_becomes_as() -> None:
    s, jugs, inf = _romania(1)
    col = _odds_column(s, jugs, inf)
    die = _crt(col).index("DR") + 1
    s = roll(act(s, "attack_romania", "soviet"), "soviet", die)
    assert s.piece(inf).location == SSWFHB_ROMANIA and A_STEP not in s.piece(inf).attrs
    assert s.piece(jugs[0]).location == SSWFHB_ROMANIA  # nothing happens [11.15]
    assert not hidden.is_untried(s.piece(jugs[0]))  # the attack revealed it [2.12]


def test_12_8_only_soviets_left_in_romania_ploesti_falls() -> None:
    s, jugs, inf = _romania(3)
    col = _odds_column(s, jugs, inf)
    assert "DE" in _crt(col)
    s = roll(act(s, "attack_romania", "soviet"), "soviet", _crt(col).index("DE") + 1)
    assert s.piece(inf).attrs.get(A_STEP) == 2  # DE: a two-step corps loses a step [11.17]
    s = put(s, inf, DEAD)
    s = act(s, "end_step", "soviet")
    assert s.var(V_PLOESTI) is True


def test_12_8_romanian_war_ends_when_no_soviets_are_left() -> None:
    s = clear(ready()).with_var(V_ROMANIA_WAR, True)
    inf = ids(s, "ger_infantry", 1)[0]
    s = put(s, inf, SSWFHB_ROMANIA)
    s = act(_soviet_step("southwest", s=s), "end_step", "soviet")
    assert s.var(V_ROMANIA_WAR) is False and not s.var(V_PLOESTI, False)


def test_12_8_invasion_without_german_defenders_takes_ploesti() -> None:
    s, jugs = _eligible_jugs(clear(ready()))
    for p in s.pieces_at(GSRHB_ELIGIBLE):  # no German reserve to react with
        s = put(s, p.id, DEAD)
    s = act(_soviet_step("southwest", s=s), "move", "soviet", piece=jugs[0], to=SSWFHB_ROMANIA)
    assert not s.frames  # nothing Eligible to Leave the GSRHB: no reaction to make
    s = act(s, "end_step", "soviet")
    assert s.var(V_PLOESTI) is True


def test_6_10_after_ploesti_the_east_sequence_is_move_fight_only() -> None:
    s = ready().with_var(V_PLOESTI, True)
    with pytest.raises(IllegalAction):
        do(goto(s, "east_order", turn=2), "declare_order", "german", order="fight_move")


def test_9_10_units_dying_in_romania_go_to_the_replacement_pile() -> None:
    s, jugs, inf = _romania(1)
    col = _odds_column(s, jugs, inf)
    if "AL1" not in _crt(col):
        pytest.fail(f"our CRT column {col} has no AL1; pick another situation")
    s = roll(act(s, "attack_romania", "soviet"), "soviet", _crt(col).index("AL1") + 1)
    assert s.frames[-1].kind == "romania_loss" and s.frames[-1].side == "soviet"
    s = act(s, "romania_loss", "soviet", piece=jugs[0])
    assert s.piece(jugs[0]).location == DEAD  # a Juggernaut leaves play [9.6]
    subs = [p for p in s.pieces_at(SOVIET_REPLACEMENTS) if p.attrs.get("red_dot")]
    assert len(subs) == 1


def test_12_8_bloodbath_in_romania_the_side_with_fewer_steps_dies() -> None:
    s, jugs, inf = _romania(1)  # one one-step army against a two-step corps
    col = _odds_column(s, jugs, inf)
    s = roll(act(s, "attack_romania", "soviet"), "soviet", _crt(col).index("BB") + 1)
    assert s.piece(jugs[0]).location == DEAD  # 1 step < 2 steps: all eliminated [11.20]
    assert s.frames[-1].kind == "romania_loss" and s.frames[-1].side == "german"
    s = act(s, "romania_loss", "german", piece=inf)
    assert s.piece(inf).attrs.get(A_STEP) == 2 and not s.frames  # as many steps: one


def test_11_20_equal_bloodbath_in_romania_the_attacker_names_the_steps() -> None:
    s, jugs, inf = _romania(2)  # two one-step armies against a two-step corps: 2 = 2
    col = _odds_column(s, jugs, inf)
    s = roll(act(s, "attack_romania", "soviet"), "soviet", _crt(col).index("BB") + 1)
    assert s.frames[-1].kind == "romania_bloodbath" and s.frames[-1].side == "soviet"
    assert [b.args["steps"] for b in prompt(game(), s).buttons] == [1, 2]
    s = act(s, "romania_bloodbath", "soviet", steps=1)
    s = act(s, "romania_loss", "soviet", piece=jugs[1])
    s = act(s, "romania_loss", "german", piece=inf)
    assert s.piece(jugs[1]).location == DEAD and s.piece(jugs[0]).location == SSWFHB_ROMANIA
    assert s.piece(inf).attrs.get(A_STEP) == 2 and not s.frames


def test_6_10_after_ploesti_german_east_mech_movement_is_halved_rounded_up() -> None:
    from wartable.games.whatif1940 import units

    s = ready()
    pz = s.piece(ids(s, "ger_panzer", 1)[0])
    inf = s.piece(ids(s, "ger_infantry", 1)[0])
    g = game()
    assert units.movement_factor(g, s, pz, "whatif1940/east") == 12  # GEMMF turn 1 [2.10]
    s = s.with_var(V_PLOESTI, True)
    assert units.movement_factor(g, s, pz, "whatif1940/east") == 6
    assert units.movement_factor(g, s, inf, "whatif1940/east") == 6  # non-mech unchanged


def test_the_front_tables_are_checked_data_with_every_result_handled() -> None:
    from wartable.core.errors import DataError
    from wartable.engine.procedures import Procedure, check_predicates
    from wartable.games.whatif1940.steps import fronts, moscow, offmap

    g = game()
    mft = offmap.procedure(g, "moscow_falls", moscow.CONDITIONS)
    assert mft.provisional and {b.result for b in mft.bands} == {"holds", "falls"}
    efst = offmap.procedure(g, "east_front_surprise", ())
    effects = g.definition.tables["efst_effects"]
    assert {b.result for b in efst.bands} <= set(effects)
    assert {b.result for b in offmap.procedure(g, fronts.RESUME_JIFET).bands} == {
        "no_entry", "japan_enters"}
    assert {b.result for b in offmap.procedure(g, fronts.RESUME_FJWT).bands} == {
        "no_entry", "finland_enters"}
    raw = dict(g.definition.tables["moscow_falls"])
    raw["modifiers"] = [{**dict(raw["modifiers"][0]), "condition": "finland_at_wra"}]
    with pytest.raises(DataError):
        check_predicates(Procedure.from_dict(raw, "test"), moscow.CONDITIONS)


def test_9_7_first_shock_gives_its_attack_in_romania_one_column_right() -> None:
    s = clear(ready())
    shock = ids(s, "sov_1st_shock", 1)[0]
    inf = ids(s, "ger_infantry", 1)[0]
    s = put(put(s, shock, SSWFHB_ELIGIBLE), inf, SSWFHB_ROMANIA).with_var(V_ROMANIA_WAR, True)
    s = act(_soviet_step("southwest", s=s), "move", "soviet", piece=shock, to=SSWFHB_ROMANIA)
    s = act(s, "attack_romania", "soviet")
    text = log_text(s, "soviet", 1)
    # 8 (1st Shock, face up) against 6: 1:1 raw, one column right for 1st Shock = 2:1.
    assert "8 against 6" in text and "+1 1st Shock Army attacks [9.7]" in text
    assert "2-1, roll 1" in text


def test_11_14_romania_below_1_to_3_is_an_automatic_al1_without_a_roll() -> None:
    s = clear(ready())
    jug = sorted(p.id for p in s.pieces_at(SSWFHB_JUST_ARRIVED))[0]
    inf = ids(s, "ger_infantry", 4)
    s = put(s, jug, SSWFHB_ELIGIBLE).with_var(V_ROMANIA_WAR, True)
    for pid in inf:  # 24 defense against one army (5-7 attack): below 1:3
        s = put(s, pid, SSWFHB_ROMANIA)
    s = act(_soviet_step("southwest", s=s), "move", "soviet", piece=jug, to=SSWFHB_ROMANIA)
    s = act(s, "attack_romania", "soviet")
    assert s.frames[-1].kind == "romania_loss"  # no dice frame: straight to the AL1 loss
