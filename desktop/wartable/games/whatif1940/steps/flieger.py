"""The 7th Flieger Corps airdrop, landing and airborne assault [8.2, 8.7, 10.15-10.24, 11.8,
11.10, 12.2, 12.3].

- Once per game, from the GSRHB "Eligible to Leave", at any instant of a German movement or
  combat phase (a button in those steps: verb "airdrop") [8.7].
- Where: a land hex of the phase's map that is not marsh or hill/mountain [8.7]; on the west
  map only in Greater Germany and never in the Hunsruck [12.2]; never a red row hex (12.9,
  the digest's inference). An empty or friendly hex must have room [12.2 design note].
  (Ours: the phase's map only, so a combined assault shares the phase.)
- Never onto a map where an unsuppressed enemy aircraft is present [8.2]: the two
  Anglo-French aircraft for the west map, the Soviet one for the east [8.5].
- Landing: the FCLT (data/air.toml, provisional) may eliminate the 7th or cost it a step.
- Onto an enemy unit or intrinsic garrison: an airborne assault, resolved like a prepared
  assault with the combat part's CRT and results. The 7th attacks with its defence factor
  8 (7 reduced) [8.7]; no river shift ever [8.7, 10.24, 11.8]; in a combat phase adjacent
  German units may join (PA/AA), which counts as concentric even against a city [11.10];
  a pure AA is not concentric. If the hex is not cleared the 7th is eliminated [8.7,
  10.19]; if cleared it stays there [10.20]. Once landed it is static (unit data).
- The GAST [6.11] is rolled for an east PA/AA from its first turn when a German ground
  partner is in supply (never for a pure AA: the 7th is always supplied when it drops
  [10.17]); "cancel" (ours) cancels the ground units' part, the 7th then assaults alone.
- In a movement phase one panzer force that may mobile assault the hex may join (an
  MA/AA [10.24]): it pays its MA cost only if the hex is cleared and moves on [10.20], else
  it stops in its launch hex [10.19] (the combat part's MA handling).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine import procflow
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import roll_then
from wartable.engine.odds import Shift
from wartable.engine.rules import Game
from wartable.games.whatif1940 import air, hidden, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.handlers import FrameHandler, StepHandler
from wartable.games.whatif1940.ids import (
    A_DONE,
    A_GSRHB_TURN,
    A_MA_DONE,
    A_MOVED,
    A_STEP,
    ANGLO_FRENCH,
    EAST,
    GERMAN,
    GREATER_GERMANY,
    GSRHB_ELIGIBLE,
    SOVIET,
    V_AIR_SUPPRESSED,
    V_AIRBORNE,
    V_FLIEGER_DROPPED,
    V_MOVING_PARENT,
    V_PLOESTI,
    WEST,
)
from wartable.games.whatif1940.steps import (
    combat,
    combat_odds,
    combat_table,
    control,
    losses,
    mobile_assault,
    movement,
    stacking,
)
from wartable.games.whatif1940.steps.offmap import Pred, procedure, relocate
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece

SEVENTH = "ger_7th_flieger"
VERB = "airdrop"
CANCEL = "airdrop_cancel"
JOIN = "aa_join"
F_DROP = "w40_drop"
F_JOIN = "w40_aa_join"
F_AIR = "w40_aa_air"
TABLE = "flieger_landing"
RESUME_LAND = "w40_fclt"
RESUME_AA = "w40_aa_crt"
RESUME_GAST = "w40_aa_gast"
CONDITIONS = ("rough_ground", "built_up", "opposed", "german_adjacent")
NO_DROP_TERRAIN = frozenset({"marsh", "hill", "mountain"})  # [8.7]

# German movement and combat step ids -> (map, "move" | "combat") [5.2, 8.7].
STEPS: dict[str, tuple[str, str]] = {
    "german_west_move": (WEST, "move"),
    "german_east_move_d": (EAST, "move"),
    "german_east_move_e": (EAST, "move"),
    "german_west_combat": (WEST, "combat"),
    "german_east_combat_d": (EAST, "combat"),
    "german_east_combat_e": (EAST, "combat"),
}


# --- may the 7th drop, and where [8.2, 8.7, 12.2, 12.3, 12.9] ------------------------------

def seventh(state: GameState) -> Piece | None:
    """The 7th Flieger Corps while it waits in the GSRHB Eligible to Leave box."""
    return next((p for p in state.pieces_at(GSRHB_ELIGIBLE) if p.type == SEVENTH), None)


def enemy_air_up(game: Game, state: GameState, map_id: str) -> tuple[str, ...]:
    """Unsuppressed enemy aircraft present on `map_id` [8.2, 8.5]."""
    gone = set(state.var(V_AIR_SUPPRESSED, ()))
    out: list[str] = []
    for side in (ANGLO_FRENCH, SOVIET):
        if map_id in air.THEATRES[side][0]:
            out.extend(p.id for p in air.aircraft(game, state, side) if p.id not in gone)
    return tuple(out)


def hostile(game: Game, board: Board, state: GameState, label: str) -> bool:
    """An enemy unit or an enemy intrinsic garrison holds the hex [8.7, 11.21]."""
    return bool(combat_odds.defenders(game, state, label, GERMAN)) or \
        combat_odds.garrison_defends(game, board, state, label, GERMAN)


def hex_why_not(game: Game, board: Board, state: GameState, step_id: str, label: str) -> str:
    """Why the 7th may not drop into `label` now ("" when it may)."""
    map_id, when = STEPS[step_id]
    h = board.hexes.get(label)
    if h is None or h.map_id != map_id:
        return "Drop into a hex of this phase's map (ours) [8.7]"
    tec = game.definition.tables["terrain_effects"]
    if h.terrain in set(tec["impassable"]):
        return f"{label} is all sea or lake [8.7]"
    if h.west and h.region != GREATER_GERMANY:
        return "On the west map the 7th drops only within Greater Germany [12.2]"
    if "hunsruck" in h.features:
        return "The 7th never drops into the Hunsruck Mountains [12.2]"
    if h.terrain in NO_DROP_TERRAIN:
        return f"The 7th never drops into {h.terrain} [8.7]"
    if h.red_row:
        return "The 7th never drops into red row hexes [12.9]"
    p = seventh(state)
    if hostile(game, board, state, label):
        if any(combat_odds.neutral_unit(game, state, q) for q in state.pieces_at(label)):
            return f"{label} holds neutral units: they are not at war [3.4, 3.6]"
        if when == "combat" and label in combat.record(state).get("hexes", ()):
            return f"{label} has already been attacked this phase [11.4]"
        return ""
    if p is not None:
        reason = stacking.why_not(game, board, state, label, (p,), stop=True)
        if reason:
            return reason
    return ""


def why_no_drop(game: Game, board: Board, state: GameState, step_id: str) -> str:
    """Why the 7th may not drop now at all ("" when it may somewhere)."""
    if step_id not in STEPS:
        return "The 7th drops only in a German movement or combat phase [8.7]"
    if state.var(V_FLIEGER_DROPPED, False):
        return "The 7th Flieger Corps drops once per game [8.7]"
    if seventh(state) is None:
        return "The 7th Flieger Corps is not in the GSRHB Eligible to Leave box [8.7, 12.1]"
    if combat.battle(state):
        return "Finish the battle under way first"
    map_id, _ = STEPS[step_id]
    up = enemy_air_up(game, state, map_id)
    if up:
        names = ", ".join(str(state.piece(i).attrs.get("name", i)) for i in up)
        return (f"Unsuppressed enemy aircraft are present on this map ({names}): suppress "
                "them with air superiority first [8.2]")
    return ""


def drop_hexes(game: Game, board: Board, state: GameState, step_id: str) -> tuple[str, ...]:
    if why_no_drop(game, board, state, step_id):
        return ()
    map_id, _ = STEPS[step_id]
    return tuple(h for h in board.labels(map_id)
                 if not hex_why_not(game, board, state, step_id, h))


def buttons(game: Game, board: Board, state: GameState, step_id: str) -> tuple[Button, ...]:
    """The airdrop button of a German movement or combat step (while the 7th waits)."""
    if step_id not in STEPS or seventh(state) is None or \
            state.var(V_FLIEGER_DROPPED, False):
        return ()
    reason = why_no_drop(game, board, state, step_id)
    return (Button(VERB, "Airdrop the 7th Flieger Corps", "8.7", enabled=not reason,
                   reason=reason),)


# --- the drop and the landing [8.7] ---------------------------------------------------------

def declare(game: Game, board: Board, state: GameState, step_id: str,
            action: Action) -> Outcome:
    """The airdrop verb: with `to`, drop there now; without, ask where (a frame)."""
    if action.side != GERMAN:
        raise IllegalAction("Only the German airdrops the 7th Flieger Corps [8.7].")
    reason = why_no_drop(game, board, state, step_id)
    if reason:
        raise IllegalAction(reason + ".")
    to = action.args.get("to")
    if to is None:
        text = ("Airdrop the 7th Flieger Corps: choose the landing hex (not marsh, hill or "
                "mountain; west map: Greater Germany outside the Hunsruck). Landing on an "
                "enemy unit or garrison makes an airborne assault [8.7, 12.2, 12.3].")
        frame = Frame(F_DROP, GERMAN, text, "8.7", FrozenMap(step=step_id))
        return Outcome(state.push_frame(frame))
    if not isinstance(to, str):
        raise IllegalAction("Name the landing hex (to) [8.7].")
    return drop(game, board, state, step_id, to)


def drop(game: Game, board: Board, state: GameState, step_id: str, label: str) -> Outcome:
    reason = hex_why_not(game, board, state, step_id, label)
    if reason:
        raise IllegalAction(reason + ".")
    state = state.with_var(V_FLIEGER_DROPPED, True)
    ev = Event("info", f"The 7th Flieger Corps airdrops onto {label}", GERMAN, "8.7")
    proc = procedure(game, TABLE, CONDITIONS)
    out = procflow.run_procedure(game, state, proc, predicates(game, board, state, label),
                                 side=GERMAN, purpose="7th Flieger Corps Landing Table",
                                 resume=RESUME_LAND,
                                 data=FrozenMap(hex=label, step=step_id))
    return Outcome(state, (ev,)).then(out)


def predicates(game: Game, board: Board, state: GameState, label: str) -> dict[str, Pred]:
    """The FCLT's DRM conditions (ours, data/air.toml)."""
    h = board.hex(label)
    return {
        "rough_ground": lambda: h.terrain in ("forest", "ardennes"),
        "built_up": lambda: h.city,
        "opposed": lambda: hostile(game, board, state, label),
        "german_adjacent": lambda: any(
            q.side == GERMAN and units.is_ground(game, q)
            for n in board.neighbors[label] for q in state.pieces_at(n)),
    }


