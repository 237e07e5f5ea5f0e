"""Where the second opinion's series and searches stop: an alternating series stops relative to
its sum (not at an absolute 2**-prec), so a tiny argument still gets a result as narrow as the
precision asks; LambertW's mpmath guess is taken at more than the working precision, so the
certified bounds around it are found. Everything is compared exactly (rationals)."""
from __future__ import annotations

from fractions import Fraction

import mpmath
from hypothesis import given, settings
from hypothesis import strategies as st
from test_interval_enclosures import _ends, _fraction  # exact ends of an mpf interval

from symcheck.exact.intervals import Enclosure


def _reference(function, x: Fraction, prec: int) -> tuple[Fraction, Fraction]:
    """mpmath's value at 4·prec + 64 bits, widened by a relative 2**-(4·prec): exact rationals."""
    with mpmath.workprec(4 * prec + 64):
        value = function(mpmath.mpf(x.numerator) / x.denominator)
        value = value.real if isinstance(value, mpmath.mpc) else value
        slack = abs(value) * mpmath.mpf(2) ** (-(4 * prec)) + mpmath.mpf(2) ** (-(4 * prec) - 2000)
        return _fraction((value - slack)._mpf_), _fraction((value + slack)._mpf_)


@st.composite
def _tiny_arguments(draw) -> tuple[int, Fraction]:
    """x = c·2**-k, 1 ≤ c < 2, with x³ below 2**-(prec + 26) (an absolute cut-off would stop at
    the first term) but x² far above 2**-prec (so dropping x³/3 shows in the width)."""
    prec = draw(st.sampled_from([160, 200, 300, 500]))
    k = draw(st.integers((prec + 30) // 3 + 2, prec // 2 - 4))
    c = draw(st.fractions(min_value=1, max_value=Fraction(193, 97), max_denominator=97))
    sign = draw(st.sampled_from([1, -1]))
    return prec, sign * c / 2**k


@settings(max_examples=40, deadline=None)
@given(_tiny_arguments(), st.sampled_from(["atan", "asinh"]))
def test_an_alternating_series_at_a_tiny_argument_is_as_narrow_as_asked(case, name: str) -> None:
    """atan and asinh of a tiny x: the series x - x³/3 + … must not stop at x because x³/3 is
    below 2**-prec in absolute terms; the enclosure holds the value and is within 8 ulps
    (rounding x itself costs about one; dropping the x³ term costs x²/6 > 2**-(prec - 5) relative)."""
    prec, x = case
    arith = Enclosure(prec)
    lo, hi = _ends(getattr(arith, name)(arith.exact(x)))
    ref_lo, ref_hi = _reference(getattr(mpmath, name), x, prec)
    assert lo <= ref_lo and ref_hi <= hi
    assert hi - lo <= abs(lo) / 2**(prec - 3), (prec, x, name)


@settings(max_examples=30, deadline=None)
@given(st.fractions(min_value=Fraction(-1, 3), max_value=1000, max_denominator=1000).filter(bool),
       st.sampled_from([53, 64, 200]))
def test_lambertw_is_certified_and_narrow_at_a_rational(x: Fraction, prec: int) -> None:
    """W₀(x) for x ≥ −1/3 (away from the branch point −1/e): the bounds placed around mpmath's
    guess are certified, the enclosure holds W₀(x), and its width is within the precision."""
    arith = Enclosure(prec)
    lo, hi = _ends(arith.lambertw(arith.exact(x)))
    ref_lo, ref_hi = _reference(mpmath.lambertw, x, prec)
    assert lo <= ref_lo and ref_hi <= hi
    assert hi - lo <= (abs(ref_lo) + 1) / 2**(prec - 2), (prec, x)


def test_lambertw_of_one_is_the_omega_constant() -> None:
    """W₀(1) = Ω = 0.5671432904097838…; at 64 bits the enclosure is found and holds it."""
    lo, hi = _ends(Enclosure(64).lambertw(Fraction(1)))
    ref_lo, ref_hi = _reference(mpmath.lambertw, Fraction(1), 64)
    assert lo <= ref_lo and ref_hi <= hi and hi - lo <= Fraction(1, 2**62)
