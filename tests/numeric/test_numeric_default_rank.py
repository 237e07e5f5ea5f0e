"""The bilinear form's rank r defaults to 4 (``_DEFAULTS["r"]``) when the user leaves it out;
every other form, and the rank1 check whatever form it is given, runs at r = 1. A slip in the
default's condition (testing ``r`` where ``form`` belongs, say) silently turns the bilinear
form into a rank-1 one: the check then compares the wrong formulation and reports its sizes as
asked. Checked on the data drawn and on the sizes ``prepare`` reports."""
from __future__ import annotations

import numpy as np
import pytest

from symcheck.numeric.checks import _DEFAULTS, _random_data, prepare
from symcheck.numeric.vocabulary import NumericCheckKind, NumericForm

D, M, N = 12, 10, 8


@pytest.mark.parametrize("check", [NumericCheckKind.EXCHANGE, NumericCheckKind.SCALING])
def test_bilinear_without_r_uses_the_default_rank(check) -> None:
    assert _DEFAULTS["r"] == 4
    sizes, arrays, used, _ = _random_data(check, NumericForm.BILINEAR, D, M, None, N,
                                          np.random.default_rng(3), 3, np.dtype(np.float64), 1 << 30)
    assert used is NumericForm.BILINEAR
    assert sizes["r"] == _DEFAULTS["r"]
    assert arrays["Q"].shape == arrays["K"].shape == (M, D, _DEFAULTS["r"])


@pytest.mark.parametrize("check", [NumericCheckKind.EXCHANGE, NumericCheckKind.SCALING])
def test_prepare_reports_the_default_rank(check) -> None:
    prepared = prepare(check, act="silu", form="bilinear", d=D, m=M, tokens=N)
    assert prepared.sizes["r"] == _DEFAULTS["r"]


@pytest.mark.parametrize("check, form", [(NumericCheckKind.EXCHANGE, NumericForm.GATED),
                                         (NumericCheckKind.SCALING, NumericForm.RANK1),
                                         (NumericCheckKind.RANK1, NumericForm.BILINEAR)])
def test_other_forms_run_at_rank_one(check, form) -> None:
    sizes, arrays, _, _ = _random_data(check, form, D, M, None, N, np.random.default_rng(3), 3,
                                       np.dtype(np.float64), 1 << 30)
    assert sizes["r"] == 1
    assert arrays["Q"].shape == (M, D)
