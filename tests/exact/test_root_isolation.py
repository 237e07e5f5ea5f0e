"""Root isolation never drops a root it could not see: a box the enclosures cannot evaluate,
or one whose enclosure only touches 0, is split further or refused, never skipped.
"""
from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import S

from symcheck.exact.roots import Cuts, _isolated, roots_in
from symcheck.exact.signs import Undecided, exact_sign
from symcheck.language.symbols import Z


@pytest.mark.parametrize(("g", "lower", "upper", "near"), [
    # z·log z + 1/20 has roots near 0.0129 and 0.96; no enclosure of log reaches z = 0
    (Z * sympy.log(Z) + S(1) / 20, S.Zero, S.One, [0.0129, 0.9612]),
    # a double root at 1/2, where every enclosure of g only touches 0
    ((Z - S.Half)**2 * (2 + sympy.sin(Z)), S.Zero, S.One, [0.5]),
    ((Z - S(1) / 4)**2 * (3 + sympy.cos(Z)) * (Z + 5), -S.One, S.One, [0.25]),
    # an even power of a ball that straddles 0 is [0, x]: it touches 0, it is not positive
    (sympy.sin(Z - S.Half)**2, S.Zero, S.One, [0.5]),
    (sympy.sin(Z - S.Half)**2 + sympy.sin(3 * Z - S.Half)**2, S.Zero, S.One, []),
])
def test_a_root_the_enclosures_cannot_place_is_refused_or_found(g, lower, upper, near) -> None:
    try:
        found = roots_in(g, Z, lower, upper)
    except Undecided:
        return
    values = [float(p) for p in found.points]
    for x in near:
        assert any(abs(v - x) < 1e-3 for v in values), (values, x)


def test_simple_roots_of_a_transcendental_function_are_isolated_exactly() -> None:
    found = roots_in(sympy.sin(Z) - S.Half, Z, S.Zero, S(3))
    assert set(found.points) == {sympy.pi / 6, 5 * sympy.pi / 6}


@pytest.mark.parametrize("proposal", [2 * sympy.pi * sympy.I, 1 + sympy.I, sympy.I * sympy.exp(-300)])
def test_a_proposal_known_not_to_be_real_is_dropped_not_refused(proposal) -> None:
    """exp(z) − 1 is increasing with its one real root 0; a complex proposal is no cut point
    (and must not make the proved set of cuts a refusal)."""
    found = roots_in(sympy.exp(Z) - 1, Z, -S.One, S.One, candidates=lambda g, var, interval: [proposal, S.Zero])
    assert found.points == (S.Zero,)


@pytest.mark.parametrize(("lower", "upper"), [
    (S.Zero, sympy.pi / 6 - S(10)**-10), (5 * sympy.pi / 6 + S(10)**-10, S(3)),
    (S.Zero, sympy.pi / 6 - S(10)**-6),
])
def test_an_interval_that_ends_just_short_of_a_root_has_none(lower, upper) -> None:
    """Next to the end g = sin z − 1/2 is monotone and of one sign, though its enclosures touch
    0: such a box has no root (decided, not refused), and the root beyond the end is no cut."""
    found = roots_in(sympy.sin(Z) - S.Half, Z, lower, upper)
    assert found.points == ()


@pytest.mark.parametrize(("g", "lower", "upper", "roots"), [
    (sympy.sin(sympy.pi * Z), S.Zero, S(2), (S.One,)),          # 1 is where [0, 2] is halved
    (sympy.sin(sympy.pi * Z), -S.One, S(3), (S.Zero, S.One, S(2))),
])
def test_a_root_exactly_at_the_end_of_a_bisection_box_is_kept(g, lower, upper, roots) -> None:
    """A box whose end is a root has g = 0 there: that is a bracket, not a box without roots."""
    assert roots_in(g, Z, lower, upper).points == roots


# --- roots exactly at the ends of the interval or of a bisection box -----------------------------

@pytest.mark.parametrize(("g", "lower", "upper", "roots"), [
    (sympy.sin(2 * sympy.pi * Z), S.Zero, S.One, (S.Half,)),           # roots at both ends too
    (sympy.sin(2 * sympy.pi * Z), S.Zero, S(3) / 4, (S.Half,)),
    (sympy.sin(2 * sympy.pi * Z), -S.One, S.One, (-S.Half, S.Zero, S.Half)),
    (sympy.sin(2 * sympy.pi * Z), S.Half, S.One, ()),                   # the only roots are the ends
    (sympy.sin(sympy.pi * Z) * (Z + 3), -S(2), S(2), (-S.One, S.Zero, S.One)),
    (sympy.sin(2 * sympy.pi * Z), S(1) / 3, S(4) / 3, (S.Half, S.One)),  # 1 from SymPy's Range(0, 2)
])
def test_a_root_at_an_end_is_found_exactly_and_only_inner_roots_are_cuts(g, lower, upper, roots) -> None:
    """A root at an end of a bisection box is where g is exactly 0, and g is strictly monotone
    on the box, so that end is the box's one root (no proposal needed); a root inside a box is
    matched by SymPy's proposal. A root at an end of the interval is no cut point."""
    assert roots_in(g, Z, lower, upper).points == roots


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 4), st.sampled_from([-S.One, -S.Half, S.Zero, S(1) / 3, S(3) / 4]),
       st.sampled_from([S(1) / 4, S.Half, S.One, S(3) / 2, S(2)]))
