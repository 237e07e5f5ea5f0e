"""User-defined unit forms: parsing, safety, definedness, verdicts, and the CLI end to end."""
from __future__ import annotations

import json

import pytest
import sympy

import symcheck as sc
from symcheck.engine.symmetries import check
from symcheck.language.symbols import SIGMA, A, B, Z
from symcheck.language.transformations import Transformation, domain
from symcheck.language.unit_forms import form

from support import invoke_cli

EXCHANGE = Transformation("exchange")
POSITIVE = Transformation("inverse-scaling", domain("positive"))

# The units written out by hand here, not through symcheck.language.unit_forms: the re-check below must not
# share code with what it checks.
UNITS = {
    "gated": lambda s, a, b: s(a) * b,
    "rank1": lambda s, a, b: s(a * b),
    "sigma(a)*b": lambda s, a, b: s(a) * b,
    "a*sigma(b)": lambda s, a, b: a * s(b),
    "sigma(a)*b + sigma(b)*a": lambda s, a, b: s(a) * b + s(b) * a,
    "sigma(a)*sigma(b)": lambda s, a, b: s(a) * s(b),
    "sigma(a*b)": lambda s, a, b: s(a * b),
    "sigma(b)": lambda s, a, b: s(b),
}


def independent_difference(result: sc.CheckResult, unit_text: str, degree: int = 1) -> sympy.Float:
    """left − right of the statement at the witness, rebuilt by hand and evaluated at 50 digits."""
    expr = sc.activation(result.activation).expr

    def s(u):
        return expr.subs(Z, u)

    unit = UNITS[unit_text]
    w = {k: sympy.Rational(v) for k, v in result.witness.items()}
    a, b = w["a"], w["b"]
    lhs = {
        "exchange": lambda: unit(s, b, a),
        "inverse-scaling": lambda: unit(s, w.get("alpha", 0) * a, b / w.get("alpha", 1)),
        "key-value-rescaling": lambda: unit(s, a, w.get("beta", 0) * b) / w.get("beta", 1),
        "query-value-rescaling": lambda: unit(s, w.get("alpha", 0) * a, b) / w.get("alpha", 1) ** degree,
    }[result.symmetry]()
    return (lhs - unit(s, a, b)).evalf(50)


def assert_certified_broken(result: sc.CheckResult, unit_text: str, degree: int = 1) -> None:
    assert result.verdict.value == "broken", str(result)
    value = independent_difference(result, unit_text, degree)
    assert value.is_number and value != 0 and abs(value) > sympy.Float("1e-45"), value
    titles = [s.title for s in result.steps]
    assert {"Witness", "Left side", "Right side", "Certificate", "Re-check"} <= set(titles)
    assert result.steps[titles.index("Certificate")].status == "certified"


# ------------------------------------------------------------------------------- parsing


@pytest.mark.parametrize("text, built", [
    ("sigma(a)*b + sigma(b)*a", SIGMA(A) * B + SIGMA(B) * A),
    ("a*sigma(b)", A * SIGMA(B)),
    ("sigma(a)*sigma(b)", SIGMA(A) * SIGMA(B)),
    ("sigma(a*b)", SIGMA(A * B)),
    ("σ(a)*b", SIGMA(A) * B),
    ("a*b", A * B),                                   # no σ at all: allowed, verdicts then do not depend on σ
    ("exp(sigma(a))*tanh(b)", sympy.exp(SIGMA(A)) * sympy.tanh(B)),
    ("sigma(sigma(a))*b", SIGMA(SIGMA(A)) * B),
])
def test_custom_forms_parse_to_sigma_opaque(text: str, built: sympy.Expr) -> None:
    unit = form(text)
    assert unit.custom and unit.expr == built and unit.name == " ".join(text.split())
    assert unit(SIGMA, A, B) == built


def test_build_substitutes_sigma_and_the_arguments_simultaneously() -> None:
    unit = form("sigma(a)*b + a")
    assert unit(lambda u: u**2, B, A) == B**2 * A + B      # a -> b and b -> a at once
    assert unit(sc.activation("relu"), sympy.Integer(-3), sympy.Integer(2)) == -3


