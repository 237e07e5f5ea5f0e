"""The certificate's points are written exactly (symcheck/engine/certificate/points.py).

A point the emitter writes — a rational, or a root with its rational isolating interval — must be
the exact number, not its nearest float: a float end that is not dyadic (1/3) or too wide for a
double (an integer beyond 2**53, a number beyond 1.8e308) names another interval, one the kernel
may refuse (a lost proof) or that holds another number. Each test here asserts the exact JSON and
that the kernel's own reader (parse_point, which re-counts the roots) accepts it.
"""
from __future__ import annotations

from fractions import Fraction

import sympy
from flint import fmpq_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.engine.certificate.points import point_json, roots_inside
from symcheck.kernel.points import INF, NEG_INF, parse_number, parse_point

_X = sympy.Symbol("x")
S2 = sympy.sqrt(2)


def _end(obj) -> Fraction:
    return parse_number(obj)


def _sympy_intervals(coeffs: list[int]) -> list[tuple[Fraction, Fraction]]:
    """SymPy's exact isolating intervals of the polynomial (lowest degree first)."""
    poly = sympy.Poly(list(reversed(coeffs)), _X)
    return [(Fraction(int(sympy.Rational(a).p), int(sympy.Rational(a).q)),
             Fraction(int(sympy.Rational(b).p), int(sympy.Rational(b).q))) for (a, b), _ in poly.intervals()]


# ------------------------------------------------------------ point_json: a rational in disguise


def test_point_json_rational_with_irrational_form_is_exact_rat():
    """((1+√2)² − 2√2)/9 is not a SymPy Rational but equals 1/3: its minimal polynomial is linear
    (3x − 1) and the point is ["rat", 1, 3] — not the float 0.333… read back as a 2**-54 fraction."""
    x = ((1 + S2) ** 2 - 2 * S2) / 9
    assert not x.is_Rational
    obj = point_json(x)
    assert obj == ["rat", 1, 3]
    assert parse_point(obj).rational == Fraction(1, 3)


@given(p=st.integers(-50, 50), q=st.integers(3, 60).filter(lambda q: q & (q - 1) != 0))
@settings(max_examples=15, deadline=None)
def test_point_json_disguised_rationals_exact(p, q):
    """(p + (1+√2)² − 3 − 2√2)/q = p/q for a denominator q that is not a power of two."""
    x = (p + (1 + S2) ** 2 - 3 - 2 * S2) / q
    assert not x.is_Rational
    r = sympy.Rational(p, q)
    expected = ["int", int(r.p)] if r.q == 1 else ["rat", int(r.p), int(r.q)]
    assert point_json(x) == expected


# ------------------------------------------------------------ point_json: the isolating interval's ends


def test_point_json_interval_end_one_third_is_exact():
    """1/3 − √2·10⁻⁶ is isolated in [0, 1/3]: the upper end is exactly ["rat", 1, 3]."""
    obj = point_json(sympy.Rational(1, 3) - S2 / 10**6)
    assert obj == ["root", [499999999991, -3000000000000, 4500000000000], [["int", 0], ["rat", 1, 3]]]
    point = parse_point(obj)
    assert (point.lo, point.hi) == (0, Fraction(1, 3))


def test_point_json_interval_lower_end_one_third_is_exact():
    """1/3 + √2·10⁻⁶ is isolated in [1/3, 1/2]: the lower end is exactly ["rat", 1, 3]."""
    obj = point_json(sympy.Rational(1, 3) + S2 / 10**6)
    assert obj == ["root", [499999999991, -3000000000000, 4500000000000], [["rat", 1, 3], ["rat", 1, 2]]]
    point = parse_point(obj)
    assert (point.lo, point.hi) == (Fraction(1, 3), Fraction(1, 2))


