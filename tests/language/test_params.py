"""Declared parameters: parsing, ranges, renaming inside, the user's names outside, errors."""
from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.core.errors import DomainError, ParseError
from symcheck.language.family import parse_family
from symcheck.language.params import parameters, parse_param
from symcheck.language.symbols import ALPHA, BETA, A, B, Z

oo = sympy.oo
R = sympy.Rational


def _ends(text):
    return [(r.lower, r.upper) for r in parse_param(text).regions]


@pytest.mark.parametrize("text, regions, shown", [
    ("beta>0", [(0, oo)], "beta > 0"),
    ("0<alpha<1", [(0, 1)], "0 < alpha < 1"),
    ("alpha>=0", [(0, 0), (0, oo)], "alpha >= 0"),
    ("p", [(-oo, oo)], "p real"),
    ("c!=0", [(-oo, 0), (0, oo)], "c != 0"),
    ("beta>=1/2", [(R(1, 2), R(1, 2)), (R(1, 2), oo)], "beta >= 1/2"),
    ("2<b", [(2, oo)], "b > 2"),
    ("x<=-1", [(-oo, -1), (-1, -1)], "x <= -1"),
    ("1>=x>0", [(0, 1), (1, 1)], "0 < x <= 1"),
    ("0.5<=t<=2", [(R(1, 2), R(1, 2)), (R(1, 2), 2), (2, 2)], "1/2 <= t <= 2"),
])
def test_declarations(text, regions, shown):
    assert _ends(text) == regions
    assert parse_param(text).text == shown


@pytest.mark.parametrize("text, message", [
    ("beta>pi", "a bound of a parameter must be a rational number"),
    ("beta==1", "fixed to one value"),
    ("0<a>1", "with the parameter in the middle"),
    ("beta>x", "exactly one parameter"),
    ("pi>0", "'pi' cannot be a parameter"),
    ("1<b<0", "is empty"),
    ("1<b<1", "is empty"),
    ("beta>", "syntax error"),
    ("__import__('os')>0", "not allowed"),
    ("beta.real>0", "attribute access is not allowed"),
    ("beta+1>0", "must name exactly one parameter"),
    ("", "empty expression"),
])
def test_malformed_declarations_are_one_line_errors(text, message):
    with pytest.raises(ParseError) as err:
        parse_param(text)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_api_forms_and_errors():
    assert parameters({"beta": "beta>0"}).names == ("beta",)
    assert parameters({"p": None}).specs[0].text == "p real"
    assert parameters(["beta>0", "0<alpha<1"]).names == ("beta", "alpha")
    with pytest.raises(ParseError, match="the key must be"):
        parameters({"beta": "alpha>0"})
    with pytest.raises(ParseError, match="declared twice"):
        parameters(["beta>0", "beta<1"])


def test_internal_symbols_never_clash_with_symcheck_letters():
    params = parameters(["alpha>0", "a", "b", "c!=0", "p", "z", "beta"])
    inside = {p.symbol for p in params}
    assert len(inside) == 7
    assert not inside & {Z, A, B, ALPHA, BETA}


@pytest.mark.parametrize("text, params, inside, shown", [
    ("z*sigmoid(beta*z)", ["beta>0"], "z/(1 + exp(-param0*z))", "z/(1 + exp(-beta*z))"),
    ("a*z + b", ["a", "b"], "param0*z + param1", "a*z + b"),
    ("alpha*z", ["alpha"], "param0*z", "alpha*z"),
    ("x + z*x**2", ["z"], "param0*z**2 + z", "x**2*z + x"),  # the user's z is a parameter, x the variable
])
def test_renamed_inside_user_names_outside(text, params, inside, shown):
    family = parse_family(text, params)
    assert sympy.sstr(family.expr) == inside
    assert sympy.sstr(family.shown_expr) == shown


def test_a_parameter_named_z_is_not_the_variable():
    family = parse_family("x + z*x**2", ["z"])
    assert family.at({"z": 0}).expr == Z  # σ = x at z = 0: the variable, not the parameter
    assert family.at({"z": 1}).expr == Z + Z**2


def test_undeclared_extra_symbol_names_it_and_suggests_param():
    with pytest.raises(ParseError) as err:
        parse_family("z + beta*z**2", [])
    assert "beta" in str(err.value) and "--param" in str(err.value)
    assert "expected one variable, found 2: beta, z" in str(err.value)


def test_values_outside_the_range_are_refused():
    family = parse_family("z*sigmoid(beta*z)", ["beta>0"])
    with pytest.raises(ParseError, match="outside its declared range"):
        family.at({"beta": 0})
    with pytest.raises(ParseError, match="outside its declared range"):
        family.at({"beta": -1})
    assert family.at({"beta": "1/2"}).expr.has(sympy.exp)


@pytest.mark.parametrize("text, params, value", [
    ("sqrt(z**2 + b)", ["b"], "b = "),
    ("z/beta", ["beta>=0"], "beta = 0"),
    ("log(z**2 + c)", ["c>-1"], "c = "),
])
def test_undefined_for_a_value_in_the_range_names_it_and_a_point(text, params, value):
    with pytest.raises(DomainError) as err:
        parse_family(text, params)
    assert value in str(err.value)
    assert err.value.point is not None


@pytest.mark.parametrize("text, params", [
    ("(z + sqrt(z**2 + b))/2", ["b>0"]),
    ("log(1 + exp(beta*z))/beta", ["beta>0"]),
    ("z + sin(a*z)**2/a", ["a!=0"]),
    ("Max(z, 0)**p", ["p>0"]),
    ("sqrt(z**2 + b)", ["b>=0"]),
])
def test_defined_families_are_accepted(text, params):
    parse_family(text, params)


@settings(max_examples=25, deadline=None)
@given(st.integers(-5, 5), st.integers(1, 4), st.sampled_from([">", ">=", "<", "<=", "!="]))
def test_a_bound_is_where_the_declaration_says(p, q, op):
    """Values at, just above and just below the bound are in the range exactly as the relation says."""
    c = R(p, q)
    spec = parse_param(f"t {op} {p}/{q}")
    truth = {">": lambda v: v > c, ">=": lambda v: v >= c, "<": lambda v: v < c, "<=": lambda v: v <= c,
             "!=": lambda v: v != c}[op]
    for v in (c, c + R(1, 1000), c - R(1, 1000), c + 7, c - 7):
        assert spec.contains(v) == bool(truth(v)), (op, c, v)
