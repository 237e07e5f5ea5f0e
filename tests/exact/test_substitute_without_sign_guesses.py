"""signs.substitute lets SymPy evaluate a node only where its evaluation applies identities.
asin(sin(c)) is not such a node: SymPy reduces c modulo 2π and compares it with π/2, a sign it
reads from evalf, which cannot tell a c within 10^-300 of π/2 (it raises). So at such a point the
node is kept as written, and its value is the true one."""
from __future__ import annotations

import mpmath
import pytest
import sympy

from symcheck.exact.signs import substitute

Z = sympy.Symbol("z", real=True)


@pytest.mark.parametrize("above", [False, True])
@pytest.mark.parametrize("inverse, function", [(sympy.asin, sympy.sin), (sympy.atan, sympy.tan)])
def test_an_inverse_of_its_function_next_to_half_pi_is_kept_with_its_value(above: bool, inverse, function) -> None:
    # atan(tan(c)) compares c with π/2 as asin(sin(c)) does
    with mpmath.workdps(2000):
        q = sympy.Rational(int(mpmath.floor(mpmath.pi / 2 * 10**300)) + above, 10**300)
        result = substitute(inverse(function(Z)), {Z: q})
        mp_inverse, mp_function = getattr(mpmath, inverse.__name__), getattr(mpmath, function.__name__)
        true = mp_inverse(mp_function(mpmath.mpf(q.p) / q.q))
        assert abs(mpmath.mpf(str(sympy.N(result, 1000))) - true) < mpmath.mpf(10) ** -250
