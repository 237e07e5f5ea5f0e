"""The parser's vocabulary is the documented one, name by name (issue 23: an entry added to one
of the parser's allow-lists — a name read as a function, a constant, an alias of another
function — is a slip no single-function test notices).

The truth is docs/activations.md ("What the parser accepts"): its list of functions, aliases and
constants, and mpmath for what each function computes. The names tried are every name of SymPy,
NumPy and math, and every identifier-like string in the parser's own source (so a name one of
its tables could be given by mistake is among them).
"""
from __future__ import annotations

import ast
import keyword
import math
import re
from fractions import Fraction

import mpmath
import numpy
import pytest
import sympy

from symcheck.core.errors import SymcheckError
from symcheck.language.parsing import extremum, parse_expression

from support import ROOT

_DOC = (ROOT / "docs" / "activations.md").read_text()
_ALLOWED = _DOC[_DOC.index("Allowed:"):_DOC.index("catalogue names as functions")]


def _ticked(text: str) -> set[str]:
    return {w for group in re.findall(r"`([^`]*)`", text) for w in group.split() if w.isidentifier()}


#: the documented functions, aliases, constants and the functions of conditions
FUNCTIONS = _ticked(_ALLOWED[_ALLOWED.index("the functions"):_ALLOWED.index("(and")])
ALIASES = _ticked(_ALLOWED[_ALLOWED.index("(and"):_ALLOWED.index("the constants")])
CONSTANTS = _ticked(_ALLOWED[_ALLOWED.index("the constants"):_ALLOWED.index("comparisons")])
CONDITIONS = _ticked(_ALLOWED[_ALLOWED.index("`Eq`"):])
#: functions of more than one argument (the rest take one)
SEVERAL = {"Max", "Min", "Mod", "Piecewise"}


def _names() -> list[str]:
    names = {n for module in (sympy, numpy, math) for n in dir(module) if n.isidentifier()}
    source = (ROOT / "symcheck" / "language" / "parsing.py").read_text()
    names |= {node.value for node in ast.walk(ast.parse(source))
              if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier()}
    # reserved spellings (documented refusals) and Python keywords are not names
    return sorted(n for n in names if not n.startswith("_") and "__" not in n and not keyword.iskeyword(n))


NAMES = _names()


def test_the_documented_vocabulary_is_read() -> None:
    assert {"exp", "tanh", "asin", "Heaviside", "LambertW", "Mod", "Piecewise"} <= FUNCTIONS
    assert (ALIASES, CONSTANTS) == ({"abs", "max", "min"}, {"pi", "E"})
    assert {"Eq", "Ne", "And", "Or", "Not"} <= CONDITIONS
    assert len(NAMES) > 1000


def test_a_name_is_called_only_when_documented() -> None:
    called = set()
    for name in NAMES:
        try:
            parse_expression(f"{name}(z)")
        except SymcheckError:
            continue
        called.add(name)
    assert called == (FUNCTIONS | ALIASES) - SEVERAL - {a for a in ALIASES if a.capitalize() in SEVERAL}


def test_a_name_is_a_number_only_when_a_documented_constant_and_a_variable_unless_a_function() -> None:
    constants, refused = set(), set()
    for name in NAMES:
        try:
            expr = parse_expression(name).expr
        except SymcheckError:
            refused.add(name)
            continue
        if expr.free_symbols:
            assert expr == sympy.Symbol(name, real=True), name
        else:
            constants.add(name)
    assert constants == CONSTANTS
    assert refused == FUNCTIONS | ALIASES | CONDITIONS  # "'tanh' is a function; call it"


