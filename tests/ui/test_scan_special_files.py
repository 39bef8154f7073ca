"""Issue 15, finding 4: a FIFO (or a device) chosen as the scan of an underlay once blocked
the image reader forever; it is refused at once with one line."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from wartable.core.errors import WartableError
from wartable.ui.underlay import load_scan


@pytest.mark.parametrize("kind", ["fifo", "dev_zero"])
def test_issue15_finding4_a_special_file_as_scan_is_refused_at_once(
        qtbot: Any, tmp_path: Path, kind: str) -> None:
    path = tmp_path / "scan.png"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    box: dict[str, BaseException] = {}

    def run() -> None:
        try:
            load_scan(str(path))
        except BaseException as e:  # noqa: BLE001 - handed to the test
            box["e"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(5)
    assert not t.is_alive(), "the image reader hangs on a special file"
    e = box["e"]
    assert isinstance(e, WartableError)
    assert "not a regular file" in str(e) and "\n" not in str(e)
    assert "choose a PNG, JPEG, TIFF or BMP image" in str(e)
