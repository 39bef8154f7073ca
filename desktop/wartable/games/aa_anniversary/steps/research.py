"""Phase 1: Research & Development (optional rule, pg. 12) and War Bonds at Collect Income.

The Research & Development Sequence, every choice a prompt:
  Step 1 Buy Researcher Tokens: "buy_researcher" buttons, 5 IPCs each, as many as wished.
  Step 2 Roll Research Dice: "research" rolls one die per researcher held (bought now or
    kept from earlier turns). A 6 is a breakthrough: all the power's researchers are
    discarded. No 6: they are all kept for a later turn. Holding researchers, the power must
    roll before the step ends (the rule says "For each researcher you have, roll one die").
  Step 3 Roll Breakthrough Die: the player chooses Breakthrough Chart 1 or 2 (a frame; a
    chart whose six advances the power holds is not offered) and rolls one die; a result
    already held is rolled again until a new advance comes up. One advance per turn.
  Step 4 Mark Developments: the advance is held from now on (research.with_development).
A power whose capital is enemy-held researches nothing (Capturing and Liberating Capitals);
a power holding no researcher and unable to pay for one has no choice to make: the step
passes by itself, logged.

State: research.V_RESEARCHERS (tokens held), vars["research_rolled"] (Step 2 done this turn).
"""

from __future__ import annotations

from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import end_step, end_step_button, roll_then
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import research as rd
from wartable.games.aa_anniversary.steps.common import capital_held, ipcs, with_ipcs
from wartable.model.state import Frame, GameState

R_PHASE = "Phase 1: Research & Development (pg. 12)"
R_STEP1 = "Research & Development, Step 1: Buy Researcher Tokens (pg. 12)"
R_STEP2 = "Research & Development, Step 2: Roll Research Dice (pg. 12)"
R_STEP3 = "Research & Development, Step 3: Roll Breakthrough Die (pg. 12)"
R_STEP4 = "Research & Development, Step 4: Mark Developments (pg. 12)"
R_CAPITAL = "Capturing and Liberating Capitals (pg. 20)"
R_WAR_BONDS = "Breakthrough Chart 1: 5. War Bonds (pg. 12); Phase 7: Collect Income (pg. 22)"

V_ROLLED = "research_rolled"
FRAME_CHART = "breakthrough_chart"
BUY = "buy_researcher"
ROLL = "research"
CHOOSE = "chart"
RESUMES = ("research_dice", "breakthrough", "war_bonds")


def _name(game: Game, power: str) -> str:
    return game.definition.side(power).name


def enter(game: Game, state: GameState, power: str) -> Outcome:
    """The phase begins: nothing rolled yet this turn."""
    state = state.with_var(V_ROLLED, False)
    if not capital_held(game, state, power):
        return Outcome(state, (Event("info", f"{_name(game, power)} cannot research while its "
                                     f"capital is held by the enemy", power, R_CAPITAL),),
                       auto_end=True)
    cost = rd.research_table(game).researcher_cost
    if rd.researchers(state, power) == 0 and ipcs(state, power) < cost:
        return Outcome(state, (Event("info", f"{_name(game, power)} holds no researcher and "
                                     f"cannot pay {cost} IPCs for one: no research this turn",
                                     power, R_STEP1),), auto_end=True)
    return Outcome(state)


def _must_roll(state: GameState, power: str) -> bool:
    return rd.researchers(state, power) > 0 and not state.var(V_ROLLED, False)


def can_end(state: GameState, power: str) -> str | None:
    if _must_roll(state, power):
        return f"Roll your research dice first, one per researcher [{R_STEP2}]."
    return None


