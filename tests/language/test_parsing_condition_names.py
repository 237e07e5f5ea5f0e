"""A condition calls only And, Or, Not, Eq and Ne. Any other name where a condition is expected —
a name of the parser's own module, a SymPy name, a builtin, a made-up one — is refused with a
one-line error, never read as one of the five (an unknown ``F(c1, c2)`` taken as ``Or``)."""
from __future__ import annotations

import builtins

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

import symcheck as sc
from symcheck.core.errors import SymcheckError
from symcheck.language import parsing

CONDITION_FUNCTIONS = {"And", "Or", "Not", "Eq", "Ne"}
#: names a slip could let through: the parser module's own, SymPy's and Python's
NEARBY = sorted({n for n in (*vars(parsing), *getattr(parsing, "__all__", ()), *dir(sympy), *dir(builtins))
                 if n.isidentifier() and not n.startswith("__")} - CONDITION_FUNCTIONS)


def refused(condition: str) -> bool:
    try:
        sc.activation(f"Piecewise((z, {condition}), (0, True))")
    except SymcheckError:
        return True
    return False


def test_the_parsers_own_names_are_not_condition_functions() -> None:
    names = [n for n in NEARBY if n in vars(parsing) or n in getattr(parsing, "__all__", ())]
    assert names
    accepted = [n for n in names if not refused(f"{n}(z > 0, z < 1)") or not refused(f"{n}(z > 0)")]
    assert accepted == []


@given(st.sampled_from(NEARBY) | st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True))
def test_no_other_name_is_a_condition_function(name: str) -> None:
    if name in CONDITION_FUNCTIONS:
        return
    assert refused(f"{name}(z > 0, z < 1)"), name
    assert refused(f"{name}(z > 0)"), name


@pytest.mark.parametrize("condition, inside, outside", [
    ("And(z > 0, z < 1)", "1/2", "2"), ("Or(z < 0, z > 1)", "2", "1/2"), ("Not(z > 0)", "-1", "1"),
    ("Eq(z, 1)", "1", "2"), ("Ne(z, 1)", "2", "1")])
def test_the_five_condition_functions_mean_what_they_say(condition: str, inside: str, outside: str) -> None:
    sigma = sc.activation(f"Piecewise((z, {condition}), (0, True))")
    (z,) = sigma.expr.free_symbols
    assert sigma.expr.subs(z, sympy.Rational(inside)) == sympy.Rational(inside)
    assert sigma.expr.subs(z, sympy.Rational(outside)) == 0
