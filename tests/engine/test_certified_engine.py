"""The engine never takes SymPy's word on a number (issue 26, items 2 and 3, engine and paper layers).

Tiny constants c are built from four cancellations at x = e^-k (k from 20 to 2000), with both
signs:

    log3:  log(1 + x) − x + x²/2 ≈ +x³/3        logq:  log(1 + x) − log(1 + 2x) ≈ −x
    exp2:  e^x − 1 − x ≈ +x²/2                  sqrt2: √(1 + x) − 1 − x/2 ≈ −x²/8

SymPy misjudges them: ``simplify`` calls logq zero, the assumptions call −log3 positive. Each is
placed where a misjudged sign or a misread zero would give a wrong verdict — an offset that makes
a piece of the residual a non-zero constant, a coefficient, a custom form, a group probe, the
homogeneity degree — and the test asserts the answer is never wrong: ``holds``/``broken``/a group
member/``complete`` must agree with the truth, computed here by mpmath at high precision from the
construction (never by SymPy); ``inconclusive`` and a partial group are acceptable. Every
``broken`` witness is re-evaluated by mpmath at a precision far above |c|.

Before the change (at commit b647eb4 for these files) these failed with a false ``holds``: the
offset, the coefficient (α = −1) and the custom form with c = logq·(cosh − 1) at e^-1500 (SymPy's
``simplify`` reads it 0, the 2048-bit witness search cannot resolve it), the custom form with
c = ±logq and ±logq·(cosh − 1) at e^-700 and e^-1500, the zero prover on ±logq and
±logq·(cosh − 1), the audit of the offset activation (false ``holds`` rows) — 26 cases in all. The
zero prover read ``simplify(c) == 0`` on a constant piece. The group and degree probes pass before
and after: with these constants no misread proposal reached a group or degree answer there (the
checks added to the group arguments and the degree's name are guards, tested by them).
"""
from __future__ import annotations

import math

import mpmath
import pytest
import sympy
from sympy import S

import symcheck as sc
from symcheck.core.budget import Budget
from symcheck.core.verdict import Verdict
from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.group.facts import exact_form
from symcheck.engine.homogeneity import Pinned, homogeneity_degree
from symcheck.engine.zero import constant_sign, decide_zero, opaque_constants, prove_identically_zero
from symcheck.exact.regions import Region
from symcheck.language.activations import Activation
from symcheck.language.symbols import Z

# --- the constants, and their truth by mpmath -------------------------------------------------

#: family -> (text with X for x, mpmath f, order of f(x) in x)
FAMILIES = {
    "log3": ("(log(1 + X) - X + X**2/2)", lambda x: mpmath.log(1 + x) - x + x**2 / 2, 3),
    "logq": ("(log(1 + X) - log(1 + 2*X))", lambda x: mpmath.log(1 + x) - mpmath.log(1 + 2 * x), 1),
    "exp2": ("(exp(X) - 1 - X)", lambda x: mpmath.exp(x) - 1 - x, 2),
    "sqrt2": ("(sqrt(1 + X) - 1 - X/2)", lambda x: mpmath.sqrt(1 + x) - 1 - x / 2, 2),
    # a product: SymPy's simplify reads the first factor as 0, and the second is below what the
    # witness search certifies (2048 bits) at k = 1500 — only an exact proof may say 0
    "logq*cosh": ("((log(1 + X) - log(1 + 2*X))*(cosh(X) - 1))",
                  lambda x: (mpmath.log(1 + x) - mpmath.log(1 + 2 * x)) * (mpmath.cosh(x) - 1), 3),
}
KS = (20, 45, 300, 700, 1500, 2000)