def test_point_json_interval_with_integer_ends_beyond_double_precision():
    """√7·10²⁰ lies between the consecutive integers 264575131106459059050 and …051 (both beyond
    2**53, where a float would merge them into one number holding no root)."""
    obj = point_json(sympy.sqrt(7) * 10**20)
    assert obj == ["root", [-7 * 10**40, 0, 1],
                   [["int", 264575131106459059050], ["int", 264575131106459059051]]]
    point = parse_point(obj)
    assert point.hi - point.lo == 1


@given(n=st.sampled_from([2, 3, 5, 6, 7, 10, 11]), k=st.integers(17, 30))
@settings(max_examples=20, deadline=None)
def test_point_json_large_roots_keep_exact_ends(n, k):
    """√n·10^k: the emitted ends are exactly one of SymPy's isolating intervals of its minimal
    polynomial, the kernel accepts the point, and lo < √n·10^k < hi (checked on squares)."""
    obj = point_json(sympy.sqrt(n) * 10**k)
    assert obj[0] == "root" and obj[1] == [-n * 10 ** (2 * k), 0, 1]
    lo, hi = _end(obj[2][0]), _end(obj[2][1])
    assert (lo, hi) in _sympy_intervals(obj[1])
    assert 0 <= lo and lo * lo < n * 10 ** (2 * k) < hi * hi
    point = parse_point(obj)
    assert (point.lo, point.hi) == (lo, hi)


# ------------------------------------------------------------ roots_inside


def test_roots_inside_interval_upper_end_one_third_is_exact():
    """4500000000000x² + 3000000000000x + 499999999991 has its roots in [−1/2, −1/3] and [−1/3, 0]:
    the upper end −1/3 of the first is written exactly."""
    coeffs = [499999999991, 3000000000000, 4500000000000]
    got = roots_inside(fmpq_poly(coeffs), NEG_INF, INF)
    assert got == [["root", coeffs, [["rat", -1, 2], ["rat", -1, 3]]],
                   ["root", coeffs, [["rat", -1, 3], ["int", 0]]]]
    assert [(p.lo, p.hi) for p in map(parse_point, got)] == [(Fraction(-1, 2), Fraction(-1, 3)),
                                                            (Fraction(-1, 3), 0)]


def test_roots_inside_interval_ends_beyond_double_precision():
    """x² − 7·10⁴⁰: ends ±264575131106459059050, ±…051 written as the exact integers."""
    coeffs = [-7 * 10**40, 0, 1]
    got = roots_inside(fmpq_poly(coeffs), NEG_INF, INF)
    assert got == [["root", coeffs, [["int", -264575131106459059051], ["int", -264575131106459059050]]],
                   ["root", coeffs, [["int", 264575131106459059050], ["int", 264575131106459059051]]]]
    for obj in got:
        parse_point(obj)


def test_roots_inside_rational_root_beyond_float_range():
    """A rational root 10⁴⁰⁰ (1329 bits, inside the kernel's integer limit) is found and written
    exactly; it has no float (a float sort key would overflow)."""
    got = roots_inside(fmpq_poly([-(10**400), 1]), NEG_INF, INF)
    assert got == [["int", 10**400]]
    assert parse_point(got[0]).rational == 10**400


def test_roots_inside_mixed_roots_beyond_float_range_in_order():
    """(x − 3·10⁴⁰⁰)(x² − 2·10⁷⁰⁰): the rational root and the two roots ±√2·10³⁵⁰, whose isolating
    ends are beyond float range, come back exactly and in increasing order."""
    quad = [-2 * 10**700, 0, 1]
    poly = fmpq_poly([-3 * 10**400, 1]) * fmpq_poly(quad)
    got = roots_inside(poly, NEG_INF, INF)
    assert len(got) == 3
    assert got[0][0] == "root" and got[0][1] == quad
    assert got[1][0] == "root" and got[1][1] == quad
    assert got[2] == ["int", 3 * 10**400]
    neg, pos = [(_end(o[2][0]), _end(o[2][1])) for o in got[:2]]
    assert sorted([neg, pos]) == sorted(_sympy_intervals(quad))
    assert neg[1] <= 0 <= pos[0]
    points = [parse_point(o) for o in got]
    assert points[1].hi < points[2].rational
