"""The symbols every module agrees on: one place, so expressions from different modules compose."""
from __future__ import annotations

import sympy

from symcheck.core.formula import Apply

#: the activation's variable; real so that e.g. log(exp(z)) reduces to z
Z = sympy.Symbol("z", real=True)
#: the query/gate branch a = x·q and the key/up branch b = x·k of one unit
A = sympy.Symbol("a", real=True)
B = sympy.Symbol("b", real=True)
#: the scale of inverse scaling (q, k) -> (alpha q, k / alpha)
ALPHA = sympy.Symbol("alpha", real=True)
#: the scale of key-value rescaling (k, v) -> (beta k, v / beta)
BETA = sympy.Symbol("beta", real=True)
#: the activation as an opaque function, for statements that hold for every sigma
SIGMA = sympy.Function("sigma", real=True)
#: σ as the name of a function in a formula: σ(z), σ₊(z)
SIGMA_NAME = sympy.Symbol("sigma")


def sigma_at(arg: sympy.Basic, side: int = 0) -> Apply:
    """σ(arg) in a formula (σ₊, σ₋ for ``side`` ±1)."""
    return Apply(SIGMA_NAME, (arg,), side)


def substitute_sigma(expr: sympy.Basic, sigma) -> sympy.Basic:
    """``expr`` with every application σ(u) of the opaque SIGMA replaced by ``sigma(u)``."""
    if sigma is SIGMA:
        return expr
    return expr.replace(lambda e: getattr(e, "func", None) == SIGMA, lambda e: sigma(e.args[0]))
