"""A bot for 1940: What If? (issue 7): "fast" and "strong" levels for every side.

It only proposes actions from the prompt's legal options (the moves, targets and buttons
the rules offer, or `candidate_actions`), best first; `choose_action` submits them in
turn and keeps the first the engine accepts, so it never plays an illegal action and
never gets stuck (the last resort is any legal candidate, as random play picks).

  set-up [3.1-3.5]        the automatic placement, then end the step (the strong German
                          first sets RUHR_GUARD infantry corps in the Ruhr [4.2])
  east order [5.3]        move/fight
  movement [10.0]         each unit once, to its best hex (bot_eval.dest_score); the
                          strong defender first fills the key hexes the enemy can reach
                          (the Ruhr [4.2], Moscow and the cities [4.3]; bot_eval.fill_keys;
                          a screen hex is given up to fill a Ruhr hex), the strong German
                          then swaps a reduced corps in a Ruhr hex for a full one
                          (bot_eval.swap_out), then fills its screen
  strategic transfer      units Eligible to Leave the GSRHB to the west map until it holds
  [12.1-12.3]             WEST_GARRISON German units, then east; none sent into the box
  air superiority [8.1]   the strong German suppresses both Anglo-French aircraft (the
                          columns they give an attack on the Ruhr [4.2, 8.4]); fast: none
  prepared assaults [11]  the best attack at the level's column (bot_eval.attack_options);
                          the strong German west hits any Allied stack next to the Ruhr
                          from 2:1, with the Ruhr's holders (who then stay [11.13]); the
                          strong German counts all its ready aircraft on Moscow [4.3]
  battle frames           all aircraft [8.4]; the strong German (luftwaffe_commit): all
                          but WEST_AIR_RESERVE in the east (all on Moscow), all to defend a
                          Ruhr hex, none to defend another west hex or to attack in the
                          west (kept for the Ruhr [4.2]); lose steps from the weakest full unit
                          [11.16, 11.20] (strong: the last unit in a Ruhr hex or Moscow
                          last); one step each in a chosen bloodbath; a forced
                          DR conversion to BB when the attackers have more steps, else
                          AL1 [11.19]; retreat rather than DL1 [11.19] (the strong German
                          west: DL1, holding its line); advance every
                          victor [11.13] (the strong German: not out of a key hex into a lesser one)
  replacements [9.9-9.11] restore while offered (the strong German: Ruhr corps first)
  Soviet reinforcements   each waiting unit to its best entry hex [9.5]
  other steps and frames  end the step / the first option offered (interdiction [8.3],
                          the fronts and boxes [12.4-12.8],
                          mobile assaults [10.15] and neutrality violations [3.6] are
                          never chosen yet)
  stack tops [7.3]        about to end a step, each side shows a typical unit on top of
                          its stacks near the enemy (bot_stack_top), one free action each
Fog of war [7.3]: every choice is weighed on the deciding side's view (bot_view.view: the
units beneath an enemy top estimated as that side's typical counter), never the real
state; the actions name its own units and are checked on the real state by the engine.
Dice are rolled digitally from the caller's Rng. Pure: no `random`, files or clock; a
time limit comes in as `budget` (False = stop thinking and play what is planned).
"""

from __future__ import annotations

from wartable.core.rng import Rng
from wartable.engine.actions import END_STEP, Action, Prompt
from wartable.engine.bots import Budget, play_ranked
from wartable.engine.loop import deciding_side
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.whatif1940 import bot_eval, bot_stack_top, bot_view, units
from wartable.games.whatif1940.board import Board, board_of
from wartable.games.whatif1940.ids import (
    A_MOVED,
    A_STEP,
    ANGLO_FRENCH,
    EAST,
    FRANCE,
    GERMAN,
    GERMAN_POOL,
    GSRHB_ELIGIBLE,
    MOSCOW,
    WEST,
)
from wartable.games.whatif1940.steps import airpower, combat, combat_odds, movement, setup
from wartable.model.state import GameState, Piece

Ranked = list[tuple[Action, str]]
INFANTRY = "ger_infantry"


def _buttons(p: Prompt, verb: str | None = None) -> list[Action]:
    return [Action(b.id, p.side, b.args) for b in p.buttons
            if b.enabled and (verb is None or b.id == verb)]


def _plain(actions: list[Action]) -> Ranked:
    return [(a, "") for a in actions]