def test_the_roots_of_a_sine_on_a_rational_interval(n: int, lower: sympy.Expr, width: sympy.Expr) -> None:
    """sin(nπz) on (lower, lower + width): exactly the k/n strictly inside, each one either an
    end of a bisection box or proposed by SymPy (a FiniteSet or a finite Range)."""
    upper = lower + width
    expected = tuple(S(k) / n for k in range(int(lower * n) - 1, int(upper * n) + 2)
                     if lower < S(k) / n < upper)
    assert roots_in(sympy.sin(n * sympy.pi * Z), Z, lower, upper).points == expected


# --- proposals: only real numbers, proved roots, become cut points -------------------------------

def test_a_proposal_sympy_cannot_show_real_is_no_cut_point() -> None:
    """4πik (k an integer) is a root of exp(z) − 1, real only for k = 0. On the whole line the
    comparisons with ±oo examine nothing, so the reality test is all that keeps it out; the
    real root 0 was not proposed, so refusing is the only sound answer."""
    k = sympy.Symbol("k", integer=True)
    proposal = 4 * sympy.pi * sympy.I * k
    assert proposal.is_real is None and sympy.exp(proposal) == 1
    try:
        found = roots_in(sympy.exp(Z) - 1, Z, -S.Infinity, S.Infinity,
                         candidates=lambda g, var, interval: [proposal])
    except Undecided:
        return
    assert found.points == (S.Zero,)


# --- polynomials whose coefficients are not rational as written ----------------------------------

@pytest.mark.slow
def test_a_cubic_with_transcendental_coefficients_is_cut_at_its_one_root() -> None:
    """π z³ + z − 1 is increasing: its one real root (Cardano's formula) is the one cut point."""
    g = sympy.pi * Z**3 + Z - 1
    found = roots_in(g, Z, S.Zero, S.One)
    assert len(found.points) == 1
    root = found.points[0]
    assert exact_sign(g.subs(Z, root)) == 0
    with mpmath.workdps(40):
        reference = mpmath.findroot(lambda z: mpmath.pi * z**3 + z - 1, 0.5)
        assert abs(mpmath.mpf(str(sympy.N(root, 40))) - reference) < 1e-30
    assert roots_in(g, Z, S.One, S(2)).points == ()


_X = sympy.Symbol("x")


@pytest.mark.parametrize("coefficient", [sympy.CRootOf(_X**2 - 2, 1)**2, sympy.CRootOf(_X**3 - 2, 0)**3])
def test_a_rational_coefficient_written_as_an_algebraic_number(coefficient) -> None:
    """√2² and (∛2)³ written as powers of CRootOf: 2z − 1 whose norm is linear; its root 1/2
    is the cut point (no refusal for a norm of degree 1)."""
    assert not coefficient.is_Rational
    assert roots_in(coefficient * Z - 1, Z, -S.Infinity, S.Infinity).points == (S.Half,)
    assert roots_in(coefficient * Z - 1, Z, S.Zero, S.One).points == (S.Half,)
    assert roots_in(coefficient * Z - 1, Z, S.One, S(2)).points == ()


@pytest.mark.parametrize("scale", [S.One, sympy.sqrt(2), 1 + sympy.sqrt(3)])
def test_a_constant_written_with_the_variable_has_no_roots(scale) -> None:
    """(z + 1)² − z² − 2z is the constant 1: no cut point, and the argument says why (a constant,
    not an isolation; with algebraic coefficients no norm is needed and none is refused)."""
    g = scale * ((Z + 1)**2 - Z**2 - 2 * Z)
    assert Z in g.free_symbols
    found = roots_in(g, Z, -S.Infinity, S.Infinity)
    assert found == Cuts((), "it is a constant")


_HAIR = sympy.exp(-10**6)  # no enclosure up to the certifier's precision tells 1 ± _HAIR from 1


@pytest.mark.parametrize(("lower", "upper"), [(S.Zero, 1 + _HAIR), (1 - _HAIR, S(2))],
                         ids=["upper-end-uncertain", "lower-end-uncertain"])
def test_an_end_whose_sign_cannot_be_certified_rules_out_no_root(lower, upper) -> None:
    """exp(z) − e is increasing with its root 1 inside; the proposals miss it. At one end the
    sign of g cannot be certified: that end says nothing (in particular not the other end's
    sign), so the root is not ruled out and, with no proposal to name it, the answer is a refusal."""
    with pytest.raises(Undecided):
        roots_in(sympy.exp(Z) - sympy.E, Z, lower, upper, candidates=lambda g, var, interval: [])