class Tiny:
    """c = ±f(e^-k): its text for the parser, and its value by mpmath."""

    def __init__(self, family: str, k: int, negate: bool) -> None:
        pattern, self._f, order = FAMILIES[family]
        body = pattern.replace("X", f"exp(-{k})")
        self.text = f"(-{body})" if negate else body
        self.k, self.negate, self.label = k, negate, f"{'-' if negate else ''}{family}(e^-{k})"
        self.log10 = -order * k / math.log(10)  # about log10 |c|
        self.dps = int(-2 * self.log10) + 60

    def mp(self, dps: int | None = None) -> mpmath.mpf:
        with mpmath.workdps(dps or self.dps):
            value = self._f(mpmath.exp(-self.k))
            return +(-value if self.negate else value)

    @property
    def sign(self) -> int:
        low, high = self.mp(), self.mp(2 * self.dps)
        assert low != 0 and (low > 0) == (high > 0), self.label
        return 1 if high > 0 else -1

    def __repr__(self) -> str:
        return self.label


CONSTANTS = [Tiny(f, k, neg) for f in FAMILIES for k in KS for neg in (False, True)]
#: a cheaper sample for the slower positions
SOME = [c for c in CONSTANTS if c.k in (45, 700, 1500)]


def _rational(value) -> mpmath.mpf:
    q = sympy.Rational(value)
    return mpmath.mpf(int(q.p)) / int(q.q)