def _end(p: Prompt) -> list[Action]:
    return _buttons(p, END_STEP)


# --- steps -----------------------------------------------------------------------------------

RUHR_GUARD = 12  # strong: German infantry set up in the Ruhr hexes before the automatic rest


def _setup(game: Game, board: Board, state: GameState, p: Prompt, step_id: str,
           level: str) -> Ranked:
    """[3.3] The strong German first puts RUHR_GUARD infantry corps, two per hex, in the
    Ruhr city hexes nearest France (the Allies win the instant they enter one [4.2]); then
    the automatic placement does the rest."""
    out: Ranked = []
    if level == "strong" and step_id == "setup_german_west":
        ruhr = [h for h in board.labels(WEST) if board.hex(h).ruhr]
        held = sum(1 for h in ruhr for q in state.pieces_at(h) if q.side == GERMAN)
        if held < RUHR_GUARD:
            france = board.distances([h for h in board.labels(WEST)
                                      if board.hex(h).region == FRANCE], bot_eval.FAR)
            best = sorted((france.get(d, bot_eval.FAR), d, pid)
                          for pid, dests in sorted(p.moves.items())
                          if state.piece(pid).location == GERMAN_POOL
                          and state.piece(pid).type == INFANTRY
                          for d in dests if d in ruhr)
            out = [(Action.make("move", GERMAN, piece=pid, to=d), "Guard the Ruhr [4.2]")
                   for _, d, pid in best[:1]]
    return out + [(a, "Automatic set-up [3.1-3.5]") for a in _buttons(p, setup.AUTO)] + \
        _plain(_end(p))


def _movement(game: Game, board: Board, state: GameState, p: Prompt, step_id: str,
              level: str, budget: Budget | None) -> Ranked:
    side, map_id = movement.STEP_MOVERS[step_id]
    if level == "strong" and budget is not None and not budget():
        return _plain(_end(p))
    ctx = bot_eval.context(game, board, state, side, map_id, level)
    # [10.2, 10.5] Each unit moves once: a moved unit's parent stack is soon finished.
    moved = frozenset(pid for pid in p.moves if state.piece(pid).attrs.get(A_MOVED))
    legal = sorted(p.moves.items())
    key = bot_eval.fill_keys(ctx, legal, moved, bot_eval.KEY_FIRST) or \
        bot_eval.swap_out(ctx, legal, moved) or bot_eval.fill_keys(ctx, legal, moved)
    best = ([key] if key else []) + bot_eval.best_moves(ctx, legal, moved)
    out: Ranked = [(Action.make("move", side, piece=m.piece, to=m.to), m.why)
                   for m in best[:3]]
    return out + _plain(_end(p))


def _combat(game: Game, board: Board, state: GameState, p: Prompt, step_id: str,
            level: str) -> Ranked:
    side, map_id = combat.STEP_SIDES[step_id]
    out: Ranked = []
    for a in bot_eval.attack_options(game, board, state, side, map_id, level)[:2]:
        why = f"Attack {a.target}: {a.text}"
        out.append((Action.make(combat.VERB, side, target=a.target, attackers=a.attackers),
                    why))
    return out + _plain(_end(p))


def _reinforce(game: Game, board: Board, state: GameState, p: Prompt, side: str,
               level: str) -> Ranked:
    """Each waiting unit to its best map hex [9.5]; boxes are left alone."""
    ctx = bot_eval.context(game, board, state, side, EAST, level)
    best: list[tuple[float, str, str]] = []
    for pid, dests in sorted(p.moves.items()):
        piece = state.piece(pid)
        if board.on_map(piece.location):
            continue
        for d in dests:
            if board.map_of(d) == EAST:
                best.append((-bot_eval.placement_score(ctx, piece, d), pid, d))
    best.sort()
    acts = [Action.make("move", side, piece=pid, to=d) for _, pid, d in best[:3]]
    return _plain(acts + _end(p))


def _replacements(game: Game, board: Board, state: GameState, p: Prompt,
                  level: str) -> list[Action]:
    """[9.9-9.11] Restore while offered; the strong German first the units holding a Ruhr
    hex, the one with the most enemy attack strength next to it first (two full corps
    there keep the Allied odds down [4.2, 11.8])."""
    acts = _buttons(p, "replace_step")
    if level == "strong" and p.side == GERMAN:
        def worst(a: Action) -> tuple[bool, int]:  # a Ruhr hex, the most threatened first
            loc = state.piece(str(a.args.get("piece"))).location
            ruhr = board.on_map(loc) and board.hex(loc).ruhr
            return not ruhr, -bot_eval.threat(game, board, state, GERMAN, loc) if ruhr else 0
        acts.sort(key=worst)
    return acts


