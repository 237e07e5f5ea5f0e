"""Issue 23, slip 5: a numeric scaled factor that underflows to a subnormal read as evidence.

α·Q with α = 1e-150 and Q of size 1e-160 is about 1e-310: subnormal in float64, not 0. Its
relative precision is lost, so a comparison of the two sides there measures rounding, and the
report must say "underflow: no evidence" — never "agree" (nor "differ").
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from symcheck.numeric.checks import measure, tolerance

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


def _cancelling_layer(path: Path, m: int, cancel: float, check: str) -> None:
    """d = 1, e = 4: each output column is a sum of m terms t_j·v_j (at x = 1; t_j = relu(q_j)·k_j
    for the gated form, relu(q_j·k_j) for the rank-1 one) whose exact value is ``cancel`` times
    the size of their random walk √m·mean|t_j·v_j| (one v_j per column set by exact rational
    arithmetic), so the sum's rounding is large relative to it."""
    from fractions import Fraction
    rng = np.random.default_rng(2023)
    q, k, v = rng.standard_normal((m, 1)), rng.standard_normal((m, 1)), rng.standard_normal((m, 4))
    t = np.maximum(q[:, 0] * k[:, 0], 0.0) if check == "rank1" else np.maximum(q, 0.0)[:, 0] * k[:, 0]
    last = int(np.flatnonzero(t)[-1])
    for col in range(v.shape[1]):
        rest = sum(Fraction(float(t[i])) * Fraction(float(v[i, col])) for i in range(m) if i != last)
        walk = float(np.sqrt(m) * np.mean(np.abs(t * v[:, col])))
        v[last, col] = float((Fraction(cancel * walk) - rest) / Fraction(float(t[last])))
    np.savez(path, Q=q, K=k, V=v)


@pytest.mark.parametrize("check, options", [("scaling", {"alpha": "3"}), ("rank1", {})])
def test_the_rounding_of_the_sum_over_m_is_inside_the_tolerance(tmp_path: Path, check: str, options: dict) -> None:
    """relu(3a)·(b/3) = relu(a)·b and relu(x·(q_j k_j)·x) = relu((x q_j)(x k_j)) exactly, so the
    scaling and rank-1 checks must not say "differ". The two sides round each of the m = 4096
    terms differently, and the outputs cancel to 1/128 of their terms' random walk: their
    relative difference is hundreds of ε, beyond a tolerance that counts only the terms of the
    d = 1 (or d·d = 1) products (64·ε·√1) but within the one that counts the sum over m as well
    (64·ε·√(1 + m)). A tolerance narrowed to the d terms alone reads rounding as a change."""
    _cancelling_layer(tmp_path / "w.npz", m=4096, cancel=1 / 128, check=check)
    np.save(tmp_path / "x.npy", (1 + np.arange(16) / 16).reshape(16, 1))
    report = measure(check, act="relu", weights=[str(tmp_path / "w.npz")], inputs=str(tmp_path / "x.npy"),
                     **options)
    assert report.relative is not None and report.relative > tolerance("float64", 1)  # the premise
    assert report.outcome == "agree", report.summary
