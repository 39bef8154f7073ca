"""The assisted-play kit's data and state (issue 18): tracks, flags, chit cups, date triggers,
the calendar, the counter mix and the checks an assisted game's data declares.

A game's data declares them in TOML (games/WRITING_A_GAME.md, "Assisted play"); they parse
here into frozen definitions held by GameDefinition. Their values live in `GameState.vars`
under fixed keys, so saves, undo and load-by-replay keep them with no new machinery:

    "track.<id>"    FrozenMap key -> value ("" is the key of a single-value track)
    "flag.<id>"     bool
    "cup.<id>"      tuple of chit ids left in the cup (a chit id once per copy)
    "hand.<side>"   tuple of (cup id, chit id) pairs the side holds privately
    "checked"       FrozenMap step id -> tuple of ticked checklist item indices
    "notes.<side>"  the side's private notes (text)
    "markers"       FrozenMap location -> public marker text
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.model.parse import Reader, is_number
from wartable.model.state import GameState
from wartable.model.values import freeze

PANELS = ("status", "tracks", "ledger")
ENFORCEMENTS = ("enforced", "assisted", "free")
_ID = re.compile(r"^[A-Za-z0-9_\-]+$")
_DATE = re.compile(r"^(\d{4})-(\d{1,2})$")

TrackValue = int | float | str


def _rule(ref: str) -> str:
    """Rule references are stored bare ("17.2"); brackets are added when shown."""
    return ref.strip().removeprefix("[").removesuffix("]").strip()


def _ident(r: Reader, key: str, what: str) -> str:
    if not _ID.match(key):
        raise r.fail_here(f"{what} id {key!r} may hold only letters, digits, '_' and '-'")
    return key


# --------------------------------------------------------------------------- tracks, flags


@dataclass(frozen=True, slots=True)
class TrackDef:
    """A value per key (a nation, a side) or one value (key ""), a number or a status from
    a closed list (`values`), with its rule reference."""

    id: str
    name: str
    keys: tuple[str, ...] = ("",)
    values: tuple[str, ...] = ()  # closed list of statuses; () for a number
    min: float | None = None
    max: float | None = None
    initial: FrozenMap[str, TrackValue] = field(default_factory=FrozenMap)
    rule: str = ""
    provisional: bool = False
    panel: str = "tracks"
    key_names: FrozenMap[str, str] = field(default_factory=FrozenMap)

    @property
    def numeric(self) -> bool:
        return not self.values

    @property
    def single(self) -> bool:
        return self.keys == ("",)

    def problem(self, value: Any) -> str | None:
        """Why `value` cannot be held at all (wrong kind, unknown status), else None.
        Bounds are not checked here: out of bounds is a warning in assisted play."""
        if self.values:
            if value not in self.values:
                return f"{self.name} is one of {', '.join(self.values)}, not {value!r}"
        elif not is_number(value):
            return f"{self.name} is a number, not {value!r}"
        return None

    def out_of_bounds(self, value: Any) -> str | None:
        """The bound `value` breaks (a warning in assisted play), else None."""
        if not self.numeric or not is_number(value):
            return None
        if self.min is not None and value < self.min:
            return f"{self.name} may not go below {_num(self.min)}"
        if self.max is not None and value > self.max:
            return f"{self.name} may not go above {_num(self.max)}"
        return None


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else str(v)


@dataclass(frozen=True, slots=True)
class FlagDef:
    id: str
    name: str
    initial: bool = False
    rule: str = ""
    provisional: bool = False
    panel: str = "status"


# --------------------------------------------------------------------------- chits


@dataclass(frozen=True, slots=True)
class ChitDef:
    id: str
    text: str
    count: int = 1
    rule: str = ""


@dataclass(frozen=True, slots=True)
class CupDef:
    """A cup of secret chits: who may draw, what it holds (each chit `count` times)."""

    id: str
    name: str
    chits: tuple[ChitDef, ...]
    drawn_by: tuple[str, ...] = ()  # side ids; () = any side
    rule: str = ""

    def chit(self, chit_id: str) -> ChitDef:
        for c in self.chits:
            if c.id == chit_id:
                return c
        raise KeyError(chit_id)

    @property
    def initial(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.chits for _ in range(c.count))


# --------------------------------------------------------------------------- calendar


@dataclass(frozen=True, slots=True)
class ExtraTurn:
    """A turn inserted every year after the turn holding `after_month` (AETO's seasonal
    turns, e.g. `{ after_month = 12, label = "Winter" }`)."""

    after_month: int
    label: str


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True, slots=True)
class Calendar:
    """Turn number -> date. Either explicit `labels` (turn 1 is labels[0]) or a `start`
    year-month and `months_per_turn`, with optional yearly extra turns."""

    start: tuple[int, int] | None = None
    months_per_turn: int = 1
    labels: tuple[str, ...] = ()
    extra: tuple[ExtraTurn, ...] = ()

    def _turns(self) -> Iterator[tuple[int, int, str]]:
        """(year, month, extra label or "") of turn 1, 2, ... (forever)."""
        assert self.start is not None
        y, m = self.start
        while True:
            yield y, m, ""
            for i in range(self.months_per_turn):
                month = (m - 1 + i) % 12 + 1
                year = y + (m - 1 + i) // 12
                for e in self.extra:
                    if e.after_month == month:
                        yield year, month, e.label
            m += self.months_per_turn
            y, m = y + (m - 1) // 12, (m - 1) % 12 + 1

    def _walk(self, turn: int) -> tuple[int, int, str]:
        """(year, month, extra label or "") of `turn` (1-based)."""
        for t, got in enumerate(self._turns(), start=1):
            if t == turn:
                return got
        raise AssertionError("unreachable")

    def date(self, turn: int) -> tuple[int, int] | None:
        """The (year, month) a turn starts in (an extra turn: the month of the turn before)."""
        if self.start is None or turn < 1:
            return None
        y, m, _ = self._walk(turn)
        return y, m

    def label(self, turn: int) -> str:
        """"Sep 1939", "Winter 1939" (an extra turn), the explicit label, or ""."""
        if self.labels:
            return self.labels[turn - 1] if 1 <= turn <= len(self.labels) else ""
        if self.start is None or turn < 1:
            return ""
        y, m, extra = self._walk(turn)
        if extra:
            return f"{extra} {y}"
        if self.months_per_turn == 1:
            return f"{_MONTHS[m - 1]} {y}"
        end_m = (m - 1 + self.months_per_turn - 1) % 12 + 1
        end_y = y + (m - 1 + self.months_per_turn - 1) // 12
        tail = f"{_MONTHS[end_m - 1]} {end_y}" if end_y != y else _MONTHS[end_m - 1]
        return f"{_MONTHS[m - 1]}–{tail} {y}" if end_y == y else f"{_MONTHS[m - 1]} {y}–{tail}"

    def turn_of(self, year: int, month: int, limit: int = 10_000) -> int | None:
        """The first turn whose date is (year, month) or later; None if none within limit."""
        if self.start is None:
            return None
        for t, (y, m, _) in enumerate(self._turns(), start=1):
            if (y, m) >= (year, month):
                return t
            if t >= limit:
                return None
        return None

    @property
    def empty(self) -> bool:
        return self.start is None and not self.labels


def parse_date(text: str) -> tuple[int, int] | None:
    """ "1941-06" -> (1941, 6); None when it is not a year-month."""
    m = _DATE.match(text.strip()) if isinstance(text, str) else None
    if m is None or not 1 <= int(m.group(2)) <= 12:
        return None
    return int(m.group(1)), int(m.group(2))


# --------------------------------------------------------------------------- triggers, mix


@dataclass(frozen=True, slots=True)
class TriggerDef:
    """At the start of turn `turn` (or the first turn on or after `date`): a reminder and/or
    effects (raw effect tables, parsed and checked by engine/effects.py at load)."""

    index: int
    turn: int | None = None
    date: tuple[int, int] | None = None
    remind: str = ""
    effects: tuple[FrozenMap[str, Any], ...] = ()
    rule: str = ""

    @property
    def when(self) -> str:
        if self.turn is not None:
            return f"turn {self.turn}"
        assert self.date is not None
        return f"{self.date[0]}-{self.date[1]:02d}"


@dataclass(frozen=True, slots=True)
class CounterMix:
    type: str
    side: str
    count: int


@dataclass(frozen=True, slots=True)
class ForbiddenPlaces:
    """A check of assisted play: these pieces may not be in these places (warned, not
    blocked). Empty `types`/`sides` mean every type/side; places by id or by terrain."""

    locations: frozenset[str] = frozenset()
    terrain: frozenset[str] = frozenset()
    types: frozenset[str] = frozenset()
    sides: frozenset[str] = frozenset()
    text: str = ""
    rule: str = ""


@dataclass(frozen=True, slots=True)
class Checks:
    """What the engine checks in assisted play, warning with the rule and never blocking."""

    stacking_limit: int | None = None  # pieces of one side in one place
    stacking_rule: str = ""
    forbidden: tuple[ForbiddenPlaces, ...] = ()


@dataclass(frozen=True, slots=True)
class KitData:
    """Everything of the kit a game's data declares (GameDefinition holds each part)."""

    tracks: FrozenMap[str, TrackDef] = field(default_factory=FrozenMap)
    flags: FrozenMap[str, FlagDef] = field(default_factory=FrozenMap)
    cups: FrozenMap[str, CupDef] = field(default_factory=FrozenMap)
    triggers: tuple[TriggerDef, ...] = ()
    calendar: Calendar = field(default_factory=Calendar)
    counter_mix: tuple[CounterMix, ...] = ()
    checks: Checks = field(default_factory=Checks)