#: each documented function as mpmath computes it (the truth its SymPy reading must meet)
_MPMATH = {
    "exp": mpmath.exp, "log": mpmath.log, "sqrt": mpmath.sqrt, "sin": mpmath.sin, "cos": mpmath.cos,
    "tan": mpmath.tan, "sinh": mpmath.sinh, "cosh": mpmath.cosh, "tanh": mpmath.tanh,
    "asinh": mpmath.asinh, "atan": mpmath.atan, "erf": mpmath.erf, "erfc": mpmath.erfc,
    "Abs": mpmath.fabs, "abs": mpmath.fabs, "sign": mpmath.sign,
    "Heaviside": lambda u: mpmath.mpf(1) if u > 0 else mpmath.mpf(0) if u < 0 else mpmath.mpf(0.5),
    "acos": mpmath.acos, "asin": mpmath.asin, "atanh": mpmath.atanh, "acosh": mpmath.acosh,
    "floor": mpmath.floor, "ceiling": mpmath.ceil, "frac": lambda u: u - mpmath.floor(u),
    "gamma": mpmath.gamma, "loggamma": mpmath.loggamma, "LambertW": mpmath.lambertw,
}
_POINTS = ("7/10", "-3/10", "13/10", "-5/2", "5/2")


@pytest.mark.parametrize("name", sorted((FUNCTIONS | ALIASES) - SEVERAL - {"max", "min"}))
def test_each_function_computes_what_its_name_says(name: str) -> None:
    expr = parse_expression(f"{name}(z)").expr
    (z,) = expr.free_symbols
    compared = 0
    with mpmath.workdps(40):
        for point in _POINTS:
            u = mpmath.mpf(Fraction(point).numerator) / Fraction(point).denominator
            try:
                want = _MPMATH[name](u)
            except (ValueError, ZeroDivisionError):
                continue
            if not isinstance(want, mpmath.mpf):  # complex: outside the real domain
                if mpmath.im(want) != 0:
                    continue
                want = mpmath.re(want)
            got = sympy.N(expr.subs(z, sympy.Rational(point)), 40)
            assert abs(mpmath.mpf(str(got)) - want) <= mpmath.mpf(10) ** -30 * (1 + abs(want)), (name, point, got)
            compared += 1
    assert compared >= 2, name


@pytest.mark.parametrize(("text", "value"), [("Max(z, 1/2, -z)", max), ("Min(z, 1/2, -z)", min),
                                             ("max(z, 1/2, -z)", max), ("min(z, 1/2, -z)", min)])
def test_the_extrema_compute_what_their_names_say(text: str, value) -> None:
    expr = parse_expression(text).expr
    (z,) = expr.free_symbols
    for point in _POINTS:
        q = sympy.Rational(point)
        assert expr.subs(z, q) == value(q, sympy.Rational(1, 2), -q), (text, point)


def test_mod_computes_u_minus_c_floor_u_over_c() -> None:
    expr = parse_expression("Mod(z, 3/2)").expr
    (z,) = expr.free_symbols
    c = Fraction(3, 2)
    for point in _POINTS:
        u = Fraction(point)
        assert expr.subs(z, sympy.Rational(point)) == sympy.Rational(u - c * math.floor(u / c))


@pytest.mark.parametrize("name", sorted(FUNCTIONS - SEVERAL))
def test_a_library_spelling_is_refused_with_the_documented_name(name: str) -> None:
    # np.tanh(z) is refused (attribute access) with what to write instead: the same function
    with pytest.raises(SymcheckError, match=re.escape(f"write {name}(z)")):
        parse_expression(f"np.{name}(z)")


#: P ≈ −2.7e-40, which SymPy's assumptions take for positive
P = sympy.exp(-30) - sympy.log(1 + sympy.exp(-30)) - sympy.exp(-60) / 2


@pytest.mark.parametrize("k", range(1, 6))
def test_an_argument_sympy_dropped_by_a_wrong_sign_is_kept(k: int) -> None:
    """Max(z, z − j·z² for j ≤ k, z − P·z²) is z − P·z² (P < 0), though SymPy drops every argument
    but z: each dropped argument must be proved dominated on its own (one proof, for z − z²,
    is no proof for z − P·z²)."""
    z = sympy.Symbol("z", real=True)
    assert mpmath.mpf(str(sympy.N(P, 50))) < 0
    args = [z, *(z - j * z**2 for j in range(1, k + 1)), z - P * z**2]
    assert sympy.Max(*args) == z  # the premise: SymPy's own answer is wrong
    assert extremum("Max", args, "Max(...)") == z - P * z**2


