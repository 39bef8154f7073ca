"""Guards against a broken Qt binding. PySide6 6.12.0 decrements True's reference count
on every emission of a Python-declared signal, and None's on every call of a method that
returns nothing, so a long game aborts the interpreter ("bool_dealloc", "none_dealloc").
pyproject.toml excludes that release; these tests fail on any binding with either leak."""

from __future__ import annotations

import gc
import sys
from typing import Any

from PySide6.QtCore import QObject, QRectF, Signal


class _Emitter(QObject):
    number = Signal(int)
    flag = Signal(bool)
    thing = Signal(object)


def test_signal_emission_keeps_reference_counts(qtbot: Any) -> None:
    e = _Emitter()
    got: list[Any] = []
    for sig in (e.number, e.flag, e.thing):
        sig.connect(got.append)
    gc.collect()
    before = sys.getrefcount(True), sys.getrefcount(False)
    for _ in range(300):
        e.number.emit(1)
        e.flag.emit(False)
        e.thing.emit(None)
    got.clear()
    gc.collect()
    after = sys.getrefcount(True), sys.getrefcount(False)
    assert after[0] >= before[0] - 5 and after[1] >= before[1] - 5, (before, after)


def test_void_calls_keep_none_reference_count() -> None:
    r = QRectF()
    gc.collect()
    before = sys.getrefcount(None)
    for _ in range(1000):
        r.setWidth(1.0)
    gc.collect()
    assert sys.getrefcount(None) >= before - 20, (before, sys.getrefcount(None))
