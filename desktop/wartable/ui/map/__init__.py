"""The map on screen, one concern per module.

`scale` (map units to pixels, level of detail), `style` (z order and colours), `text` (labels in
device pixels), `layers` (the static map drawn from geometry), `items` (boxes, counters,
highlights, cost badges), `scene` (the board and its pieces), `view` (zoom, pan, drag and drop),
`overview` (the map in miniature) and `inspector` (the pieces of one stack).
"""
