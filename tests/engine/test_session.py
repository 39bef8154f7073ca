"""Undo/redo with named entries and barriers; the action log; random play invariants."""

from __future__ import annotations

from dataclasses import replace

import pytest

from wartable.core.errors import IllegalAction
from wartable.engine.actions import DICE, END_STEP, Action, Outcome
from wartable.engine.loop import deciding_side
from wartable.engine.randomplay import play_random
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.model.serialize import state_hash
from wartable.persistence.gamedata import load_game


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game("skirmish")


def mv(piece: str, to: str, side: str = "blue") -> Action:
    return Action.make("move", side, piece=piece, to=to)


def test_undo_names_the_move_and_restores_the_position(game: Game) -> None:
    s0 = Session.start(game, "meeting")
    s1 = s0.submit(mv("blue.infantry.1", "0204"))
    assert s1.undo_label == "Blue 1st Inf moves 0205 → 0204 (1 MP)"
    s2 = s1.undo()
    assert s2.state == s0.state and s2.log == () and s2.events == s0.events
    assert s2.redo_label == "Blue 1st Inf moves 0205 → 0204 (1 MP)"
    s3 = s2.redo()
    assert s3.state == s1.state and s3.log == s1.log and s3.redo_label is None


def test_new_action_clears_redo(game: Game) -> None:
    s = Session.start(game, "meeting").submit(mv("blue.infantry.1", "0204")).undo()
    s = s.submit(mv("blue.infantry.2", "0308"))
    assert s.redo_label is None


def test_undo_several_in_order(game: Game) -> None:
    s = Session.start(game, "meeting")
    s = s.submit(mv("blue.infantry.1", "0204")).submit(mv("blue.infantry.2", "0308"))
    s = s.undo()
    assert s.state.piece("blue.infantry.2").location == "0208"
    assert s.state.piece("blue.infantry.1").location == "0204"
    s = s.undo()
    assert s.state.piece("blue.infantry.1").location == "0205"
    assert s.undo() is s  # nothing left: a no-op, not an error


def test_barrier_change_of_side_blocks_undo(game: Game) -> None:
    s = Session.start(game, "meeting").submit(mv("blue.infantry.1", "0204"))
    s = s.submit(Action(END_STEP, "blue"))  # Red moves now: Blue may not take it back
    assert s.undo_label is None and s.barrier == "the other side is deciding now"


def _blue_combat(game: Game, mode: str) -> Session:
    s = Session.start(game, "contact", seed=2, dice_mode=mode)
    while not (s.state.turn == 2 and game.position(s.state).step.name == "Combat"):
        s = s.submit(Action(END_STEP, deciding_side(s.state)))
    return s


def test_barrier_dice_roll_blocks_undo(game: Game) -> None:
    s = _blue_combat(game, "digital")
    s = s.submit(Action.make("attack", "blue", attackers=("blue.armour.1",), target="1105"))
    assert s.undo_label is None and s.barrier in ("dice were rolled",)


def test_typed_physical_roll_is_a_barrier_but_declaring_the_attack_is_not(game: Game) -> None:
    s = _blue_combat(game, "physical")
    s = s.submit(Action.make("attack", "blue", attackers=("blue.armour.1",), target="1105"))
    assert s.undo_label == "attack"  # no roll yet: the attack may still be taken back
    s2 = s.submit(Action.make(DICE, "blue", values=(5,)))
    assert s2.undo_label is None


def test_revealed_information_is_a_barrier(game: Game) -> None:
    """A rules hook that reveals (Outcome.revealed) stops undo, whoever acts next."""

    class Revealing(type(game.rules)):  # type: ignore[misc]
        def step_apply(self, g, state, pos, action):  # type: ignore[no-untyped-def]
            out = super().step_apply(g, state, pos, action)
            return replace(out, revealed=True)

    g2 = Game(game.definition, Revealing(), game.maps)
    s = Session.start(g2, "meeting").submit(mv("blue.infantry.1", "0204"))
    assert s.undo_label is None and s.barrier == "hidden information was revealed"
    assert isinstance(Outcome(s.state), Outcome)


def test_illegal_action_leaves_session_unchanged(game: Game) -> None:
    s = Session.start(game, "meeting")
    with pytest.raises(IllegalAction):
        s.submit(mv("blue.infantry.1", "1616"))
    assert s.log == ()


def test_undo_history_is_bounded(game: Game) -> None:
    s = replace(Session.start(game, "meeting"), max_undo=3)
    for pid, to in [("blue.infantry.1", "0204"), ("blue.infantry.2", "0308"),
                    ("blue.infantry.3", "0310"), ("blue.armour.1", "0409")]:
        s = s.submit(mv(pid, to))
    assert len(s.undo_stack) == 3
    for _ in range(5):
        s = s.undo()
    assert s.state.piece("blue.infantry.1").location == "0204"  # the oldest stays done


def test_replaying_the_log_reproduces_the_game(game: Game) -> None:
    rep = play_random(Session.start(game, "contact", seed=9), 9)
    assert rep.problems == () and rep.actions > 10
    again = Session.start(game, "contact", seed=9).replay(rep.session.log)
    assert state_hash(again.state) == state_hash(rep.session.state)
    assert [e.text for e in again.events] == [e.text for e in rep.session.events]


@pytest.mark.parametrize("seed", range(25))
def test_random_play_keeps_invariants(game: Game, seed: int) -> None:
    for scenario, mode in (("meeting", "digital"), ("contact", "physical")):
        rep = play_random(Session.start(game, scenario, seed=seed, dice_mode=mode), seed)
        assert rep.problems == ()
        st = rep.session.state
        assert st.result is not None  # every game reaches an end
        on_map = [p for p in st.pieces.values() if p.location != "box:eliminated"]
        by_hex: dict[str, set[str]] = {}
        for p in on_map:
            by_hex.setdefault(p.location, set()).add(p.side)
        assert all(len(sides) == 1 for sides in by_hex.values())  # S4.4 never mixed
        assert len(st.pieces) == len(game.definition.scenarios[scenario].setup)
