"""The audit of a family (``audit(act, params=...)``, ``symcheck audit --param``): every row for
every parameter value in the range, with its regions; the truth of each row is known.

z + β·z² (β real) is z exactly at β = 0: every statement true of the identity holds there and
is broken elsewhere where it fails for z + z². Max(z, θ·z) with 0 < θ < 1 is positively
homogeneous of degree 1 for every θ: inverse scaling α > 0 and query-value rescaling with p = 1
hold, exchange does not.
"""
from __future__ import annotations

import json

import pytest
import sympy

import symcheck as sc
from symcheck.core.rendering import render
from symcheck.kernel.check import check as kernel_check
from symcheck.paper.family_audit import FamilyAudit

from support import invoke_cli

# region verdicts are decided under wall-clock limits: scaled to the machine's load in tests
pytestmark = pytest.mark.usefixtures("generous_region_budget")

beta = sympy.Symbol("beta", real=True)


@pytest.fixture(scope="module")
def quadratic():
    return sc.audit("z + beta*z**2", params={"beta": "beta"})


def _at(row, value):
    """The verdict of the row's region holding β = value (the regions parse back)."""
    if len(row.regions) <= 1:
        return row.verdict.value
    found = [r.verdict.value for r in row.regions
             if sympy.sympify(r.region, locals={"beta": beta}).subs(beta, value) == sympy.true]
    assert len(found) == 1, [r.region for r in row.regions]
    return found[0]


def test_the_audit_of_a_family_is_a_family_audit(quadratic):
    assert isinstance(quadratic, FamilyAudit)
    assert quadratic.quantifier == "for every real beta"
    ordinary = sc.audit("identity")
    # each row of the family at β = 0 (σ = z) agrees with the identity's audit where both decide
    for row in quadratic.rows:
        try:
            same = ordinary.row(row.form, row.transformation, None if row.domain is None else str(row.domain))
        except KeyError:
            continue
        if same.verdict.value != "inconclusive" and _at(row, 0) != "inconclusive":
            assert _at(row, 0) == same.verdict.value, row


def test_broken_rows_have_a_witness_inside_the_range_and_kernel_checked_regions(quadratic):
    exchange = quadratic.row("gated", "exchange")
    assert exchange.verdict.value == "broken"
    assert {r.region: r.verdict.value for r in exchange.regions} == {"Eq(beta, 0)": "holds", "Ne(beta, 0)": "broken"}
    for row in quadratic.rows:
        for region in row.regions:
            if region.verdict.value != "inconclusive":
                assert region.certificates and all(kernel_check(c).accepted for c in region.certificates)
        if row.result is not None and row.verdict.value == "broken":
            assert row.result.witness_params and row.result.kernel.accepted


def test_rows_for_every_sigma_are_kept(quadratic):
    assert quadratic.row("bilinear", "gauge").verdict.value == "holds"
    assert quadratic.row("bilinear", "gauge").basis == "every σ"


def test_json_carries_the_quantifier_rows_and_regions(quadratic):
    data = json.loads(json.dumps(quadratic.to_dict()))
    assert data["params"] == [{"name": "beta", "range": "beta real"}]
    row = next(r for r in data["rows"] if r["form"] == "gated" and r["transformation"] == "exchange")
    assert row["witness"]["params"] == {"beta": "1"}
    assert [r["region"] for r in row["regions"]] == ["Eq(beta, 0)", "Ne(beta, 0)"]


def test_renderings_show_the_quantifier_and_the_regions(quadratic):
    from rich.console import Console
    console = Console(width=160, record=True)
    console.print(render(quadratic, "rich"))
    shown = console.export_text()
    assert "for every real beta" in shown and "Ne(beta, 0): broken" in shown
    latex = render(quadratic, "latex")
    assert "\\forall" in latex and "\\begin{tabular}" in latex and "\\beta \\neq 0" in latex
    html = render(quadratic, "html")
    assert "<table>" in html and "Ne(beta, 0): broken" in html


@pytest.mark.slow
def test_leaky_relu_audit_holds_where_it_is_homogeneous():
    result = sc.audit("Max(z, alpha*z)", params={"alpha": "0<alpha<1"})
    assert result.row("gated", "inverse-scaling", "positive").verdict.value == "holds"
    assert result.row("gated", "exchange").verdict.value == "broken"
    qv = result.row("gated", "query-value-rescaling", "positive")
    assert qv.verdict.value == "holds" and qv.degree == 1
    assert kernel_check(qv.result.certificate).accepted


def test_cli_audit_param_json_and_errors():
    code, out, err = invoke_cli("audit", "--act", "z + beta*z**2", "--param", "beta", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["quantifier"] == "for every real beta"
    code, out, err = invoke_cli("audit", "--act", "z + beta*z**2")
    assert code == 2 and "--param" in err and "Traceback" not in err
    code, out, err = invoke_cli("audit", "--act", "z + beta*z**2", "--param", "beta>>0")
    assert code == 2 and "Traceback" not in err
    code, out, err = invoke_cli("audit", "--act", "z + beta*z**2", "--param", "beta", "--json", "--expect", "decided")
    assert code == 1 and "inconclusive" in err  # the query-value rows stay open for β ≠ 0