@pytest.mark.parametrize("text, message", [
    ("sigma.__class__", "attribute access is not allowed: '__class__'"),
    ("sigma(a).__class__.__mro__", "attribute access is not allowed"),
    ("__import__('os').system('true')", "name '__import__' is not allowed"),
    ("c*sigma(a)", "unknown variable 'c'; expected one of: a, b"),
    ("sigma(a)*z", "unknown variable 'z'"),
    ("sigma(a, b)", "sigma() takes 1 argument, got 2"),
    ("sigma()", "sigma() takes 1 argument, got 0"),
    ("sigma(a)**10**10", "exponent 10000000000 is not allowed"),
    ("sigma(a)**1000", "exponent 1000 is not allowed"),
    ("9**9**9*sigma(a)", "is not allowed"),
    ("relu(a)*b", "unknown function 'relu'"),
    ("sigma(a) *", "syntax error"),
    ("lambda: 1", "lambda expressions are not allowed"),
    ("(" * 40 + "a" + ")" * 40, "nested too deeply"),
    ("a" + "+a" * 500, "too"),
])
def test_hostile_forms_give_one_line_parse_errors(text: str, message: str) -> None:
    with pytest.raises(sc.ParseError) as err:
        form(text)
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("text, message", [
    ("sigma(a)/b", "division by b is undefined at b = 0"),
    ("log(a)*sigma(b)", "log(a) is not defined on all of R: its argument is not positive at a = 0"),
    ("sigma(a)/(a*b + 1)", "division by (a*b + 1) is not defined on all of R²: it fails at a = 1, b = -1"),
    ("sqrt(a*b)", "sqrt(a*b) is not defined on all of R²: it fails at a = 1, b = -1"),
])
def test_forms_undefined_somewhere_on_the_plane_are_rejected(text: str, message: str) -> None:
    with pytest.raises(sc.DomainError) as err:
        form(text)
    assert str(err.value) == message


def test_sigma_dependent_definedness_is_checked_once_sigma_is_known() -> None:
    unit = form("sqrt(sigma(a))*b")           # fine for σ ≥ 0 ...
    assert check("relu2", EXCHANGE, unit).verdict.value == "broken"
    with pytest.raises(sc.DomainError, match=r"sqrt\(sigma\(a\)\) is not defined on all of R: "
                                             r"its argument is negative at a = -1"):
        check("silu", EXCHANGE, unit)          # ... not for silu
    with pytest.raises(sc.DomainError, match=r"division by sigma\(b\) is undefined at b = 0"):
        check("relu", EXCHANGE, "sigma(a)/sigma(b)")
    assert check("sigmoid", EXCHANGE, "sigma(a)/sigma(b)").verdict.value == "broken"


def test_a_misspelt_form_name_is_not_read_as_a_variable() -> None:
    with pytest.raises(sc.UnknownNameError, match="did you mean 'rank1'"):
        form("rank")
    with pytest.raises(sc.UnknownNameError, match="an expression in a, b and sigma"):
        form("sigma")


# ------------------------------------------------------------------------------- verdicts


@pytest.mark.parametrize("act", ["relu", "silu", "z + 1", "Piecewise((z**2, z > 1), (sin(z), True))"])
def test_symmetric_sum_exchange_holds_for_every_sigma(act: str) -> None:
    result = check(act, EXCHANGE, "sigma(a)*b + sigma(b)*a")
    assert result.verdict.value == "holds" and result.steps[-1].title == "Proof", str(result)


def test_a_sigma_b_exchange_broken_for_silu_holds_for_identity() -> None:
    broken = check("silu", EXCHANGE, "a*sigma(b)")
    assert_certified_broken(broken, "a*sigma(b)")
    assert check("identity", EXCHANGE, "a*sigma(b)").verdict.value == "holds"
    assert check("z*(sin(z)**2 + cos(z)**2)", EXCHANGE, "a*sigma(b)").verdict.value == "holds"


def test_product_form_exchange_holds_and_scaling_needs_the_case_split() -> None:
    assert check("silu", EXCHANGE, "sigma(a)*sigma(b)").verdict.value == "holds"
    result = check("relu", POSITIVE, "sigma(a)*sigma(b)")
    assert result.verdict.value == "holds", str(result)
    cases = [s for s in result.steps if s.title.startswith("Case")]
    assert len(cases) > 1 and all(c.status == "verified" for c in cases)
    assert "Case a > 0, b > 0, α > 0" in [c.title for c in cases]
    assert result.steps[-1].title == "Cover" and result.steps[-1].status == "verified"
    assert_certified_broken(check("silu", POSITIVE, "sigma(a)*sigma(b)"), "sigma(a)*sigma(b)")


