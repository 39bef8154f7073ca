"""Issue 15, finding 2 in the app: after a failed command the worker's game is exactly the
one before it, and every message says truthfully what happened (a Save that wrote the
file never reports failure; a failed autosave says the move stands).

The worker object is driven directly on this thread (its slot is a plain method), with a
real game whose rules misbehave in one chosen way: the skirmish rules, subclassed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from testgame.rules import SkirmishRules
from wartable.core.errors import WartableError
from wartable.engine.actions import Action, Outcome, Prompt
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.model.sequence import Position
from wartable.model.state import GameState
from wartable.persistence import autosave, savefile
from wartable.persistence.gamedata import load_game
from wartable.worker.commands import Failure, Save, SetTable, Snapshot, Submit
from wartable.worker.engine_thread import _Worker


class PromptFailsAfterAMove(SkirmishRules):
    """A rules bug: the prompt of a position after any piece has moved raises."""

    def step_prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        if state.serial > 0:
            raise KeyError("unknown")
        return super().step_prompt(game, state, pos)


class RefusesWithTheBaseClass(SkirmishRules):
    def step_apply(self, game: Game, state: GameState, pos: Position,
                   action: Action) -> Outcome:
        raise WartableError("Not with that unit.")


def _worker(rules: SkirmishRules, autosave_enabled: bool = False
            ) -> tuple[_Worker, list[Snapshot], list[Failure]]:
    base = load_game("skirmish")
    game = Game(base.definition, rules, base.maps)
    w = _Worker(autosave_enabled)
    snaps: list[Snapshot] = []
    fails: list[Failure] = []
    w.snapshot.connect(snaps.append)
    w.failure.connect(fails.append)
    w.session = Session.start(game, "contact", seed=4)
    return w, snaps, fails


def _a_move(s: Session) -> Action:
    p = s.prompt(s.state.active_side)
    pid, dests = sorted(p.moves.items())[0]
    return Action.make("move", p.side, piece=pid, to=dests[0])


def test_issue15_finding2_a_failed_command_leaves_the_game_as_it_was(tmp_path: Path) -> None:
    w, snaps, fails = _worker(PromptFailsAfterAMove())
    before = w.session
    assert before is not None
    w.handle(1, Submit(_a_move(before)))
    assert len(fails) == 1 and "The game was not changed" in fails[0].message
    assert w.session is before and snaps == []  # truly not changed
    # ...so the next Save writes the game as it was, and says so.
    target = tmp_path / "g.wartable.json"
    w.handle(2, Save(target))
    assert len(fails) == 1 and snaps[-1].path == target and not snaps[-1].dirty
    assert savefile.load_from_path(target).state == before.state


def test_issue15_finding2_a_save_that_wrote_never_reports_failure(tmp_path: Path) -> None:
    w, snaps, fails = _worker(PromptFailsAfterAMove())
    s = w.session
    assert s is not None
    # A position whose prompt fails (as after the broken free move of the probe).
    w.session = replace(s, state=replace(s.state, serial=1))
    target = tmp_path / "g.wartable.json"
    w.handle(1, Save(target))
    assert target.is_file()
    (f,) = fails
    assert f.message.startswith("The game was saved to g.wartable.json, but the view could "
                                "not be refreshed")
    assert "not changed" not in f.message and "Internal error" not in f.message


def test_issue15_finding2_a_refusal_in_the_base_class_is_shown_as_illegal() -> None:
    w, snaps, fails = _worker(RefusesWithTheBaseClass())
    before = w.session
    assert before is not None
    w.handle(1, Submit(_a_move(before)))
    (f,) = fails
    assert f.illegal and f.message == "Not with that unit."  # a refusal, not a warning box
    assert w.session is before


def test_issue15_a_failed_autosave_says_the_move_was_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    w, snaps, fails = _worker(SkirmishRules(), autosave_enabled=True)
    missing = autosave.autosave_dir() / "gone" / "deeper"  # the folder vanished
    monkeypatch.setattr(autosave, "autosave_dir", lambda: missing)
    s = w.session
    assert s is not None
    w.handle(1, SetTable(s.options.update({"table.bots": {}})))
    assert snaps and w.session is snaps[-1].session  # the change stands...
    (f,) = fails
    assert f.message.startswith("The move was made, but the autosave failed")  # ...and says so
