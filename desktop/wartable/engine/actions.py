"""What passes between players and the engine: actions in; prompts and events out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.model.state import GameState
from wartable.model.values import freeze, thaw

EMPTY: FrozenMap[str, Any] = FrozenMap()

# Verbs the engine itself handles; everything else goes to the game's step or frame handler.
END_STEP = "end_step"
FREE_MOVE = "free_move"  # house rules: move any piece anywhere, logged as an override
DICE = "dice"  # the typed result of a physical roll
RESIGN = "resign"
SET_DICE_MODE = "set_dice_mode"  # any side switches computer/physical dice; logged
# A free action in games with stacks under fog: the unit a stack shows the enemy on top
# (1940 [7.3]); offered in the Stack dock where Rules.stack_tops_open says so.
STACK_TOP = "stack_top"

# An action names a few pieces and places: a real one holds at most a few hundred values.
# A file's million-element argument once took 20 s per action to refuse (issue 15).
MAX_ARG_VALUES = 10_000
MAX_ARG_DEPTH = 16
MAX_TEXT = 10_000


@dataclass(frozen=True, slots=True)
class Action:
    verb: str
    side: str
    args: FrozenMap[str, Any] = field(default=EMPTY)

    @staticmethod
    def make(verb: str, side: str, **args: Any) -> Action:
        return Action(verb, side, freeze(args))

    def to_dict(self) -> dict[str, Any]:
        return {"verb": self.verb, "side": self.side, "args": thaw(self.args)}

    @staticmethod
    def from_dict(d: Any) -> Action:
        if not isinstance(d, dict) or not isinstance(d.get("verb"), str) \
                or not isinstance(d.get("side"), str) or not isinstance(d.get("args", {}), dict):
            raise ValueError(f"not an action: {str(d)[:80]}")
        if len(d["verb"]) > MAX_TEXT or len(d["side"]) > MAX_TEXT:
            raise ValueError("the verb or side is too long to be an action")
        _check_size(d.get("args", {}))
        return Action(d["verb"], d["side"], freeze(d.get("args", {})))


def _check_size(args: Any) -> None:
    """Refuse arguments too big or too deep for any real action, without recursing."""
    todo: list[tuple[Any, int]] = [(args, 0)]
    seen = 0
    while todo:
        v, depth = todo.pop()
        seen += 1
        if seen > MAX_ARG_VALUES:
            raise ValueError(f"its arguments hold more than {MAX_ARG_VALUES:,} values")
        if depth > MAX_ARG_DEPTH:
            raise ValueError(f"its arguments nest more than {MAX_ARG_DEPTH} levels deep")
        if isinstance(v, dict | list | tuple) and len(v) > MAX_ARG_VALUES:
            raise ValueError(f"its arguments hold more than {MAX_ARG_VALUES:,} values")
        if isinstance(v, dict):
            todo.extend((x, depth + 1) for x in v.values())
        elif isinstance(v, list | tuple):
            todo.extend((x, depth + 1) for x in v)
        elif isinstance(v, str) and len(v) > MAX_TEXT:
            raise ValueError(f"it holds a text of {len(v):,} characters")


@dataclass(frozen=True, slots=True)
class Button:
    id: str  # the action verb or a "button" verb argument
    label: str
    rule: str = ""
    enabled: bool = True
    reason: str = ""  # why it is disabled
    args: FrozenMap[str, Any] = field(default=EMPTY)


@dataclass(frozen=True, slots=True)
class DiceAsk:
    """A physical roll the players must type in."""

    count: int
    sides: int
    purpose: str


@dataclass(frozen=True, slots=True)
class Prompt:
    side: str  # the side that must act now
    text: str  # what to do now, or what the viewer is waiting for
    rule: str = ""
    phase: str = ""
    step: str = ""
    # piece id -> legal destinations (with their costs in `costs`)
    moves: FrozenMap[str, tuple[str, ...]] = field(default=EMPTY)
    costs: FrozenMap[str, FrozenMap[str, float]] = field(default=EMPTY)
    # verb -> selectable things (pieces, locations, option ids) for that verb
    targets: FrozenMap[str, tuple[str, ...]] = field(default=EMPTY)
    buttons: tuple[Button, ...] = ()
    dice: DiceAsk | None = None
    waiting: bool = False  # True when the viewer is not the side to act
    finished: bool = False

    def legal_destinations(self, piece_id: str) -> tuple[str, ...]:
        return self.moves.get(piece_id, ())


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the game log players read."""

    kind: str  # move, combat, dice, phase, override, info, victory...
    text: str
    side: str = ""
    rule: str = ""
    turn: int = 0
    step: str = ""
    private_to: str = ""  # a side id: only that side may read it (hidden information)
    # The event's facts as data beside its text (a battle's space and hits, a purchase's
    # units...): panels read these, never the wording, so rewording a line changes no panel.
    data: FrozenMap[str, Any] = field(default=EMPTY)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "text": self.text, "side": self.side,
                             "rule": self.rule, "turn": self.turn, "step": self.step,
                             "private_to": self.private_to}
        if self.data:
            d["data"] = thaw(self.data)
        return d

    def visible_to(self, sides: frozenset[str] | None) -> bool:
        """May a player holding `sides` read it? None: everything (open information)."""
        return sides is None or not self.private_to or self.private_to in sides


@dataclass(frozen=True, slots=True)
class Outcome:
    state: GameState
    events: tuple[Event, ...] = ()
    revealed: bool = False  # hidden information was revealed: an undo barrier
    auto_end: bool = False  # from enter_step: the step resolves itself, advance at once

    def then(self, other: Outcome) -> Outcome:
        """Chain: other's state, both event lists, either flag."""
        return Outcome(other.state, self.events + other.events,
                       self.revealed or other.revealed, other.auto_end)