WEST_GARRISON = 26  # German ground units wanted on the west map (ours): the Ruhr [4.2]
# (20 -> 26 measured against the fast Allies: fewer Ruhr losses, Moscow falls as often)


def _transfer(game: Game, board: Board, state: GameState, p: Prompt, level: str) -> Ranked:
    """[12.1-12.3] Units Eligible to Leave the GSRHB go to the west map while it holds
    fewer than WEST_GARRISON German units, else east, each to its best hex there; nothing
    is sent into the box (so nothing shuttles back and forth)."""
    west = sum(1 for q in state.pieces.values() if q.side == GERMAN and
               board.map_of(q.location) == WEST and units.is_ground(game, q))
    want = WEST if west < WEST_GARRISON else EAST
    ctxs = {m: bot_eval.context(game, board, state, GERMAN, m, level) for m in (WEST, EAST)}
    best: list[tuple[int, float, str, str]] = []
    for pid, dests in sorted(p.moves.items()):
        piece = state.piece(pid)
        if piece.location != GSRHB_ELIGIBLE:
            continue
        for d in dests:
            m = board.map_of(d)
            if m in ctxs:
                best.append((0 if m == want else 1,
                             -bot_eval.dest_score(ctxs[m], piece, d), pid, d))
    best.sort()
    why = f"Strategic transfer to the {'west' if want == WEST else 'east'} map [12.1]"
    acts = [(Action.make("move", GERMAN, piece=pid, to=d), why) for *_, pid, d in best[:3]]
    return acts + _plain(_end(p))


SUPPRESS_SIDES = (ANGLO_FRENCH,)  # strong: whose aircraft the Luftwaffe suppresses [8.1]


WEST_ATTACK_AIR = False  # strong: the Luftwaffe supports German attacks on the west map
WEST_AIR_RESERVE = 2  # strong: Luftwaffe units kept from the east for the Ruhr's defence


def luftwaffe_commit(game: Game, state: GameState, ready: int) -> int:
    """[8.4, 8.6] How many of the `ready` Luftwaffe units the strong German commits to the
    battle in hand (each flies one mission a game turn): in the east all but
    WEST_AIR_RESERVE, kept for the Anglo-French combat phase that ends the game turn
    while an Anglo-French unit can reach the Ruhr (else all)
    (all of them to attack or hold Moscow: a Moscow Falls roll each turn held [4.3]); in
    the west all of them to defend a Ruhr hex (one lost hex loses the game [4.2]), none
    to defend another hex (they wait for the Ruhr) or to attack."""
    b = combat.battle(state)
    target = str(b.get("target"))
    if b.get("map") == WEST:
        if state.frames[-1].data.get("role") == "attack":
            return ready if WEST_ATTACK_AIR else 0
        board = board_of(game)
        return ready if target in board.hexes and board.hex(target).ruhr else 0
    if target in bot_eval.AIR_TARGETS:  # attacked or held by the German: Moscow gives a
        return ready  # Moscow Falls roll each turn it is German [4.3]
    return max(0, ready - WEST_AIR_RESERVE) if ruhr_in_reach(game, state) else ready


def ruhr_in_reach(game: Game, state: GameState) -> bool:
    """An Anglo-French ground unit is within a west move (6 MF + 1 [2.10]) of a Ruhr hex:
    the Luftwaffe reserve is kept for the Anglo-French combat phase [4.2]."""
    board = board_of(game)
    ruhr = [h for h in board.labels(WEST) if board.hex(h).ruhr]
    near = board.distances(ruhr, 7)
    return any(p.side == ANGLO_FRENCH and p.location in near and units.is_ground(game, p)
               for p in state.pieces.values())


def _air_superiority(state: GameState, p: Prompt, level: str) -> Ranked:
    """[8.1] The strong German suppresses the Anglo-French aircraft: each gives the Allied
    attack on a Ruhr hex a column [8.4], the difference between a held Ruhr and a lost
    game [4.2]; the other Luftwaffe units fly in the east."""
    if level != "strong":
        return _plain(_end(p))
    out = [(a, "Air superiority over the west [8.1]") for a in _buttons(p, airpower.VERB)
           if state.piece(str(a.args.get("target"))).side in SUPPRESS_SIDES]
    return out[:1] + _plain(_end(p))


