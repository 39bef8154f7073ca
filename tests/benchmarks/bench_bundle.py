"""Benchmark: the Linux bundle's size and start times (installers/build_linux.sh builds it).

Reported:
- the one-folder bundle's size and file count, and the release tarball's size;
- `wartable --version` (bootloader, Python, the CLI; no Qt), median wall time;
- start to a saved game (`wartable new`: the engine, the game data, the save);
- start to a rendered window with that game open (`wartable screenshot`: Qt as well),
  beside the same command run from source with this Python, to show what freezing costs;
- the build itself, when --build is given (it always rebuilds then).

Run: python tests/benchmarks/bench_bundle.py [--build] [--runs N]
(builds the bundle first if there is none; the test game comes from tests/).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import report

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "installers" / "dist"
BUNDLE = DIST / "wartable"
EXE = BUNDLE / "wartable"


def version() -> str:
    for line in (ROOT / "desktop" / "wartable" / "__init__.py").read_text().splitlines():
        if line.startswith("__version__"):
            return line.split('"')[1]
    raise RuntimeError("no __version__")


def tarball() -> Path:
    return DIST / f"wartable-{version()}-linux-{os.uname().machine}.tar.gz"


def build(force: bool = False) -> float:
    """Run installers/build_linux.sh (no apt step); returns its wall time in seconds."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHON"] = sys.executable
    cmd = ["bash", str(ROOT / "installers" / "build_linux.sh"), "--no-deps"]
    t = time.perf_counter()
    r = subprocess.run(cmd + (["--force"] if force else []), env=env, capture_output=True,
                       text=True, timeout=1800)
    if r.returncode != 0:
        raise RuntimeError(f"build_linux.sh failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return time.perf_counter() - t


def bundle_env(home: Path) -> dict[str, str]:
    """A bare environment: nothing of this Python's leaks into the frozen app."""
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8",
            "QT_QPA_PLATFORM": "offscreen", "WARTABLE_HOME": str(home),
            "WARTABLE_EXTRA_PATH": str(ROOT / "tests"), "WARTABLE_GAME_MODULES": "testgame"}


def folder_size(path: Path) -> tuple[int, int]:
    """Bytes and files under path (symlinks count as links, not as their targets)."""
    total = files = 0
    for p in path.rglob("*"):
        if p.is_file() and not p.is_symlink():
            total += p.stat().st_size
            files += 1
    return total, files


def _time(cmd: list[str], env: dict[str, str], cwd: Path, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=180)
        times.append(time.perf_counter() - t)
        if r.returncode != 0:
            raise RuntimeError(f"{cmd} failed: {r.stderr[-2000:]}")
    return statistics.median(times)


def measure(runs: int = 3, build_first: bool = False) -> dict[str, float]:
    out: dict[str, float] = {}
    if build_first or not EXE.is_file() or not tarball().is_file():
        out["build s"] = build(force=build_first)
    size, files = folder_size(BUNDLE)
    out["bundle MB"] = size / 1e6
    out["bundle files"] = files
    out["tarball MB"] = tarball().stat().st_size / 1e6
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        env = bundle_env(home)
        exe = str(EXE)
        out["--version ms"] = _time([exe, "--version"], env, home, runs) * 1000
        out["new game ms"] = _time([exe, "new", "skirmish", "contact", "-o", "b.wartable.json"],
                                   env, home, runs) * 1000
        shot = ["screenshot", "b.wartable.json", "-o", "b.png", "--size", "1400x900"]
        out["window ms"] = _time([exe, *shot], env, home, runs) * 1000
        src_env = {**env, "PYTHONPATH": os.pathsep.join([str(ROOT / "desktop"),
                                                          str(ROOT / "tests")])}
        out["window from source ms"] = _time([sys.executable, "-m", "wartable", *shot],
                                             src_env, home, runs) * 1000
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", action="store_true", help="rebuild first and time the build")
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    if not sys.platform.startswith("linux"):
        print("bench_bundle: the bundle benchmark runs on Linux only")
        return 0
    figs = measure(args.runs, args.build)
    report("bundle", figs)
    for k, v in figs.items():
        print(f"{k:24s} {v:10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