# --------------------------------------------------------------------------- parsing


def parse_kit(r: Reader, side_ids: tuple[str, ...], unit_types: Mapping[str, Any],
              sources: Mapping[str, str] | None = None) -> KitData:
    """The kit's parts of a game's merged data; DataError naming the entry on the first
    bad value, and the file that defined it (`sources`: "tracks.econ" -> file name)."""
    r = _Sourced(r.data, r.source, sources or {})
    tracks = {k: _track(_sub(r, "tracks", k), k) for k in r.opt_table("tracks")}
    flags = {k: _flag_def(_sub(r, "flags", k), k) for k in r.opt_table("flags")}
    cups = {k: _cup(_sub(r, "cups", k), k, side_ids) for k in r.opt_table("cups")}
    cal_r = r.opt_sub("calendar")
    calendar = _calendar(cal_r) if cal_r is not None else Calendar()
    triggers = tuple(_trigger(t, i, calendar) for i, t in enumerate(r.opt_items("triggers")))
    mix: list[CounterMix] = []
    seen: set[tuple[str, str]] = set()
    for mr in r.opt_items("counter_mix"):
        mr.known("type", "side", "count")
        t = mr.text("type")
        if t not in unit_types:
            raise mr.fail("type", f"unknown unit type {t!r}")
        side = mr.choice("side", side_ids)
        if (t, side) in seen:
            raise mr.fail("type", f"the counter mix lists {side} {t} twice")
        seen.add((t, side))
        mix.append(CounterMix(t, side, mr.integer("count", minimum=0)))
    ch_r = r.opt_sub("checks")
    checks = _checks(ch_r, side_ids, unit_types) if ch_r is not None else Checks()
    return KitData(FrozenMap(tracks), FrozenMap(flags), FrozenMap(cups), triggers, calendar,
                   tuple(mix), checks)


