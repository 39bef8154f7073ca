"""The odds panel under the fog of war [7.3]: before the attack is committed it counts the
top unit of the defending stack only and says how many units are unseen beneath it."""

from __future__ import annotations

from dataclasses import replace

from test_w40_fog import INF, NEXT, PZ, TGT, base, put, soviet_stack
from w40_helpers import board, game

from wartable.core.frozen import FrozenMap
from wartable.games.whatif1940 import fog
from wartable.games.whatif1940.steps import combat_odds
from wartable.gameui.whatif1940.oddspreview import render


def test_7_3_the_odds_panel_counts_only_the_top_and_says_how_many_are_unseen() -> None:
    s = soviet_stack(put(put(base(), PZ, NEXT[0]), INF, NEXT[1]))
    s = s.with_var(fog.V_STACK_TOP, FrozenMap({TGT: "soviet.sov_regular.1"}))
    pv = combat_odds.preview(game(), board(), s, [PZ, INF], TGT)
    assert pv is not None
    text = render(pv)
    # The top 4-2 only: 8 + 5 = 13 against 2 -> 6:1; one unit beneath it unseen [7.3].
    assert "<b>Defense 2</b>" in text and "Raw odds 13:2" in text
    assert "+ 1 unseen beneath the top" in text and "[7.3]" in text
    assert "sov_regular.2" not in text
    off = replace(s, options=s.options.set(fog.OPTION, False))
    pv = combat_odds.preview(game(), board(), off, [PZ, INF], TGT)
    assert pv is not None
    assert "unseen" not in render(pv) and "<b>Defense 8</b>" in render(pv)  # 6 + 2
