"""Fuzzing and fault injection for issue 15 ("never lose a game, never hang, never leak").

Shared by the bounded tests (tests/persistence/test_reliability_fuzz.py, a few seconds
each) and a bigger run made by hand and quoted in the issue's note:

    python tests/reliability.py --saves 2000 --actions 5000 --hidden 2000 --kills 100

Each campaign returns a Report: how many cases, failures by kind (an exception other than
the one promised, a broken invariant, a leak, a case slower than its bound), the slowest
case, and the process's peak memory.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from wartable.core.errors import IllegalAction, SaveFileError
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import FREE_MOVE, Action
from wartable.engine.loop import apply, deciding_side, prompt
from wartable.engine.randomplay import play_random
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.model.state import GameState
from wartable.persistence import savefile, scramble
from wartable.persistence.gamedata import load_game

ROOT = Path(__file__).resolve().parents[1]
CASE_SECONDS = 5.0  # CPU seconds: a case slower than this is a failure ("slow")


@dataclass
class Report:
    name: str
    cases: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)
    slowest: tuple[float, str] = (0.0, "")

    def fail(self, kind: str, example: str) -> None:
        self.failures[kind] += 1
        self.examples.setdefault(kind, example[:300])

    def timed(self, seconds: float, case: str) -> None:
        """CPU seconds of the case (wall seconds for kills, which run in a child)."""
        self.cases += 1
        if seconds > self.slowest[0]:
            self.slowest = (seconds, case)
        if seconds > CASE_SECONDS:
            self.fail("slow", f"{case}: {seconds:.1f} s")

    def text(self) -> str:
        fails = ", ".join(f"{k}: {v}" for k, v in sorted(self.failures.items())) or "none"
        return (f"{self.name}: {self.cases} cases; failures {fails}; slowest "
                f"{self.slowest[0]:.2f} s ({self.slowest[1]}); peak RSS {peak_mb():.0f} MB")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- sessions to start from ---------------------------------------------------------------

GAMES = (("skirmish", "contact"), ("whatif1940", None), ("aa_anniversary", None))


@cache
def sessions(game_id: str, scenario: str | None, count: int = 3) -> tuple[Session, ...]:
    """A few positions of a game: its start and after some random play."""
    g = load_game(game_id)
    sc = scenario or sorted(g.definition.scenarios)[0]
    start = Session.start(g, sc, FrozenMap(), seed=3)
    out = [start]
    for i in range(1, count):
        out.append(play_random(start, f"rel{i}", max_actions=40 * i).session)
    return tuple(out)


# --- saves ----------------------------------------------------------------------------------

def _paths(doc: Any, rng: random.Random) -> list[Any]:
    path: list[Any] = []
    node = doc
    while isinstance(node, dict | list) and node and (not path or rng.random() < 0.7):
        key = rng.choice(sorted(node) if isinstance(node, dict) else range(len(node)))
        path.append(key)
        node = node[key]
    return path


def _set(doc: Any, path: list[Any], value: Any) -> None:
    node = doc
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value


def _deep(n: int) -> Any:
    v: Any = 0
    for _ in range(n):
        v = [v]
    return v


VALUES = [lambda r: -(2**63), lambda r: 2**63, lambda r: int("9" * r.randint(20, 4000)),
          lambda r: _deep(r.randint(50, 900)), lambda r: list(range(r.randint(1, 300_000))),
          lambda r: "x" * r.randint(1, 100_000), lambda r: None, lambda r: {"verb": []},
          lambda r: 1e308, lambda r: "nowhere-9999", lambda r: [[]] * 1000]


def mutate_save(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One mutation of a save's bytes, named for the report."""
    kind = rng.choice(["flip", "truncate", "value", "value", "value", "format_version",
                       "bomb", "nested_text", "digits_text", "encoding"])
    if kind == "flip":
        b = bytearray(data)
        for _ in range(rng.randint(1, 20)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return kind, bytes(b)
    if kind == "truncate":
        return kind, data[: rng.randrange(len(data))]
    if kind == "bomb":
        return kind, gzip.compress(b"[" + b"0," * rng.randint(1, 40_000_000) + b"0]", 9)
    if kind == "nested_text":
        n = rng.randint(500, 200_000)
        return kind, b'{"format": "wartable-save", "x": ' + b"[" * n + b"]" * n + b"}"
    if kind == "digits_text":
        return kind, b'{"format": "wartable-save", "format_version": ' + \
            b"9" * rng.randint(100, 50_000) + b"}"
    if kind == "encoding":
        return kind, data.decode("utf-8").encode(rng.choice(["utf-16", "utf-32", "latin-1"]),
                                                  errors="replace")
    doc = json.loads(data)
    if kind == "format_version":
        doc["format_version"] = rng.choice([-(2**63), -(10**6), 0, 2**62, 10**30])
    else:
        _set(doc, _paths(doc, rng) or ["x"], rng.choice(VALUES)(rng))
    return kind, json.dumps(doc).encode()


@cache
def base_saves() -> tuple[tuple[str, bytes], ...]:
    out = []
    for gid, sc in GAMES[:2]:  # A&A replays are slow; its loader is the same code
        s = sessions(gid, sc)[-1]
        out.append((gid, savefile.dump_save(s, "2026-01-01T00:00:00+00:00")))
    return tuple(out)


def fuzz_saves(n: int, seed: int = 1) -> Report:
    rep = Report("mutated saves")
    rng = random.Random(seed)
    for i in range(n):
        gid, data = rng.choice(base_saves())
        kind, bad = mutate_save(data, rng)
        case = f"save {i} ({gid}, {kind})"
        t = time.process_time()
        try:
            s = savefile.load_save(bad, "fuzz.wartable.json")
            problems = s.game.rules.invariants(s.game, s.state)
            if problems:
                rep.fail("invariant", f"{case}: {problems[0]}")
        except SaveFileError as e:
            if "\n" in str(e) or not str(e).startswith("Cannot open fuzz.wartable.json: "):
                rep.fail("message", f"{case}: {str(e)[:200]}")
        except Exception as e:  # noqa: BLE001 - exactly what the campaign counts
            rep.fail(type(e).__name__, f"{case}: {str(e)[:200]}")
        rep.timed(time.process_time() - t, case)
    return rep


# --- actions --------------------------------------------------------------------------------

def _junk(rng: random.Random, real: list[str]) -> Any:
    return rng.choice([
        lambda: rng.choice(real) if real else "x", lambda: "nowhere-9999", lambda: "",
        lambda: None, lambda: 7, lambda: -1, lambda: 2**70, lambda: 1.5, lambda: True,
        lambda: (rng.choice(real) if real else "x", "ghost"), lambda: (), lambda: ("",) * 3,
        lambda: FrozenMap(a=1), lambda: "box:nowhere", lambda: "fog.4802.1",
    ])()


def malformed_action(game: Game, state: GameState, rng: random.Random) -> Action:
    p = prompt(game, state, deciding_side(state))
    verbs = sorted({b.id for b in p.buttons} | set(p.targets) | {"move", FREE_MOVE,
                   "end_step", "dice", "set_dice_mode", "stack_top", "resign", "zz"})
    sides = [s.id for s in game.definition.sides]
    side = rng.choice(sides + ["nobody", ""]) if rng.random() < 0.2 else deciding_side(state)
    pieces = sorted(state.pieces)
    places = sorted({q.location for q in state.pieces.values()})
    args: dict[str, Any] = {}
    for key in rng.sample(["piece", "pieces", "to", "space", "target", "unit", "count",
                           "values", "mode", "choice", "order", "steps", "attackers"],
                          rng.randint(0, 4)):
        pool = pieces if key in ("piece", "pieces", "target", "attackers") else places
        args[key] = _junk(rng, pool)
    roll = rng.random()
    if roll < 0.3:  # a free move: house rules move anything, but only to a real place
        return Action(FREE_MOVE, side, FrozenMap(
            piece=_junk(rng, pieces) if rng.random() < 0.4 else rng.choice(pieces),
            to=_junk(rng, places) if rng.random() < 0.7 else rng.choice(places)))
    cands = game.rules.candidate_actions(game, state, p)
    if roll < 0.75 and cands:  # a legal-looking action with one argument spoiled
        c = rng.choice(cands)
        args = dict(c.args)
        keys = sorted(args) + ["piece", "to", "extra"]
        k = rng.choice(keys)
        if rng.random() < 0.2 and k in args:
            del args[k]
        else:
            args[k] = _junk(rng, pieces if rng.random() < 0.5 else places)
        return Action(c.verb, side, FrozenMap(args))
    return Action(rng.choice(verbs), side, FrozenMap(args))


def fuzz_actions(n: int, seed: int = 1, games: tuple[tuple[str, str | None], ...] = GAMES
                 ) -> Report:
    rep = Report("malformed actions")
    rng = random.Random(seed)
    for i in range(n):
        gid, sc = games[i % len(games)]
        s = rng.choice(sessions(gid, sc))
        g = s.game
        a = malformed_action(g, s.state, rng)
        case = f"action {i} ({gid}: {a.verb} {a.side} {dict(a.args)!r:.120})"
        t = time.process_time()
        try:
            out = apply(g, s.state, a)
            problems = g.rules.invariants(g, out.state)
            if problems:
                rep.fail("invariant", f"{case}: {problems[0]}")
            else:
                prompt(g, out.state, deciding_side(out.state))  # the next prompt works
        except IllegalAction:
            pass
        except Exception as e:  # noqa: BLE001 - exactly what the campaign counts
            rep.fail(type(e).__name__, f"{case}: {type(e).__name__}: {str(e)[:160]}")
        rep.timed(time.process_time() - t, case)
    return rep


# --- hidden information ---------------------------------------------------------------------

def hidden_checks(n: int, seed: int = 1) -> Report:
    """1940 positions from random play under fog: no side's view or prompt names a unit
    hidden from it [7.3, 2.12], and no save holds an untried front in plain text."""
    from wartable.games.whatif1940 import fog, hidden

    rep = Report("hidden information")
    rng = random.Random(seed)
    g = load_game("whatif1940")
    start = sessions("whatif1940", None)[0]
    s = start
    done = 0
    while done < n:
        s = play_random(s, f"h{rng.randrange(10**6)}", max_actions=rng.randint(1, 30)).session
        if s.state.result is not None:
            s = start
        for side in g.definition.side_ids:
            t = time.process_time()
            v = g.rules.view(g, s.state, side)
            leaks = fog.leaks(g, s.state, side, v, prompt(g, s.state, side))
            if leaks:
                rep.fail("leak", leaks[0])
            rep.timed(time.process_time() - t, f"view of {side} at serial {s.state.serial}")
            done += 1
        # The save: every secret variable scrambled, no untried piece named in its attrs.
        # (A name alone proves nothing: a revealed Juggernaut shares its army number with
        # its untried red-dot counterpart [9.6].)
        doc = json.loads(savefile.dump_save(s, "2026-01-01T00:00:00+00:00"))
        plain = [k for k in scramble.secret_vars(g, s.state)
                 if not scramble.is_scrambled(doc["state"]["vars"][k])]
        named = [p["id"] for p in doc["state"]["pieces"]
                 if p["id"] in hidden.secrets(s.state) and "name" in p["attrs"]]
        if plain or named:
            rep.fail("plain secret", f"serial {s.state.serial}: vars {plain}, pieces {named}")
    return rep


# --- kill during save -----------------------------------------------------------------------

_SAVER = """
import sys, time
sys.path[:0] = {paths!r}
import testgame  # noqa
from wartable.engine.session import Session
from wartable.persistence.gamedata import load_game
from wartable.persistence.savefile import save_to_path
s = Session.start(load_game("skirmish"), "contact", seed=4)
big = ("x" * 200_000)
print("ready", flush=True)
i = 0
while True:
    i += 1
    save_to_path(s, sys.argv[1], "2026-01-01T00:00:00+00:00", note=big + str(i))
"""


def kill_during_save(kills: int, folder: Path, seed: int = 1) -> Report:
    """Kill a process that saves over and over (SIGKILL at a random moment), `kills` times:
    the save must always open, and the next save must leave no temporary file behind."""
    rep = Report("kill during save")
    rng = random.Random(seed)
    target = folder / "killed.wartable.json"
    code = _SAVER.format(paths=[str(ROOT / "desktop"), str(ROOT / "tests")])
    env = {**os.environ, "WARTABLE_HOME": str(folder / "home")}
    left = 0
    for i in range(kills):
        t = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-c", code, str(target)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert p.stdout is not None
        p.stdout.readline()  # "ready": imports done, saving now
        time.sleep(rng.uniform(0.0, 0.25))
        p.send_signal(signal.SIGKILL)
        p.wait()
        if p.stdout:
            p.stdout.close()
        if p.stderr:
            p.stderr.close()
        left += len(list(folder.glob(".*.tmp")))
        if target.exists():
            try:
                s = savefile.load_from_path(target)
            except SaveFileError as e:
                rep.fail("corrupt save", f"kill {i}: {e}")
                continue
            savefile.save_to_path(s, target, "2026-01-01T00:00:00+00:00")  # the next save
            stale = list(folder.glob(".*.tmp"))
            if stale:
                rep.fail("temp left", f"kill {i}: {[p.name for p in stale]}")
        rep.timed(time.perf_counter() - t, f"kill {i}")
    rep.name += f" ({left} temp files found right after the kills, before the next save)"
    return rep


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--saves", type=int, default=500)
    ap.add_argument("--actions", type=int, default=1000)
    ap.add_argument("--hidden", type=int, default=500)
    ap.add_argument("--kills", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("WARTABLE_HOME", tmp)
        import testgame  # noqa: F401  registers skirmish

        failed = 0
        for rep in (fuzz_saves(args.saves, args.seed), fuzz_actions(args.actions, args.seed),
                    hidden_checks(args.hidden, args.seed),
                    kill_during_save(args.kills, Path(tmp), args.seed)):
            print(rep.text(), flush=True)
            for kind, ex in sorted(rep.examples.items()):
                print(f"  {kind}: {ex}")
            failed += sum(rep.failures.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "tests"))
    sys.exit(main())
