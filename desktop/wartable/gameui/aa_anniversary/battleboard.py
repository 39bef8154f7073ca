"""Axis & Allies Anniversary: the battle board of Phase 4: Conduct Combat (pg. 16-20).

Like the printed board: the attacker's units stand in columns by attack value, the
defender's by defense value (General Combat, pg. 18). Below them, each round's dice with
the hits marked, then what the engine asks now: the casualties of the side choosing (click
units; the engine's default choice is pre-selected, "Default" restores it) or press the
attack / retreat to one of the destinations the prompt offers (Step 6).

The board follows the engine: the battle, forces, hits and options come from the state and
the prompt; a casualty choice is checked with combat.check_casualties (the rule the engine
applies) before Confirm is enabled, and is sent as the frame's own "casualties" action.
The battle's other frames (Step 2: strike or submerge; Amphibious Assaults: which ships
bombard; Step 6: press or retreat) show the prompt's own buttons. Columns use the battle's
unit values with the powers' developments (forces.battle_values).

Not shown: which of several identical units the engine removes (it takes them by type,
damaged battleships first); the board marks the clicked ones.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Button, Prompt
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary.steps import battle
from wartable.games.aa_anniversary.steps.battle import forces
from wartable.games.aa_anniversary.steps.common import space_name, world
from wartable.gameui.aa_anniversary.battlerecord import (
    AA_RESUMES,
    DiceGroup,
    Roll,
    aa_value,
    battle_result_text,
    battle_start,
    checked,
    event_dice,
    frame_hits,
    role_pieces,
    round_groups,
    split_dice,
)
from wartable.model.state import Frame, GameState, Piece
from wartable.ui.widgets import ERROR_INK, QUIET_INK, discard, scrolled, wrapped_label

CASUALTIES = "casualties"
PRESS, RETREAT = "press", "retreat"
LOST, DAMAGED = "lost", "damaged"
HIT_STYLE = "background-color:#c62828; color:#ffffff; font-weight:bold"
MISS_STYLE = "background-color:#e0e0e0; color:#333333"


# --- the board ---------------------------------------------------------------------------

class UnitTile(QToolButton):
    """One unit on the board; the owner clicks it to mark it lost (or a battleship damaged)."""

    def __init__(self, piece: Piece, name: str, colour: str, text_colour: str) -> None:
        super().__init__()
        self.piece = piece
        self.mark = ""  # "", LOST, DAMAGED
        self.value = 0  # the column it stands in
        self.two_hits = False  # an undamaged battleship: damaged first, then lost
        self.base = (f"QToolButton {{ background: {colour}; color: {text_colour}; "
                     "border: 1px solid #333; border-radius: 3px; padding: 2px 4px; }")
        self.name = name + (" (damaged)" if piece.attrs.get("damaged") else "")
        self.setObjectName(f"tile_{piece.id}")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.set_mark("")

    def set_mark(self, mark: str) -> None:
        self.mark = mark
        if mark == LOST:
            self.setText(f"✕ {self.name}")
            self.setStyleSheet(self.base.replace("border: 1px solid #333",
                                                 "border: 3px solid #c62828"))
        elif mark == DAMAGED:
            self.setText(f"◐ {self.name} — damaged")
            self.setStyleSheet(self.base.replace("border: 1px solid #333",
                                                 "border: 3px dashed #e65100"))
        else:
            self.setText(self.name)
            self.setStyleSheet(self.base)

    def next_mark(self) -> str:
        if self.two_hits:
            return {"": DAMAGED, DAMAGED: LOST, LOST: ""}[self.mark]
        return "" if self.mark else LOST


class BattleBoard(QWidget):
    """Both sides' columns, the dice of each round, and the current choice.

    `buttonChosen` carries the Button to submit (the side panel's path); `battle_space` is
    "" when no battle is being fought (the last one's record stays shown)."""

    buttonChosen = Signal(object)  # Button

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aaBattleBoard")
        lay = QVBoxLayout(self)
        self.heading = QLabel("No battle is being fought.")
        self.heading.setObjectName("battleHeading")
        self.heading.setWordWrap(True)
        f = self.heading.font()
        f.setPointSizeF(f.pointSizeF() * 1.15)
        f.setBold(True)
        self.heading.setFont(f)
        lay.addWidget(self.heading)
        self.rule = QLabel(f"Rule {c.R_GENERAL}")
        self.rule.setStyleSheet("color: #555;")
        lay.addWidget(self.rule)

        sides = QHBoxLayout()
        self.att_box = QGroupBox("Attacker")
        self.def_box = QGroupBox("Defender")
        self.att_grid = QGridLayout()
        self.def_grid = QGridLayout()
        self.att_lost = QLabel()
        self.def_lost = QLabel()
        for box, g, lost in ((self.att_box, self.att_grid, self.att_lost),
                             (self.def_box, self.def_grid, self.def_lost)):
            g.setAlignment(Qt.AlignmentFlag.AlignTop)
            lost.setWordWrap(True)
            lost.setStyleSheet("color: #555;")
            # Big stacks scroll inside their side rather than push the dice off the board.
            host = QWidget()
            host.setLayout(g)
            area = scrolled(host)
            v = QVBoxLayout(box)
            v.addWidget(area, 1)
            v.addWidget(lost)
        sides.addWidget(self.att_box, 1)
        sides.addWidget(self.def_box, 1)
        lay.addLayout(sides, 3)

        self.dice = QLabel()
        self.dice.setObjectName("battleDice")
        self.dice.setTextFormat(Qt.TextFormat.RichText)
        self.dice.setWordWrap(True)
        self.dice.setAlignment(Qt.AlignmentFlag.AlignTop)
        dice_scroll = QScrollArea()
        dice_scroll.setWidget(self.dice)
        dice_scroll.setWidgetResizable(True)
        dice_scroll.setFrameShape(QFrame.Shape.StyledPanel)
        dice_scroll.setMinimumHeight(90)
        lay.addWidget(QLabel("<b>Dice</b> (red: hits; a die hits on its column's value or less)"))
        lay.addWidget(dice_scroll, 1)

        self.ask = QGroupBox("Now")
        ask = QVBoxLayout(self.ask)
        self.prompt_text = wrapped_label("battlePrompt")
        self.prompt_text.setSizePolicy(QSizePolicy.Policy.Preferred,
                                       QSizePolicy.Policy.MinimumExpanding)
        ask.addWidget(self.prompt_text)
        self.prompt_rule = wrapped_label("battlePromptRule", QUIET_INK)
        ask.addWidget(self.prompt_rule)
        self.selection = wrapped_label("battleSelection")
        ask.addWidget(self.selection)
        self.reason = wrapped_label("battleReason", ERROR_INK)
        ask.addWidget(self.reason)
        self.buttons_row = QHBoxLayout()
        ask.addLayout(self.buttons_row)
        row = QHBoxLayout()
        self.default_button = QPushButton("Default")
        self.default_button.setObjectName("battleDefault")
        self.default_button.setToolTip("Select the default casualties again")
        self.default_button.clicked.connect(self.select_default)
        self.confirm_button = QPushButton("Confirm casualties")
        self.confirm_button.setObjectName("battleConfirm")
        self.confirm_button.clicked.connect(self.confirm)
        row.addWidget(self.default_button)
        row.addStretch(1)
        row.addWidget(self.confirm_button)
        ask.addLayout(row)
        lay.addWidget(self.ask)

        self.tiles: list[UnitTile] = []
        self.choice_buttons: list[QPushButton] = []
        self.battle_space = ""
        self.frame: Frame | None = None
        self.prompt: Prompt | None = None
        self._game: Game | None = None
        self._state: GameState | None = None
        self._rolls: dict[tuple[int, str], Roll] = {}  # event index, text -> the roll
        self._record: tuple[Roll, ...] = ()
        self._result = ""
        self._lost: dict[str, list[str]] = {}  # side -> its units lost in this battle

    # --- showing the state -----------------------------------------------------------------
    def show_session(self, session: Session, prompt: Prompt) -> None:
        game, state = session.game, session.state
        self._game, self._state, self.prompt = game, state, prompt
        space = state.var("battle")
        self.battle_space = space if isinstance(space, str) else ""
        self._read_record(session)
        self._show_dice()
        if not self.battle_space:
            self.heading.setText(self._result or "No battle is being fought.")
            self._clear_columns()
            self._show_lost(game, state)  # the last round's losses stay on the board
            self._set_choice(None, prompt)
            return
        power = state.active_side
        d = game.definition
        defender = forces.defending_power(game, state, self.battle_space, power)
        foe = d.side(defender).name if defender else "no defender left"
        self.heading.setText(f"Battle in {space_name(game, self.battle_space)}: "
                             f"{d.side(power).name} attacks {foe}")
        self.att_box.setTitle(f"Attacker: {d.side(power).name} — columns by attack value")
        self.def_box.setTitle(f"Defender: {foe} — columns by defense value")
        top = state.top_frame
        frame = top if top is not None and top.kind in battle.FRAMES else None
        self._fill_columns(game, state, power, frame)
        self._show_lost(game, state)
        self._set_choice(frame, prompt)

    def _show_lost(self, game: Game, state: GameState) -> None:
        """Each side's units lost in this battle, the last round's included (also once the
        battle has ended), and its submerged submarines while it goes on."""
        power = state.active_side  # the attacker: battles are fought in its turn
        for label, mine in ((self.att_lost, True), (self.def_lost, False)):
            # The defender's column counts every power defending with it (multinational).
            sides = [x for x in self._lost if (x == power) == mine]
            gone = [name for x in sides for name in self._lost[x]]
            under = [world(game).catalog[p.type].name for p in state.pieces_at(self.battle_space)
                     if (p.side == power) == mine and p.attrs.get("submerged")] \
                if self.battle_space else []
            label.setText("Lost so far: " + (", ".join(gone) or "none") + (
                f"<br>Submerged, out of this combat (pg. 30): {', '.join(under)}"
                if under else ""))

    def _read_record(self, session: Session) -> None:
        """This battle's rolls (from the dice events since it began) and its result."""
        events, game, state = session.events, session.game, session.state
        start = battle_start(events)
        if start < 0:
            self._record, self._result, self._lost = (), "", {}
            return
        rolls: list[Roll] = []
        n_round = 0
        self._result = ""
        self._lost = {}
        for i in range(start + 1, len(events)):
            e = events[i]
            d = e.data
            if e.kind == "combat" and d.get("how") in ("destroyed", "with_transport"):
                unit = game.definition.unit_types.get(str(d["lost"]))
                self._lost.setdefault(e.side, []).append(unit.name if unit else str(d["lost"]))
            if e.kind == "combat" and d.get("battle") in ("round", "strike"):
                if rolls:
                    rolls[-1] = checked(rolls[-1], int(d["attacker_hits"]),
                                        int(d["defender_hits"]))
                continue
            if e.kind == "combat" and d.get("battle") == "end":
                if d["result"] != "no_attacker":
                    self._result = battle_result_text(game, d)
                continue
            if e.kind != "dice":
                continue
            resume = str(d.get("resume", ""))
            key = (i, e.text)
            if resume == "round":
                n_round += 1
            roll = self._rolls.get(key)
            if roll is None:
                roll = self._new_roll(game, state, resume, event_dice(e), n_round)
                self._rolls[key] = roll
            rolls.append(roll)
        self._record = tuple(rolls)

    def _new_roll(self, game: Game, state: GameState, resume: str, dice: tuple[int, ...],
                  n_round: int) -> Roll:
        """A roll for the dice the game rolled to resume `resume` (its continuation: "aa",
        "strike", "bombard", else a round)."""
        if resume in AA_RESUMES:
            v = aa_value(game, state) if isinstance(state.var("battle"), str) else 1
            return Roll("AA fire (before round 1)",
                        (DiceGroup("aa", v, dice, sum(1 for d in dice if d <= v)),))
        kind = resume if resume in ("strike", "bombard") else "round"
        title = {"strike": f"Round {n_round + 1}: Submarine Surprise Strike",
                 "bombard": "Bombardment (Amphibious Assaults, Step 2)"}.get(
                     kind, f"Round {n_round}")
        groups = None
        if isinstance(state.var("battle"), str):
            groups = split_dice(dice, round_groups(game, state, kind), ("attacker", "defender"))
        return Roll(title, groups or (DiceGroup("unmatched", 0, dice),))

    def _show_dice(self) -> None:
        if not self._record:
            self.dice.setText("<i>No dice rolled yet.</i>")
            return
        lines = []
        for r in self._record:
            parts = []
            for who in ("aa", "attacker", "defender", "unmatched"):
                gs = [g for g in r.groups if g.side == who]
                if not gs:
                    continue
                cells = []
                for g in gs:
                    dice = " ".join(
                        f'<span style="{HIT_STYLE if g.value and d <= g.value else MISS_STYLE}">'
                        f"&nbsp;{d}&nbsp;</span>" for d in g.dice)
                    head = f"≤{g.value}: " if g.value else ""
                    cells.append(head + dice)
                label = {"aa": "AA gun", "attacker": "Attacker", "defender": "Defender",
                         "unmatched": "Dice"}[who]
                hits = sum(g.hits for g in gs) if who != "unmatched" else None
                tail = f" — <b>{hits} hit{'s' if hits != 1 else ''}</b>" if hits is not None \
                    else ""
                parts.append(f"{label}: {' &nbsp; '.join(cells)}{tail}")
            summary = f" <i>({r.summary})</i>" if r.summary else ""
            lines.append(f"<b>{r.title}</b>{summary}<br>" + "<br>".join(parts))
        self.dice.setText("<br>".join(lines))

    def _clear_columns(self) -> None:
        for t in self.tiles:
            discard(t)
        self.tiles = []
        for grid in (self.att_grid, self.def_grid):
            while grid.count():
                item = grid.takeAt(0)
                w = item.widget() if item is not None else None
                if w is not None:
                    discard(w)

    def _fill_columns(self, game: Game, state: GameState, power: str,
                      frame: Frame | None) -> None:
        self._clear_columns()
        cat = forces.battle_values(game, state)
        att = forces.attackers(game, state, self.battle_space, power)
        dfn = forces.defenders(game, state, self.battle_space, power)
        choosing = str(frame.data.get("role", "")) if frame and frame.kind == CASUALTIES else ""
        if choosing == "bombard":  # the defender puts bombarded units in the casualty zone
            choosing = "defender"
        may = {p.id for p in role_pieces(game, state, frame.data["role"])} if choosing and \
            frame is not None else set()
        for role, pieces, grid in (("attacker", att, self.att_grid),
                                   ("defender", dfn, self.def_grid)):
            cols = self._columns(game, state, pieces, role)
            values = sorted(set(range(1, 5)) | {v for v in cols if v > 0})
            if 0 in cols:
                values.append(0)
            for x, v in enumerate(values):
                head = QLabel(f"<b>{v}</b>" if v else "<b>no fire</b>")
                head.setAlignment(Qt.AlignmentFlag.AlignCenter)
                head.setToolTip(f"Hits on a roll of {v} or less" if v else
                                "Does not roll in the rounds")
                grid.addWidget(head, 0, x)
                for y, p in enumerate(cols.get(v, []), 1):
                    side = game.definition.side(p.side)
                    name = cat[p.type].name + (" (casualty zone)" if p.attrs.get("pending")
                                               else "")
                    tile = UnitTile(p, name, side.colour, side.text_colour)
                    tile.two_hits = cat[p.type].hits > 1 and not p.attrs.get("damaged")
                    tile.value = v
                    clickable = role == choosing and p.id in may
                    tile.setEnabled(clickable or not choosing)
                    if clickable:
                        tile.setCheckable(False)
                        tile.clicked.connect(lambda _=False, t=tile: self._toggle(t))
                        tile.setCursor(Qt.CursorShape.PointingHandCursor)
                    grid.addWidget(tile, y, x)
                    self.tiles.append(tile)
                grid.setColumnStretch(x, 1)

    def _columns(self, game: Game, state: GameState, pieces: tuple[Piece, ...], role: str
                 ) -> dict[int, list[Piece]]:
        """Pieces by the value they roll at. Attacking infantry matched one-for-one with
        artillery stand in the next column (Unit Profiles: Infantry, pg. 24)."""
        cat = forces.battle_values(game, state)
        support = sum(cat[p.type].support for p in pieces) if role == "attacker" else 0
        cols: dict[int, list[Piece]] = {}
        for p in pieces:
            s = cat[p.type]
            v = s.value(c.ATTACK if role == "attacker" else c.DEFENSE)
            if role == "attacker" and s.infantry and support > 0 and v > 0:
                support -= 1
                v = min(6, v + 1)
            cols.setdefault(v, []).append(p)
        return cols

    # --- the choice ------------------------------------------------------------------------
    def _set_choice(self, frame: Frame | None, prompt: Prompt) -> None:
        for b in self.choice_buttons:
            discard(b)
        self.choice_buttons = []
        self.frame = frame
        casualties = frame is not None and frame.kind == CASUALTIES
        self.default_button.setVisible(casualties)
        self.confirm_button.setVisible(casualties)
        self.selection.setVisible(casualties)
        self.reason.setText("")
        if frame is None:
            self.prompt_rule.setText("")
            waiting = prompt.dice is not None
            self.prompt_text.setText("Type the dice in the side panel." if waiting and
                                     self.battle_space else
                                     ("The battle goes on." if self.battle_space else ""))
            return
        self.prompt_text.setText(frame.text)
        self.prompt_rule.setText(f"Rule {frame.rule}")
        if casualties:
            hits, _ = frame_hits(frame)
            kinds = []
            if hits.air:
                kinds.append(f"{hits.air} from aircraft: not on submarines")
            if hits.sub:
                kinds.append(f"{hits.sub} from submarines: sea units only")
            extra = f" Of these hits, {'; '.join(kinds)}." if kinds else ""
            self.prompt_text.setText(f"{frame.text}{extra} Click units to choose them.")
            self.select_default()
            return
        # Step 6: press, or retreat where the engine offers; Step 2: strike or submerge;
        # Amphibious Assaults: which ships bombard. The prompt's own buttons, as they are.
        for spec in prompt.buttons:
            label = spec.label
            to = spec.args.get("to")
            if spec.id == RETREAT and isinstance(to, str) and self._game is not None:
                label = f"Retreat to {space_name(self._game, to)}"
            b = QPushButton(label)
            b.setObjectName(f"battle_{spec.id}" + (f"_{to}" if isinstance(to, str) else ""))
            b.setEnabled(spec.enabled and not prompt.waiting)
            b.setToolTip(f"Rule {spec.rule}" if spec.rule else "")
            b.clicked.connect(lambda _=False, s=spec: self.buttonChosen.emit(s))
            self.buttons_row.addWidget(b)
            self.choice_buttons.append(b)
        if frame.kind == PRESS and not any(s.id == RETREAT for s in prompt.buttons):
            self.reason.setText("No retreat: no adjacent friendly space from which an "
                                "attacking land or sea unit moved in (Step 6).")

    def _choosable(self) -> list[UnitTile]:
        return [t for t in self.tiles if t.isEnabled() and self.frame is not None]

    def select_default(self) -> None:
        """Mark the engine's first (default) option's units: damaged ones first, as the
        engine removes them (Battleships, Two Hits to Destroy)."""
        if self.prompt is None or self.frame is None or self.frame.kind != CASUALTIES:
            return
        opts = [b for b in self.prompt.buttons if b.id == CASUALTIES]
        for t in self.tiles:
            t.set_mark("")
        if opts:
            self.select(dict(opts[0].args.get("lost", {})), dict(opts[0].args.get("damaged", {})))
        self._check()

    def select(self, lost: dict[str, int], damaged: dict[str, int]) -> None:
        tiles = self._choosable()
        for unit, n in lost.items():
            cands = sorted((t for t in tiles if t.piece.type == unit),
                           key=lambda t: (not t.piece.attrs.get("damaged"), t.value,
                                          t.piece.id))
            for t in cands[:int(n)]:
                t.set_mark(LOST)
        for unit, n in damaged.items():
            cands = [t for t in tiles if t.piece.type == unit and not t.mark and t.two_hits]
            for t in cands[:int(n)]:
                t.set_mark(DAMAGED)
        self._check()

    def _toggle(self, tile: UnitTile) -> None:
        tile.set_mark(tile.next_mark())
        self._check()

    def chosen(self) -> c.Casualties:
        lost: dict[str, int] = {}
        damaged: dict[str, int] = {}
        for t in self._choosable():
            if t.mark == LOST:
                lost[t.piece.type] = lost.get(t.piece.type, 0) + 1
            elif t.mark == DAMAGED:
                damaged[t.piece.type] = damaged.get(t.piece.type, 0) + 1
        return c.Casualties.of(lost, damaged)

    def _check(self) -> str | None:
        """The engine's own check of the choice (General Combat, Steps 3-5)."""
        if self.frame is None or self._game is None or self._state is None or \
                self.prompt is None:
            return "No casualties to choose."
        cat = world(self._game).catalog
        pieces = role_pieces(self._game, self._state, str(self.frame.data["role"]))
        hits, air_subs = frame_hits(self.frame)
        cas = self.chosen()
        why = c.check_casualties(forces.force(pieces), hits, cas, cat, air_hits_subs=air_subs)
        self.selection.setText(f"Chosen: {cas.describe(cat)}")
        self.reason.setText(why or "")
        self.confirm_button.setEnabled(why is None and not self.prompt.waiting)
        return why

    def confirm(self) -> None:
        if self._check() is not None or self._game is None:
            return
        cas = self.chosen()
        self.buttonChosen.emit(Button(
            CASUALTIES, cas.describe(world(self._game).catalog),
            self.frame.rule if self.frame else "",
            args=FrozenMap(lost=FrozenMap(dict(cas.lost)), damaged=FrozenMap(dict(cas.damaged)))))
