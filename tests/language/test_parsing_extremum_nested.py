"""A Max (Min) written inside another is flattened before the parser compares arguments: every
offset class is compared by a certified sign, never left to SymPy. Left nested, the outer call
hands Max(z, e^z) and z + Q_k to SymPy, whose flattening then compares z with z + Q_k by its own
two-digit sign of Q_k = log(1 + e^-k) − e^-k + e^-2k/2 (> 0, negative to SymPy) and drops the
wrong one. The nested and the flat spelling must give the same, true, value: for Max the larger
offset z + Q_k is kept, for Min the smaller z."""
from __future__ import annotations

import pytest

from symcheck.language.activations import activation

from support.tiny_constants import tiny


@pytest.mark.parametrize("k", [20, 30])
@pytest.mark.parametrize("name", ["Max", "Min"])
@pytest.mark.parametrize("inner_first", [True, False])
def test_a_nested_extremum_is_compared_like_a_flat_one(k, name, inner_first) -> None:
    q = tiny("log3", "e", k).text
    inner, offset = f"{name}(z, exp(z))", f"z + {q}"
    nested = f"{name}({inner}, {offset})" if inner_first else f"{name}({offset}, {inner})"
    flat = f"{name}(z, exp(z), {offset})"
    truth = f"{name}({offset}, exp(z))" if name == "Max" else f"{name}(z, exp(z))"
    assert activation(nested).expr == activation(flat).expr == activation(truth).expr
