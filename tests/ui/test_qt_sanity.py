"""Guards against a broken Qt binding. PySide6 6.12.0 decrements True's reference count
on every emission of a Python-declared signal, so a long game aborts the interpreter
("bool_dealloc"). pyproject.toml excludes that release; this test fails on any binding
with the same leak."""

from __future__ import annotations

import gc
import sys
from typing import Any

from PySide6.QtCore import QObject, Signal


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
