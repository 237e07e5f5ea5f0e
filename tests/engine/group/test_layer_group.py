"""The layer group: derived from G_σ, complete exactly when G_σ is, membership exact for floats."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.core.errors import ParseError, UnknownNameError
from symcheck.engine.group.layer import exact_real, layer_group
from symcheck.kernel.check import check_document

# (σ, the a of G_σ's members with their c, hand-derived; a few non-members)
TABLE = [
    ("relu", {1.0: 1, 0.5: 0.5, 7.25: 7.25}, (-1.0, -2.0)),
    ("tanh", {1.0: 1, -1.0: -1}, (2.0, 0.5, -2.0)),
    ("silu", {1.0: 1}, (2.0, -1.0, 0.5)),
    ("gelu_tanh", {1.0: 1}, (-1.0, 3.0)),
    ("Abs(z)", {-3.0: 3, 2.0: 2}, ()),
    ("z**2", {-3.0: 9, 0.5: 0.25}, ()),
    ("identity", {-1.5: -1.5, 4.0: 4}, ()),
]


@pytest.fixture(scope="module")
def groups():
    cache: dict = {}

    def get(act: str, form: str = "gated"):
        if (act, form) not in cache:
            cache[act, form] = layer_group(act, form, timeout=60)
        return cache[act, form]
    return get


@pytest.mark.parametrize("act, members, others", TABLE)
@pytest.mark.parametrize("form", ["gated", "mlp"])
def test_gate_members_are_g_sigmas_with_their_c(groups, act, members, others, form) -> None:
    g = groups(act, form)
    assert g.complete
    for a, c in members.items():
        m = g.gate_membership(a)
        assert m.value is True, (act, a, m.reason)
        assert m.c == sympy.Rational(Fraction(c)), (act, a, m.c)
    for a in others:
        m = g.gate_membership(a)
        assert m.value is False, (act, a, m.reason)
        assert "complete" in m.reason and "maximality" in m.reason


def test_a_refused_gate_names_a_certified_witness(groups) -> None:
    m = groups("silu").gate_membership(2.0)
    assert m.value is False and m.witness is not None and "certified" in m.reason
    m = groups("relu", "mlp").gate_membership(-1.0)
    assert m.value is False and "a > 0" in m.reason


def test_floats_are_the_rationals_they_represent(groups) -> None:
    assert exact_real(0.1) == sympy.Rational(3602879701896397, 36028797018963968)
    assert exact_real(0.1) != sympy.Rational(1, 10)
    # c = a for the identity: exactly the float's value, not its printed decimal
    assert groups("identity").gate_membership(0.1).c == sympy.Rational(Fraction(0.1))
    # the float next to 1 is not 1: tanh refuses it
    assert groups("tanh").gate_membership(1.0000000000000002).value is False
    with pytest.raises(ParseError):
        exact_real(float("nan"))


@settings(max_examples=30, deadline=None)
@given(st.floats(min_value=1e-300, max_value=1e300))
def test_relu_gates_every_positive_float_and_no_negative(a: float) -> None:
    g = _relu_mlp()
    positive = g.gate_membership(a)
    assert positive.value is True and positive.c == sympy.Rational(Fraction(a))
    assert g.gate_membership(-a).value is False


@settings(max_examples=30, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: abs(x) != 1.0 and x != 0.0))
def test_tanh_gates_only_plus_minus_one(a: float) -> None:
    assert _tanh().gate_membership(a).value is False


_CACHE: dict = {}


def _relu_mlp():
    return _CACHE.setdefault("relu", layer_group("relu", "mlp", timeout=60))


def _tanh():
    return _CACHE.setdefault("tanh", layer_group("tanh", "gated", timeout=60))


def test_value_path_for_every_nonzero_lambda_and_only_gated(groups) -> None:
    g = groups("silu")
    assert g.contains(value=-3.5) is True and g.contains(value=1e-30) is True
    assert g.contains(value=0.0) is False
    assert g.contains(gate=2.0, value=3.0) is False  # the gate decides
    with pytest.raises(ParseError, match="no value path"):
        groups("relu", "mlp").contains(value=2.0)


def test_complete_exactly_when_g_sigma_is() -> None:
    partial = layer_group("Max(z, 0)**(3/2)", "mlp", timeout=60)
    assert not partial.group.complete and not partial.complete
    assert partial.contains(gate=4.0) is True  # a proved member of a partial group
    assert partial.gate_membership(4.0).c == 8
    undecided = partial.gate_membership(-1.0)
    assert undecided.value in (None, False)
    if undecided.value is None:
        assert "partial" in undecided.reason
    completeness = next(s for s in partial.proof if s.title == "Completeness")
    assert completeness.status == "unknown"


def test_the_proof_states_what_it_does_not_cover(groups) -> None:
    g = groups("silu")
    covered = " ".join(g.not_covered)
    assert "mix units" in covered and "residual stream" in covered
    titles = [s.title for s in g.proof]
    assert titles == ["Layer", "Permutations", "Value path", "Gate", "Completeness"]
    assert [s.title for s in groups("relu", "mlp").proof] == ["Layer", "Permutations", "Gate", "Completeness"]
    assert next(s for s in g.proof if s.title == "Completeness").status == "theorem"


def test_the_value_path_certificate_passes_the_kernel(groups) -> None:
    g = groups("gelu_tanh")
    assert g.value_certificate is not None
    assert next(s for s in g.proof if s.title == "Value path").status == "verified"
    assert check_document(g.value_certificate).accepted
    bundle = g.certificate_bundle()
    assert bundle["certificates"][-1]["what"] == "value path"
    assert check_document(bundle).accepted
    # a tampered claim is rejected: the certificate states what it proves
    broken = json.loads(json.dumps(g.value_certificate))
    broken["claim"]["expr"][1] = ["int", 1]
    assert not check_document(broken).accepted


def test_unknown_forms_are_refused() -> None:
    with pytest.raises(UnknownNameError):
        layer_group("silu", "rank1")


def test_renderings_by_type(groups) -> None:
    from rich.console import Console
    g = groups("tanh")
    console = Console(width=90, record=True)
    console.print(g)
    shown = console.export_text()
    assert "complete" in shown and "a ∈ {1, -1}" in shown and "Not covered" in shown
    latex = g.to_latex()
    latex.encode("ascii")
    assert r"\textbf{complete}" in latex and "Completeness" in latex
    assert "Weight symmetries of the gated layer" in g._repr_html_()
    data = g.to_dict()
    assert data["complete"] is True and data["form"] == "gated" and data["value_path"] is True
    assert [c["a"]["points"] for c in data["gate"]] == [["1", "-1"]]
    assert "mix units" in " ".join(data["not_covered"])
