"""Branch conditions that differ from 0 by less than SymPy's evalf can see are decided right.

SymPy decides `5*log(1 + exp(-2000)) <= 0` as True (its floating point loses the 1e-869) and
`Interval.contains` says log(1 + e^-2000) is not in (0, oo). Such conditions are decided here
by certified signs (Arb balls at up to 8192 bits) or not at all.
"""
from __future__ import annotations

import sympy

from symcheck import activation
from symcheck.engine.symmetries import check_exchange
from symcheck.exact.evaluate import recheck_sign
from symcheck.exact.signs import at_point
from symcheck.language.symbols import A, B, Z

L = sympy.log(1 + sympy.exp(-2000))


def test_a_number_goes_into_the_right_branch() -> None:
    sigma = activation("z + Piecewise((1, (z**2 - 4*z + 5)*log(1 + exp(-2000)) <= 0), (0, True))")
    assert sigma(1) == 1  # SymPy's own substitution gives 2
    assert at_point(sympy.Piecewise((1, 2 * L * Z <= 0), (0, True)), Z, 1) == 0


def test_a_positive_factor_too_small_for_evalf_is_not_a_counterexample() -> None:
    # (z² − 4z + 5)·log(1 + e^-2000) > 0 for every z: σ is exactly z, exchange holds
    result = check_exchange("z + Piecewise((1, (z**2 - 4*z + 5)*log(1 + exp(-2000)) <= 0), (0, True))")
    # the certificate writes the condition as log(1 + e^-2000)·(z² − 4z + 5): the kernel signs the
    # constant at its value (Arb) and the polynomial by its roots (the 'factors' argument)
    assert result.verdict.value == "holds", str(result)
    assert result.kernel is not None and result.kernel.accepted
    cover = [s for s in result.steps if s.title == "Cover"]
    assert not cover or "cut point" in cover[0].justification


def test_a_branch_on_an_interval_too_narrow_for_evalf_is_found() -> None:
    # σ = z + 1 on (0, log(1 + e^-2000)]: exchange is broken there, nowhere visible to floats
    text = "Piecewise((z + 1, (exp(z) - 1 - exp(-2000) <= 0) & (z > 0)), (z, True))"
    result = check_exchange(text)
    assert result.verdict.value in ("broken", "inconclusive")
    if result.verdict.value == "broken":
        a, b = result.witness["a"], result.witness["b"]
        s = activation(text)
        tiny = sympy.Rational(1, 10**800)
        assert 0 < a < tiny or 0 < b < tiny
        assert recheck_sign(A * s(B) - B * s(A), {A: a, B: b}, max_prec=8192) in (1, -1)