def _step(game: Game, state: GameState, p: Prompt, level: str,
          budget: Budget | None, real: GameState) -> Ranked:
    """The step's proposals; about to end its own step, the side first dresses its stacks
    near the enemy with a typical unit on top [7.3] (bot_stack_top), one a proposal."""
    out = _step_choices(game, state, p, level, budget, real)
    if out and out[0][0].verb == END_STEP and p.side == game.position(state).side:
        tops = bot_stack_top.top_actions(game, board_of(game), state, p.side)
        return [(a, bot_stack_top.WHY) for a in tops[:1]] + out
    return out


def _step_choices(game: Game, state: GameState, p: Prompt, level: str,
                  budget: Budget | None, real: GameState) -> Ranked:
    board = board_of(game)
    pos = game.position(state)
    kind, sid = pos.step.kind, pos.step.id
    if p.side != pos.side:
        return _plain(list(game.rules.candidate_actions(game, real, p)))
    if kind == "setup":
        return _setup(game, board, state, p, sid, level)
    if kind == "declare_order":
        opts = _buttons(p)
        return _plain(sorted(opts, key=lambda a: a.args.get("order") != "move_fight"))
    if kind == "movement" and sid in movement.STEP_MOVERS:
        return _movement(game, board, state, p, sid, level, budget)
    if kind == combat.KIND and sid in combat.STEP_SIDES:
        return _combat(game, board, state, p, sid, level)
    if kind in ("german_replacement", "af_replacement"):
        return _plain(_replacements(game, board, state, p, level) + _end(p))
    if kind == "strategic_transfer" and pos.side == GERMAN:
        return _transfer(game, board, state, p, level)
    if kind == airpower.KIND:
        return _air_superiority(state, p, level)
    if kind == "soviet_reinforcement":
        return _reinforce(game, board, state, p, pos.side, level)
    cands = list(game.rules.candidate_actions(game, real, p))
    return _plain(_end(p) + [a for a in cands if a.verb != END_STEP])


# --- frames ----------------------------------------------------------------------------------

def loss_order(game: Game, state: GameState, ids: list[str],
               level: str = "fast") -> list[str]:
    """Which unit loses a step first [11.16, 11.20]: the intrinsic garrison, then full
    two-step units (a step lost, not a unit), infantry before armour, the weakest first.
    The strong level first spares the units holding a Ruhr hex or Moscow, above all the
    last one there: an empty Ruhr hex is left to its one-step garrison [4.2, 11.21]."""
    board = board_of(game)

    def held(q: Piece) -> int:
        if level != "strong" or not board.on_map(q.location):
            return 0
        h = board.hex(q.location)
        if not (h.ruhr and q.side == GERMAN) and not (q.location == MOSCOW and q.side != GERMAN):
            return 0
        mates = [o for o in state.pieces_at(q.location) if o.side == q.side
                 and units.is_ground(game, o)]
        return 2 if len(mates) == 1 and not (q.attrs.get(A_STEP) != 2
                                             and units.full_steps(game, q) > 1) else 1

    def key(pid: str) -> tuple[int, int, int, int, str]:
        if pid.startswith(combat.GARRISON) or pid not in state.pieces:
            return (-1, -1, 0, 0, pid)
        q = state.piece(pid)
        f = combat_odds.factors(game, state, q) or combat_odds.typical(game, q)
        last = q.attrs.get(A_STEP) == 2 or units.full_steps(game, q) == 1
        return (held(q), 1 if last else 0, int(units.is_mech(game, q)), f[0] + f[1], pid)

    return sorted(ids, key=key)


def convert_choice(game: Game, state: GameState) -> str:
    """[11.19, 11.20] A bloodbath when the attackers have more steps than the defenders
    (the defenders all die, the attacker loses as many), else AL1 (one step)."""
    b = combat.battle(state)
    board = board_of(game)
    att = [i for i in b.get("attackers", ()) if i in state.pieces
           and board.on_map(state.piece(i).location)]
    dfn = [p.id for p in combat_odds.defenders(game, state, str(b.get("target")),
                                                str(b.get("side")))]
    d_steps = combat.steps_of(game, state, dfn) if dfn else 1  # a garrison: one step
    return "BB" if combat.steps_of(game, state, att) > d_steps else "AL1"


