"""The privacy curtain for face-to-face play with hidden information: before a side with
secrets acts, the map is covered and that player is asked to take the seat."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from wartable.ui.players import on_dark, text_on


class Curtain(QWidget):
    ready = Signal(str)  # the player who took the seat

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("curtain")
        # A plain QWidget subclass paints its style-sheet background only with this.
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet("QWidget#curtain { background: #20262e; } "
                           "QLabel { color: #f0f0f0; }")
        lay = QVBoxLayout(self)
        lay.addStretch(2)
        self.title = QLabel()
        self.title.setObjectName("curtainTitle")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        f = self.title.font()
        f.setPointSizeF(f.pointSizeF() * 2.2)
        f.setBold(True)
        self.title.setFont(f)
        lay.addWidget(self.title)
        self.detail = QLabel()
        self.detail.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.detail.setWordWrap(True)
        lay.addWidget(self.detail)
        self.button = QPushButton()
        self.button.setObjectName("curtainReady")
        self.button.setMinimumHeight(48)
        self.player = ""
        self.button.clicked.connect(lambda: self.ready.emit(self.player))
        lay.addWidget(self.button, 0, Qt.AlignmentFlag.AlignCenter)
        lay.addStretch(3)
        self.colour = ""

    def ask(self, player: str, sides: str, colour: str = "") -> None:
        """Ask `player` (who plays `sides`) to sit; the title takes the seat's colour."""
        self.player = player
        self.colour = colour
        self.title.setText(f"Pass the screen to {player}")
        self.title.setStyleSheet(f"color: {on_dark(colour)};" if colour else "")
        self.button.setStyleSheet(
            f"background: {colour}; color: {text_on(colour)}; padding: 6px 18px;"
            if colour else "")
        self.detail.setText(f"{player} plays {sides}. The other players look away; "
                            "the map shows only what your side may see.")
        self.button.setText(f"I am {player}: show my side")
        self.button.show()

    def bot_plays(self, sides: str, colour: str = "") -> None:
        """Nobody is seated yet and the bot plays `sides`: the map stays covered (what it
        would show belongs to no one at the table) and no one is asked to sit."""
        self.player = ""
        self.colour = colour
        self.title.setText(f"The bot plays {sides}")
        self.title.setStyleSheet(f"color: {on_dark(colour)};" if colour else "")
        self.detail.setText("The map stays covered until a player's side is to act; the "
                            "curtain then asks that player to take the seat.")
        self.button.hide()
