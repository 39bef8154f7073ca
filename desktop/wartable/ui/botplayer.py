"""The bots in the app (issue 7): bot-played powers, their turn summary, hints.

A game with a bot registers it with the game (games/registry.py, `GameModule.bot`: its
play and hint functions): Axis & Allies Anniversary and 1940: What If? have one.
Which sides the bot plays comes from the game's table options ("table.bots": side or
command -> "fast" | "strong", chosen on the start screen; a command [1.3, e.g. 1940's
"german_west"] when a seat of a player split is given to the bot) and from the Game menu's
toggle for the side now deciding. When such a side is to decide, the bot's next action is
worked out on the analysis thread (a `Query`, so the GUI never waits) under a time limit
per turn, and sent back as an ordinary `Submit`: the log, undo and autosave see a normal
action. The reasons the bot gives go to the log panel as it plays (kind "bot"; they are not
part of the saved game) and are gathered per turn for the "Bot" dock, shown when its turn
ends. Game > Hint asks the strong bot for the deciding human's next action and shows it
without playing it (a move's destination is highlighted on the map); while a roll is to be
typed in (physical dice), Hint says what the roll decides and its chances instead
(ui/dicehint.py). With physical dice the bot waits for the roll to be typed in.
The bot seats chosen during play are sent to the worker (`SetTable`), so saves, autosaves
and crash recovery keep them (persistence/savefile.py, field "bots").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from wartable.core.frozen import FrozenMap
from wartable.core.rng import Rng
from wartable.engine.actions import Action, Event
from wartable.engine.bots import Bot
from wartable.engine.loop import deciding_side
from wartable.engine.session import Session
from wartable.games.registry import installed
from wartable.model.values import freeze
from wartable.ui.dicehint import DiceHint, dice_hint
from wartable.ui.logpanel import LogPanel
from wartable.worker.commands import Failure, Query, QueryResult, SetTable, Snapshot, Submit

LEVELS = (("strong", "Strong bot"), ("fast", "Fast bot"))
TURN_SECONDS = 20.0  # the bot's time limit per turn (the strong level's planning)
HINT_SECONDS = 10.0
HINT_WIDTH = 420  # px: the Bot dock's width when it shows a hint
HINT_KIND = "hint"  # the map views' highlight set for a hinted move's destination
SECRET_REASONS = "The bot's reasons stay with its side: the game has hidden information."

def _bot(game_id: str) -> Bot | None:
    """The game's registered bot (games/registry.py), None for a game without one."""
    for m in installed():
        if m.id == game_id and m.bot is not None:
            return m.bot()
    return None


BOT_GAMES = frozenset(m.id for m in installed() if m.bot is not None)  # the games with a bot


def bot_levels(options: Any) -> dict[str, str]:
    """The bot-played sides (or commands [1.3]) in a game's options ("table.bots")."""
    raw = options.get("table.bots") if options is not None else None
    if not raw:
        return {}
    return {str(k): str(v) for k, v in dict(raw).items() if str(v) in dict(LEVELS)}


def describe_action(session: Session, action: Action) -> str:
    """An action as a player reads it ("Move Infantry (Germany) from X to Y", "Buy Tank"),
    worded by the game (Rules.describe_action): the bot player knows no game's verbs."""
    return session.game.rules.describe_action(session.game, session.state, action)


def hint_target(action: Action) -> str:
    """Where a hinted action points on the map: a move's destination, an attack's target."""
    a = action.args
    return str(a.get("to") or a.get("target") or "")


def _bot_step(game_id: str, level: str, seconds_left: float) -> Callable[..., Any]:
    """The query: the bot's next action and its reason, on the analysis thread."""
    deadline = time.monotonic() + max(0.5, seconds_left)
    bot = _bot(game_id)
    assert bot is not None, game_id  # only games in BOT_GAMES get bot seats
    play = bot.play

    def run(session: Session, report: Callable[[int, str], None],
            cancelled: Callable[[], bool]) -> tuple[Action, str]:
        pos = session.game.positions[session.state.step_index]
        report(0, f"{session.game.definition.side(deciding_side(session.state)).name}'s bot: "
                  f"{pos.step.name}…")
        action, _rng, why = play(
            session, Rng.from_seed(f"bot:{session.state.serial}"), level,
            lambda: not cancelled() and time.monotonic() < deadline)
        return action, why

    return run


