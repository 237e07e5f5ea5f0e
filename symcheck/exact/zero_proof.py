"""Exact proofs that a closed-form real number is 0 — the only way a sign can be 0.

Ball arithmetic certifies a sign only when the number is not 0; a 0 needs algebra. SymPy's
``is_zero``, ``simplify(x) == 0`` and ``equals`` decide from ``evalf`` at a few digits and call
``log(1 + e^-30) − log(1 + 2e^-30)`` zero, so none of them is used here. Two exact arguments:

* **generators** — the number is a rational function of *atoms* (``exp`` of a term, ``log``,
  ``sin``, a radical, π …) treated as independent indeterminates, and its numerator is the zero
  polynomial. Sound whatever relations hold between the atoms: an identity of polynomials stays
  one whatever values are put in. Before that, ``exp`` atoms are written over common bases with
  ``exp(u + v) = exp(u)·exp(v)`` and ``exp(n·u) = exp(u)^n`` (identities over C), and
  trigonometric and hyperbolic functions are tried in exponentials (identities over C), so
  ``sinh(1)·2 − e + e⁻¹`` and ``e^-60 − (e^-30)²`` are proved.
* **resultants** — a number built from rationals by +, −, ×, ÷ and radicals ``a^(p/q)`` is a root
  of an integer polynomial P built exactly by resultants (no factor is chosen numerically, as
  SymPy's ``minimal_polynomial`` does). If P = x^k·Q with Q(0) ≠ 0, every non-zero root of P has
  modulus at least |Q(0)| / (|Q(0)| + max|coefficient of Q|) (Cauchy), so an Arb enclosure of the
  number inside that radius proves it is 0.

Anything else is "not proved" (False), never "non-zero".
"""
from __future__ import annotations

from collections import defaultdict
from math import lcm

import sympy
from flint import arb

from symcheck.core.errors import EvaluationError
from symcheck.exact.evaluate import enclose_range

__all__ = ["proved_zero", "generator_identity", "generator_identity_safe", "radical_zero"]

# SymPy's algebra failing on a number proves nothing either way
_FAILURES = (RecursionError, ValueError, TypeError, ZeroDivisionError, OverflowError, AttributeError,
             sympy.PolynomialError, sympy.polys.polyerrors.CoercionFailed)

#: the largest degree of the resultant polynomial the radical argument builds
MAX_RESULTANT_DEGREE = 64
#: radicals at most, in the resultant argument
MAX_RADICALS = 4
#: other atoms (π, exp(…)) at most, and the size of the number: resultants with several
#: transcendental indeterminates grow fast (minutes for Cardano's formula with π inside)
MAX_ATOMS = 2
MAX_OPS = 150


def proved_zero(value: sympy.Expr) -> bool:
    """True only when ``value`` (a closed-form number) is proved to be exactly 0.

    >>> from sympy import exp, log, sqrt, sinh, E
    >>> proved_zero(exp(-60) - exp(-30)**2), proved_zero(2*sinh(1) - E + exp(-1))
    (True, True)
    >>> proved_zero(log(1 + exp(-30)) - log(1 + 2*exp(-30)))
    False
    >>> proved_zero(sqrt(3 + 2*sqrt(2)) - 1 - sqrt(2))
    True
    """
    value = sympy.sympify(value)
    if value == 0:
        return True
    if value.is_Rational or not value.is_number:
        return False
    try:
        if generator_identity(value):
            return True
        rewritten = value.rewrite(sympy.exp)  # trig and hyperbolic in exponentials: identities over C
        if rewritten != value and generator_identity(rewritten):
            return True
        return radical_zero(value)
    except _FAILURES:
        return False  # a failed rewrite proves nothing


# --------------------------------------------------------------------------- generators


#: the largest integer power of a generator expanded (exp(p/q) over a common base exp(1/d)
#: raises it to the power p·d/q; beyond this the identity is "not proved", never expanded)
MAX_GENERATOR_POWER = 512


def generator_identity_safe(value: sympy.Expr) -> bool:
    """:func:`generator_identity`, with a failure of SymPy's algebra read as "not proved"."""
    try:
        return generator_identity(value)
    except _FAILURES:
        return False


