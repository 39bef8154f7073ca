"""Fuzzing the loader: a mutated save either loads as the same game or raises SaveFileError.

Nothing else may escape load_save: any other exception would crash the app on a bad file.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from savetest_helpers import base_doc, base_save, encode, played_session

from wartable.core.errors import SaveFileError
from wartable.model.serialize import state_hash
from wartable.persistence import savefile

FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

WRONG_VALUES: list[Any] = [None, True, False, 0, -1, 2**70, 1.5, "", "x", "0405", [], {},
                           [1, 2], {"a": 1}, {"verb": "move"}, [[[]]]]
TOP_LEVEL = ["format", "format_version", "title", "note"] + [k for k, _, _ in savefile._REQUIRED]


def _check(data: bytes) -> None:
    try:
        loaded = savefile.load_save(data, "fuzz.wartable.json")
    except SaveFileError as e:
        assert "\n" not in str(e)
        assert str(e).startswith("Cannot open fuzz.wartable.json: ")
        return
    # A mutation the loader accepts (a deleted note, whitespace) must be the very same game.
    assert state_hash(loaded.state) == state_hash(played_session().state)
    assert loaded.log == played_session().log


def _pick_path(data: st.DataObject, doc: Any) -> list[Any]:
    """A random path of keys/indexes from the root into the document (at least one step)."""
    path: list[Any] = []
    node = doc
    while isinstance(node, dict | list) and node:
        keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
        key = data.draw(st.sampled_from(keys))
        path.append(key)
        node = node[key]
        if data.draw(st.booleans()):
            break
    return path


def _parent(doc: Any, path: list[Any]) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


@FUZZ
@given(st.booleans(), st.data())
def test_truncated_anywhere(gz: bool, data: st.DataObject) -> None:
    raw = base_save(gz)
    _check(raw[: data.draw(st.integers(0, len(raw) - 1))])


@FUZZ
@given(st.booleans(), st.data())
def test_random_bytes_flipped(gz: bool, data: st.DataObject) -> None:
    raw = bytearray(base_save(gz))
    for _ in range(data.draw(st.integers(1, 6))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    _check(bytes(raw))


@FUZZ
@given(st.data())
def test_random_keys_deleted(data: st.DataObject) -> None:
    doc = base_doc()
    for _ in range(data.draw(st.integers(1, 3))):
        path = _pick_path(data, doc)
        if not path:
            break
        del _parent(doc, path)[path[-1]]
    _check(encode(doc))


@FUZZ
@given(st.data())
def test_values_replaced_with_wrong_types(data: st.DataObject) -> None:
    doc = base_doc()
    for _ in range(data.draw(st.integers(1, 3))):
        path = _pick_path(data, doc)
        if not path:
            break
        _parent(doc, path)[path[-1]] = json.loads(json.dumps(data.draw(
            st.sampled_from(WRONG_VALUES))))
    _check(encode(doc, gz=data.draw(st.booleans())))


@FUZZ
@given(st.sampled_from(TOP_LEVEL), st.sampled_from(WRONG_VALUES))
def test_top_level_fields_replaced(key: str, value: Any) -> None:
    doc = base_doc()
    doc[key] = value
    _check(encode(doc))