def _advance(game: Game, state: GameState, p: Prompt, level: str) -> list[Action]:
    """[11.13] Advance the victors; the strong level keeps the units its key hexes want
    (the Ruhr, Moscow...) where they are, the German never leaves a key hex for a lesser one
    (the Ruhr for its screen [4.2]), and a defender advances only into a key hex."""
    acts = sorted(_buttons(p, "advance"), key=lambda a: a.args.get("piece") == "")
    if level != "strong":
        return acts
    board = board_of(game)
    b = combat.battle(state)
    side, map_id, target = str(b.get("side")), str(b.get("map")), str(b.get("target"))
    ctx = bot_eval.context(game, board, state, side, map_id, level)
    defend = bot_eval.role(side, map_id) == "defend" and target not in ctx.keys
    worth = ctx.keys.get(target, 0.0)

    def stays(pid: str) -> bool:  # held, or in a key hex worth more than the target
        p = state.piece(pid)
        return defend or bot_eval.holds(ctx, p) or \
            (side == GERMAN and ctx.keys.get(p.location, 0.0) > worth)

    keep = [a for a in acts if a.args.get("piece") and stays(str(a.args["piece"]))]
    return [a for a in acts if a not in keep] + keep


def _frame(game: Game, state: GameState, p: Prompt, level: str, real: GameState) -> Ranked:
    kind = state.frames[-1].kind
    if kind == combat.F_AIR:  # all the aircraft available [8.4]
        air = sorted(_buttons(p, "air"), key=lambda a: -int(a.args.get("count", 0)))
        if level == "strong" and p.side == GERMAN:
            n = luftwaffe_commit(game, state, len(air) - 1)
            air.sort(key=lambda a: int(a.args.get("count", 0)) != n)
        return _plain(air)
    if kind == combat.F_LOSS:
        loss = _buttons(p, "lose_step")
        order = loss_order(game, state, [str(a.args.get("piece")) for a in loss], level)
        return _plain(sorted(loss, key=lambda a: order.index(str(a.args.get("piece")))))
    if kind == combat.F_BB:
        return _plain(sorted(_buttons(p, "bb"), key=lambda a: int(a.args.get("steps", 0))))
    if kind == combat.F_DL1:
        # [11.19] Retreat, keeping the steps; the strong German west holds its line instead
        # (a retreat opens the way to the Ruhr and displaces its holders [11.12, 4.2])
        hold = level == "strong" and combat.battle(state).get("map") == WEST
        first = "dl1" if hold else "retreat"
        return _plain(sorted(_buttons(p, "dl1"), key=lambda a: a.args.get("choice") != first))
    if kind == combat.F_CONVERT:
        return _plain(sorted(_buttons(p, "convert"),
                             key=lambda a: a.args.get("result") != convert_choice(game, state)))
    if kind == combat.F_ADVANCE:
        return _plain(_advance(game, state, p, level))
    cands = list(game.rules.candidate_actions(game, real, p))
    done = [a for a in cands if a.verb in ("done", "efst_done")]
    return _plain(done + [a for a in cands if a not in done])


def ranked(session: Session, level: str, budget: Budget | None = None,
           prompt: Prompt | None = None) -> Ranked:
    """The bot's proposals for the deciding side, best first, with a reason where it has
    one. Only the prompt's own options are proposed. Everything is weighed on the side's
    view, never the real state [7.3] (bot_view: hidden units estimated)."""
    game = session.game
    side = deciding_side(session.state)
    p = prompt if prompt is not None else session.prompt(side)
    state = bot_view.view(game, session.state, side)
    # (the prompt's options are enumerated on the real state: they are the side's own)
    if state.frames:
        return _frame(game, state, p, level, session.state)
    return _step(game, state, p, level, budget, session.state)


def choose_action(session: Session, rng: Rng, level: str = "fast",
                  budget: Budget | None = None) -> tuple[Action, Rng]:
    action, rng, _why = explained_action(session, rng, level, budget)
    return action, rng


def explained_action(session: Session, rng: Rng, level: str = "fast",
                     budget: Budget | None = None) -> tuple[Action, Rng, str]:
    """The bot's action for the deciding side and the reason for it ("" when there is
    nothing worth saying): the best proposal the engine accepts, else any legal candidate
    (engine/bots.play_ranked: the random level, unknown levels, and dice the same way)."""
    return play_ranked(session, rng, level, lambda p: ranked(session, level, budget, p))
