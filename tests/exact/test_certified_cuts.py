"""Cut points, sign-definite and monotone arguments rest on certificates, never on SymPy's
sign of a number (issue 26, item 2: roots, regions, plane).

The constants are tiny cancellations c = f(x) at x = e^-k (k from 20 to 2000), both signs:

    log(1 + x) − x + x²/2 ≈ x³/3,   log(1 + x) − log(1 + 2x) ≈ −x,
    e^x − 1 − x ≈ x²/2,             √(1 + x) − 1 − x/2 ≈ −x²/8.

SymPy's assumptions and ``evalf`` look at a few digits of them: before this change
``roots_in(z**3 + z + π·P, z, 0, oo)`` answered "no root, positive on the whole interval
(SymPy's assumptions)" for P ≈ −2.7e-40, whose root is at ≈ 8.6e-40. Every truth in this file
is computed with mpmath at a precision chosen from the size of c (2·digits + 50, confirmed at
a second precision); SymPy never decides it.

What is asserted, for c placed as an offset of a cut point and as a coefficient of a branch
condition (``z + c``, ``z**3 + z + π·c``, ``z**2 + c``, ``z − c`` for ``Eq(z, c)``):

- :func:`~symcheck.exact.roots.roots_in` returns points among which every true root inside the
  interval is found (each compared with the mpmath root, the point evaluated by mpmath from its
  tree), or raises Undecided;
- :func:`symcheck.check_exchange` of a piecewise activation whose branches differ exactly on
  the tiny region is never ``holds`` when the statement is false, never ``broken`` when it is
  true, and a ``broken`` witness really breaks it (mpmath);
- the sign-definite range (:func:`~symcheck.exact.roots.sign_on`) never claims a sign the
  mpmath values contradict, and the plane's sign of a factor is certified the same way.
"""
from __future__ import annotations

import math

import mpmath
import pytest
import sympy
from sympy import S

import symcheck
from symcheck.core.budget import Budget
from symcheck.core.errors import Undecided
from symcheck.core.verdict import Verdict
from symcheck.engine.plane import decide_plane
from symcheck.exact.regions import Region, sorted_points
from symcheck.exact.roots import Range, range_on, roots_in, sign_on
from symcheck.language.symbols import A, Z

# --- the constants, and their truth by mpmath ------------------------------------------------

#: name -> (SymPy f(x), mpmath f(x), user text of f with x written X, order of f at 0)
FAMILIES = {
    "log3": (lambda x: sympy.log(1 + x) - x + x**2 / 2, lambda x: mpmath.log(1 + x) - x + x**2 / 2,
             "(log(1 + X) - X + X**2/2)", 3),
    "logq": (lambda x: sympy.log(1 + x) - sympy.log(1 + 2 * x), lambda x: mpmath.log(1 + x) - mpmath.log(1 + 2 * x),
             "(log(1 + X) - log(1 + 2*X))", 1),
    "exp2": (lambda x: sympy.exp(x) - 1 - x, lambda x: mpmath.exp(x) - 1 - x, "(exp(X) - 1 - X)", 2),
    "sqrt2": (lambda x: sympy.sqrt(1 + x) - 1 - x / 2, lambda x: mpmath.sqrt(1 + x) - 1 - x / 2,
              "(sqrt(1 + X) - 1 - X/2)", 2),
}
#: e^-k: from where SymPy's low-precision evaluation already fails to where Arb at 8192 bits
#: may no longer certify c (then Undecided is the right answer)
KS = (20, 30, 45, 120, 700, 2000)


class Tiny:
    """c = ±f(e^-k): its SymPy expression, its user text, and its value by mpmath."""

    def __init__(self, family: str, k: int, sign: int) -> None:
        sym_f, mp_f, text, order = FAMILIES[family]
        self.label = f"{'-' if sign < 0 else ''}{family}(e^-{k})"
        self.expr = sign * sym_f(sympy.exp(-k))
        body = text.replace("X", f"exp(-{k})")
        self.text = body if sign > 0 else f"(-{body})"
        self._mp = lambda: sign * mp_f(mpmath.exp(-k))
        digits = order * k / math.log(10)
        self.dps = int(2 * digits) + 50

    def mp(self, dps: int | None = None) -> mpmath.mpf:
        with mpmath.workdps(dps or self.dps):
            return +self._mp()

    @property
    def sign(self) -> int:
        low, high = self.mp(), self.mp(int(1.5 * self.dps) + 40)
        assert low != 0 and (low > 0) == (high > 0), f"mpmath precisions disagree on {self.label}"
        return 1 if high > 0 else -1

    def __repr__(self) -> str:
        return self.label


