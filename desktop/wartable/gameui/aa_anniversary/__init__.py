"""Axis & Allies Anniversary's widgets: purchase, research, battle board and record,
income and objectives, turn summary, battle calculator. Importing registers the plug-in."""

from wartable.gameui.aa_anniversary.play import AAGameUi
from wartable.ui.plugin import register_ui

register_ui("aa_anniversary", AAGameUi)
