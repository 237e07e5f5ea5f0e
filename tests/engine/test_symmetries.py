"""Verdicts on disguised, perturbed and hand-made activations, and the shape of results."""
from __future__ import annotations

import dataclasses
import json

import pytest
import sympy

import symcheck as sc
from symcheck.language.symbols import Z

# (expression, exchange, positive, minus-one, any) on the gated form
DISGUISED = [
    # linear functions in disguise: every symmetry holds
    ("z*(sin(z)**2 + cos(z)**2)", "holds", "holds", "holds", "holds"),
    ("z*cos(2*z) + 2*z*sin(z)**2", "holds", "holds", "holds", "holds"),
    ("z*cosh(z)**2 - z*sinh(z)**2", "holds", "holds", "holds", "holds"),
    ("Abs(z)*sign(z)", "holds", "holds", "holds", "holds"),
    ("log(exp(z))", "holds", "holds", "holds", "holds"),
    ("Max(z, 0) - Max(-z, 0)", "holds", "holds", "holds", "holds"),
    ("Max(z, z)", "holds", "holds", "holds", "holds"),
    ("3*z/2", "holds", "holds", "holds", "holds"),
    ("0", "holds", "holds", "holds", "holds"),
    # ReLU in disguise: positively homogeneous only
    ("(z + Abs(z))/2", "broken", "holds", "broken", "broken"),
    ("z*Heaviside(z)", "broken", "holds", "broken", "broken"),
    ("Max(z, z/5)", "broken", "holds", "broken", "broken"),
    ("Piecewise((2*z, z > 0), (z/2, True))", "broken", "holds", "broken", "broken"),
    ("Abs(z)", "broken", "holds", "broken", "broken"),
    # odd, not homogeneous
    ("z**3", "broken", "broken", "holds", "broken"),
    ("tanh(z) + sin(z)", "broken", "broken", "holds", "broken"),
    # perturbations float64 cannot see
    ("z + z**3/10**15", "broken", "broken", "holds", "broken"),
    ("z + z**2/10**20", "broken", "broken", "broken", "broken"),
    ("Max(z, 0) + exp(-z**2)/10**30", "broken", "broken", "broken", "broken"),
    ("z + 1", "broken", "broken", "broken", "broken"),
    ("1", "broken", "broken", "broken", "broken"),
]
COLUMNS = ("exchange", "positive", "-1", "any")


def _check(expr: str, column: str) -> sc.CheckResult:
    if column == "exchange":
        return sc.check_exchange(expr)
    return sc.check_inverse_scaling(expr, alpha=column)


@pytest.mark.parametrize("expr, column, expected",
                         [(row[0], col, v) for row in DISGUISED for col, v in zip(COLUMNS, row[1:], strict=True)])
def test_disguised_and_perturbed(expr: str, column: str, expected: str) -> None:
    result = _check(expr, column)
    assert result.verdict.value == expected, str(result)


def _independent_residual(result: sc.CheckResult) -> sympy.Float:
    """Re-evaluate the unit statement at the witness from scratch, at 50 digits."""
    sigma = result.activation
    w = {k: sympy.Rational(v) for k, v in result.witness.items()}

    def s(u):
        return sigma.expr.subs(Z, u)

    a, b = w["a"], w["b"]
    if result.symmetry == "exchange":
        lhs, rhs = (s(b) * a, s(a) * b) if result.form.name == "gated" else (s(b * a), s(a * b))
    else:
        alpha = w["alpha"]
        lhs, rhs = s(alpha * a) * (b / alpha), s(a) * b
    return (lhs - rhs).evalf(50)


@pytest.mark.parametrize("expr", [row[0] for row in DISGUISED if "broken" in row[1:]])
def test_witnesses_reevaluate_nonzero(expr: str) -> None:
    for column in COLUMNS:
        result = _check(expr, column)
        if result.verdict.value == "broken":
            assert _independent_residual(result) != 0


def test_broken_result_carries_the_reduction_and_both_sides() -> None:
    result = sc.check_exchange("silu")
    titles = [s.title for s in result.steps]
    assert titles[:3] == ["Statement", "Reduction", "Residual"]
    assert {"Witness", "Left side", "Right side", "Certificate", "Re-check"} <= set(titles)
    reduction = result.steps[1]
    assert "σ(1)" in reduction.statement and reduction.status == "verified"
    assert result.witness == {"a": result.witness["a"], "b": 1}


def test_holds_result_covers_every_case() -> None:
    result = sc.check_inverse_scaling("relu", alpha="positive")
    cases = [s for s in result.steps if s.title.startswith("Case")]
    assert [c.title for c in cases] == ["Case z < 0", "Case z = 0", "Case z > 0"]
    assert all(c.status == "verified" for c in cases)


def test_rank1_holds_for_every_sigma_without_cases() -> None:
    result = sc.check_exchange("Piecewise((z**2, z > 1), (sin(z), True))", form="rank1")
    assert result.verdict.value == "holds"
    assert result.steps[-1].title == "Proof"


def test_alpha_one_is_trivially_a_symmetry() -> None:
    assert sc.check_inverse_scaling("silu", alpha=1).verdict.value == "holds"


def test_fixed_scale_two_holds_for_relu_not_for_relu2() -> None:
    assert sc.check_inverse_scaling("relu", alpha=2).verdict.value == "holds"
    broken = sc.check_inverse_scaling("relu2", alpha="1/2")
    assert broken.verdict.value == "broken" and broken.witness["alpha"] == sympy.Rational(1, 2)


def test_negative_domain_needs_linearity() -> None:
    assert sc.check_inverse_scaling("tanh", alpha="negative").verdict.value == "broken"
    assert sc.check_inverse_scaling("z/7", alpha="negative").verdict.value == "holds"


def test_witness_alpha_lies_in_its_domain() -> None:
    for domain, ok in (("positive", lambda a: a > 0), ("negative", lambda a: a < 0),
                       ("any", lambda a: a != 0)):
        result = sc.check_inverse_scaling("softplus", alpha=domain)
        assert result.verdict.value == "broken" and ok(result.witness["alpha"])


def test_result_is_immutable_and_serialises() -> None:
    result = sc.check_exchange("gelu")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.verdict = sc.Verdict.HOLDS  # type: ignore[misc]
    with pytest.raises(TypeError):
        result.witness["a"] = 0  # type: ignore[index]
    data = json.loads(json.dumps(result.to_dict()))
    assert {"verdict", "witness", "activation", "symmetry", "form"} <= set(data)
    assert data["activation"] == "gelu" and data["symmetry"] == "exchange"
    assert "\\" in result.to_latex() and result._repr_latex_().startswith("$$")


def test_timeout_gives_inconclusive_never_a_verdict() -> None:
    # Far too little time to split or prove anything: the answer must be inconclusive.
    result = sc.check_inverse_scaling("Piecewise((2*z, z > 0), (z/2, True))", timeout=0.001)
    assert result.verdict.value == "inconclusive"


def test_unknown_names_suggest_close_matches() -> None:
    with pytest.raises(sc.UnknownNameError, match="did you mean 'sigmoid'"):
        sc.activation("sigmod")
    with pytest.raises(sc.UnknownNameError, match="did you mean 'gated'"):
        sc.check_exchange("relu", form="gatd")
    with pytest.raises(sc.UnknownNameError, match="did you mean 'positive'"):
        sc.check_inverse_scaling("relu", alpha="postive")
    with pytest.raises(sc.ParseError, match="non-zero"):
        sc.check_inverse_scaling("relu", alpha=0)
