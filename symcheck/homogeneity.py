"""The homogeneity degree p that query-value rescaling (q, v) → (αq, v/α^p) would need.

If σ(αz) = α^p·σ(z) for every α > 0, then σ(2) = 2^p·σ(1): one certified ratio pins the
only candidate p, so a single check of that p decides the question for every p — a
witness for it, together with the ratio, refutes all the others.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy
from sympy import S

from .activations import Activation
from .evaluate import certify_nonzero
from .printing import text


@dataclass(frozen=True)
class Degree:
    """The candidate p (None when no p can work, or when it could not be decided) and why."""

    p: sympy.Expr | None
    reason: str
    impossible: bool = False  # True: certified that no real p works


def homogeneity_degree(sigma: Activation) -> Degree:
    """The only p for which σ(αz) = α^p σ(z) (α > 0) can hold, read off σ(2)/σ(1).

    >>> homogeneity_degree(__import__("symcheck").activation("relu2")).p
    2
    """
    for z1 in (S.One, -S.One):
        v1, v2 = sigma(z1), sigma(2 * z1)
        c1 = certify_nonzero(v1, {})
        if c1 is None:
            if sympy.simplify(v1) != 0:
                return Degree(None, f"could not decide whether σ({z1}) = {text(v1)} is zero")
            continue  # σ(z1) = 0 pins nothing; try the other half-line
        c2 = certify_nonzero(v2, {})
        if c2 is None and sympy.simplify(v2) != 0:
            return Degree(None, f"could not decide whether σ({2 * z1}) = {text(v2)} is zero")
        if c2 is None or c2.sign != c1.sign:
            return Degree(None, f"σ({2 * z1}) / σ({z1}) ≤ 0 while α^p > 0 for every p: no degree works",
                          impossible=True)
        p = sympy.simplify(sympy.log(v2 / v1) / sympy.log(2))
        return Degree(p, f"σ({2 * z1}) / σ({z1}) = {text(sympy.nsimplify(v2 / v1))} = 2^p pins p = {text(p)}")
    return Degree(S.One, "σ(1) = σ(−1) = 0 pins no degree; p = 1 is checked (only σ ≡ 0 can pass)")
