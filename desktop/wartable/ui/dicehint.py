"""Game > Hint while a roll is asked for (physical dice, issue 7): what the roll decides and
its chances, from the position the prompt is in. Nothing is played.

- Axis & Allies battle rolls (General Combat steps 2-4, AA fire, bombardment): each side's
  fire groups, as the engine will read the dice (ui/battlerecord.round_groups): a die hits
  on its value or less (General Combat, pg. 18), so the chance of each number of hits is
  exact (binomials per group, added up).
- One die on any table (1940's CRT [11.3], GAST [6.11], East Front Surprise Table [5.5],
  an A&A research or rocket die...): the outcome of each face, found by applying that roll
  to the real rules on a copy of the position and reading the first result line.
- Anything else: what the roll is for, with its rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wartable.engine.actions import DICE, Action, DiceAsk
from wartable.engine.loop import DICE_FRAME, apply, deciding_side
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.model.state import Frame, Piece

AA_GAME = "aa_anniversary"
W40_GAME = "whatif1940"
BATTLE_ROLLS = ("round", "strike", "bombard", "aa")  # A&A battle resumes (steps/battle.py)
MAX_FACES = 20  # one die of up to this many faces is worked out face by face
_SKIP_KINDS = frozenset({"dice", "phase"})  # the roll's own line and step changes
# 1940: What If?'s CRT result codes, named as the rules do [11.15-11.20], so a face's "DR"
# reads as what it does.
CRT_TERMS = {
    "AS": "Attack Stalled: nothing happens",
    "AL1": "Attacker Loses 1 step",
    "DE": "Defender Eliminated: one-step defenders die, two-step defenders lose a step",
    "DR": "Defender Retreats",
    "BB": "Bloodbath: the side with fewer steps loses all, the other as many steps",
    "DL1": "Defender Loses 1 step (a German conversion of a DR [11.19])",
}


@dataclass(frozen=True)
class DiceHint:
    """What the asked roll decides: a title and one line per side or per die face."""

    title: str
    lines: tuple[str, ...]
    rule: str = ""

    def text(self) -> str:
        return "\n".join((self.title, *self.lines))


def pct(p: float) -> str:
    """A chance as players read it: "31%", "<1%" for a sliver, never "0%" for a chance."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{100 * p:.0f}%"


def hit_distribution(groups: Sequence[tuple[int, int, int]], sides: int = 6) -> list[float]:
    """P(exactly k hits) for k = 0..n from (value, count, best_of) groups: a unit hits when
    its best (lowest) of `best_of` dice is `value` or less."""
    dist = [1.0]
    for value, count, best_of in groups:
        p = 1 - (1 - min(max(value, 0), sides) / sides) ** best_of
        for _ in range(count):
            nxt = [0.0] * (len(dist) + 1)
            for k, q in enumerate(dist):
                nxt[k] += q * (1 - p)
                nxt[k + 1] += q * p
            dist = nxt
    return dist


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def side_line(who: str, groups: Sequence[tuple[int, int, int]], sides: int = 6,
              at: Sequence[str] = ()) -> str:
    """"Attacker: 1 die at 1, 2 dice at 2 (...) — 81% at least one hit, 1.33 hits expected
    (hits 0: 19%, 1: 41%, ...)"; `at` names what each group's dice are rolled at (AA fire)."""
    parts = []
    for i, (value, count, best_of) in enumerate(groups):
        best = f" (best of {best_of} each)" if best_of > 1 else ""
        target = f" at {at[i]}" if i < len(at) and at[i] else ""
        parts.append(f"{_dice(count * best_of)} at {value}{best}{target}")
    dist = hit_distribution(groups, sides)
    expected = sum(k * q for k, q in enumerate(dist))
    spread = ", ".join(f"{k}: {pct(q)}" for k, q in enumerate(dist))
    return (f"{who}: {', '.join(parts)} (a die hits on its number or less) — "
            f"{pct(1 - dist[0])} at least one hit, {expected:.2f} hits expected "
            f"(hits {spread})")


