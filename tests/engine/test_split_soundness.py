"""Generated piecewise activations whose truth the test computes itself: a case split never proves
a false statement, whatever the branch conditions (periodic, exponential) and break points
(irrational) are. The engine used to cut at ``solveset``'s roots, which miss the roots of periodic
conditions on half-lines; it then printed proofs of statements these tests show false.

The oracle: σ(z) = z + Piecewise((0, C(z)), (bump(z), True)) with a bump > 0 exactly on (p, q).
Exchange holds iff σ is linear, iff C holds on all of (p, q) (then σ(1) = 1 when 1 ∉ (p, q)).
The test certifies C false at a point of (p, q) with ball arithmetic on C's own expression;
when it can, the statement is known false and `holds` is a wrong proof.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sympy import Rational as R

from symcheck import activation
from symcheck.engine.guard import WITHDRAWN
from symcheck.engine.symmetries import check_exchange
from symcheck.exact.evaluate import certify_nonzero, recheck_sign
from symcheck.language.symbols import A, B, Z

CONDITIONS = {
    "sin(z) + cos(z) > 0": sympy.sin(Z) + sympy.cos(Z),
    "sin(2*z) > 1/2": sympy.sin(2 * Z) - R(1, 2),
    "cos(z/2) + 1/3 > 0": sympy.cos(Z / 2) + R(1, 3),
    "z*cos(z) > 1": Z * sympy.cos(Z) - 1,
    "exp(-z)*sin(3*z) > 0": sympy.exp(-Z) * sympy.sin(3 * Z),
    "sin(pi*z) > 0": sympy.sin(sympy.pi * Z),
    "tanh(z - 3) + sin(z) > 0": sympy.tanh(Z - 3) + sympy.sin(Z),
}
STARTS = [R(17, 4) - R(1, 4), R(3, 2), 2 + sympy.sqrt(2), sympy.pi, 1 + sympy.sqrt(3), R(-7, 2),
          -sympy.sqrt(5), R(9, 2), 5 * sympy.pi / 4]
WIDTHS = [R(1, 4), R(1, 2), R(1), sympy.sqrt(2) / 2]


def activation_text(cond: str, p: sympy.Expr, w: sympy.Expr) -> str:
    q = p + w
    return f"z + Piecewise((0, {cond}), (Max(0, (z - ({p}))*(({q}) - z)), True))"


def _sign(value: sympy.Expr) -> int:
    certificate = certify_nonzero(value, {})
    return 0 if certificate is None else certificate.sign


def known_false_at(g: sympy.Expr, p: sympy.Expr, w: sympy.Expr) -> sympy.Rational | None:
    """A rational z in (p, p + w), not 1, where g(z) > 0 is certified false (g(z) < 0)."""
    for k in range(1, 64):
        approx = Fraction(str((p + w * R(k, 64)).evalf(20))).limit_denominator(10**6)
        z = sympy.Rational(approx.numerator, approx.denominator)
        if z == 1 or _sign(z - p) <= 0 or _sign(p + w - z) <= 0:
            continue
        certificate = certify_nonzero(g, {Z: z})
        if certificate is not None and certificate.sign < 0:
            return z
    return None


def assert_sound(cond: str, p: sympy.Expr, w: sympy.Expr) -> None:
    text = activation_text(cond, p, w)
    result = check_exchange(text, timeout=30)
    counter = known_false_at(CONDITIONS[cond], p, w)
    one_inside = _sign(1 - p) > 0 and _sign(p + w - 1) > 0
    if counter is not None and not one_inside:
        assert result.verdict.value != "holds", f"a proof of a false statement for {text} (false at z = {counter})"
    if result.verdict.value == "broken":
        # the witness stands on its own, re-checked by an arithmetic the certifier does not use
        s = activation(text)
        a, b = result.witness["a"], result.witness["b"]
        assert recheck_sign(A * s(B) - B * s(A), {A: a, B: b}) in (1, -1)


@pytest.mark.parametrize("cond, p, w", [
    ("sin(z) + cos(z) > 0", R(4), R(1, 2)),             # the example from the field
    ("sin(z) + cos(z) > 0", 2 + sympy.sqrt(2), R(1, 2)),  # an irrational break point
    ("sin(pi*z) > 0", R(3, 2), R(1, 4)),                  # sin(πz) < 0 on (1, 2)
    ("z*cos(z) > 1", sympy.pi, R(1)),
    ("exp(-z)*sin(3*z) > 0", R(-7, 2), R(1, 2)),
    ("cos(z/2) + 1/3 > 0", 5 * sympy.pi / 4 + 2, R(1)),
])
@pytest.mark.slow
def test_known_false_statements_are_never_proved(cond: str, p: sympy.Expr, w: sympy.Expr) -> None:
    assert known_false_at(CONDITIONS[cond], p, w) is not None  # the oracle sees the counterexample
    assert_sound(cond, p, w)


def test_a_condition_true_on_the_whole_bump_is_proved_or_left_open() -> None:
    # sin(z) + cos(z) > 0 on (0, 1/2) ⊂ (−π/4, 3π/4): σ is z there, so exchange holds
    result = check_exchange(activation_text("sin(z) + cos(z) > 0", R(0), R(1, 2)))
    assert result.verdict.value in ("holds", "inconclusive")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(CONDITIONS)), st.sampled_from(STARTS), st.sampled_from(WIDTHS))
@pytest.mark.slow
def test_generated_piecewise_activations(cond: str, p: sympy.Expr, w: sympy.Expr) -> None:
    before = len(WITHDRAWN)
    assert_sound(cond, p, w)
    assert len(WITHDRAWN) == before