def prompt(game: Game, state: GameState, power: str, text: str, rule: str) -> Prompt:
    t = rd.research_table(game)
    have, n = ipcs(state, power), rd.researchers(state, power)
    rolled = bool(state.var(V_ROLLED, False))
    buy_why = ("researchers are bought before the research dice are rolled" if rolled
               else f"{have} IPCs left" if have < t.researcher_cost else "")
    buttons = [
        Button(BUY, f"Buy a researcher token ({t.researcher_cost} IPCs)", R_STEP1,
               enabled=not buy_why, reason=buy_why),
        Button(ROLL, f"Roll {n} research {'die' if n == 1 else 'dice'}", R_STEP2,
               enabled=n > 0 and not rolled,
               reason="already rolled this turn" if rolled else "no researcher to roll for"
               if n == 0 else ""),
        end_step_button(can_end(state, power)),
    ]
    held = rd.names(game, rd.developments(state, power))
    return Prompt(power, f"{text} {_name(game, power)}: {n} researcher(s), {have} IPCs; "
                  f"developments: {held}.", rule, buttons=tuple(buttons))


def apply(game: Game, state: GameState, power: str, action: Action) -> Outcome:
    t = rd.research_table(game)
    if action.verb == BUY:
        if state.var(V_ROLLED, False):
            raise IllegalAction(f"Researchers are bought before the research dice are rolled "
                                f"[{R_STEP1}].")
        have = ipcs(state, power)
        if have < t.researcher_cost:
            raise IllegalAction(f"A researcher token costs {t.researcher_cost} IPCs; you have "
                                f"{have} [{R_STEP1}].")
        n = rd.researchers(state, power) + 1
        state = rd.with_researchers(with_ipcs(state, power, have - t.researcher_cost), power, n)
        # Worded as a unit purchase so the turn summary counts the IPCs spent.
        return Outcome(state, (Event("purchase", f"{_name(game, power)} buys Researcher token "
                                     f"({t.researcher_cost} IPCs, {have - t.researcher_cost} "
                                     f"left)", power, R_STEP1,
                                     data=FrozenMap(researcher=1, cost=t.researcher_cost,
                                                    left=have - t.researcher_cost)),))
    if action.verb == ROLL:
        n = rd.researchers(state, power)
        if n == 0 or state.var(V_ROLLED, False):
            raise IllegalAction(f"No research dice to roll: {n} researcher(s), "
                                f"{'already rolled' if n else 'buy one first'} [{R_STEP2}].")
        return roll_then(game, state.with_var(V_ROLLED, True), count=n, sides=6,
                         purpose=f"{_name(game, power)} research dice ({n} researchers)",
                         side=power, resume="research_dice", rule=R_STEP2)
    raise IllegalAction(f"Buy researchers, roll the research dice or end the step [{R_PHASE}].")


def open_charts(game: Game, state: GameState, power: str) -> tuple[int, ...]:
    """Charts with an advance the power does not hold yet (a full chart gives no more)."""
    held = rd.developments(state, power)
    t = rd.research_table(game)
    return tuple(c for c in rd.CHARTS if any(d.id not in held for d in t.chart(c)))