@pytest.mark.parametrize("act", ["relu", "silu", "relu2", "hardtanh", "tanh"])
@pytest.mark.parametrize("transformation", [
    Transformation("exchange"),
    Transformation("inverse-scaling", domain("any")),
    Transformation("key-value-rescaling", domain("positive")),
    Transformation("key-value-rescaling", domain("-1")),
    Transformation("query-value-rescaling", domain("positive")),
], ids=lambda t: f"{t.name}-{t.domain}")
@pytest.mark.slow
def test_sigma_ab_behaves_like_rank1(act: str, transformation: Transformation) -> None:
    custom = check(act, transformation, "sigma(a*b)")
    builtin = check(act, transformation, "rank1")
    assert custom.verdict == builtin.verdict, (str(custom), str(builtin))
    if custom.verdict.value == "broken":
        assert_certified_broken(custom, "sigma(a*b)")


@pytest.mark.parametrize("act", ["relu", "leaky_relu", "relu2", "abs(z)", "tanh", "hardtanh", "softshrink",
                                 "silu", "z + 1", "z*(sin(z)**2 + cos(z)**2)", "z + z**3/10**15"])
@pytest.mark.parametrize("alpha", ["positive", "negative", "-1", "any", "2"])
@pytest.mark.slow
def test_custom_gated_agrees_with_the_theorem_path(act: str, alpha: str) -> None:
    """The same statement decided two ways: the one-variable reduction and the plane split."""
    t = Transformation("inverse-scaling", domain(alpha))
    custom, builtin = check(act, t, "sigma(a)*b"), check(act, t, "gated")
    assert custom.verdict == builtin.verdict, (str(custom), str(builtin))
    assert custom.verdict.value != "inconclusive"
    if custom.verdict.value == "broken":
        assert_certified_broken(custom, "sigma(a)*b")


def test_a_form_without_sigma_is_decided_without_it() -> None:
    assert check("silu", EXCHANGE, "a*b").verdict.value == "holds"
    result = check("silu", EXCHANGE, "a - b")
    assert result.verdict.value == "broken" and result.witness is not None


# ------------------------------------------------------------------------------- CLI


invoke = invoke_cli


@pytest.mark.parametrize("args, verdict, witness", [
    (("exchange", "--act", "relu", "--form", "a*sigma(b)"), "broken", {"a", "b"}),
    (("exchange", "--act", "silu", "--form", "sigma(a)*b + sigma(b)*a"), "holds", None),
    (("scaling", "--act", "relu", "--form", "sigma(a)*sigma(b)"), "holds", None),
    (("scaling", "--act", "silu", "--form", "sigma(a)*sigma(b)", "--alpha", "any"), "broken",
     {"a", "b", "alpha"}),
])
def test_cli_end_to_end(args, verdict: str, witness) -> None:
    code, out, err = invoke(*args, "--json", "--expect", verdict)
    assert code == 0, err
    data = json.loads(out)
    assert data["verdict"] == verdict and data["form"] == args[args.index("--form") + 1]
    assert (None if data["witness"] is None else set(data["witness"])) == witness


def test_cli_rich_output_shows_cases() -> None:
    code, out, _ = invoke("scaling", "--act", "relu", "--form", "sigma(a)*sigma(b)")
    assert code == 0 and "holds" in out and "Case" in out and "Cover" in out


@pytest.mark.parametrize("text, message", [
    ("sigma.__class__", "attribute access is not allowed"),
    ("c*sigma(a)", "unknown variable 'c'"),
    ("sigma(a, b)", "sigma() takes 1 argument, got 2"),
    ("sigma(a)**10**10", "exponent"),
    ("sigma(a)/b", "division by b is undefined at b = 0"),
])
def test_cli_rejects_bad_forms_with_one_line(text: str, message: str) -> None:
    code, out, err = invoke("exchange", "--act", "relu", "--form", text)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0]
    assert "Traceback" not in err
