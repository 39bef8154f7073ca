"""The games' own widgets, one package per game, above ui/ (DESIGN.md, PLUGINS.md).

Each package registers its plug-in with `ui.plugin.register_ui` when imported; a game's
registry entry names its package (`GameModule.ui_module`), so the main window imports it
when that game opens and names no game itself."""
