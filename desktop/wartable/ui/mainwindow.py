"""The main window: map, side panel, log, stack inspector and overview, menus, status bar.

All engine work goes through `EngineClient` (the worker thread); handlers here only
send commands and draw the snapshots that come back, so none takes more than a frame.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QPointF, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from wartable import __version__
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import (
    DICE,
    END_STEP,
    FREE_MOVE,
    SET_DICE_MODE,
    STACK_TOP,
    Action,
    Button,
    Prompt,
)
from wartable.engine.loop import deciding_side
from wartable.engine.notes import piece_notes
from wartable.games import registry
from wartable.maps.model import BoardMap, HexMap
from wartable.model.state import Piece
from wartable.model.values import freeze
from wartable.persistence import gamedata
from wartable.persistence import settings as settings_mod
from wartable.persistence.locations import saves_dir
from wartable.printing.counterart import Palette
from wartable.ui import helpdialogs
from wartable.ui.botplayer import BotPlayer
from wartable.ui.curtain import Curtain
from wartable.ui.dicedisplay import DiceDisplay
from wartable.ui.generic import KitPanels, KitView, uses_kit
from wartable.ui.logpanel import LogPanel
from wartable.ui.map.inspector import StackInspector
from wartable.ui.map.overview import OverviewMap
from wartable.ui.map.scale import ZOOM_PRESETS
from wartable.ui.map.tray import PlacementTray
from wartable.ui.map.view import MapView
from wartable.ui.mapeditor import MapEditor
from wartable.ui.overlays import OverlayLayer
from wartable.ui.players import Seating, top_sides
from wartable.ui.plugin import GameUi, UiContext, ui_for
from wartable.ui.sidepanel import SidePanel
from wartable.ui.startscreen import StartScreen
from wartable.ui.tableplay import TablePlay
from wartable.ui.underlay import UnderlayController
from wartable.ui.widgets import scrolled
from wartable.worker.commands import Failure, Load, NewGame, Redo, Save, Snapshot, Submit, Undo
from wartable.worker.engine_thread import EngineClient

if TYPE_CHECKING:
    from wartable.ui.printdialog import PrintDialog

TRAY_WIDTH = 190  # the placement tray's column, px
SAVE_FILTER = "Wartable saves (*.wartable.json *.wartable.json.gz *.json *.json.gz)"
ATTRIBUTION = (
    "Map geography: Natural Earth (public domain); GSHHG/WDBII rivers (LGPL-3).<br>"
    "Axis & Allies board facts cross-checked with the TripleA project's game files."
)


class MainWindow(QMainWindow):
    def __init__(self, autosave: bool = True, confirm_close: bool = True) -> None:
        super().__init__()
        self.setWindowTitle("Wartable")
        self.resize(1400, 900)
        self.confirm_close = confirm_close
        self._base_point_size = self.font().pointSizeF()
        self.settings, warning = settings_mod.load_settings()
        self.snapshot: Snapshot | None = None
        self.last_error = ""  # the last problem told to the player in a box (tests read it)
        self.free_play = False
        self._board_key: tuple[str, str] | None = None
        self._fit_pending = False
        self.clicked_location = ""  # the last space clicked on a map

        self.stack = QStackedWidget()
        self.start = StartScreen()
        # Scrollable so the window still fits small screens (and table-mode text sizes).
        self.start_scroll = scrolled(self.start)
        # One tab per map (1940: What If? has two); the tab bar hides for one map.
        self.map_tabs = QTabWidget()
        self.map_tabs.setObjectName("mapTabs")
        self.map_tabs.setDocumentMode(True)
        self.map_tabs.tabBar().setAutoHide(True)
        self.views: list[MapView] = []
        self.view_locations: list[frozenset[str]] = []
        self.overviews = QStackedWidget()
        self.underlays = UnderlayController(self)
        self.table = TablePlay(self)  # stacks, menus, the tray, loss warnings (issue 16)
        self._add_view()
        self.map_tabs.currentChanged.connect(self._tab_changed)
        self.dice_display = DiceDisplay(self.map_tabs)
        self.curtain = Curtain()
        self.seated: str | None = None  # the player now at the screen (hotseat)
        self.table_mode = False
        self._before_table: tuple[float, QPointF] | None = None  # the view table mode left
        self.stack.addWidget(self.start_scroll)
        self.stack.addWidget(self.map_tabs)
        self.stack.addWidget(self.curtain)
        self.setCentralWidget(self.stack)

        self.side = SidePanel()
        self.log = LogPanel()
        self.inspector = StackInspector()
        self.overview = self.overviews
        self.side_dock = self._dock(
            "Sequence of play", self.side, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.overview_dock = self._dock(
            "Overview", self.overview, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.inspector_dock = self._dock(
            "Stack", self.inspector, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.log_dock = self._dock("Log", self.log, Qt.DockWidgetArea.BottomDockWidgetArea)
        # The map editor (owners' corrections to terrain, hexsides, names): hidden until
        # chosen in the View menu; while shown it takes the mouse on the current map.
        self.map_editor = MapEditor()
        editor_scroll = scrolled(self.map_editor)  # its tools scroll, not stretch the window
        self.map_editor_dock = self._dock(
            "Map editor", editor_scroll, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.tabifyDockWidget(self.overview_dock, self.inspector_dock)
        # Units waiting to be placed (a game's placement boxes), beside the map (issue 16).
        self.tray = PlacementTray()
        self.tray_dock = self._dock("Units to place", self.tray,
                                    Qt.DockWidgetArea.LeftDockWidgetArea)
        self.tray_dock.hide()
        self.tray.pieceChosen.connect(self._tray_chosen)
        # The open game's own widgets (ui/plugin.py) and map overlays, made when it opens.
        self.game_ui: GameUi | None = None
        self.kit: KitPanels | None = None  # assisted play's generic panels (ui/generic)
        self._ui_game: object = None
        self.overlay_layers: list[OverlayLayer] = []
        # A tab beside the overview and the stack: it must not push the window taller.
        self.tabifyDockWidget(self.overview_dock, self.map_editor_dock)
        self.map_editor_dock.hide()
        self.map_editor_dock.visibilityChanged.connect(self._map_editor_shown)
        # Turning it on in the View menu brings its tab to the front.
        self.map_editor_dock.toggleViewAction().toggled.connect(
            lambda on: self.show_map_editor() if on else None)
        self.overview_dock.raise_()

        self.hover = QLabel()
        self.zoom_label = QLabel()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(160)
        self.progress.setRange(0, 0)
        self.progress.hide()
        self.statusBar().addWidget(self.hover, 1)
        self.statusBar().addPermanentWidget(self.progress)
        self.statusBar().addPermanentWidget(self.zoom_label)

        self._menus()
        # Threads start last: an error while building widgets must not leave them running.
        self.client = EngineClient(self, autosave_enabled=autosave)
        self._wire()
        # The bots: bot-played sides, their turn summaries and hints (after _wire, so the
        # window shows each snapshot before the bot answers it).
        self.bot = BotPlayer(self, self.client, self.log)
        self.bot.may_read = self._may_read
        self.bot.add_actions(self.game_menu)
        self.start.set_recent(self.settings.recent_files)
        self.start.remember_names(self.settings.player_names)
        self.start.refresh_games(self.settings.last_game or registry.DEFAULT_GAME)
        self._show_start()
        # Recompute the minimum size now the game docks are hidden: building them made the
        # layout ask for their height, and a small screen could not fit the start screen.
        layout = self.layout()
        if layout is not None:
            layout.invalidate()
            layout.activate()
        if warning:
            self.start.show_notice(warning)
        if self.settings.window_geometry:
            self.restoreGeometry(QByteArray.fromBase64(self.settings.window_geometry.encode()))

    # --- construction ----------------------------------------------------------
    def _dock(self, title: str, w: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(f"dock_{title}")
        d.setWidget(w)
        self.addDockWidget(area, d)
        return d

    def _act(
        self, menu: object, text: str, slot: object,
        shortcut: str | QKeySequence.StandardKey | None = None, name: str = ""
    ) -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        a.triggered.connect(slot)
        if name:
            a.setObjectName(name)
        menu.addAction(a)  # type: ignore[attr-defined]
        return a

    def _menus(self) -> None:
        mb = self.menuBar()
        m = mb.addMenu("&File")
        self._act(m, "&New Game…", self._show_start, QKeySequence.StandardKey.New, "actNew")
        self._act(m, "&Open…", lambda: self.open_dialog(), QKeySequence.StandardKey.Open, "actOpen")
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        m.addSeparator()
        self.act_save = self._act(m, "&Save", self.save, QKeySequence.StandardKey.Save, "actSave")
        self.act_save_as = self._act(
            m, "Save &As…", self.save_as, QKeySequence.StandardKey.SaveAs, "actSaveAs"
        )
        m.addSeparator()
        self.act_print = self._act(m, "&Print Setup Sheets…", lambda: self.print_dialog("setup"),
                                   QKeySequence.StandardKey.Print, "actPrint")
        self.act_charts = self._act(m, "Print &Charts…", lambda: self.print_dialog("charts"),
                                    None, "actPrintCharts")
        self.act_position = self._act(m, "Print Po&sition…",
                                      lambda: self.print_dialog("position"), None,
                                      "actPrintPosition")
        self.act_export = self._act(m, "&Export Map…", lambda: self.print_dialog("map"), None,
                                    "actExportMap")
        m.addSeparator()
        self._act(m, "&Quit", self.close, QKeySequence.StandardKey.Quit, "actQuit")

        m = mb.addMenu("&Edit")
        m.setToolTipsVisible(True)  # a greyed Undo says why (the barrier) on hover
        self.act_undo = self._act(m, "&Undo", self.undo, QKeySequence.StandardKey.Undo, "actUndo")
        self.act_redo = self._act(m, "&Redo", self.redo, QKeySequence.StandardKey.Redo, "actRedo")
        for a in (self.act_undo, self.act_redo):  # their text names the move; Help does not
            a.setProperty(helpdialogs.HELP_NAME, a.text())
        m.addSeparator()
        self.act_free = self._act(
            m, "&Free play (house rules)", self.side.free_play.toggle, None, "actFreePlay"
        )
        self.act_free.setCheckable(True)

        m = mb.addMenu("&View")
        # Lambdas: the current map is looked up when the action fires (tabs change it).
        self._act(m, "Zoom &In", lambda: self.map.zoom_in(), QKeySequence.StandardKey.ZoomIn,
                  "actZoomIn")
        self._act(m, "Zoom &Out", lambda: self.map.zoom_out(), QKeySequence.StandardKey.ZoomOut,
                  "actZoomOut")
        self._act(m, "&Fit to Window", lambda: self.map.fit(), "Ctrl+0", "actFit")
        zm = m.addMenu("&Zoom")
        for pct in ZOOM_PRESETS:
            self._act(zm, f"{pct} %", lambda _=False, p=pct: self.map.set_zoom(p))
        m.addSeparator()
        self._act(m, "F&ull Screen", self.toggle_full_screen, "F11", "actFullScreen")
        self.act_table = self._act(m, "&Table Mode (large text, full screen)",
                                   self.toggle_table_mode, "F10", "actTableMode")
        self.act_table.setCheckable(True)
        self.act_palette = self._act(
            m, "&Colour-blind palette", self.toggle_palette, None, "actPalette"
        )
        self.act_palette.setCheckable(True)
        self.act_palette.setChecked(self.settings.palette == "colourblind")
        m.addSeparator()
        self._act(m, "Scan &Underlay…", self.calibrate_underlay, None, "actUnderlay")
        self._act(m, "Show/Hide Scan Underla&y", self.toggle_underlay, None,
                  "actToggleUnderlay")
        self.view_menu = m
        # The game's overlays go above this separator, its docks and windows at the end.
        self._overlay_anchor = m.addSeparator()
        for d in (self.side_dock, self.log_dock, self.overview_dock, self.inspector_dock,
                  self.map_editor_dock):
            m.addAction(d.toggleViewAction())

        m = mb.addMenu("&Game")
        self.game_menu = m
        self.act_end = self._act(m, "&End Step", self.end_step, "Ctrl+Return", "actEndStep")
        self._game_anchor = m.addSeparator()  # the game's own commands go above it
        self.act_physical = self._act(m, "&Physical Dice (type each roll)",
                                      self.toggle_physical_dice, None, "actPhysicalDice")
        self.act_physical.setCheckable(True)
        self._act(m, "Rule &Tables (provisional values)…", self.rule_tables, None,
                  "actRuleTables")
        m = mb.addMenu("&Help")
        self._act(m, "How to &Play…", self.how_to_play, QKeySequence.StandardKey.HelpContents,
                  "actHowToPlay")
        self._act(m, "&Keyboard and Mouse…", self.show_shortcuts, None, "actShortcuts")
        m.addSeparator()
        self._act(m, "&About Wartable", self.about, None, "actAbout")

    def rule_tables(self) -> None:
        """Game → Rule Tables: type in the printed values (issue 5); for the open game, else
        the first installed game."""
        from wartable.ui.tablesdialog import TablesDialog

        gid = self.snapshot.session.game.definition.id if self.snapshot else None
        TablesDialog(gid, self).exec()

    def _wire(self) -> None:
        c = self.client
        c.snapshotReady.connect(self.on_snapshot)
        c.failed.connect(self.on_failure)
        c.busyChanged.connect(self.progress.setVisible)
        c.progress.connect(lambda _r, pct, text: self._progress(pct, text))
        self.start.startRequested.connect(self.new_game)
        self.curtain.ready.connect(self.take_seat)
        self.inspector.topRequested.connect(self.put_on_top)
        self.inspector.pieceSelected.connect(self.table.from_dock)
        self.start.openRequested.connect(self.open_dialog)
        self.side.buttonClicked.connect(self.on_button)
        self.side.diceEntered.connect(self.on_dice)
        self.side.freePlayToggled.connect(self._set_free_play)

        self._update_actions()

    # --- commands to the worker ------------------------------------------------
    def new_game(self, game_id: str, scenario: str, seed: str = "1",
                 dice_mode: str = "digital", table: dict[str, object] | None = None) -> None:
        """`table`: rule options plus the seats per side ("table.seats") and solitaire
        ("table.solitaire"), kept with the game's options so a save reopens seated alike."""
        if not self.save_before_leaving("starting a new game"):
            return
        self.seated = None
        self.client.send(NewGame(game_id, scenario, freeze(table or {}), seed, dice_mode))
        # The seats' names, in seat order, are offered again next time (issue 16).
        # (A split's commands come seat by seat; one name per side comes side by side.)
        t = table or {}
        seats = dict(t.get("table.commands") or t.get("table.seats") or {})  # type: ignore[call-overload]
        names = tuple(dict.fromkeys(str(n)[:settings_mod.MAX_NAME] for n in seats.values())
                      )[:settings_mod.MAX_PLAYERS]
        self.settings = replace(self.settings, last_game=game_id,
                                player_names=names or self.settings.player_names)
        self.start.remember_names(self.settings.player_names)

    def open_path(self, path: Path) -> None:
        if not self.save_before_leaving("opening another game"):
            return
        self.client.send(Load(Path(path)))

    def open_dialog(self, path: Path | None = None) -> None:
        if path is None:
            name, _ = QFileDialog.getOpenFileName(
                self, "Open a saved game", str(saves_dir()), SAVE_FILTER
            )
            if not name:
                return
            path = Path(name)
        self.open_path(path)

    def save(self) -> None:
        if self.snapshot is None:
            return
        if self.snapshot.path is None:
            self.save_as()
        else:
            self.save_to(self.snapshot.path)

    def save_as(self) -> None:
        if self.snapshot is None:
            return
        d = self.snapshot.session.game.definition
        suggested = saves_dir() / f"{d.id}-{self.snapshot.session.scenario}.wartable.json"
        name, _ = QFileDialog.getSaveFileName(self, "Save game", str(suggested), SAVE_FILTER)
        if name:
            self.save_to(Path(name))

    def save_to(self, path: Path) -> None:
        self.client.send(Save(Path(path)))

    def submit(self, action: Action) -> None:
        if not self.table.confirm(action):  # it would destroy the player's own units
            return
        self.side.clear_error()
        self.client.send(Submit(action))

    def undo(self) -> None:
        self.client.send(Undo())

    def redo(self) -> None:
        self.client.send(Redo())

    def end_step(self) -> None:
        if self.snapshot is not None and not self.snapshot.prompt.finished:
            self.submit(Action(END_STEP, self.snapshot.prompt.side))

    # --- UI events -------------------------------------------------------------
    def on_button(self, b: Button) -> None:
        if self.snapshot is not None:
            self.submit(Action(b.id, self.snapshot.prompt.side, b.args))

    def on_dice(self, values: tuple[int, ...]) -> None:
        if self.snapshot is not None:
            self.submit(Action.make(DICE, self.snapshot.prompt.side, values=values))

    def on_drop(self, piece_id: str, location: str) -> None:
        if self.snapshot is None:
            return
        st = self.snapshot.session.state
        if piece_id not in st.pieces:
            return
        if self.free_play:
            side = self.snapshot.prompt.side or st.pieces[piece_id].side
            self.submit(Action.make(FREE_MOVE, side, piece=piece_id, to=location))
        else:
            self.submit(Action.make("move", deciding_side(st), piece=piece_id, to=location))

    def on_route_drop(self, piece_id: str, location: str, waypoints: list[str]) -> None:
        """A drag routed through right-clicked spaces: the move names its route ("via"),
        for the game to check and follow (a blitz through the territory chosen)."""
        if self.snapshot is None or self.free_play or not waypoints:
            self.on_drop(piece_id, location)
            return
        st = self.snapshot.session.state
        if piece_id in st.pieces:
            self.submit(Action.make("move", deciding_side(st), piece=piece_id, to=location,
                                    via=tuple(waypoints)))

    def on_stack(self, location: str) -> None:
        if self.snapshot is None:
            return
        self._show_stack(location)
        self.inspector_dock.raise_()

    def _show_stack(self, location: str) -> None:
        assert self.snapshot is not None
        pieces = [p for p in self._visible_pieces() if p.location == location]
        self.inspector.set_top_sides(top_sides(self.snapshot, self._viewer_sides(self.snapshot)))
        game, state = self.snapshot.session.game, self.snapshot.session.state
        notes = {p.id: piece_notes(game, state, p) for p in pieces}
        self.inspector.set_stack(location, pieces, game.definition, notes=notes,
                                 place=game.rules.place_name(game, location))

    def put_on_top(self, piece_id: str) -> None:
        """Stack inspector: the owner shows this unit on top of its stack [7.3]."""
        snap = self.snapshot
        if snap is not None and piece_id in snap.session.state.pieces:
            self.submit(Action.make(STACK_TOP, snap.session.state.pieces[piece_id].side,
                                    piece=piece_id))

    def _set_free_play(self, on: bool) -> None:
        self.free_play = on
        self.act_free.setChecked(on)
        self.statusBar().showMessage(
            "Free play: moves are not checked and are logged as house-rule overrides."
            if on
            else "Rules enforced.",
            5000,
        )
        if self.snapshot is not None:
            self._draw(self.snapshot)

    # --- results from the worker ---------------------------------------------
    def on_snapshot(self, snap: Snapshot) -> None:
        old = self.snapshot
        new_game = old is None or snap.session.game is not old.session.game
        first = (
            old is None or new_game
            or snap.session.log[: len(old.session.log)] != old.session.log
            or len(snap.session.events) < len(old.session.events)
        )
        self.snapshot = snap
        if snap.notice:  # refused rule tables, or a save's own printed values (issue 5)
            self.statusBar().showMessage(snap.notice, 20000)
        game = snap.session.game
        key = (game.definition.id, snap.session.scenario)
        if key != self._board_key:
            self._set_boards(snap)
            self.log.set_definition(game.definition)
            self._board_key = key
        if new_game or self.stack.currentWidget() is self.start_scroll:
            # Fitted once, when the map is first shown: undo, redo, the curtain and docks
            # keep the player's zoom and centre (issue 16).
            self._fit_pending = True
        if first:
            self.seated = None
        if self.game_ui is None or game is not self._ui_game:
            self._open_game_ui(snap)
        if self.stack.currentWidget() is self.start_scroll:
            self._set_game_docks(True)
        self.bot.refresh_seats(snap)  # the curtain depends on who the bot plays
        if self._needs_curtain(snap):
            self._lower_curtain(snap)
        else:
            if self.stack.currentWidget() is not self.map_tabs:
                self.stack.setCurrentWidget(self.map_tabs)
            self._fit_if_pending()
            self._draw(snap)
        # Behind the curtain the log shows public lines only: the seated player's private
        # ones would be read by whoever is asked to sit next.
        viewer = frozenset() if self.stack.currentWidget() is self.curtain \
            else self._viewer_sides(snap)
        self.log.set_viewer(viewer)
        if first or snap.fresh:  # fresh: a loaded save's history, once its log is checked
            self.log.set_events(snap.session.events)
        else:
            self.log.append(snap.new_events)
            self.dice_display.show_events([e for e in snap.new_events if e.visible_to(viewer)])
        self.act_physical.setChecked(snap.session.state.dice_mode == "physical")
        if self.game_ui is not None:
            self.game_ui.show_snapshot(snap)
        self._kit_show(snap)
        if snap.path is not None and not snap.dirty:
            self.settings = settings_mod.add_recent(self.settings, str(snap.path))
            self.start.set_recent(self.settings.recent_files)
        self._update_actions()

    def _location_clicked(self, location: str) -> None:
        self.clicked_location = location  # the space the calculator and plug-ins take
        if self.kit is not None and self.kit.location_clicked(location):
            return
        if self.game_ui is not None:
            self.game_ui.on_location_clicked(location)

    def _fit_if_pending(self) -> None:
        if self._fit_pending:
            self._fit_pending = False
            for v in self.views:
                v.fit()  # after the map is shown, so it fits the real viewport

    # --- maps: one view per map ------------------------------------------------
    def _current_board(self) -> BoardMap | None:
        snap = self.snapshot
        if snap is None:
            return None
        boards = list(snap.session.game.maps.values())
        i = max(0, self.map_tabs.currentIndex())
        return boards[i] if i < len(boards) else None

    def calibrate_underlay(self, image: str | None = None) -> bool:
        """View → Scan Underlay…: calibrate a scan of the printed map under this map."""
        board = self._current_board()
        if board is None:
            self.statusBar().showMessage("Open a game first: the scan goes under its map.", 5000)
            return False
        return self.underlays.calibrate(self.map, board, image)

    # --- the open game's plug-in and overlays ----------------------------------------
    def _open_game_ui(self, snap: Snapshot) -> None:
        """A game opened: its widgets (or the generic plug-in) and its overlays replace the
        previous game's."""
        self._close_game_ui()
        game = snap.session.game
        ctx = UiContext(self, self.client, self.on_button, self._may_read,
                        lambda: self.clicked_location,
                        lambda text: self.statusBar().showMessage(text, 8000),
                        self._place_game_dock)
        self.game_ui = ui_for(game.definition.id, ctx)
        self._ui_game = game
        kit = uses_kit(game.definition)
        if kit:
            self.kit = KitPanels(self, self.submit, self._place_game_dock)
            QTimer.singleShot(0, self.side_dock.raise_)  # small screen: one column, the step first
        self.side.free_play.setVisible(not kit)  # assisted moves are free already
        self.act_free.setVisible(not kit)
        self.view_menu.addActions(self.game_ui.view_actions())
        self.game_menu.insertActions(self._game_anchor, self.game_ui.game_actions())
        for ov in registry.get(game.definition.id).overlays:
            act = QAction(f"{ov.title} [{ov.rule}]", self)
            act.setObjectName(f"actOverlay_{ov.id}")
            act.setCheckable(True)
            if ov.shortcut:
                act.setShortcut(QKeySequence(ov.shortcut))
            layer = OverlayLayer(ov, act)
            act.toggled.connect(lambda on, layer=layer: self._toggle_overlay(layer, on))
            self.view_menu.insertAction(self._overlay_anchor, act)
            self.overlay_layers.append(layer)

    COMPACT_WIDTH = 1380  # below it (1280, 1366 laptops), a game's left docks go right, as tabs

    def _place_game_dock(self, d: QDockWidget, area: Qt.DockWidgetArea) -> None:
        if area == Qt.DockWidgetArea.RightDockWidgetArea:
            self.tabifyDockWidget(self.overview_dock, d)  # beside the overview and stack
        elif area == Qt.DockWidgetArea.LeftDockWidgetArea and self.width() < self.COMPACT_WIDTH:
            self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, d)
            self.tabifyDockWidget(self.side_dock, d)

    def _kit_show(self, snap: Snapshot) -> None:
        """The kit's panels as the player at the screen may see them (nothing private
        behind the curtain)."""
        if self.kit is not None:
            behind = self.stack.currentWidget() is self.curtain
            self.kit.refresh(KitView(snap.session.game, snap.session.state, snap.prompt.side,
                                     frozenset() if behind else self._viewer_sides(snap),
                                     snap.session.events))

    def _close_game_ui(self) -> None:
        if self.kit is not None:
            self.kit.close()
            self.kit = None
        if self.game_ui is not None:
            self.game_ui.close()
        self.game_ui, self._ui_game = None, None
        for layer in self.overlay_layers:
            layer.clear()
            self.view_menu.removeAction(layer.action)
            layer.action.deleteLater()
        self.overlay_layers = []

    def overlay(self, overlay_id: str) -> OverlayLayer:
        """The open game's overlay of this id (View menu)."""
        return next(x for x in self.overlay_layers if x.overlay.id == overlay_id)

    def _toggle_overlay(self, layer: OverlayLayer, on: bool) -> None:
        layer.refresh(self.snapshot, self.views)
        layer.set_enabled(on)
        if on and self.snapshot is not None:
            self.statusBar().showMessage(layer.summary(), 8000)

    def toggle_underlay(self) -> None:
        board = self._current_board()
        if board is not None:
            problem = self.underlays.toggle(self.map, board)
            if problem:
                self.statusBar().showMessage(problem, 8000)

    @property
    def map(self) -> MapView:
        """The map view of the current tab."""
        return self.views[max(0, self.map_tabs.currentIndex())]

    def _add_view(self) -> MapView:
        v = MapView()
        v.pieceDropped.connect(self.on_drop)
        v.routeDropped.connect(self.on_route_drop)
        self.table.wire(v)
        v.stackClicked.connect(self.on_stack)
        v.locationClicked.connect(self._location_clicked)
        v.hoverChanged.connect(lambda text: self.hover.setText(text))
        v.zoomChanged.connect(lambda p: self.zoom_label.setText(f"{p:.0f} %"))
        self.views.append(v)
        self.view_locations.append(frozenset())
        self.map_tabs.addTab(v, "")
        self.overviews.addWidget(OverviewMap(v))
        return v

    def _set_boards(self, snap: Snapshot) -> None:
        """One tab per map of the game, each with the locations it shows."""
        game = snap.session.game
        boards = list(game.maps.values())
        while len(self.views) < max(1, len(boards)):
            self._add_view()
        while len(self.views) > max(1, len(boards)):
            v = self.views.pop()
            self.view_locations.pop()
            self.map_tabs.removeTab(len(self.views))
            ov = self.overviews.widget(len(self.views))
            if ov is not None:
                self.overviews.removeWidget(ov)
                ov.deleteLater()
            v.deleteLater()
        for i, board in enumerate(boards):
            v = self.views[i]
            v.set_board(board, game.definition)
            v.set_palette(self._palette())
            problem = self.underlays.apply(v, board)
            if problem:
                self.statusBar().showMessage(problem, 10000)
            self.map_tabs.setTabText(i, board.title)
            self.view_locations[i] = frozenset(board.location_ids()) | {
                f"box:{b.id}" for b in board.boxes}
        if self.map_editor_dock.isVisible():
            QTimer.singleShot(0, self._map_editor_shown)

    def _focus_tab(self, snap: Snapshot) -> None:
        """Show the map where the side to act has something to move or a target (a hex to
        attack), unless the current tab already has (1940: the Soviets set up on the east map
        first; the east combat phase's targets are on the east map)."""
        state = snap.session.state
        where = [state.pieces[pid].location for pid in snap.prompt.moves if pid in state.pieces]
        if not where:
            where = [str(t) for ts in snap.prompt.targets.values() for t in ts]
        if not where or len(self.views) < 2:
            return
        if any(loc in self.view_locations[self.map_tabs.currentIndex()] for loc in where):
            return
        for i, locs in enumerate(self.view_locations):
            if any(loc in locs for loc in where):
                self.map_tabs.setCurrentIndex(i)
                return

    def show_map_editor(self) -> None:
        self.map_editor_dock.show()
        self.map_editor_dock.raise_()
        self._map_editor_shown(True)

    def _map_editor_shown(self, visible: bool = True) -> None:
        """Attach the editor to the current map (hex maps only) while its dock is shown."""
        v = self.map
        editable = visible and isinstance(v.board, HexMap) and self.snapshot is not None
        if editable:
            self.map_editor_dock.raise_()
            assert self.snapshot is not None and isinstance(v.board, HexMap)
            self.map_editor.attach(v, v.board, self.snapshot.session.game.definition)
        self.map_editor.set_active(editable)

    def _tab_changed(self, index: int) -> None:
        if 0 <= index < self.overviews.count():
            self.overviews.setCurrentIndex(index)
            if self.map_editor_dock.isVisible():
                self.map_editor.set_active(False)
                self._map_editor_shown(True)
            self.zoom_label.setText(f"{self.map.zoom_percent():.0f} %")

    # --- hotseat: seats, curtain, views -------------------------------------------
    def _table(self, snap: Snapshot) -> Seating:
        """Who sits where (ui/players.py): seats per command, names and colours."""
        return Seating.of(snap.session.game.definition, snap.session.state.options)

    def _player(self, snap: Snapshot) -> str:
        """The player deciding now: the seat of the command the rules name [1.3]."""
        g = snap.session.game
        return self._table(snap).player_for(g, snap.session.state, snap.prompt.side)

    def _hidden(self, snap: Snapshot) -> bool:
        g = snap.session.game
        table = self._table(snap)
        return (not table.solitaire and not snap.prompt.finished
                and not self._all_bots(table)
                and g.rules.hidden_information(g, snap.session.state))

    def _all_bots(self, table: Seating) -> bool:
        """Every command played by the bot: nobody at the table keeps a secret, so the
        game is watched with open information."""
        levels = self.bot.levels
        return bool(table.command_sides) and all(
            c in levels or s in levels for c, s in table.command_sides.items())

    def _needs_curtain(self, snap: Snapshot) -> bool:
        """Before a side with secrets acts, a player who is not seated must take the seat.
        Not for a side the bot plays: nobody takes its seat (the button would show the
        bot's side to whoever clicked); the seated player keeps the screen and sees the
        bot's side as that player may, and with nobody seated yet the map stays covered."""
        if not self._hidden(snap) or not snap.prompt.side:
            return False
        if self._bot_decides(snap):
            return self.seated is None
        return self._player(snap) != self.seated

    def _may_read(self, side: str) -> bool:
        """May the player at the screen read `side`'s secrets now (the bot's reasons)?"""
        snap = self.snapshot
        if snap is None:
            return True
        viewer = self._viewer_sides(snap)
        return viewer is None or side in viewer

    def _bot_decides(self, snap: Snapshot) -> bool:
        return self.bot.level_for(snap.session, deciding_side(snap.session.state)) is not None

    def _viewer_sides(self, snap: Snapshot) -> frozenset[str] | None:
        """The sides whose information may be shown now (None: everything)."""
        if not self._hidden(snap):
            return None
        return self._table(snap).sides_of(self.seated)

    def _lower_curtain(self, snap: Snapshot) -> None:
        seating = self._table(snap)
        player = self._player(snap)
        d = snap.session.game.definition
        sides = seating.plays(player)
        for v in self.views:
            v.set_pieces([])  # nothing of anyone's position stays drawn behind it
            v.set_legal_moves({}, {})
        self.inspector.set_stack("", [], d)
        dice = None
        if self._bot_decides(snap):
            self.curtain.bot_plays(sides, seating.colour(player))
            wait = f"{sides} is played by the bot."
            dice = snap.prompt.dice  # with physical dice someone types the bot's roll
        else:
            self.curtain.ask(player, sides, seating.colour(player))
            wait = f"Waiting for {player} to take the seat."
        self.stack.setCurrentWidget(self.curtain)
        self.side.show_session(snap.session, replace(
            snap.prompt, text=wait, buttons=(), moves=FrozenMap(), dice=dice,
            waiting=dice is None))
        self.side.set_seat(player, seating.colour(player))

    def take_seat(self, player: str) -> None:
        """The asked player took the seat: lift the curtain on that player's view. Anyone
        else cannot lift it (the curtain names who must sit)."""
        snap = self.snapshot
        if snap is None or (self.stack.currentWidget() is self.curtain
                            and player != self.curtain.player):
            return
        self.seated = player
        self.stack.setCurrentWidget(self.map_tabs)
        self._fit_if_pending()
        self.log.set_viewer(self._viewer_sides(snap))
        self._draw(snap)
        self._kit_show(snap)

    def _visible_pieces(self) -> list[Piece]:
        snap = self.snapshot
        assert snap is not None
        g = snap.session.game
        viewer = self._viewer_sides(snap)
        if viewer is None:  # open information, solitaire, or the game is over
            return list(snap.session.state.pieces.values())
        side = snap.prompt.side if snap.prompt.side in viewer else next(iter(sorted(viewer)), None)
        return list(g.rules.view(g, snap.session.state, side).pieces.values())

    def _shown_prompt(self, snap: Snapshot) -> Prompt:
        """The prompt as the seated player may see it: a bot deciding for a side whose
        secrets the seated player may not read shows only that it is thinking (its moves
        and buttons would name its hidden units); a roll it waits for is still asked."""
        p = snap.prompt
        side = deciding_side(snap.session.state)
        if self._may_read(side) or not self._bot_decides(snap):
            return p
        name = snap.session.game.definition.side(side).name
        return replace(p, text=f"{name} is played by the bot.", buttons=(), moves=FrozenMap(),
                       costs=FrozenMap(), waiting=p.dice is None)

    def _draw(self, snap: Snapshot) -> None:
        if self.stack.currentWidget() is self.curtain:
            return  # nothing is drawn behind the curtain
        pieces = self._visible_pieces()
        prompt = self._shown_prompt(snap)
        moves = {} if self.free_play else prompt.moves
        self._focus_tab(snap)
        g, state = snap.session.game, snap.session.state
        boxes = frozenset(g.rules.placement_boxes(g))
        waiting = [p for p in pieces if p.location in boxes]  # in the tray, not on the map
        moved = g.rules.moved_pieces(g, state)
        battles = g.rules.pending_battles(g, state)
        for v, locs in zip(self.views, self.view_locations, strict=True):
            v.set_cargo_attribute(g.rules.cargo_attribute(g))
            v.set_hidden_boxes(boxes)
            v.set_pieces([p for p in pieces if p.location in locs and p.location not in boxes])
            legal = {pid: d for pid, d in moves.items()
                     if pid in state.pieces and state.pieces[pid].location in locs}
            for p in waiting:  # a unit in the tray may be placed on any map
                legal[p.id] = tuple(d for d in moves.get(p.id, ()) if d in locs)
            v.set_legal_moves(legal, prompt.costs)
            v.set_moved(moved)
            v.set_battles([b for b in battles if b in locs])
        self._show_tray(snap, waiting, frozenset(
            p.id for p in waiting if self.free_play or moves.get(p.id)))
        self.side.show_session(snap.session, prompt)
        if self.inspector.location:  # the Stack dock follows every change (issue 16)
            self._show_stack(self.inspector.location)
        if snap.prompt.side and not snap.prompt.finished:
            self.side.set_seat(self._player(snap), self._table(snap).colour(self._player(snap)))
        for layer in self.overlay_layers:
            layer.refresh(snap, self.views)

    def _show_tray(self, snap: Snapshot, waiting: list[Piece],
                   placeable: frozenset[str]) -> None:
        g = snap.session.game
        names = {f"box:{b.id}": b.name for m in g.maps.values() for b in m.boxes}
        self.tray.set_units(waiting, placeable, g.definition, names)
        # Shown while there is something to place; units only waiting (A&A's purchases
        # before Mobilize) are shown too where the window has the room.
        show = bool(placeable) or (bool(waiting) and self.width() >= self.COMPACT_WIDTH)
        if show != self.tray_dock.isVisible():
            self.tray_dock.setVisible(show)
            if show:  # a narrow column: the map keeps the room
                self.resizeDocks([self.tray_dock], [TRAY_WIDTH], Qt.Orientation.Horizontal)

    def _tray_chosen(self, piece_id: str) -> None:
        """A unit chosen in the tray: its legal spaces light up; show a map that has one."""
        for v in self.views:
            v.set_placing(piece_id or None)
        if not piece_id or self.snapshot is None:
            return
        dests = self.snapshot.prompt.moves.get(piece_id, ())
        if dests and not any(d in self.view_locations[self.map_tabs.currentIndex()]
                             for d in dests):
            for i, locs in enumerate(self.view_locations):
                if any(d in locs for d in dests):
                    self.map_tabs.setCurrentIndex(i)
                    break

    def on_failure(self, f: Failure) -> None:
        if f.request in self.client.cancelled:  # asked for (a print job replaced or cancelled)
            self.client.cancelled.discard(f.request)
            return
        first = f.message.splitlines()[0]
        if self.snapshot is not None:
            self._draw(self.snapshot)  # put a dragged counter back where it was
        if f.illegal:
            self.side.show_error(first)
            self.statusBar().showMessage(first, 8000)
        else:
            box = QMessageBox(QMessageBox.Icon.Warning, "Wartable", first, parent=self)
            if "\n" in f.message:
                box.setDetailedText(f.message)
            box.setObjectName("errorBox")
            box.open()  # non-blocking: tests and the worker keep running
            self.last_error = first

    def _progress(self, pct: int, text: str) -> None:
        self.progress.setRange(0, 100)
        self.progress.setValue(pct)
        self.progress.setFormat(text)

    def _update_actions(self) -> None:
        snap = self.snapshot
        has = snap is not None
        for a in (self.act_save, self.act_save_as, self.act_end, self.act_print, self.act_charts,
                  self.act_position, self.act_export):
            a.setEnabled(has)
        ul = snap.undo_label if snap else None
        rl = snap.redo_label if snap else None
        self.act_undo.setEnabled(ul is not None)
        self.act_undo.setText(f"&Undo {ul}" if ul else "&Undo")
        self.act_undo.setToolTip(f"Cannot undo: {snap.session.barrier}"
                                 if snap and ul is None and snap.session.barrier else "")
        self.act_redo.setEnabled(rl is not None)
        self.act_redo.setText(f"&Redo {rl}" if rl else "&Redo")
        title = "Wartable"
        if snap:
            name = snap.path.name if snap.path else "Untitled"
            title = f"{name}{' *' if snap.dirty else ''} — {snap.session.game.definition.title}"
        self.setWindowTitle(title)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for p in self.settings.recent_files:
            self._act(self.recent_menu, p, lambda _=False, x=p: self.open_path(Path(x)))
        if not self.settings.recent_files:
            self.recent_menu.addAction("(none)").setEnabled(False)

    def _show_start(self) -> None:
        self.stack.setCurrentWidget(self.start_scroll)
        self._set_game_docks(False)
        self._close_game_ui()  # the last game's docks and windows go with it

    def _set_game_docks(self, visible: bool) -> None:
        """The docks belong to a game: hidden on the start screen, shown with a game."""
        for d in (self.side_dock, self.log_dock, self.overview_dock, self.inspector_dock):
            d.setVisible(visible)
        if visible:
            self.overview_dock.raise_()
            # The map gets the room: the log starts a few lines tall; on a short screen
            # (1280x720) fewer, and the sequence panel takes most of the right column.
            short = self.height() < 850
            self.resizeDocks([self.log_dock], [96 if short else 150], Qt.Orientation.Vertical)
            if short:
                self.resizeDocks([self.side_dock, self.overview_dock], [3, 1],
                                 Qt.Orientation.Vertical)

    def toggle_physical_dice(self) -> None:
        """Switch computer/physical dice from the next roll on (logged by the engine)."""
        snap = self.snapshot
        if snap is None or snap.prompt.finished:
            return
        mode = "physical" if snap.session.state.dice_mode == "digital" else "digital"
        self.submit(Action.make(SET_DICE_MODE, snap.prompt.side, mode=mode))

    def toggle_table_mode(self) -> None:
        """Face to face: full screen, larger text, counters and buttons readable from across
        a table, and a large display of each roll."""
        self.table_mode = not self.table_mode
        self.act_table.setChecked(self.table_mode)
        scale = 1.45 if self.table_mode else 1.0
        f = self.font()
        f.setPointSizeF(self._base_point_size * scale)
        # Every dock (sequence, log, stack, purchase, research, bot, odds...) and the status
        # bar: readable from across the table.
        docks = [d.widget() for d in self.findChildren(QDockWidget) if d.widget() is not None]
        for w in [*docks, self.statusBar()]:
            w.setFont(f)
        # Side docks widen to their larger contents (the purchase table's Buy column).
        side_docks = [d for d in self.findChildren(QDockWidget) if d.isVisible() and not
                      d.isFloating() and self.dockWidgetArea(d) in (
                          Qt.DockWidgetArea.LeftDockWidgetArea,
                          Qt.DockWidgetArea.RightDockWidgetArea)]
        if side_docks:
            self.resizeDocks(side_docks, [max(d.width(), d.widget().sizeHint().width() + 12)
                                          for d in side_docks], Qt.Orientation.Horizontal)
        self.side.setStyleSheet("QPushButton { padding: 10px; }" if self.table_mode else "")
        self.dice_display.set_large(self.table_mode)
        v = self.map
        if self.table_mode:
            # Remembered, so leaving table mode gives the player back their view (playtest).
            self._before_table = (v.zoom_percent(), v.mapToScene(v.viewport().rect().center()))
            self.showFullScreen()
            v.set_zoom(max(v.zoom_percent() * 1.5, 100))
        else:
            self.showNormal()
            if self._before_table is None:
                v.fit()
            else:
                zoom, centre = self._before_table
                v.set_zoom(zoom)
                v.centerOn(centre)

    def toggle_full_screen(self) -> None:
        self.showNormal() if self.isFullScreen() else self.showFullScreen()

    def _palette(self) -> Palette:
        return "colourblind" if self.settings.palette == "colourblind" else "standard"

    def toggle_palette(self) -> None:
        name = "colourblind" if self.act_palette.isChecked() else "standard"
        self.settings = replace(self.settings, palette=name)
        for v in self.views:
            v.set_palette(self._palette())

    def print_dialog(self, kind: str = "setup") -> PrintDialog | None:
        """File > Print…: preview, then write PDF/PNG, all rendered off the GUI thread."""
        if self.snapshot is None:
            return None
        from wartable.ui.printdialog import PrintDialog  # printing is heavy: not at start-up

        dlg = PrintDialog(self.client, self, kind)
        dlg.open()
        dlg.preview()
        return dlg

    def offer_recovery(self, autosave_path: Path) -> bool:
        """After a crash: offer the newest autosave. True if the player took it."""
        r = QMessageBox.question(
            self, "Wartable", "Wartable did not close properly last time.\n"
            f"Restore the last autosave ({autosave_path.name})?")
        if r != QMessageBox.StandardButton.Yes:
            return False
        self.open_path(autosave_path)
        return True

    def how_to_play(self) -> QDialog:
        """Help → How to Play: the open game's page (else the game chosen on the start
        screen), from its data."""
        gid = (self.snapshot.session.game.definition.id if self.snapshot is not None
               else self.start.selected_game() or registry.DEFAULT_GAME)
        module = registry.get(gid)
        text = gamedata.how_to_play(gid) or (
            f"# {module.title}\n\nThis game has no how-to-play page yet: the side panel "
            "walks each step, with its rule number and the buttons for it.")
        dlg = helpdialogs.page(self, f"How to play — {module.title}", text, "howToPlay")
        dlg.show()
        return dlg

    def show_shortcuts(self) -> QDialog:
        """Help → Keyboard and Mouse: every menu shortcut, read from the menus themselves."""
        menus = [a.menu() for a in self.menuBar().actions() if a.menu() is not None]
        dlg = helpdialogs.page(self, "Keyboard and mouse",
                               helpdialogs.shortcuts_markdown(menus), "shortcuts")  # type: ignore[arg-type]
        dlg.show()
        return dlg

    def about(self) -> None:
        QMessageBox.about(
            self,
            "About Wartable",
            f"<b>Wartable {__version__}</b><br>A desktop table for historical "
            f"board wargames.<br><br>{ATTRIBUTION}",
        )

    def save_before_leaving(self, doing: str) -> bool:
        """Offer to save a changed game and save it, waiting until it is on disk, before
        anything else may happen (issue 15: a failing settings write once killed the app
        while the save was still queued). False: stay, the game is kept (cancelled, no
        file chosen, or the save failed)."""
        snap = self.snapshot
        if not (self.confirm_close and snap is not None and snap.dirty):
            return True
        r = QMessageBox.question(
            self, "Wartable", f"Save the game before {doing}?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
        )
        if r == QMessageBox.StandardButton.Discard:
            return True
        if r != QMessageBox.StandardButton.Save:
            return False
        path = snap.path
        if path is None:
            d = snap.session.game.definition
            suggested = saves_dir() / f"{d.id}-{snap.session.scenario}.wartable.json"
            name, _ = QFileDialog.getSaveFileName(self, "Save game", str(suggested),
                                                  SAVE_FILTER)
            if not name:
                return False
            path = Path(name)
        failure = self.client.send_and_wait(Save(path))
        if failure is not None:
            first = failure.message.splitlines()[0]
            self.last_error = first
            QMessageBox.warning(self, "Wartable", f"{first}\nThe game is still open.")
            return False
        return True

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        try:
            if not self.save_before_leaving("closing"):
                event.ignore()
                return
        except Exception as e:  # noqa: BLE001 - never abort with the game unsaved
            self.last_error = f"Could not save before closing: {e}"
            QMessageBox.warning(self, "Wartable", f"{self.last_error}\nThe game is still open.")
            event.ignore()
            return
        try:  # the game is safe now; a settings failure is told, never fatal (issue 15)
            geo = bytes(self.saveGeometry().toBase64().data()).decode()
            self.settings = replace(self.settings, window_geometry=geo)
            settings_mod.save_settings(self.settings)
        except Exception as e:  # noqa: BLE001 - WartableError, or anything else: closing goes on
            self.last_error = f"Settings were not saved: {e}"
            print(f"wartable: {self.last_error}", file=sys.stderr)
            if self.confirm_close:
                QMessageBox.warning(self, "Wartable", self.last_error)
        self.client.shutdown()
        event.accept()
