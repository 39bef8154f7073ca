"""A game's immutable definition: sides, unit types, scenarios, sequence, tables.

Parsed from plain dicts (the TOML files under games/<id>/data/, read by
persistence.gamedata) so this layer never touches files.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.model.parse import Reader
from wartable.model.seats import PlayerSetup, parse_players
from wartable.model.sequence import Sequence
from wartable.model.tracks import (
    Calendar,
    Checks,
    CounterMix,
    CupDef,
    FlagDef,
    KitData,
    TrackDef,
    TriggerDef,
    parse_kit,
)
from wartable.model.values import freeze

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
# NATO-style symbols the counter renderer knows (APP-6 land unit basics).
SYMBOLS = frozenset(
    {"infantry", "armour", "mechanized", "cavalry", "artillery", "airborne", "mountain",
     "headquarters", "garrison", "fortress", "air", "fighter", "bomber", "naval", "transport",
     "submarine", "destroyer", "cruiser", "battleship", "carrier", "aa_gun", "factory",
     "marker", "none"}
)


@dataclass(frozen=True, slots=True)
class Side:
    id: str
    name: str
    colour: str  # counter background
    text_colour: str = "#000000"
    alt_colour: str = ""  # colour-blind palette alternative
    hidden_info: bool = False  # does this side keep secrets from the others?


@dataclass(frozen=True, slots=True)
class UnitType:
    id: str
    name: str
    symbol: str
    factors: tuple[int, ...] = ()  # printed factors, left to right (e.g. attack, defense)
    movement: int = 0
    size: str = ""  # echelon mark: "XX", "XXX", "XXXX"...
    extra: FrozenMap[str, Any] = field(default_factory=FrozenMap)

    @property
    def factor_text(self) -> str:
        return "-".join(str(f) for f in self.factors + ((self.movement,) if self.movement else ()))


@dataclass(frozen=True, slots=True)
class Placement:
    """One setup entry: units of a type for a side at a location."""

    type: str
    side: str
    location: str
    count: int = 1
    name: str = ""  # unit designation ("3rd Pz"), if any
    attrs: FrozenMap[str, Any] = field(default_factory=FrozenMap)


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    name: str
    description: str
    first_turn: int
    last_turn: int
    setup: tuple[Placement, ...]
    vars: FrozenMap[str, Any] = field(default_factory=FrozenMap)
    # `no_turn_limit = true`: played until a side wins (A&A, How to Win); last_turn is then
    # only where the engine stops a game nobody won.
    open_ended: bool = False
    # What the game calls a turn (`[game] turn_word`): A&A plays "rounds" (Order of Play).
    turn_word: str = "Turn"

    @property
    def turn_limit(self) -> int | None:
        """The last turn, or None for a scenario with no turn limit."""
        return None if self.open_ended else self.last_turn

    def turns_text(self, turn: int | None = None) -> str:
        """"Turn 3 of 11", "Round 3" (no limit), "Turns 1–11" (without `turn`)."""
        word = self.turn_word
        if turn is not None:
            return f"{word} {turn}" + (f" of {self.turn_limit}" if self.turn_limit else "")
        if self.turn_limit is None:
            return f"From {word.lower()} {self.first_turn}, no {word.lower()} limit"
        return f"{word}s {self.first_turn}–{self.turn_limit}"


@dataclass(frozen=True, slots=True)
class OptionDef:
    id: str
    name: str
    default: Any
    rule: str = ""
    description: str = ""


NOTE_KINDS = ("flag", "value", "piece", "place")


@dataclass(frozen=True, slots=True)
class PieceNote:
    """How players read one piece attribute (the Stack dock, tooltips): a piece's other
    attributes are bookkeeping and stay hidden. `text` may hold {value}, {piece} (the named
    piece, for an attribute holding a piece id) or {place} (the named location)."""

    attr: str
    kind: str  # NOTE_KINDS: flag (shown when true), value, piece, place
    text: str


STATE_NOTE_KINDS = ("value", "flag", "sides")


@dataclass(frozen=True, slots=True)
class StateNote:
    """How players read one game-state variable (the position sheet's status tables): a
    game that declares any keeps its other variables as bookkeeping, out of sight. A
    variable holding {side: value} is read per side. `words` names closed values
    ("neutral" -> "Neutral"); kind "sides" reads a list of side ids as their names."""

    var: str
    label: str
    kind: str = "value"  # STATE_NOTE_KINDS
    words: FrozenMap[str, str] = field(default_factory=FrozenMap)


@dataclass(frozen=True, slots=True)
class GameDefinition:
    id: str
    title: str
    data_version: str
    sides: tuple[Side, ...]
    unit_types: FrozenMap[str, UnitType]
    scenarios: FrozenMap[str, Scenario]
    sequence: Sequence
    maps: tuple[str, ...] = ()  # map ids "game/name"
    options: tuple[OptionDef, ...] = ()
    tables: FrozenMap[str, Any] = field(default_factory=FrozenMap)  # raw tables, parsed by games
    enforcement: str = "enforced"  # or "assisted" (DESIGN.md, the games table)
    players: PlayerSetup | None = None  # commands and player-count splits (model/seats.py)
    piece_notes: tuple[PieceNote, ...] = ()  # the piece attributes players read
    state_notes: tuple[StateNote, ...] = ()  # the state variables players read
    # How the tables are printed as player aid cards (raw; read by printing/charts.py).
    player_aids: FrozenMap[str, Any] = field(default_factory=FrozenMap)
    # Which data file defined each top-level key ("sequence") and each table ("tables.crt"),
    # so a check made after the files are merged names the file (persistence/gamedata.py).
    sources: FrozenMap[str, str] = field(default_factory=FrozenMap, compare=False)
    # The assisted-play kit's data (model/tracks.py, issue 18); empty for enforced games.
    kit: KitData = field(default_factory=KitData)

    @property
    def tracks(self) -> FrozenMap[str, TrackDef]:
        return self.kit.tracks

    @property
    def flags(self) -> FrozenMap[str, FlagDef]:
        return self.kit.flags

    @property
    def cups(self) -> FrozenMap[str, CupDef]:
        return self.kit.cups

    @property
    def triggers(self) -> tuple[TriggerDef, ...]:
        return self.kit.triggers

    @property
    def calendar(self) -> Calendar:
        return self.kit.calendar

    @property
    def counter_mix(self) -> tuple[CounterMix, ...]:
        return self.kit.counter_mix

    @property
    def checks(self) -> Checks:
        return self.kit.checks

    @property
    def assisted(self) -> bool:
        """Is any part of the game played assisted or free (the kit's verbs and places)?"""
        return self.enforcement != "enforced" or any(
            p.step.enforcement not in (None, "enforced") for p in self.sequence.positions)

    def enforcement_of(self, step_enforcement: str | None) -> str:
        """A step's enforcement: its own, else the game's."""
        return step_enforcement or self.enforcement

    def date_label(self, turn: int) -> str:
        """The calendar's label of a turn ("Sep 1939"), "" without a calendar."""
        return self.calendar.label(turn)

    def source_of(self, key: str) -> str:
        """The data file that defined `key` ("sequence", "tables.<id>"), else the game id."""
        return self.sources.get(key) or self.sources.get(key.split(".", 1)[0]) or self.id

    def side(self, side_id: str) -> Side:
        for s in self.sides:
            if s.id == side_id:
                return s
        raise KeyError(side_id)

    @property
    def side_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.sides)

    def default_options(self) -> FrozenMap[str, Any]:
        return FrozenMap({o.id: o.default for o in self.options})

    @staticmethod
    def from_dict(data: Mapping[str, Any], source: str,
                  sources: Mapping[str, str] | None = None) -> GameDefinition:
        """Build from the merged contents of a game's data files (`sources`: which file
        defined each key, for the errors of the parts that use it)."""
        r = Reader(data, source)
        g = r.sub("game")
        sides = tuple(_side(sr) for sr in r.opt_items("sides"))
        if not sides:
            raise r.fail("sides", "a game needs at least one side")
        side_ids = tuple(s.id for s in sides)
        unit_types: dict[str, UnitType] = {}
        for ur in r.opt_items("units"):
            u = _unit(ur)
            if u.id in unit_types:
                raise ur.fail("id", f"duplicate unit type {u.id!r}")
            unit_types[u.id] = u
        scenarios: dict[str, Scenario] = {}
        for sr in r.opt_items("scenarios"):
            sc = _scenario(sr, side_ids, unit_types, g.opt_text("turn_word", "Turn",
                                                                nonempty=True))
            scenarios[sc.id] = sc
        if not scenarios:
            raise r.fail("scenarios", "a game needs at least one scenario")
        options = tuple(
            OptionDef(o.text("id"), o.text("name"), o.data.get("default", False),
                      o.opt_text("rule", ""), o.opt_text("description", ""))
            for o in r.opt_items("options")
        )
        enforcement = g.opt_choice("enforcement", ("enforced", "assisted", "free"), "enforced")
        notes = tuple(_note(n) for n in r.opt_items("piece_notes"))
        state_notes = tuple(_state_note(n) for n in r.opt_items("state_notes"))
        sequence = Sequence.from_dict(r.table("sequence"), side_ids, source,
                                      {s.id: s.name for s in sides})
        players = parse_players(r.opt_sub("players"), side_ids,
                                {p.step.id for p in sequence.positions})
        return GameDefinition(
            id=g.text("id"),
            title=g.text("title"),
            data_version=g.text("data_version"),
            sides=sides,
            unit_types=FrozenMap(unit_types),
            scenarios=FrozenMap(scenarios),
            sequence=sequence,
            maps=tuple(g.opt_seq("maps")),
            options=options,
            tables=freeze(r.opt_table("tables")),
            enforcement=enforcement,
            players=players,
            piece_notes=notes,
            state_notes=state_notes,
            player_aids=freeze(r.opt_table("player_aids")),
            kit=parse_kit(r, side_ids, unit_types, sources),
        )


def _note(r: Reader) -> PieceNote:
    kind = r.choice("kind", NOTE_KINDS)
    text = r.text("text")
    field_name = {"value": "value", "piece": "piece", "place": "place"}.get(kind)
    try:
        text.format(value="", piece="", place="")
    except (KeyError, IndexError, ValueError) as e:
        raise r.fail("text", f"may hold only {{value}}, {{piece}} or {{place}}: {e}") from e
    if field_name and "{" + field_name + "}" not in text:
        raise r.fail("text", f"a {kind} note names its {field_name} with {{{field_name}}}")
    return PieceNote(r.text("attr"), kind, text)


def _state_note(r: Reader) -> StateNote:
    words = r.opt_table("words")
    for k, v in words.items():
        if not isinstance(v, str):
            raise r.fail("words", f"{k!r} must name its value in words, not {v!r}")
    return StateNote(r.text("var"), r.text("label"),
                     r.opt_choice("kind", STATE_NOTE_KINDS, "value"), FrozenMap(words))


def _colour(r: Reader, key: str, default: str | None = None) -> str:
    c = r.text(key) if default is None else r.opt_text(key, default)
    if c and not _COLOUR.match(c):
        raise r.fail(key, f"must be a colour like '#a0b0c0', not {c!r}")
    return c


def _side(r: Reader) -> Side:
    return Side(
        id=r.text("id"),
        name=r.text("name"),
        colour=_colour(r, "colour"),
        text_colour=_colour(r, "text_colour", "#000000"),
        alt_colour=_colour(r, "alt_colour", ""),
        hidden_info=r.opt_flag("hidden_info"),
    )


def _unit(r: Reader) -> UnitType:
    symbol = r.opt_choice("symbol", sorted(SYMBOLS), "none")
    factors = r.opt_seq("factors", of="integer")
    known = {"id", "name", "symbol", "factors", "movement", "size"}
    return UnitType(
        id=r.text("id"),
        name=r.text("name"),
        symbol=symbol,
        factors=tuple(factors),
        movement=r.opt_integer("movement", 0),
        size=r.opt_text("size", ""),
        extra=freeze({k: v for k, v in r.data.items() if k not in known}),
    )


def _scenario(r: Reader, sides: tuple[str, ...], units: Mapping[str, UnitType],
              turn_word: str = "Turn") -> Scenario:
    setup: list[Placement] = []
    for pr in r.opt_items("setup"):
        t = pr.text("type")
        if t not in units:
            raise pr.fail("type", f"unknown unit type {t!r}")
        side = pr.choice("side", sides)
        count = pr.opt_integer("count", 1, minimum=1)
        known = {"type", "side", "location", "count", "name"}
        setup.append(
            Placement(t, side, pr.text("location"), count, pr.opt_text("name", ""),
                      freeze({k: v for k, v in pr.data.items() if k not in known}))
        )
    first = r.opt_integer("first_turn", 1)
    last = r.integer("last_turn")
    if last < first:
        raise r.fail("last_turn", f"must not be before first_turn ({first})")
    return Scenario(
        id=r.text("id"),
        name=r.text("name"),
        description=r.opt_text("description", ""),
        first_turn=first,
        last_turn=last,
        setup=tuple(setup),
        vars=freeze(r.opt_table("vars")),
        open_ended=r.opt_flag("no_turn_limit"),
        turn_word=turn_word,
    )