def _hint(session: Session, report: Callable[[int, str], None],
          cancelled: Callable[[], bool]) -> tuple[Action, str, str] | DiceHint | None:
    dice = dice_hint(session)
    if dice is not None:  # a roll to type in: what it decides, not a move (issue 7)
        return dice
    report(0, "The strong bot looks for a hint…")
    deadline = time.monotonic() + HINT_SECONDS
    bot = _bot(session.game.definition.id)
    found = None if bot is None else bot.hint(
        session, lambda: not cancelled() and time.monotonic() < deadline)
    if found is None:
        return None
    return found[0], found[1], describe_action(session, found[0])


class BotPanel(QWidget):
    """The bot's last turn: whose, and its reasons; or what it is doing now."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("botPanel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.status = QLabel("No power is played by the bot.")
        self.status.setObjectName("botStatus")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        self.text = QTextBrowser()
        self.text.setObjectName("botSummary")
        lay.addWidget(self.text, 1)

    def show_summary(self, title: str, reasons: list[str]) -> None:
        items = "".join(f"<li>{_esc(r)}</li>" for r in reasons) or \
            "<li>Nothing worth explaining: it ended its steps.</li>"
        self.text.setHtml(f"<h3>{_esc(title)}</h3><ul>{items}</ul>")

    def show_hint(self, text: str, why: str) -> None:
        extra = f"<p><i>{_esc(why)}</i></p>" if why else ""
        self.text.setHtml(f"<h3>Hint (strong bot)</h3><p><b>{_esc(text)}</b></p>{extra}"
                          "<p>Not played: make the move yourself, or another.</p>")

    def show_dice_hint(self, hint: DiceHint) -> None:
        rows = "".join(f"</ul><p>{_esc(line)}</p><ul>" if line.endswith(":")  # a heading
                       else f"<li>{_esc(line)}</li>" for line in hint.lines)
        self.text.setHtml(f"<h3>Hint: the roll asked for</h3><p><b>{_esc(hint.title)}</b></p>"
                          f"<ul>{rows}</ul><p>Roll the dice and type them in.</p>")


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class BotPlayer(QObject):
    """Plays the bot's powers through the window's engine client; owns the Bot dock."""

    def __init__(self, window: QMainWindow, client: Any, log: LogPanel | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.client = client
        self.log = log  # the bot's reasons also go to the log panel (not to the save)
        # May the player at the screen read `side`'s secrets? (The window says, from its
        # seating; with hidden information a bot's reasons are its side's secrets [7.3].)
        self.may_read: Callable[[str], bool] = lambda side: True
        self.submitted: int | None = None  # the bot's last action sent to the engine
        self.levels: dict[str, str] = {}  # side or command id -> level
        self.turn_level = ""  # the level of the bot that played in the current turn
        self.panel = BotPanel()
        self.dock = QDockWidget("Bot", window)
        self.dock.setObjectName("dock_Bot")
        self.dock.setWidget(self.panel)
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)
        # A tab beside the A&A turn summary, where a player looks after a turn.
        other = window.findChild(QDockWidget, "dock_Turn summary")
        if other is not None:
            window.tabifyDockWidget(other, self.dock)
        self.dock.hide()
        self.snapshot: Snapshot | None = None
        self._seen_options: object = None  # the game options the bot seats were read from
        self.pending: int | None = None  # the bot-move query in flight
        self.hint_request: int | None = None
        self.last_hint: tuple[Action, str, str] | None = None
        self.last_dice_hint: DiceHint | None = None  # Hint at a dice prompt (issue 7)
        self.turn_key: tuple[int, str] = (-1, "")
        self.turn_deadline = 0.0
        self.reasons: list[str] = []
        self.summaries: list[tuple[str, list[str]]] = []  # every finished bot turn
        self.error = ""
        self.act_bot: QAction | None = None
        self.act_hint: QAction | None = None
        self.level_group: QActionGroup | None = None
        client.snapshotReady.connect(self.on_snapshot)
        client.queryDone.connect(self.on_result)
        client.failed.connect(self.on_failure)

    # --- menu --------------------------------------------------------------------
    def add_actions(self, menu: QMenu) -> None:
        """Game menu: the bot plays the deciding power (on/off), its level, and Hint."""
        menu.addSeparator()
        self.act_bot = QAction("Bot &Plays This Power", self.window)
        self.act_bot.setObjectName("actBotPlays")
        self.act_bot.setCheckable(True)
        self.act_bot.triggered.connect(self.toggle_current)
        menu.addAction(self.act_bot)
        sub = menu.addMenu("Bot &Level")
        self.level_group = QActionGroup(self.window)
        for lvl, text in LEVELS:
            a = QAction(text, self.window)
            a.setObjectName(f"actBotLevel_{lvl}")
            a.setCheckable(True)
            a.setData(lvl)
            a.setChecked(lvl == "strong")
            self.level_group.addAction(a)
            sub.addAction(a)
        self.act_hint = QAction("&Hint", self.window)
        self.act_hint.setObjectName("actHint")
        self.act_hint.setShortcut("Ctrl+H")
        self.act_hint.triggered.connect(self.ask_hint)
        menu.addAction(self.act_hint)
        menu.addAction(self.dock.toggleViewAction())
        self._update_actions()

    def level(self) -> str:
        a = self.level_group.checkedAction() if self.level_group else None
        return str(a.data()) if a is not None else "strong"

    def _available(self) -> bool:
        s = self.snapshot
        return s is not None and s.session.game.definition.id in BOT_GAMES \
            and s.session.state.result is None

    def _key(self, session: Session, side: str) -> str:
        """The "table.bots" key deciding for `side` now: the deciding command [1.3] when a
        seat's commands were given to the bot, else the side."""
        g = session.game
        cid = g.rules.command_of(g, session.state, side)
        return cid if cid in self.levels else side

    def level_for(self, session: Session, side: str) -> str | None:
        """The bot level playing `side` now (None: a human decides)."""
        return self.levels.get(self._key(session, side))

    def _update_actions(self) -> None:
        ok = self._available()
        snap = self.snapshot
        botted = False
        if ok and snap is not None:
            botted = self.level_for(snap.session, deciding_side(snap.session.state)) is not None
        if self.act_bot is not None:
            self.act_bot.setEnabled(ok)
            self.act_bot.setChecked(botted)
        if self.act_hint is not None:  # a roll the bot waits for a person to type: hinted
            dice = snap is not None and snap.prompt.dice is not None
            self.act_hint.setEnabled(ok and (not botted or dice))

    def set_bot(self, side: str, level: str | None) -> None:
        """The bot plays `side` (or a command) at `level` (None: a human plays it)."""
        if level is None:
            self.levels.pop(side, None)
            self.pending = None
        else:
            self.levels[side] = level
            self.turn_deadline = time.monotonic() + TURN_SECONDS
        self.error = ""
        if self.snapshot is not None:  # kept with the game: saves and autosaves have it
            self.client.send(SetTable(FrozenMap({"table.bots": freeze(dict(self.levels))})))
        self._update_actions()
        self._schedule()

    def toggle_current(self) -> None:
        if not self._available() or self.snapshot is None:
            return
        session = self.snapshot.session
        side = deciding_side(session.state)
        key = self._key(session, side)
        self.set_bot(key, None if key in self.levels else self.level())

    # --- playing -----------------------------------------------------------------
    def refresh_seats(self, snap: Snapshot) -> None:
        """A new or loaded game (play, undo and the seats set during play keep the state's
        options object): its bot seats, as saved ("bots", or "table.bots"). The window
        calls this before it decides on the curtain; again here it changes nothing."""
        if snap.session.state.options is self._seen_options:
            return
        self._seen_options = snap.session.state.options
        self.levels = bot_levels(snap.session.options) \
            if snap.session.game.definition.id in BOT_GAMES else {}
        self.reasons, self.summaries, self.turn_key, self.error = [], [], (-1, ""), ""
        self.turn_level = ""
        self.panel.status.setText(self._seats_text(snap))
        self.dock.setVisible(bool(self.levels))

    def on_snapshot(self, snap: Snapshot) -> None:
        self.refresh_seats(snap)
        self.snapshot = snap
        self.pending = None  # any answer in flight is about an older position
        self._highlight("")  # a hint is about the position it was asked in
        st = snap.session.state
        key = (st.turn, st.active_side)
        if key != self.turn_key:
            self._turn_over(self.turn_key)
            self.turn_key = key
            self.turn_deadline = time.monotonic() + TURN_SECONDS
        self._update_actions()
        self._schedule()

    def _seats_text(self, snap: Snapshot) -> str:
        if not self.levels:
            return "No power is played by the bot."
        d = snap.session.game.definition

        def name(key: str) -> str:
            if key in d.side_ids:
                return d.side(key).name
            cmd = next((c for c in d.players.commands if c.id == key), None) \
                if d.players else None
            return cmd.name if cmd is not None else key

        return "Played by the bot: " + ", ".join(
            f"{name(s)} ({lvl})" for s, lvl in sorted(self.levels.items()))

    def _turn_over(self, key: tuple[int, str]) -> None:
        turn, side = key
        level, self.turn_level = self.turn_level, ""
        if not side or not level or self.snapshot is None:
            return  # the bot did not play in that turn
        name = self.snapshot.session.game.definition.side(side).name
        title = f"{name}, round {turn} — {level} bot"
        self.summaries.append((title, list(self.reasons)))
        shown = self.reasons if self.may_read(side) else [SECRET_REASONS]
        self.panel.show_summary(title, shown)
        self.panel.status.setText(f"{name}'s turn is over (played by the bot).")
        self.dock.show()
        self.dock.raise_()
        self.reasons = []

    def _schedule(self) -> None:
        QTimer.singleShot(0, self._maybe_move)

    def _maybe_move(self) -> None:
        snap = self.snapshot
        if snap is None or self.pending is not None or not self._available() or self.error:
            return
        if snap is not self.client.latest:
            return
        side = deciding_side(snap.session.state)
        level = self.level_for(snap.session, side)
        if level is None or snap.prompt.dice is not None:
            return  # a human decides, or types the bot's dice
        left = self.turn_deadline - time.monotonic()
        name = snap.session.game.definition.side(side).name
        self.panel.status.setText(f"{name} is played by the {level} bot: thinking…")
        self.dock.show()
        self.pending = self.client.send(
            Query("bot-move", _bot_step(snap.session.game.definition.id, level, left)))

    def on_result(self, res: QueryResult) -> None:
        if res.name == "bot-hint" and res.request == self.hint_request:
            self.hint_request = None
            if isinstance(res.value, DiceHint):
                self.last_dice_hint = res.value
                self.panel.show_dice_hint(res.value)
                self.panel.status.setText("The roll asked for: what it decides, and its odds.")
                self.window.statusBar().showMessage(f"Hint: {res.value.title}", 10000)
                self._show_wide()
                return
            self.last_hint = res.value
            if res.value is None:
                self.panel.show_hint("No hint: nothing to suggest here.", "")
            else:
                self.panel.show_hint(res.value[2], res.value[1])
                self.window.statusBar().showMessage(f"Hint: {res.value[2]}", 10000)
                self._highlight(hint_target(res.value[0]))
            self.panel.status.setText("Hint ready.")
            self._show_wide()
            return
        if res.name != "bot-move" or res.request != self.pending:
            return
        self.pending = None
        action, why = res.value
        snap = self.snapshot
        level = self.level_for(snap.session, action.side) if snap is not None else None
        if level is None:
            return  # a human took the power back while the bot was thinking
        own = snap is not None and action.side == snap.session.state.active_side
        if own:  # the bot plays this side's turn (not just a choice in another's turn)
            self.turn_level = level
        if why and snap is not None:
            if own:
                self.reasons.append(why)
            g, st = snap.session.game, snap.session.state
            self.panel.status.setText(why if self.may_read(action.side) else SECRET_REASONS)
            if self.log is not None:
                step = g.positions[st.step_index].step.name
                secret = action.side if g.rules.hidden_information(g, st) else ""
                self.log.append([Event("bot", f"Bot: {why}", action.side, "", st.turn, step,
                                       private_to=secret)])
        self.submitted = self.client.send(Submit(action))

    def on_failure(self, f: Failure) -> None:
        if f.request in (self.pending, self.submitted):
            self.pending = None
            self.error = f.message.splitlines()[0]
            self.panel.status.setText(f"The bot stopped: {self.error}")
        if f.request == self.hint_request:
            self.hint_request = None
            self.panel.status.setText(f"No hint: {f.message.splitlines()[0]}")

    def _show_wide(self) -> None:
        """Bring the dock forward, wide enough to read a hint's lines."""
        self.dock.show()
        self.dock.raise_()
        if not self.dock.isFloating() and self.dock.width() < HINT_WIDTH:
            self.window.resizeDocks([self.dock], [HINT_WIDTH], Qt.Orientation.Horizontal)

    def _highlight(self, loc: str) -> None:
        """Mark (or clear) a hint's place on the window's map views, where they have it."""
        for v in getattr(self.window, "views", ()):
            v.set_highlights([loc] if loc else [], HINT_KIND)

    def ask_hint(self) -> None:
        if not self._available():
            return
        self.last_hint = None
        self.last_dice_hint = None
        self.panel.status.setText("Looking for a hint…")
        self.dock.show()
        self.hint_request = self.client.send(Query("bot-hint", _hint))