def _really_broken(residual, witness: dict, c: Tiny) -> bool:
    """mpmath, at two precisions far above |c|, says the statement's two sides differ there."""
    digits = sum(len(str(sympy.Rational(v).p)) + len(str(sympy.Rational(v).q)) for v in witness.values())
    values = []
    for dps in (c.dps + 4 * digits + 60, 2 * (c.dps + 4 * digits + 60)):
        with mpmath.workdps(dps):
            values.append(residual(c.mp(dps), {k: _rational(v) for k, v in witness.items()}))
    low, high = values
    with mpmath.workdps(2 * c.dps):
        return high != 0 and (low > 0) == (high > 0) and abs(high) > mpmath.mpf(10) ** (-(c.dps // 2) - 10)


def _not_wrong(result, truth: str, residual, c: Tiny) -> None:
    verdict = result.verdict.value
    assert verdict in (truth, "inconclusive"), f"{c}: {verdict}, the truth is {truth}\n{result}"
    if verdict == "broken":
        assert _really_broken(residual, dict(result.witness), c), f"{c}: witness {result.witness} does not break"


# --- an offset: a piece of the residual is the non-zero constant 2c -----------------------------

@pytest.mark.parametrize("c", CONSTANTS, ids=repr)
def test_an_offset_is_never_read_as_zero(c: Tiny) -> None:
    """σ = z at 0, z + c elsewhere: σ(−z) = −σ(z) fails everywhere but 0 (σ(1) + σ(−1) = 2c ≠ 0)."""
    result = sc.check_inverse_scaling(f"Piecewise((z, Eq(z, 0)), (z + {c.text}, True))", "minus-one")

    def residual(cv, w):  # gated, α = −1: b·σ(αa)/α − b·σ(a)
        sigma = lambda z: z if z == 0 else z + cv  # noqa: E731
        a, b, alpha = w["a"], w["b"], w["alpha"]
        return b * sigma(alpha * a) / alpha - b * sigma(a)

    _not_wrong(result, "broken", residual, c)


def test_the_cosh_offset_of_the_brief_is_not_proved() -> None:
    """σ(1) + σ(−1) = 2(cosh(e^-1500) − 1) ≈ e^-3000 ≠ 0."""
    result = sc.check_inverse_scaling("Piecewise((z, Eq(z, 0)), (z + cosh(exp(-1500)) - 1, True))", "minus-one")
    assert result.verdict is not Verdict.HOLDS
    if result.verdict is Verdict.BROKEN:
        w = {k: _rational(v) for k, v in result.witness.items()}
        with mpmath.workdps(3200):
            sigma = lambda z: z if z == 0 else z + mpmath.cosh(mpmath.exp(-1500)) - 1  # noqa: E731
            value = w["b"] * sigma(w["alpha"] * w["a"]) / w["alpha"] - w["b"] * sigma(w["a"])
            assert abs(value) > mpmath.mpf(10) ** -1400


@pytest.mark.parametrize("c", SOME, ids=repr)
def test_a_coefficient_at_minus_one_is_never_read_as_zero(c: Tiny) -> None:
    """σ = z + c·z² is not odd: σ(1) + σ(−1) = 2c ≠ 0."""
    result = sc.check_inverse_scaling(f"z + {c.text}*z**2", "minus-one")

    def residual(cv, w):
        sigma = lambda z: z + cv * z**2  # noqa: E731
        a, b, alpha = w["a"], w["b"], w["alpha"]
        return b * sigma(alpha * a) / alpha - b * sigma(a)

    _not_wrong(result, "broken", residual, c)


# --- a coefficient, and a custom form -----------------------------------------------------------

@pytest.mark.parametrize("c", SOME, ids=repr)
@pytest.mark.slow
def test_a_coefficient_is_never_read_as_zero(c: Tiny) -> None:
    """σ = z + c·z² is not linear: exchange on the gated unit is broken."""
    result = sc.check_exchange(f"z + {c.text}*z**2")

    def residual(cv, w):  # gated exchange: σ(b)·a − σ(a)·b
        sigma = lambda z: z + cv * z**2  # noqa: E731
        return sigma(w["b"]) * w["a"] - sigma(w["a"]) * w["b"]

    _not_wrong(result, "broken", residual, c)


@pytest.mark.parametrize("c", SOME, ids=repr)
@pytest.mark.slow
def test_a_constant_in_a_custom_form_is_never_read_as_zero(c: Tiny) -> None:
    """u(a, b) = σ(a)·b + c·a with σ = z: exchange changes u by c·(b − a) ≠ 0."""
    result = sc.check_exchange("z", form=f"sigma(a)*b + {c.text}*a")

    def residual(cv, w):
        u = lambda a, b: a * b + cv * a  # noqa: E731
        return u(w["b"], w["a"]) - u(w["a"], w["b"])

    _not_wrong(result, "broken", residual, c)


# --- the zero prover itself ---------------------------------------------------------------------

@pytest.mark.parametrize("c", [c for c in CONSTANTS if c.k in (45, 1500)], ids=repr)
def test_the_zero_prover_never_proves_a_tiny_multiple(c: Tiny) -> None:
    value = sc.activation(c.text).expr  # the parser's tree of the constant
    budget = Budget(20)
    for expr in (value, Z * value, Z + value - Z):
        assert prove_identically_zero(expr, Z, Region(S.Zero, S.Infinity), budget) is None, (c, expr)
    decision = decide_zero(Z * value, Z, Budget(20))
    assert decision.verdict is not Verdict.HOLDS, c


def test_opaque_constants_keep_a_certified_sign_and_prove_what_exact_algebra_proves() -> None:
    x = sympy.exp(-1500)
    d = sympy.log(1 + x) - sympy.log(1 + 2 * x)  # SymPy's simplify calls it 0
    t = sympy.Symbol("t", positive=True)
    opaque, shown = opaque_constants(t * d + t)
    (k,) = opaque.free_symbols - {t}
    assert k.is_negative and shown
    assert constant_sign(d) == -1
    # cos²1 + sin²1 is proposed as 1 and proved 1: the constant is not opaque
    same, shown = opaque_constants(t * (sympy.cos(1) ** 2 + sympy.sin(1) ** 2))
    assert same == t and not shown
    assert prove_identically_zero(Z * (sympy.sin(Z) ** 2 + sympy.cos(Z) ** 2)
                                  - Z * (sympy.cos(1) ** 2 + sympy.sin(1) ** 2),
                                  Z, Region(S.Zero, S.Infinity), Budget(20))
    # a proposal that is not proved equal is not used
    assert exact_form(d) == d and exact_form(1 + d) == 1 + d
    assert exact_form(sympy.cos(1) ** 2 + sympy.sin(1) ** 2) == 1


# --- group probes -------------------------------------------------------------------------------

@pytest.mark.parametrize("c", SOME, ids=repr)
@pytest.mark.slow
def test_the_group_of_z_plus_c_z2_is_only_the_identity(c: Tiny) -> None:
    """σ = z + c·z² with c ≠ 0: σ(a·z) = c'·σ(z) forces a = c' = 1 (the z and z² coefficients)."""
    group = symmetry_group(f"z + {c.text}*z**2")
    for a in (2, -1, sympy.Rational(1, 2), -2):
        assert group.contains(a, a) is not True, (c, a, group)
        assert group.contains(a, a**2) is not True, (c, a, group)
    assert group.contains(1, 1) is True
    if group.complete:
        assert all(comp.aset.kind == "finite" and comp.aset.points == (1,) for comp in group.components), group
    for excluded in group.excluded:  # every refutation is a true one
        z0 = _rational(excluded.witness["z"])
        with mpmath.workdps(c.dps + 100):
            cv = c.mp(c.dps + 100)

            def sigma(z, cv=cv):
                return z + cv * z**2

            a0, c0 = _rational(excluded.a), _rational(excluded.c)
            assert sigma(a0 * z0) - c0 * sigma(z0) != 0


@pytest.mark.parametrize("c", [c for c in SOME if c.sign == -1], ids=repr)
@pytest.mark.slow
def test_the_group_with_abs_of_a_negative_constant_is_only_the_identity(c: Tiny) -> None:
    """σ = z + z²·(|c| − c) with c < 0: the z² coefficient is −2c > 0, so G = {(1, 1)}. The
    activation is built unevaluated (as the parser builds it), so SymPy cannot fold |c| to c."""
    value = sc.activation(c.text).expr
    with sympy.evaluate(False):
        expr = Z + Z**2 * (sympy.Abs(value) - value)
    group = symmetry_group(Activation("custom", expr, sympy.sstr(expr)))
    for a in (2, -1, sympy.Rational(1, 2)):
        assert group.contains(a, a) is not True, (c, a, group)
    if group.complete:
        assert all(comp.aset.kind == "finite" and comp.aset.points == (1,) for comp in group.components), group


# --- the homogeneity degree: a named p is exactly the pinned one ---------------------------------

@pytest.mark.parametrize("c", [c for c in SOME if c.label.startswith(("log3", "-log3", "exp2"))], ids=repr)
@pytest.mark.slow
def test_a_named_degree_is_the_pinned_one(c: Tiny) -> None:
    """σ = z²·e^(c·z): σ(2)/σ(1) = 4·e^c, so a pin at z = 1 is p = 2 + c/log 2, not 2."""
    value = sc.activation(c.text).expr
    expr = Z**2 * sympy.exp(value * Z)
    assert expr.has(sympy.exp)  # SymPy did not fold c away while building σ
    degree = homogeneity_degree(Activation("custom", expr, sympy.sstr(expr)))
    assert not isinstance(degree.argument, Pinned) or degree.p is None or degree.pin.z != 1 or \
        _named_is_exact(degree.p, c)
    if isinstance(degree.argument, Pinned) and degree.p is not None:
        z1 = _rational(degree.pin.z)
        with mpmath.workdps(c.dps + 60):
            cv = c.mp(c.dps + 60)
            sigma = lambda z: z**2 * mpmath.exp(cv * z)  # noqa: E731
            p = _mp_number(degree.p, c)
            assert abs(mpmath.mpf(2) ** p * sigma(z1) - sigma(2 * z1)) < mpmath.mpf(10) ** (-(c.dps + 20))


def _named_is_exact(p, c: Tiny) -> bool:
    with mpmath.workdps(c.dps + 60):
        truth = 2 + c.mp(c.dps + 60) / mpmath.log(2)
        return abs(_mp_number(p, c) - truth) < mpmath.mpf(10) ** (-(c.dps + 20))


def _mp_number(p: sympy.Expr, c: Tiny) -> mpmath.mpf:
    """p evaluated by mpmath from its tree (exp, log, sqrt, +, ×, powers), never by SymPy's evalf."""
    if p.is_Rational:
        return mpmath.mpf(int(p.p)) / int(p.q)
    if p is S.Exp1:
        return mpmath.e
    args = [_mp_number(a, c) for a in p.args]
    if isinstance(p, sympy.Add):
        return mpmath.fsum(args)
    if isinstance(p, sympy.Mul):
        return mpmath.fprod(args)
    if isinstance(p, sympy.Pow):
        return args[0] ** args[1]
    if isinstance(p, sympy.exp):
        return mpmath.exp(args[0])
    if isinstance(p, sympy.log):
        return mpmath.log(args[0])
    raise AssertionError(f"unexpected {p.func} in a named degree")


# --- an audit row -------------------------------------------------------------------------------

AUDITED = [Tiny("logq*cosh", 1500, False), Tiny("logq*cosh", 1500, True), Tiny("logq", 700, True)]


@pytest.mark.parametrize("c", AUDITED, ids=repr)
@pytest.mark.slow
def test_audit_rows_of_an_offset_activation_are_never_wrong(c: Tiny) -> None:
    """σ = z + c off 0 (σ(0) = 0) is not linear, not odd and not homogeneous of any degree, so
    every row that holds must hold for every σ; every broken row's witness is re-checked by
    mpmath on the row's own statement (σ(2)/σ(1) = (2 + c)/(1 + c) ≠ (4 + c)/(2 + c))."""
    from symcheck.language.unit_forms import form as unit_form
    from symcheck.paper.auditing import Ground, audit, statement

    sigma = sc.activation(f"Piecewise((z, Eq(z, 0)), (z + {c.text}, True))")
    for row in audit(sigma, timeout=5).rows:
        if row.verdict is Verdict.HOLDS:
            assert row.ground is Ground.EVERY_SIGMA, f"{c}: {row.form} {row.transformation} {row.domain} holds"
        if row.verdict is Verdict.BROKEN and row.witness:
            t = row_transformation(row)
            expr = statement(sigma, unit_form(row.unit), t)
            point = {sympy.Symbol(k) if k not in _SYMBOLS else _SYMBOLS[k]: sympy.Rational(v)
                     for k, v in row.witness.items()}
            with mpmath.workdps(2 * c.dps + 100):
                value = _mp_tree(expr, point)
                assert abs(value) > mpmath.mpf(10) ** (-(c.dps + 50)), f"{c}: {row.form} {row.transformation}"


def row_transformation(row):
    from symcheck.language.transformations import Transformation
    return Transformation(row.transformation, row.domain, degree=row.degree) if row.degree is not None \
        else Transformation(row.transformation, row.domain)


from symcheck.paper.auditing import SYMBOLS as _SYMBOLS  # noqa: E402


def _mp_tree(e: sympy.Basic, point: dict):
    """A SymPy tree evaluated by mpmath alone at a rational point (branches chosen by mpmath)."""
    if e in point:
        q = point[e]
        return mpmath.mpf(int(q.p)) / int(q.q)
    if e.is_Rational:
        return mpmath.mpf(int(e.p)) / int(e.q)
    if e is S.true or e is S.false:
        return bool(e)
    if isinstance(e, sympy.Piecewise):
        for value, cond in e.args:
            if _mp_tree(cond, point):
                return _mp_tree(value, point)
        raise AssertionError("no branch")
    if isinstance(e, sympy.Eq):
        return _mp_tree(e.lhs, point) == _mp_tree(e.rhs, point)
    if isinstance(e, sympy.Ne):
        return _mp_tree(e.lhs, point) != _mp_tree(e.rhs, point)
    args = [_mp_tree(a, point) for a in e.args]
    ops = {sympy.Add: mpmath.fsum, sympy.Mul: mpmath.fprod, sympy.Pow: lambda a: a[0] ** a[1],
           sympy.exp: lambda a: mpmath.exp(a[0]), sympy.log: lambda a: mpmath.log(a[0]),
           sympy.cosh: lambda a: mpmath.cosh(a[0]), sympy.StrictGreaterThan: lambda a: a[0] > a[1],
           sympy.StrictLessThan: lambda a: a[0] < a[1], sympy.GreaterThan: lambda a: a[0] >= a[1],
           sympy.LessThan: lambda a: a[0] <= a[1], sympy.And: all, sympy.Or: any,
           sympy.Not: lambda a: not a[0]}
    for kind, op in ops.items():
        if isinstance(e, kind):
            return op(args)
    raise AssertionError(f"unexpected {e.func}")
