"""A family's texts and names: the user's parameter names never read as symcheck's own letters.

A region's ``how`` names the probe where left − right is non-zero (a, b and the scale α of the
statement); a parameter called alpha, a or b must not be confused with them, and a parameter
may be named like a function of the expression language (gamma) when it is used as a number.
"""
from __future__ import annotations

import re

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.core.errors import ParseError
from symcheck.engine.family_result import statement_values
from symcheck.language.family import parse_family
from symcheck.language.params import parameters
from symcheck.language.symbols import Z

# region verdicts are decided under wall-clock limits: scaled to the machine's load in tests
pytestmark = pytest.mark.usefixtures("generous_region_budget")

ELU = "Piecewise((z, z > 0), ({name}*(exp(z) - 1), True))"


def _probe_mentions(how: str) -> list[tuple[str, bool]]:
    """(name, marked as the statement's) for each 'name = value' of a probe text."""
    return [(m.group(1), bool(m.group(2))) for m in re.finditer(r"\b(a|b|alpha)( \(of the statement\))? = ", how)]


@pytest.mark.parametrize("name", ["alpha", "a", "b"])
def test_a_parameter_named_like_the_statements_letters_is_told_apart_in_the_regions(name):
    result = sc.check_inverse_scaling(ELU.format(name=name), params={name: f"{name}>0"})
    hows = [h for r in result.regions for h in r.how]
    mentions = [m for h in hows for m in _probe_mentions(h)]
    assert mentions, hows  # the probe is named
    for own, marked in mentions:
        assert marked == (own == name), hows  # only the clashing one is marked


def test_statement_values_marks_exactly_the_clashes():
    values = {sympy.Symbol("a"): 2, "b": 1, "alpha": 2}
    assert statement_values(values, ["beta"]) == "a = 2, b = 1, alpha = 2"
    assert statement_values(values, ["alpha", "c"]) == "a = 2, b = 1, alpha (of the statement) = 2"


@settings(max_examples=5, deadline=None)
@given(name=st.sampled_from(["gamma", "sign", "floor", "exp", "loggamma", "Max", "tanh", "relu"]))
def test_a_parameter_named_like_a_function_is_the_parameter_where_it_is_not_called(name):
    """Swish with its β renamed: the same verdict and regions, in the new name."""
    act = "z*sigmoid({}*z)"
    named = sc.check_exchange(act.format(name), params={name: f"{name}>0"})
    beta = sc.check_exchange(act.format("beta"), params={"beta": "beta>0"})
    assert named.verdict is beta.verdict
    assert named.witness_params == {name: beta.witness_params["beta"]}
    assert [(r.region.replace(name, "beta"), r.verdict) for r in named.regions] == \
        [(r.region, r.verdict) for r in beta.regions]


def test_a_parameter_and_the_function_of_its_name_in_one_activation():
    family = parse_family("gamma*z + gamma(z**2 + 1)", {"gamma": "gamma>0"})
    (p,) = family.params
    assert family.expr == p.symbol * Z + sympy.gamma(Z**2 + 1)
    assert "gamma(" in sympy.sstr(family.shown_expr)  # the function printed as called, the parameter as a name


def test_a_function_name_not_declared_is_still_refused_as_a_number():
    with pytest.raises(ParseError, match="'gamma' is a function"):
        parse_family("gamma*z", {"c": "c>0"})


@pytest.mark.parametrize("declared", ["E", "pi>0", "0<pi<1"])
def test_a_constant_cannot_be_a_parameter(declared):
    with pytest.raises(ParseError, match="constant"):
        parameters([declared])
