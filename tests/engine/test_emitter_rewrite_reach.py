"""The emitter's rewrites reach every place they are meant to: the value of every branch of a
piecewise (the first included: two piecewises equal as functions under a condition no cut
decides, sin(e^z) > 0, cancel as one atom), every factor of every term of a
logarithm's Laurent argument (the first factor of a term included, where the inverted base may
sit when the coefficient is 1), and the one varying factor of a product whose sign decides a
cut (a constant factor such as log 2 or π beside it). Each identity below is true on R, so the
emitter must hand the kernel a certificate it accepts; a rewrite that skips a position loses it."""
from __future__ import annotations

import pytest
import sympy
from sympy import Abs, Piecewise, exp, log, pi, sin

from symcheck.engine.certificate.emit import Certificate, certify_zero

z = sympy.Symbol("z", real=True)

IDENTITIES = [
    # piecewise atoms equal once each value is canonical, the first value differing in form
    Piecewise((z * (z + 1), sin(exp(z)) > 0), (0, True)) - Piecewise((z**2 + z, sin(exp(z)) > 0), (0, True)),
    Piecewise(((z + 1)**2, sin(exp(z)) > 0), (1, True)) - Piecewise((z**2 + 2 * z + 1, sin(exp(z)) > 0), (1, True)),
    # log(N·D⁻¹): z²·e^(−z) is the term ("mul", exp(−z), z²), its inverted base first
    log(z**2 * exp(-z) + 1) - log(z**2 + exp(z)) + z,
    log(z**2 * exp(-2 * z) + exp(-z)) - log(z**2 + exp(z)) + 2 * z,
    log(1 + exp(-z)) - log(exp(z) + 1) + z,
    # a branch condition c·(z − 1) > 0 with a constant c > 0 that is no polynomial coefficient
    Piecewise((z - 1, log(2) * (z - 1) > 0), (1 - z, True)) - Abs(z - 1),
    Piecewise((z - 1, pi * (z - 1) > 0), (1 - z, True)) - Abs(z - 1),
    Abs(log(2) * (z - 1)) - log(2) * Abs(z - 1),
]


@pytest.mark.parametrize("expr", IDENTITIES, ids=str)
def test_an_identity_on_r_gets_an_accepted_certificate(expr) -> None:
    outcome = certify_zero(expr, {z: ()})
    assert isinstance(outcome, Certificate), outcome
