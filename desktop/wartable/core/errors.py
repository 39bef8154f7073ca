"""One exception hierarchy. Every message says what was wrong and what to do."""

from __future__ import annotations


class WartableError(Exception):
    """Base of every error Wartable raises on purpose; str() is shown to users verbatim."""


class IllegalAction(WartableError):
    """An action the rules do not allow now; the message cites the rule when there is one."""


class DataError(WartableError):
    """A data file (units, scenario, table, sequence, map) failed validation on load."""

    def __init__(self, source: str, where: str, what: str) -> None:
        self.source = source
        self.where = where
        self.what = what
        loc = f"{source}: {where}: " if where else f"{source}: "
        super().__init__(loc + what)


class SaveFileError(WartableError):
    """A save file that cannot be opened; the file is never modified."""


class MapError(DataError):
    """A map file that failed validation."""
