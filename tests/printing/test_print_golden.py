"""Golden images, one per sheet type: an unintended change to how printing looks fails here.

After an intended change, regenerate and look at the new images:

    PYTHONPATH=desktop:tests python tests/printing/regen_golden.py [NAME ...]

The comparison tolerates small antialiasing differences between FreeType or Pillow
versions: the mean difference must stay under MEAN_TOL (0-255 scale) and at most
SPOT_SHARE of the pixels may differ by more than SPOT_TOL. On failure the rendered image
and a difference image are written next to the test's temporary folder for a look.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import regen_golden
from PIL import Image, ImageChops

MEAN_TOL = 1.5
SPOT_TOL = 64
SPOT_SHARE = 0.004


def compare(got: Image.Image, want: Image.Image) -> tuple[float, float]:
    """(mean absolute difference, share of pixels off by more than SPOT_TOL)."""
    a = np.asarray(got.convert("RGB")).astype(np.int16)
    b = np.asarray(want.convert("RGB")).astype(np.int16)
    diff = np.abs(a - b)
    return float(diff.mean()), float((diff.max(axis=2) > SPOT_TOL).mean())


@pytest.mark.parametrize("name", list(regen_golden.CASES))
def test_sheet_matches_its_golden(name: str, tmp_path: Path) -> None:
    path = regen_golden.GOLDEN / f"{name}.png"
    assert path.is_file(), f"no golden {path.name}: run tests/printing/regen_golden.py {name}"
    got = regen_golden.CASES[name]().convert("RGB")
    with Image.open(path) as im:
        want = im.convert("RGB")
    if got.size != want.size:
        got.save(tmp_path / f"{name}.png")
        pytest.fail(f"{name}: size {got.size} differs from the golden's {want.size} "
                    f"(rendered image in {tmp_path})")
    mean, spots = compare(got, want)
    if mean > MEAN_TOL or spots > SPOT_SHARE:
        got.save(tmp_path / f"{name}.png")
        ImageChops.difference(got, want).save(tmp_path / f"{name}-diff.png")
        pytest.fail(f"{name} differs from its golden: mean {mean:.2f} (limit {MEAN_TOL}), "
                    f"{spots:.2%} of pixels off by more than {SPOT_TOL} (limit "
                    f"{SPOT_SHARE:.1%}). If the change is intended, run "
                    f"tests/printing/regen_golden.py {name} and look at the new image. "
                    f"Rendered and difference images: {tmp_path}")


def test_the_comparison_catches_a_change() -> None:
    want = regen_golden.CASES["charts"]()
    changed = want.copy()
    changed.paste((255, 0, 0), (40, 40, 140, 60))  # a small red bar: an unintended change
    mean, spots = compare(changed, want)
    assert spots > SPOT_SHARE or mean > MEAN_TOL
    assert compare(want, want) == (0.0, 0.0)
