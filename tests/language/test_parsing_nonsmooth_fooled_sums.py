"""Abs, sign and Heaviside of a sum SymPy signs wrongly: with Q_k = log(1 + e^-k) − e^-k + e^-2k/2
(> 0, about e^-3k/3) and P_k = −Q_k written out, SymPy takes Q_k < 0 < P_k, so it calls
t = −P_k·f + Q_k·g negative for positive f, g, while t > 0 everywhere. The parser keeps a
value only when its own condition on t is proved: |t| = t, sign(t) = 1, H(t) = 1 here, and
the mirror image −t gives |−t| = t, sign = −1, H = 0 — each checked, not SymPy's proposal."""
from __future__ import annotations

import pytest
import sympy

from symcheck.language.activations import activation

from support.tiny_constants import tiny

POSITIVE = [("exp(z)", "exp(-z)"), ("exp(z)", "1 + z**2"), ("1 + z**2", "exp(-z)")]


def _q(k: int) -> str:
    """Q_k = log(1 + e^-k) − e^-k + e^-2k/2 > 0, as a user types it (SymPy reads it as negative)."""
    return tiny("log3", "e", k).text


def _p(k: int) -> str:
    """P_k = −Q_k."""
    return tiny("log3", "e", k, negate=True).text


@pytest.mark.parametrize("k", [20, 30, 45])
@pytest.mark.parametrize("f, g", POSITIVE)
def test_a_sum_sympy_signs_wrongly_gets_its_proved_value(k, f, g) -> None:
    t = f"-{_p(k)}*({f}) + {_q(k)}*({g})"                  # > 0 everywhere
    z = sympy.Symbol("z", real=True)
    t_expr = activation(t).expr
    assert activation(f"sign({t})").expr == 1
    assert activation(f"Heaviside({t})").expr == 1
    assert activation(f"Abs({t})").expr == t_expr
    assert activation(f"sign(-({t}))").expr == -1
    assert activation(f"Heaviside(-({t}))").expr == 0
    assert sympy.expand(activation(f"Abs(-({t}))").expr - t_expr) == 0
    assert t_expr.free_symbols == {z}


@pytest.mark.parametrize("k", [20, 30])
@pytest.mark.parametrize("c, abs_scale, sign_scale", [("pi", sympy.pi, 1), ("-3*pi", 3 * sympy.pi, -1),
                                                      ("log(2)", sympy.log(2), 1)])
def test_a_value_kept_as_written_keeps_its_number_factor(k, c, abs_scale, sign_scale) -> None:
    """u = Q_k·e^z − z² is negative to SymPy (Q_k < 0 to it) but changes sign (u > 0 for large z), so
    SymPy's value is refused and no other is proved: |c·u| is kept as |c|·|u| and sign(c·u) as
    sign(c)·sign(u), with u as written — the number factor taken out is not lost. (exp(z) − Q_k,
    which SymPy leaves alone, is kept by the earlier return.)"""
    for written in (f"{_q(k)}*exp(z) - z**2", f"exp(z) - {_q(k)}"):
        u = activation(written).expr
        assert _kept(activation(f"Abs({c}*({written}))").expr, sympy.Abs, u) == abs_scale
        assert _kept(activation(f"sign({c}*({written}))").expr, sympy.sign, u) == sign_scale


def _kept(result: sympy.Expr, function: type, u: sympy.Expr) -> sympy.Expr:
    """The number k with result = k·function(u), u as written (function(−u) read as ±function(u))."""
    z = next(iter(u.free_symbols))
    factor, rest = result.as_independent(z, as_Add=False)
    assert isinstance(rest, function), result
    if sympy.expand(rest.args[0] - u) == 0:
        return factor
    assert sympy.expand(rest.args[0] + u) == 0, result
    return factor if function is sympy.Abs else -factor
