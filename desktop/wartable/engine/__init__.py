"""The game-independent machine: sequence position, prompts, actions, dice, undo history.

Public API (DESIGN.md, The engine): `new_game`, `prompt`, `apply` in `loop`, `Session` in
`session` for undo/redo and the action log. Games plug in by subclassing `rules.Rules`.
"""
