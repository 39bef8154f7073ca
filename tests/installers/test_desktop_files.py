"""The desktop integration files in assets/ and installers/: the .desktop entry, the
AppStream metainfo, the MIME type of saves, the icons, the macOS Info.plist and the
changelog. Debian's own validators run when they are installed (desktop-file-utils,
appstream, shared-mime-info); the checks in Python run everywhere."""

from __future__ import annotations

import configparser
import fnmatch
import plistlib
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from wartable import __version__
from wartable.persistence.savefile import SAVE_SUFFIX, SAVE_SUFFIX_GZ

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "assets"
DESKTOP = ASSETS / "wartable.desktop"
METAINFO = ASSETS / "io.github.wartable.Wartable.metainfo.xml"
MIME = ASSETS / "wartable-mime.xml"
ICONS = ASSETS / "icons"
MIME_TYPE = "application/x-wartable-save"
SIZES = (16, 32, 48, 64, 128, 256, 512)
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def _desktop_entry() -> configparser.SectionProxy:
    cp = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    cp.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    cp.read(DESKTOP, encoding="utf-8")
    return cp["Desktop Entry"]


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (Debian: see installers/README.md)")
    return path


# --- .desktop -----------------------------------------------------------------------------

def test_desktop_entry_launches_wartable_with_its_icon_and_file_type() -> None:
    e = _desktop_entry()
    assert e["Type"] == "Application" and e["Name"] == "Wartable"
    exec_ = e["Exec"].split()
    assert exec_[0] == "wartable" and exec_[1] in ("%f", "%F")  # a save opens the app
    assert e["TryExec"] == "wartable"
    assert e["Icon"] == "wartable"
    assert MIME_TYPE in e["MimeType"].split(";")
    assert "Game" in e["Categories"].split(";")
    assert e["Terminal"] == "false"


def test_desktop_file_validate() -> None:
    r = subprocess.run([_tool("desktop-file-validate"), str(DESKTOP)], capture_output=True,
                       text=True)
    assert r.returncode == 0 and not (r.stdout + r.stderr).strip(), r.stdout + r.stderr


# --- AppStream ----------------------------------------------------------------------------

def test_metainfo_names_the_desktop_file_the_mime_type_and_this_version() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == METAINFO.name.removesuffix(".metainfo.xml")
    assert root.findtext("launchable") == DESKTOP.name
    assert root.findtext("provides/binary") == "wartable"
    assert root.findtext("provides/mediatype") == MIME_TYPE
    assert root.findtext("project_license") == "GPL-3.0-or-later"
    newest = root.find("releases/release")
    assert newest is not None and newest.get("version") == __version__, (
        "add a <release> for the new version to the metainfo")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", newest.get("date") or "")


