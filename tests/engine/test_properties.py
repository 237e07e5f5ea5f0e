"""Hypothesis properties of the decision procedures, and soundness under failed simplification."""
from __future__ import annotations

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.engine import zero
from symcheck.language.symbols import Z

small = st.fractions(min_value=-50, max_value=50, max_denominator=20)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@SETTINGS
@given(c=small)
def test_linear_activation_has_every_symmetry(c) -> None:
    expr = f"({c.numerator}/{c.denominator})*z"
    assert sc.check_exchange(expr).verdict.value == "holds"
    assert sc.check_inverse_scaling(expr, alpha="any").verdict.value == "holds"


@pytest.mark.slow
@SETTINGS
@given(coeffs=st.lists(small, min_size=2, max_size=5), degree=st.integers(0, 4))
def test_polynomial_with_a_nonlinear_term_is_broken_with_a_real_witness(coeffs, degree) -> None:
    # make sure some coefficient other than the linear one is non-zero
    coeffs = list(coeffs)
    nonlinear = degree if degree != 1 else 0
    while len(coeffs) <= nonlinear:
        coeffs.append(0)
    if coeffs[nonlinear] == 0:
        coeffs[nonlinear] = 1
    poly = sum(sympy.Rational(c.numerator, c.denominator) * Z**k for k, c in enumerate(coeffs))
    result = sc.check_exchange(sympy.sstr(poly))
    assert result.verdict.value == "broken"
    a, b = (sympy.Rational(result.witness[k]) for k in ("a", "b"))
    value = (poly.subs(Z, b) * a - poly.subs(Z, a) * b).evalf(50)
    assert value != 0


@SETTINGS
@given(c=st.fractions(min_value=-20, max_value=20, max_denominator=10).filter(lambda q: q != 0),
       slope=st.fractions(min_value=0, max_value=5, max_denominator=10))
@pytest.mark.slow
def test_two_slope_piecewise_linear_is_positively_homogeneous(c, slope) -> None:
    expr = f"Piecewise(({c.numerator}/{c.denominator}*z, z > 0), ({slope.numerator}/{slope.denominator}*z, True))"
    assert sc.check_inverse_scaling(expr, alpha="positive").verdict.value == "holds"
    any_alpha = sc.check_inverse_scaling(expr, alpha="any").verdict.value
    assert any_alpha == ("holds" if c == slope else "broken")


@pytest.mark.parametrize("expr", ["z*(sin(z)**2 + cos(z)**2)", "z*cosh(z)**2 - z*sinh(z)**2",
                                  "z*cos(2*z) + 2*z*sin(z)**2"])
def test_failed_simplification_is_inconclusive_never_broken(monkeypatch, expr) -> None:
    """With every rewrite disabled, true identities cannot be proved: the answer must be
    inconclusive, never broken, and it still reports the residual and the evidence."""
    monkeypatch.setattr(zero, "_METHODS", ())
    result = sc.check_exchange(expr)
    assert result.verdict.value == "inconclusive"
    assert result.residual is not None and result.evidence["points"] > 0


def test_float_noise_never_decides(monkeypatch) -> None:
    """A residual that is exactly zero evaluates to float noise; noise must not certify."""
    from symcheck.exact import evaluate
    monkeypatch.setattr(zero, "VISIBLE", -1.0)  # send even zero-valued points to the certifier
    result = sc.check_exchange("z*(sin(z)**2 + cos(z)**2)")
    assert result.verdict.value == "holds"
    assert evaluate.certify_nonzero(sympy.sin(Z)**2 + sympy.cos(Z)**2 - 1,
                                    {Z: sympy.Rational(3, 7)}) is None


def test_tiny_perturbation_is_seen_exactly() -> None:
    result = sc.check_exchange("z + z**3/10**15")
    assert result.verdict.value == "broken"
    certificate = [s for s in result.steps if s.title == "Certificate"][0]
    assert "exactly" in certificate.statement
