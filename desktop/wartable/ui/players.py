"""Seats at the table (issue 7): who plays which command, by what name, in what colour.

The start screen's choice is kept in the game's options, so a save reopens seated alike:
- "table.seats": side -> player name (one name per side; sides with one name share a seat),
- "table.commands": command -> player name (when a split of the game's commands was chosen,
  e.g. 1940's four players [1.3]; model/seats.py),
- "table.colours": player name -> "#rrggbb", the seat's colour (the curtain, the side panel;
  counters keep their side's colour). By default a seat takes its side's colour from the
  game's data (the first side it plays); a second seat of the same side (1940's German west
  and east commanders [1.3]) a distinct shade of it,
- "table.split": the number of players of the chosen split,
- "table.bots": side -> bot level, or with a split command -> level for every command of
  a seat given to the bot (ui/botplayer.py plays them).
Older saves have only "table.seats" (or nothing): one seat per side, in its side's colour.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QColorDialog,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QWidget,
)

from wartable.engine.rules import Game
from wartable.model.definition import GameDefinition
from wartable.model.state import GameState
from wartable.worker.commands import Snapshot

# Distinct seat colours, readable with white text (the curtain's title sits on dark grey).
SEAT_COLOURS = ("#2f6fd0", "#d0452f", "#2e9e4f", "#c78a14", "#8a4fc7", "#1c9aa6")
FREE = 0  # the split combo's "one name per side" entry


def seat_colour(i: int) -> str:
    """A colour by seat order: for a seat with no side colour to take."""
    return SEAT_COLOURS[i % len(SEAT_COLOURS)]


def shade(colour: str, k: int) -> str:
    """The k-th distinct shade of `colour` (0: itself): darker for a light colour, lighter
    for a dark one, so two seats of one side stay told apart."""
    c = QColor(colour)
    if k <= 0:
        return c.name()
    return (c.darker(100 + 45 * k) if c.lightness() > 100 else c.lighter(140 + 45 * k)).name()


def seat_colours(definition: GameDefinition, seat_sides: Sequence[str]) -> list[str]:
    """Each seat's default colour: its side's colour in the game's data, a further shade for
    each earlier seat of the same side (`seat_sides`: the side each seat plays first)."""
    out: list[str] = []
    for i, sid in enumerate(seat_sides):
        side = next((s for s in definition.sides if s.id == sid), None)
        if side is None:
            out.append(seat_colour(i))
            continue
        out.append(shade(side.colour, seat_sides[:i].count(sid)))
    return out


@dataclass(frozen=True)
class Seating:
    """Who sits where: each command's player, each player's colour."""

    players: Mapping[str, str]  # command id (the side's id where none) -> player name
    command_names: Mapping[str, str]  # command id -> what the player reads
    command_sides: Mapping[str, str]  # command id -> its side
    colours: Mapping[str, str]  # player -> colour
    solitaire: bool

    @staticmethod
    def of(definition: GameDefinition, options: Mapping[str, Any]) -> Seating:
        ps = definition.players
        commands = [(c.id, c.name, c.side) for c in ps.commands] if ps else []
        for s in definition.sides:  # sides without a command of their own play as one
            if not any(side == s.id for _, _, side in commands):
                commands.append((s.id, s.name, s.id))
        seats = dict(options.get("table.seats") or {})
        for i, s in enumerate(definition.sides, 1):  # older saves and the CLI
            seats.setdefault(s.id, f"Player {i}")
        chosen = dict(options.get("table.commands") or {})
        players = {cid: str(chosen.get(cid) or seats[side]) for cid, _, side in commands}
        firsts: dict[str, str] = {}  # player -> the side of the first command held
        for cid, _, side in commands:
            firsts.setdefault(players[cid], side)
        colours = dict(zip(firsts, seat_colours(definition, list(firsts.values())),
                           strict=True))
        colours.update({str(k): str(v) for k, v in dict(options.get("table.colours") or {})
                        .items()})
        return Seating(players, {c: n for c, n, _ in commands},
                       {c: side for c, _, side in commands}, colours,
                       bool(options.get("table.solitaire", False)))

    def player_for(self, game: Game, state: GameState, side: str) -> str:
        """The player who decides for `side` now (by the rules' command_of hook)."""
        cid = game.rules.command_of(game, state, side)
        if cid in self.players:
            return self.players[cid]
        return next((p for c, p in self.players.items() if self.command_sides[c] == side), side)

    def sides_of(self, player: str | None) -> frozenset[str]:
        """The sides whose secrets `player` may see (every side of every command held)."""
        return frozenset(self.command_sides[c] for c, p in self.players.items() if p == player)

    def plays(self, player: str) -> str:
        """What `player` commands, as read: "German west commander and Soviet"."""
        return " and ".join(self.command_names[c] for c, p in self.players.items()
                            if p == player)

    def colour(self, player: str) -> str:
        return self.colours.get(player, SEAT_COLOURS[0])


def _luminance(c: QColor) -> float:
    """Relative luminance (WCAG 2): how light a colour looks."""
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF())


