"""Axis & Allies Anniversary: the per-power turn summary, read from the game's log events.

Each power's turn (Order of Play, pg. 11) is the run of log events from its first phase
event to the next power's: what it bought (Phase 2), the battles it fought and how they
ended (Phase 4), the territories it captured or liberated, the territories it lost since
its previous turn, the IPCs it spent and collected (Phase 7) and the change of its
production level. Control is followed from the scenario's starting control through the
capture events, so the summary needs nothing but the log and the game's data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QVBoxLayout, QWidget

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Event
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.aa_anniversary.steps.common import world
from wartable.games.aa_anniversary.steps.income import production
from wartable.ui.widgets import scrolled

_BUYS = re.compile(r" buys (?P<unit>.+) \((?P<cost>\d+) IPCs, (?P<left>\d+) left\)$")
_COLLECTS = re.compile(r" collects (?P<n>\d+) IPCs \((?P<have>\d+) in the treasury\)")
_CAPTURES = re.compile(r"^(?P<power>.+) captures (?P<space>.+)$")
_LIBERATED = re.compile(r"^(?P<space>.+) is liberated for (?P<power>.+)$")
_LOOT = re.compile(r" and takes (?P<n>\d+) IPCs$")
# National objectives' bonus (pg. 22) and War Bonds (Breakthrough Chart 1).
_EXTRA = re.compile(r" collects (?P<n>\d+) (?:bonus|more) IPCs \((?P<have>\d+) in the treasury\)")


@dataclass
class BattleLine:
    space: str
    forces: str  # "1 Artillery, 4 Infantry attack 2 Infantry"
    result: str = "not finished"
    attacker_lost: int = 0
    defender_lost: int = 0


@dataclass
class TurnSummary:
    """One power's turn, as its log events tell it."""

    power: str
    name: str
    turn: int
    bought: dict[str, int] = field(default_factory=dict)  # unit name -> count
    spent: int = 0
    other_purchases: list[str] = field(default_factory=list)  # repairs, China's infantry
    battles: list[BattleLine] = field(default_factory=list)
    captured: list[str] = field(default_factory=list)  # "Ukraine (from Soviet Union)"
    lost: list[str] = field(default_factory=list)  # since its previous turn
    income: int | None = None
    extra_income: int = 0  # national objectives' bonus
    war_bonds: int = 0  # War Bonds' 1d6 (Breakthrough Chart 1: 5), apart from the bonus
    treasury: int | None = None
    research: list[str] = field(default_factory=list)  # developments gained (Phase 1)
    raids: list[str] = field(default_factory=list)  # strategic bombing raids and rockets
    loot: int = 0
    production_before: int = 0
    production_after: int = 0
    complete: bool = False  # the next power's turn has begun

    @property
    def title(self) -> str:
        return f"Round {self.turn}: {self.name}" + ("" if self.complete else " (in progress)")


def _names(game: Game) -> tuple[dict[str, str], dict[str, str]]:
    """Board name -> space id, and side name -> side id, for reading the log's text."""
    spaces = {name: sid for sid, name in world(game).names.items()}
    sides = {s.name: s.id for s in game.definition.sides}
    return spaces, sides


def summarize(session: Session) -> list[TurnSummary]:
    """Every power's turn so far, oldest first."""
    game = session.game
    spaces, sides = _names(game)
    sc = game.definition.scenarios[session.scenario]
    control: dict[str, str] = dict(sc.vars.get("control", FrozenMap()))
    state = session.state
    out: list[TurnSummary] = []
    cur: TurnSummary | None = None
    battle: BattleLine | None = None
    liberated: dict[str, str] = {}
    lost_since: dict[str, list[str]] = {s.id: [] for s in game.definition.sides}

    def prod() -> int:
        return production(game, state.with_var("control", FrozenMap(control)), cur.power) \
            if cur else 0

    for e in session.events:
        if e.kind == "phase" and e.side and (cur is None or e.side != cur.power
                                             or e.turn != cur.turn):
            if cur is not None:
                cur.production_after = prod()
                cur.complete = True
            cur = TurnSummary(e.side, game.definition.side(e.side).name, e.turn)
            cur.lost, lost_since[e.side] = lost_since.get(e.side, []), []
            cur.production_before = prod()
            out.append(cur)
            continue
        if cur is None:
            continue
        battle = _read_event(e, cur, battle, spaces, sides, control, liberated, lost_since)
    if cur is not None:
        cur.production_after = prod()
    return out


