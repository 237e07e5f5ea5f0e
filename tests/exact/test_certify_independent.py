"""Certificates come from our own arithmetic on the expression tree, never from SymPy's
evaluation, and the re-check (``recheck_sign``) is a second, independent arithmetic.

SymPy decides ``5*log(1 + exp(-2000)) <= 0`` as True (its evalf rounds the log to 0), so a
certifier that trusts SymPy's value at a point certified σ(0) = 1 for σ(z) = z + [that
condition], a σ that is exactly z."""
from __future__ import annotations

import json

import pytest
import sympy

import symcheck.exact.evaluate as evaluate
from symcheck.core.errors import EvaluationError
from symcheck.exact.evaluate import certify_nonzero, recheck_sign

from support import invoke_cli

z, a, b = sympy.symbols("z a b", real=True)
R = sympy.Rational

ITEM7 = "z + Piecewise((1, (z**2 - 4*z + 5)*log(1 + exp(-2000)) <= 0), (0, True))"
# σ(z) = z exactly: the quadratic is ≥ 1 and log(1 + e^-2000) > 0
SIGMA = z + sympy.Piecewise(
    (1, (z**2 - 4 * z + 5) * sympy.log(1 + sympy.exp(-2000)) <= 0), (0, True))


def exchange_residual(act):
    return act.subs(z, a) * b - act.subs(z, b) * a


def test_sympy_itself_gets_the_condition_wrong():
    # the premise: SymPy's automatic evaluation at a point decides the branch wrongly
    assert SIGMA.subs(z, 0) == 1


@pytest.mark.parametrize("point", [R(0), R(1), R(2), R(-7, 3), R(10**6)])
def test_sigma_minus_z_is_never_certified(point):
    assert certify_nonzero(SIGMA - z, {z: point}) is None
    assert recheck_sign(SIGMA - z, {z: point}) == 0


def test_the_exchange_residual_at_the_false_witness_is_not_certified():
    residual = exchange_residual(SIGMA)
    assert certify_nonzero(residual, {a: 0, b: 1}) is None
    assert recheck_sign(residual, {a: 0, b: 1}) == 0


def test_the_condition_is_decided_by_the_enclosure_not_given_up():
    # log(1 + t) is enclosed from t itself, so the branch is known at 64 bits: σ(z) - z + 1 = 1
    cert = certify_nonzero(SIGMA - z + 1, {z: 0})
    assert cert is not None and cert.exact and cert.value == 1 and cert.prec == 0


def test_the_command_line_does_not_call_it_broken():
    code, out, err = invoke_cli("exchange", "--act", ITEM7, "--json")
    assert code == 0, err
    assert json.loads(out)["verdict"] in ("holds", "inconclusive")


# --------------------------------------------------------------------------- no SymPy decisions

EXPRESSIONS = [
    (SIGMA - z + 1, {z: 0}, 1),
    (exchange_residual(z / (1 + sympy.exp(-z))), {a: R(3, 2), b: R(-1, 2)}, -1),
    (sympy.Piecewise((z, sympy.sin(z) > 0), (-z, True)) - sympy.Abs(z), {z: 4}, -1),
    (sympy.tanh(z) - 1, {z: 30}, -1),
    (sympy.Heaviside(z - R(1, 3)) - R(1, 2), {z: R(1, 3)}, 0),
    (z**3 / 10**15 + z - (1 + R(1, 10**15)) * z, {z: 2}, 1),
]


def _forbidden(*args, **kwargs):
    raise AssertionError("SymPy's evaluation was consulted")


@pytest.mark.parametrize(("expr", "point", "sign"), EXPRESSIONS)
def test_neither_certifier_nor_recheck_asks_sympy(monkeypatch, expr, point, sign):
    for owner, name in [(sympy.Basic, "xreplace"), (sympy.Basic, "subs"),
                        (sympy.core.evalf.EvalfMixin, "evalf"), (sympy.Expr, "equals"),
                        (sympy.core.relational.Relational, "__bool__")]:
        monkeypatch.setattr(owner, name, _forbidden)
    cert = certify_nonzero(expr, point)
    assert (cert.sign if cert else 0) == sign
    assert recheck_sign(expr, point) == sign


