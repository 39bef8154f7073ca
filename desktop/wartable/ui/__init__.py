"""The Qt user interface: main window, map scene and view, side panel, dialogs."""