def _read_event(e: Event, cur: TurnSummary, battle: BattleLine | None,
                spaces: dict[str, str], sides: dict[str, str], control: dict[str, str],
                liberated: dict[str, str], lost_since: dict[str, list[str]]
                ) -> BattleLine | None:
    if e.kind == "purchase" and e.side == cur.power:
        m = _BUYS.search(e.text)
        if m:
            cur.bought[m["unit"]] = cur.bought.get(m["unit"], 0) + 1
            cur.spent += int(m["cost"])
        else:
            cur.other_purchases.append(e.text)
    elif e.kind == "income" and e.side == cur.power:
        m = _COLLECTS.search(e.text)
        x = _EXTRA.search(e.text)
        if m:
            cur.income, cur.treasury = int(m["n"]), int(m["have"])
        elif x:
            if e.text.startswith("War Bonds:"):
                cur.war_bonds += int(x["n"])
            else:
                cur.extra_income += int(x["n"])
            cur.treasury = int(x["have"])
    elif e.kind == "research" and e.side == cur.power and " develops " in e.text:
        cur.research.append(e.text.split(" develops ", 1)[1].split(".")[0])
    elif e.kind == "combat":
        text = e.text
        if text.startswith("Battle in ") and " attack " in text:
            where, _, forces = text[len("Battle in "):].partition(": ")
            battle = BattleLine(where, forces)
            cur.battles.append(battle)
        elif battle is not None and (text.startswith(f"Battle in {battle.space}")
                                     or text.startswith(f"The attack on {battle.space}")):
            battle.result = text
        elif text.startswith(("Raid on ", "Rocket hits ")):
            cur.raids.append(text)
        elif text.endswith(" is destroyed") and battle is not None:
            if e.side == cur.power:
                battle.attacker_lost += 1
            else:
                battle.defender_lost += 1
        elif m := _LIBERATED.match(text):
            liberated[m["space"]] = m["power"]
        elif (m := _LOOT.search(text)) and e.side == cur.power:
            cur.loot += int(m["n"])
        elif (m := _CAPTURES.match(text)) and m["space"] in spaces:
            name = m["space"]
            sid = spaces[name]
            owner = sides.get(liberated.pop(name, m["power"]), "")
            before = control.get(sid, "")
            if owner:
                control[sid] = owner
            frm = f" (from {_side_name(sides, before)})" if before else ""
            how = " — liberated" if owner and owner != sides.get(m["power"]) else ""
            if sides.get(m["power"]) == cur.power:
                cur.captured.append(f"{name}{frm}{how}")
            if before and before != owner:
                lost_since.setdefault(before, []).append(f"{name} (to {m['power']})")
    return battle


def _side_name(sides: dict[str, str], sid: str) -> str:
    return next((n for n, i in sides.items() if i == sid), sid)


def summary_html(s: TurnSummary) -> str:
    """The summary as the panel shows it."""
    rows = [f"<h3>{s.title}</h3>"]
    bought = ", ".join(f"{n} {u}" for u, n in s.bought.items())
    rows.append(f"<b>Purchased</b> (Phase 2): {bought or 'nothing'}"
                + (f" — {s.spent} IPCs" if s.spent else ""))
    for text in s.other_purchases:
        rows.append(f"&nbsp;&nbsp;{text}")
    if s.research:
        rows.append("<b>Research</b> (Phase 1): developed " + ", ".join(s.research))
    for text in s.raids:
        rows.append(f"<b>Strategic bombing</b>: {text}")
    rows.append("<b>Battles</b> (Phase 4):" + ("" if s.battles else " none"))
    for b in s.battles:
        rows.append(f"&nbsp;&nbsp;{b.space}: {b.forces} — <i>{b.result}</i> "
                    f"(units lost: attacker {b.attacker_lost}, defender {b.defender_lost})")
    rows.append("<b>Captured</b>: " + (", ".join(s.captured) or "none"))
    rows.append("<b>Lost since its previous turn</b>: " + (", ".join(s.lost) or "none"))
    change = s.production_after - s.production_before
    rows.append(f"<b>Production level</b>: {s.production_before} → {s.production_after} "
                f"({change:+d} IPCs)")
    ipcs = []
    if s.spent:
        ipcs.append(f"spent {s.spent}")
    if s.loot:
        ipcs.append(f"took {s.loot} from a captured capital")
    if s.income is not None:
        ipcs.append(f"collected {s.income} (Phase 7)")
    if s.extra_income:
        ipcs.append(f"{s.extra_income} more from national objectives")
    if s.war_bonds:
        ipcs.append(f"{s.war_bonds} from War Bonds (Breakthrough Chart 1)")
    if s.treasury is not None:
        ipcs.append(f"{s.treasury} in the treasury")
    rows.append("<b>IPCs</b>: " + ("; ".join(ipcs) or "no change yet"))
    return "<br>".join(rows)


class TurnSummaryPanel(QWidget):
    """A chooser of the turns so far and the chosen turn's summary (latest by default)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aaTurnSummary")
        lay = QVBoxLayout(self)
        self.chooser = QComboBox()
        self.chooser.setObjectName("turnChooser")
        self.chooser.currentIndexChanged.connect(self._show)
        lay.addWidget(self.chooser)
        self.text = QLabel()
        self.text.setObjectName("turnSummaryText")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        scroll = scrolled(self.text, framed=True)
        lay.addWidget(scroll, 1)
        self.summaries: list[TurnSummary] = []

    def show_session(self, session: Session, latest_complete: bool = False) -> None:
        """Refresh; `latest_complete` shows the last finished power's turn (the one that
        just ended), else the chooser keeps its place (the newest turn when it was there)."""
        old = self.chooser.currentIndex()
        at_end = old < 0 or old == len(self.summaries) - 1
        self.summaries = summarize(session)
        self.chooser.blockSignals(True)
        self.chooser.clear()
        for s in self.summaries:
            self.chooser.addItem(s.title)
        done = [i for i, s in enumerate(self.summaries) if s.complete]
        if latest_complete and done:
            index = done[-1]
        elif at_end or old >= len(self.summaries):
            index = len(self.summaries) - 1
        else:
            index = old
        self.chooser.setCurrentIndex(index)
        self.chooser.blockSignals(False)
        self._show(index)

    def _show(self, index: int) -> None:
        if 0 <= index < len(self.summaries):
            self.text.setText(summary_html(self.summaries[index]))
        else:
            self.text.setText("<i>No turn played yet.</i>")

    def current(self) -> TurnSummary | None:
        i = self.chooser.currentIndex()
        return self.summaries[i] if 0 <= i < len(self.summaries) else None