CONSTANTS = [Tiny(f, k, s) for f in FAMILIES for k in KS for s in (1, -1)]
#: a smaller sample for the end-to-end checks (each runs a whole check)
E2E_CONSTANTS = [Tiny(f, k, s) for f in FAMILIES for k in (30, 300) for s in (1, -1)]


def test_the_constants_have_the_signs_their_series_give() -> None:
    # f(x) ≈ x³/3, −x, x²/2, −x²/8: the helper's own truth, by mpmath alone
    expected = {"log3": 1, "logq": -1, "exp2": 1, "sqrt2": -1}
    for c in CONSTANTS:
        family = c.label.lstrip("-").split("(")[0]
        assert c.sign == expected[family] * (-1 if c.label.startswith("-") else 1), c


def mp_of(expr: sympy.Expr, dps: int) -> mpmath.mpf:
    """A number evaluated by mpmath from its tree (lambdify), never by SymPy's evalf."""
    with mpmath.workdps(dps):
        return +sympy.lambdify([], expr, "mpmath")()


# --- the conditions and their true roots -----------------------------------------------------

def cubic_root(c: Tiny) -> mpmath.mpf:
    """The one real root of z³ + z + π·c (increasing): Newton from −π·c, by mpmath."""
    with mpmath.workdps(c.dps + 30):
        k = mpmath.pi * c.mp(c.dps + 30)
        return +mpmath.findroot(lambda z: z**3 + z + k, -k)


CONDITIONS = {
    # name: (g(z, c), true real roots by mpmath)
    "z + c": (lambda c: Z + c.expr, lambda c: [-c.mp()]),
    "z**3 + z + pi*c": (lambda c: Z**3 + Z + sympy.pi * c.expr, lambda c: [cubic_root(c)]),
    "z**2 + c": (lambda c: Z**2 + c.expr,
                 lambda c: [] if c.sign > 0 else [-mpmath.sqrt(-c.mp()), mpmath.sqrt(-c.mp())]),
    "z - c (Eq(z, c))": (lambda c: Z - c.expr, lambda c: [c.mp()]),
}
INTERVALS = [(S.Zero, S.Infinity), (S.NegativeInfinity, S.Zero), (S.NegativeInfinity, S.Infinity),
             (S.Zero, S.One), (S.NegativeOne, S.Zero)]


def _inside(r: mpmath.mpf, lower: sympy.Expr, upper: sympy.Expr) -> bool:
    lo = -mpmath.inf if lower is S.NegativeInfinity else mpmath.mpf(int(lower))
    hi = mpmath.inf if upper is S.Infinity else mpmath.mpf(int(upper))
    return lo < r < hi


@pytest.mark.parametrize("condition", list(CONDITIONS))
@pytest.mark.parametrize("c", CONSTANTS, ids=repr)
@pytest.mark.slow
def test_every_true_root_is_a_cut_point_or_the_answer_is_undecided(condition, c) -> None:
    build, truth = CONDITIONS[condition]
    g = build(c)
    with mpmath.workdps(c.dps):  # negation and sqrt round to the working precision
        roots = truth(c)
    for lower, upper in INTERVALS:
        try:
            found = roots_in(g, Z, lower, upper)
        except Undecided:
            continue
        with mpmath.workdps(c.dps):
            points = [mp_of(p, c.dps) for p in found.points]
            for r in roots:
                if not _inside(r, lower, upper):
                    continue
                assert any(abs(p - r) <= abs(r) * mpmath.mpf(10) ** -20 for p in points), (
                    f"{condition} with c = {c}: the root {mpmath.nstr(r, 8)} in ({lower}, {upper}) is not "
                    f"among the cut points {[mpmath.nstr(p, 8) for p in points]} ({found.argument})")
            for p in points:  # each point is inside the open interval
                assert _inside(p, lower, upper), (condition, c, lower, upper, found)


