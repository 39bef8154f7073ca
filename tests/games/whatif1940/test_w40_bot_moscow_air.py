"""The strong German sends every Luftwaffe unit against Moscow and to hold it (issue 7):
taken, Moscow gives a Moscow Falls roll each German turn it is held [4.3], and each aircraft
shifts the battle a column [8.4]; the bot counts them before it declares an attack.
Hand-made positions."""

from __future__ import annotations

from dataclasses import replace

from w40_helpers import base, board, game, goto, put

from wartable.core.frozen import FrozenMap
from wartable.core.rng import Rng
from wartable.engine.actions import Action
from wartable.engine.session import Session
from wartable.games.whatif1940 import bot, bot_eval
from wartable.games.whatif1940.ids import EAST, GERMAN, MOSCOW, SOVIET, V_AIR_USED, V_CONTROL
from wartable.games.whatif1940.steps import combat

G = game()
B = board()
INF = "german.ger_infantry.1"


def test_4_3_the_strong_german_attacks_moscow_counting_and_committing_all_its_aircraft() -> None:
    """One face-up Soviet 4-5 in Moscow (a city, clear, no river toward 4625), one German
    infantry corps 5-6 next to it, four Luftwaffe units ready. By hand: 5:5 = 1:1, the
    city -1 [11.8] = 1:2; with four aircraft +4 [8.4] = 4:1. The strong German declares it
    at 4:1 and commits all four (not its usual two kept for the Ruhr); the fast German,
    counting no aircraft, sees 1:2, below its 2:1, and does not attack."""
    assert B.hex(MOSCOW).city and not B.side_features(MOSCOW, "4625")
    s = put(base(), "soviet.sov_regular.1", MOSCOW, untried=False, factors=(4, 5))
    s = goto(put(s, INF, "4625"), "german_east_combat_e", 2)
    strong = bot_eval.attack_options(G, B, s, GERMAN, EAST, "strong")
    assert [(a.target, a.column) for a in strong] == [(MOSCOW, "4-1")]
    assert bot_eval.attack_options(G, B, s, GERMAN, EAST, "fast") == []
    ses = replace(Session.start(G, "standard", seed=1), state=s)
    a, _ = bot.choose_action(ses, Rng.from_seed("t"), "strong")
    assert a == Action.make(combat.VERB, GERMAN, target=MOSCOW, attackers=(INF,))
    ses = ses.submit(a)
    assert ses.state.frames[-1].kind == combat.F_AIR
    b, _ = bot.choose_action(ses, Rng.from_seed("t"), "strong")
    assert (b.verb, b.args["count"]) == ("air", 4)


def test_4_3_the_strong_german_defends_a_held_moscow_with_every_aircraft() -> None:
    """A Soviet attack on a German-held Moscow (the Soviet aircraft flown): the strong
    German commits all four Luftwaffe units to the defence [8.4] (held, Moscow is a Moscow
    Falls roll each German turn [4.3]), not its usual all-but-two in the east."""
    s = put(base(), INF, MOSCOW).with_var(V_CONTROL, FrozenMap({MOSCOW: GERMAN}))
    s = put(s, "soviet.sov_regular.1", "4625", untried=False, factors=(4, 5))
    s = goto(s, "soviet_combat", 2).with_var(V_AIR_USED, ("soviet.sov_aircraft.1",))
    ses = replace(Session.start(G, "standard", seed=1), state=s)
    ses = ses.submit(Action.make(combat.VERB, SOVIET, target=MOSCOW,
                                 attackers=("soviet.sov_regular.1",)))
    f = ses.state.frames[-1]
    assert (f.kind, f.side, f.data["role"]) == (combat.F_AIR, GERMAN, "defense")
    b, _ = bot.choose_action(ses, Rng.from_seed("t"), "strong")
    assert (b.verb, b.args["count"]) == ("air", 4)
