"""The second opinion's enclosures contain the true value: every function, at single points and
over intervals, against mpmath's own values at four times the precision; the series helpers
against sums known exactly (a dropped tail or remainder shows there as an excluded value).
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath.libmp import finf, fnan, fninf, fone, from_rational, round_ceiling, round_floor

from symcheck.core.errors import EvaluationError, Imprecise
from symcheck.exact import intervals
from symcheck.exact.intervals import Enclosure, _alternating_series, _int, _positive_series

PRECISIONS = (64, 200)


def _fraction(raw: tuple) -> Fraction:
    sign, man, exp, _ = raw
    value = Fraction(int(man)) * Fraction(2) ** int(exp)
    return -value if sign else value


def _ends(value) -> tuple[Fraction, Fraction]:
    if isinstance(value, Fraction):
        return value, value
    return _fraction(value[0]), _fraction(value[1])


def _exact_interval(q: Fraction, prec: int) -> tuple[tuple, tuple]:
    return from_rational(q.numerator, q.denominator, prec, round_floor), \
        from_rational(q.numerator, q.denominator, prec, round_ceiling)


def _reference(name: str, x: Fraction, prec: int) -> tuple[Fraction, Fraction]:
    """mpmath's value at 4·prec + 64 bits, as a small interval of exact rationals around it."""
    with mpmath.workprec(4 * prec + 64):
        arg = mpmath.mpf(x.numerator) / x.denominator
        value = {"exp": mpmath.exp, "log": mpmath.log, "sin": mpmath.sin, "cos": mpmath.cos,
                 "tan": mpmath.tan, "sinh": mpmath.sinh, "cosh": mpmath.cosh, "tanh": mpmath.tanh,
                 "asinh": mpmath.asinh, "atan": mpmath.atan, "erf": mpmath.erf, "erfc": mpmath.erfc,
                 "sqrt": mpmath.sqrt, "abs": abs}[name](arg)
        slack = abs(value) * mpmath.mpf(2) ** (-(4 * prec)) + mpmath.mpf(2) ** (-(4 * prec) - 2000)
        lo, hi = value - slack, value + slack
        return _mp_fraction(lo), _mp_fraction(hi)


def _mp_fraction(x: mpmath.mpf) -> Fraction:
    return _fraction(x._mpf_)


def _contains(name: str, x: Fraction, value, prec: int) -> bool:
    """The enclosure meets mpmath's tiny interval around the value (it holds the true value,
    so it cannot miss it; a wrong enclosure misses it by far more than its width)."""
    lo, hi = _ends(value)
    ref_lo, ref_hi = _reference(name, x, prec)
    return lo <= ref_hi and ref_lo <= hi


ODD = ("sinh", "tanh", "asinh", "atan", "erf")
EVERYWHERE = ("exp", "sin", "cos", "cosh", "erfc", "abs", *ODD)
POINTS = [Fraction(1, 10**6), Fraction(1, 7), Fraction(1, 2), Fraction(1), Fraction(3), Fraction(10),
          Fraction(23), Fraction(25), Fraction(30), Fraction(100), Fraction(10**4), Fraction(22, 7),
          Fraction(1, 17), Fraction(1, 15), Fraction(5, 8)]


def _cheap(name: str, x: Fraction) -> bool:
    """e^10000 is enclosed too; only mpmath's reference at 4·prec would be slow there."""
    return not (name in ("exp", "sinh", "cosh") and abs(x) > 1000)


@pytest.mark.parametrize("prec", PRECISIONS)
@pytest.mark.parametrize(("name", "x"), [(name, x) for name in EVERYWHERE for x in POINTS + [-x for x in POINTS]
                                         if _cheap(name, x)])
@pytest.mark.slow
def test_every_function_encloses_its_value_at_a_point(name: str, x: Fraction, prec: int) -> None:
    arith = Enclosure(prec)
    value = getattr(arith, name)(arith.exact(x))
    assert _contains(name, x, value, prec)


@pytest.mark.parametrize("prec", PRECISIONS)
@pytest.mark.parametrize("name", ["log", "sqrt"])
@pytest.mark.parametrize("x", POINTS)
def test_log_and_sqrt_enclose_their_value(name: str, x: Fraction, prec: int) -> None:
    arith = Enclosure(prec)
    assert _contains(name, x, getattr(arith, name)(arith.exact(x)), prec)


