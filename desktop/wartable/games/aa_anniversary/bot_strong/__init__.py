"""The "strong" bot for Axis & Allies Anniversary (issue 7), built on the fast bot's pieces
(bot_fast.py). One module per plan: purchase.py, combat_move.py, noncombat.py (landing
included), placement.py (Mobilize New Units); common.py holds what they share (threats,
distances, the time budget); this module replays the plan and unsticks a refused end.

Each step of a power's turn is planned once, as it begins, into a list of actions with the
reasons a player reads in the turn summary; the list is replayed action by action and made
again whenever the state is not the one the plan expects (an undo, a human's move, a hint).
  purchase        a threatened capital first buys infantry until the enemy's best attack on
                  it wins at most DEFEND_P of the time (exact odds, `calculate`); a power whose
                  capital has no land route to the enemy (UK, USA, Japan) then buys transports
                  (up to TRANSPORTS, or MAX_TRANSPORTS while land units wait at its coastal
                  factories for a lift) with escorts against nearby enemy fleets, a carrier (up
                  to CARRIERS, with a fighter when it has few) when enemy ships or aircraft
                  are near its coast, and land units to ship; the others a land mix
                  (infantry, artillery, armour, a fighter)
  combat move     every target's attack gathers all units that reach it (land units from
                  several territories, aircraft, and seaborne units: cargo already aboard and
                  land units that board a transport next to them in this Combat Move, the
                  transports then sailing to a sea zone next to the target without enemy
                  warships: amphibious assaults, Transports pg. 15, pg. 17), then drops the
                  costliest units while the attack still wins SEND_P of the time; it is made
                  when it wins ATTACK_P of the time (CITY_ATTACK_P against a victory city)
                  and is worth its expected losses. The capital keeps the garrison that
                  holds it. Aircraft only take moves the engine offers, and only where they
                  reach a territory to land in afterwards or the carrier they took off from
                  (Air Units, pg. 26: the engine lets them count on any carrier that could
                  come, not on a place on it). Carriers stay (their fighters count on them).
  battles         the default casualty order; press while the attacker wins PRESS_P
  noncombat move  a carrier that has not moved sails to a fighter with nowhere else to
                  land (pg. 21); aircraft land where they defend a threatened capital,
                  victory city or factory (each where the enemy's attack then wins most
                  often, the odds counted again after each landing), else on a carrier with
                  a free place, else nearest the front; land units reinforce such places
                  until the enemy's best attack wins at most DEFEND_P, then move toward the
                  front; transports load land units and, where a threatened victory city or
                  factory (not the capital) is next to a zone they reach, sail there and
                  offload them into it (Phase 5, pg. 21: Japan's army, built in Japan,
                  holds Kiangsu and Kwangtung), else sail with their escorts and carriers
                  toward the enemy's coastal victory cities, else the nearest enemy coast,
                  the carriers' fighters flying along to land on them again (Aircraft
                  Carriers, pg. 27); empty transports sail back to the coastal factories
                  where land units wait for a lift
  mobilize        land units where the threat is, else at the factory nearest the front;
                  a new carrier where fighters wait for one, else with the own fleet, a new
                  fighter on board it (Mobilize New Units, pg. 22: new fighters may be
                  placed on a new carrier), else next to it; other ships in the sea zone
                  nearest the enemy's coasts
  Strategic Bombing Raids (pg. 17): bombers that came with an attack fight in it; bombers
                  alone over an enemy industrial complex raid it
Threats count enemy land units within their move of the space, aircraft within about half
their range (they must fly back), and cargo within a transport's move (bombardment and sea
units are left out). Every odds call passes both sides' developments to the calculator
(Phase 1: Research & Development; `bot_fast.battle_developments`).
A plan's action that is not legal yet stays in the plan (a fighter landing where its carrier
sails to); when the end button is refused, `_unstick` offers the moves its reason asks for
(cargo loaded in Combat Move must assault; a carrier must pick up fighters; a new carrier
goes where fighters wait). Pure: no clock; the caller's `budget` callable is the time limit.
"""

from __future__ import annotations

from wartable.core.errors import IllegalAction
from wartable.engine.actions import END_STEP, Action, Prompt
from wartable.engine.bots import Budget
from wartable.engine.loop import deciding_side
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.aa_anniversary.bot_fast import (
    button,
    end_buttons,
    press_or_retreat,
    raid_choice,
    step_kind,
)
from wartable.games.aa_anniversary.bot_strong.combat_move import plan_combat
from wartable.games.aa_anniversary.bot_strong.common import Planned, is_carrier, place_name
from wartable.games.aa_anniversary.bot_strong.noncombat import plan_noncombat
from wartable.games.aa_anniversary.bot_strong.placement import plan_mobilize
from wartable.games.aa_anniversary.bot_strong.purchase import plan_purchase
from wartable.games.aa_anniversary.steps import movement
from wartable.games.aa_anniversary.steps.battle import forces
from wartable.games.aa_anniversary.steps.common import stats, world
from wartable.model.state import GameState

# Per game (held with it, issue 14): (turn, step index, power) -> (the serial the head
# expects, the plan): a memo of the plan being played; another serial makes a new plan.
PlanMemo = dict[tuple[int, int, str], tuple[int, tuple[Planned, ...]]]


def _plan_memo(game: Game) -> PlanMemo:
    return {}


# --- the plan per step ---------------------------------------------------------------------
_BUILDERS = {
    "purchase": plan_purchase,
    "combat_move": plan_combat,
    "noncombat_move": plan_noncombat,
    "mobilize": plan_mobilize,
}


