"""Wartable: a desktop table for historical board wargames."""

# The one place the version lives; pyproject, About and --version read it.
__version__ = "0.1.0"