class _Sourced(Reader):
    """The top level of a game's merged data, whose tables say which file they came from."""

    __slots__ = ("sources",)

    def __init__(self, data: Any, source: str, sources: Mapping[str, str]) -> None:
        super().__init__(data, source)
        self.sources = sources

    def file_of(self, key: str) -> str:
        return self.sources.get(key) or self.sources.get(key.split(".", 1)[0]) or self.source

    def sub(self, key: str) -> Reader:
        return Reader(self._required(key), self.file_of(key), key)

    def opt_sub(self, key: str) -> Reader | None:
        v = self.data.get(key)
        return None if v is None else Reader(v, self.file_of(key), key)

    def opt_items(self, key: str) -> list[Reader]:
        src = self.file_of(key)
        return [Reader(v, src, f"{key}[{i}]") for i, v in enumerate(self.opt_seq(key))]


def _sub(r: Reader, table: str, key: str) -> Reader:
    top = r.sub(table)
    src = r.file_of(f"{table}.{key}") if isinstance(r, _Sourced) else top.source
    sub = Reader(top.data[key], src, f"{table}.{key}")
    _ident(sub, key, table.rstrip("s"))
    return sub


def _track(r: Reader, tid: str) -> TrackDef:
    r.known("name", "rule", "keys", "key_names", "values", "min", "max", "initial",
            "provisional", "panel")
    keys = tuple(r.opt_seq("keys", of="text")) or ("",)
    if len(set(keys)) != len(keys):
        raise r.fail("keys", "lists a key twice")
    values = tuple(r.opt_seq("values", of="text"))
    if len(set(values)) != len(values):
        raise r.fail("values", "lists a status twice")
    lo, hi = r.opt_number("min"), r.opt_number("max")
    if values and (lo is not None or hi is not None):
        raise r.fail("min", "a track of statuses has no bounds; drop min/max or values")
    if lo is not None and hi is not None and lo > hi:
        raise r.fail("min", f"min {_num(lo)} is above max {_num(hi)}")
    names_r = r.opt_sub("key_names")
    key_names = {k: names_r.text(k) for k in names_r.data} if names_r is not None else {}
    for k in key_names:
        if k not in keys:
            raise r.fail(f"key_names.{k}", f"is not one of the track's keys ({', '.join(keys)})")
    td = TrackDef(tid, r.text("name", nonempty=True), keys, values, lo, hi,
                  rule=_rule(r.opt_text("rule", "")), provisional=r.opt_flag("provisional"),
                  panel=r.opt_choice("panel", PANELS, "tracks"),
                  key_names=FrozenMap(key_names))
    default: TrackValue = values[0] if values else (lo if lo is not None and lo > 0 else 0)
    if isinstance(default, float) and default.is_integer():
        default = int(default)
    raw = r.data.get("initial")
    initial: dict[str, TrackValue] = {}
    if raw is None:
        initial = {k: default for k in keys}
    elif isinstance(raw, Mapping):
        for k, v in raw.items():
            if k not in keys:
                raise r.fail(f"initial.{k}", f"is not one of the track's keys "
                             f"({', '.join(repr(x) for x in keys)})")
            initial[k] = v
        initial = {k: initial.get(k, default) for k in keys}
    else:
        initial = {k: raw for k in keys}
    for k, v in initial.items():
        problem = td.problem(v)
        if problem:
            raise r.fail(f"initial.{k}" if k else "initial", problem)
    return replace(td, initial=FrozenMap(initial))


