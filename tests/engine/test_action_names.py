"""Issue 15, finding 2 and 7 in the engine: an action naming a piece, place or side that
does not exist is refused with IllegalAction (free moves included), a free move may not
break the game's own invariants, and every refusal is IllegalAction, never the base class."""

from __future__ import annotations

import pytest

from testgame.rules import SkirmishRules
from wartable.core.errors import IllegalAction, WartableError
from wartable.engine.actions import FREE_MOVE, Action, Outcome
from wartable.engine.loop import apply
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.model.sequence import Position
from wartable.model.state import GameState
from wartable.persistence.gamedata import load_game

SKIRMISH = load_game("skirmish")


def start() -> Session:
    return Session.start(SKIRMISH, "contact", seed=4)


@pytest.mark.parametrize(("args", "reason"), [
    ({"piece": "blue.infantry.1", "to": "nowhere-9999"}, "There is no place 'nowhere-9999'"),
    ({"piece": "blue.infantry.1", "to": "box:nowhere"}, "There is no place 'box:nowhere'"),
    ({"piece": "blue.infantry.1", "to": 7}, "There is no place 7"),
    ({"piece": "blue.ghost.9", "to": "0904"}, "There is no piece 'blue.ghost.9'"),
    ({"piece": ("blue.infantry.1",), "to": "0904"}, "There is no piece"),
])
def test_issue15_finding2_free_move_naming_nothing_is_illegal(
        args: dict[str, object], reason: str) -> None:
    s = start()
    with pytest.raises(IllegalAction, match=reason):
        s.submit(Action.make(FREE_MOVE, "blue", **args))


def test_issue15_finding2_free_move_to_a_real_place_still_works() -> None:
    s = start().submit(Action.make(FREE_MOVE, "blue", piece="blue.infantry.1", to="0904"))
    assert s.state.piece("blue.infantry.1").location == "0904"
    assert SKIRMISH.rules.invariants(SKIRMISH, s.state) == []


def test_issue15_finding2_unknown_side_is_illegal() -> None:
    with pytest.raises(IllegalAction, match="Unknown side 'purple'"):
        start().submit(Action.make("end_step", "purple"))


@pytest.mark.parametrize("args", [
    {"piece": "blue.ghost.9", "to": "0904"}, {"piece": "blue.infantry.1", "to": "nowhere"},
    {"piece": 12, "to": None}, {"piece": "blue.infantry.1", "to": ["0904"]},
])
def test_issue15_finding2_a_move_naming_nothing_is_illegal(args: dict[str, object]) -> None:
    s = start()
    side = s.prompt(s.state.active_side).side
    with pytest.raises(IllegalAction):
        s.submit(Action.make("move", side, **args))


def test_issue15_finding2_a_free_move_may_not_break_the_games_own_invariants() -> None:
    w40 = load_game("whatif1940")
    s = Session.start(w40, sorted(w40.definition.scenarios)[0], seed=1)
    # [3.9] German units stay inside their west-map limits: 2219 is outside them.
    pid = sorted(p.id for p in s.state.pieces.values() if p.type == "ger_panzer")[0]
    with pytest.raises(IllegalAction, match=r"Even in free play, not there: .*\[3\.9\]"):
        s.submit(Action.make(FREE_MOVE, "anglo_french", piece=pid, to="2219"))


class BaseClassRefusal(SkirmishRules):
    def step_apply(self, game: Game, state: GameState, pos: Position,
                   action: Action) -> Outcome:
        raise WartableError("Not with that unit.")


def test_issue15_finding7_a_refusal_in_the_base_class_becomes_illegal() -> None:
    game = Game(SKIRMISH.definition, BaseClassRefusal(), SKIRMISH.maps)
    s = Session.start(game, "contact", seed=4)
    side = s.prompt(s.state.active_side).side
    with pytest.raises(IllegalAction, match="Not with that unit."):
        apply(game, s.state, Action.make("move", side, piece="blue.infantry.1", to="0904"))


class KeyErrorOnNames(SkirmishRules):
    """Game code that looks a made-up name up without guarding it."""

    def step_apply(self, game: Game, state: GameState, pos: Position,
                   action: Action) -> Outcome:
        state.piece(str(action.args.get("piece")))
        return super().step_apply(game, state, pos, action)


def test_issue15_finding2_game_code_stumbling_on_a_made_up_name_is_a_refusal() -> None:
    game = Game(SKIRMISH.definition, KeyErrorOnNames(), SKIRMISH.maps)
    s = Session.start(game, "contact", seed=4)
    side = s.prompt(s.state.active_side).side
    with pytest.raises(IllegalAction, match="There is no piece 'ghost'"):
        apply(game, s.state, Action.make("move", side, piece="ghost", to="0904"))
