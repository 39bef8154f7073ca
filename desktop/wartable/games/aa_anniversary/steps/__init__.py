"""The steps of an Axis & Allies Anniversary turn, one module per step kind."""