def resume_landing(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
                   dice: tuple[int, ...]) -> Outcome:
    proc = procedure(game, TABLE)
    res = procflow.resolution(proc, data, dice)
    mine = procflow.user_data(data)
    label, step_id = str(mine["hex"]), str(mine["step"])
    note = " (provisional table)" if proc.provisional else ""
    out = Outcome(state, (Event("roll", f"7th Flieger Corps Landing Table{note}: "
                                f"{res.text()}", GERMAN, "8.7"),))
    p = seventh(state)
    if p is None:  # nothing to land (edited position)
        return out
    if res.result == "eliminated":
        return out.then(losses.eliminate(game, state, p, "8.7"))
    if res.result == "step_lost":
        p = p.with_attr(A_STEP, 2)
    out = out.then(relocate(game, state, p, label, "8.7", **{A_GSRHB_TURN: state.turn}))
    st = out.state
    if not hostile(game, board, st, label):
        # [3.12] it takes control of the hex it lands in; [8.7] now static for good.
        st = control.enter(game, board, st, st.piece(p.id), (label,))
        return Outcome(st, out.events)
    return out.then(start_assault(game, board, st, step_id, label))


# --- the airborne assault [8.7, 10.15-10.24, 11.8, 11.10] ----------------------------------

def partners(game: Game, board: Board, state: GameState, step_id: str,
             target: str) -> tuple[tuple[str, ...], ...]:
    """Who may join the 7th's assault [8.7, 10.24]: in a combat phase each adjacent German
    unit that may still attack (any of them together: a PA/AA [11.4, 11.5]); in a movement
    phase each panzer force that may mobile assault the hex now (one of them: an MA/AA
    [10.15-10.18])."""
    map_id, when = STEPS[step_id]
    if when == "move":
        return tuple(tuple(p.id for p in f)
                     for f in mobile_assault.groups(game, board, state, step_id)
                     if not mobile_assault.why_not(game, board, state, f, target, step_id))
    side_imp = set(game.definition.tables["terrain_effects"]["hexside_impassable"])
    return tuple((p.id,) for p in combat.attackers_available(game, board, state, GERMAN,
                                                             map_id)
                 if target in board.neighbors[p.location]
                 and not board.side_features(p.location, target) & side_imp)