def generator_identity(value: sympy.Expr) -> bool:
    """The numerator of ``value`` as a rational function of independent atoms is 0."""
    atoms: dict[sympy.Expr, sympy.Dummy] = {}
    polynomial_form = _over_generators(value, atoms)
    if any(abs(node.exp) > MAX_GENERATOR_POWER for node in sympy.preorder_traversal(polynomial_form)
           if isinstance(node, sympy.Pow) and node.exp.is_Integer):
        return False  # exp(10^-99) and exp(10^-100) share the generator exp(10^-100): a power far too big to expand
    numerator, _ = sympy.fraction(sympy.together(polynomial_form))
    return bool(sympy.expand(numerator) == 0)  # structural: is the expanded numerator 0


def _over_generators(expr: sympy.Expr, atoms: dict[sympy.Expr, sympy.Dummy]) -> sympy.Expr:
    """``expr`` with every atom replaced by a Dummy: only +, ×, integer powers, rationals and I."""
    exp_powers = _exp_bases(expr)
    return _replace(expr, atoms, exp_powers)


def _replace(expr: sympy.Expr, atoms: dict[sympy.Expr, sympy.Dummy],
             exp_powers: dict[sympy.Expr, tuple[sympy.Expr, int]]) -> sympy.Expr:
    if expr.is_Rational or expr is sympy.I:
        return expr
    if isinstance(expr, (sympy.Add, sympy.Mul)):
        with sympy.evaluate(True):
            return expr.func(*(_replace(arg, atoms, exp_powers) for arg in expr.args))
    if isinstance(expr, sympy.Pow) and expr.exp.is_Integer:
        return _replace(expr.base, atoms, exp_powers) ** expr.exp
    if isinstance(expr, sympy.exp) or expr is sympy.E:
        argument = expr.args[0] if isinstance(expr, sympy.exp) else sympy.Integer(1)
        result = sympy.Integer(1)
        for key, power in _exp_terms(argument):
            base, denominator = exp_powers[key]
            result *= _atom(base, atoms) ** (power * denominator)
        return result
    return _atom(expr, atoms)


def _atom(expr: sympy.Expr, atoms: dict[sympy.Expr, sympy.Dummy]) -> sympy.Dummy:
    if expr not in atoms:
        atoms[expr] = sympy.Dummy(f"g{len(atoms)}")
    return atoms[expr]


def _exp_terms(argument: sympy.Expr) -> list[tuple[sympy.Expr, sympy.Rational]]:
    """exp(Σ c_i·t_i) as (t_i, c_i) with c_i rational: exp(Σ) = Π exp(t_i)^(c_i)."""
    terms = []
    for term in sympy.Add.make_args(sympy.expand(argument, log=False, power_base=False)):
        coefficient, rest = term.as_coeff_Mul()
        terms.append((rest, sympy.Rational(coefficient)) if coefficient.is_Rational else (term, sympy.Integer(1)))
    return terms


def _exp_bases(expr: sympy.Expr) -> dict[sympy.Expr, tuple[sympy.Expr, int]]:
    """For each term t under an exp: the common base exp(t/d) and d (the lcm of its denominators)."""
    denominators: dict[sympy.Expr, int] = defaultdict(lambda: 1)
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.exp):
            for key, power in _exp_terms(node.args[0]):
                denominators[key] = lcm(denominators[key], int(power.q))
    denominators.setdefault(sympy.Integer(1), 1)  # E itself is exp(1)
    with sympy.evaluate(False):
        return {key: (sympy.exp(key / d), d) for key, d in denominators.items()}


# --------------------------------------------------------------------------- radicals