def _still_legal(p: Prompt, a: Action) -> bool:
    if a.verb == "move":
        return str(a.args.get("to")) in p.moves.get(str(a.args.get("piece")), ())
    if a.verb == "buy":
        return any(b.id == "buy" and b.enabled and b.args == a.args for b in p.buttons)
    return True


def ranked(session: Session, budget: Budget | None = None,
           prompt: Prompt | None = None) -> list[tuple[Action, str]]:
    """The strong bot's candidates for the deciding side, best first, with reasons
    (`prompt`: the deciding side's prompt when the caller has it: it is costly to make)."""
    game, state = session.game, session.state
    side = deciding_side(state)
    p = prompt if prompt is not None and prompt.side == side else session.prompt(side)
    ids = {b.id for b in p.buttons if b.enabled}
    if "casualties" in ids:
        return [(a, "") for a in button(p, "casualties")]
    if "press" in ids:
        return [(a, "") for a in press_or_retreat(game, state, p)]
    if state.frames:
        return [(a, "") for a in game.rules.candidate_actions(game, state, p)]
    kind = step_kind(game, state)
    if kind == "conduct_combat":
        return raid_choice(game, state, p) + [(a, "") for a in button(p, "fight")
                                              + end_buttons(p)]
    build = _BUILDERS.get(kind)
    if build is None:
        rest = end_buttons(p) + list(game.rules.candidate_actions(game, state, p))
        return [(a, "") for a in rest]
    plans = game.derived(_plan_memo)
    key = (state.turn, state.step_index, side)
    hit = plans.get(key)
    if hit is not None and hit[0] == state.serial:
        plan = hit[1]
    else:
        plan = tuple(build(game, state, p, budget))
    # An action not legal yet may become so after the ones before it (a fighter lands where
    # its carrier sails to, cargo lands once its transport sailed): it is kept for later.
    legal = [x for x in plan if _still_legal(p, x.action)]
    later = plan[plan.index(legal[0]) + 1:] if legal else ()
    if len(plans) > 64:
        plans.clear()
    plans[key] = (state.serial + 1, later)
    return ([(x.action, x.reason) for x in legal] + _unstick(game, state, p, kind)
            + [(a, "") for a in end_buttons(p)])


def _unstick(game: Game, state: GameState, p: Prompt, kind: str) -> list[tuple[Action, str]]:
    """When the step may not end (the end button's reason), the moves that let it end:
    units loaded in Combat Move assault a hostile territory (Transports, pg. 15), their
    transport sails where they can; in Noncombat Move a carrier moves to the fighters
    that count on it (Air Units, pg. 26), the one the reason names first."""
    end = [b for b in p.buttons if b.id == END_STEP]
    if not end or end[0].enabled:
        return []
    power = p.side
    out: list[tuple[Action, str]] = []
    if kind == "combat_move":
        for pid, dests in sorted(p.moves.items()):
            q = state.pieces[pid]
            if q.attrs.get("on") and stats(game, q).land:  # in Combat Move it lands to attack
                to = min(dests, key=lambda d: (len(forces.defenders(game, state, d, power)), d))
            elif stats(game, q).transport and movement.carries_combat_cargo(state, q):
                to = dests[0]
            else:
                continue
            out.append((Action.make("move", power, piece=pid, to=to),
                        "Units loaded in Combat Move must assault (Transports, pg. 15)"))
    elif kind == "noncombat_move":
        reason = end[0].reason
        w = world(game)
        short = {z for z in w.sea if movement.carrier_room(game, state, z, power) < 0}
        carriers = sorted((pid for pid in p.moves if is_carrier(game, state.pieces[pid].type)),
                          key=lambda x: (game.rules.piece_name(game, state.pieces[x])
                                         not in reason, x))
        for pid in carriers:
            dests = p.moves[pid]
            named = [d for d in dests if f" {place_name(game, d)} " in reason]
            for d in named + sorted(d for d in dests if d in short and d not in named):
                out.append((Action.make("move", power, piece=pid, to=d),
                            f"A carrier moves to pick up fighters in {place_name(game, d)} "
                            "(Air Units, pg. 26)"))
    elif kind == "mobilize":  # a new carrier goes where fighters wait for it (pg. 26)
        reason = end[0].reason
        w = world(game)
        for pid, dests in sorted(p.moves.items()):
            if not is_carrier(game, state.pieces[pid].type):
                continue
            for d in sorted(dests, key=lambda d: (f" {place_name(game, d)} " not in reason,
                                                  movement.carrier_room(game, state, d, power),
                                                  d)):
                if d in w.sea:
                    out.append((Action.make("move", power, piece=pid, to=d), ""))
    return out


def hint(session: Session, budget: Budget | None = None) -> tuple[Action, str] | None:
    """The strong bot's next action for the deciding side and why (not played): one
    action, not the plan it belongs to (issue 17: the Hint listed the whole purchase)."""
    for a, why in ranked(session, budget):
        try:
            session.submit(a)
        except IllegalAction:
            continue
        return a, one_action_reason(a, why)
    return None


def one_action_reason(action: Action, why: str) -> str:
    """A purchase's reason names every unit of the plan ("Buy 1 Tank, 4 Infantry ... (31
    IPCs)"); a hint keeps only what it says of the whole: its cost."""
    if action.verb == "buy" and why.startswith("Buy ") and why.endswith(")"):
        return f"Part of the purchase the bot plans ({why.rsplit('(', 1)[-1][:-1]} in all)."
    return why