class _Exploding:
    def __init__(self, *args, **kwargs):
        raise AssertionError("the other arithmetic was used")


@pytest.mark.parametrize(("expr", "point", "sign"), EXPRESSIONS)
def test_the_two_arithmetics_are_independent(monkeypatch, expr, point, sign):
    with monkeypatch.context() as patch:  # the re-check never touches Arb
        patch.setattr(evaluate, "BallArithmetic", _Exploding)
        patch.setattr(evaluate, "arb_precision", _Exploding)
        assert recheck_sign(expr, point) == sign
    with monkeypatch.context() as patch:  # the certifier never touches the mpmath intervals
        patch.setattr(evaluate, "Enclosure", _Exploding)
        cert = certify_nonzero(expr, point)
        assert (cert.sign if cert else 0) == sign


# --------------------------------------------------------------------------- recheck_sign

# 1 at z = 0, decided only where log(1 + e^-10000) > 0 is visible: Arb's log1p sees it at once,
# the second opinion (no log1p) needs 14427 bits
TINY_LOG = sympy.Piecewise((1, sympy.log(1 + sympy.exp(-10**4)) - z > 0), (-1, True))


@pytest.mark.parametrize(
    ("expr", "point", "kwargs", "sign"),
    [
        (sympy.tanh(z) - 1, {z: 30}, {}, -1),                 # -2e-26: needs 128 bits
        (sympy.tanh(z) - 1, {z: 1000}, {}, -1),               # ≈ -2**-2885: needs 4096 bits
        (sympy.tanh(z) - 1, {z: 1000}, {"max_prec": 2048}, None),
        (sympy.sin(z) ** 2 + sympy.cos(z) ** 2 - 1, {z: R(3, 7)}, {}, None),  # zero, not exact
        (sympy.erf(z) + sympy.erfc(z) - 1, {z: R(4, 3)}, {}, None),
        (z**2 - 4, {z: 2}, {}, 0),                            # exactly zero
        (z**2 - 4, {z: R(5, 2)}, {}, 1),
        (sympy.log(z), {z: -1}, {}, None),                    # undefined
        (1 / (z - 1), {z: 1}, {}, None),
        (sympy.zeta(z), {z: 2}, {}, None),                    # unsupported (gamma is supported now)
        (sympy.Piecewise((1, z > 0)), {z: -1}, {}, None),
        (sympy.Add(sympy.Float(0.1), -R(1, 10), evaluate=False), {}, {}, 1),  # binary 0.1 > 1/10
        # decided only where log(1 + e^-10000) > 0 is visible without log1p: 14427 bits
        (TINY_LOG, {z: 0}, {}, None),
        (TINY_LOG, {z: 0}, {"max_prec": 16384}, 1),
    ],
)
def test_recheck_sign(expr, point, kwargs, sign):
    assert recheck_sign(expr, point, **kwargs) == sign


def test_certify_sees_what_the_recheck_needs_more_bits_for():
    cert = certify_nonzero(TINY_LOG, {z: 0})
    assert cert is not None and cert.exact and cert.sign == 1


def test_recheck_reports_caller_mistakes():
    with pytest.raises(EvaluationError, match="no value given for a"):
        recheck_sign(z + a, {z: 1})
    with pytest.raises(EvaluationError, match="not an exact rational"):
        recheck_sign(z, {z: sympy.sqrt(2)})


def test_a_certificate_never_comes_from_an_enclosure_that_does_not_decide():
    # 1 - tanh(30) ≈ 2**-85.6: a 64-bit enclosure touches 0, so the first certificate is at 128
    cert = certify_nonzero(sympy.tanh(z) - 1, {z: 30})
    assert cert.prec == 128 and float(cert.upper) < 0
    assert certify_nonzero(sympy.tanh(z) - 1, {z: 30}, max_prec=64) is None
