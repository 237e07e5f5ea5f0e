"""The nonsmooth rewrite stops a subclass whose own Piecewise rewrite keeps bringing a nonsmooth
node back, by its depth counter (refusing with Undecided after 21 rewrites of one node), not
by running into Python's recursion limit; a finite chain of such rewrites within that depth
is written out in full.
"""
from __future__ import annotations

import pytest
import sympy

from symcheck.exact.regions import Undecided
from symcheck.exact.signs import nonsmooth_to_piecewise

X = sympy.Symbol("x", real=True)


def _chain(length: int, calls: list[int]) -> type[sympy.Abs]:
    """An Abs subclass whose Piecewise rewrite is another such subclass ``length`` times, then Abs."""
    cls: type[sympy.Abs] = sympy.Abs
    for _ in range(length):
        inner = cls

        class Step(sympy.Abs):  # noqa: D101 - a test double
            _inner = inner

            def _eval_rewrite_as_Piecewise(self, arg, **hints):
                calls.append(1)
                return self._inner(arg, evaluate=False)

        cls = Step
    return cls


def test_a_rewrite_that_brings_itself_back_is_refused_after_a_bounded_number_of_rewrites() -> None:
    calls: list[int] = []

    class Loop(sympy.Abs):
        def _eval_rewrite_as_Piecewise(self, arg, **hints):
            calls.append(1)
            return Loop(arg, evaluate=False)

    with pytest.raises(Undecided, match="nested too deeply"):
        nonsmooth_to_piecewise(Loop(X, evaluate=False) + 1)
    # one rewrite at each depth 0, 1, …, 20: the counter stops it, long before the recursion
    # limit would (hundreds of rewrites)
    assert len(calls) == 21


@pytest.mark.parametrize("length", [1, 5, 20])
def test_a_finite_chain_of_rewrites_within_the_depth_is_written_out(length: int) -> None:
    calls: list[int] = []
    node = _chain(length, calls)(X, evaluate=False)
    result = nonsmooth_to_piecewise(node + 1)
    assert len(calls) == length
    assert not result.has(sympy.Abs)
    expected = sympy.Piecewise((X, X >= 0), (-X, True)) + 1
    for q in (-3, 0, sympy.Rational(5, 2)):
        assert result.subs(X, q) == expected.subs(X, q)


def test_a_chain_deeper_than_the_bound_is_refused() -> None:
    calls: list[int] = []
    with pytest.raises(Undecided, match="nested too deeply"):
        nonsmooth_to_piecewise(_chain(40, calls)(X, evaluate=False) + 1)
    assert len(calls) == 21