def _flag_def(r: Reader, fid: str) -> FlagDef:
    r.known("name", "rule", "initial", "provisional", "panel")
    return FlagDef(fid, r.text("name", nonempty=True), r.opt_flag("initial"),
                   _rule(r.opt_text("rule", "")), r.opt_flag("provisional"),
                   r.opt_choice("panel", PANELS, "status"))


def _cup(r: Reader, cid: str, side_ids: tuple[str, ...]) -> CupDef:
    r.known("name", "rule", "drawn_by", "chits")
    drawn = tuple(r.opt_seq("drawn_by", of="text"))
    for i, s in enumerate(drawn):
        if s not in side_ids:
            raise r.fail(f"drawn_by[{i}]", f"is not a side of the game ({', '.join(side_ids)})")
    chits: list[ChitDef] = []
    for cr in r.items("chits"):
        cr.known("id", "text", "count", "rule")
        chid = cr.text("id", nonempty=True)
        if any(c.id == chid for c in chits):
            raise cr.fail("id", f"chit {chid!r} appears twice in the cup")
        chits.append(ChitDef(chid, cr.text("text", nonempty=True),
                             cr.opt_integer("count", 1, minimum=1), _rule(cr.opt_text("rule", ""))))
    if not chits:
        raise r.fail("chits", "a cup needs at least one chit")
    return CupDef(cid, r.text("name", nonempty=True), tuple(chits), drawn,
                  _rule(r.opt_text("rule", "")))


