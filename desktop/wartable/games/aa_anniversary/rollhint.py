"""What an asked roll decides and its chances (`Rules.explain_roll`, Game > Hint, issue 7).

- Battle rolls (General Combat steps 2-4, Submarine Surprise Strikes, bombardment, AA fire;
  pg. 18-19, 25): each side's fire groups as the engine will read the dice (`round_groups`):
  a die hits on its value or less, so the chance of each number of hits is exact.
- Strategic Bombing Raids (pg. 17, 24-25): AA fire at the raiders, the escorts' and
  interceptors' one round, and the damage total against the complex's cap.
- Research (Phase 1): the chance of at least one breakthrough face among the research dice;
  rockets and War Bonds: the total rolled.
A breakthrough chart's single die is left to the face-by-face table the hint works out itself.
"""

from __future__ import annotations

from wartable.engine.rollodds import DiceGroup, at_value, success_line, total_line
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.steps import bombing
from wartable.games.aa_anniversary.steps.battle import forces
from wartable.games.aa_anniversary.steps.common import space_name, world
from wartable.model.state import Frame, GameState, Piece

HITS_RULE = "a die hits on its number or less"


def round_groups(game: Game, state: GameState, kind: str
                 ) -> tuple[tuple[c.FireGroup, ...], tuple[c.FireGroup, ...]]:
    """The fire groups (attacker, defender) of a battle roll, from the forces in `state` and
    the round's plan the engine stored ("battle_plan", General Combat Step 2)."""
    att = forces.force(forces.role_pieces(game, state, "attacker"))
    dfn = forces.force(forces.defenders(game, state, str(state.var("battle")),
                                        state.active_side))
    cat = forces.battle_values(game, state)
    if kind == "bombard":  # Amphibious Assaults, Step 2: the chosen ships roll
        ships = tuple(state.pieces[i] for i in state.var("bombard", ()) if i in state.pieces)
        return c.bombard_groups(forces.force(ships), cat), ()
    a, d, _aa, _da = (bool(x) for x in state.var("battle_plan", (False,) * 4))
    if kind == "strike":
        return (c.strike_groups(att, c.ATTACK, cat) if a else (),
                c.strike_groups(dfn, c.DEFENSE, cat) if d else ())
    return (c.fire_groups(att, c.ATTACK, cat, skip_subs=a),
            c.fire_groups(dfn, c.DEFENSE, cat, skip_subs=d))


def _unit_name(game: Game, unit: str) -> str:
    ut = game.definition.unit_types.get(unit)
    return ut.name if ut is not None else unit


def _units(game: Game, pieces: tuple[Piece, ...] | list[Piece]) -> str:
    """"2 Infantry, 1 Tank": a side's units, by type (Force.describe)."""
    return forces.force(tuple(pieces)).describe(world(game).catalog)


def _groups(gs: tuple[c.FireGroup, ...], at: tuple[str, ...] = ()) -> list[DiceGroup]:
    return [at_value(g.value, g.count, g.best_of, 6, at[i] if i < len(at) else "")
            for i, g in enumerate(gs)]


def _battle(game: Game, state: GameState, kind: str, count: int) -> tuple[str, ...]:
    space, power = str(state.var("battle")), state.active_side
    if kind == "aa":  # Antiaircraft Guns (pg. 25): one die at each attacking aircraft
        gs = c.aa_groups(forces.force(forces.attackers(game, state, space, power)),
                         forces.force(forces.defenders(game, state, space, power)),
                         forces.battle_values(game, state))
        rolls = [("AA gun", gs, tuple(_unit_name(game, g.kind) for g in gs))]
    else:
        ga, gd = round_groups(game, state, kind)
        att = forces.attackers(game, state, space, power)
        dfn = forces.defenders(game, state, space, power)
        rolls = [(f"Attacker ({_units(game, att)})", ga, ()),
                 (f"Defender ({_units(game, dfn)})", gd, ())]
    if sum(c.dice_count(gs) for _, gs, _ in rolls) != count:
        return ()  # not the roll these groups make: say only what it is for
    return tuple(success_line(who, _groups(gs, at), HITS_RULE)
                 for who, gs, at in rolls if gs)


def _raid(game: Game, state: GameState, kind: str, count: int) -> tuple[str, ...]:
    space, power = str(state.var("raid")), state.active_side
    air = bombing.raiders(state, space, power)
    if kind == "sbr_aa":  # one die per raider, bombers first (pg. 25)
        v = bombing.aa_value(game, state, space, power)
        if len(air) != count:
            return ()
        return (success_line(f"AA gun ({_units(game, air)})", [at_value(v, count)],
                             f"each die at a raider in turn, {HITS_RULE}", "aircraft shot down",
                             "aircraft shot down"),)
    if kind == "sbr_air":  # Fighter Escorts and Interceptors (pg. 24): one round together
        escorts = sum(1 for p in air if p.type == "fighter")
        icpt = len(bombing.interceptors(state, space))
        if escorts + icpt != count:
            return ()
        jets = research.has(state, power, research.JET_FIGHTERS)
        av = bombing.ESCORT_JET_ATTACK if jets else bombing.ESCORT_ATTACK
        lines = []
        if escorts:
            lines.append(success_line("Escorts", [at_value(av, escorts)], HITS_RULE))
        if icpt:
            lines.append(success_line("Interceptors",
                                      [at_value(bombing.INTERCEPT_DEFENSE, icpt)], HITS_RULE))
        return tuple(lines)
    # "sbr_damage": each bomber's die (Heavy Bombers: the better of two) adds to the total
    per = research.bomber_dice(game, state, power)
    if count % per:
        return ()
    room = bombing.damage_cap(game, space) - bombing.damage(game, state, space)
    return (total_line(f"Damage to the industrial complex in {space_name(game, space)}",
                       count // per, 6, per, room),)


def explain(game: Game, state: GameState, frame: Frame) -> tuple[str, ...]:
    kind, count = str(frame.data.get("resume", "")), int(frame.data.get("count", 0))
    if int(frame.data.get("sides", 6)) != 6:
        return ()
    if kind in ("round", "strike", "bombard", "aa"):
        return _battle(game, state, kind, count)
    if kind in ("sbr_aa", "sbr_air", "sbr_damage"):
        return _raid(game, state, kind, count)
    if kind == "research_dice":  # Phase 1, Step 2: one success face makes a breakthrough
        face = research.research_table(game).success_face
        return (success_line("Research dice", [DiceGroup(
            f"{count} {'die' if count == 1 else 'dice'}, a {face} is a breakthrough", count,
            1 / 6)], "", "breakthrough", "breakthroughs"),)
    if kind == "rocket":
        target = str(frame.data["data"]["target"])
        room = bombing.damage_cap(game, target) - bombing.damage(game, state, target)
        return (total_line(f"Rocket damage to the industrial complex in "
                           f"{space_name(game, target)}", count, 6, 1, room),)
    if kind == "war_bonds":
        return (total_line("War Bonds: IPCs collected", count),)
    return ()