def start_assault(game: Game, board: Board, state: GameState, step_id: str,
                  target: str) -> Outcome:
    """The 7th has landed on the enemy: it must assault [8.7]."""
    state = state.with_var(V_AIRBORNE, FrozenMap(target=target, step=step_id, attackers=(),
                                                  air_attack=0, air_defense=0))
    can = partners(game, board, state, step_id, target)
    if can:
        what = "a panzer force's mobile assault (an MA/AA)" if STEPS[step_id][1] == "move" \
            else "adjacent German units (a PA/AA)"
        text = (f"The 7th Flieger Corps has landed on {target}: assault alone, or with "
                f"{what}? Combined: concentric [11.10], no river shift [11.8, 10.23].")
        frame = Frame(F_JOIN, GERMAN, text, "8.7, 10.24",
                      FrozenMap(forces=can, combine=STEPS[step_id][1] == "combat"))
        return Outcome(state.push_frame(frame))
    return begin(game, board, state, ())


def _rec(state: GameState) -> FrozenMap[str, Any]:
    rec: FrozenMap[str, Any] = state.var(V_AIRBORNE, FrozenMap())
    return rec


def crt_column(state: GameState) -> str | None:
    """The CRT column the airborne assault being resolved rolls on [8.7, 11.3], if set."""
    col = _rec(state).get("column")
    return None if col is None else str(col)


