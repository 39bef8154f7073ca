"""Who plays what at the table: a game's commands (roles) and its player-count splits.

A command is one player's role within a side: 1940: What If? has a German west and a German
east commander on the one German side [1.3]. Each command decides the steps listed for it
(the frames raised while those steps run included); the side's `senior` command decides the
rest. A split says which commands each seat holds for a number of players. Games that
declare no commands have one command per side, named after it, and no splits.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from wartable.model.parse import Reader


@dataclass(frozen=True, slots=True)
class Command:
    id: str
    name: str
    side: str
    steps: tuple[str, ...] = ()  # step ids this command decides, whoever's step it is
    senior: bool = False  # decides the side's steps no command lists
    rule: str = ""


@dataclass(frozen=True, slots=True)
class Split:
    players: int
    name: str
    seats: tuple[tuple[str, ...], ...]  # the command ids each seat holds
    rule: str = ""


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    commands: tuple[Command, ...]
    splits: tuple[Split, ...]
    rule: str = ""
    note: str = ""

    def command(self, command_id: str) -> Command:
        for c in self.commands:
            if c.id == command_id:
                return c
        raise KeyError(command_id)

    def command_for(self, side: str, step_id: str) -> str:
        """The command deciding for `side` during step `step_id` (the side itself when it
        has no command)."""
        own = [c for c in self.commands if c.side == side]
        for c in own:
            if step_id in c.steps:
                return c.id
        for c in own:
            if c.senior:
                return c.id
        return side

    def split(self, players: int) -> Split:
        for s in self.splits:
            if s.players == players:
                return s
        raise KeyError(players)


def parse_players(r: Reader | None, side_ids: Sequence[str],
                  step_ids: Collection[str]) -> PlayerSetup | None:
    """The [players] table: commands and splits, each name checked against the game."""
    if r is None:
        return None
    r.known("rule", "note", "provisional", "commands", "splits")
    commands: list[Command] = []
    for cr in r.items("commands"):
        cr.known("id", "name", "side", "steps", "senior", "rule")
        steps = tuple(cr.opt_seq("steps", of="text"))
        for s in steps:
            if s not in step_ids:
                raise cr.fail("steps", f"names no step of the sequence of play: {s!r}")
        c = Command(cr.text("id", nonempty=True), cr.text("name", nonempty=True),
                    cr.choice("side", side_ids), steps, cr.opt_flag("senior"),
                    cr.opt_text("rule", ""))
        if any(o.id == c.id for o in commands):
            raise cr.fail("id", f"duplicate command {c.id!r}")
        commands.append(c)
    ids = [c.id for c in commands]
    for side in side_ids:
        own = [c for c in commands if c.side == side]
        if len(own) > 1 and sum(c.senior for c in own) != 1:
            raise r.fail("commands", f"side {side!r} has {len(own)} commands: exactly one "
                                     "must be senior (it decides the steps none lists)")
    splits: list[Split] = []
    for sr in r.opt_items("splits"):
        sr.known("players", "name", "seats", "rule")
        n = sr.integer("players", minimum=1)
        seats: list[tuple[str, ...]] = []
        for seat in sr.seq("seats", nonempty=True):
            if not isinstance(seat, Sequence) or isinstance(seat, str) or not seat \
                    or not all(isinstance(c, str) for c in seat):
                raise sr.fail("seats", f"each seat must be a list of command ids, not {seat!r}")
            seats.append(tuple(seat))
        held = [cid for seat in seats for cid in seat]
        for cid in held:
            if cid not in ids:
                raise sr.fail("seats",
                              f"names no command: {cid!r} (commands: {', '.join(ids)})")
        if sorted(held) != sorted(ids):
            raise sr.fail("seats", "must hold every command exactly once")
        if len(seats) != n:
            raise sr.fail("seats", f"has {len(seats)} seats for {n} players")
        splits.append(Split(n, sr.text("name", nonempty=True), tuple(seats),
                            sr.opt_text("rule", "")))
    return PlayerSetup(tuple(commands), tuple(splits), r.opt_text("rule", ""),
                       r.opt_text("note", ""))