def _calendar(r: Reader) -> Calendar:
    r.known("start", "months_per_turn", "turns", "extra")
    labels = tuple(r.opt_seq("turns", of="text"))
    start_text = r.opt_text("start")
    if labels and start_text is not None:
        raise r.fail("turns", "give either start (with months_per_turn) or turns, not both")
    start = None
    if start_text is not None:
        start = parse_date(start_text)
        if start is None:
            raise r.fail("start", f"must be a year-month like '1939-09', not {start_text!r}")
    extra = []
    for er in r.opt_items("extra"):
        er.known("after_month", "label")
        month = er.integer("after_month", minimum=1)
        if month > 12:
            raise er.fail("after_month", f"must be a month 1-12, not {month}")
        extra.append(ExtraTurn(month, er.text("label", nonempty=True)))
    if extra and start is None:
        raise r.fail("extra", "extra turns need a start date")
    if start is None and not labels:
        raise r.fail("start", "is missing; a calendar needs start or turns")
    return Calendar(start, r.opt_integer("months_per_turn", 1, minimum=1), labels, tuple(extra))


def _trigger(r: Reader, i: int, calendar: Calendar) -> TriggerDef:
    r.known("turn", "date", "remind", "effects", "rule")
    turn = r.opt_integer("turn", minimum=1)
    date_text = r.opt_text("date")
    if (turn is None) == (date_text is None):
        raise r.fail("turn", "a trigger needs either turn or date (not both)")
    date = None
    if date_text is not None:
        date = parse_date(date_text)
        if date is None:
            raise r.fail("date", f"must be a year-month like '1941-06', not {date_text!r}")
        if calendar.start is None:
            raise r.fail("date", "a date trigger needs [calendar] start")
    remind = r.opt_text("remind", "")
    effects = tuple(freeze(dict(e.data)) for e in r.opt_items("effects"))
    if not remind and not effects:
        raise r.fail("remind", "a trigger needs remind or effects")
    return TriggerDef(i, turn, date, remind, effects, _rule(r.opt_text("rule", "")))


def _checks(r: Reader, side_ids: tuple[str, ...], unit_types: Mapping[str, Any]) -> Checks:
    r.known("stacking_limit", "stacking_rule", "forbidden")
    forbidden: list[ForbiddenPlaces] = []
    for fr in r.opt_items("forbidden"):
        fr.known("locations", "terrain", "types", "sides", "text", "rule")
        types = frozenset(fr.opt_seq("types", of="text"))
        bad = sorted(types - set(unit_types))
        if bad:
            raise fr.fail("types", f"unknown unit type {bad[0]!r}")
        sides = frozenset(fr.opt_seq("sides", of="text"))
        if sides - set(side_ids):
            raise fr.fail("sides", f"unknown side {sorted(sides - set(side_ids))[0]!r}")
        locs = frozenset(fr.opt_seq("locations", of="text"))
        terrain = frozenset(fr.opt_seq("terrain", of="text"))
        if not locs and not terrain:
            raise fr.fail("locations", "name the forbidden locations or terrain")
        forbidden.append(ForbiddenPlaces(locs, terrain, types, sides,
                                         fr.text("text", nonempty=True),
                                         _rule(fr.opt_text("rule", ""))))
    return Checks(r.opt_integer("stacking_limit", minimum=1),
                  _rule(r.opt_text("stacking_rule", "")), tuple(forbidden))


