"""1940: What If?'s widgets: the prepared-assault odds preview. Importing registers the
plug-in (its supply overlay is data from the game, drawn by the generic map view)."""

from wartable.gameui.whatif1940.oddspreview import W40GameUi
from wartable.ui.plugin import register_ui

register_ui("whatif1940", W40GameUi)