def _battle_lines(session: Session, frame: Frame, ask: DiceAsk) -> tuple[str, ...] | None:
    """A&A: each side's groups for the roll asked, checked against the dice asked for."""
    kind = str(frame.data.get("resume", ""))
    game, state = session.game, session.state
    if game.definition.id != AA_GAME or kind not in BATTLE_ROLLS or ask.sides != 6:
        return None
    from wartable.games.aa_anniversary import combat as c
    from wartable.games.aa_anniversary.steps import battle
    from wartable.ui.battlerecord import round_groups

    if kind == "aa":  # Antiaircraft Guns (pg. 25): one die at each attacking aircraft
        space, power = str(state.var("battle")), state.active_side
        cat = battle.battle_values(game, state)
        gs = c.aa_groups(battle.force(battle.attackers(game, state, space, power)),
                         battle.force(battle.defenders(game, state, space, power)), cat)
        named = [game.definition.unit_types[g.kind].name
                 if g.kind in game.definition.unit_types else g.kind for g in gs]
        rolls: list[tuple[str, tuple[c.FireGroup, ...], list[str]]] = [("AA gun", gs, named)]
    else:
        ga, gd = round_groups(game, state, kind)
        space, power = str(state.var("battle")), state.active_side
        att = battle.attackers(game, state, space, power)
        dfn = battle.defenders(game, state, space, power)
        rolls = [(f"Attacker ({_units(game, att)})", ga, []),
                 (f"Defender ({_units(game, dfn)})", gd, [])]
    if sum(c.dice_count(gs) for _, gs, _ in rolls) != ask.count:
        return None  # not the roll these groups make: say only what it is for
    return tuple(side_line(who, [(g.value, g.count, g.best_of) for g in gs], 6, at)
                 for who, gs, at in rolls if gs)


def _units(game: Game, pieces: Sequence[Piece]) -> str:
    """"2 Infantry, 1 Tank": a side's units in the battle, by type."""
    counts: dict[str, int] = {}
    for p in pieces:
        ut = game.definition.unit_types.get(p.type)
        name = ut.name if ut is not None else p.type
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} {name}" for name, n in counts.items())


def _outcome(text: str) -> str:
    """A table's result line without its roll: "…: roll 3 → Surprise: …" -> "Surprise: …"."""
    return text.split("→", 1)[1].strip() if "→" in text else text


def _face_lines(session: Session, frame: Frame, ask: DiceAsk) -> tuple[tuple[str, ...], bool]:
    """One die: each face's outcome by the real rules (on a copy: the session is immutable).
    Faces with the same outcome are joined ("1-2 (33%): …"). Also: is the table provisional."""
    if ask.count != 1 or not 1 < ask.sides <= MAX_FACES:
        return (), False
    seen = frozenset({frame.side})  # only what the rolling side may read
    outcomes: list[str] = []
    provisional = False
    for face in range(1, ask.sides + 1):
        try:
            out = apply(session.game, session.state,
                        Action.make(DICE, frame.side, values=(face,)))
        except Exception:  # noqa: BLE001 - a rule refusing a face: no table to show
            return (), False
        lines = [e.text for e in out.events
                 if e.kind not in _SKIP_KINDS and e.visible_to(seen)]
        provisional = provisional or any("provisional" in t for t in lines)
        outcomes.append(_outcome(lines[0]) if lines else "no effect")
    rows: list[str] = []
    i = 0
    while i < len(outcomes):
        j = i
        while j + 1 < len(outcomes) and outcomes[j + 1] == outcomes[i]:
            j += 1
        faces = str(i + 1) if i == j else f"{i + 1}-{j + 1}"
        rows.append(f"{faces} ({pct((j - i + 1) / ask.sides)}): {outcomes[i]}")
        i = j + 1
    codes = dict.fromkeys(o.split()[0] for o in outcomes if o.split() and
                          o.split()[0] in CRT_TERMS)
    if session.game.definition.id == W40_GAME and codes:
        rows.append("Results [11.15-11.20]: " + "; ".join(
            f"{code} = {CRT_TERMS[code]}" for code in codes))
    return tuple(rows), provisional


def dice_hint(session: Session) -> DiceHint | None:
    """The hint for the roll the deciding side is asked to type; None when none is asked."""
    state = session.state
    frame = state.top_frame
    if frame is None or frame.kind != DICE_FRAME:
        return None
    ask = session.prompt(deciding_side(state)).dice
    if ask is None:
        return None
    rule = f" [{frame.rule}]" if frame.rule else ""
    title = f"{ask.purpose}: roll {ask.count}d{ask.sides}{rule}"
    battle = _battle_lines(session, frame, ask)
    if battle:
        return DiceHint(title, battle, frame.rule)
    faces, provisional = _face_lines(session, frame, ask)
    if faces:
        if provisional:
            title += " (provisional table)"
        return DiceHint(title, ("Each face, by the rules:", *faces), frame.rule)
    return DiceHint(title, (f"The roll decides {ask.purpose}; its chances depend on choices "
                            "still to come, so none are shown.",), frame.rule)
