"""The parser takes no sign of a number from SymPy (issue 26, "parse without evaluation").

SymPy evaluates Abs, Max/Min, sign, Heaviside, relations and Piecewise when it builds them and
signs the numbers in them with evalf at about two digits; cancellation fools it. Each constant
here is such a cancellation at x = e^-k (log(1+x) − x + x²/2, log(1+x) − log(1+2x), e^x − 1 − x,
√(1+x) − 1 − x/2, and their negations). The parsed expression is evaluated by a small mpmath
walker written here (never SymPy's evalf or its relations) and compared with the truth computed
in mpmath from the family's formula, at a precision chosen from the magnitude. A refusal
(ParseError / DomainError) is never wrong; a wrong value is, and for small k no refusal is
accepted either.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass

import mpmath
import pytest
import sympy

from symcheck import DomainError, ParseError, activation, check_exchange
from symcheck.language.parsing import parse_activation
from symcheck.language.symbols import Z

P = "(exp(-30) - log(1 + exp(-30)) - exp(-60)/2)"  # ≈ −2.73e-40; SymPy calls it positive
D = "(log(1 + exp(-30)) - log(1 + 2*exp(-30)))"    # ≈ −9.36e-14; SymPy calls −D zero


# --- the truth, in mpmath only --------------------------------------------------------------

#: family -> (text of f(x) with x written X, f in mpmath)
FAMILIES = {
    "log3": ("(log(1 + X) - X + X**2/2)", lambda x: mpmath.log1p(x) - x + x**2 / 2),
    "logq": ("(log(1 + X) - log(1 + 2*X))", lambda x: mpmath.log1p(x) - mpmath.log1p(2 * x)),
    "exp2": ("(exp(X) - 1 - X)", lambda x: mpmath.expm1(x) - x),
    "sqrt2": ("(sqrt(1 + X) - 1 - X/2)", lambda x: mpmath.sqrt(1 + x) - 1 - x / 2),
}
KS = (20, 30, 45, 80, 200, 700, 2000)
#: below this k, a refusal is a failure too: the sign is well within the certificate's reach
MUST_DECIDE_K = 200


def _dps(k: int) -> int:
    # every family is at least x³ in size: 3k nats, plus the 1 + x that holds x, plus guard digits
    return int(4 * k / math.log(10)) + 60


@dataclass(frozen=True)
class Constant:
    family: str
    k: int
    negated: bool

    @property
    def text(self) -> str:
        body = FAMILIES[self.family][0].replace("X", f"exp(-{self.k})")
        return f"(-{body})" if self.negated else body

    def value(self) -> mpmath.mpf:
        with mpmath.workdps(_dps(self.k)):
            v = FAMILIES[self.family][1](mpmath.exp(-self.k))
            return -v if self.negated else v

    @property
    def sign(self) -> int:
        with mpmath.workdps(_dps(self.k)):
            v = self.value()
            assert v != 0
            # confirmed at twice the precision
            with mpmath.workdps(2 * _dps(self.k)):
                w = FAMILIES[self.family][1](mpmath.exp(-self.k))
                w = -w if self.negated else w
            assert (v > 0) == (w > 0) and abs(v - w) <= abs(w) * mpmath.mpf(10) ** (-30)
            return 1 if v > 0 else -1

    def __str__(self) -> str:
        return f"{'-' if self.negated else ''}{self.family}(e^-{self.k})"


CONSTANTS = [Constant(f, k, n) for f in FAMILIES for k in KS for n in (False, True)]


def _mp(expr: sympy.Basic, z: mpmath.mpf):
    """Evaluate a parsed expression in mpmath, choosing branches by mpmath comparisons."""
    if expr is sympy.true or expr is sympy.false:
        return bool(expr)
    if isinstance(expr, sympy.Symbol):
        return z
    if expr.is_Integer:
        return mpmath.mpf(int(expr))
    if expr.is_Rational:
        return mpmath.mpf(int(expr.p)) / int(expr.q)
    if expr is sympy.pi:
        return +mpmath.pi
    if expr is sympy.E:
        return mpmath.e
    args = expr.args
    if isinstance(expr, sympy.Piecewise):
        for value, condition in args:
            if _mp(condition, z):
                return _mp(value, z)
        raise AssertionError(f"no branch of {expr} applies")
    rel = {sympy.StrictGreaterThan: lambda a, b: a > b, sympy.GreaterThan: lambda a, b: a >= b,
           sympy.StrictLessThan: lambda a, b: a < b, sympy.LessThan: lambda a, b: a <= b,
           sympy.Equality: lambda a, b: a == b, sympy.Unequality: lambda a, b: a != b}
    if type(expr) in rel:
        return rel[type(expr)](_mp(args[0], z), _mp(args[1], z))
    if isinstance(expr, sympy.And):
        return all(_mp(a, z) for a in args)
    if isinstance(expr, sympy.Or):
        return any(_mp(a, z) for a in args)
    if isinstance(expr, sympy.Not):
        return not _mp(args[0], z)
    values = [_mp(a, z) for a in args]
    if isinstance(expr, sympy.Add):
        return mpmath.fsum(values)
    if isinstance(expr, sympy.Mul):
        return mpmath.fprod(values)
    if isinstance(expr, sympy.Pow):
        return values[0] ** values[1]
    unary = {sympy.exp: mpmath.exp, sympy.log: mpmath.log, sympy.Abs: abs, sympy.sign: mpmath.sign,
             sympy.tanh: mpmath.tanh, sympy.sin: mpmath.sin, sympy.cos: mpmath.cos, sympy.atan: mpmath.atan,
             sympy.erf: mpmath.erf, sympy.erfc: mpmath.erfc, sympy.sinh: mpmath.sinh, sympy.asinh: mpmath.asinh}
    if type(expr) in unary:
        return unary[type(expr)](values[0])
    if isinstance(expr, sympy.Heaviside):
        return mpmath.mpf(1) if values[0] > 0 else mpmath.mpf(0) if values[0] < 0 else values[1]
    if isinstance(expr, sympy.Max):
        return max(values)
    if isinstance(expr, sympy.Min):
        return min(values)
    raise AssertionError(f"no mpmath evaluation for {type(expr).__name__}")


# --- positions: (text with C for the constant, truth of σ(z) from c and its sign) -----------------

POSITIONS = {
    "abs": ("z*Abs(C)", lambda c, s, z: z * abs(c)),
    "abs-sum": ("z + z**2*(Abs(C) - C)", lambda c, s, z: z + z**2 * (abs(c) - c)),
    "max": ("Max(z, z + C)", lambda c, s, z: z + max(c, 0)),
    "min": ("Min(z, z + C)", lambda c, s, z: z + min(c, 0)),
    "max-const": ("z*Max(C, 0)", lambda c, s, z: z * max(c, 0)),
    "min-three": ("Min(z + 1, z + C, z)", lambda c, s, z: z + min(c, 0)),
    "sign": ("z*sign(C)", lambda c, s, z: z * s),
    "heaviside": ("z*Heaviside(C)", lambda c, s, z: z * (1 if s > 0 else 0)),
    "gt": ("Piecewise((z, C > 0), (z**2, True))", lambda c, s, z: z if s > 0 else z**2),
    "le": ("Piecewise((z, C <= 0), (z**2, True))", lambda c, s, z: z if s < 0 else z**2),
    "shifted": ("Piecewise((z, z + C > z), (z**2, True))", lambda c, s, z: z if s > 0 else z**2),
    "chain": ("Piecewise((z, (0 < C) & (z > -1)), (z**2, True))",
              lambda c, s, z: z if s > 0 and z > -1 else z**2),
    "not": ("Piecewise((z, Not(C < 0)), (z**2, True))", lambda c, s, z: z if s > 0 else z**2),
    "eq": ("Piecewise((z, Eq(C, 0)), (z**2, True))", lambda c, s, z: z**2),
    "ne": ("Piecewise((z, Ne(C, 0)), (z**2, True))", lambda c, s, z: z),
    "relu": ("z*relu(C)", lambda c, s, z: z * max(c, 0)),
}
POINTS = (mpmath.mpf(2), mpmath.mpf(-3) / 7, mpmath.mpf(0))


def _compare(position: str, constant: Constant) -> str | None:
    """None when the parsed σ is right (or refused, for large k); else what went wrong."""
    template, truth = POSITIONS[position]
    text = template.replace("C", constant.text)
    try:
        expr = parse_activation(text, functions=_catalogue())
    except (ParseError, DomainError) as err:
        return f"{constant}: refused ({err})" if constant.k < MUST_DECIDE_K else None
    with mpmath.workdps(_dps(constant.k)):
        c, s = constant.value(), constant.sign
        for z in POINTS:
            want, got = truth(c, s, z), _mp(expr, z)
            if abs(got - want) > abs(want) * mpmath.mpf(10) ** -30 + mpmath.mpf(10) ** (-_dps(constant.k) + 20):
                return f"{constant}: σ({mpmath.nstr(z, 5)}) = {mpmath.nstr(got, 8)}, truth {mpmath.nstr(want, 8)} " \
                       f"(parsed {sympy.sstr(expr)[:120]})"
    return None


def _catalogue():
    from symcheck.language.activations import catalogue_functions
    return catalogue_functions()


@pytest.mark.parametrize("position", sorted(POSITIONS))
@pytest.mark.slow
def test_generated_constants_in_every_position(position: str) -> None:
    wrong = [m for constant in CONSTANTS if (m := _compare(position, constant)) is not None]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("constant", [c for c in CONSTANTS if c.k <= 80], ids=str)
def test_log_and_sqrt_of_a_constant_follow_its_certified_sign(constant: Constant) -> None:
    """log(c) and sqrt(c) are defined exactly when c > 0 (c ≥ 0): SymPy once wrote log(c) as
    log(−c) + iπ for a positive c it thought negative, and the definedness check refused it."""
    for template, value in (("z*log(C)", mpmath.log), ("z*sqrt(C)", mpmath.sqrt)):
        text = template.replace("C", constant.text)
        if constant.sign < 0:
            with pytest.raises(DomainError):
                parse_activation(text)
            continue
        expr = parse_activation(text)
        with mpmath.workdps(_dps(constant.k)):
            want, got = value(constant.value()), _mp(expr, mpmath.mpf(1))
            assert abs(got - want) <= abs(want) * mpmath.mpf(10) ** -30, (text, expr)


def test_the_known_gap_log_of_a_positive_cancellation_is_defined() -> None:
    text = "log(log(1 + exp(-2000)) - exp(-2000) + exp(-4000)/2)"
    expr = parse_activation(text)
    assert not expr.has(sympy.I)
    with mpmath.workdps(4000):
        x = mpmath.exp(-2000)
        assert abs(_mp(expr, mpmath.mpf(0)) - mpmath.log(mpmath.log1p(x) - x + x**2 / 2)) < 1e-20


# --- the examples, end to end --------------------------------------------------------------

def test_max_of_z_and_z_plus_a_negative_constant_is_z() -> None:
    act = activation(f"Max(z, z + {P})")
    assert act.expr == Z
    assert act.parsed == "z"
    result = check_exchange(act, timeout=60)
    assert result.verdict.value in ("holds", "inconclusive"), result


def test_abs_of_a_negative_constant_is_its_negation() -> None:
    act = activation(f"z + z**2*(Abs({P}) - {P})")
    with mpmath.workdps(120):
        x = mpmath.exp(-30)
        p = x - mpmath.log1p(x) - x**2 / 2
        assert p < 0
        for z in POINTS:
            assert abs(_mp(act.expr, z) - (z + 2 * abs(p) * z**2)) <= abs(p) * mpmath.mpf(10) ** -30 * (1 + z**2)
    result = check_exchange(act, timeout=60)
    assert result.verdict.value in ("broken", "inconclusive"), result
    if result.verdict.value == "broken":
        assert all(sympy.sympify(v).is_Rational for v in result.witness.values()), result.witness


def test_the_cli_json_shows_the_activation_as_parsed(capsys) -> None:
    from symcheck.cli import main
    try:
        main(["exchange", "--act", f"Max(z, z + {P})", "--json"])
    except SystemExit:
        pass
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] in ("holds", "inconclusive"), data["verdict"]
    assert data.get("parsed", "z") == "z"


def test_a_cut_at_a_tiny_offset_is_kept() -> None:
    """z + D > 0 with D ≈ −9.4e-14: the condition stays as written, its cut at −D for the split."""
    expr = parse_activation(f"Piecewise((z, z <= 0), (z, z + {D} > 0), (z + z**2, True))")
    with mpmath.workdps(60):
        d = mpmath.log1p(mpmath.exp(-30)) - mpmath.log1p(2 * mpmath.exp(-30))
        z = -d / 2  # inside (0, −D): the third branch
        assert abs(_mp(expr, z) - (z + z**2)) < mpmath.mpf(10) ** -50


@pytest.mark.parametrize("text", [
    f"Max(z**2, -pi*{P})",           # SymPy drops the constant: z**2 + pi*P ≥ 0 by evalf (false near 0)
    f"Abs(z**2 + pi*{P})",           # SymPy: the argument is nonnegative (false near 0)
    f"Piecewise((1, z**2 + pi*{P} > 0), (0, True))",  # SymPy: the condition is True (false at 0)
])
@pytest.mark.slow
def test_a_wrong_sympy_decision_with_a_variable_is_kept_as_written(text: str) -> None:
    # no value holds for every real z (each changes near z = 0): the node stays as written,
    # neither SymPy's wrong decision nor a refusal
    expr = parse_activation(text)
    with mpmath.workdps(120):
        x = mpmath.exp(-30)
        p = x - mpmath.log1p(x) - x**2 / 2
        z = mpmath.mpf(0)
        truth = {0: max(z**2, -mpmath.pi * p), 1: abs(z**2 + mpmath.pi * p), 2: 1 if z**2 + mpmath.pi * p > 0 else 0}
        index = [t for t in truth if ("Max", "Abs", "Piecewise")[t] in text][0]
        assert abs(_mp(expr, z) - truth[index]) <= abs(p), (text, expr)


def test_rational_only_expressions_keep_sympys_forms() -> None:
    assert parse_activation("Max(z, z/5)") == sympy.Max(Z, Z / 5)
    assert parse_activation("Piecewise((z, z > 1), (0, True))") == sympy.Piecewise((Z, Z > 1), (0, True))
    assert parse_activation("Abs(pi*z)") == sympy.pi * sympy.Abs(Z)  # pi's sign is certified


#: log(1 + 2e^-30) − log(1 + e^-30) ≈ 9.4e-14 > 0, which SymPy calls zero (is_zero is True)
M = "(log(1 + 2*exp(-30)) - log(1 + exp(-30)))"


@pytest.mark.parametrize(("template", "truth"), [
    ("z + sin(M*z)", lambda m, z: z + mpmath.sin(m * z)),       # SymPy: sin(0) = 0
    ("z*exp(M*z)", lambda m, z: z * mpmath.exp(m * z)),         # Mul rebuilds exp as E**(M z): E**0 = 1
    ("z*exp(tanh(M))", lambda m, z: z * mpmath.exp(mpmath.tanh(m))),
    ("z*atan(M) + z", lambda m, z: z * mpmath.atan(m) + z),
    ("z*erfc(M)", lambda m, z: z * mpmath.erfc(m)),
    ("z + tanh(M*z + M)", lambda m, z: z + mpmath.tanh(m * z + m)),
    ("z + Abs(z*M)", lambda m, z: z + abs(z * m)),              # SymPy: Abs(0) = 0
])
def test_a_number_sympy_calls_zero_is_not_dropped(template: str, truth) -> None:
    """SymPy's construction asks is_zero of arguments and exponents; a wrong yes drops the number.
    Each is built right (kept as written) or refused: never the function without it."""
    text = template.replace("M", M)
    try:
        expr = parse_activation(text)
    except (ParseError, DomainError):
        return
    with mpmath.workdps(80):
        m = mpmath.log1p(2 * mpmath.exp(-30)) - mpmath.log1p(mpmath.exp(-30))
        for z in POINTS:
            want = truth(m, z)
            assert abs(_mp(expr, z) - want) <= mpmath.mpf(10) ** -60, (text, sympy.sstr(expr))


def test_each_comparison_of_max_arguments_is_its_own_proof() -> None:
    # z dominates z + P·z² (P < 0) but not 1 − z²: the value is no single argument, and the
    # parser must not reuse one pair's proof for another (a cache keyed by one argument would
    # return z, which is 0 at z = 0 where the true maximum is 1)
    expr = parse_activation(f"Max(z, z + {P}*z**2, 1 - z**2)")
    with mpmath.workdps(60):
        for z, true in ((0, 1), (2, 2), (-2, -2), (sympy.Rational(1, 2), sympy.Rational(3, 4))):
            got = _mp(expr, mpmath.mpf(z.p) / z.q if isinstance(z, sympy.Rational) else mpmath.mpf(z))
            want = mpmath.mpf(sympy.Rational(true).p) / sympy.Rational(true).q
            assert abs(got - want) < mpmath.mpf(10) ** -30, (z, expr)
