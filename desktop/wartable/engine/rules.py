"""The hooks a game implements. The engine calls them; they never read files or the clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar, cast

from wartable.core.errors import DataError, IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Outcome, Prompt
from wartable.engine.kitsteps import KIT_TABLE, with_kit
from wartable.engine.rollodds import RollNotes
from wartable.engine.steps import RuleTable, StepHandler
from wartable.model.definition import GameDefinition
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece
from wartable.model.tracks import KIT_PLACES, private_view

if TYPE_CHECKING:
    from wartable.maps.model import BoardMap

T = TypeVar("T")
_MISSING = object()


@dataclass(frozen=True)
class Game:
    """A game ready to play: its definition, its rules and its loaded maps."""

    definition: GameDefinition
    rules: Rules
    maps: FrozenMap[str, BoardMap] = field(default_factory=FrozenMap)

    @property
    def positions(self) -> tuple[Position, ...]:
        return self.definition.sequence.positions

    def position(self, state: GameState) -> Position:
        return self.positions[state.step_index]

    def derived(self, build: Callable[[Game], T]) -> T:
        """A structure derived from the game's data and maps (adjacency, a parsed table),
        built by `build` once for this Game and held with it: a game with other tables
        (persistence/gamedata.game_with_tables) is another Game with its own. The loader
        builds them when the game loads (Rules.check_tables)."""
        got = self._derived.get(build, _MISSING)
        if got is _MISSING:
            got = self._derived[build] = build(self)
        return cast(T, got)

    @cached_property
    def _derived(self) -> dict[object, object]:
        return {}


class Rules:
    """Base class of a game's rules. A game registers its step, frame, resume and condition
    handlers in `table` (engine/steps.py), which these hooks dispatch through; it overrides a
    hook only for what applies to every kind (1940's stacking check after each step's entry).
    An empty table and no overrides: a free table."""

    table: RuleTable = RuleTable()
    # Whether a roll's log line adds its dice up ("3+4 = 7", for tables read by the total);
    # a game whose dice each hit on their own (A&A) lists them instead.
    dice_summed: bool = True

    def setup(self, game: Game, state: GameState) -> GameState:
        """Adjust the state after the scenario's pieces are placed (vars, hidden units...)."""
        return state

    def check_definition(self, game: Game) -> None:
        """DataError, naming the file and the entry, for a step kind, a condition or a
        die-roll table of the data that no handler of `table` answers (engine/steps.py).
        The loader calls it once per game (persistence/gamedata.py)."""
        with_kit(self.table).check(game.definition)

    def check_tables(self, game: Game) -> None:
        """Parse every data table the rules read, raising DataError on the first bad value.
        Games that parse tables lazily implement this so a player's own printed values
        (persistence/tables.py) are checked when saved, not mid-game; the loader calls it
        too, so what it parses (held in `game.derived`) is built when the game loads."""

    def condition(self, game: Game, name: str, state: GameState) -> bool:
        """Evaluate a sequence-of-play condition the engine does not know."""
        cond = self.table.conditions.get(name)
        if cond is not None:
            return cond(game, state)
        raise DataError(game.definition.id, "sequence", f"unknown step condition {name!r}")

    def phase_name(self, game: Game, state: GameState, pos: Position) -> str:
        """The phase's name as players see it (a game may name a turn after whoever plays
        it in this scenario's order)."""
        return pos.phase.name

    def step(self, pos: Position) -> StepHandler:
        """The handler of the step's kind; a kind no rules handle (only in a game built
        without the loader's check) shows its prompt and an End step button."""
        return (self.table.steps.get(pos.step.kind) or KIT_TABLE.steps.get(pos.step.kind)
                or _FREE_STEP)

    def enter_step(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return self.step(pos).enter(game, state, pos)

    def exit_step(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return self.step(pos).exit(game, state, pos)

    def can_end_step(self, game: Game, state: GameState, pos: Position) -> str | None:
        """None when the step may end now, else the reason it may not."""
        return self.step(pos).can_end(game, state, pos)

    def step_prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        return self.step(pos).prompt(game, state, pos)

    def step_apply(self, game: Game, state: GameState, pos: Position, action: Action) -> Outcome:
        out = self.step(pos).apply(game, state, pos, action)
        if out is None:
            raise IllegalAction(f"'{action.verb}' is not possible during {pos.step.name}.")
        return out

    def frame_prompt(self, game: Game, state: GameState, frame: Frame) -> Prompt:
        handler = self.table.frames.get(frame.kind) or KIT_TABLE.frames.get(frame.kind)
        if handler is not None:
            return handler.prompt(game, state, frame)
        return Prompt(side=frame.side, text=frame.text, rule=frame.rule)

    def frame_apply(self, game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
        handler = self.table.frames.get(frame.kind) or KIT_TABLE.frames.get(frame.kind)
        if handler is not None:
            return handler.apply(game, state, frame, action)
        raise IllegalAction(f"'{action.verb}' does not answer: {frame.text}")

    def resume(self, game: Game, state: GameState, resume: str, data: FrozenMap[str, Any],
               dice: tuple[int, ...]) -> Outcome:
        """Continue a procedure after its dice are known (rolled or typed in)."""
        fn = self.table.resumes.get(resume) or KIT_TABLE.resumes.get(resume)
        if fn is not None:
            return fn(game, state, data, dice)
        raise DataError(game.definition.id, "rules", f"no continuation {resume!r} for dice")

    def check_victory(self, game: Game, state: GameState) -> str | None:
        """The result text when the game has ended, else None."""
        return None

    def end_of_game(self, game: Game, state: GameState) -> str:
        """Result when the last turn is over."""
        return "The last turn is over."

    def view(self, game: Game, state: GameState, side: str | None) -> GameState:
        """What `side` may see (None: what every side may see). The kit's secrets (chits in
        hands and cups, private notes: model/tracks.private_view) are scrubbed here; games
        with more hidden information override this and `hidden_information`, and call
        private_view too."""
        return private_view(state, side)

    def command_of(self, game: Game, state: GameState, side: str) -> str:
        """Which command (a player's role, model/seats.py) decides for `side` now: the one
        whose data lists the current step (its frames included), else the side's senior
        command; the side itself in games that declare no commands (1940: [1.3])."""
        players = game.definition.players
        if players is None or not game.positions:
            return side
        return players.command_for(side, game.position(state).step.id)

    def hidden_information(self, game: Game, state: GameState) -> bool:
        """Does any side keep secrets now? Then hotseat play needs a privacy curtain: a side
        declares hidden information, the game has chit cups, or a side keeps notes."""
        d = game.definition
        return (any(s.hidden_info for s in d.sides) or bool(d.cups)
                or any(k.startswith("notes.") and v for k, v in state.vars.items()))

    def candidate_actions(self, game: Game, state: GameState, prompt: Prompt) -> tuple[Action, ...]:
        """Actions random play may try now: the frame's or the step's handler's candidates,
        by default the prompt's moves and buttons.

        Games add their own verbs (an attack choosing attackers and a target). The
        engine still checks each one, so a candidate may turn out illegal.
        """
        frame = state.top_frame
        if frame is not None:
            fh = self.table.frames.get(frame.kind)
            fh = fh or KIT_TABLE.frames.get(frame.kind)
            got = fh.candidates(game, state, frame, prompt) if fh is not None else None
        else:
            pos = game.position(state)
            got = self.step(pos).candidates(game, state, pos, prompt)
        if got is not None:
            return got
        out: list[Action] = []
        for pid, dests in sorted(prompt.moves.items()):
            out.extend(Action.make("move", prompt.side, piece=pid, to=d) for d in dests)
        out.extend(Action(b.id, prompt.side, b.args) for b in prompt.buttons if b.enabled)
        return tuple(out)

    def describe_action(self, game: Game, state: GameState, action: Action) -> str:
        """An action as a player reads it, for the bot's turn summary and the hint: a move
        by the names of its piece and places ("Move Germany Infantry from X to Y"), else
        the label of the prompt's button that sends it, else its verb ("End step")."""
        a = action.args
        place = self.place_name
        if action.verb == "move" and str(a.get("piece")) in state.pieces:
            p = state.pieces[str(a.get("piece"))]
            return (f"Move {self.piece_name(game, p)} from {place(game, p.location)} "
                    f"to {place(game, str(a.get('to')))}")
        for b in self._buttons(game, state, action.side):
            if b.id == action.verb and b.args == action.args:
                return b.label
        return action.verb.replace("_", " ").capitalize()

    def _buttons(self, game: Game, state: GameState, side: str) -> tuple[Button, ...]:
        """The buttons `side` is offered now (as engine/loop.prompt offers them)."""
        if state.result is not None:
            return ()
        frame = state.top_frame
        p = (self.step_prompt(game, state, game.position(state)) if frame is None
             else self.frame_prompt(game, state, frame))
        return p.buttons if p.side == side else ()

    def invariants(self, game: Game, state: GameState) -> list[str]:
        """Problems with the state (empty when all is well); checked by selfplay and fuzzing."""
        problems = []
        known = locations(game)
        for p in state.pieces.values():
            if p.type not in game.definition.unit_types:
                problems.append(f"{p.id}: unknown unit type {p.type}")
            if p.side not in game.definition.side_ids:
                problems.append(f"{p.id}: unknown side {p.side}")
            if game.maps and p.location not in known:
                problems.append(f"{p.id}: at {p.location!r}, which is on no map")
        return problems

    def explain_roll(self, game: Game, state: GameState, frame: Frame) -> RollNotes | None:
        """What a roll asked for in `frame` (a dice frame: its "resume" and "data") decides
        and its chances (engine/rollodds.py writes them); None leaves the hint to work out a
        single die face by face by applying each one."""
        return None

    def place_name(self, game: Game, place: str) -> str:
        """How prompts and the log name a space or hex: its id unless the game names it."""
        return place

    def piece_name(self, game: Game, piece: Piece) -> str:
        """How the log names a piece: 'Blue 1st Infantry'."""
        ut = game.definition.unit_types.get(piece.type)
        side = game.definition.side(piece.side).name
        name = piece.attrs.get("name") or (ut.name if ut else piece.type)
        return f"{side} {name}"

    def stack_tops_open(self, game: Game, state: GameState) -> bool:
        """May a side choose the unit its stacks show on top now (the STACK_TOP action)?
        Only games whose stacks hide what lies beneath (fog of war) say yes."""
        return False

    # --- what the table draws and asks (issue 16); safe defaults for every game ----------

    def cargo_attribute(self, game: Game) -> str | None:
        """The piece attribute whose value is the id of the transport carrying it, so the
        map draws cargo with its transport; None: the game has no cargo."""
        return None

    def pending_battles(self, game: Game, state: GameState) -> tuple[str, ...]:
        """Spaces where a battle is due now (the map marks them)."""
        return ()

    def moved_pieces(self, game: Game, state: GameState) -> frozenset[str]:
        """Pieces that moved this phase (the map marks them): those marked "moved"."""
        return frozenset(p.id for p in state.pieces.values() if p.attrs.get("moved"))

    def placement_boxes(self, game: Game) -> tuple[str, ...]:
        """Off-map boxes (locations) of units waiting to be placed; the table shows them in
        a tray beside the map instead of on it."""
        return ()

    def stack_move(self, game: Game, state: GameState, side: str, piece_ids: tuple[str, ...],
                   to: str) -> Action | None:
        """The one action moving these pieces together to `to`, where moving together is
        not the same as one move each (a stack's reach); None: one `move` per piece."""
        return None

    def would_lose(self, game: Game, state: GameState, action: Action) -> tuple[Piece, ...]:
        """The acting side's own pieces `action` would destroy by itself, without a roll
        (aircraft with nowhere to land when a step ends); the table asks before it sends."""
        return ()


_FREE_STEP = StepHandler()


def locations(game: Game) -> frozenset[str]:
    """Every location id of the game's maps, boxes included (built once per Game)."""
    return game.derived(_build_locations)


def _build_locations(game: Game) -> frozenset[str]:
    locs: set[str] = set()
    for m in game.maps.values():
        locs.update(m.location_ids())
        locs.update(f"box:{b.id}" for b in m.boxes)
    if game.definition.assisted:
        locs.update(KIT_PLACES)  # the dead pile and the force pool, off the map
    return frozenset(locs)
