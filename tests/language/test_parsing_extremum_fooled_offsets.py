"""Max and Min of arguments whose difference SymPy signs wrongly: with Q_k = log(1 + e^-k) − e^-k
+ e^-2k/2 (> 0, but negative to SymPy), u + Q_k·w ≥ u for w ≥ 0. SymPy then drops the wrong
argument; the parser keeps its choice only when the argument left is proved to dominate the
one dropped — for Max by y − x ≥ 0, for Min by x − y ≥ 0 — and otherwise takes the argument it
proves to dominate. Each answer is the true Max or Min, computed here from Q_k > 0."""
from __future__ import annotations

import pytest

from symcheck.language.activations import activation

from support.tiny_constants import tiny


def _q(k: int) -> str:
    """Q_k = log(1 + e^-k) − e^-k + e^-2k/2 > 0, as a user types it (SymPy reads it as negative)."""
    return tiny("log3", "e", k).text


PAIRS = [("exp(z)", "exp(z)"), ("z**2", "1 + z**2"), ("-z**2", "exp(-z)"), ("z", "exp(2*z)")]


@pytest.mark.parametrize("k", [20, 30])
@pytest.mark.parametrize("u, w", PAIRS)
@pytest.mark.parametrize("order", [0, 1])
def test_the_true_extremum_of_a_fooled_pair(k, u, w, order) -> None:
    low, high = u, f"{u} + {_q(k)}*({w})"                    # high − low = Q_k·w ≥ 0
    args = (low, high) if order == 0 else (high, low)
    assert activation(f"Max({args[0]}, {args[1]})").expr == activation(high).expr
    assert activation(f"Min({args[0]}, {args[1]})").expr == activation(low).expr
