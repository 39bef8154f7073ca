"""German (I.F) and Anglo-French (III.E) replacements [9.9, 9.11]."""

from __future__ import annotations

import pytest
from w40_helpers import act, clear, do, game, goto, ids, put, ready

from wartable.core.errors import IllegalAction
from wartable.engine.loop import prompt
from wartable.games.whatif1940.ids import (
    A_STEP,
    DEAD,
    GSRHB_ELIGIBLE,
    GSRHB_JUST_ARRIVED,
    SSWFHB_ROMANIA,
)
from wartable.model.state import GameState


def _offered(s: GameState) -> set[str]:
    return {str(b.args["piece"]) for b in prompt(game(), s).buttons
            if b.id == "replace_step"}


def _reduced(s: GameState, pid: str, where: str) -> GameState:
    return put(s, pid, where, **{A_STEP: 2})


def _german(s: GameState, turn: int = 2) -> GameState:
    return goto(s, "german_replacement", turn=turn)


def test_9_9_german_restores_one_infantry_and_one_panzer_corps_a_phase() -> None:
    s = clear(ready())
    inf = ids(s, "ger_infantry", 2)
    pz = ids(s, "ger_panzer", 1)[0]
    s = _reduced(_reduced(_reduced(s, inf[0], "4500"), inf[1], "4808"), pz, "5102")
    s = _german(s)
    assert _offered(s) == {*inf, pz}
    s = act(s, "replace_step", "german", piece=inf[0])
    assert A_STEP not in s.piece(inf[0]).attrs  # full strength again
    assert _offered(s) == {pz}  # one infantry corps a phase, never saved or swapped
    with pytest.raises(IllegalAction):
        do(s, "replace_step", "german", piece=inf[1])
    s = act(s, "replace_step", "german", piece=pz)
    assert A_STEP not in s.piece(pz).attrs and _offered(s) == set()


def test_9_9_german_replacements_reach_the_gsrhb_and_romania() -> None:
    s = clear(ready())
    inf = ids(s, "ger_infantry", 3)
    s = _reduced(_reduced(s, inf[0], GSRHB_ELIGIBLE), inf[1], SSWFHB_ROMANIA)
    s = _reduced(s, inf[2], GSRHB_JUST_ARRIVED)
    assert _offered(_german(s)) == set(inf)


def test_9_9_seventh_flieger_never_receives_replacements() -> None:
    s = clear(ready())
    seventh = ids(s, "ger_7th_flieger", 1)[0]
    inf = ids(s, "ger_infantry", 1)[0]
    s = _german(_reduced(_reduced(s, seventh, "4500"), inf, "4808"))
    assert _offered(s) == {inf}
    with pytest.raises(IllegalAction):
        do(s, "replace_step", "german", piece=seventh)


def test_9_9_dead_german_units_never_come_back() -> None:
    s = clear(ready())
    inf = ids(s, "ger_infantry", 2)
    s = _reduced(_reduced(s, inf[0], DEAD), inf[1], "4500")
    assert _offered(_german(s)) == {inf[1]}


def test_9_9_no_reduced_unit_the_phase_ends_by_itself() -> None:
    g = game()
    s = clear(ready())
    pos = next(p for p in g.positions if p.step.id == "german_replacement")
    assert g.rules.enter_step(g, s, pos).auto_end
    s = _reduced(s, ids(s, "ger_infantry", 1)[0], "4500")
    assert not g.rules.enter_step(g, s, pos).auto_end


def test_9_9_unused_capacity_is_lost_at_the_end_of_the_phase() -> None:
    s = clear(ready())
    inf = ids(s, "ger_infantry", 2)
    s = _german(_reduced(_reduced(s, inf[0], "4500"), inf[1], "4808"))
    s = act(s, "replace_step", "german", piece=inf[0])
    s = _german(s, turn=3)  # next turn: one infantry corps again, not two
    assert _offered(s) == {inf[1]}


def test_9_11_anglo_french_restore_one_french_and_one_british_corps() -> None:
    s = clear(ready())
    fr = ids(s, "fr_infantry", 2)
    br = ids(s, "brit_infantry", 1)[0]
    s = _reduced(_reduced(_reduced(s, fr[0], "1103"), fr[1], "1204"), br, "1302")
    s = goto(s, "af_replacement", turn=2)
    assert _offered(s) == {*fr, br}
    s = act(s, "replace_step", "anglo_french", piece=br)
    assert _offered(s) == set(fr)  # no swapping between nations [9.11]
    s = act(s, "replace_step", "anglo_french", piece=fr[1])
    assert _offered(s) == set()
    assert s.piece(fr[0]).attrs.get(A_STEP) == 2


def test_9_11_dead_anglo_french_units_never_come_back() -> None:
    s = clear(ready())
    fr = ids(s, "fr_infantry", 2)
    s = _reduced(_reduced(s, fr[0], DEAD), fr[1], "1103")
    assert _offered(goto(s, "af_replacement", turn=2)) == {fr[1]}
