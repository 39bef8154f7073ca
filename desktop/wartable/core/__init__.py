"""The purest layer: hex math, geometry helpers, seeded dice, ids, errors (stdlib + shapely)."""
