"""Help menu pages: the keyboard shortcuts (read from the window's own menus, so they never
go stale) and the open game's how-to-play page from its data (issue 16)."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMenu, QTextBrowser, QVBoxLayout, QWidget

# Keys the map view takes itself (ui/map/view.py), not menu entries.
MAP_KEYS = (
    ("Mouse wheel", "Zoom at the cursor"),
    ("Drag the background, arrow keys", "Pan the map"),
    ("Drag a counter", "Move it; its legal destinations light up with their cost"),
    ("Shift + drag a stack", "Move the whole stack"),
    ("Click a stack", "List it in the Stack dock"),
    ("Home", "Fit the map to the window"),
    ("0", "Zoom to 100 %"),
)


# An action whose text changes with the game (Undo names the move it takes back) keeps its
# plain menu name in this property for the shortcut page.
HELP_NAME = "helpName"


def shortcut_rows(menus: list[QMenu]) -> list[tuple[str, str]]:
    """(keys, what they do) for every menu entry with a shortcut, in menu order."""
    rows: list[tuple[str, str]] = []

    def walk(menu: QMenu, path: str) -> None:
        for a in menu.actions():
            if a.menu() is not None:
                walk(a.menu(), f"{path} → {a.text().replace('&', '')}")  # type: ignore[arg-type]
            elif not a.shortcut().isEmpty():
                keys = a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
                name = a.property(HELP_NAME) or a.text()
                rows.append((keys, f"{path} → {str(name).replace('&', '')}"))

    for m in menus:
        walk(m, m.title().replace("&", ""))
    return rows


def page(parent: QWidget, title: str, markdown: str, name: str) -> QDialog:
    dlg = QDialog(parent)
    dlg.setObjectName(name)
    dlg.setWindowTitle(title)
    lay = QVBoxLayout(dlg)
    text = QTextBrowser()
    text.setObjectName("helpText")
    text.setOpenExternalLinks(False)
    text.setMarkdown(markdown)
    lay.addWidget(text)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dlg.reject)
    lay.addWidget(buttons)
    dlg.resize(640, 560)
    return dlg


def shortcuts_markdown(menus: list[QMenu]) -> str:
    lines = ["# Keyboard and mouse", "", "| Keys | Does |", "|---|---|"]
    lines += [f"| {k} | {d} |" for k, d in [*shortcut_rows(menus), *MAP_KEYS]]
    return "\n".join(lines)
