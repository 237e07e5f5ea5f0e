"""A parameter named like a Python keyword (SELU's λ written ``lambda``): the text is renamed
token by token before Python parses it, and every printout shows the user's name again."""
from __future__ import annotations

import json

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.core.errors import ParseError
from symcheck.language.params import parse_param
from symcheck.language.parsing import parse_expression

from support import invoke_cli

# region verdicts are decided under wall-clock limits: scaled to the machine's load in tests
pytestmark = pytest.mark.usefixtures("generous_region_budget")

QUADRATIC = "z + {name}*z**2"  # holds exactly where the parameter is 0, broken elsewhere


def test_a_keyword_declares_a_parameter():
    spec = parse_param("0<lambda<2")
    assert (spec.name, spec.text) == ("lambda", "0 < lambda < 2")


@pytest.mark.parametrize("text", ["lambda: 1", "(lambda z: z)(1)", "lambda *z: z"])
def test_a_lambda_expression_is_still_refused(text):
    with pytest.raises(ParseError, match="lambda expressions are not allowed|only named functions"):
        parse_expression(text)


def test_only_the_keyword_token_is_renamed():
    """Names containing the keyword, and the fresh name itself written by the user, stay theirs."""
    lam, lam_, lams = (sympy.Symbol(n, real=True) for n in ("lambda", "lambda_", "lambdas"))
    parsed = parse_expression("lambda*z + lambda_ + lambdas", symbols=None)
    assert parsed.expr == lam * sympy.Symbol("z", real=True) + lam_ + lams


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["lambda", "class", "from", "def", "while"]), st.integers(-5, 5), st.integers(1, 5))
def test_keyword_parameters_read_as_their_symbol(word, c, k):
    parsed = parse_expression(f"{c}*{word}**{k} + z", symbols=None)
    w, z = sympy.Symbol(word, real=True), sympy.Symbol("z", real=True)
    assert parsed.expr == c * w**k + z
    assert {v.name for v in parsed.variables} == {word, "z"}  # read, even when multiplied by 0


@pytest.fixture(scope="module")
def pair():
    """The same family with the parameter called lambda and beta."""
    return (sc.check_exchange(QUADRATIC.format(name="lambda"), params={"lambda": "lambda"}),
            sc.check_exchange(QUADRATIC.format(name="beta"), params={"beta": "beta"}))


def test_api_verdict_regions_and_witness_use_the_users_name(pair):
    named, beta = pair
    assert named.verdict is beta.verdict is sc.Verdict.BROKEN
    assert named.witness_params == {"lambda": beta.witness_params["beta"]}
    assert [(r.region, r.verdict) for r in named.regions] == \
        [(r.region.replace("beta", "lambda"), r.verdict) for r in beta.regions]
    assert "Eq(lambda, 0)" in [r.region for r in named.regions]
    assert "\\lambda" in named.to_latex() and "lambda_" not in named.to_latex()


def test_cli_json_shows_lambda_in_regions_and_witness():
    code, out, err = invoke_cli("exchange", "--act", QUADRATIC.format(name="lambda"), "--param", "lambda", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["verdict"] == "broken"
    assert list(data["witness"]["params"]) == ["lambda"]
    assert {r["region"]: r["verdict"] for r in data["regions"]} == \
        {"Eq(lambda, 0)": "holds", "Ne(lambda, 0)": "broken"}
    assert "lambda_" not in out


def test_cli_an_undeclared_symbol_beside_lambda_is_exit_2_naming_it():
    code, _, err = invoke_cli("exchange", "--act", "lambda*z + kappa*z**2", "--param", "lambda>0")
    assert code == 2 and "kappa" in err and "Traceback" not in err
