"""``numeric/checks._compare`` returns the relative change ‖left − right‖ / ‖left‖: a figure
that does not depend on the outputs' scale or count (the power-of-two scaling that keeps the
norms from overflowing is exact and cancels). An absolute ‖left − right‖ would call a large
layer's rounding a disagreement and a small output's real change an agreement."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.numeric.checks import _compare

TOL = 1e-6


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 300), st.integers(-60, 60), st.floats(1e-9, 0.5))
def test_the_relative_change_is_independent_of_scale_and_count(seed: int, n: int, exponent: int,
                                                               change: float) -> None:
    rng = np.random.default_rng(seed)
    left = rng.standard_normal(n) * 2.0**exponent
    right = left * (1 + change * rng.standard_normal(n))
    expected = np.linalg.norm((left - right) / 2.0**exponent) / np.linalg.norm(left / 2.0**exponent)
    got, reason = _compare(left, right, np.dtype(np.float64), TOL)
    assert reason is None
    assert abs(got - expected) <= 1e-12 * expected + 1e-300, (got, expected, n, exponent)
