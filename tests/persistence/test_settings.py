"""Settings: defaults, round trip, damaged files, the recent-files list."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from wartable.core.errors import WartableError
from wartable.persistence import settings as st
from wartable.persistence.locations import config_dir


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WARTABLE_HOME", str(tmp_path))
    return tmp_path


def test_defaults_when_there_is_no_file() -> None:
    s, warning = st.load_settings()
    assert s == st.Settings() and warning is None
    assert (s.palette, s.dice_mode, s.autosave_keep) == ("standard", "digital", 10)
    assert not st.settings_path().exists()  # loading never writes


def test_round_trip() -> None:
    s = replace(st.Settings(), palette="colourblind", dice_mode="physical", autosave_keep=5,
                zoom_preset=150, show_grid=False, show_labels=False, last_game="skirmish")
    s = st.add_recent(s.with_geometry(b"\x01\xd9\xd0\xcb\x00\x03"), "/tmp/a.wartable.json")
    path = st.save_settings(s)
    assert path == config_dir() / "settings.json"
    assert st.load_settings() == (s, None)
    assert st.load_settings()[0].geometry_bytes() == b"\x01\xd9\xd0\xcb\x00\x03"
    assert json.loads(path.read_text())["palette"] == "colourblind"


@pytest.mark.parametrize("content", [b"{not json", b"", b"\xff\xfe\x00", b"[1, 2]",
                                     b'{"palette": "standard"', b"x" * (2 << 20)])
def test_corrupt_file_gives_defaults_and_a_warning(content: bytes) -> None:
    path = st.settings_path()
    path.write_bytes(content)
    s, warning = st.load_settings()
    assert s == st.Settings()
    assert warning is not None and "settings.json" in warning and "default" in warning
    assert path.read_bytes() == content  # untouched until an explicit save
    assert not path.with_name("settings.json.bad").exists()

    st.save_settings(replace(s, palette="colourblind"))
    assert path.with_name("settings.json.bad").read_bytes() == content
    assert st.load_settings() == (replace(s, palette="colourblind"), None)
    st.save_settings(s)  # the good file is not moved aside again
    assert path.with_name("settings.json.bad").read_bytes() == content


def test_bad_fields_fall_back_one_by_one() -> None:
    path = st.settings_path()
    path.write_text(json.dumps({"palette": "neon", "show_grid": False, "autosave_keep": "ten",
                                "zoom_preset": 125, "window_geometry": "%%%",
                                "recent_files": ["/a", 3]}))
    s, warning = st.load_settings()
    assert (s.show_grid, s.zoom_preset) == (False, 125)  # the good fields survive
    assert (s.palette, s.autosave_keep, s.window_geometry, s.recent_files) == \
        ("standard", 10, "", ())
    assert warning is not None
    for name in ("palette", "autosave_keep", "window_geometry", "recent_files"):
        assert name in warning
    st.save_settings(s)
    assert path.with_name("settings.json.bad").exists()


def test_keys_from_a_newer_version_are_kept() -> None:
    st.settings_path().write_text(json.dumps({"show_grid": False, "future_thing": [1, 2]}))
    s, warning = st.load_settings()
    assert warning is None and s.show_grid is False
    st.save_settings(replace(s, show_labels=False))
    saved = json.loads(st.settings_path().read_text())
    assert saved["future_thing"] == [1, 2] and saved["show_labels"] is False
    assert not st.settings_path().with_name("settings.json.bad").exists()


def test_recent_files_order_dedup_and_limit(tmp_path: Path) -> None:
    s = st.Settings()
    for i in range(15):
        s = st.add_recent(s, tmp_path / f"g{i}.wartable.json")
    assert len(s.recent_files) == st.MAX_RECENT == 10
    assert s.recent_files[0] == str(tmp_path / "g14.wartable.json")
    assert s.recent_files[-1] == str(tmp_path / "g5.wartable.json")
    s = st.add_recent(s, tmp_path / "g9.wartable.json")  # again: moves to the front, once
    assert s.recent_files[0] == str(tmp_path / "g9.wartable.json")
    assert s.recent_files.count(str(tmp_path / "g9.wartable.json")) == 1
    assert len(s.recent_files) == 10
    s = st.remove_recent(s, tmp_path / "g9.wartable.json")
    assert str(tmp_path / "g9.wartable.json") not in s.recent_files


def test_recent_paths_are_made_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    s = st.add_recent(st.Settings(), "a.wartable.json")
    s = st.add_recent(s, os.path.join(".", "a.wartable.json"))
    assert s.recent_files == (str(tmp_path / "a.wartable.json"),)


def test_recent_list_from_file_is_cleaned() -> None:
    paths = ["/a", "/b", "/a"] + [f"/x{i}" for i in range(20)]
    st.settings_path().write_text(json.dumps({"recent_files": paths}))
    s, warning = st.load_settings()
    assert warning is None
    assert s.recent_files[:2] == ("/a", "/b") and len(s.recent_files) == 10


def test_invalid_settings_cannot_be_built() -> None:
    with pytest.raises(ValueError):
        st.Settings(palette="neon")
    with pytest.raises(ValueError):
        st.Settings(autosave_keep=0)


def test_unwritable_settings_folder_is_a_clear_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(path: object, data: bytes) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(st, "write_atomic", boom)
    with pytest.raises(WartableError, match="Cannot save settings: Read-only file system"):
        st.save_settings(st.Settings())