def _set(state: GameState, **kw: Any) -> GameState:
    rec = _rec(state)
    for k, v in kw.items():
        rec = rec.set(k, v)
    return state.with_var(V_AIRBORNE, rec)


def begin(game: Game, board: Board, state: GameState, helpers: tuple[str, ...]) -> Outcome:
    """Reveal the stacks [2.12, 7.3], note the attack in the phase record, then air."""
    rec = _rec(state)
    target = str(rec["target"])
    p7 = next(p for p in state.pieces_at(target) if p.type == SEVENTH)
    ids = (p7.id, *helpers)
    # [2.12, 7.3] as in any battle: the stacks are examined, untried units flip.
    state, events, revealed = combat.reveal_for_battle(game, state, GERMAN, target, ids)
    crec = combat.record(state)
    if crec:  # a combat phase: the 7th's helpers have attacked, the hex has been [11.4]
        for key, add in (("attacked", ids), ("hexes", (target,))):
            crec = crec.set(key, tuple(sorted({*crec.get(key, ()), *add})))
        state = state.with_var(combat.V_COMBAT, crec)
    state = _set(state, attackers=ids)
    if helpers and STEPS[str(rec["step"])][1] == "move":
        state = _ma_partners(game, board, state, helpers, target)
    what = ("Combined MA/AA" if rec_move(rec) else "Combined PA/AA") if helpers \
        else "Airborne assault"
    froms = ", ".join(sorted({state.piece(i).location for i in helpers}))
    events.append(Event("combat", f"{what} on {target}" + (f" with units from {froms}"
                                                           if froms else ""), GERMAN,
                        "8.7, 10.24"))
    return Outcome(state, tuple(events), revealed=revealed).then(ask_air(game, board, state,
                                                                        "attack"))


def rec_move(rec: Mapping[str, Any]) -> bool:
    return STEPS[str(rec["step"])][1] == "move"


