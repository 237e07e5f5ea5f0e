"""Each rewrite in the zero prover's table of identities (``engine/zero._IDENTITIES``) is an
identity of real functions: f(u) and its rewrite agree at every real point where the rule
applies. A wrong rewrite (a dropped term, tanh(asinh u) = u) lets the prover call a non-zero
residual 0; the kernel would refuse the certificate, but only for the identities it knows.

The values are compared in mpmath at 60 digits at rational points of several magnitudes (the
two sides of a true identity agree to the last digits; a wrong one differs in the first few).
"""
from __future__ import annotations

import mpmath
import pytest
import sympy

from symcheck.engine.zero import _IDENTITIES

q = sympy.Symbol("q", real=True)
#: inner nodes u the rules look for, as functions of a real parameter q
INNER = [q, sympy.sinh(q), sympy.asinh(q), sympy.atan(q), sympy.tanh(q), sympy.cosh(q), sympy.exp(q),
         sympy.log(q), sympy.erf(q)]
POINTS = [sympy.Rational(p) for p in ("-7/2", "-1", "-1/3", "1/5", "1", "5/2", "9")]
#: SymPy's function names that mpmath spells otherwise
MPMATH_NAME = {"ceiling": "ceil"}


def _value(expr: sympy.Expr) -> mpmath.mpf | None:
    """expr in mpmath, or None where it is not real (outside the function's domain)."""
    value = sympy.lambdify((), expr, "mpmath")()
    return None if isinstance(value, mpmath.mpc) and value.imag != 0 else mpmath.re(value)


@pytest.mark.parametrize("name,func,rule", _IDENTITIES, ids=[name for name, _, _ in _IDENTITIES])
def test_each_rewrite_is_an_identity_where_it_applies(name: str, func: type, rule) -> None:
    applied = 0
    with mpmath.workdps(60):
        for inner in INNER:
            for point in POINTS:
                u = inner.subs(q, point)
                if not isinstance(u, sympy.Expr) or u.has(sympy.zoo, sympy.nan):
                    continue
                # the rule looks at the node's argument unevaluated, as apply_identities meets it
                with sympy.evaluate(False):
                    u = inner.xreplace({q: point})
                rewrite = rule(u)
                x = _value(u)
                if rewrite is None or x is None:
                    continue
                try:
                    left = getattr(mpmath, MPMATH_NAME.get(func.__name__, func.__name__))(x)
                except (ValueError, ZeroDivisionError):
                    continue  # f(u) not real here: nothing to rewrite
                if isinstance(left, mpmath.mpc):
                    continue
                right = _value(rewrite)
                assert right is not None and abs(left - right) <= mpmath.mpf(10) ** -45 * (1 + abs(left)), (
                    name, u, left, right)
                applied += 1
    assert applied >= 3, f"the rule {name} was tried at too few points"
