"""Rules of 1940: What If? (issue 5): the sequence of play [5.1-5.5], set-up [3.1-3.10],
hex control [3.12], stacking [7.1-7.7], supply [6.1-6.12], movement and mobile assaults
[10.1-10.24] with the neutrals [3.6, 3.7], map limits [3.9] and red rows [12.9], airpower
and the 7th Flieger Corps [8.1-8.7], prepared assaults [11.1-11.21], reinforcements and
replacements [9.1-9.11], the holding boxes and off-map fronts [12.1-12.8], untried Soviet
units [2.12], Moscow Falls and the Ruhr and end-of-game victory [4.2-4.4].

Each step kind has its module in steps/, plugged in through the registries below (see
handlers.py), which make the game's RuleTable (engine/steps.py). A step of kind "unenforced"
(none is left in the data) would only show its prompt and an End step button: played in free
play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Outcome, Prompt
from wartable.engine.loop import end_step, end_step_button
from wartable.engine.rollodds import RollNotes
from wartable.engine.rules import Game, Rules
from wartable.engine.steps import ProcedureUse, RuleTable
from wartable.games.whatif1940 import air, fog, hidden, invariants, victory
from wartable.games.whatif1940.board import Board, board_of
from wartable.games.whatif1940.handlers import FrameHandler, Resume, StepHandler, on_board
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


def _name(game: Game) -> Callable[[Piece], str]:
    """How the log names a piece (WhatIf1940Rules.piece_name), as a function of the piece."""
    def name(p: Piece) -> str:
        return game.rules.piece_name(game, p)

    return name


class SetupStep(StepHandler):
    """Set-up [3.1-3.10]: each side places its pool units (or lets the table place them)."""

    def exit(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        state = setup.Setup(game, board).finish(state, pos.step.id)
        if pos.step.id == "setup_anglo_french":
            state = state.with_var(V_SETUP_DONE, True)
        return Outcome(state)

    def can_end(self, game: Game, board: Board, state: GameState, pos: Position) -> str | None:
        return setup.Setup(game, board).can_end(state, pos.step.id)

    def prompt(self, game: Game, board: Board, state: GameState, pos: Position) -> Prompt:
        step = pos.step
        return setup.Setup(game, board).prompt(state, step.id, step.prompt, step.rule)

    def apply(self, game: Game, board: Board, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        s = setup.Setup(game, board)
        if action.verb == "move":
            return s.place(state, pos.step.id, action, _name(game))
        if action.verb == setup.AUTO:
            return s.auto(state, pos.step.id)
        return None


class MovementStep(StepHandler):
    """A movement phase [10.0]: moves, mobile assault [10.15] and 7th Flieger [8.7]
    declarations, the German violation of a neutral [3.6]."""

    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        return movement.enter_step(game, board, state, pos.step.id)

    def exit(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        return movement.exit_step(state)

    def prompt(self, game: Game, board: Board, state: GameState, pos: Position) -> Prompt:
        step = pos.step
        return movement_phase.prompt(game, board, state, step.id, step.prompt, step.rule)

    def apply(self, game: Game, board: Board, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        sid = pos.step.id
        if action.verb == "move":
            return movement.apply_move(game, board, state, action, sid, _name(game))
        if action.verb == neutrality.VERB and pos.side == action.side:
            return neutrality.apply(game, state, action)
        if action.verb == mobile_assault.VERB:  # [10.15]
            return mobile_assault.declare(game, board, state, action, sid)
        if action.verb == flieger.VERB:  # [8.7]
            return flieger.declare(game, board, state, sid, action)
        return None


class DeclareOrder(StepHandler):
    """The German declares move/fight or fight/move for the east [5.3]."""

    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        return order.enter(state)

    def can_end(self, game: Game, board: Board, state: GameState, pos: Position) -> str | None:
        return "Declare move/fight or fight/move [5.3]."

    def prompt(self, game: Game, board: Board, state: GameState, pos: Position) -> Prompt:
        return order.prompt(state, pos.step.prompt, pos.step.rule)

    def apply(self, game: Game, board: Board, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        if action.verb != order.VERB:
            return None
        out = order.apply(state, action)
        return out.then(end_step(game, out.state))


class Unenforced(StepHandler):
    """A step the rules do not enforce: its prompt and an End step button, for free play."""

    def prompt(self, game: Game, board: Board, state: GameState, pos: Position) -> Prompt:
        text = (pos.step.prompt or pos.step.name) + (
            " (Not enforced yet: play it in free play, then end the step.)")
        return Prompt(pos.side, text, pos.step.rule, buttons=(end_step_button(),))


class Overstack(FrameHandler):
    """Units over the stacking limit: the owner chooses which to remove [7.2]."""

    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        return stacking.frame_prompt(game, state, frame, _name(game))

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        return stacking.frame_apply(game, board, state, frame, action)


def _belgian_coup(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
                  dice: tuple[int, ...]) -> Outcome:
    return neutrality.resume(game, state, data, dice)


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
    "setup": SetupStep(),  # [3.1-3.10]
    "movement": MovementStep(),  # [10.0], declarations [10.15, 8.7], neutrals [3.6]
    "declare_order": DeclareOrder(),  # [5.3]
    "unenforced": Unenforced(),  # a step played in free play (none is left in the data)
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
    stacking.OVERSTACK: Overstack(),  # the owner removes units over the limit [7.2]
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
    neutrality.RESUME: _belgian_coup,  # [3.6]
}
_STEPS, _FRAMES, _RESUMES = on_board(STEP_HANDLERS, FRAME_HANDLERS, RESUMES)
TABLE = RuleTable(
    steps=_STEPS, frames=_FRAMES, resumes=_RESUMES,
    conditions={
        "setup_pending": lambda game, state: not state.var(V_SETUP_DONE, False),
        "east_move_first": lambda game, state: order.move_first(state),
        "east_fight_first": lambda game, state: not order.move_first(state),
    },
    # the die-roll tables, the conditions their code computes, their resumes
    procedures={
        moscow.TABLE: ProcedureUse(frozenset(moscow.CONDITIONS), moscow.RESUME),  # [4.3]
        surprise.TABLE: ProcedureUse(frozenset(), surprise.RESUME),  # [5.5]
        flieger.TABLE: ProcedureUse(frozenset(flieger.CONDITIONS), flieger.RESUME_LAND),  # [8.7]
        fronts.RESUME_JIFET: ProcedureUse(frozenset({"far_east_transferred"}),
                                          fronts.RESUME_JIFET),  # [12.5]
        fronts.RESUME_FJWT: ProcedureUse(frozenset({"arctic_shortfall"}),
                                         fronts.RESUME_FJWT),  # [12.6]
    },
)


class WhatIf1940Rules(Rules):
    """The game's hooks. Keeps nothing between calls but the last step prompt (by state)."""

    table = TABLE

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
        combat_table.tables_of(game)  # CRT, GAST, terrain column shifts [11.3, 11.8, 6.11]
        read_supply_config(t, self.board(game))  # Rollbahn routes [6.5]
        for key, use in TABLE.procedures.items():  # [4.3, 5.5, 8.7, 12.5, 12.6]
            offmap.procedure(game, key, tuple(use.conditions))
        _check_counts(t)

    # --- the sequence of play [5.2] ------------------------------------------------------
    def enter_step(self, game: Game, state: GameState, pos: Position) -> Outcome:
        state = air.new_turn(state)  # [8.1, 8.6] aircraft return at each new game turn
        out = super().enter_step(game, state, pos)
        if out.auto_end or out.state.frames:
            return out
        # [7.2] Stacks are checked at the start and end of every phase.
        return out.then(stacking.check(game, self.board(game), out.state))

    def step_prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        last = self._last
        if last is not None and last[0] is state and last[1] == pos.index:
            return last[2]
        p = super().step_prompt(game, state, pos)
        self._last = (state, pos.index, p)
        return p

    def step_apply(self, game: Game, state: GameState, pos: Position, action: Action) -> Outcome:
        # [7.3] Under the fog the enemy does not read in the log where each unit went.
        if action.verb == fog.VERB:  # [7.3] free, in any step: the owner's top unit
            return fog.private_moves(fog.set_top(game, state, action, self._name(game, state)))
        return fog.private_moves(super().step_apply(game, state, pos, action))

    # --- dice -------------------------------------------------------------------------
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

    def pending_battles(self, game: Game, state: GameState) -> tuple[str, ...]:
        # A prepared or mobile assault is declared and fought at once [11.5, 10.15]: the
        # battle due is the one whose air support, roll, losses or retreat are being asked.
        target = combat.battle(state).get("target")
        return (target,) if isinstance(target, str) and target and state.frames else ()

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

    def describe_action(self, game: Game, state: GameState, action: Action) -> str:
        """A prepared assault by its target hex and the number of attackers [11.5]."""
        a = action.args
        if action.verb == combat.VERB and a.get("target"):
            n = len(tuple(a.get("attackers") or ()))
            return (f"Attack {self.place_name(game, str(a.get('target')))} with {n} "
                    f"unit{'s' if n != 1 else ''}")
        return super().describe_action(game, state, action)

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

