"""Combat phases: prepared assaults [11.1-11.21] with air support [8.4], the GAST [6.11] and
combat supply [6.7].

A battle runs as a small queue of tasks kept in the state (`V_BATTLE`), so every player
choice on the way is a frame and a save can stop anywhere:

1. declare (verb "attack": target hex + attacking units) [11.1, 11.4-11.7]; untried units on
   both sides flip for good [2.12, 7.3];
2. air support: the attacker, then the defender, commits aircraft (frames) [8.4];
3. the GAST roll for German east attacks from turn 6 [6.11];
4. odds (combat_odds) and the CRT roll, or an automatic AL1 below 1:3 [11.14];
5. the result: AS, AL1, DE, DR (with its conversions [11.19]), BB [11.15-11.20], retreats
   and displacements [11.11, 11.12], intrinsic garrisons [11.21] and the advance [11.13];
6. the stacking check at the end of the combat [7.2].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button, roll_then
from wartable.engine.rules import Game
from wartable.games.whatif1940 import air, fog, hidden, supply, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.handlers import FrameHandler, Resume, StepHandler
from wartable.games.whatif1940.ids import (
    A_STEP,
    ANGLO_FRENCH,
    EAST,
    GERMAN,
    NAT_GERMAN,
    SOVIET,
    V_PLOESTI,
    WEST,
)
from wartable.games.whatif1940.steps import (
    combat_odds,
    combat_table,
    control,
    losses,
    ma_result,
    movement,
    retreat,
    stacking,
)
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece

KIND = "combat"
VERB = "attack"
V_COMBAT = "combat_phase"  # this phase: units that attacked, hexes attacked, retreated-in
V_BATTLE = "battle"  # the battle being resolved (a task queue)
GARRISON = "garrison:"  # pseudo piece id of an intrinsic garrison in loss lists

# Combat step id -> (attacking side, map) [5.2, 5.3].
STEP_SIDES: dict[str, tuple[str, str]] = {
    "german_west_combat": (GERMAN, WEST),
    "german_east_combat_d": (GERMAN, EAST),
    "german_east_combat_e": (GERMAN, EAST),
    "soviet_combat": (SOVIET, EAST),
    "af_combat": (ANGLO_FRENCH, WEST),
}

F_AIR = "w40_air"
F_LOSS = "w40_loss"
F_CONVERT = "w40_convert"
F_DL1 = "w40_dl1"
F_BB = "w40_bb"
F_RETREAT = "w40_retreat"
F_ADVANCE = "w40_advance"
R_GAST = "w40_gast"
R_CRT = "w40_crt"

Task = FrozenMap[str, Any]


def task(do: str, **kw: Any) -> Task:
    return FrozenMap(kw).set("do", do)


# --- the phase record ------------------------------------------------------------------------

def record(state: GameState) -> FrozenMap[str, Any]:
    rec: FrozenMap[str, Any] = state.var(V_COMBAT, FrozenMap())
    return rec


def _add(state: GameState, key: str, items: Sequence[str]) -> GameState:
    rec = record(state)
    now = tuple(sorted(set(rec.get(key, ())) | set(items)))
    return state.with_var(V_COMBAT, rec.set(key, now))


def battle(state: GameState) -> FrozenMap[str, Any]:
    b: FrozenMap[str, Any] = state.var(V_BATTLE, FrozenMap())
    return b


def _set_battle(state: GameState, **kw: Any) -> GameState:
    b = battle(state)
    for k, v in kw.items():
        b = b.set(k, v)
    return state.with_var(V_BATTLE, b)


# --- who may attack what [11.1-11.7] -------------------------------------------------------

def attackers_available(game: Game, board: Board, state: GameState, side: str,
                        map_id: str) -> list[Piece]:
    used = set(record(state).get("attacked", ()))
    return sorted((p for p in state.pieces.values()
                   if p.side == side and board.map_of(p.location) == map_id
                   and combat_odds.may_attack(game, p) and p.id not in used
                   and not combat_odds.neutral_unit(game, state, p)), key=lambda p: p.id)


def _crossable(game: Game, board: Board, a: str, b: str) -> bool:
    """No attack across all-lake or all-sea hexsides [10.11]."""
    tec = game.definition.tables["terrain_effects"]
    return not (board.side_features(a, b) & set(tec["hexside_impassable"]))


def target_reason(game: Game, board: Board, state: GameState, side: str, target: str) -> str:
    """Why `target` may not be attacked ("" when it may)."""
    if target in record(state).get("hexes", ()):
        return f"{target} has already been attacked this phase [11.4]"
    if side == GERMAN and board.hex(target).red_row:
        return f"{target} is a red row hex: German units never attack into it [12.9]"
    defending = combat_odds.defenders(game, state, target, side)
    if any(combat_odds.neutral_unit(game, state, p) for p in defending):
        return f"{target} holds neutral units: they are not at war [3.4, 3.6]"
    if defending or combat_odds.garrison_defends(game, board, state, target, side):
        return ""
    return f"{target} holds no enemy unit or enemy intrinsic garrison [11.1, 11.21]"


def targets(game: Game, board: Board, state: GameState, side: str,
            map_id: str) -> dict[str, list[Piece]]:
    """Attackable hex -> the units that may attack it now."""
    out: dict[str, list[Piece]] = {}
    reasons: dict[str, str] = {}
    for p in attackers_available(game, board, state, side, map_id):
        for n in board.neighbors[p.location]:
            if n not in reasons:
                reasons[n] = target_reason(game, board, state, side, n)
            if not reasons[n] and _crossable(game, board, p.location, n):
                out.setdefault(n, []).append(p)
    return out


# --- the step ----------------------------------------------------------------------------------

class CombatStep(StepHandler):
    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        state = state.with_var(V_COMBAT, FrozenMap(attacked=(), hexes=(), retreated_in=()))
        return Outcome(state.with_var(V_BATTLE, FrozenMap()))

    def exit(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        vars_ = state.vars
        for k in (V_COMBAT, V_BATTLE):
            if k in vars_:
                vars_ = vars_.remove(k)
        return Outcome(replace(state, vars=vars_))

    def prompt(self, game: Game, board: Board, state: GameState, pos: Position) -> Prompt:
        side, map_id = STEP_SIDES[pos.step.id]
        found = targets(game, board, state, side, map_id)
        attackers = sorted({p.id for ps in found.values() for p in ps})
        text = (pos.step.prompt or pos.step.name) + (
            " Choose a target hex and the adjacent units that attack it (each unit attacks "
            "once, each hex is attacked once per phase [11.4])."
            + combat_table.tables_of(game).mark.replace(" (", " Results: ").rstrip(")") + ".")
        return Prompt(side, text, pos.step.rule,
                      targets=FrozenMap({VERB: tuple(sorted(found)),
                                         "attackers": tuple(attackers)}),
                      buttons=(end_step_button(),))

    def apply(self, game: Game, board: Board, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        if action.verb != VERB:
            return None
        return declare(game, board, state, pos, action)

    def candidates(self, game: Game, board: Board, state: GameState, pos: Position,
                   prompt: Prompt) -> tuple[Action, ...] | None:
        """Random play: each target with every unit that may attack it."""
        side, map_id = STEP_SIDES[pos.step.id]
        out = [Action.make(VERB, side, target=t, attackers=tuple(p.id for p in ps))
               for t, ps in sorted(targets(game, board, state, side, map_id).items())]
        out.append(Action.make("end_step", side))
        return tuple(out)


def declare(game: Game, board: Board, state: GameState, pos: Position,
            action: Action) -> Outcome:
    side, map_id = STEP_SIDES[pos.step.id]
    if action.side != side:
        raise IllegalAction("Only the phasing player attacks [11.1].")
    target = action.args.get("target")
    ids = action.args.get("attackers")
    if not isinstance(target, str) or board.map_of(target) != map_id:
        raise IllegalAction("Name a target hex on this phase's map [11.5].")
    if not isinstance(ids, tuple) or not ids or len(set(ids)) != len(ids):
        raise IllegalAction("Name the attacking units [11.5].")
    reason = target_reason(game, board, state, side, target)
    if reason:
        raise IllegalAction(reason + ".")
    ok = {p.id for p in attackers_available(game, board, state, side, map_id)}
    used = set(record(state).get("attacked", ()))
    for pid in ids:
        if not isinstance(pid, str) or pid not in state.pieces:
            raise IllegalAction(f"There is no unit {pid!r}.")
        p = state.piece(pid)
        name = hidden.display_name(game, state, p)
        if pid in used:
            raise IllegalAction(f"{name} has already attacked this phase [11.4].")
        if pid not in ok:
            raise IllegalAction(f"{name} may not attack in this phase [11.1, 11.2].")
        if target not in board.neighbors[p.location]:
            raise IllegalAction(f"{name} is not adjacent to {target} [11.5].")
        if not _crossable(game, board, p.location, target):
            raise IllegalAction(f"{name} may not attack across an all-sea or all-lake "
                                "hexside [10.11].")
    state = _add(state, "attacked", ids)
    state = _add(state, "hexes", (target,))
    return begin(game, board, state, side, map_id, target, tuple(ids), "PA")


def begin(game: Game, board: Board, state: GameState, side: str, map_id: str, target: str,
          ids: tuple[str, ...], kind: str, launch: str = "", mp_cost: float = 0.0) -> Outcome:
    """Start a battle (a PA, or an MA from the movement step): reveal, then air support."""
    state, events, revealed = reveal_for_battle(game, state, side, target, ids)
    defending = combat_odds.defenders(game, state, target, side)
    def_side = defending[0].side if defending else _garrison_side(game, board, state, target)
    state = state.with_var(V_BATTLE, FrozenMap(
        target=target, attackers=tuple(ids), side=side, defender=def_side, map=map_id,
        air_attack=0, air_defense=0, gast=0, queue=(), retreat_to="", kind=kind,
        launch=launch, mp_cost=mp_cost, success=False,
        full=tuple(i for i in ids if state.piece(i).attrs.get(A_STEP) != 2)))
    hexes = ", ".join(sorted({state.piece(i).location for i in ids}))
    what, rule = ("Mobile assault", "10.15") if kind == "MA" else ("Prepared assault", "11.3")
    events.append(Event("combat", f"{what} on {target} from {hexes}", side, rule))
    out = Outcome(state, tuple(events), revealed=revealed)
    return out.then(ask_air(game, board, out.state, "attack"))


def reveal_for_battle(game: Game, state: GameState, side: str, target: str,
                      ids: tuple[str, ...]) -> tuple[GameState, list[Event], bool]:
    """[2.12, 7.3] Resolution begins: the stacks are examined and untried units flip for
    good (no calling the attack off now). Returns the state, the log lines and whether
    anything was revealed (undo stops there)."""
    events: list[Event] = []
    revealed = False
    for p in [state.piece(i) for i in ids] + combat_odds.defenders(game, state, target, side):
        if hidden.is_untried(p):
            state, shown = hidden.reveal(state, p)
            f = combat_odds.factors(game, state, shown) or (0, 0)
            events.append(Event("combat", f"Revealed: {hidden.display_name(game, state, shown)}"
                                f" {f[0]}-{f[1]}", shown.side, "2.12"))
            revealed = True
    defending = combat_odds.defenders(game, state, target, side)
    state, examined = fog.examine_battle(game, state, side, target, ids, defending)
    return state, events, revealed or examined


def _garrison_side(game: Game, board: Board, state: GameState, target: str) -> str:
    g = control.garrison_nation(board, state, target)
    return (combat_odds.garrison_side(game, state, g) or "") if g else ""


# --- air support [8.4] ----------------------------------------------------------------------

def ask_air(game: Game, board: Board, state: GameState, role: air.Role) -> Outcome:
    b = battle(state)
    who = str(b["side"] if role == "attack" else b["defender"])
    avail = air.available(game, state, who, str(b["map"]), role) if who else ()
    if avail:
        text = (f"{game.definition.side(who).name}: commit aircraft to support the "
                f"{'attack on' if role == 'attack' else 'defence of'} {b['target']}? "
                "Each gives one column [8.4].")
        frame = Frame(F_AIR, who, text, "8.4", FrozenMap(role=role))
        return Outcome(state.push_frame(frame))
    if role == "attack":
        return ask_air(game, board, state, "defense")
    return after_air(game, board, state)


class AirFrame(FrameHandler):
    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        b = battle(state)
        role = frame.data["role"]
        avail = air.available(game, state, frame.side, str(b["map"]), role)
        buttons = tuple(Button("air", f"Commit {n} aircraft" if n else "No air support",
                               "8.4", args=FrozenMap(count=n)) for n in range(len(avail) + 1))
        return Prompt(frame.side, frame.text, frame.rule, buttons=buttons)

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        b = battle(state)
        role = frame.data["role"]
        avail = air.available(game, state, frame.side, str(b["map"]), role)
        n = action.args.get("count")
        if action.verb != "air" or not isinstance(n, int) or not 0 <= n <= len(avail):
            raise IllegalAction(f"Commit 0 to {len(avail)} aircraft [8.4].")
        _, state = state.pop_frame()
        state = air.mark_used(state, avail[:n])
        key = "air_attack" if role == "attack" else "air_defense"
        state = _set_battle(state, **{key: n})
        events: tuple[Event, ...] = ()
        if n:
            names = ", ".join(str(state.piece(i).attrs.get("name", i)) for i in avail[:n])
            what = "attack" if role == "attack" else "defence"
            events = (Event("combat", f"{names} support the {what} at {b['target']}",
                            frame.side, "8.4"),)
        out = Outcome(state, events)
        nxt = ask_air(game, board, state, "defense") if role == "attack" else \
            after_air(game, board, state)
        return out.then(nxt)


# --- GAST and the CRT -----------------------------------------------------------------------

def _pieces(state: GameState, ids: Sequence[str]) -> list[Piece]:
    return [state.piece(i) for i in ids if i in state.pieces]


def gast_due(game: Game, board: Board, state: GameState, attackers: Sequence[Piece],
             east: bool) -> bool:
    """[6.11] A German attack on the east map from the GAST's first turn, unless every
    German attacker is out of supply."""
    if not east or state.turn < combat_table.tables_of(game).gast_first_turn:
        return False
    return any(supply.status(game, board, state, p).supplied for p in attackers)


def gast_roll(game: Game, state: GameState, what: str, resume: str) -> Outcome:
    """[6.11] The German rolls on the GAST before the final odds of `what`."""
    return roll_then(game, state, count=1, sides=combat_table.tables_of(game).gast_die,
                     purpose=f"GAST for {what}", side=GERMAN, resume=resume, rule="6.11")


def gast_applies(game: Game, board: Board, state: GameState) -> bool:
    b = battle(state)
    return b["side"] == GERMAN and gast_due(game, board, state, _pieces(state, b["attackers"]),
                                            b["map"] == EAST)


def after_air(game: Game, board: Board, state: GameState) -> Outcome:
    if gast_applies(game, board, state):
        return gast_roll(game, state, f"the attack on {battle(state)['target']}", R_GAST)
    return roll_crt(game, board, state)


def resume_gast(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
                dice: tuple[int, ...]) -> Outcome:
    t = combat_table.tables_of(game)
    res, mod = t.gast_outcome(dice[0], bool(state.var(V_PLOESTI, False)))
    target = battle(state)["target"]
    if res == "cancel":
        ev = Event("combat", f"GAST {dice[0]}{mod}: the attack on {target} is cancelled "
                   "(provisional table) [6.11]", GERMAN, "6.11")
        return Outcome(state, (ev,)).then(finish(game, board, state))
    n = int(res)
    ev = Event("combat", f"GAST {dice[0]}{mod}: " + (f"{n} column(s) left" if n else "no effect")
               + " (provisional table) [6.11]", GERMAN, "6.11")
    state = _set_battle(state, gast=n)
    return Outcome(state, (ev,)).then(roll_crt(game, board, state))


def odds_now(game: Game, board: Board, state: GameState) -> combat_odds.OddsPreview:
    b = battle(state)
    mobile = b.get("kind") == "MA"  # [11.11] retreated-in units add strength in an MA
    return combat_odds.compute(game, board, state, _pieces(state, b["attackers"]),
                               str(b["target"]), air_attack=int(b["air_attack"]),
                               air_defense=int(b["air_defense"]), gast_left=int(b["gast"]),
                               exclude=() if mobile else record(state).get("retreated_in", ()),
                               mobile=mobile)


def _rules_of(pv: combat_odds.OddsPreview) -> str:
    rules = ["11.3", "11.14"] + [r.strip() for s in pv.odds.shifts for r in s.rule.split(",")]
    return ", ".join(dict.fromkeys(r for r in rules if r))


def roll_crt(game: Game, board: Board, state: GameState) -> Outcome:
    b = battle(state)
    pv = odds_now(game, board, state)
    froms = ", ".join(sorted({p.location for p in _pieces(state, b["attackers"])}))
    line = f"{b.get('kind', 'PA')} {b['target']} ← {froms}: {pv.text()}"
    ev = Event("combat", line, str(b["side"]), _rules_of(pv))
    if pv.automatic_al1:
        al1 = Event("combat", f"Final odds below 1:3 at {b['target']}: automatic AL1 [11.14]",
                    str(b["side"]), "11.14")
        return Outcome(state, (ev, al1)).then(apply_result(game, board, state, "AL1"))
    state = _set_battle(state, column=pv.odds.final_column)
    return Outcome(state, (ev,)).then(roll_then(
        game, state, count=1, sides=combat_table.tables_of(game).die,
        purpose=f"Combat at {b['target']} ({pv.column_text()})", side=str(b["side"]),
        resume=R_CRT, rule="11.3"))


def resume_crt(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
               dice: tuple[int, ...]) -> Outcome:
    b = battle(state)
    t = combat_table.tables_of(game)
    column = str(b["column"])
    res = t.result(column, dice[0])
    prov = t.mark
    ev = Event("combat", f"{b.get('kind', 'PA')} {b['target']} at {column.replace('-', ':')}: "
               f"roll {dice[0]} → {res}{prov}", str(b["side"]), "11.3")
    return Outcome(state, (ev,)).then(apply_result(game, board, state, res))


# --- results [11.15-11.20] -------------------------------------------------------------------

def _def_ids(game: Game, board: Board, state: GameState) -> tuple[str, ...]:
    """The involved defenders (real units in the hex, else the garrison)."""
    b = battle(state)
    target, side = str(b["target"]), str(b["side"])
    real = tuple(p.id for p in combat_odds.defenders(game, state, target, side))
    if real:
        return real
    if combat_odds.garrison_defends(game, board, state, target, side):
        return (GARRISON + target,)
    return ()


def steps_of(game: Game, state: GameState, ids: Sequence[str]) -> int:
    return sum(1 if i.startswith(GARRISON) else units.steps_left(game, state.piece(i))
               for i in ids)


def _alive_att(game: Game, board: Board, state: GameState) -> tuple[str, ...]:
    b = battle(state)
    return tuple(p.id for p in _pieces(state, b["attackers"]) if board.on_map(p.location))


def forced_conversion(game: Game, board: Board, state: GameState) -> bool:
    """[11.19] A DR against defenders in a city, a Ruhr city or their own printed fort."""
    b = battle(state)
    target = str(b["target"])
    h = board.hex(target)
    if h.city:
        return True
    defending = combat_odds.defenders(game, state, target, str(b["side"]))
    garrison = not defending
    return combat_odds.owns_fort(game, board, state, target, defending, garrison)


def apply_result(game: Game, board: Board, state: GameState, res: str) -> Outcome:
    att = _alive_att(game, board, state)
    b = battle(state)
    side, target = str(b["side"]), str(b["target"])
    dfn = _def_ids(game, board, state)
    q: list[Task] = []
    if res == "AL1":  # [11.16]
        q = [task("losses", side=side, ids=att, n=1, rule="11.16")]
    elif res == "DE":  # [11.17]
        q = [task("de"), task("cleared")]
    elif res == "DR":  # [11.18, 11.19]
        if forced_conversion(game, board, state):
            text = (f"DR at {target}: the defenders are in a city, Ruhr city or their own "
                    "fortification. Convert the DR to AL1 or BB [11.19].")
            frame = Frame(F_CONVERT, side, text, "11.19")
            return Outcome(state.push_frame(frame))
        defending = _pieces(state, dfn)
        if defending and all(units.nation(game, p) == NAT_GERMAN for p in defending) and \
                steps_of(game, state, dfn) > 1:
            text = (f"DR at {target}: retreat, or convert to DL1 (lose one step and stay; "
                    "no enemy advance) [11.19]?")
            return Outcome(state.push_frame(Frame(F_DL1, GERMAN, text, "11.19")))
        q = [task("retreat_all"), task("cleared")]
    elif res == "BB":  # [11.20]
        return bloodbath(game, board, state)
    state = _set_battle(state, queue=tuple(q), result=res)
    return proceed(game, board, state)


def bloodbath(game: Game, board: Board, state: GameState) -> Outcome:
    """[11.20] The side with fewer involved steps loses them all; the other side loses as
    many steps. Equal: the attacker names the number (1 to the steps involved)."""
    b = battle(state)
    att = _alive_att(game, board, state)
    dfn = _def_ids(game, board, state)
    sa, sd = steps_of(game, state, att), steps_of(game, state, dfn)
    side, dside = str(b["side"]), str(b["defender"])
    ev = Event("combat", f"Bloodbath at {b['target']}: {sa} attacking steps, {sd} defending "
               "steps", side, "11.20")
    if sa == sd:
        frame = Frame(F_BB, side, f"Bloodbath with {sa} steps on each side: how many steps "
                      "does each side lose? [11.20]", "11.20", FrozenMap(max=sa))
        return Outcome(state.push_frame(frame), (ev,))
    if sa < sd:
        q = [task("eliminate", ids=att), task("losses", side=dside, ids=dfn, n=sa,
                                               rule="11.20")]
    else:
        q = [task("eliminate", ids=dfn), task("losses", side=side, ids=att, n=sd, rule="11.20"),
             task("cleared")]
    state = _set_battle(state, queue=tuple(q), result="BB")
    return Outcome(state, (ev,)).then(proceed(game, board, state))


class ConvertFrame(FrameHandler):
    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        return Prompt(frame.side, frame.text, frame.rule, buttons=(
            Button("convert", "Convert to AL1", "11.19", args=FrozenMap(result="AL1")),
            Button("convert", "Convert to BB", "11.19", args=FrozenMap(result="BB"))))

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        res = action.args.get("result")
        if action.verb != "convert" or res not in ("AL1", "BB"):
            raise IllegalAction("Convert the DR to AL1 or BB [11.19].")
        _, state = state.pop_frame()
        ev = Event("combat", f"DR converted to {res} by the attacker [11.19]", frame.side,
                   "11.19")
        return Outcome(state, (ev,)).then(apply_result(game, board, state, str(res)))


class DL1Frame(FrameHandler):
    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        return Prompt(frame.side, frame.text, frame.rule, buttons=(
            Button("dl1", "Retreat", "11.18", args=FrozenMap(choice="retreat")),
            Button("dl1", "Convert to DL1", "11.19", args=FrozenMap(choice="dl1"))))

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        choice = action.args.get("choice")
        if action.verb != "dl1" or choice not in ("retreat", "dl1"):
            raise IllegalAction("Retreat, or convert the DR to DL1 [11.19].")
        _, state = state.pop_frame()
        if choice == "retreat":
            q = [task("retreat_all"), task("cleared")]
            events: tuple[Event, ...] = ()
        else:
            q = [task("losses", side=GERMAN, ids=_def_ids(game, board, state), n=1,
                      rule="11.19")]
            events = (Event("combat", "The German converts the DR to DL1 [11.19]", GERMAN,
                            "11.19"),)
        state = _set_battle(state, queue=tuple(q), result="DL1" if choice == "dl1" else "DR")
        return Outcome(state, events).then(proceed(game, board, state))


class BBFrame(FrameHandler):
    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        m = int(frame.data["max"])
        return Prompt(frame.side, frame.text, frame.rule, buttons=tuple(
            Button("bb", f"{n} step{'s' if n > 1 else ''} each", "11.20",
                   args=FrozenMap(steps=n)) for n in range(1, m + 1)))

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        n = action.args.get("steps")
        m = int(frame.data["max"])
        if action.verb != "bb" or not isinstance(n, int) or not 1 <= n <= m:
            raise IllegalAction(f"Name 1 to {m} steps [11.20].")
        _, state = state.pop_frame()
        b = battle(state)
        att, dfn = _alive_att(game, board, state), _def_ids(game, board, state)
        q = [task("losses", side=str(b["side"]), ids=att, n=n, rule="11.20"),
             task("losses", side=str(b["defender"]), ids=dfn, n=n, rule="11.20"),
             task("cleared")]
        state = _set_battle(state, queue=tuple(q), result="BB")
        ev = Event("combat", f"The attacker names {n} step(s) each [11.20]", frame.side, "11.20")
        return Outcome(state, (ev,)).then(proceed(game, board, state))


# --- the task queue ---------------------------------------------------------------------

def proceed(game: Game, board: Board, state: GameState) -> Outcome:
    """Run the battle's tasks until one needs a player's choice or none are left."""
    out = Outcome(state)
    for _ in range(200):
        st = out.state
        q = tuple(battle(st).get("queue", ()))
        if not q:
            return out.then(finish(game, board, st))
        st = _set_battle(st, queue=q[1:])
        step = run(game, board, st, q[0])
        out = out.then(step)
        if step.state.frames:
            return out
    raise RuntimeError("combat task queue never empties")


def _push_front(state: GameState, *tasks: Task) -> GameState:
    return _set_battle(state, queue=tuple(tasks) + tuple(battle(state).get("queue", ())))


def lose_step(game: Game, board: Board, state: GameState, pid: str, rule: str) -> Outcome:
    """One step from one unit [2.11]: a full two-step unit flips, otherwise it dies."""
    if pid.startswith(GARRISON):
        return eliminate_garrison(board, state, pid[len(GARRISON):])
    p = state.piece(pid)
    if units.steps_left(game, p) >= 2:
        state = state.with_piece(p.with_attr(A_STEP, 2))
        ev = Event("loss", f"{hidden.display_name(game, state, p)} loses a step", p.side, rule)
        return Outcome(state, (ev,))
    return losses.eliminate(game, state, p, rule)


def eliminate_garrison(board: Board, state: GameState, label: str) -> Outcome:
    """[11.21] Gone for good."""
    lost = tuple(state.var(control.GARRISONS_LOST, ()))
    if label in lost:
        return Outcome(state)
    state = state.with_var(control.GARRISONS_LOST, tuple(sorted((*lost, label))))
    return Outcome(state, (Event("loss", f"The intrinsic garrison of {label} is eliminated",
                                 "", "11.21"),))


def run(game: Game, board: Board, state: GameState, t: Task) -> Outcome:
    do = t["do"]
    b = battle(state)
    target = str(b["target"])
    if do == "losses":
        return run_losses(game, board, state, t)
    if do == "eliminate":
        out = Outcome(state)
        for pid in t["ids"]:
            if pid.startswith(GARRISON) or board.on_map(out.state.piece(pid).location):
                out = out.then(_eliminate(game, board, out.state, pid, "11.20"))
        return out
    if do == "de":  # [11.17] one-step units die, then two-step units lose a step
        out = Outcome(state)
        for pid in _def_ids(game, board, state):
            out = out.then(lose_step(game, board, out.state, pid, "11.17"))
        return out
    if do == "retreat_all":
        ids = _def_ids(game, board, state)
        tasks = [task("retreat", piece=i) for i in ids]
        return Outcome(_push_front(state, *tasks))
    if do == "retreat":
        return run_retreat(game, board, state, str(t["piece"]))
    if do == "cleared":
        side = str(b["side"])
        if combat_odds.defenders(game, state, target, side):
            return Outcome(state)
        out = Outcome(state)
        g = control.garrison_nation(board, state, target)
        if g is not None and units.enemies(_garrison_side(game, board, state, target) or side,
                                           side):
            out = out.then(eliminate_garrison(board, state, target))  # [11.21]
        if b.get("kind") == "MA":  # [10.20] no advance: the force enters and moves on
            st = _set_battle(out.state, success=True)
            return out.then(ma_result.succeed(game, board, st, tuple(b["attackers"]),
                                                   target, float(b["mp_cost"])))
        if b.get("result") != "DL1":
            out = out.then(Outcome(_push_front(out.state, task("advance"))))
        return out
    if do == "advance":
        return ask_advance(game, board, state)
    raise RuntimeError(f"unknown combat task {do!r}")


def _eliminate(game: Game, board: Board, state: GameState, pid: str, rule: str) -> Outcome:
    if pid.startswith(GARRISON):
        return eliminate_garrison(board, state, pid[len(GARRISON):])
    return losses.eliminate(game, state, state.piece(pid), rule)


def run_losses(game: Game, board: Board, state: GameState, t: Task) -> Outcome:
    """Take `n` steps from the listed units; the owner chooses unless the choice is forced."""
    n = int(t["n"])
    alive = [i for i in t["ids"] if i.startswith(GARRISON) and
             control.garrison_nation(board, state, i[len(GARRISON):]) is not None
             or not i.startswith(GARRISON) and board.on_map(state.piece(i).location)]
    rule = str(t["rule"])
    if n <= 0 or not alive:
        return Outcome(state)
    if n >= steps_of(game, state, alive):  # everything goes
        out = Outcome(state)
        for pid in alive:
            out = out.then(_eliminate(game, board, out.state, pid, rule))
        return out
    kinds = {(state.piece(i).type, units.steps_left(game, state.piece(i)))
             if not i.startswith(GARRISON) else ("g", 1) for i in alive}
    if len(kinds) == 1:  # all alike: any choice is the same
        out = lose_step(game, board, state, sorted(alive)[0], rule)
        if n > 1:
            out = out.then(Outcome(_push_front(out.state, t.set("n", n - 1))))
        return out
    side = str(t["side"])
    state = _push_front(state, t)
    frame = Frame(F_LOSS, side, f"{game.definition.side(side).name}: choose the unit that "
                  f"loses a step ({n} to take) [{rule}].", rule, FrozenMap(ids=tuple(alive)))
    return Outcome(state.push_frame(frame))


class LossFrame(FrameHandler):
    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        buttons = tuple(Button("lose_step", f"{_name(game, state, i)}", frame.rule,
                               args=FrozenMap(piece=i)) for i in frame.data["ids"])
        return Prompt(frame.side, frame.text, frame.rule,
                      targets=FrozenMap(lose_step=tuple(frame.data["ids"])), buttons=buttons)

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        pid = action.args.get("piece")
        if action.verb != "lose_step" or pid not in frame.data["ids"]:
            raise IllegalAction(f"Choose one of the involved units [{frame.rule}].")
        _, state = state.pop_frame()
        q = tuple(battle(state)["queue"])
        t = q[0]  # the losses task this frame answers
        n = int(t["n"]) - 1
        state = _set_battle(state, queue=((t.set("n", n),) if n > 0 else ()) + q[1:])
        out = lose_step(game, board, state, str(pid), frame.rule)
        return out.then(proceed(game, board, out.state))


def _name(game: Game, state: GameState, pid: str) -> str:
    if pid.startswith(GARRISON):
        return f"intrinsic garrison of {pid[len(GARRISON):]}"
    return hidden.display_name(game, state, state.piece(pid))


# --- retreats [11.11, 11.12] -------------------------------------------------------------

def run_retreat(game: Game, board: Board, state: GameState, pid: str) -> Outcome:
    b = battle(state)
    target = str(b["target"])
    if pid.startswith(GARRISON):  # a garrison cannot retreat: it is eliminated [11.21]
        return eliminate_garrison(board, state, target)
    p = state.piece(pid)
    if p.location != target:
        return Outcome(state)
    name = hidden.display_name(game, state, p)
    options = retreat.legal(game, board, state, p, target)
    open_ = [h for h in options if retreat.has_room(game, board, state, p, h)]
    follow = str(b.get("retreat_to", ""))
    if follow and follow in open_:  # [11.11] units from one hex retreat together
        return _retreat_to(game, board, state, p, follow)
    if open_:
        best = retreat.nearest(game, board, state, p, open_)
        if len(best) == 1:
            return _retreat_to(game, board, state, p, best[0])
        frame = Frame(F_RETREAT, p.side, f"Retreat {name} from {target}: these hexes are "
                      "equally near its supply; choose one [11.11].", "11.11",
                      FrozenMap(piece=pid, hexes=tuple(best)))
        return Outcome(state.push_frame(frame))
    if options:  # only full hexes: displacement [11.12]
        for full in retreat.nearest(game, board, state, p, options):
            chain = retreat.displace(game, board, state, full, p, frozenset({target}))
            if chain is not None:
                st, evs = chain
                return Outcome(st, tuple(evs)).then(_retreat_to(game, board, st, p, full))
        ev = Event("combat", f"{name} cannot displace anyone: eliminated instead [11.12]",
                   p.side, "11.12")
        return Outcome(state, (ev,)).then(losses.eliminate(game, state, p, "11.12"))
    ev = Event("combat", f"{name} has no open retreat hex: DE in place [11.11]", p.side,
               "11.11")
    return Outcome(state, (ev,)).then(lose_step(game, board, state, pid, "11.11"))


def _retreat_to(game: Game, board: Board, state: GameState, p: Piece, to: str) -> Outcome:
    name = hidden.display_name(game, state, p)
    state = retreat.move(game, board, state, p, to)
    state = _set_battle(state, retreat_to=to)
    if battle(state).get("kind") != "MA":
        state = _add(state, "retreated_in", (p.id,))
    return Outcome(state, (Event("combat", f"{name} retreats {p.location} → {to}", p.side,
                                 "11.11"),))


class RetreatFrame(FrameHandler):
    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        pid = str(frame.data["piece"])
        hexes = tuple(frame.data["hexes"])
        return Prompt(frame.side, frame.text, frame.rule,
                      moves=FrozenMap({pid: hexes}), targets=FrozenMap(retreat=hexes),
                      buttons=tuple(Button("retreat", f"Retreat to {h}", "11.11",
                                           args=FrozenMap(piece=pid, to=h)) for h in hexes))

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        to = action.args.get("to")
        if action.verb not in ("retreat", "move") or to not in frame.data["hexes"]:
            raise IllegalAction(f"Retreat to one of {', '.join(frame.data['hexes'])} [11.11].")
        _, state = state.pop_frame()
        p = state.piece(str(frame.data["piece"]))
        out = _retreat_to(game, board, state, p, str(to))
        return out.then(proceed(game, board, out.state))


# --- advance after combat [11.13] ------------------------------------------------------------

def advancers(game: Game, board: Board, state: GameState) -> list[Piece]:
    b = battle(state)
    target = str(b["target"])
    if combat_odds.defenders(game, state, target, str(b["side"])):
        return []
    out = []
    for p in _pieces(state, b["attackers"]):
        if not board.on_map(p.location) or p.location == target:
            continue
        if movement.area_allowed(game, board, state, p, target):
            continue
        if not stacking.can_enter(game, board, state, target, (p,), stop=True):
            continue
        out.append(p)
    return out


def ask_advance(game: Game, board: Board, state: GameState) -> Outcome:
    ps = advancers(game, board, state)
    if not ps:
        return Outcome(state)
    b = battle(state)
    frame = Frame(F_ADVANCE, str(b["side"]), f"{b['target']} is vacated: advance victorious "
                  "attackers into it (free, within stacking), or stop [11.13].", "11.13",
                  FrozenMap(ids=tuple(p.id for p in ps)))
    return Outcome(state.push_frame(frame))


class AdvanceFrame(FrameHandler):
    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        target = str(battle(state)["target"])
        ids = tuple(frame.data["ids"])
        buttons = tuple(Button("advance", f"Advance {_name(game, state, i)}", "11.13",
                               args=FrozenMap(piece=i)) for i in ids)
        return Prompt(frame.side, frame.text, frame.rule,
                      moves=FrozenMap({i: (target,) for i in ids}),
                      buttons=buttons + (Button("advance", "No (further) advance", "11.13",
                                                args=FrozenMap(piece="")),))

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        pid = action.args.get("piece")
        if action.verb not in ("advance", "move") or (pid and pid not in frame.data["ids"]):
            raise IllegalAction("Advance one of the victorious attackers, or stop [11.13].")
        _, state = state.pop_frame()
        if not pid:
            return proceed(game, board, state)
        p = state.piece(str(pid))
        target = str(battle(state)["target"])
        ev = Event("move", f"{hidden.display_name(game, state, p)} advances {p.location} → "
                   f"{target} [11.13]", p.side, "11.13")
        state = retreat.move(game, board, state, p, target)
        out = Outcome(state, (ev,)).then(ask_advance(game, board, state))
        if out.state.frames:
            return out
        return out.then(proceed(game, board, out.state))


# --- the end of a battle ------------------------------------------------------------------

def finish(game: Game, board: Board, state: GameState) -> Outcome:
    """Clear the battle; [7.2] stacking is checked at the end of every combat."""
    b = battle(state)
    out = Outcome(state)
    if b.get("kind") == "MA" and not b.get("success"):
        out = ma_result.fail(game, board, state, tuple(b["attackers"]))
    out = out.then(promote(game, board, out.state, tuple(b.get("full", ()))))
    st = out.state.with_var(V_BATTLE, FrozenMap())
    return out.then(stacking.check(game, board, st))


PROMOTION = {"brit_tank_stillborn": "brit_tank_inferior", "brit_tank_inferior": "brit_tank_top",
             "fr_tank_stillborn": "fr_tank_inferior", "fr_tank_inferior": "fr_tank_top"}
TANK_POOL = "box:allied_tank_pool"


def promote(game: Game, board: Board, state: GameState, full: tuple[str, ...]) -> Outcome:
    """[9.3] An unreduced tank corps that attacked and survives unreduced is promoted in
    place to its next variant: the next counter takes its place, the old one goes back."""
    events: list[Event] = []
    for pid in full:
        p = state.piece(pid)
        nxt = PROMOTION.get(p.type)
        if nxt is None or not board.on_map(p.location) or p.attrs.get(A_STEP) == 2:
            continue
        new = next((q for q in state.pieces_at(TANK_POOL) if q.type == nxt), None)
        if new is None:
            continue
        state = state.with_piece(replace(new, location=p.location, attrs=p.attrs))
        state = state.with_piece(replace(p, location=TANK_POOL,
                                         attrs=FrozenMap({k: v for k, v in p.attrs.items()
                                                          if k == "name"})))
        ut = game.definition.unit_types
        events.append(Event("info", f"{ut[p.type].name} is promoted to {ut[nxt].name}",
                            p.side, "9.3"))
    return Outcome(state, tuple(events))


HANDLER = CombatStep()
FRAMES: dict[str, FrameHandler] = {
    F_AIR: AirFrame(), F_LOSS: LossFrame(), F_CONVERT: ConvertFrame(), F_DL1: DL1Frame(),
    F_BB: BBFrame(), F_RETREAT: RetreatFrame(), F_ADVANCE: AdvanceFrame(),
}
RESUMES: dict[str, Resume] = {R_GAST: resume_gast, R_CRT: resume_crt}