def on_dark(colour: str, ground: str = "#20262e") -> str:
    """`colour`, lightened until it reads as large text on the dark `ground` (contrast 3,
    WCAG AA for large text): a dark side colour (A&A's Soviet red) still titles the
    curtain legibly; a colour that reads already is kept as chosen."""
    c, bg = QColor(colour), _luminance(QColor(ground))
    for _ in range(12):
        if (_luminance(c) + 0.05) / (bg + 0.05) >= 3.0:
            break
        c = QColor.fromHslF(max(0.0, c.hslHueF()), c.hslSaturationF(),
                            min(1.0, c.lightnessF() + 0.08))
    return c.name()


def text_on(colour: str) -> str:
    """Black or white, whichever contrasts more with `colour` (WCAG contrast ratio): the
    sides' mid greys and tans read in black, their dark reds and greens in white."""
    lum = _luminance(QColor(colour))
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


class ColourButton(QPushButton):
    """A button showing a seat's colour; clicking opens a colour dialog."""

    changed = Signal(str)

    def __init__(self, colour: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFixedWidth(48)
        self.clicked.connect(self._choose)
        self.set_colour(colour)

    def set_colour(self, colour: str) -> None:
        self.colour = QColor(colour).name()
        self.setText("")  # a swatch, not a hex code (issue 16); the code is in the tooltip
        self.setAccessibleName(f"Seat colour {self.colour}")
        self.setToolTip(f"{self.colour}: the seat's colour: the curtain, the side panel and "
                        "the log mark this player with it (counters keep their side's colour)")
        self.setStyleSheet(f"background: {self.colour}; border: 1px solid #555;"
                           "border-radius: 3px;")
        self.changed.emit(self.colour)

    def _choose(self) -> None:
        c = QColorDialog.getColor(QColor(self.colour), self, "Seat colour")
        if c.isValid():
            self.set_colour(c.name())


class SplitEditor(QWidget):
    """The game's player-count splits [1.3]: one name and colour per seat. Its "one name
    per side" entry hands back to the start screen's free naming."""

    modeChanged = Signal(bool)  # True: a split is chosen (the free rows hide)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("splitEditor")
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.combo = QComboBox()
        self.combo.setObjectName("splitCombo")
        self.combo.currentIndexChanged.connect(self._split_changed)
        self.form.addRow("Players", self.combo)
        self.definition: GameDefinition | None = None
        self.seat_edits: list[QLineEdit] = []
        self.seat_colours: list[ColourButton] = []
        self.seat_bots: list[QComboBox] = []  # per seat: Human or a bot level (issue 7)
        self.bot_levels: tuple[tuple[str, str], ...] = ()
        # The name a seat starts with: the start screen remembers last game's (issue 16).
        self.default_name: Callable[[int], str] = lambda i: f"Player {i + 1}"
        self.hide()

    def set_definition(self, d: GameDefinition,
                       bot_levels: tuple[tuple[str, str], ...] = ()) -> None:
        """`bot_levels` (level, text): a seat may be played by the bot, which then plays
        all of the seat's commands."""
        self.definition = d
        self.bot_levels = bot_levels
        ps = d.players
        self.combo.blockSignals(True)
        self.combo.clear()
        if ps is not None:
            for s in ps.splits:
                rule = f" [{s.rule}]" if s.rule else ""
                self.combo.addItem(s.name + rule, s.players)
        self.combo.addItem("One name per side (sides with one name share a seat)", FREE)
        self.combo.setCurrentIndex(self.combo.count() - 1)
        self.combo.blockSignals(False)
        self.setVisible(ps is not None and bool(ps.splits))
        self._split_changed()

    def set_split(self, players: int) -> None:
        i = self.combo.findData(players)
        if i >= 0:
            self.combo.setCurrentIndex(i)

    def split(self) -> int:
        return int(self.combo.currentData() or FREE)

    def _split_changed(self) -> None:
        while self.form.rowCount() > 1:
            self.form.removeRow(1)
        self.seat_edits, self.seat_colours, self.seat_bots = [], [], []
        d, n = self.definition, self.split()
        if d is not None and d.players is not None and n != FREE:
            ps = d.players
            seats = ps.split(n).seats
            defaults = seat_colours(d, [ps.command(seat[0]).side for seat in seats])
            for i, seat in enumerate(seats):
                row = QWidget()
                lay = QHBoxLayout(row)
                lay.setContentsMargins(0, 0, 0, 0)
                edit = QLineEdit(self.default_name(i))
                edit.setObjectName(f"seat_{i}")
                colour = ColourButton(defaults[i])
                colour.setObjectName(f"seatColour_{i}")
                lay.addWidget(edit, 1)
                lay.addWidget(colour)
                if self.bot_levels:
                    bot = QComboBox()
                    bot.setObjectName(f"seatBot_{i}")
                    bot.setToolTip("Who plays this seat: a person, or the bot at a level "
                                   "(it plays all the seat's commands)")
                    bot.addItem("Human", "")
                    for lvl, text in self.bot_levels:
                        bot.addItem(text, lvl)
                    lay.addWidget(bot)
                    self.seat_bots.append(bot)
                self.form.addRow(" + ".join(ps.command(c).name for c in seat), row)
                self.seat_edits.append(edit)
                self.seat_colours.append(colour)
        self.modeChanged.emit(n != FREE)

    def set_enabled_seats(self, on: bool) -> None:
        for w in (*self.seat_edits, *self.seat_colours, self.combo):
            w.setEnabled(on)

    def table_options(self) -> dict[str, object]:
        """The chosen split's seats as table options (empty with one name per side)."""
        d, n = self.definition, self.split()
        if d is None or d.players is None or n == FREE:
            return {}
        names = [e.text().strip() or f"Player {i + 1}" for i, e in enumerate(self.seat_edits)]
        split = d.players.split(n)
        commands = {c: names[i] for i, seat in enumerate(split.seats) for c in seat}
        seats: dict[str, str] = {}
        for side in d.side_ids:  # the side's seat: its senior command's (or its only one)
            own = [c for c in d.players.commands if c.side == side]
            head = next((c for c in own if c.senior), own[0] if own else None)
            if head is not None:
                seats[side] = commands[head.id]
        colours: dict[str, str] = {}
        for name, b in zip(names, self.seat_colours, strict=True):
            colours.setdefault(name, b.colour)
        out: dict[str, object] = {"table.split": n, "table.commands": commands,
                                  "table.seats": seats, "table.colours": colours}
        bots = {c: str(b.currentData())  # a seat's bot plays all its commands
                for b, seat in zip(self.seat_bots, split.seats, strict=False)  # none: no bot
                for c in seat if b.currentData()}
        if bots:
            out["table.bots"] = bots
        return out


def name_row(*widgets: QWidget) -> QWidget:
    """A player's row: the name field (stretching), then its colour and other choices."""
    row = QWidget()
    lay = QHBoxLayout(row)
    lay.setContentsMargins(0, 0, 0, 0)
    for i, w in enumerate(widgets):
        lay.addWidget(w, 1 if i == 0 else 0)
    return row


def top_sides(snap: Snapshot, viewer: frozenset[str] | None) -> frozenset[str]:
    """The sides whose units the stack inspector may put on top now: the seated player's
    (every side in solitaire), in a game with the choice (Rules.stack_tops_open)."""
    g, st = snap.session.game, snap.session.state
    if snap.prompt.finished or not g.rules.stack_tops_open(g, st):
        return frozenset()
    return frozenset(g.definition.side_ids) if viewer is None else viewer
