"""The functions users write: one table, read by every layer that handles them.

Each :class:`Function` says, for one name the parser accepts:

* how SymPy builds it (``build``) and recognises it (``cls``; None for ``sqrt``, which SymPy
  builds as a power);
* its **domain on R**, as conditions on the argument u that the definedness check proves for
  every real value (:mod:`symcheck.language.definedness`): ``acos(u)`` needs 1 − u ≥ 0 and
  1 + u ≥ 0, ``atanh(u)`` needs both > 0, ``LambertW(u)`` (principal branch) u + 1/e ≥ 0.
  ``gamma(u)`` is defined off the non-positive integers, but what is proved is u > 0: the
  condition is *sufficient*, not necessary (``sufficient``), and a refusal says so;
* the name of the method that evaluates it in each arithmetic of :mod:`symcheck.exact`
  (``method``: Arb balls in ``balls``, the independent mpmath intervals in ``intervals``, plain
  mpmath in ``evaluate``, float64 NumPy in ``vectorize``); ``frac`` and ``Mod`` have none of
  their own: they are evaluated through their definition by ``floor`` (``rewrite``), which is
  exact at rational points;
* whether it is **smooth** (analytic on the interior of its domain): floor, ceiling, frac and
  Mod jump at every point where their argument crosses an integer (a multiple of c), so no
  derivative, monotonicity or analyticity argument may pass through them;
* its head in the proof kernel's expression trees (``kernel``; the kernel keeps its own
  table, :data:`symcheck.kernel.tree.FUNCTIONS`, so that it stays independent: the tests hold
  the two against each other), and the PyTorch function of the same meaning, where torch has
  one (``torch``, for the parity tests).

``Mod(u, c)`` takes a second argument that must be a positive constant (checked when parsed).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

import sympy
from sympy import S

__all__ = [
    "BY_CLASS",
    "BY_NAME",
    "FUNCTIONS",
    "INTEGER_PARTS",
    "Condition",
    "Function",
    "domain_conditions",
    "rewritten",
]

Kind = Literal["positive", "nonnegative", "nonzero", "cos-nonzero"]


@dataclass(frozen=True)
class Condition:
    """A condition on the argument u: ``kind`` holds of ``of(u)``; ``requirement`` says it in
    words for messages ("argument <= 1"), empty for the classic ones whose messages name the
    argument's sign themselves (log, sqrt, tan)."""

    kind: Kind
    of: Callable[[sympy.Expr], sympy.Expr]
    requirement: str = ""


@dataclass(frozen=True)
class Function:
    """One function the parser accepts (see the module docstring)."""

    name: str
    build: Callable[..., sympy.Expr]
    cls: type | None
    method: str | None
    domain: tuple[Condition, ...] = ()
    #: the domain in words, for the docs and messages ("-1 <= u <= 1")
    domain_text: str = "R"
    smooth: bool = True
    kernel: str | None = None
    torch: str | None = None
    arity: int = 1
    #: the domain conditions are sufficient, not necessary (gamma: u > 0 is what is proved)
    sufficient: bool = False
    #: its definition through other functions of the table, for evaluators that lack it
    rewrite: Callable[..., sympy.Expr] | None = None


def _minus(x: sympy.Expr) -> sympy.Expr:
    return sympy.Mul(S.NegativeOne, x, evaluate=False)


def _one_minus(u: sympy.Expr) -> sympy.Expr:
    return 1 - u


def _one_plus(u: sympy.Expr) -> sympy.Expr:
    return 1 + u


def _frac(u: sympy.Expr) -> sympy.Expr:
    return sympy.Add(u, _minus(sympy.floor(u, evaluate=False)), evaluate=False)


def _mod(u: sympy.Expr, c: sympy.Expr) -> sympy.Expr:
    quotient = sympy.Mul(u, sympy.Pow(c, S.NegativeOne, evaluate=False), evaluate=False)
    return sympy.Add(u, _minus(sympy.Mul(c, sympy.floor(quotient, evaluate=False), evaluate=False)),
                     evaluate=False)


_ACOS_DOMAIN = (Condition("nonnegative", _one_minus, "argument <= 1"),
                Condition("nonnegative", _one_plus, "argument >= -1"))

