"""The engine thread: commands in, immutable snapshots out (QtCore only)."""
