"""The start screen: installed games and their scenarios, recent saves, open a file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from wartable.games import registry
from wartable.model.definition import GameDefinition
from wartable.persistence.gamedata import game_definition
from wartable.ui.botplayer import BOT_GAMES
from wartable.ui.botplayer import LEVELS as BOT_LEVELS
from wartable.ui.players import ColourButton, SplitEditor, name_row, seat_colour, seat_colours
from wartable.ui.widgets import discard


class StartScreen(QWidget):
    # game id, scenario id, seed, dice mode, table options (seats per side, solitaire)
    startRequested = Signal(str, str, str, str, object)
    openRequested = Signal(object)  # Path, or None for "choose a file"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("startScreen")
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        col = QVBoxLayout()
        outer.addLayout(col, 3)
        outer.addStretch(1)
        title = QLabel("Wartable")
        f = title.font()
        f.setPointSizeF(f.pointSizeF() * 2.4)
        f.setBold(True)
        title.setFont(f)
        col.addWidget(title)
        col.addWidget(QLabel("Historical board wargames at the table: face to face, solitaire, "
                             "or prepared on paper."))

        self.notice = QLabel()
        self.notice.setObjectName("startNotice")
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("background:#fff3cd; border:1px solid #e0c36a; padding:6px;")
        self.notice.hide()
        col.addWidget(self.notice)

        games = QGroupBox("New game")
        gl = QVBoxLayout(games)
        self.games = QListWidget()
        self.games.setObjectName("gameList")
        self.games.currentItemChanged.connect(self._game_changed)
        gl.addWidget(self.games, 1)
        form = QFormLayout()
        self.scenario = QComboBox()
        self.scenario.setObjectName("scenarioCombo")
        self.scenario.currentIndexChanged.connect(self._scenario_changed)
        form.addRow("Scenario", self.scenario)
        self.description = QLabel()
        self.description.setWordWrap(True)
        form.addRow("", self.description)
        self.seed = QLineEdit("1")
        self.seed.setObjectName("seedEdit")
        self.seed.setToolTip("The same seed gives the same dice rolls.")
        form.addRow("Seed", self.seed)
        self.dice = QComboBox()
        self.dice.setObjectName("diceCombo")
        self.dice.addItem("Computer dice", "digital")
        self.dice.addItem("Physical dice (type each roll)", "physical")
        form.addRow("Dice", self.dice)
        gl.addLayout(form)
        self.options_box = QGroupBox("Rule options")
        self.options_layout = QVBoxLayout(self.options_box)
        self.option_checks: dict[str, QCheckBox] = {}
        gl.addWidget(self.options_box)
        self.players_box = QGroupBox("Players (face to face: one name per seat)")
        self.players_form = QFormLayout(self.players_box)
        self.solitaire = QCheckBox("Solitaire: I play every side, with open information")
        self.solitaire.setObjectName("solitaire")
        self.solitaire.toggled.connect(self._solitaire_toggled)
        self.players_form.addRow(self.solitaire)
        # The game's player-count splits [1.3] (players.py); hidden for games without.
        self.split_editor = SplitEditor()
        self.remembered: tuple[str, ...] = ()  # the names last typed (settings)
        self.split_editor.default_name = self.default_name
        self.split_editor.modeChanged.connect(self._split_mode)
        self.players_form.addRow(self.split_editor)
        self.colour_buttons: dict[str, ColourButton] = {}  # side -> its seat's colour
        self.player_edits: dict[str, QLineEdit] = {}
        self.bot_combos: dict[str, QComboBox] = {}  # side -> who plays it (bot games only)
        gl.addWidget(self.players_box)
        self.start = QPushButton("Start game")
        self.start.setObjectName("startButton")
        self.start.setDefault(True)
        self.start.clicked.connect(self._start)
        gl.addWidget(self.start)
        col.addWidget(games, 3)

        recent = QGroupBox("Recent games")
        rl = QVBoxLayout(recent)
        self.recent = QListWidget()
        self.recent.setObjectName("recentList")
        self.recent.itemActivated.connect(
            lambda it: self.openRequested.emit(Path(it.data(Qt.ItemDataRole.UserRole))))
        rl.addWidget(self.recent)
        open_btn = QPushButton("Open a saved game…")
        open_btn.setObjectName("openButton")
        open_btn.clicked.connect(lambda: self.openRequested.emit(None))
        rl.addWidget(open_btn)
        col.addWidget(recent, 2)
        self.refresh_games()

    def default_name(self, i: int) -> str:
        """Seat i's name to start with: the one typed last time, else "Player i+1"."""
        return self.remembered[i] if i < len(self.remembered) else f"Player {i + 1}"

    def remember_names(self, names: Sequence[str]) -> None:
        """The names to offer (settings.player_names); the rows show them from now on."""
        self.remembered = tuple(names)
        for i, e in enumerate(self.split_editor.seat_edits):
            e.setText(self.default_name(i))
        for i, e in enumerate(self.player_edits.values()):
            e.setText(self.default_name(i))

    def refresh_games(self, default_game: str = "") -> None:
        self.games.clear()
        mods = registry.installed()
        for m in mods:
            it = QListWidgetItem(m.title)
            it.setData(Qt.ItemDataRole.UserRole, m.id)
            self.games.addItem(it)
            if m.id == default_game:
                self.games.setCurrentItem(it)
        if mods and self.games.currentItem() is None:
            self.games.setCurrentRow(0)
        self.start.setEnabled(bool(mods))
        if not mods:
            self.description.setText("No games are installed in this build.")

    def set_recent(self, paths: Sequence[str]) -> None:
        self.recent.clear()
        for p in paths:
            it = QListWidgetItem(f"{Path(p).name}  —  {Path(p).parent}")
            it.setData(Qt.ItemDataRole.UserRole, p)
            it.setToolTip(p)
            self.recent.addItem(it)

    def show_notice(self, text: str) -> None:
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def selected_game(self) -> str:
        """The id of the game chosen in the list, or ""."""
        it = self.games.currentItem()
        return str(it.data(Qt.ItemDataRole.UserRole)) if it is not None else ""

    def _game_changed(self) -> None:
        self.scenario.clear()
        it = self.games.currentItem()
        if it is None:
            return
        try:
            d = game_definition(it.data(Qt.ItemDataRole.UserRole))
        except Exception as e:  # noqa: BLE001 - a broken data file must not close the app
            self.description.setText(f"This game cannot be loaded: {e}")
            self.start.setEnabled(False)
            return
        self.start.setEnabled(True)
        for sc in d.scenarios.values():
            self.scenario.addItem(sc.name, sc.id)
        self.split_editor.set_definition(d, BOT_LEVELS if d.id in BOT_GAMES else ())
        self._fill_players([(s.id, s.name) for s in d.sides], d.id in BOT_GAMES,
                           seat_colours(d, d.side_ids))
        self._fill_options(d)

    def _fill_options(self, d: GameDefinition) -> None:
        for c in self.option_checks.values():
            discard(c)
        self.option_checks = {}
        for o in d.options:
            if not isinstance(o.default, bool):
                continue  # non-yes/no options get their own editor with the game
            rule = f" [{o.rule}]" if o.rule else ""
            c = QCheckBox(f"{o.name}{rule}".replace("&", "&&"))  # "&" is no shortcut
            c.setObjectName(f"option_{o.id}")
            c.setChecked(o.default)
            c.setToolTip(o.description)
            self.options_layout.addWidget(c)
            self.option_checks[o.id] = c
        self.options_box.setVisible(bool(self.option_checks))

    def _fill_players(self, sides: list[tuple[str, str]], bots: bool = False,
                      colours: list[str] | None = None) -> None:
        """One name per side; sides given the same name share a seat (e.g. one player
        with both Axis powers). `bots`: each side may be played by the bot (issue 7).
        `colours`: each side's seat colour to start with (its side's colour in the data)."""
        while self.players_form.rowCount() > 2:  # keep solitaire and the splits
            self.players_form.removeRow(2)
        self.player_edits = {}
        self.colour_buttons = {}
        self.bot_combos = {}
        for i, (sid, name) in enumerate(sides, 1):
            edit = QLineEdit(self.default_name(i - 1))
            edit.setObjectName(f"player_{sid}")
            self.player_edits[sid] = edit
            colour = ColourButton(colours[i - 1] if colours else seat_colour(i - 1))
            colour.setObjectName(f"playerColour_{sid}")
            self.colour_buttons[sid] = colour
            if not bots:
                self.players_form.addRow(name, name_row(edit, colour))
                continue
            row = QWidget()
            lay = QHBoxLayout(row)
            lay.setContentsMargins(0, 0, 0, 0)
            combo = QComboBox()
            combo.setObjectName(f"bot_{sid}")
            combo.setToolTip("Who plays this side: a person, or the bot at a level")
            combo.addItem("Human", "")
            for lvl, text in BOT_LEVELS:
                combo.addItem(text, lvl)
            lay.addWidget(edit, 1)
            lay.addWidget(colour)
            lay.addWidget(combo)
            self.players_form.addRow(name, row)
            self.bot_combos[sid] = combo
        self._split_mode(self.split_editor.split() != 0)

    def _split_mode(self, on: bool) -> None:
        """A chosen split names the seats; one name per side shows the side rows."""
        for row in range(2, self.players_form.rowCount()):
            self.players_form.setRowVisible(row, not on)
        self._solitaire_toggled(self.solitaire.isChecked())

    def _solitaire_toggled(self, on: bool) -> None:
        for e in (*self.player_edits.values(), *self.colour_buttons.values()):
            e.setEnabled(not on)
        self.split_editor.set_enabled_seats(not on)

    def table_options(self) -> dict[str, object]:
        seats = {sid: (e.text().strip() or sid) for sid, e in self.player_edits.items()}
        rules = {oid: c.isChecked() for oid, c in self.option_checks.items()}
        colours: dict[str, str] = {}
        for sid, b in self.colour_buttons.items():  # a shared seat keeps its first colour
            colours.setdefault(seats[sid], b.colour)
        out = {**rules, "table.seats": seats, "table.solitaire": self.solitaire.isChecked(),
               "table.colours": colours}
        bots = {sid: c.currentData() for sid, c in self.bot_combos.items() if c.currentData()}
        if bots:
            out["table.bots"] = bots
        if self.split_editor.split():  # a chosen split's seats [1.3] and seat bots
            out.pop("table.bots", None)
            out.update(self.split_editor.table_options())
        return out

    def _scenario_changed(self) -> None:
        it = self.games.currentItem()
        sid = self.scenario.currentData()
        if it is None or sid is None:
            return
        d = game_definition(it.data(Qt.ItemDataRole.UserRole))
        sc = d.scenarios[sid]
        self.description.setText(f"{sc.description}\n{sc.turns_text()}.")

    def _start(self) -> None:
        it = self.games.currentItem()
        if it is None or self.scenario.currentData() is None:
            return
        self.startRequested.emit(it.data(Qt.ItemDataRole.UserRole), self.scenario.currentData(),
                                 self.seed.text().strip() or "1", self.dice.currentData(),
                                 self.table_options())
