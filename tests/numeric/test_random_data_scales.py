"""The random data of a numeric check have the scales that keep every pre-activation O(1): x
standard normal, V with std 1/√m, Q, K and the absorbed Q_g with std 1/√d (1/√(d·√r) per factor
of the bilinear form, so x Q_j K_jᵀ xᵀ is O(1)). A factor dropped from one of them leaves σ's
arguments at √d times their size, where every activation saturates and the checks compare
flat pieces. Each array's sample standard deviation is checked against its stated scale (a
few thousand draws, so within 5 %), for every check and form."""
from __future__ import annotations

import math

import numpy as np
import pytest

from symcheck.numeric.checks import _random_data
from symcheck.numeric.vocabulary import NumericCheckKind, NumericForm

D, M, R, N = 96, 40, 4, 64


def _expected(check: NumericCheckKind, form: NumericForm) -> dict[str, float]:
    scales = {"X": 1.0, "V": 1 / math.sqrt(M)}
    if check is NumericCheckKind.ABSORB:
        return {**scales, "Q_g": 1 / math.sqrt(D), "K": 1 / math.sqrt(D)}
    if form is NumericForm.BILINEAR and check is not NumericCheckKind.RANK1:
        std = 1 / math.sqrt(D * math.sqrt(R))
        return {**scales, "Q": std, "K": std}
    return {**scales, "Q": 1 / math.sqrt(D), "K": 1 / math.sqrt(D)}


CASES = [(NumericCheckKind.ABSORB, NumericForm.GATED), (NumericCheckKind.RANK1, NumericForm.RANK1),
         (NumericCheckKind.RANK1, NumericForm.BILINEAR),
         *((check, form) for check in (NumericCheckKind.EXCHANGE, NumericCheckKind.SCALING)
           for form in (NumericForm.GATED, NumericForm.RANK1, NumericForm.BILINEAR))]


@pytest.mark.parametrize("check, form", CASES, ids=lambda v: str(v))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_each_array_has_its_stated_scale(check, form, dtype) -> None:
    r = R if form is NumericForm.BILINEAR and check is not NumericCheckKind.RANK1 else None
    sizes, arrays, used, _ = _random_data(check, form, D, M, r, N, np.random.default_rng(7), 7,
                                       np.dtype(dtype), 1 << 30)
    expected = _expected(check, form)
    assert set(arrays) == set(expected)
    for name, std in expected.items():
        assert arrays[name].dtype == np.dtype(dtype)
        measured = float(np.std(arrays[name].astype(np.float64)))
        assert abs(measured / std - 1) < 0.05, (name, measured, std)
    assert (sizes["d"], sizes["m"], sizes["tokens"]) == (D, M, N)
    # the form evaluated: absorb's query MLP, rank1's rank-1 form whatever was asked, else as asked
    assert used is (NumericForm.QUERY_MLP if check is NumericCheckKind.ABSORB else
                    NumericForm.RANK1 if check is NumericCheckKind.RANK1 else form)
    factors = {"Q_g": (D, D)} if check is NumericCheckKind.ABSORB else \
        {"Q": (M, D, R), "K": (M, D, R)} if used is NumericForm.BILINEAR else {"Q": (M, D), "K": (M, D)}
    assert {name: arrays[name].shape for name in factors} == factors