FUNCTIONS: tuple[Function, ...] = (
    Function("exp", sympy.exp, sympy.exp, "exp", kernel="exp", torch="exp"),
    Function("log", sympy.log, sympy.log, "log", (Condition("positive", lambda u: u),), "u > 0",
             kernel="log", torch="log"),
    Function("sqrt", sympy.sqrt, None, "sqrt", (Condition("nonnegative", lambda u: u),), "u >= 0",
             torch="sqrt"),
    Function("sin", sympy.sin, sympy.sin, "sin", kernel="sin", torch="sin"),
    Function("cos", sympy.cos, sympy.cos, "cos", kernel="cos", torch="cos"),
    Function("tan", sympy.tan, sympy.tan, "tan", (Condition("cos-nonzero", lambda u: u),), "cos(u) != 0",
             kernel="tan", torch="tan"),
    Function("sinh", sympy.sinh, sympy.sinh, "sinh", kernel="sinh", torch="sinh"),
    Function("cosh", sympy.cosh, sympy.cosh, "cosh", kernel="cosh", torch="cosh"),
    Function("tanh", sympy.tanh, sympy.tanh, "tanh", kernel="tanh", torch="tanh"),
    Function("asinh", sympy.asinh, sympy.asinh, "asinh", kernel="asinh", torch="asinh"),
    Function("atan", sympy.atan, sympy.atan, "atan", kernel="atan", torch="atan"),
    Function("erf", sympy.erf, sympy.erf, "erf", kernel="erf", torch="erf"),
    Function("erfc", sympy.erfc, sympy.erfc, "erfc", kernel="erfc", torch="erfc"),
    Function("Abs", sympy.Abs, sympy.Abs, "abs", smooth=False, kernel="abs", torch="abs"),
    Function("sign", sympy.sign, sympy.sign, None, smooth=False, torch="sign"),
    Function("Heaviside", sympy.Heaviside, sympy.Heaviside, None, smooth=False),
    # inverse trigonometric and hyperbolic functions, on their real domains
    Function("acos", sympy.acos, sympy.acos, "acos", _ACOS_DOMAIN, "-1 <= u <= 1",
             kernel="acos", torch="acos"),
    Function("asin", sympy.asin, sympy.asin, "asin", _ACOS_DOMAIN, "-1 <= u <= 1",
             kernel="asin", torch="asin"),
    Function("atanh", sympy.atanh, sympy.atanh, "atanh",
             (Condition("positive", _one_minus, "argument < 1"), Condition("positive", _one_plus, "argument > -1")),
             "-1 < u < 1", kernel="atanh", torch="atanh"),
    Function("acosh", sympy.acosh, sympy.acosh, "acosh",
             (Condition("nonnegative", lambda u: u - 1, "argument >= 1"),), "u >= 1",
             kernel="acosh", torch="acosh"),
    # integer parts: defined everywhere, a jump at every integer (every multiple of c)
    Function("floor", sympy.floor, sympy.floor, "floor", smooth=False, kernel="floor", torch="floor"),
    Function("ceiling", sympy.ceiling, sympy.ceiling, "ceiling", smooth=False, kernel="ceil", torch="ceil"),
    # torch.frac truncates toward 0 (frac(-0.5) = -0.5): not the same function as SymPy's frac
    Function("frac", sympy.frac, sympy.frac, None, smooth=False, rewrite=_frac),
    Function("Mod", sympy.Mod, sympy.Mod, None, smooth=False, torch="remainder", arity=2, rewrite=_mod,
             domain_text="c a positive constant"),
    # gamma and relatives: u > 0 is what is proved for gamma (it has poles at 0, -1, -2, ...)
    Function("gamma", sympy.gamma, sympy.gamma, "gamma", (Condition("positive", lambda u: u, "argument > 0"),),
             "u > 0 (proved; gamma is also defined at negative non-integers)", kernel="gamma",
             sufficient=True),
    Function("loggamma", sympy.loggamma, sympy.loggamma, "loggamma",
             (Condition("positive", lambda u: u, "argument > 0"),), "u > 0", kernel="lgamma", torch="lgamma"),
    Function("LambertW", sympy.LambertW, sympy.LambertW, "lambertw",
             (Condition("nonnegative", lambda u: u + sympy.exp(-1), "argument >= -1/e"),),
             "u >= -1/e (principal branch)", kernel="lambertw"),
)

BY_NAME: MappingProxyType[str, Function] = MappingProxyType({f.name: f for f in FUNCTIONS})
BY_CLASS: MappingProxyType[type, Function] = MappingProxyType({f.cls: f for f in FUNCTIONS if f.cls is not None})
#: the integer parts (floor, ceiling, frac, Mod): they jump wherever their argument crosses an
#: integer (a multiple of c), infinitely often on R, so they are not rewritten into branches
#: and no derivative, monotonicity or analyticity argument may pass through them
INTEGER_PARTS: tuple[type, ...] = (sympy.floor, sympy.ceiling, sympy.frac, sympy.Mod)


def domain_conditions(function: Function, u: sympy.Expr) -> list[tuple[Kind, sympy.Expr, str]]:
    """(kind, expression, requirement) for each domain condition of ``function`` at argument u."""
    return [(c.kind, c.of(u), c.requirement) for c in function.domain]


def rewritten(node: sympy.Basic) -> sympy.Expr | None:
    """``node`` (frac or Mod) through its definition by floor, built unevaluated; else None."""
    entry = BY_CLASS.get(type(node))
    if entry is None or entry.rewrite is None or len(node.args) != entry.arity:
        return None
    return entry.rewrite(*node.args)
