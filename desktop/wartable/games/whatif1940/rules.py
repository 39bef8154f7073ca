"""Rules of 1940: What If? (issue 5): the sequence of play [5.1-5.5], set-up [3.1-3.10],
hex control [3.12], stacking [7.1-7.7], supply [6.1-6.12], movement and mobile assaults
[10.1-10.24] with the neutrals [3.6, 3.7], map limits [3.9] and red rows [12.9], airpower
and the 7th Flieger Corps [8.1-8.7], prepared assaults [11.1-11.21], reinforcements and
replacements [9.1-9.11], the holding boxes and off-map fronts [12.1-12.8], untried Soviet
units [2.12], Moscow Falls and the Ruhr and end-of-game victory [4.2-4.4].

Each step kind has its module in steps/, plugged in through the registries below (see
handlers.py). A step of kind "unenforced" (none is left in the data) would only show its
prompt and an End step button: played in free play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Outcome, Prompt
from wartable.engine.loop import end_step, end_step_button
from wartable.engine.rollodds import RollNotes
from wartable.engine.rules import Game, Rules
from wartable.games.whatif1940 import air, fog, hidden, invariants, victory
from wartable.games.whatif1940.board import Board, board_of
from wartable.games.whatif1940.handlers import FrameHandler, Resume, StepHandler
from wartable.games.whatif1940.ids import (
    ALLIED_POOL,
    GERMAN,
    GERMAN_POOL,
    MOVE_FIGHT,
    NEUTRAL_POOL,
    SOVIET_POOL,
    V_ARDENNES_OPEN,
    V_BELGIUM,
    V_CONTROL,
    V_EAST_ORDER,
    V_EVER_GERMAN,
    V_HOLLAND,
    V_LUXEMBOURG,
    V_PIECE_IDS,
    V_PLOESTI,
    V_SETUP_DONE,
)
from wartable.games.whatif1940.steps import (
    airpower,
    combat,
    combat_table,
    doctrine,
    flieger,
    fronts,
    interdiction,
    mobile_assault,
    moscow,
    movement,
    movement_phase,
    neutrality,
    offmap,
    order,
    reinforce,
    replacements,
    setup,
    stacking,
    surprise,
    transfer,
)
from wartable.games.whatif1940.steps import supply as terminal_supply
from wartable.games.whatif1940.supply import read_config as read_supply_config
from wartable.model.parse import Reader
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece

# Each part of the rules plugs in here: step kind -> handler, frame kind -> handler,
# resume name -> function (see handlers.py). One line per kind.
STEP_HANDLERS: dict[str, StepHandler] = {
    combat.KIND: flieger.WithDrop(combat.HANDLER),  # prepared assaults [11.0], the 7th [8.7]
    terminal_supply.KIND: terminal_supply.TerminalSupply(),  # [6.8]
    airpower.KIND: airpower.AirSuperiority(),  # [8.1], just before the transfer half of I.A
    interdiction.KIND: interdiction.Interdiction(),  # [8.3] before enemy movement phases
    "strategic_transfer": transfer.StrategicTransfer(),  # [12.1-12.4] (after german_air)
    "east_front_surprise": surprise.EastFrontSurprise(),  # [5.5]
    "german_replacement": replacements.Replacement("9.9"),  # [9.9]
    "moscow_capture": moscow.MoscowCapture(),  # [4.3]
    "far_east": fronts.FarEast(),  # [12.5]
    "arctic": fronts.Arctic(),  # [12.6]
    "southwest": fronts.Southwest(),  # [12.7, 12.8, 12.4]
    "soviet_reinforcement": reinforce.SovietReinforcement(),  # [9.5-9.8, 9.10]
    "af_replacement": replacements.Replacement("9.11"),  # [9.11]
    "armor_doctrine": doctrine.HANDLER,  # the Ardennes, tank corps and Tank Army rolls
}
FRAME_HANDLERS: dict[str, FrameHandler] = {
    # air support, losses, conversions, retreats, advance [8.4, 11.x]; each may end a
    # 7th Flieger airborne assault's battle, which then settles the 7th [8.7, 10.19]
    **flieger.settling(combat.FRAMES),
    **flieger.FRAMES,  # the 7th's drop, its PA/AA partners, its air support [8.7, 8.4]
    surprise.FRAME: surprise.EfstFrame(),  # the Soviet surprise moves [5.5]
    fronts.REACTION: fronts.ReactionFrame(),  # the German Romania reaction [12.4]
    fronts.LOSS: fronts.LossFrame(),  # losses in Romania [12.8]
    fronts.BB_COUNT: fronts.BloodbathFrame(),  # equal-step bloodbath in Romania [11.20]
    offmap.CONFIRM: offmap.ConfirmFrame(),  # players' DRM answers (engine/procflow.py)
    doctrine.F_PLACE: doctrine.PLACE,  # a new tank corps to a supply source hex [9.2]
}
LEGEND_HEADING = "What the results do:"  # a heading in the hint (it ends with ":")
RESUMES: dict[str, Resume] = {
    **combat.RESUMES,  # the GAST and CRT rolls [6.11, 11.3]
    moscow.RESUME: moscow.resume,  # the Moscow Falls Table [4.3]
    flieger.RESUME_LAND: flieger.resume_landing,  # the FCLT [8.7]
    flieger.RESUME_AA: flieger.resume_assault,  # the airborne assault's CRT roll [8.7]
    flieger.RESUME_GAST: flieger.resume_gast,  # the GAST of an east PA/AA [6.11]
    surprise.RESUME: surprise.resume,  # the East Front Surprise Table [5.5]
    fronts.RESUME_JIFET: fronts.resume_jifet,  # [12.5]
    fronts.RESUME_FJWT: fronts.resume_fjwt,  # [12.6]
    fronts.RESUME_ROMANIA: fronts.resume_romania,  # combat in Romania [12.8]
    reinforce.RESUME_FORTS: reinforce.resume_forts,  # fort construction d6 - 1 [9.8]
    doctrine.RESUME: doctrine.resume_ardennes,  # [10.10]
    doctrine.RESUME_TANK: doctrine.resume_tank,  # [9.2, 9.3]
    doctrine.RESUME_ARMY: doctrine.resume_army,  # [9.4]
}


class WhatIf1940Rules(Rules):
    """The game's hooks. Keeps nothing between calls but the last step prompt (by state)."""

    def __init__(self) -> None:
        self._last: tuple[GameState, int, Prompt] | None = None

    def board(self, game: Game) -> Board:
        return board_of(game)

    def setups(self, game: Game) -> setup.Setup:
        return setup.Setup(game, self.board(game))

    # --- start of play [3.1-3.12] ----------------------------------------------------------
    def setup(self, game: Game, state: GameState) -> GameState:
        defaults: dict[str, Any] = {
            V_SETUP_DONE: False, V_CONTROL: FrozenMap(), V_EVER_GERMAN: (),
            V_EAST_ORDER: MOVE_FIGHT, V_PLOESTI: False, V_ARDENNES_OPEN: False,
            V_HOLLAND: "neutral", V_BELGIUM: "neutral", V_LUXEMBOURG: False,
        }
        for k, v in defaults.items():
            if k not in state.vars:
                state = state.with_var(k, v)
        state = hidden.conceal_all(game, state)
        state = setup.initial_draws(game, state)
        return state.with_var(V_PIECE_IDS, tuple(sorted(state.pieces)))

    def check_tables(self, game: Game) -> None:
        """Parse every table eagerly (each is otherwise read when first used)."""
        t = game.definition.tables
        combat_table.read(t)  # CRT, GAST, terrain column shifts [11.3, 11.8, 6.11]
        read_supply_config(t, self.board(game))  # Rollbahn routes [6.5]
        for key, conditions in ((moscow.TABLE, moscow.CONDITIONS), (surprise.TABLE, ()),
                                (flieger.TABLE, flieger.CONDITIONS),
                                (fronts.RESUME_JIFET, ("far_east_transferred",)),
                                (fronts.RESUME_FJWT, ("arctic_shortfall",))):
            offmap.procedure(game, key, conditions)  # [12.4, 5.5, 8.7, 12.5, 12.6]
        _check_counts(t)

    def condition(self, game: Game, name: str, state: GameState) -> bool:
        if name == "setup_pending":
            return not state.var(V_SETUP_DONE, False)
        if name == "east_move_first":
            return order.move_first(state)
        if name == "east_fight_first":
            return not order.move_first(state)
        return super().condition(game, name, state)

    # --- the sequence of play [5.2] ------------------------------------------------------
    def enter_step(self, game: Game, state: GameState, pos: Position) -> Outcome:
        board = self.board(game)
        kind = pos.step.kind
        state = air.new_turn(state)  # [8.1, 8.6] aircraft return at each new game turn
        out = Outcome(state)
        handler = STEP_HANDLERS.get(kind)
        if handler is not None:
            out = handler.enter(game, board, state, pos)
        elif kind == "movement":
            out = movement.enter_step(game, board, state, pos.step.id)
        elif kind == "declare_order":
            out = order.enter(state)
        if out.auto_end or out.state.frames:
            return out
        # [7.2] Stacks are checked at the start and end of every phase.
        return out.then(stacking.check(game, board, out.state))

    def exit_step(self, game: Game, state: GameState, pos: Position) -> Outcome:
        kind = pos.step.kind
        handler = STEP_HANDLERS.get(kind)
        if handler is not None:
            return handler.exit(game, self.board(game), state, pos)
        if kind == "movement":
            return movement.exit_step(state)
        if kind == "setup":
            state = self.setups(game).finish(state, pos.step.id)
            if pos.step.id == "setup_anglo_french":
                state = state.with_var(V_SETUP_DONE, True)
        return Outcome(state)

    def can_end_step(self, game: Game, state: GameState, pos: Position) -> str | None:
        handler = STEP_HANDLERS.get(pos.step.kind)
        if handler is not None:
            return handler.can_end(game, self.board(game), state, pos)
        if pos.step.kind == "setup":
            return self.setups(game).can_end(state, pos.step.id)
        if pos.step.kind == "declare_order":
            return "Declare move/fight or fight/move [5.3]."
        return None

    def step_prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        last = self._last
        if last is not None and last[0] is state and last[1] == pos.index:
            return last[2]
        p = self._step_prompt(game, state, pos)
        self._last = (state, pos.index, p)
        return p

    def _step_prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        kind, step = pos.step.kind, pos.step
        handler = STEP_HANDLERS.get(kind)
        if handler is not None:
            return handler.prompt(game, self.board(game), state, pos)
        if kind == "setup":
            return self.setups(game).prompt(state, step.id, step.prompt, step.rule)
        if kind == "movement":
            return movement_phase.prompt(game, self.board(game), state, step.id, step.prompt,
                                         step.rule)
        if kind == "declare_order":
            return order.prompt(state, step.prompt, step.rule)
        text = step.prompt or step.name
        if kind == "unenforced":
            text += " (Not enforced yet: play it in free play, then end the step.)"
        return Prompt(pos.side, text, step.rule, buttons=(end_step_button(),))

    def step_apply(self, game: Game, state: GameState, pos: Position, action: Action) -> Outcome:
        # [7.3] Under the fog the enemy does not read in the log where each unit went.
        return fog.private_moves(self._step_apply(game, state, pos, action))

    def _step_apply(self, game: Game, state: GameState, pos: Position,
                    action: Action) -> Outcome:
        kind, sid = pos.step.kind, pos.step.id
        if action.verb == fog.VERB:  # [7.3] free, in any step: the owner's top unit
            return fog.set_top(game, state, action, self._name(game, state))
        handler = STEP_HANDLERS.get(kind)
        if handler is not None:
            out = handler.apply(game, self.board(game), state, pos, action)
            if out is not None:
                return out
        if kind == "setup":
            s = self.setups(game)
            if action.verb == "move":
                return s.place(state, sid, action, self._name(game, state))
            if action.verb == setup.AUTO:
                return s.auto(state, sid)
        if kind == "movement":
            if action.verb == "move":
                return movement.apply_move(game, self.board(game), state, action, sid,
                                           self._name(game, state))
            if action.verb == neutrality.VERB and pos.side == action.side:
                return neutrality.apply(game, state, action)
            if action.verb == mobile_assault.VERB:  # [10.15]
                return mobile_assault.declare(game, self.board(game), state, action, sid)
            if action.verb == flieger.VERB:  # [8.7]
                return flieger.declare(game, self.board(game), state, sid, action)
        if kind == "declare_order" and action.verb == order.VERB:
            out = order.apply(state, action)
            return out.then(end_step(game, out.state))
        return super().step_apply(game, state, pos, action)

    # --- frames and dice -----------------------------------------------------------------
    def frame_prompt(self, game: Game, state: GameState, frame: Frame) -> Prompt:
        fh = FRAME_HANDLERS.get(frame.kind)
        if fh is not None:
            return fh.prompt(game, self.board(game), state, frame)
        if frame.kind == stacking.OVERSTACK:
            return stacking.frame_prompt(game, state, frame, self._name(game, state))
        return super().frame_prompt(game, state, frame)

    def frame_apply(self, game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
        fh = FRAME_HANDLERS.get(frame.kind)
        if fh is not None:
            return fh.apply(game, self.board(game), state, frame, action)
        if frame.kind == stacking.OVERSTACK:
            return stacking.frame_apply(game, self.board(game), state, frame, action)
        return super().frame_apply(game, state, frame, action)

    def resume(self, game: Game, state: GameState, resume: str, data: FrozenMap[str, Any],
               dice: tuple[int, ...]) -> Outcome:
        fn = RESUMES.get(resume)
        if fn is not None:
            return fn(game, self.board(game), state, data, dice)
        if resume == neutrality.RESUME:
            return neutrality.resume(game, state, data, dice)
        return super().resume(game, state, resume, data, dice)

    def explain_roll(self, game: Game, state: GameState, frame: Frame) -> RollNotes | None:
        """A CRT roll [11.3] (an attack, or an airborne assault [8.7]): what each result the
        column's faces can give does, from the legend in combat.toml [11.15-11.20]; a German
        defender may also convert a DR to DL1 [11.19]. Listed under the faces."""
        resume = frame.data.get("resume")
        if resume == combat.R_CRT:
            b = combat.battle(state)
            column, german_defends = b.get("column"), b.get("side") != GERMAN
        elif resume == flieger.RESUME_AA:
            column, german_defends = flieger.crt_column(state), False
        else:
            return None
        t = combat_table.tables_of(game)
        codes = set(t.row(str(column))) if column in t.crt else set().union(*t.crt.values())
        if german_defends and "DR" in codes:
            codes.add("DL1")
        return RollNotes((LEGEND_HEADING, *(f"{code} = {text}" for code, text in t.legend
                                            if code in codes)), with_faces=True)

    # --- victory [4.2, 4.4] --------------------------------------------------------------
    def check_victory(self, game: Game, state: GameState) -> str | None:
        return victory.sudden_death(game, self.board(game), state)

    def end_of_game(self, game: Game, state: GameState) -> str:
        return victory.default_result(game, state)

    # --- what players see [2.12, 7.3] -----------------------------------------------------
    def view(self, game: Game, state: GameState, side: str | None) -> GameState:
        return fog.view(game, state, side)

    def hidden_information(self, game: Game, state: GameState) -> bool:
        # Untried values are hidden from both sides alike [2.12]; the fog of war [7.3] hides
        # each side's stacks from the other: the hotseat needs its curtain while it is on.
        return fog.enabled(state)

    def stack_tops_open(self, game: Game, state: GameState) -> bool:
        return fog.enabled(state)  # the owner chooses the unit on top [7.3]

    def stack_move(self, game: Game, state: GameState, side: str, piece_ids: tuple[str, ...],
                   to: str) -> Action | None:
        # A stack moves as one force, at the pace of its slowest unit [10.4].
        if state.frames or game.position(state).step.id not in movement.STEP_MOVERS:
            return None
        return Action.make("move", side, pieces=tuple(piece_ids), to=to)

    def placement_boxes(self, game: Game) -> tuple[str, ...]:
        # The set-up pools [3.1]: shown in the table's placement tray (issue 16).
        return (GERMAN_POOL, ALLIED_POOL, SOVIET_POOL, NEUTRAL_POOL)

    def piece_name(self, game: Game, piece: Piece) -> str:
        ut = game.definition.unit_types.get(piece.type)
        side = game.definition.side(piece.side).name
        if piece.attrs.get("untried"):
            return f"{side} untried {ut.name if ut else piece.type}"
        name = piece.attrs.get("name")
        kind = ut.name if ut else piece.type
        return f"{side} {name} {kind}" if name else f"{side} {kind}"

    def _name(self, game: Game, state: GameState) -> Any:
        def name(p: Piece) -> str:
            return self.piece_name(game, p)

        return name

    # --- random play and invariants -------------------------------------------------------
    def candidate_actions(self, game: Game, state: GameState, prompt: Prompt) -> tuple[Action, ...]:
        pos = game.position(state)
        board = self.board(game)
        if state.frames:
            fh = FRAME_HANDLERS.get(state.frames[-1].kind)
            got = fh.candidates(game, board, state, state.frames[-1], prompt) if fh else None
            return got if got is not None else super().candidate_actions(game, state, prompt)
        if prompt.side != pos.side:
            return super().candidate_actions(game, state, prompt)
        handler = STEP_HANDLERS.get(pos.step.kind)
        if handler is not None:
            got = handler.candidates(game, board, state, pos, prompt)
            if got is not None:
                return got
        if pos.step.kind == "setup":
            return self._setup_candidates(game, state, pos, prompt)
        out = [Action("move", prompt.side, FrozenMap(piece=pid, to=d))
               for pid, dests in sorted(prompt.moves.items()) for d in dests]
        out.extend(Action(b.id, prompt.side, b.args) for b in prompt.buttons if b.enabled)
        if pos.step.kind == "movement":
            out.extend(self._stack_moves(game, state, pos))
        return tuple(out)

    def _setup_candidates(self, game: Game, state: GameState, pos: Position,
                          prompt: Prompt) -> tuple[Action, ...]:
        """Place pool units first (random play would shuffle placed ones for ever)."""
        s = self.setups(game)
        pools = set(setup.POOLS[pos.step.id])
        kinds: dict[str, str] = {}  # one unit per kind: alike units have alike places
        for pid in sorted(prompt.moves):
            p = state.piece(pid)
            if p.location in pools:
                kinds.setdefault(p.type, pid)
        out = [Action("move", prompt.side, FrozenMap(piece=pid, to=d))
               for pid in kinds.values() for d in prompt.moves[pid]]
        if not out:  # all placed: end the step (re-placing is for people)
            return tuple(Action(b.id, prompt.side, b.args) for b in prompt.buttons
                         if b.enabled)
        if s.remaining(state, pos.step.id):
            out.append(Action(setup.AUTO, prompt.side))
        return tuple(out)

    def _stack_moves(self, game: Game, state: GameState, pos: Position) -> list[Action]:
        """Whole stacks moving together [10.4]: the UI moves units one by one."""
        board = self.board(game)
        groups: dict[tuple[str, str], list[Piece]] = {}
        for p in movement.movers(game, board, state, pos.step.id):
            if movement.may_move(state, p):
                groups.setdefault((p.location, movement.parent(p)), []).append(p)
        out: list[Action] = []
        _, map_id = movement.STEP_MOVERS[pos.step.id]
        for (_, _), ps in sorted(groups.items()):
            if len(ps) < 2:
                continue
            force = tuple(ps)
            r = movement.reach_of(game, board, state, force, map_id)
            ids = tuple(p.id for p in force)
            out.extend(Action.make("move", pos.side, pieces=ids, to=d) for d in sorted(r.costs))
        return out

    def invariants(self, game: Game, state: GameState) -> list[str]:
        return invariants.check(game, self.board(game), state)


def _check_counts(tables: Mapping[str, Any]) -> None:
    """The tables read as plain numbers where they are used: movement factors [2.10],
    stacking [7.4, 7.5] and the Turn Record Track [3.2]."""
    top = Reader(tables, "whatif1940 data (game.toml)", "tables")
    mf = top.sub("movement_factors")
    for k in ("west", "top_rung_tank", "soviet"):
        mf.integer(k, minimum=0)
    gemmf = mf.seq("gemmf", nonempty=True)
    for i, row in enumerate(gemmf):
        ok = isinstance(row, list | tuple) and len(row) == 2 and all(
            isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in row)
        if not ok:
            raise mf.fail(f"gemmf[{i}]", "must be [mechanized, non-mechanized] whole numbers")
    st = top.sub("stacking")
    for k in ("west", "east"):
        st.integer(k, minimum=1)
    tr = top.sub("turn_record")
    turns = len(tr.seq("dates", nonempty=True, of="text"))
    for k in ("sov_reinf", "sov_replacements"):
        per_turn = tr.seq(k, of="integer")
        if len(per_turn) != turns:
            raise tr.fail(k, f"must give one number per turn ({turns}), not {len(per_turn)}")


def factory() -> Rules:
    return WhatIf1940Rules()

