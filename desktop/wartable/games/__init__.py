"""One folder per game. `registry` knows which games are installed."""
