"""Game > Hint while a roll is asked for (physical dice, issue 7): what the roll decides and
its chances, from the position the prompt is in. Nothing is played.

- What the game says of the roll (`Rules.explain_roll`): e.g. Axis & Allies' battle dice
  with each side's exact chances of each number of hits, raid damage against the cap,
  research dice; 1940's CRT result legend from its data (shown under the faces).
- Otherwise one die on any table (1940's CRT [11.3], GAST [6.11], East Front Surprise Table [5.5],
  an A&A breakthrough die...): the outcome of each face, found by applying that roll to the
  real rules on a copy of the position and reading the first result line.
- Anything else: what the roll is for, with its rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from wartable.engine.actions import DICE, Action, DiceAsk
from wartable.engine.loop import DICE_FRAME, apply, deciding_side
from wartable.engine.rollodds import pct
from wartable.engine.session import Session
from wartable.model.state import Frame

MAX_FACES = 20  # one die of up to this many faces is worked out face by face
_SKIP_KINDS = frozenset({"dice", "phase"})  # the roll's own line and step changes


@dataclass(frozen=True)
class DiceHint:
    """What the asked roll decides: a title and one line per side or per die face."""

    title: str
    lines: tuple[str, ...]
    rule: str = ""

    def text(self) -> str:
        return "\n".join((self.title, *self.lines))


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
    game = session.game
    notes = game.rules.explain_roll(game, session.state, frame)
    if notes is not None and not notes.with_faces:
        return DiceHint(title, notes.lines, frame.rule)
    said = notes.lines if notes is not None else ()
    faces, provisional = _face_lines(session, frame, ask)
    if provisional:
        title += " (provisional table)"
    if faces:
        return DiceHint(title, ("Each face, by the rules:", *faces, *said), frame.rule)
    if said:
        return DiceHint(title, said, frame.rule)
    return DiceHint(title, (f"The roll decides {ask.purpose}; its chances depend on choices "
                            "still to come, so none are shown.",), frame.rule)
