"""sign and Heaviside in a certificate's tree are written as piecewise in their *argument* —
args[0]; Heaviside's second argument is only its value at 0 — and σ(…) inside that argument is
replaced by σ's own tree, like anywhere else. Read from the wrong argument, Heaviside(z) would
state the constant 1 (its 1/2 > 0), and σ inside sign(σ(z)) would be left as an unknown function
(no certificate). Each tree is evaluated exactly (the kernel's rational evaluation) against the function's
value at points on both sides of 0 and at 0. And a pair with no tree is no certificate: a
Rejection saying so, timed like every outcome, never an error."""
from __future__ import annotations

import time
from fractions import Fraction

import pytest
import sympy

from symcheck.engine.certificate.emit import Rejection, RejectionStage, certify_nonmember
from symcheck.engine.certificate.tree import sigma_tree, tree
from symcheck.kernel.evaluate import exact
from symcheck.language.symbols import Z

SIGMA = sympy.Function("sigma")


POINTS = [Fraction(-3, 2), Fraction(0), Fraction(1, 3), Fraction(1), Fraction(5)]


@pytest.mark.parametrize("expr, truth", [
    (sympy.Heaviside(Z), lambda z: 1 if z > 0 else 0 if z < 0 else Fraction(1, 2)),
    (sympy.Heaviside(Z, 0), lambda z: 1 if z > 0 else 0),
    (sympy.Heaviside(Z - 1, 1), lambda z: 1 if z >= 1 else 0),
    (sympy.sign(Z - sympy.Rational(1, 3)), lambda z: (z > Fraction(1, 3)) - (z < Fraction(1, 3))),
], ids=["H(z)", "H(z,0)", "H(z-1,1)", "sign(z-1/3)"])
def test_the_tree_takes_the_argument_not_the_value_at_zero(expr, truth) -> None:
    node = tree(expr)
    for z in POINTS:
        assert exact(node, {"z": z}) == truth(z), (expr, z)


@pytest.mark.parametrize("outer", [sympy.sign, sympy.Heaviside], ids=lambda f: f.__name__)
def test_sigma_inside_the_argument_is_replaced_by_its_tree(outer) -> None:
    sig = sigma_tree(Z - 1, Z)
    node = tree(outer(SIGMA(Z)), sig)
    assert "sigma" not in repr(node)
    assert node == tree(outer(Z - 1))


def test_a_pair_with_no_tree_is_a_timed_rejection() -> None:
    started = time.perf_counter()
    outcome = certify_nonmember("silu", sympy.Float(0.5), 1, {"z": 1})
    elapsed = time.perf_counter() - started
    assert isinstance(outcome, Rejection) and outcome.stage is RejectionStage.EMIT
    assert outcome.reason.startswith("the pair has no tree")
    assert 0 <= outcome.emit_seconds <= elapsed
