"""Immutable definitions (units, scenarios, sequence of play) and the immutable GameState."""