def _ma_partners(game: Game, board: Board, state: GameState, ids: tuple[str, ...],
                 target: str) -> GameState:
    """[10.15, 10.18, 10.2, 10.5] The panzers make their one MA of the phase: it costs
    twice the entry cost (paid if they win [10.20]); starting another parent stack ends
    the earlier one's movement."""
    force = tuple(state.piece(i) for i in ids)
    launch = force[0].location
    c = mobile_assault.cost(game, board, state, force, launch, target) or 0.0
    was, now = str(state.var(V_MOVING_PARENT, "")), movement.parent(force[0])
    if was and was != now:
        for p in state.pieces.values():
            if movement.parent(p) == was and p.attrs.get(A_MOVED):
                state = state.with_piece(p.with_attr(A_DONE, True))
    state = state.with_var(V_MOVING_PARENT, now)
    for p in force:
        state = state.with_piece(state.piece(p.id).with_attr(A_MA_DONE, True)
                                 .with_attr(A_MOVED, True))
    return _set(state, launch=launch, mp_cost=c)


def defender_side(game: Game, board: Board, state: GameState, target: str) -> str:
    real = combat_odds.defenders(game, state, target, GERMAN)
    if real:
        return real[0].side
    g = control.garrison_nation(board, state, target)
    return (combat_odds.garrison_side(game, state, g) or "") if g else ""


def ask_air(game: Game, board: Board, state: GameState, role: air.Role) -> Outcome:
    """[8.4] The attacker, then the defender, may commit aircraft (one column each)."""
    rec = _rec(state)
    target = str(rec["target"])
    map_id = str(board.map_of(target))
    who = GERMAN if role == "attack" else defender_side(game, board, state, target)
    avail = air.available(game, state, who, map_id, role) if who else ()
    if avail:
        text = (f"{game.definition.side(who).name}: commit aircraft to the "
                f"{'airborne assault on' if role == 'attack' else 'defence of'} {target}? "
                "Each gives one column [8.4].")
        return Outcome(state.push_frame(Frame(F_AIR, who, text, "8.4",
                                              FrozenMap(role=role))))
    if role == "attack":
        return ask_air(game, board, state, "defense")
    return after_air(game, board, state)


def gast_applies(game: Game, board: Board, state: GameState) -> bool:
    """[6.11] An east PA/AA from the GAST's first turn, unless every German ground partner
    is out of supply; never a pure AA (the 7th is supplied when it drops [10.17])."""
    rec = _rec(state)
    ground = [state.piece(i) for i in rec["attackers"] if state.piece(i).type != SEVENTH]
    return bool(ground) and combat.gast_due(game, board, state, ground,
                                            board.map_of(str(rec["target"])) == EAST)


def after_air(game: Game, board: Board, state: GameState) -> Outcome:
    if gast_applies(game, board, state):
        return combat.gast_roll(game, state, f"the PA/AA on {_rec(state)['target']}",
                                RESUME_GAST)
    return roll(game, board, state)


def resume_gast(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
                dice: tuple[int, ...]) -> Outcome:
    t = combat_table.tables_of(game)
    res, mod = t.gast_outcome(dice[0], bool(state.var(V_PLOESTI, False)))
    rec = _rec(state)
    if res == "cancel":  # ours: the ground partners' part is off; the 7th goes in alone
        alone = tuple(i for i in rec["attackers"] if state.piece(i).type == SEVENTH)
        state = _set(state, attackers=alone)
        text = "the ground units' part is cancelled: the 7th assaults alone (ours)"
    else:
        state = _set(state, gast=int(res))
        text = f"{int(res)} column(s) left" if res else "no effect"
    ev = Event("combat", f"GAST {dice[0]}{mod} for the PA/AA on {rec['target']}: {text} "
               "(provisional table) [6.11]", GERMAN, "6.11")
    return Outcome(state, (ev,)).then(roll(game, board, state))