def test_the_issue_example_is_not_called_root_free() -> None:
    # P = −f(e^-30), f = log(1 + x) − x + x²/2: SymPy's P.is_positive is True; the root of
    # z³ + z + π·P is at ≈ 8.6e-40, inside (0, oo)
    P = Tiny("log3", 30, -1)
    assert P.sign == -1
    try:
        found = roots_in(Z**3 + Z + sympy.pi * P.expr, Z, S.Zero, S.Infinity)
    except Undecided:
        return
    assert found.points, found.argument


# --- ranges: the sign-definite and monotone arguments ---------------------------------------

@pytest.mark.parametrize("c", CONSTANTS, ids=repr)
def test_a_certified_range_never_contradicts_mpmath(c) -> None:
    """sign_on may say nothing; what it says holds at sample points of the interval, by mpmath."""
    exprs = [Z**3 + Z + sympy.pi * c.expr, Z**2 + c.expr, sympy.exp(Z) - 1 + c.expr,
             (Z + c.expr) * sympy.exp(Z), sympy.tanh(Z) + c.expr, Z * (1 + c.expr) + c.expr]
    samples = [mpmath.mpf(10) ** -e for e in (1, 10, 40, 200, 900, 2000)]
    with mpmath.workdps(c.dps + 50):
        cv = c.mp(c.dps + 50)
        values = {0: lambda z: z**3 + z + mpmath.pi * cv, 1: lambda z: z**2 + cv,
                  2: lambda z: mpmath.exp(z) - 1 + cv, 3: lambda z: (z + cv) * mpmath.exp(z),
                  4: lambda z: mpmath.tanh(z) + cv, 5: lambda z: z * (1 + cv) + cv}
        for i, expr in enumerate(exprs):
            for lower, upper, points in ((S.Zero, S.Infinity, samples), (S.NegativeInfinity, S.Zero,
                                                                         [-s for s in samples])):
                s = sign_on(expr, {Z: Range(lower, upper)})
                if s is None:
                    continue
                for z in points:
                    v = values[i](z)
                    assert (v > 0) - (v < 0) == s, (expr, c, lower, upper, s, mpmath.nstr(z, 5))


def test_ranges_keep_open_ends_open_only_when_proved() -> None:
    half_line = {Z: Range(S.Zero, S.Infinity)}
    assert sign_on(sympy.exp(Z) - 1, half_line) == 1          # (0, oo): 0 is not attained
    assert sign_on(Z * sympy.exp(Z), half_line) == 1
    assert sign_on(Z**2 * (sympy.exp(Z) - 1), half_line) == 1
    assert sign_on(sympy.exp(-Z) - 1, half_line) == -1
    assert sign_on(Z - 1, half_line) is None
    assert sign_on(sympy.sin(Z) + 2, half_line) == 1
    assert sign_on(sympy.sin(Z) + 1, half_line) is None       # [0, 2]: 0 is reached
    whole = {Z: Range(S.NegativeInfinity, S.Infinity)}
    assert sign_on(Z**2 + 1, whole) == 1
    assert sign_on(Z**2, whole) is None
    assert sign_on(1 / (Z**2 + 1), whole) == 1
    assert sign_on(sympy.log(Z**2 + 1), whole) is None        # 0 at z = 0
    assert sign_on(sympy.log(Z**2 + 2), whole) == 1
    found = range_on(sympy.tanh(Z), whole)
    assert (found.lo, found.hi, found.lo_closed, found.hi_closed) == (-1, 1, False, False)


# --- ordering cut points ----------------------------------------------------------------------

def test_cut_points_that_evalf_cannot_order_are_ordered_by_certificates() -> None:
    # evalf(50) of −e/log(1 + e^-2000) raises ZeroDivisionError; the old float sort crashed
    L = sympy.log(1 + sympy.exp(-2000))
    found = roots_in(L * Z + sympy.E, Z, S.NegativeInfinity, S.Infinity)
    assert len(found.points) == 1
    with mpmath.workdps(3000):
        assert abs(mp_of(found.points[0], 3000) + mpmath.e / mpmath.log1p(mpmath.exp(-2000))) < 1
    near = [L, 2 * L, sympy.exp(-2000), S.Zero]
    assert sorted_points(near) == [S.Zero, sympy.exp(-2000), L, 2 * L] or \
        sorted_points(near) == [S.Zero, L, sympy.exp(-2000), 2 * L]
    with mpmath.workdps(3000):
        values = [mp_of(p, 3000) for p in sorted_points(near)]
        assert values == sorted(values)