@pytest.mark.parametrize("prec", PRECISIONS)
@pytest.mark.parametrize("x", [Fraction(1, 3), Fraction(-7, 5), Fraction(1, 1000), Fraction(3, 2)])
def test_tan_encloses_its_value(x: Fraction, prec: int) -> None:
    arith = Enclosure(prec)
    assert _contains("tan", x, arith.tan(arith.exact(x)), prec)


SPANS = [
    (Fraction(1, 3), Fraction(1, 2)), (Fraction(-1, 2), Fraction(1, 3)), (Fraction(2), Fraction(30)),
    (Fraction(-30), Fraction(-2)), (Fraction(20), Fraction(2**16 + 5)), (Fraction(-1, 10**5), Fraction(0)),
    (Fraction(0), Fraction(1, 10**5)), (Fraction(23), Fraction(26)), (Fraction(1, 20), Fraction(1, 10)),
]


@pytest.mark.parametrize(("name", "a", "b"), [
    (name, a, b) for name in EVERYWHERE + ("log", "sqrt") for a, b in SPANS
    if _cheap(name, b) and (name not in ("log", "sqrt") or a > 0)])  # log, sqrt: inside their domain
def test_every_function_encloses_its_range_over_an_interval(name: str, a: Fraction, b: Fraction) -> None:
    """An interval argument: the result holds the value at both ends and at points between."""
    prec = 64
    arith = Enclosure(prec)
    x = (_exact_interval(a, prec)[0], _exact_interval(b, prec)[1])
    value = getattr(arith, name)(x)
    for t in (Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(1)):
        point = a + (b - a) * t
        assert _contains(name, point, value, prec), (name, float(point))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(EVERYWHERE), st.fractions(min_value=-60, max_value=60, max_denominator=10**6))
def test_enclosures_hold_the_value_at_any_rational(name: str, x: Fraction) -> None:
    arith = Enclosure(64)
    assert _contains(name, x, getattr(arith, name)(arith.exact(x)), 64)


@pytest.mark.parametrize(("ratio", "total"), [
    (Fraction(1, 2), Fraction(2)), (Fraction(1, 4), Fraction(4, 3)), (Fraction(1, 8), Fraction(8, 7)),
])
def test_a_positive_series_keeps_its_tail(ratio: Fraction, total: Fraction) -> None:
    """Σ r^n = 1/(1 − r): every partial sum is a dyadic number below it, so only the tail
    bound brings the exact sum inside the enclosure."""
    for prec in (16, 64):
        step = _exact_interval(ratio, prec)
        lo, hi = _ends(_positive_series(_int(1), lambda n, step=step: step, prec))
        assert lo <= total <= hi
        assert hi - lo < Fraction(1, 2**(prec - 8))


@pytest.mark.parametrize(("ratio", "total"), [
    (Fraction(1, 2), Fraction(2, 3)), (Fraction(1, 4), Fraction(4, 5)), (Fraction(1, 8), Fraction(8, 9)),
])
def test_an_alternating_series_keeps_its_remainder(ratio: Fraction, total: Fraction) -> None:
    """Σ (−r)^n = 1/(1 + r), not dyadic: the remainder term must be in the enclosure."""
    for prec in (16, 64):
        step = _exact_interval(ratio, prec)
        lo, hi = _ends(_alternating_series(_int(1), lambda n, step=step: step, prec))
        assert lo <= total <= hi
        assert hi - lo < Fraction(1, 2**(prec - 8))


@pytest.mark.parametrize("name", ["tanh", "erf"])
def test_saturated_functions_stay_below_one_and_above_their_lower_end(name: str) -> None:
    arith = Enclosure(64)
    x = (_exact_interval(Fraction(2**16 - 1), 64)[0], _exact_interval(Fraction(2**20), 64)[1])
    lo, hi = _ends(getattr(arith, name)(x))
    assert hi == 1 and Fraction(1, 2) < lo < 1
    lo, hi = _ends(getattr(arith, name)((_exact_interval(Fraction(-(2**20)), 64)[0],
                                         _exact_interval(Fraction(-(2**16 - 1)), 64)[1])))
    assert lo == -1 and -1 < hi < Fraction(-1, 2)


