"""ETO (Bailey's revisions) widgets (issue 22): the attack tool and the VP ledger. Importing
registers the plug-in; the Tables panel, status board and tray are the generic ones."""

from wartable.gameui.eto_bailey.panels import EtoGameUi
from wartable.ui.plugin import register_ui

register_ui("eto_bailey", EtoGameUi)
