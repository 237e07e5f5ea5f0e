"""Every cache of the deciding code is keyed by every argument (issue 23: a cache shared across
inputs — an ``lru_cache`` keyed without one argument — hands one question's answer to another).

The truth is the function itself, uncached (``__wrapped__``): after the cache is cleared, each
call of a sequence whose calls differ in one argument at a time must answer what the uncached
function answers (or raise what it raises). A second test finds every module-level cache of
``symcheck.exact``, ``symcheck.engine`` and ``symcheck.language`` and asks for its sequence here,
so a new cache cannot go untested.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import sympy

import symcheck
from symcheck.engine import zero
from symcheck.exact import definite, roots, signs, vectorize
from symcheck.language import activations
from symcheck.language.symbols import A, Z

R = sympy.S.Reals

#: each cache, and calls that differ from an earlier one in exactly one argument
CALLS: dict[Callable[..., Any], list[tuple[Any, ...]]] = {
    roots._polynomial_on_line: [(Z**2 - 1, Z), (Z**2 - 4, Z), (Z**2 - 1, A)],
    roots._solveset_on: [(Z**2 - 1, Z, R), (Z**2 - 4, Z, R), (Z**2 - 1, A, R), (Z**2 - 1, Z, sympy.Interval(0, 5))],
    definite._coefficients: [(Z**2 + 2 * Z, Z), (Z**3 - Z, Z), (Z**2 + 2 * Z, A)],
    signs.nonsmooth_to_piecewise: [(sympy.Abs(Z),), (sympy.Max(Z, 0),), (sympy.sign(Z - 1),)],
    vectorize._cached: [(sympy.tanh(Z), (Z,), np.dtype(np.float64)), (sympy.sinh(Z), (Z,), np.dtype(np.float64)),
                        (sympy.tanh(Z), (A,), np.dtype(np.float64)), (sympy.tanh(Z), (Z,), np.dtype(np.float32))],
    vectorize._limits: [(np.dtype(np.float64),), (np.dtype(np.float32),)],
    activations._builtin: [("relu",), ("tanh",)],
}
#: caches answered by a fresh symbol per call (not comparable with an uncached call), each
#: with the reason it is keyed by its one argument all the same
ELSEWHERE = {
    "symcheck.engine.zero._opaque": "test_two_constants_never_share_an_opaque_symbol below",
}


def _answer(function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[str, Any]:
    try:
        value = function(*args)
    except Exception as err:  # the uncached function's refusal is part of its answer
        return "raises", type(err)
    if callable(value):  # a compiled function: what it computes, and in which dtype
        try:
            out = np.asarray(value(np.array([-1.5, 0.25, 2.0])))
        except Exception as err:
            return "raises", type(err)
        return "function", (out.dtype, out.tolist())
    if isinstance(value, activations.Activation):
        return "activation", (value.name, value.expr)
    return "value", value


@pytest.mark.parametrize("cached", list(CALLS), ids=lambda f: f.__qualname__)
def test_a_cached_answer_is_the_uncached_one_for_every_argument(cached: Callable[..., Any]) -> None:
    cached.cache_clear()  # type: ignore[attr-defined]
    for args in CALLS[cached]:
        assert _answer(cached, args) == _answer(cached.__wrapped__, args), (cached.__qualname__, args)  # type: ignore[attr-defined]


def _caches() -> set[str]:
    found = set()
    for package in ("exact", "engine", "language"):
        root = importlib.import_module(f"symcheck.{package}")
        for info in pkgutil.walk_packages(root.__path__, f"symcheck.{package}."):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if callable(value) and hasattr(value, "cache_clear") and hasattr(value, "__wrapped__") \
                        and getattr(value, "__module__", None) == module.__name__:
                    found.add(f"{module.__name__}.{name}")
    return found


def test_every_cache_of_the_deciding_code_has_its_sequence_here() -> None:
    assert symcheck.__name__ == "symcheck"
    listed = {f"{f.__module__}.{f.__qualname__}" for f in CALLS} | ELSEWHERE.keys()
    missing = {name for name in _caches() - listed
               if len(inspect.signature(eval_name(name)).parameters) >= 1}
    assert not missing, f"caches without a key test: {sorted(missing)}"


def eval_name(name: str) -> Callable[..., Any]:
    module, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def test_two_constants_never_share_an_opaque_symbol() -> None:
    """zero._opaque (cached) turns a constant that is not plain into a symbol with its certified
    sign. Keyed without its argument, atan(3) would get atan(2)'s symbol and z·atan(2) − z·atan(3)
    would read 0: a false proof of zero. Equal constants do share one (documented)."""
    from symcheck.engine.zero import opaque_constants
    zero._opaque.cache_clear()
    made, names = opaque_constants(Z * sympy.atan(2) - Z * sympy.atan(3))
    assert made != 0 and set(names) == {"atan(2)", "atan(3)"}
    assert len(made.free_symbols - {Z}) == 2
    same, _ = opaque_constants(Z * sympy.atan(2) + Z**2 * sympy.atan(2))
    assert len(same.free_symbols - {Z}) == 1
