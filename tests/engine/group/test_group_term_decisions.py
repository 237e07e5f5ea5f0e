"""The exact decisions of the group engine's small helpers, each on the input that makes a slip visible.

* results._power_index: modulus strictly between two consecutive powers, for a base above 1 and below 1
  (the direction of growth is the sign of base − 1, not of base), and with the log ratio rounding up;
* facts.exact_form: a shorter form is kept only when its difference from the value is proved 0;
* breaks.break_points: a cut where both pieces are the same expression and σ(b) is their common value
  is smooth, not a reason to give up;
* breaks._trig_form / _claimed / _chosen: terms of one frequency merge (same phase) or refuse (other
  phase), the claimed form keeps the phase, and a frequency −ω is not "apart" from ω.
"""
from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.core.budget import Budget
from symcheck.engine.group.breaks import _T, _chosen, _claimed, _trig_form, break_points
from symcheck.engine.group.facts import exact_form
from symcheck.engine.group.results import _power_index
from symcheck.exact.regions import split
from symcheck.language.symbols import Z

R = sympy.Rational


# ---- results._power_index ------------------------------------------------------------------------

def test_a_modulus_between_powers_of_a_base_below_one_is_refuted():
    # (1/2)^-1 = 2 < 3 < 4 = (1/2)^-2: the powers decrease, so the sign of base − 1 (−1) orders them
    assert _power_index(sympy.Integer(3), R(1, 2)) is False
    assert _power_index(sympy.Integer(4), R(1, 2)) == -2


@settings(max_examples=25, deadline=None)
@given(base=st.integers(2, 5), j=st.integers(-3, 3), inverse=st.booleans())
def test_a_modulus_just_above_a_power_is_refuted(base: int, j: int, inverse: bool):
    # modulus = B^j + (B^(j+1) − B^j)·9/10: log_B rounds up to j + 1, so the pair (j, j + 1) is the one
    b = R(1, base) if inverse else sympy.Integer(base)
    low, high = (b**j, b**(j + 1)) if not inverse else (b**(j + 1), b**j)
    modulus = low + (high - low) * R(9, 10)
    assert _power_index(modulus, b) is False
    assert _power_index(b**j, b) == j


def test_the_log_ratio_rounding_up_still_refutes():
    # log_2 3 ≈ 1.58 rounds to 2: 3 lies between 2^1 and 2^2, the pair (guess − 1, guess)
    assert _power_index(sympy.Integer(3), sympy.Integer(2)) is False
    assert _power_index(R(7, 2), sympy.Integer(2)) is False


# ---- facts.exact_form ----------------------------------------------------------------------------

def test_a_shorter_form_proved_equal_is_kept():
    value = (sympy.sqrt(2) + 1) * (sympy.sqrt(2) - 1)
    assert value != 1  # SymPy leaves the product as written
    assert exact_form(value) == 1
    assert exact_form(sympy.sqrt(2) * (sympy.sqrt(2) + 2)) == 2 + 2 * sympy.sqrt(2)


# ---- breaks.break_points ---------------------------------------------------------------------------

def _pieces(spec: str):
    return split(sympy.sympify(spec, locals={"z": Z}), Z, Budget(60))


def test_a_cut_with_the_same_expression_on_both_sides_is_smooth():
    # z = 1 separates z² from z² (and σ(1) = 1 = 1²); the break is at z = 2 only
    for spec in ("Piecewise((z**2, z < 1), (z**2, z < 2), (0, True))",
                 "Piecewise((z**2 + 1, z < 1), (2, Eq(z, 1)), (z**2 + 1, z < 2), (0, True))"):
        pieces = _pieces(spec)
        assert any(p.region.is_point and p.region.lower == 1 for p in pieces), spec  # the cut is kept
        steps, missing = [], []
        assert break_points(pieces, Budget(60), steps, missing) is True, (spec, missing)
        assert not missing
        assert "at 1 the two pieces are the same expression" in str(steps[0])