def test_appstreamcli_validate() -> None:
    r = subprocess.run([_tool("appstreamcli"), "validate", "--no-net", str(METAINFO)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


# --- MIME type ----------------------------------------------------------------------------

def _mime_globs() -> list[str]:
    root = ET.parse(MIME).getroot()
    assert root.tag == f"{MIME_NS}mime-info"
    types = root.findall(f"{MIME_NS}mime-type")
    assert [t.get("type") for t in types] == [MIME_TYPE]
    assert types[0].findtext(f"{MIME_NS}comment")
    return [g.get("pattern") or "" for g in types[0].findall(f"{MIME_NS}glob")]


def test_mime_globs_match_the_save_suffixes_the_app_writes() -> None:
    globs = _mime_globs()
    assert globs == ["*.wartable.json", "*.wartable.json.gz"]
    for name in (f"game{SAVE_SUFFIX}", f"game{SAVE_SUFFIX_GZ}"):
        assert any(fnmatch.fnmatchcase(name, g) for g in globs), name
    assert not any(fnmatch.fnmatchcase("settings.json", g) for g in globs)


def test_update_mime_database_takes_the_type(tmp_path: Path) -> None:
    tool = _tool("update-mime-database")
    (tmp_path / "packages").mkdir()
    shutil.copy(MIME, tmp_path / "packages" / "wartable.xml")
    r = subprocess.run([tool, str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 0 and "error" not in r.stderr.lower(), r.stderr
    globs2 = (tmp_path / "globs2").read_text(encoding="utf-8").splitlines()
    assert f"60:{MIME_TYPE}:*.wartable.json" in globs2
    assert f"60:{MIME_TYPE}:*.wartable.json.gz" in globs2
    assert (tmp_path / "mime.cache").is_file()


# --- icons --------------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_icon_sizes(size: int) -> None:
    with Image.open(ICONS / f"wartable-{size}.png") as im:
        assert im.format == "PNG" and im.size == (size, size) and im.mode == "RGBA"
        alpha = im.getchannel("A")
        assert alpha.getpixel((0, 0)) == 0  # a transparent corner outside the hex
        assert alpha.getpixel((size // 2, size // 2)) == 255
        colours = im.convert("RGB").getcolors(size * size) or []
        assert len(colours) > 8  # drawn, not blank


def test_app_window_icon_and_windows_ico() -> None:
    with Image.open(ICONS / "wartable.png") as im:  # what wartable.app loads
        assert im.size == (256, 256)
    with Image.open(ICONS / "wartable.ico") as ico:
        assert {(16, 16), (32, 32), (48, 48), (256, 256)} <= set(ico.info["sizes"])


def test_icons_match_their_drawing_script() -> None:
    """The PNGs are the output of installers/tools/make_icons.py (allowing for another
    Pillow's rounding): edit the script and re-run it, never the PNGs by hand."""
    sys.path.insert(0, str(ROOT / "installers" / "tools"))
    try:
        import make_icons
    finally:
        sys.path.remove(str(ROOT / "installers" / "tools"))
    for size in (16, 64):
        drawn = (make_icons.draw16() if size == 16 else make_icons.draw(size)).tobytes()
        with Image.open(ICONS / f"wartable-{size}.png") as im:
            stored = im.tobytes()
        diff = sum(abs(a - b) for a, b in zip(drawn, stored, strict=True)) / len(stored)
        assert diff < 2.0, f"{size} px differs from make_icons.py by {diff:.1f} per channel"


# --- macOS, Windows, changelog ------------------------------------------------------------

def test_macos_info_plist_declares_the_save_type() -> None:
    with open(ROOT / "installers" / "macos" / "Info.plist", "rb") as f:
        plist = plistlib.load(f)
    assert plist["CFBundleIdentifier"] == METAINFO.name.removesuffix(".metainfo.xml")
    assert "CFBundleShortVersionString" not in plist  # the spec adds __version__
    utis = {u["UTTypeIdentifier"]: u for u in plist["UTExportedTypeDeclarations"]}
    exts = {e for u in utis.values() for e in u["UTTypeTagSpecification"]
            ["public.filename-extension"]}
    assert exts == {SAVE_SUFFIX[1:], SAVE_SUFFIX_GZ[1:]}
    owned = plist["CFBundleDocumentTypes"][0]
    assert owned["LSHandlerRank"] == "Owner" and set(owned["LSItemContentTypes"]) == set(utis)


def test_inno_setup_script_registers_the_save_type() -> None:
    iss = (ROOT / "installers" / "windows" / "wartable.iss").read_text(encoding="utf-8")
    assert "ChangesAssociations=yes" in iss
    assert r'Software\Classes\.json\OpenWithProgids' in iss
    assert '"""{app}\\wartable.exe"" ""%1"""' in iss
    assert "0.1" not in iss  # the version comes from wartable.exe, not from here


def test_changelog_starts_with_this_version() -> None:
    text = (ROOT / "installers" / "CHANGELOG.md").read_text(encoding="utf-8")
    first = re.search(r"^## (\S+)", text, flags=re.M)
    assert first is not None and first.group(1) == __version__, (
        "add a CHANGELOG section for the new version")
