"""The kernel's Taylor coefficients at 0 (the ``taylor`` argument of ``complete`` claims).

Each order's derivative is kept in normal form (polynomial in the atoms) so that high orders
do not grow exponentially; the values at 0 must be exactly those of the textbook derivative.
Checked against an independent route: mpmath's numerical Taylor coefficients of the same
function, to far more digits than any coefficient here needs."""
from __future__ import annotations

import math

import mpmath
import pytest
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.complete import coefficient_row, nth_derivative
from symcheck.kernel.evaluate import enclose, precision
from symcheck.kernel.normal import normalised
from symcheck.kernel.tree import substitute

T = ("var", "t")
ONE = ("int", 1)

_UNARY = ("exp", "sin", "cos", "tanh", "atan", "erf", "asinh", "sinh", "cosh")


def trees(depth: int = 3):
    """Trees analytic on all of R: t, small integers, functions above, sums, products, squares,
    1/(1 + u²) and (2 + u²)^(1/2)."""
    leaf = st.one_of(st.just(T), st.integers(-3, 3).map(lambda n: ("int", n)),
                     st.just(("rat", 1, 2)))
    if depth == 0:
        return leaf
    sub = trees(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(st.sampled_from(_UNARY), sub),
        st.tuples(st.just("add"), sub, sub),
        st.tuples(st.just("mul"), sub, sub),
        sub.map(lambda u: ("pow", u, ("int", 2))),
        sub.map(lambda u: ("pow", ("add", ONE, ("pow", u, ("int", 2))), ("int", -1))),
        sub.map(lambda u: ("pow", ("add", ("int", 2), ("pow", u, ("int", 2))), ("rat", 1, 2))),
    )


def as_mpmath(node):
    """The tree as a function of t, evaluated by mpmath (independent of the kernel's Arb code)."""
    head = node[0]
    if head == "var":
        return lambda t: t
    if head == "int":
        return lambda t, n=node[1]: mpmath.mpf(n)
    if head == "rat":
        return lambda t, p=node[1], q=node[2]: mpmath.mpf(p) / q
    if head in ("add", "mul"):
        fs = [as_mpmath(a) for a in node[1:]]
        if head == "add":
            return lambda t: mpmath.fsum(f(t) for f in fs)
        return lambda t: mpmath.fprod(f(t) for f in fs)
    if head == "pow":
        base = as_mpmath(node[1])
        e = node[2]
        exponent = mpmath.mpf(e[1]) if e[0] == "int" else mpmath.mpf(e[1]) / e[2]
        return lambda t: base(t) ** exponent
    inner = as_mpmath(node[1])
    function = getattr(mpmath, head)
    return lambda t: function(inner(t))


def value_at_zero(node) -> arb:
    with precision(512):
        return enclose(substitute(node, "t", ("int", 0)), {}, {})


@settings(max_examples=40, deadline=None)
@given(trees(), st.integers(0, 5))
@pytest.mark.slow
def test_a_derivative_in_normal_form_has_the_textbook_value_at_zero(g, j) -> None:
    normal = value_at_zero(nth_derivative(g, j, normal=True))
    plain = value_at_zero(nth_derivative(g, j))
    assert normal.overlaps(plain), (g, j, normal, plain)
    with mpmath.workdps(60):
        reference = mpmath.taylor(as_mpmath(g), 0, j)[j] * math.factorial(j)
        # mpmath's numerical differentiation: 60 digits carry the first ~30 exactly
        got = mpmath.mpf(normal.mid().str(40, radius=False))
        assert abs(got - reference) <= mpmath.mpf(10) ** -20 * (1 + abs(reference))


def test_normal_form_keeps_the_value_where_the_tree_is_defined() -> None:
    # t·t⁻¹ is 1 wherever it is defined; the normal form says 1 (and is defined at 0 too)
    assert normalised(("mul", T, ("pow", T, ("int", -1)))) == ONE
    # a denominator that does not cancel is kept: (sin t + 1)/(cos t + 2); a constant one is
    # divided out: sin(t)·(3 + 1)⁻¹
    kept = ("mul", ("add", ("sin", T), ONE), ("pow", ("add", ("cos", T), ("int", 2)), ("int", -1)))
    constant = ("mul", ("sin", T), ("pow", ("add", ("int", 3), ONE), ("int", -1)))
    with precision(256):
        for g in (kept, constant):
            for x in ("1/3", "-7/5", "2"):
                point = {"t": arb(x)}
                assert enclose(normalised(g), point, {}).overlaps(enclose(g, point, {}))


def test_a_high_order_of_a_power_stays_small() -> None:
    """The 10th derivative of sin(t)¹⁰ at 0 is 10!; as plain trees the 10th derivative has
    tens of thousands of terms (the group of z + sin(z)¹⁰ timed out), in normal form it is a
    polynomial of degree 10 in sin t and cos t."""
    g = ("pow", ("sin", T), ("int", 10))
    d = nth_derivative(g, 10, normal=True)
    assert value_at_zero(d) == arb(math.factorial(10))
    assert len(repr(d)) < 20_000
    assert coefficient_row(("add", T, g), None, 10)[1] == "nonzero"
    assert coefficient_row(("add", T, g), None, 9)[1] == "zero"


@pytest.mark.parametrize("act", ["z + sin(z)**10", "z + sinh(z)**7"])
def test_groups_that_need_a_high_taylor_order_are_complete(act) -> None:
    import symcheck as sc
    group = sc.symmetry_group(act, timeout=300)  # generous: the bound checked is completeness
    assert group.to_dict()["complete"] is True
