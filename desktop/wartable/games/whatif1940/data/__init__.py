"""Data files of 1940: What If? (TOML, read by wartable.persistence.gamedata)."""
