"""The hooks a game implements. The engine calls them; they never read files or the clock."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wartable.core.errors import DataError, IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP, Action, Button, Outcome, Prompt
from wartable.engine.rollodds import RollNotes
from wartable.model.definition import GameDefinition
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece

if TYPE_CHECKING:
    from wartable.maps.model import BoardMap


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


class Rules:
    """Base class of a game's rules. Override what the game needs; defaults are a free table."""

    def setup(self, game: Game, state: GameState) -> GameState:
        """Adjust the state after the scenario's pieces are placed (vars, hidden units...)."""
        return state

    def check_tables(self, game: Game) -> None:
        """Parse every data table the rules read, raising DataError on the first bad value.
        Games that parse tables lazily implement this so a player's own printed values
        (persistence/tables.py) are checked when saved, not mid-game."""

    def condition(self, game: Game, name: str, state: GameState) -> bool:
        """Evaluate a sequence-of-play condition the engine does not know."""
        raise DataError(game.definition.id, "sequence", f"unknown step condition {name!r}")

    def phase_name(self, game: Game, state: GameState, pos: Position) -> str:
        """The phase's name as players see it (a game may name a turn after whoever plays
        it in this scenario's order)."""
        return pos.phase.name

    def enter_step(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return Outcome(state)

    def exit_step(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return Outcome(state)

    def can_end_step(self, game: Game, state: GameState, pos: Position) -> str | None:
        """None when the step may end now, else the reason it may not."""
        return None

    def step_prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        return Prompt(
            side=pos.side if pos.side != "*" else state.active_side,
            text=pos.step.prompt or pos.step.name,
            rule=pos.step.rule,
            buttons=(Button(END_STEP, "End step"),),
        )

    def step_apply(self, game: Game, state: GameState, pos: Position, action: Action) -> Outcome:
        raise IllegalAction(f"'{action.verb}' is not possible during {pos.step.name}.")

    def frame_prompt(self, game: Game, state: GameState, frame: Frame) -> Prompt:
        return Prompt(side=frame.side, text=frame.text, rule=frame.rule)

    def frame_apply(self, game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
        raise IllegalAction(f"'{action.verb}' does not answer: {frame.text}")

    def resume(self, game: Game, state: GameState, resume: str, data: FrozenMap[str, Any],
               dice: tuple[int, ...]) -> Outcome:
        """Continue a procedure after its dice are known (rolled or typed in)."""
        raise DataError(game.definition.id, "rules", f"no continuation {resume!r} for dice")

    def check_victory(self, game: Game, state: GameState) -> str | None:
        """The result text when the game has ended, else None."""
        return None

    def end_of_game(self, game: Game, state: GameState) -> str:
        """Result when the last turn is over."""
        return "The last turn is over."

    def view(self, game: Game, state: GameState, side: str | None) -> GameState:
        """What `side` may see (None: everything, for solitaire with open information).
        Games with hidden information override this and `hidden_information`."""
        return state

    def command_of(self, game: Game, state: GameState, side: str) -> str:
        """Which command (a player's role, model/seats.py) decides for `side` now: the one
        whose data lists the current step (its frames included), else the side's senior
        command; the side itself in games that declare no commands (1940: [1.3])."""
        players = game.definition.players
        if players is None or not game.positions:
            return side
        return players.command_for(side, game.position(state).step.id)

    def hidden_information(self, game: Game, state: GameState) -> bool:
        """Does any side keep secrets now? Then hotseat play needs a privacy curtain."""
        return any(s.hidden_info for s in game.definition.sides)

    def candidate_actions(self, game: Game, state: GameState, prompt: Prompt) -> tuple[Action, ...]:
        """Actions random play may try now; by default the prompt's moves and buttons.

        Games add their own verbs (an attack choosing attackers and a target). The
        engine still checks each one, so a candidate may turn out illegal.
        """
        out: list[Action] = []
        for pid, dests in sorted(prompt.moves.items()):
            out.extend(Action.make("move", prompt.side, piece=pid, to=d) for d in dests)
        out.extend(Action(b.id, prompt.side, b.args) for b in prompt.buttons if b.enabled)
        return tuple(out)

    def invariants(self, game: Game, state: GameState) -> list[str]:
        """Problems with the state (empty when all is well); checked by selfplay and fuzzing."""
        problems = []
        known = _locations(game)
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


# id(game) -> (a weak reference to that game, its locations). The reference guards against
# Python reusing the id of a collected Game for a new one.
_LOCATIONS: dict[int, tuple[weakref.ref[Game], frozenset[str]]] = {}


def _locations(game: Game) -> frozenset[str]:
    """Every location id of the game's maps, boxes included (cached per Game)."""
    hit = _LOCATIONS.get(id(game))
    if hit is not None and hit[0]() is game:
        return hit[1]
    locs: set[str] = set()
    for m in game.maps.values():
        locs.update(m.location_ids())
        locs.update(f"box:{b.id}" for b in m.boxes)
    _LOCATIONS[id(game)] = (weakref.ref(game), frozenset(locs))
    return frozenset(locs)
