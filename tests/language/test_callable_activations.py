"""A Python callable is an activation: called once on a real symbol, read back by the safe parser."""
from __future__ import annotations

import math

import pytest
import sympy

import symcheck as sc
from symcheck.core.errors import ParseError


def test_a_lambda_is_the_expression_it_builds() -> None:
    assert sc.activation(lambda t: t * sympy.tanh(t)).parsed == "z*tanh(z)"


def test_a_sympy_function_class_is_that_function() -> None:
    assert sc.activation(sympy.tanh).parsed == "tanh(z)"
    assert sc.activation(sympy.tanh).expr == sc.activation("tanh(z)").expr


def test_checks_take_callables_and_decide_them_like_the_text() -> None:
    assert sc.check_exchange(lambda t: t * sympy.tanh(t)).verdict == sc.check_exchange("z*tanh(z)").verdict
    assert sc.check_inverse_scaling(lambda t: sympy.Max(t, 0)).verdict.value == "holds"
    assert sc.check_inverse_scaling(lambda t: t * sympy.tanh(t)).verdict.value == "broken"


def test_the_callable_meets_the_definedness_check() -> None:
    with pytest.raises(sc.DomainError):
        sc.activation(lambda t: sympy.log(t))


@pytest.mark.parametrize("function, words", [
    (math.tanh, "use sympy.tanh"),
    (lambda t: None, "did not return a SymPy expression"),
    (lambda t: t > 0, "did not return a SymPy expression"),
    (lambda t, u: t, "failed"),
])
def test_a_callable_that_builds_no_expression_is_a_clear_error(function, words: str) -> None:
    with pytest.raises(ParseError, match=words):
        sc.activation(function)


def test_the_command_line_still_takes_only_text() -> None:
    # a string that names a Python function is text to parse, not code: nothing is called
    with pytest.raises(ParseError, match="attribute access is not allowed"):
        sc.activation("math.tanh")