def _floats(expr: sympy.Basic) -> set[sympy.Basic]:
    return set(expr.atoms(sympy.Float))


#: constant arguments, with their values: SymPy cannot read their sign exactly, so the parser
#: decides nonsmooth functions of them by certified signs (the last is exactly 0)
_CONSTANT_ARGUMENTS = {"pi - 3": lambda: mpmath.pi - 3, "3 - pi": lambda: 3 - mpmath.pi,
                       "E/3": lambda: mpmath.e / 3, "E - 1/2": lambda: mpmath.e - mpmath.mpf(1) / 2,
                       "(1 + sqrt(2))**2 - 3 - 2*sqrt(2)": lambda: mpmath.mpf(0)}


@pytest.mark.parametrize("name", sorted(CONSTANTS))
def test_a_documented_constant_is_the_exact_number(name: str) -> None:
    expr = parse_expression(name).expr
    assert not _floats(expr) and expr.is_number
    with mpmath.workdps(40):
        want = {"pi": mpmath.pi, "E": mpmath.e}[name]
        assert abs(mpmath.mpf(str(sympy.N(expr, 40))) - want) < mpmath.mpf(10) ** -35


@pytest.mark.parametrize("name", sorted((FUNCTIONS | ALIASES) - SEVERAL - {"max", "min"}))
def test_a_function_of_a_constant_is_exact_and_computes_what_its_name_says(name: str) -> None:
    """No float enters a parse: a constant's function is exact (an exact constant folded to a
    float — sign(π − 3) read as 1.0, Heaviside(0) as 0.5, √ as the power 0.5 — is a slip)."""
    compared = 0
    with mpmath.workdps(40):
        for text, value in _CONSTANT_ARGUMENTS.items():
            u = value()  # at the working precision
            try:
                expr = parse_expression(f"{name}({text})").expr
            except SymcheckError:
                continue  # refused: no claim is made about it
            assert not _floats(expr), (name, text, expr)
            for scaled in (expr, parse_expression(f"{name}(({text})*z)").expr):
                assert not _floats(scaled), (name, text, scaled)
            if u == 0:  # an exact 0 SymPy's N cannot read: its functions' values are pinned below
                continue
            try:
                want = _MPMATH[name](u)
            except (ValueError, ZeroDivisionError):
                continue
            if not isinstance(want, mpmath.mpf):
                if mpmath.im(want) != 0:
                    continue
                want = mpmath.re(want)
            if not mpmath.isfinite(want):  # log(0): outside the domain
                continue
            got = mpmath.mpf(str(sympy.N(expr, 40)))
            assert abs(got - want) <= mpmath.mpf(10) ** -30 * (1 + abs(want)), (name, text, expr)
            compared += 1
    assert compared >= 1, name


@pytest.mark.parametrize(("text", "at", "value"), [
    ("sign((pi - 3)*z)", "7/10", 1), ("sign((3 - pi)*z)", "7/10", -1), ("Heaviside((3 - pi)*z)", "7/10", 0),
    ("Abs((3 - pi)*z)", "7/10", None), ("Heaviside((1 + sqrt(2))**2 - 3 - 2*sqrt(2))", None, sympy.Rational(1, 2)),
])
def test_a_nonsmooth_function_of_a_constant_multiple_is_exact(text: str, at: str | None, value) -> None:
    expr = parse_expression(text).expr
    assert not _floats(expr), expr
    if at is not None:
        (z,) = expr.free_symbols
        expr = expr.subs(z, sympy.Rational(at))
    if value is None:  # |(3 − π)·7/10| = (π − 3)·7/10
        assert sympy.simplify(expr - (sympy.pi - 3) * sympy.Rational(7, 10)) == 0 and not _floats(expr)
    else:
        assert expr == value and not _floats(expr)