def odds(game: Game, board: Board, state: GameState, attackers: list[Piece], target: str,
         air_attack: int = 0, air_defense: int = 0, in_movement: bool = False,
         gast_left: int = 0) -> combat_odds.OddsPreview:
    """The odds of an airborne assault [8.7, 10.24, 11.8, 11.10]: the 7th attacks with its
    defence factor; it stands in the target hex, so no attacker crosses a river and the
    river shift is lost [8.7, 11.8]; a combined PA/AA is concentric even against a city
    [11.10], a pure AA is not."""
    t = combat_table.tables_of(game)
    ground = [p for p in attackers if p.type != SEVENTH]
    drop_ = [p for p in attackers if p.type == SEVENTH]
    defending = combat_odds.defenders(game, state, target, GERMAN)
    garrison = combat_odds.garrison_defends(game, board, state, target, GERMAN)
    ap = combat_odds.attack_parts(game, board, state, ground)
    for p in drop_:  # always in supply when it drops [10.17]
        d = (combat_odds.factors(game, state, p) or (0, 8))[1]
        ap.append(combat_odds.Part(p.id, hidden.display_name(game, state, p), d, d, False,
                                   False))
    dp = combat_odds.defense_parts(game, board, state, defending, garrison, target)
    sh = [s for s in combat_odds.shifts(game, board, state, attackers, target, defending,
                                        garrison, air_attack=air_attack,
                                        air_defense=air_defense, gast_left=gast_left)
          if s.rule != "11.10" and not (in_movement and "11.9" in s.rule)]
    if ground:
        sh.append(Shift(1, "combined assault with the 7th Flieger Corps", "11.10"))
    att = max(sum(x.strength for x in ap), 0)
    dfn = max(sum(x.strength for x in dp), 1)
    res = t.ladder.resolve(att, dfn, sh) if att > 0 else t.ladder.resolve(1, dfn * 100, sh)
    row = () if res.final_column is None else t.row(res.final_column)
    return combat_odds.OddsPreview(target, tuple(ap), tuple(dp), res, row, res.below_ladder,
                                   t.provisional)


def _odds_now(game: Game, board: Board, state: GameState) -> combat_odds.OddsPreview:
    rec = _rec(state)
    target = str(rec["target"])
    ps = [state.piece(i) for i in rec["attackers"]]
    in_move = STEPS[str(rec["step"])][1] == "move"
    return odds(game, board, state, ps, target, int(rec["air_attack"]),
                int(rec["air_defense"]), in_move, int(rec.get("gast", 0)))


def roll(game: Game, board: Board, state: GameState) -> Outcome:
    rec = _rec(state)
    target = str(rec["target"])
    pv = _odds_now(game, board, state)
    ev = Event("combat", f"AA {target}: {pv.text()}", GERMAN, "8.7, 10.24, 11.3")
    if pv.automatic_al1:
        al1 = Event("combat", f"Final odds below 1:3 at {target}: automatic AL1 [11.14]",
                    GERMAN, "11.14")
        return Outcome(state, (ev, al1)).then(result(game, board, state, "AL1", ""))
    state = _set(state, column=pv.odds.final_column)
    return Outcome(state, (ev,)).then(roll_then(
        game, state, count=1, sides=combat_table.tables_of(game).die,
        purpose=f"Airborne assault at {target} ({pv.column_text()})", side=GERMAN,
        resume=RESUME_AA, rule="8.7"))


def resume_assault(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
                   dice: tuple[int, ...]) -> Outcome:
    rec = _rec(state)
    t = combat_table.tables_of(game)
    column = str(rec["column"])
    res = t.result(column, dice[0])
    prov = t.mark
    ev = Event("combat", f"AA {rec['target']} at {column.replace('-', ':')}: roll {dice[0]} → "
               f"{res}{prov}", GERMAN, "11.3")
    return Outcome(state, (ev,)).then(result(game, board, state, res, column))


def result(game: Game, board: Board, state: GameState, res: str, column: str) -> Outcome:
    """Hand the result to the combat part (losses, retreats, garrisons, the advance of the
    ground units [11.15-11.21]); the 7th's fate is settled when that battle ends."""
    rec = _rec(state)
    target = str(rec["target"])
    ids = tuple(rec["attackers"])
    pure = len(ids) == 1
    # The combat part's MA kind moves the winning panzers on [10.20] or stops them [10.19].
    kind = "AA" if pure else "MA" if rec_move(rec) else "PA"
    state = state.with_var(combat.V_BATTLE, FrozenMap(
        target=target, attackers=ids, side=GERMAN,
        defender=defender_side(game, board, state, target), map=str(board.map_of(target)),
        air_attack=int(rec["air_attack"]), air_defense=int(rec["air_defense"]), gast=0,
        queue=(), retreat_to="", kind=kind, launch=str(rec.get("launch", "")),
        mp_cost=float(rec.get("mp_cost", 0.0)),
        success=False, column=column,
        full=tuple(i for i in ids if state.piece(i).attrs.get(A_STEP) != 2)))
    state = _set(state, rolled=True)
    out = combat.apply_result(game, board, state, res)
    return out.then(settle(game, board, out.state))


