"""The 1940: What If? bots choose the unit on top of their stacks [7.3] (issue 7): the enemy
may not look beneath the top, so the bot shows a full unit of its typical type (what the
enemy's estimate assumes beneath it anyway), else its weakest-looking unit, and armour
stays hidden. Set up by hand; checked on the bot's proposals and the enemy's view."""

from __future__ import annotations

from dataclasses import replace

import pytest
from w40_helpers import base, board, game, goto, plain, put

from wartable.core.rng import Rng
from wartable.engine.session import Session
from wartable.games.whatif1940 import bot, bot_stack_top, bot_view, fog
from wartable.games.whatif1940.ids import A_STEP, ANGLO_FRENCH, GERMAN, WEST
from wartable.model.state import GameState

G = game()
B = board()
INF = "german.ger_infantry.1"
INF2 = "german.ger_infantry.2"
PZ = "german.ger_panzer.1"
FR = "anglo_french.fr_infantry.1"


def _spots() -> tuple[str, str]:
    """A plain hex of Greater Germany on the west map and a plain hex three hexes off it."""
    for h in B.labels(WEST):
        if B.hex(h).region != "Greater Germany" or not plain(h):
            continue
        d = B.distances([h], 3)
        far = [x for x, n in sorted(d.items()) if n == 3 and plain(x) and B.map_of(x) == WEST]
        if far:
            return h, far[0]
    raise AssertionError("no such hexes")


def _position(*stack: str, reduce: str = "") -> tuple[GameState, str]:
    """The German west combat step of turn 2 with the German `stack` (the last on top, as
    the map draws it) three hexes from a French corps: nothing to attack."""
    here, there = _spots()
    s = base()
    for pid in stack:  # (put keeps the counter mix's order: re-add to put it last)
        p = s.piece(pid)
        s = replace(s, pieces=s.pieces.remove(pid)).with_piece(replace(p, location=here))
    if reduce:
        s = put(s, reduce, here, **{A_STEP: 2})
    s = put(s, FR, there)
    return goto(s, "german_west_combat", 2), here


def _top_seen_by_enemy(s: GameState, here: str) -> str:
    v = bot_view.view(G, s, ANGLO_FRENCH)
    return [p for p in v.pieces.values() if p.location == here][-1].id


def _session(s: GameState) -> Session:
    return replace(Session.start(G, "standard", seed=1), state=s)


def _play(s: GameState, level: str) -> tuple[list[str], GameState]:
    ses = _session(s)
    rng = Rng.from_seed("top")
    verbs = []
    while G.position(ses.state).step.id == "german_west_combat":
        a, rng = bot.choose_action(ses, rng, level)
        ses = ses.submit(a)
        verbs.append(a.verb)
    return verbs, ses.state


@pytest.mark.parametrize("level", ["fast", "strong"])
def test_7_3_the_bot_hides_a_panzer_beneath_an_infantry_corps(level: str) -> None:
    """A panzer on top of a panzer-infantry stack shows the enemy the armour; the bot
    puts the infantry corps on top (one free action) before it ends the step, and the
    enemy's view then shows an infantry corps and a hidden unit [7.3]."""
    s, here = _position(INF, PZ)
    assert _top_seen_by_enemy(s, here) == PZ  # the map's default: the last one
    first = bot.ranked(_session(s), level)[0][0]
    assert (first.verb, first.args.get("piece")) == (fog.VERB, INF)
    verbs, after = _play(s, level)
    assert verbs == [fog.VERB, "end_step"]  # one action, then the step ends
    v = fog.view(G, after, ANGLO_FRENCH)
    seen = [p for p in v.pieces.values() if p.location == here]
    assert seen[-1].id == INF
    assert PZ not in v.pieces and [p.type for p in seen[:-1]] == [fog.UNKNOWN_TYPE]


def test_7_3_a_full_corps_goes_on_top_of_a_reduced_one() -> None:
    """Two infantry corps, the reduced one on top: the full one goes on top, so the
    enemy's estimate (a full corps beneath) hides the lost step [2.11, 7.3]."""
    s, here = _position(INF, INF2, reduce=INF2)
    assert _top_seen_by_enemy(s, here) == INF2
    verbs, after = _play(s, "strong")
    assert verbs == [fog.VERB, "end_step"]
    assert _top_seen_by_enemy(after, here) == INF


def test_7_3_a_stack_already_showing_a_typical_unit_costs_no_action() -> None:
    s, here = _position(PZ, INF)
    assert _top_seen_by_enemy(s, here) == INF
    assert bot_stack_top.top_actions(G, B, bot_view.view(G, s, GERMAN), GERMAN) == []
    verbs, _ = _play(s, "strong")
    assert verbs == ["end_step"]


def test_7_3_without_the_fog_of_war_no_top_is_chosen() -> None:
    s, _ = _position(INF, PZ)
    s = replace(s, options=s.options.set(fog.OPTION, False))
    verbs, _ = _play(s, "strong")
    assert verbs == ["end_step"]
