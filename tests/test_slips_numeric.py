"""Issue 23, slip 5: a numeric scaled factor that underflows to a subnormal read as evidence.

α·Q with α = 1e-150 and Q of size 1e-160 is about 1e-310: subnormal in float64, not 0. Its
relative precision is lost, so a comparison of the two sides there measures rounding, and the
report must say "underflow: no evidence" — never "agree" (nor "differ").
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from symcheck.numeric.checks import measure

RNG = np.random.default_rng(23)
M, D, E = 8, 6, 5
Q, K, V = RNG.standard_normal((M, D)) / 2, RNG.standard_normal((M, D)) / 2, RNG.standard_normal((M, E))


def _layer(path: Path, q_scale: float = 1.0, k_scale: float = 1.0) -> Path:
    np.savez(path, Q=Q * q_scale, K=K * k_scale, V=V)
    return path


@pytest.mark.parametrize("act", ["relu", "silu"])
def test_a_subnormal_scaled_query_is_no_evidence(tmp_path: Path, act: str) -> None:
    path = _layer(tmp_path / "w.npz", q_scale=1e-160, k_scale=1e-160)
    scaled = 1e-150 * Q * 1e-160
    assert np.all(scaled != 0) and np.any(np.abs(scaled) < np.finfo(np.float64).tiny)  # the premise
    report = measure("scaling", act=act, alpha="1e-150", weights=[str(path)], tokens=8)
    assert report.outcome == "underflow", report.summary
    assert "α·Q" in report.reason and "below the normal range" in report.reason


def test_a_subnormal_absorbed_key_is_no_evidence(tmp_path: Path) -> None:
    """K/α with α = 1e150 and K of size 1e-160: 1e-310, subnormal."""
    path = _layer(tmp_path / "w.npz", k_scale=1e-160)
    report = measure("scaling", act="relu", alpha="1e150", weights=[str(path)], tokens=8)
    assert report.outcome in ("underflow", "overflow"), report.summary
    assert report.outcome != "agree"


def test_the_same_layer_at_a_normal_scale_is_evidence(tmp_path: Path) -> None:
    """The control: relu is positively homogeneous, so with α·Q normal the sides agree."""
    path = _layer(tmp_path / "w.npz")
    report = measure("scaling", act="relu", alpha="3", weights=[str(path)], tokens=8)
    assert report.outcome == "agree", report.summary