@pytest.mark.parametrize("direction", [1, -1], ids=["increasing", "decreasing"])
@pytest.mark.parametrize(("lower", "upper", "has_root"), [
    (S(2), S(3), False), (-S.One, S.Zero, False),    # one sign at the end g moves away from 0 from
    (S(2), S.Infinity, False), (-S.Infinity, S.Zero, False),  # no bisection to fall back on
    (S.One, S(2), False), (S.Zero, S.One, False),    # g = 0 at an end: the root is not inside
    (S.One, S.Infinity, False), (-S.Infinity, S.One, False),
    (S.Zero, S(2), True), (S.Half, S(3) / 2, True),  # the ends straddle the root 1
    (S.Zero, S.Infinity, True), (-S.Infinity, S(2), True),
])
def test_a_monotone_function_without_proposals_is_decided_by_its_ends(direction, lower, upper, has_root) -> None:
    """±(exp(z) − e), strictly monotone, and no proposal: the exact signs at the ends rule a
    root out only when g already moves away from 0 at the near end (or is 0 at an end); a root
    between the ends cannot be named, so that case is refused, never declared root-free."""
    g = direction * (sympy.exp(Z) - sympy.E)
    if has_root:
        with pytest.raises(Undecided):
            roots_in(g, Z, lower, upper, candidates=lambda g, var, interval: [])
    else:
        assert roots_in(g, Z, lower, upper, candidates=lambda g, var, interval: []).points == ()


@pytest.mark.parametrize(("lower", "upper", "roots"), [
    (-sympy.pi, sympy.pi, (S.Zero,)),
    (S.Zero, 4 * sympy.pi, (sympy.pi, 2 * sympy.pi, 3 * sympy.pi)),
    (-sympy.E, sympy.sqrt(10), (S.Zero, sympy.pi)),
])
def test_the_bisection_box_around_irrational_ends_is_found(lower, upper, roots) -> None:
    """sin z is neither monotone nor of one sign here: the roots come from bisection on a
    rational box [lo, hi] ⊇ [lower, upper], whose ends are put just beyond the irrational ends
    (40 digits of π, then a step certified to clear it) — a refusal there loses these cuts."""
    assert roots_in(sympy.sin(Z), Z, lower, upper).points == roots


_ZERO = sympy.sin(1)**2 + sympy.cos(1)**2 - 1  # exactly 0, not structurally: only simplify shows it


@pytest.mark.parametrize(("g", "roots"), [
    (_ZERO * Z**2 + Z - S.Half, (S.Half,)),
    (_ZERO * Z**3 + _ZERO * Z**2 + Z - S.Half, (S.Half,)),
    (_ZERO * Z**4 + Z**2 - 2, (-sympy.sqrt(2), sympy.sqrt(2))),
])
def test_a_leading_coefficient_that_is_zero_is_dropped_before_the_roots_are_taken(g, roots) -> None:
    """The degree is what is left once coefficients proved 0 are removed, one at a time."""
    assert roots_in(g, Z, -S.Infinity, S.Infinity).points == roots


@pytest.mark.parametrize(("g", "roots"), [
    (sympy.log(1 + sympy.exp(-2000)) * (Z**2 - 4 * Z + 3), (S.One, S(3))),
    (sympy.log(1 + sympy.exp(-2000)) * (Z**2 - 4 * Z + 5), ()),
    (sympy.pi * (Z**2 - 2), (-sympy.sqrt(2), sympy.sqrt(2))),
])
def test_transcendental_coefficients_with_algebraic_ratios_are_cut_on_the_whole_line(g, roots) -> None:
    """Divided by its leading coefficient (certified non-zero) the polynomial is monic with
    rational coefficients: its real roots are isolated exactly, also where no bisection runs."""
    assert roots_in(g, Z, -S.Infinity, S.Infinity).points == roots


@pytest.mark.parametrize(("g", "lower", "upper", "near"), [
    ((sympy.exp(Z) - 2)**2, -S.One, S(3), "0.693147"),                       # a double root at log 2
    ((sympy.exp(Z) - 2)**2 * sympy.exp(-Z), -S.One, S(3), "0.693147"),
    (sympy.sin(Z - S(1) / 3)**2 * (Z + 5), -S.One, S(3), "0.333333"),       # a double root at 1/3
    # at an end: every box on the way is the upper (lower) half of the one before
    ((Z - 3)**2 * (2 + sympy.sin(Z)), -S.One, S(3), "3"),
    ((Z + 1)**2 * (2 + sympy.sin(Z)), -S.One, S(3), "-1"),
    ((sympy.exp(Z) - 2)**2, sympy.log(2) - 1, sympy.log(2), "0.693147"),
])
def test_a_multiple_root_is_refused_where_it_is_after_bisecting_to_the_depth_limit(g, lower, upper, near) -> None:
    """Bisection stops at a box MAX_DEPTH halvings deep around the root and says where it is —
    inside the interval or at either end — rather than at the box limit, whose refusal would not
    say that the trouble is a root, nor where."""
    with pytest.raises(Undecided, match=rf"^cannot isolate the roots of .* near {near} \(a multiple root"):
        _isolated(g, Z, lower, upper, lambda *args: [])
