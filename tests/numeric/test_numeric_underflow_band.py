"""Outputs within 1/tolerance of the dtype's underflow threshold give no evidence: there rounding
is absolute (subnormals), so a relative difference below the tolerance means nothing. The band is
tiny/tol, far above tiny itself: outputs at 100·tiny are refused though they are normal numbers."""
from __future__ import annotations

import numpy as np
import pytest

from symcheck.numeric import checks
from symcheck.numeric.checks import tolerance


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("above", [100.0, 1e3])
def test_outputs_in_the_band_above_underflow_give_no_evidence(dtype, above) -> None:
    kind = np.dtype(dtype)
    tol = tolerance(dtype, 16)
    tiny = float(np.finfo(kind).tiny)
    assert tiny * above < tiny / tol   # inside the band
    left = np.full((3, 4), tiny * above, dtype=np.float64).astype(kind)
    with pytest.raises(checks._NoEvidence) as err:
        checks._compare(left, left.copy(), kind, tol)
    assert err.value.kind is checks.Outcome.UNDERFLOW


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_outputs_just_above_the_band_are_compared(dtype) -> None:
    kind = np.dtype(dtype)
    tol = tolerance(dtype, 16)
    value = float(np.finfo(kind).tiny) / tol * 4
    left = np.full((3, 4), value, dtype=np.float64).astype(kind)
    relative, reason = checks._compare(left, left.copy(), kind, tol)
    assert relative == 0.0 and reason is None