@pytest.mark.parametrize(("factor", "other"), [(Fraction(0), "sin"), (Fraction(0), "exp"), (Fraction(1), "sin"),
                                               (Fraction(-1), "cos"), (Fraction(3, 2), "atan")])
def test_an_exact_factor_multiplies_an_interval_exactly(factor: Fraction, other: str) -> None:
    """0 · sin(1) is exactly 0, 1 · x is x, and any other rational scales the enclosure."""
    arith = Enclosure(64)
    x = getattr(arith, other)(arith.exact(Fraction(1)))
    product = arith.mul([factor, x])
    if factor == 0:
        assert product == 0
        return
    lo, hi = _ends(product)
    ref_lo, ref_hi = _reference(other, Fraction(1), 64)
    ends = sorted([factor * ref_lo, factor * ref_hi])
    assert lo <= ends[1] and ends[0] <= hi


@pytest.mark.parametrize("series", [_positive_series, _alternating_series],
                         ids=["positive", "alternating"])
def test_a_series_whose_terms_never_shrink_is_refused(series, monkeypatch) -> None:
    """With the term ratio 1 no tail bound ever applies: after the term budget (lowered here to
    keep the test quick) the sum is refused, never returned without its tail."""
    monkeypatch.setattr(intervals, "_MAX_SERIES_TERMS", 50)
    with pytest.raises(EvaluationError) as caught:
        series(_int(1), lambda n: _int(1), 64)
    assert str(caught.value) == "series did not converge"


@pytest.mark.parametrize("x", [(fninf, fone), (fone, finf), (fninf, finf), (fnan, fnan)],
                         ids=["from -inf", "to +inf", "everything", "nan"])
def test_an_unbounded_enclosure_is_refused_not_passed_on(x) -> None:
    """A power of an interval with an infinite or NaN end is no enclosure to decide from (a NaN
    end has sign 0, which would read as an exact 0): it is refused as undecided."""
    with pytest.raises(Imprecise) as caught:
        Enclosure(64).pow_int(x, 2)
    assert str(caught.value) == "unbounded enclosure in a power"


@pytest.mark.parametrize(("x", "y", "shared"), [
    ((0, 1), (1, 2), True),     # touching ends share the point 1
    ((1, 2), (0, 1), True),
    ((0, 3), (1, 2), True),     # nested
    ((0, 1), (2, 3), False),    # y entirely above x
    ((2, 3), (0, 1), False),    # y entirely below x
    ((-1, 0), (0, 0), True),
    ((-2, -1), (0, 0), False),
])
def test_two_intervals_overlap_exactly_when_they_share_a_point(x, y, shared) -> None:
    def interval(ends: tuple[int, int]) -> tuple:
        return _int(ends[0])[0], _int(ends[1])[0]

    assert intervals.overlaps(interval(x), interval(y)) is shared


@pytest.mark.parametrize("prec", [64, 200])
@pytest.mark.parametrize(("name", "x"), [("exp", Fraction(1)), ("exp", Fraction(-7, 3)), ("log", Fraction(3)),
                                         ("log", Fraction(1, 10)), ("pi", None), ("e", None)])
def test_a_primitive_from_mpmath_keeps_its_margin_of_ulps(name: str, x, prec: int) -> None:
    """exp, log, π and e come from mpmath's directed rounding, which the enclosure does not
    take on trust: each is widened by a relative 2^-(prec-4) (about 16 ulps) on both sides, so a
    last-bit slip of mpmath still leaves the true value inside."""
    arith = Enclosure(prec)
    value = getattr(arith, name)() if x is None else getattr(arith, name)(arith.exact(x))
    lo, hi = _ends(value)
    with mpmath.workprec(4 * prec):
        true = {"exp": mpmath.exp, "log": mpmath.log}[name](mpmath.mpf(x.numerator) / x.denominator) \
            if x is not None else {"pi": +mpmath.pi, "e": +mpmath.e}[name]
        margin = abs(true) * mpmath.mpf(2) ** (2 - prec)  # a quarter of the designed margin
        assert mpmath.mpf(lo.numerator) / lo.denominator <= true - margin
        assert mpmath.mpf(hi.numerator) / hi.denominator >= true + margin
        assert hi - lo < Fraction(1, 2**(prec - 12)) * abs(Fraction(_mp_fraction(true)))  # and no wider
