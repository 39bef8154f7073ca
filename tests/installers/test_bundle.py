"""The Linux bundle end to end (slow; CI runs it; WARTABLE_SKIP_BUNDLE=1 skips it, for a
quick local run only). installers/build_linux.sh builds it, or reuses the build of the
same sources; then the frozen executable runs headless in a bare environment: it starts
a game of the test game and saves it, opens that save in the main window and renders it,
and exits 0. The release tarball installs and uninstalls into a private HOME.

The first tests need no bundle: they check the entry script's two bundle-only duties."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from wartable import __version__
from wartable.persistence.savefile import load_from_path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "benchmarks"))
sys.path.insert(0, str(ROOT / "installers" / "pyinstaller"))
import bench_bundle  # noqa: E402
import wartable_entry  # noqa: E402

SKIP = os.environ.get("WARTABLE_SKIP_BUNDLE") == "1"


# --- the entry script, in process ---------------------------------------------------------

def test_entry_appends_extra_path_dirs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "path", ["/bundle"])
    extra = {"WARTABLE_EXTRA_PATH": os.pathsep.join([str(tmp_path / "a"), "", str(tmp_path)])}
    assert wartable_entry.add_extra_path(extra) == [str(tmp_path / "a"), str(tmp_path)]
    assert sys.path == ["/bundle", str(tmp_path / "a"), str(tmp_path)]  # never shadows
    assert wartable_entry.add_extra_path({}) == []


def test_a_file_argument_opens_the_gui(tmp_path: Path) -> None:
    from wartable.cli import file_to_open

    save = tmp_path / "game.wartable.json"
    save.write_text("{}", encoding="utf-8")
    assert file_to_open([str(save)]) == save
    assert file_to_open([]) is None
    assert file_to_open(["--version"]) is None
    assert file_to_open(["show", str(save)]) is None
    assert file_to_open([str(tmp_path / "missing.json")]) is None
    (tmp_path / "games").write_text("", encoding="utf-8")  # a file named like a command
    assert file_to_open(["games"]) is None


# --- the built bundle ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def bundle() -> Iterator[Path]:
    if SKIP:
        pytest.skip("WARTABLE_SKIP_BUNDLE=1")
    if not sys.platform.startswith("linux"):
        pytest.skip("installers/build_linux.sh builds the Linux bundle")
    seconds = bench_bundle.build()
    print(f"\nbuild_linux.sh: {seconds:.0f} s")
    yield bench_bundle.EXE


def _run(exe: Path, *args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(exe), *args], env=bench_bundle.bundle_env(home), cwd=home,
                          capture_output=True, text=True, timeout=180)


@pytest.mark.slow
def test_bundle_reports_its_version(bundle: Path, tmp_path: Path) -> None:
    r = _run(bundle, "--version", home=tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == f"wartable {__version__}", r.stderr


@pytest.mark.slow
def test_bundle_starts_saves_and_renders_a_game_headless(bundle: Path, tmp_path: Path) -> None:
    r = _run(bundle, "new", "skirmish", "contact", "-o", "save.wartable.json", home=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    save = tmp_path / "save.wartable.json"
    session = load_from_path(save)  # the package's own loader reads what the bundle wrote
    assert session.game.definition.id == "skirmish" and session.state.scenario == "contact"

    r = _run(bundle, "screenshot", "save.wartable.json", "-o", "shot.png", "--size", "1400x900",
             home=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    with Image.open(tmp_path / "shot.png") as im:
        assert im.size == (1400, 900)
        colours = im.convert("RGB").getcolors(1400 * 900) or []
    assert len(colours) > 50, "the window rendered blank"

    r = _run(bundle, "show", "save.wartable.json", home=tmp_path)
    assert r.returncode == 0 and "Skirmish at the Ford" in r.stdout, r.stderr
    r = _run(bundle, "show", "missing.wartable.json", home=tmp_path)
    assert r.returncode == 1 and r.stderr.startswith("wartable: error:")  # no traceback


@pytest.mark.slow
def test_bundle_runs_with_no_python_on_the_machine(bundle: Path, tmp_path: Path) -> None:
    """Every Python installation is hidden (a private mount namespace puts empty folders
    over them) and the bundle still starts a game: it needs no Python of the machine's."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("util-linux's unshare is not installed")
    hide = [p for p in {sys.base_prefix + "/lib", "/usr/lib/python3", "/usr/local/lib"}
            | {str(p) for p in Path("/usr/lib").glob("python3*")} if Path(p).is_dir()]
    script = ("set -e; for d in " + " ".join(hide) + "; do mount -t tmpfs none \"$d\"; done; "
              "! python3 -c pass 2>/dev/null; "
              f"exec '{bundle}' new skirmish contact -o nopython.wartable.json")
    r = subprocess.run([unshare, "--mount", "--propagation", "private", "sh", "-c", script],
                       env=bench_bundle.bundle_env(tmp_path), cwd=tmp_path, capture_output=True,
                       text=True, timeout=180)
    if "unshare failed" in r.stderr or "Operation not permitted" in r.stderr:
        pytest.skip(f"no private mount namespace here: {r.stderr.strip()[:200]}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "nopython.wartable.json").is_file()


@pytest.mark.slow
def test_bundle_is_lean_and_self_contained(bundle: Path) -> None:
    internal = bundle.parent / "_internal"
    names = {p.name for p in internal.rglob("*")}
    assert any(n.startswith("libpython3") for n in names)  # Python itself is inside
    assert (internal / "wartable" / "assets" / "icons" / "wartable.png").is_file()
    assert (internal / "wartable" / "mapdata").is_dir()
    unwanted = [n for n in names if n.startswith(("libQt6Quick", "libQt6Qml", "libQt6Network",
                                                  "libQt6WebEngine", "libQt6Multimedia",
                                                  "libqgtk3", "libgtk-3", "libcairo"))]
    assert not unwanted, unwanted
    assert not (internal / "PySide6" / "Qt" / "translations").exists()
    size, _files = bench_bundle.folder_size(bundle.parent)
    assert size < 300e6, f"the bundle grew to {size / 1e6:.0f} MB"


@pytest.mark.slow
def test_tarball_installs_and_uninstalls_for_one_user(bundle: Path, tmp_path: Path) -> None:
    with tarfile.open(bench_bundle.tarball()) as tar:
        tar.extractall(tmp_path, filter="tar")
    top = tmp_path / f"wartable-{__version__}"
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home)}
    r = subprocess.run(["sh", str(top / "install.sh")], env=env, capture_output=True, text=True,
                       timeout=180)
    assert r.returncode == 0, r.stdout + r.stderr
    share = home / ".local" / "share"
    desktop = share / "applications" / "wartable.desktop"
    exe = home / ".local" / "opt" / "wartable" / "wartable"
    assert f"Exec={exe} %f" in desktop.read_text(encoding="utf-8").splitlines()
    assert (share / "mime" / "packages" / "wartable.xml").is_file()
    assert (share / "metainfo" / "io.github.wartable.Wartable.metainfo.xml").is_file()
    for n in (16, 48, 256, 512):
        assert (share / "icons" / "hicolor" / f"{n}x{n}" / "apps" / "wartable.png").is_file()
    r = _run(home / ".local" / "bin" / "wartable", "--version", home=home)
    assert r.stdout.strip() == f"wartable {__version__}", r.stderr
    if shutil.which("update-mime-database"):
        globs2 = (share / "mime" / "globs2").read_text(encoding="utf-8")
        assert "application/x-wartable-save:*.wartable.json" in globs2

    r = subprocess.run(["sh", str(top / "install.sh"), "--uninstall"], env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not exe.exists() and not desktop.exists()
    assert not (home / ".local" / "bin" / "wartable").exists()


@pytest.mark.slow
def test_bundle_benchmark_runs(bundle: Path) -> None:
    """One quick pass of tests/benchmarks/bench_bundle.py (numbers reported, not judged)."""
    r = bench_bundle.measure(runs=1)
    print("\n" + "\n".join(f"{k:24s} {v:10.1f}" for k, v in r.items()))
    assert r["bundle MB"] > r["tarball MB"] > 0
    assert 0 < r["--version ms"] < r["window ms"]