def test_a_cut_where_sigma_differs_from_both_sides_is_a_break():
    pieces = _pieces("Piecewise((z**2 + 1, z < 1), (5, Eq(z, 1)), (z**2 + 1, z < 2), (0, True))")
    steps, missing = [], []
    assert break_points(pieces, Budget(60), steps, missing) is True
    assert "differs from its left limit" in str(steps[0])


# ---- breaks._trig_form, _claimed, _chosen ------------------------------------------------------------

def test_terms_of_one_frequency_merge_into_one_harmonic():
    t = _T
    assert _trig_form(sympy.cos(2 * t) + sympy.sin(2 * t)) == (0, ((2, 0, 1, 1),))
    assert _trig_form(3 * sympy.cos(2 * t) + sympy.cos(5 * t) - sympy.sin(2 * t)) == (0, ((2, 0, 3, -1), (5, 0, 1, 0)))
    # a constant (frequency 0) does not absorb a harmonic of frequency 2
    assert _trig_form(1 + sympy.cos(2 * t)) == (0, ((0, 0, 1, 0), (2, 0, 1, 0)))


def test_terms_of_one_frequency_must_share_the_phase():
    t = _T
    assert _trig_form(sympy.cos(2 * t + 1) + sympy.sin(2 * t + 1)) == (0, ((2, 1, 1, 1),))
    assert _trig_form(sympy.cos(2 * t) + sympy.cos(2 * t + 1)) is None
    assert _trig_form(sympy.sin(2 * t + 1) + sympy.cos(2 * t + 3)) is None


def test_the_claimed_form_keeps_the_phase():
    t = _T
    assert _claimed((0, ((2, 1, 1, 0),))) == sympy.cos(2 * t + 1)
    assert _claimed((1, ((3, 2, 0, 5),))) == sympy.exp(t) * 5 * sympy.sin(3 * t + 2)
    assert _claimed((0, ((2, 1, 1, 1),))) == sympy.cos(2 * t + 1) + sympy.sin(2 * t + 1)


def test_a_frequency_minus_omega_is_not_apart_from_omega():
    # cos(−2t) = cos 2t: the two harmonics are one, so neither is usable by the rotation argument
    def h(*harmonics):
        return tuple(tuple(sympy.Integer(x) for x in row) for row in harmonics)
    assert _chosen(h((2, 0, 1, 0), (-2, 0, 1, 0))) is None
    assert _chosen(h((2, 0, 1, 0), (-3, 0, 1, 0))) == 0
    assert _chosen(h((2, 0, 1, 0), (3, 0, 1, 0))) == 0


# ---- breaks.other_side: a harmonic of frequency −ω on the other half-line is the chosen one ------------

def test_the_other_side_with_frequency_minus_omega_gives_no_conclusion(monkeypatch):
    # σ = cos(2 log|z|) is even: (−1, 1) is a member, so "no a < 0" must not follow. The other side's form is
    # handed over with its frequency written −2 (cos(−2t) = cos 2t): it is the chosen ω = 2, not apart from it.
    from symcheck.engine.group import breaks
    from symcheck.engine.group.facts import Bound, BoundKind
    pieces = _pieces("Piecewise((cos(2*log(z)), z > 0), (cos(2*log(-z)), True))")
    two, zero, one = sympy.Integer(2), sympy.Integer(0), sympy.Integer(1)
    bound = Bound(1, BoundKind.DISCRETE, base=sympy.exp(sympy.pi / 2), form=(1, (zero, ((two, zero, one, zero),)), 0))
    monkeypatch.setattr(breaks, "_trig_form", lambda f: (zero, ((-two, zero, one, zero),)))
    assert breaks.other_side(pieces, bound, Budget(60), []) is None
    # a frequency −3 is apart from 2 (the check is on |o| ≠ ω, both signs): the conclusion follows
    monkeypatch.setattr(breaks, "_trig_form", lambda f: (zero, ((-sympy.Integer(3), zero, one, zero),)))
    three = _pieces("Piecewise((cos(2*log(z)), z > 0), (cos(3*log(-z)), True))")
    found = breaks.other_side(three, bound, Budget(60), [])
    assert found is not None and found.kind is BoundKind.EMPTY
