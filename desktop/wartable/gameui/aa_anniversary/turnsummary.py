"""Axis & Allies Anniversary: the per-power turn summary, read from the game's log events.

The facts come from each event's data (Event.data), never from its wording: rewording a log
line changes nothing here (tests/gameui/test_aa_panels_event_data.py).

Each power's turn (Order of Play, pg. 11) is the run of log events from its first phase
event to the next power's: what it bought (Phase 2), the battles it fought and how they
ended (Phase 4), the territories it captured or liberated, the territories it lost since
its previous turn, the IPCs it spent and collected (Phase 7) and the change of its
production level. Control is followed from the scenario's starting control through the
capture events, so the summary needs nothing but the log and the game's data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QVBoxLayout, QWidget

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Event
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.aa_anniversary.research import research_table
from wartable.games.aa_anniversary.steps import bombing
from wartable.games.aa_anniversary.steps.battle.forces import force_from_data
from wartable.games.aa_anniversary.steps.common import space_name, world
from wartable.games.aa_anniversary.steps.income import production
from wartable.gameui.aa_anniversary.battlerecord import battle_result_text
from wartable.ui.widgets import scrolled


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


def summarize(session: Session) -> list[TurnSummary]:
    """Every power's turn so far, oldest first."""
    game = session.game
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
        battle = _read_event(game, e, cur, battle, control, liberated, lost_since)
    if cur is not None:
        cur.production_after = prod()
    return out


def _read_event(game: Game, e: Event, cur: TurnSummary, battle: BattleLine | None,
                control: dict[str, str], liberated: dict[str, str],
                lost_since: dict[str, list[str]]) -> BattleLine | None:
    d = e.data
    side_name = game.definition.side
    if e.kind == "purchase" and e.side == cur.power:
        if "bought" in d or "researcher" in d:
            unit = str(d.get("bought", ""))
            name = game.definition.unit_types[unit].name if unit else "Researcher token"
            cur.bought[name] = cur.bought.get(name, 0) + 1
            cur.spent += int(d["cost"])
        elif "repair" in d:
            cur.other_purchases.append(
                f"{side_name(e.side).name} repairs {d['markers']} damage in "
                f"{space_name(game, d['repair'])} for {d['cost']} IPCs ({d['left']} left)")
        elif "china_infantry" in d:
            cur.other_purchases.append(
                f"China sets aside {d['china_infantry']} infantry ({d['free']} Chinese "
                f"territories free of the Axis)")
    elif e.kind == "income" and e.side == cur.power:
        if "income" in d:
            cur.income, cur.treasury = int(d["income"]), int(d["treasury"])
        elif "war_bonds" in d:
            cur.war_bonds += int(d["war_bonds"])
            cur.treasury = int(d["treasury"])
        elif "bonus" in d:
            cur.extra_income += int(d["bonus"])
            cur.treasury = int(d["treasury"])
    elif e.kind == "research" and e.side == cur.power and "developed" in d:
        cur.research.append(research_table(game).get(str(d["developed"])).name)
    elif e.kind == "combat":
        if d.get("battle") == "start":
            battle = BattleLine(space_name(game, d["space"]), _forces_text(game, d))
            cur.battles.append(battle)
        elif d.get("battle") == "end":
            if battle is not None and space_name(game, d["space"]) == battle.space \
                    and d["result"] != "no_attacker":
                battle.result = battle_result_text(game, d)
        elif "raid" in d or "rocket" in d:
            cur.raids.append(raid_text(game, d))
        elif d.get("how") == "destroyed":
            if battle is not None:
                if e.side == cur.power:
                    battle.attacker_lost += 1
                else:
                    battle.defender_lost += 1
        elif "liberated" in d:
            liberated[str(d["liberated"])] = str(d["owner"])
        elif "loot" in d:
            if e.side == cur.power:
                cur.loot += int(d["loot"])
        elif "captured" in d:
            sid, by = str(d["captured"]), str(d["by"])
            name = space_name(game, sid)
            owner = liberated.pop(sid, by)
            before = control.get(sid, "")
            control[sid] = owner
            frm = f" (from {side_name(before).name})" if before else ""
            how = " — liberated" if owner != by else ""
            if by == cur.power:
                cur.captured.append(f"{name}{frm}{how}")
            if before and before != owner:
                lost_since.setdefault(before, []).append(f"{name} (to {side_name(by).name})")
    return battle


def _forces_text(game: Game, d: FrozenMap[str, Any]) -> str:
    """ "1 Artillery, 4 Infantry attack 2 Infantry": the forces as the battle began."""
    cat = world(game).catalog
    return (f"{force_from_data(d['attacker']).describe(cat)} attack "
            f"{force_from_data(d['defender']).describe(cat)}")


def raid_text(game: Game, d: FrozenMap[str, Any]) -> str:
    """A strategic bombing raid's or a rocket's result, from its event's data."""
    if "rocket" in d:
        return (f"Rocket hits the industrial complex in {space_name(game, d['rocket'])}: "
                f"{d['rolled']} damage, {d['applied']} applied (cap {d['cap']})")
    name = space_name(game, d["raid"])
    if "rolled" not in d:
        return f"Raid on {name}: no bomber reaches the target"
    return (f"Raid on {name}: {d['rolled']} damage rolled, {d['applied']} applied "
            f"({d['markers']} of at most {d['cap']} markers now) [{bombing.R_DAMAGE}]")


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