def settle(game: Game, board: Board, state: GameState) -> Outcome:
    """Once the combat part has finished the battle: the 7th stays if the hex is cleared
    [10.20], else it is eliminated [8.7, 10.19]."""
    rec = _rec(state)
    if not rec.get("rolled") or combat.battle(state):
        return Outcome(state)
    target = str(rec["target"])
    state = replace(state, vars=state.vars.remove(V_AIRBORNE))
    p7 = next((state.piece(i) for i in rec["attackers"]
               if state.piece(i).type == SEVENTH), None)
    if p7 is None or p7.location != target:
        return Outcome(state)  # lost in the battle itself
    if hostile(game, board, state, target):
        ev = Event("combat", f"{target} is not cleared: the 7th Flieger Corps is eliminated",
                   GERMAN, "8.7, 10.19")
        return Outcome(state, (ev,)).then(losses.eliminate(game, state, p7, "10.19"))
    state = control.enter(game, board, state, p7, (target,))
    ev = Event("combat", f"{target} is cleared: the 7th Flieger Corps holds it, static for "
               "the rest of the game", GERMAN, "10.20")
    return Outcome(state, (ev,))


# --- frames -----------------------------------------------------------------------------------

class DropFrame(FrameHandler):
    """Where the 7th drops (or call it off: nothing has happened yet)."""

    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        step_id = str(frame.data["step"])
        hexes = drop_hexes(game, board, state, step_id)
        p = seventh(state)
        moves = FrozenMap({p.id: hexes}) if p is not None else FrozenMap()
        return Prompt(GERMAN, frame.text, frame.rule, moves=moves,
                      targets=FrozenMap({VERB: hexes}),
                      buttons=(Button(CANCEL, "Do not drop now", "8.7"),))

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        _, st = state.pop_frame()
        if action.verb == CANCEL:
            return Outcome(st)
        to = action.args.get("to")
        if action.verb not in (VERB, "move") or not isinstance(to, str):
            raise IllegalAction("Choose the landing hex (to), or do not drop now [8.7].")
        return drop(game, board, st, str(frame.data["step"]), to)

    def candidates(self, game: Game, board: Board, state: GameState, frame: Frame,
                   prompt: Prompt) -> tuple[Action, ...]:
        """Random play: a few enemy-held hexes and a few free ones, or call it off."""
        hexes = prompt.targets.get(VERB, ())
        opp = [h for h in hexes if hostile(game, board, state, h)][:3]
        free = [h for h in hexes if h not in opp][:2]
        return (Action.make(CANCEL, GERMAN),
                *(Action.make(VERB, GERMAN, to=h) for h in opp + free))


class JoinFrame(FrameHandler):
    """Who joins the 7th's assault: adjacent units in a combat phase (any of them, a
    PA/AA), one panzer force in a movement phase (an MA/AA) [8.7, 10.24, 11.10]."""

    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        forces = tuple(tuple(f) for f in frame.data["forces"])
        every = tuple(sorted({i for f in forces for i in f}))
        buttons = [Button(JOIN, "The 7th assaults alone", "8.7", args=FrozenMap(attackers=()))]
        if frame.data["combine"]:
            buttons.append(Button(JOIN, f"With all {len(every)} adjacent units (PA/AA)",
                                  "11.10", args=FrozenMap(attackers=every)))
        else:
            for f in forces:
                names = ", ".join(hidden.display_name(game, state, state.piece(i)) for i in f)
                buttons.append(Button(JOIN, f"MA/AA with {names} from "
                                      f"{state.piece(f[0]).location}", "10.24",
                                      args=FrozenMap(attackers=f)))
        return Prompt(GERMAN, frame.text, frame.rule, targets=FrozenMap({JOIN: every}),
                      buttons=tuple(buttons))

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        ids = action.args.get("attackers")
        forces = [tuple(f) for f in frame.data["forces"]]
        every = {i for f in forces for i in f}
        ok = isinstance(ids, tuple) and len(set(ids)) == len(ids) and (
            set(ids) <= every if frame.data["combine"] else (not ids or ids in forces))
        if action.verb != JOIN or not ok:
            raise IllegalAction("Name the German units that join (attackers): any adjacent "
                                "units in a combat phase, one panzer force in a movement "
                                "phase, or none [8.7, 10.24].")
        assert isinstance(ids, tuple)
        _, state = state.pop_frame()
        return begin(game, board, state, tuple(ids))


