"""Built map files and their sources, installed as the package wartable.mapdata."""