# --------------------------------------------------------------------------- state helpers


def track_key(track_id: str) -> str:
    return f"track.{track_id}"


def flag_key(flag_id: str) -> str:
    return f"flag.{flag_id}"


def cup_key(cup_id: str) -> str:
    return f"cup.{cup_id}"


def hand_key(side: str) -> str:
    return f"hand.{side}"


def notes_key(side: str) -> str:
    return f"notes.{side}"


CHECKED = "checked"
MARKERS = "markers"
# Off-map places of assisted play: a counter sent to the dead pile or back to the force pool.
DEAD_PILE = "kit:dead"
FORCE_POOL = "kit:pool"
KIT_PLACES = (DEAD_PILE, FORCE_POOL)
HIDDEN_CHIT = "?"


def track(state: GameState, track_id: str, key: str = "") -> Any:
    """A track's value for `key` ("" for a single-value track); None when unset."""
    values = state.vars.get(track_key(track_id))
    return values.get(key) if isinstance(values, Mapping) else None


def track_values(state: GameState, track_id: str) -> FrozenMap[str, Any]:
    values = state.vars.get(track_key(track_id))
    return values if isinstance(values, FrozenMap) else FrozenMap()


def with_track(state: GameState, track_id: str, key: str, value: Any) -> GameState:
    return state.with_var(track_key(track_id), track_values(state, track_id).set(key, value))


def flag(state: GameState, flag_id: str) -> bool:
    return bool(state.vars.get(flag_key(flag_id), False))


def with_flag(state: GameState, flag_id: str, value: bool) -> GameState:
    return state.with_var(flag_key(flag_id), bool(value))


def cup(state: GameState, cup_id: str) -> tuple[str, ...]:
    return tuple(state.vars.get(cup_key(cup_id), ()))


def hand(state: GameState, side: str) -> tuple[tuple[str, str], ...]:
    """The (cup id, chit id) pairs `side` holds; in another side's view, ("?", "?") each."""
    return tuple((str(c[0]), str(c[1])) for c in state.vars.get(hand_key(side), ()))


def checked(state: GameState, step_id: str) -> tuple[int, ...]:
    got = state.vars.get(CHECKED, FrozenMap())
    return tuple(got.get(step_id, ())) if isinstance(got, Mapping) else ()


def notes(state: GameState, side: str) -> str:
    return str(state.vars.get(notes_key(side), ""))


def markers(state: GameState) -> FrozenMap[str, str]:
    got = state.vars.get(MARKERS)
    return got if isinstance(got, FrozenMap) else FrozenMap()


def initial_vars(kit: KitData) -> dict[str, Any]:
    """The kit's starting values: each track's initial, each flag's, each cup full."""
    out: dict[str, Any] = {}
    for t in kit.tracks.values():
        out[track_key(t.id)] = t.initial
    for f in kit.flags.values():
        out[flag_key(f.id)] = f.initial
    for c in kit.cups.values():
        out[cup_key(c.id)] = c.initial
    return out


def private_view(state: GameState, side: str | None) -> GameState:
    """`state` as `side` may see it (None: as every side may): other sides' hands show only
    how many chits they hold, their notes are gone, and no cup shows what is left in it
    (that would tell what was drawn)."""
    vars_ = state.vars
    changed = False
    out: dict[str, Any] = {}
    for k, v in vars_.items():
        if k.startswith("hand.") and k[5:] != side:
            v = tuple((HIDDEN_CHIT, HIDDEN_CHIT) for _ in v)
            changed = True
        elif k.startswith("notes.") and k[6:] != side:
            changed = True
            continue
        elif k.startswith("cup.") and isinstance(v, tuple):
            v = tuple(HIDDEN_CHIT for _ in v)
            changed = True
        out[k] = v
    return replace(state, vars=FrozenMap(out)) if changed else state