def resume(game: Game, state: GameState, kind: str, data: FrozenMap[str, Any],
           dice: tuple[int, ...]) -> Outcome:
    power = state.active_side
    t = rd.research_table(game)
    if kind == "research_dice":
        if t.success_face not in dice:
            ev = Event("research", f"No {t.success_face}: the research fails; "
                       f"{_name(game, power)} keeps its {len(dice)} researcher(s)", power, R_STEP2)
            return Outcome(state, (ev,))
        state = rd.with_researchers(state, power, 0)
        evs = [Event("research", f"A {t.success_face}: {_name(game, power)} makes a "
                     f"breakthrough and discards its {len(dice)} researcher(s)", power, R_STEP2)]
        charts = open_charts(game, state, power)
        if not charts:
            evs.append(Event("research", f"{_name(game, power)} holds every advance of both "
                             f"charts: no more can be gained", power, R_STEP3))
            return Outcome(state, tuple(evs))
        frame = Frame(FRAME_CHART, power, f"{_name(game, power)}: choose the Breakthrough Chart "
                      f"to roll on.", R_STEP3)
        return Outcome(state.push_frame(frame), tuple(evs))
    if kind == "breakthrough":
        chart = int(data["chart"])
        dev = t.on_chart(chart, dice[0])
        if rd.has(state, power, dev.id):
            ev = Event("research", f"Chart {chart}, {dice[0]}: {dev.name}, already held: "
                       f"roll again", power, R_STEP3)
            return Outcome(state, (ev,)).then(_roll_chart(game, state, power, chart))
        state = rd.with_development(state, power, dev.id)
        note = f" (Provisional: {dev.note})" if dev.provisional else ""
        return Outcome(state, (
            Event("research", f"Chart {chart}, {dice[0]}: {_name(game, power)} develops "
                  f"{dev.name}. {dev.effect}{note}", power, dev.rule,
                  data=FrozenMap(developed=dev.id, chart=chart)),
            Event("research", f"{dev.name} is marked on the research & development chart and "
                  f"takes effect at once", power, R_STEP4)))
    if kind == "war_bonds":
        extra = sum(dice)
        state = with_ipcs(state, power, ipcs(state, power) + extra)
        out = Outcome(state, (Event("income", f"War Bonds: {_name(game, power)} collects "
                                    f"{extra} more IPCs ({ipcs(state, power)} in the treasury)",
                                    power, R_WAR_BONDS,
                                    data=FrozenMap(war_bonds=extra,
                                                   treasury=ipcs(state, power))),),
                      auto_end=True)
        # Typed (physical) dice answer an action, where auto_end is not looked at: the
        # Collect Income step ends here just as it does with computer dice.
        return out.then(end_step(game, state)) if data.get("typed") else out
    raise IllegalAction(f"No research continuation {kind!r}.")


def _roll_chart(game: Game, state: GameState, power: str, chart: int) -> Outcome:
    return roll_then(game, state, count=1, sides=6,
                     purpose=f"{_name(game, power)} breakthrough die, chart {chart}", side=power,
                     resume="breakthrough", data=FrozenMap(chart=chart), rule=R_STEP3)


def frame_prompt(game: Game, state: GameState, frame: Frame) -> Prompt:
    power = frame.side
    held = rd.developments(state, power)
    opts = open_charts(game, state, power)
    t = rd.research_table(game)
    buttons = []
    for c in rd.CHARTS:
        left = [d.name for d in t.chart(c) if d.id not in held]
        buttons.append(Button(CHOOSE, f"Chart {c}: {', '.join(left) or 'all held'}", R_STEP3,
                              enabled=c in opts, reason="" if c in opts else
                              "every advance of this chart is held", args=FrozenMap(chart=c)))
    return Prompt(power, frame.text, frame.rule, buttons=tuple(buttons))


def frame_apply(game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
    chart = action.args.get("chart")
    if action.verb != CHOOSE or not isinstance(chart, int) or isinstance(chart, bool) \
            or chart not in open_charts(game, state, frame.side):
        raise IllegalAction(f"Choose Breakthrough Chart "
                            f"{' or '.join(map(str, open_charts(game, state, frame.side)))} "
                            f"[{R_STEP3}].")
    _, state = state.pop_frame()
    return Outcome(state, (Event("research", f"{_name(game, frame.side)} rolls on Breakthrough "
                                 f"Chart {chart}", frame.side, R_STEP3),)).then(
        _roll_chart(game, state, frame.side, chart))


def war_bonds(game: Game, state: GameState, power: str) -> Outcome:
    """Collect Income: War Bonds adds 1d6 IPCs (none without it). With physical dice the
    step waits for the roll."""
    n = rd.war_bonds_dice(game, state, power)
    if n == 0:
        return Outcome(state, auto_end=True)
    return roll_then(game, state, count=n, sides=6, purpose=f"{_name(game, power)} War Bonds",
                     side=power, resume="war_bonds", rule=R_WAR_BONDS,
                     data=FrozenMap(typed=state.dice_mode == "physical"))
