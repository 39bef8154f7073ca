"""Folders: WARTABLE_HOME for tests and CI, platformdirs otherwise."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from wartable.persistence import locations as loc


def test_wartable_home_holds_everything(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARTABLE_HOME", str(tmp_path / "root"))
    assert loc.data_dir() == tmp_path / "root" / "data"
    assert loc.config_dir() == tmp_path / "root" / "config"
    assert loc.autosave_dir() == tmp_path / "root" / "data" / "autosave"
    assert loc.saves_dir() == tmp_path / "root" / "saves"
    for d in (loc.data_dir(), loc.config_dir(), loc.autosave_dir(), loc.saves_dir()):
        assert d.is_dir()  # created on demand


def test_relative_home_is_made_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WARTABLE_HOME", "rel")
    assert loc.config_dir() == tmp_path / "rel" / "config"


def test_platformdirs_without_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARTABLE_HOME", "")  # empty counts as unset
    calls = []

    def fake(kind: str) -> object:
        def f(appname: str | None = None, appauthor: object = None) -> str:
            calls.append((kind, appname, appauthor))
            return str(tmp_path / kind / (appname or ""))
        return f

    monkeypatch.setattr(platformdirs, "user_data_dir", fake("data"))
    monkeypatch.setattr(platformdirs, "user_config_dir", fake("config"))
    monkeypatch.setattr(platformdirs, "user_documents_dir", fake("docs"))
    assert loc.data_dir() == tmp_path / "data" / "Wartable"
    assert loc.config_dir() == tmp_path / "config" / "Wartable"
    assert loc.autosave_dir() == tmp_path / "data" / "Wartable" / "autosave"
    assert loc.saves_dir() == tmp_path / "docs" / "Wartable"
    assert ("data", "Wartable", False) in calls