def radical_zero(value: sympy.Expr) -> bool:
    """A number with radicals proved 0 by an annihilating polynomial and a Cauchy root bound.

    The radicals ``a^(p/q)`` and real roots ``CRootOf`` are eliminated by resultants from
    ``x·den − num``; every other atom (π, ``exp(…)``) stays an indeterminate t. The result
    P(x, t) = Σ c_i(t)·x^i vanishes at x = value, exactly. If c_0 … c_{k−1} are the zero
    polynomial and c_k(t) is certified non-zero by Arb, every non-zero root of P has modulus at
    least |c_k| / (|c_k| + max_{i>k} |c_i|); an enclosure of the number inside it proves 0.
    """
    found = _annihilating_polynomial(value)
    if found is None:
        return False
    coefficients, atoms = found  # constant term first, each a polynomial in the atoms' names
    k = next((i for i, c in enumerate(coefficients) if c != 0), None)
    if k is None or k == 0:
        return False  # 0 is not a root of P: the number is not 0 (its sign is for Arb to certify)
    back = {name: atom for atom, name in atoms.items()}
    for prec in (128, 512, 2048):
        try:
            balls = [enclose_range(c.xreplace(back), {}, prec) for c in coefficients[k:]]
            ball = enclose_range(value, {}, prec)
        except EvaluationError:  # not real (a radical of a negative number), or not evaluable
            return False
        lowest = abs(balls[0])
        if not lowest > 0:
            continue
        largest = max((abs(b).upper() for b in balls[1:]), default=arb(0))
        radius = lowest.lower() / (abs(balls[0]).upper() + largest)
        if abs(ball) < radius:  # every non-zero root of P lies at least that far from 0
            return True
    return False


def _annihilating_polynomial(value: sympy.Expr) -> tuple[list[sympy.Expr], dict[sympy.Expr, sympy.Dummy]] | None:
    """The coefficients of P(x) with P(value) = 0, built exactly by resultants, or None."""
    radicals = sorted({node for node in sympy.preorder_traversal(value) if _is_radical(node)},
                      key=sympy.default_sort_key)
    if not radicals or len(radicals) > MAX_RADICALS or sympy.count_ops(value) > MAX_OPS:
        return None
    x = sympy.Dummy("x")
    names = {r: sympy.Dummy(f"r{i}") for i, r in enumerate(radicals)}
    atoms: dict[sympy.Expr, sympy.Dummy] = {}
    numerator, denominator = sympy.fraction(sympy.together(_radical_form(value, names, atoms)))
    if len(atoms) > MAX_ATOMS:
        return None
    relation = sympy.expand(x * denominator - numerator)
    # outer radicals first: their bases may mention inner ones
    for radical in sorted(radicals, key=sympy.count_ops, reverse=True):
        name = names[radical]
        relation = sympy.expand(sympy.resultant(relation, _defining(radical, name, names, atoms), name))
        if relation == 0 or sympy.degree(relation, x) > MAX_RESULTANT_DEGREE:
            return None
    if relation.free_symbols & set(names.values()):
        return None
    polynomial = sympy.Poly(relation, x)
    return [sympy.expand(c) for c in polynomial.all_coeffs()[::-1]], atoms


def _is_radical(node: sympy.Basic) -> bool:
    return isinstance(node, sympy.CRootOf) or (
        isinstance(node, sympy.Pow) and node.exp.is_Rational and not node.exp.is_Integer)


def _defining(radical: sympy.Expr, name: sympy.Dummy, names: dict[sympy.Expr, sympy.Dummy],
              atoms: dict[sympy.Expr, sympy.Dummy]) -> sympy.Expr:
    """A polynomial relation the radical satisfies, in its name (and inner names and atoms)."""
    if isinstance(radical, sympy.CRootOf):
        return radical.poly.as_expr().xreplace({radical.poly.gen: name})
    b_num, b_den = sympy.fraction(sympy.together(_radical_form(radical.base, names, atoms)))
    p, q = int(radical.exp.p), int(radical.exp.q)
    # r^q = base^p, written without denominators (the principal root satisfies it too)
    if p > 0:
        return sympy.expand(name**q * b_den**p - b_num**p)
    return sympy.expand(name**q * b_num**(-p) - b_den**(-p))


def _radical_form(expr: sympy.Expr, names: dict[sympy.Expr, sympy.Dummy],
                  atoms: dict[sympy.Expr, sympy.Dummy]) -> sympy.Expr:
    if expr.is_Rational:
        return expr
    if expr in names:
        return names[expr]
    if isinstance(expr, (sympy.Add, sympy.Mul)):
        return expr.func(*(_radical_form(arg, names, atoms) for arg in expr.args))
    if isinstance(expr, sympy.Pow) and expr.exp.is_Integer:
        return _radical_form(expr.base, names, atoms) ** expr.exp
    return _atom(expr, atoms)  # π, exp(…): an indeterminate, whatever its value