class AirFrame(FrameHandler):
    """Air support of the airborne assault or of its defence [8.4]."""

    def _avail(self, game: Game, board: Board, state: GameState,
               frame: Frame) -> tuple[str, ...]:
        target = str(_rec(state)["target"])
        return air.available(game, state, frame.side, str(board.map_of(target)),
                             frame.data["role"])

    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        avail = self._avail(game, board, state, frame)
        return Prompt(frame.side, frame.text, frame.rule, buttons=tuple(
            Button("air", f"Commit {n} aircraft" if n else "No air support", "8.4",
                   args=FrozenMap(count=n)) for n in range(len(avail) + 1)))

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        avail = self._avail(game, board, state, frame)
        n = action.args.get("count")
        if action.verb != "air" or not isinstance(n, int) or not 0 <= n <= len(avail):
            raise IllegalAction(f"Commit 0 to {len(avail)} aircraft [8.4].")
        _, state = state.pop_frame()
        state = air.mark_used(state, avail[:n])
        role = frame.data["role"]
        state = _set(state, **{"air_attack" if role == "attack" else "air_defense": n})
        evs: tuple[Event, ...] = ()
        if n:
            names = ", ".join(str(state.piece(i).attrs.get("name", i)) for i in avail[:n])
            evs = (Event("combat", f"{names} support the "
                         f"{'attack' if role == 'attack' else 'defence'} at "
                         f"{_rec(state)['target']}", frame.side, "8.4"),)
        nxt = ask_air(game, board, state, "defense") if role == "attack" else \
            after_air(game, board, state)
        return Outcome(state, evs).then(nxt)


class Settling(FrameHandler):
    """A combat frame that may end an airborne assault's battle: settle the 7th then."""

    def __init__(self, inner: FrameHandler) -> None:
        self.inner = inner

    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        return self.inner.prompt(game, board, state, frame)

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        out = self.inner.apply(game, board, state, frame, action)
        return out.then(settle(game, board, out.state))

    def candidates(self, game: Game, board: Board, state: GameState, frame: Frame,
                   prompt: Prompt) -> tuple[Action, ...] | None:
        return self.inner.candidates(game, board, state, frame, prompt)


def settling(frames: Mapping[str, FrameHandler]) -> dict[str, FrameHandler]:
    """The combat part's frames, each followed by the airborne assault's settlement."""
    return {k: Settling(v) for k, v in frames.items()}


class WithDrop(StepHandler):
    """A German combat step with the airdrop button [8.7] (the combat part's handler
    inside)."""

    def __init__(self, inner: StepHandler) -> None:
        self.inner = inner

    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        return self.inner.enter(game, board, state, pos)

    def exit(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        return self.inner.exit(game, board, state, pos)

    def can_end(self, game: Game, board: Board, state: GameState, pos: Position) -> str | None:
        return self.inner.can_end(game, board, state, pos)

    def prompt(self, game: Game, board: Board, state: GameState, pos: Position) -> Prompt:
        p = self.inner.prompt(game, board, state, pos)
        extra = buttons(game, board, state, pos.step.id)
        return replace(p, buttons=extra + p.buttons) if extra else p

    def apply(self, game: Game, board: Board, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        if action.verb == VERB and pos.step.id in STEPS:
            return declare(game, board, state, pos.step.id, action)
        return self.inner.apply(game, board, state, pos, action)

    def candidates(self, game: Game, board: Board, state: GameState, pos: Position,
                   prompt: Prompt) -> tuple[Action, ...] | None:
        got = self.inner.candidates(game, board, state, pos, prompt)
        if got is None:
            return None
        if any(b.id == VERB and b.enabled for b in prompt.buttons):
            return (*got, Action.make(VERB, pos.side))
        return got


FRAMES: dict[str, FrameHandler] = {F_DROP: DropFrame(), F_JOIN: JoinFrame(), F_AIR: AirFrame()}
