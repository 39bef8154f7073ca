"""Play at the table (issue 16): what the main window does with the map's stack handling.

Several pieces dropped at once become one `move` per piece (in free play one free move
each); a whole stack dropped (Shift+drag) moves every piece of the acting side there that
may go there. The right-click menu lists what the prompt allows with that counter or
space now: its moves, the step's buttons for that space or piece, and table actions
(expand, select all of a type, inspect). The placement tray holds the units of the game's
placement boxes. Before an action that destroys the player's own units without a roll
(Rules.would_lose), the player is asked, with the units named."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QMenu, QMessageBox

from wartable.engine.actions import FREE_MOVE, Action, Button
from wartable.engine.loop import deciding_side
from wartable.ui.map.view import MapView

if TYPE_CHECKING:
    from wartable.ui.mainwindow import MainWindow

MENU_MOVES = 24  # destinations listed in a right-click menu; more: drag the counter


def _mentions(value: Any, wanted: set[str]) -> bool:
    if isinstance(value, str):
        return value in wanted
    if isinstance(value, tuple | list):
        return any(_mentions(v, wanted) for v in value)
    return False


class TablePlay:
    """The window's side of stacks, menus, the placement tray and loss warnings."""

    def __init__(self, win: MainWindow) -> None:
        self.win = win
        self.last_menu: QMenu | None = None  # the latest right-click menu (tests read it)
        self.last_warning: QMessageBox | None = None
        self.confirm_losses = True

    def wire(self, v: MapView) -> None:
        v.piecesDropped.connect(self.drop_pieces)
        v.stackDropped.connect(self.drop_stack)
        v.contextRequested.connect(self.context_menu)
        v.placeRequested.connect(self.win.on_drop)
        v.selectionChanged.connect(self._selection_changed)

    # --- moves ----------------------------------------------------------------------------
    def drop_pieces(self, ids: list[str], location: str) -> None:
        """The game's move of the pieces together where it has one (Rules.stack_move),
        else one move per piece, in the order selected."""
        snap = self.win.snapshot
        if snap is not None and len(ids) > 1 and not self.win.free_play:
            game, state = snap.session.game, snap.session.state
            together = game.rules.stack_move(game, state, deciding_side(state), tuple(ids),
                                             location)
            if together is not None:
                self.win.submit(together)
                return
        for pid in ids:
            self.win.on_drop(pid, location)

    def drop_stack(self, origin: str, location: str) -> None:
        """The whole stack: every piece of the acting side at `origin` that may go to
        `location` (in free play, every piece there)."""
        snap = self.win.snapshot
        if snap is None:
            return
        here = [p for p in self.win._visible_pieces() if p.location == origin]
        if self.win.free_play:
            ids = [p.id for p in here]
        else:
            side = deciding_side(snap.session.state)
            mine = [p.id for p in here if p.side == side]
            ids = [pid for pid in mine if location in snap.prompt.moves.get(pid, ())]
            ids = ids or mine[-1:]  # none may go: the engine says why for the top one
        self.drop_pieces(ids, location)

    def from_dock(self, piece_id: str) -> None:
        """Units chosen in the Stack dock are selected on the map (fanned out), ready to
        drag, to Tab through or for Enter's menu."""
        ids = self.win.inspector.selected_ids() or [piece_id]
        for v in self.win.views:
            item = v.piece_item(piece_id)
            if item is not None:
                v.expand_stack(item.piece.location)
                v.select_pieces(ids)

    def _selection_changed(self, ids: list[str]) -> None:
        if ids and self.win.inspector.location:
            self.win.inspector.select(ids[-1])

    # --- the right-click menu -------------------------------------------------------------
    def context_menu(self, location: str, piece_id: str, at: QPoint) -> QMenu | None:
        menu = self.build_menu(location, piece_id)
        if menu is not None:
            menu.popup(at)
        return menu

    def build_menu(self, location: str, piece_id: str) -> QMenu | None:
        win, snap = self.win, self.win.snapshot
        if snap is None:
            return None
        game, state, prompt = snap.session.game, snap.session.state, win._shown_prompt(snap)
        view = win.map
        menu = QMenu(win)
        menu.setObjectName("mapContextMenu")
        place = game.rules.place_name(game, location)
        selected = [p for p in view.selected_pieces() if p in state.pieces
                    and state.pieces[p].location == location] if piece_id else []
        if piece_id and piece_id not in selected:
            selected = [piece_id]
        if selected:
            names = [game.rules.piece_name(game, state.pieces[p]) for p in selected]
            title = names[0] if len(names) == 1 else f"{len(names)} units"
            menu.addSection(f"{title} — {place}")
            if not prompt.waiting and not prompt.finished:
                dests: list[str] | None = None
                for pid in selected:
                    mine = prompt.moves.get(pid, ())
                    dests = list(mine) if dests is None else [d for d in dests if d in mine]
                costs: Mapping[str, float] = prompt.costs.get(selected[-1], {})
                sub = menu.addMenu("Move to") if dests else None
                for d in (dests or [])[:MENU_MOVES]:
                    cost = costs.get(d)
                    label = game.rules.place_name(game, d) + (
                        f"  ({cost:g})" if isinstance(cost, int | float) else "")
                    assert sub is not None
                    act = sub.addAction(label)
                    act.triggered.connect(
                        lambda _=False, ids=list(selected), d=d: self.drop_pieces(ids, d))
                if not dests:
                    menu.addAction("No move now").setEnabled(False)
            p = state.pieces[selected[-1]]
            same = [q for q in view.map_scene.stack_at(location)
                    if q in state.pieces and state.pieces[q].type == p.type
                    and state.pieces[q].side == p.side]
            if len(same) > 1:
                ut = game.definition.unit_types.get(p.type)
                act = menu.addAction(f"Select all {len(same)} {ut.name if ut else p.type}")
                act.triggered.connect(lambda _=False, pid=p.id: view.select_all_of_type(pid))
        else:
            menu.addSection(place)
        wanted = {location, *selected}
        buttons = [b for b in prompt.buttons if not prompt.waiting
                   and any(_mentions(v, wanted) for v in b.args.values())]
        if buttons:
            menu.addSeparator()
        for b in buttons:
            act = menu.addAction(b.label)
            act.setEnabled(b.enabled)
            if b.reason:
                act.setToolTip(b.reason)
            act.triggered.connect(lambda _=False, b=b: self._press(b))
        # A space the step targets without a button of its own (1940's prepared assault):
        # choosing it hands the space to the game's panel, as a click on the map does.
        verbs = [v for v, ts in prompt.targets.items() if location in ts and not any(
            b.id == v for b in buttons)] if not prompt.waiting else []
        for verb in verbs:
            act = menu.addAction(f"{verb.replace('_', ' ').capitalize()}: {place}…")
            act.triggered.connect(lambda _=False: win._location_clicked(location))
        menu.addSeparator()
        if len(view.map_scene.stack_at(location)) > 1:
            act = menu.addAction("Fold the stack" if view.expanded_stack() == location
                                 else "Spread out the stack")
            act.triggered.connect(lambda _=False: view.expand_stack(
                None if view.expanded_stack() == location else location))
        act = menu.addAction("Inspect")
        act.triggered.connect(lambda _=False: win.on_stack(location))
        act = menu.addAction("Free play (moves unchecked)")
        act.setCheckable(True)
        act.setChecked(win.free_play)
        act.triggered.connect(win._set_free_play)
        self.last_menu = menu
        return menu

    def _press(self, b: Button) -> None:
        self.win.on_button(b)

    # --- warnings before loss -------------------------------------------------------------
    def confirm(self, action: Action) -> bool:
        """Ask before an action that destroys the acting side's own units (naming them);
        True: go ahead."""
        snap = self.win.snapshot
        if snap is None or not self.confirm_losses or action.verb == FREE_MOVE:
            return True
        game, state = snap.session.game, snap.session.state
        lost = game.rules.would_lose(game, state, action)
        if not lost:
            return True
        names = [f"{game.rules.piece_name(game, p)} in {game.rules.place_name(game, p.location)}"
                 for p in lost]
        box = QMessageBox(QMessageBox.Icon.Warning, "Wartable",
                          f"This destroys {len(lost)} of your own unit"
                          f"{'s' if len(lost) != 1 else ''}:\n\n" + "\n".join(names)
                          + "\n\nGo ahead?",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                          self.win)
        box.setObjectName("lossWarning")
        box.setDefaultButton(QMessageBox.StandardButton.No)
        self.last_warning = box
        return box.exec() == QMessageBox.StandardButton.Yes