def test_points_proved_equal_are_one_cut() -> None:
    half = S.Half
    assert sorted_points([half, sympy.exp(-60) - sympy.exp(-30)**2 + half, S.One]) in (
        [half, S.One], [sympy.exp(-60) - sympy.exp(-30)**2 + half, S.One])


# --- end to end: never the wrong verdict -------------------------------------------------------

def _pw(z, c, condition):
    return z if z < 0 else (z if condition(z, c) else z + z**2)


#: activation text with C, σ by mpmath as (z, c) -> value, and whether exchange holds given sign(c)
ACTIVATIONS = {
    "z + C > 0": ("Piecewise((z, z < 0), (z, z + C > 0), (z + z**2, True))",
                  lambda z, c: _pw(z, c, lambda u, k: u + k > 0), lambda s: s > 0),
    "z**3 + z + pi*C > 0": ("Piecewise((z, z < 0), (z, z**3 + z + pi*C > 0), (z + z**2, True))",
                            lambda z, c: _pw(z, c, lambda u, k: u**3 + u + mpmath.pi * k > 0), lambda s: s > 0),
    "z**2 + C > 0": ("Piecewise((z, z < 0), (z, z**2 + C > 0), (z + z**2, True))",
                     lambda z, c: _pw(z, c, lambda u, k: u**2 + k > 0), lambda s: s > 0),
    # σ(C) = C² + C ≠ C at the one point z = C (irrational): false, but no rational witness
    "Eq(z, C)": ("Piecewise((z**2 + z, Eq(z, C)), (z, True))",
                 lambda z, c: z**2 + z if z == c else z, lambda s: False),
}


@pytest.mark.parametrize("name", list(ACTIVATIONS))
@pytest.mark.parametrize("c", E2E_CONSTANTS, ids=repr)
@pytest.mark.slow
def test_the_exchange_verdict_is_never_the_wrong_one(name, c) -> None:
    pattern, sigma, holds = ACTIVATIONS[name]
    text = pattern.replace("C", c.text)
    result = symcheck.check_exchange(text, timeout=60)
    truth = holds(c.sign)
    if result.verdict is Verdict.HOLDS:
        assert truth, f"{text}: holds, but it is false (c = {c}, sign {c.sign})"
    elif result.verdict is Verdict.BROKEN:
        assert not truth, f"{text}: broken, but it holds (c = {c})"
        a, b = (sympy.Rational(result.witness[k]) for k in ("a", "b"))
        dps = c.dps + 100 + 4 * (len(str(a)) + len(str(b)))
        with mpmath.workdps(dps):
            cv = c.mp(dps)
            am, bm = (mpmath.mpf(int(v.p)) / int(v.q) for v in (a, b))
            residual = am * sigma(bm, cv) - bm * sigma(am, cv)
            assert residual != 0 and abs(residual) > mpmath.mpf(10) ** (-dps // 2), (text, result.witness)


# --- the plane: a factor's sign on a case ------------------------------------------------------

@pytest.mark.parametrize("c", [c for c in E2E_CONSTANTS if c.sign < 0], ids=repr)
@pytest.mark.slow
def test_the_plane_does_not_take_the_sign_of_a_tiny_offset_from_sympy(c) -> None:
    """|a + c| = a + c on a > 0 is false for c < 0 (on 0 < a < −c); SymPy's assumptions called
    p + c positive for p > 0 when they misjudged c."""
    decision = decide_plane(sympy.Abs(A + c.expr), A + c.expr, {A: (Region(S.Zero, S.Infinity),)}, Budget(60))
    assert decision.verdict is not Verdict.HOLDS, c
    if decision.verdict is Verdict.BROKEN:
        a = sympy.Rational(decision.witness[A])
        with mpmath.workdps(c.dps + 100):
            am = mpmath.mpf(int(a.p)) / int(a.q)
            assert abs(am + c.mp(c.dps + 100)) != am + c.mp(c.dps + 100)
