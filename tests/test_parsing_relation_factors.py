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
