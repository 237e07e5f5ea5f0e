"""A relation whose sides differ by an irrational constant times an expression, c·u > 0 and the
like: the parser may take c out by its certified sign (c·u > 0 is u > 0 for c > 0, −u > 0 for
c < 0), and the condition it returns is true exactly where the written one is (mpmath)."""
from __future__ import annotations

import mpmath
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc

CONSTANTS = {"-pi/4": -mpmath.pi / 4, "sqrt(2)/3": mpmath.sqrt(2) / 3, "-exp(-1)": -mpmath.exp(-1),
             "log(2)/2": mpmath.log(2) / 2, "-sqrt(3)": -mpmath.sqrt(3)}
RELATIONS = {">": lambda x: x > 0, ">=": lambda x: x >= 0, "<": lambda x: x < 0, "<=": lambda x: x <= 0}
INNER = {"z": lambda z: z, "z - 1": lambda z: z - 1, "z**3 - z": lambda z: z**3 - z}
POINTS = ("-2", "-1/2", "1/3", "3/2", "7")


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(CONSTANTS)), st.sampled_from(sorted(RELATIONS)), st.sampled_from(sorted(INNER)))
def test_a_constant_factor_keeps_the_truth_of_the_relation(constant: str, rel: str, inner: str) -> None:
    sigma = sc.activation(f"Piecewise((1, ({constant})*({inner}) {rel} 0), (0, True))")
    (z,) = sigma.expr.free_symbols
    with mpmath.workdps(30):
        for point in POINTS:
            x = mpmath.mpf(sympy.Rational(point).p) / sympy.Rational(point).q
            truth = RELATIONS[rel](CONSTANTS[constant] * INNER[inner](x))
            assert sigma.expr.subs(z, sympy.Rational(point)) == (1 if truth else 0), (constant, rel, inner, point)



#: ≈ −2.73e-40, which SymPy's two-digit evalf calls positive: it decides P·z² ≥ 0 to be True
P = "(exp(-30) - log(1 + exp(-30)) - exp(-60)/2)"
SIGN_TESTS = {">": lambda x: x > 0, ">=": lambda x: x >= 0, "<": lambda x: x < 0, "<=": lambda x: x <= 0,
              "==": lambda x: x == 0, "!=": lambda x: x != 0}


def _value_at(piecewise: sympy.Expr, z: sympy.Symbol, x: mpmath.mpf) -> sympy.Expr:
    """The branch taken at z = x, each condition decided in mpmath (SymPy's subs would sign P by
    evalf again)."""
    for value, condition in piecewise.args:
        if condition in (sympy.true, sympy.false):
            taken = bool(condition)
        else:
            difference = sympy.lambdify(z, condition.lhs - condition.rhs, "mpmath")(x)
            taken = SIGN_TESTS[condition.rel_op](difference)
        if taken:
            return value
    raise AssertionError(f"no branch of {piecewise} at {x}")


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["", "-"]), st.sampled_from(sorted(RELATIONS)),
       st.sampled_from(["z**2", "z**2 + 1", "z**4 - z**2"]))
def test_a_tiny_factor_sympy_misjudges_is_taken_out_by_its_certified_sign(negate: str, rel: str, inner: str) -> None:
    # SymPy decides P·u ⋈ 0 from the wrong sign of P (u ≥ 0 or u > 0); where neither truth holds
    # on all of R the parser takes P out by its certified sign: the written truth at each point
    sigma = sc.activation(f"Piecewise((1, {negate}{P}*({inner}) {rel} 0), (0, True))")
    z = sympy.Symbol("z", real=True)
    with mpmath.workdps(80):
        c = (-1 if negate else 1) * (mpmath.exp(-30) - mpmath.log1p(mpmath.exp(-30)) - mpmath.exp(-60) / 2)
        for point in POINTS + ("0", "1"):
            x = mpmath.mpf(sympy.Rational(point).p) / sympy.Rational(point).q
            truth = RELATIONS[rel](c * sympy.lambdify(z, sympy.sympify(inner, locals={"z": z}), "mpmath")(x))
            got = _value_at(sigma.expr, z, x) if isinstance(sigma.expr, sympy.Piecewise) else sigma.expr
            assert got == (1 if truth else 0), (negate, rel, inner, point, sigma.expr)
