"""Unit forms: one hidden unit as a function of a = x·q and b = x·k, with σ opaque.

Two forms are built in (``gated`` and ``rank1``); any other text is read as a user's own form,
an expression in ``a``, ``b`` and ``sigma(...)`` parsed by the safe parser (no code runs, the
same allow-list and limits as activations). A form must be real and defined on all of R²:
constructs that need a condition (division, log, sqrt, fractional powers, Piecewise without a
final ``True``) record obligations, checked when the form is read if they do not involve σ,
and by :meth:`Form.check_defined` once σ is known if they do.

>>> form("a*sigma(b)")(lambda u: u**2, 2, 3)
18
>>> form("sigma(a)/b")
Traceback (most recent call last):
...
symcheck.core.errors.DomainError: division by b is undefined at b = 0
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

import sympy
from sympy.core.function import AppliedUndef

from symcheck.core.errors import DomainError, ParseError, UnknownNameError
from symcheck.core.names import closest
from symcheck.exact.signs import Undecided, at_values
from symcheck.language.definedness import Obligation, ObligationKind, check_defined_on_reals, holds, truncate
from symcheck.language.symbols import SIGMA, A, B, substitute_sigma

Sigma = Callable[[sympy.Expr], sympy.Expr]

#: the names a custom form may use: the two branches and the activation
VARIABLES = {"a": A, "b": B}
FUNCTIONS = {"sigma": SIGMA, "σ": SIGMA}
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# exact points where a two-variable obligation is tried when SymPy cannot prove it
_GRID = tuple(sympy.Rational(v) for v in ("0", "1", "-1", "2", "-2", "1/2", "-1/2", "3", "-3"))


@dataclass(frozen=True)
class Form:
    """One unit as a function of (σ, a, b).

    ``expr`` is the custom expression with σ opaque (None for the built-in forms, which need
    no checks: they are defined wherever σ is); ``obligations`` are its definedness conditions.
    """

    name: str
    description: str
    build: Callable[[Sigma, sympy.Expr, sympy.Expr], sympy.Expr]
    expr: sympy.Expr | None = None
    obligations: tuple[Obligation, ...] = ()

    def __call__(self, sigma: Sigma, a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
        return self.build(sigma, a, b)

    @property
    def custom(self) -> bool:
        return self.expr is not None

    def check_defined(self, sigma: Sigma) -> None:
        """Raise :class:`DomainError` unless the form is defined on all of R² for this σ.

        Only the obligations that involve σ are left to check here (see :func:`form`).
        """
        for ob in self.obligations:
            if ob.expr.has(SIGMA) or ob.region.has(SIGMA):
                _check_obligation(ob, lambda e: _apply(e, {}, sigma))


def _apply(expr: sympy.Basic, args: dict, sigma: Sigma) -> sympy.Basic:
    """``expr`` with a, b replaced simultaneously by ``args`` and σ by ``sigma``."""
    return substitute_sigma(expr.xreplace(args) if args else expr, sigma)


def _custom(text: str) -> Form:
    from symcheck.language.parsing import parse_expression
    parsed = parse_expression(text, functions=FUNCTIONS, symbols=VARIABLES)
    expr = parsed.expr
    for applied in expr.atoms(AppliedUndef):  # only σ can be applied; it takes one argument
        if applied.func != SIGMA or len(applied.args) != 1:
            raise ParseError(f"unexpected function application {truncate(str(applied))}", text=text)
    obligations = tuple(parsed.obligations)
    try:
        check_defined_on_reals(expr, [], variable=A)  # real-valued: no I, zoo, nan, oo
        for ob in obligations:
            if not (ob.expr.has(SIGMA) or ob.region.has(SIGMA)):
                _check_obligation(ob, lambda e: e)
    except DomainError as err:
        err.text = err.text or text
        raise
    name = " ".join(text.split())
    return Form(name, f"{name} — a custom unit form", lambda s, a, b: _apply(expr, {A: a, B: b}, s),
                expr, obligations)


def _check_obligation(ob: Obligation, substitute: Callable[[sympy.Basic], sympy.Basic]) -> None:
    """Prove one obligation on all of R², or raise DomainError (refuted or not verified)."""
    expr, region = substitute(ob.expr), substitute(ob.region)
    concrete = Obligation(ob.kind, expr, ob.source, region, ob.role)
    variables = sorted((expr.free_symbols | region.free_symbols) & {A, B}, key=str)
    if len(variables) <= 1:  # the one-variable check of activations applies as it is
        check_defined_on_reals(expr, [concrete], variable=variables[0] if variables else A)
        return
    if region is sympy.false or holds(ob.kind, expr) is True:
        return
    indicator = sympy.Piecewise((sympy.S.One, region), (sympy.S.Zero, True))
    for x, y in itertools.product(_GRID, repeat=2):
        if _fails_at(ob.kind, expr, indicator, {A: x, B: y}):
            raise DomainError(f"{ob.source} is not defined on all of R²: it fails at a = {x}, b = {y}",
                              point=(x, y))
    raise DomainError(f"could not verify that {ob.source} is defined for every real a, b")


def _fails_at(kind: ObligationKind, expr: sympy.Expr, indicator: sympy.Expr, at: dict) -> bool:
    """True only when the point is certified to be in the region and the obligation to fail there.

    The region and every branch are chosen by certified signs (:func:`~symcheck.exact.signs.at_values`),
    never by SymPy's ``xreplace``, which decides a relation between numbers with evalf; the value
    is judged by :func:`~symcheck.language.definedness.holds` (a certified sign). Undecided is no failure.
    """
    try:
        return at_values(indicator, at) == sympy.S.One and holds(kind, at_values(expr, at)) is False
    except Undecided:
        return False


FORMS: dict[str, Form] = {
    "gated": Form("gated", "σ(a)·b — the gated MLP (GLU family): nonlinearity on the query factor",
                  lambda s, a, b: s(a) * b),
    "rank1": Form("rank1", "σ(a·b) — the symmetric rank-1 bilinear unit",
                  lambda s, a, b: s(a * b)),
}


def form(text: str | None) -> Form:
    """A built-in form by name, or a custom form: an expression in a, b and sigma(...).

    A bare word other than ``a`` or ``b`` is taken for a misspelt form name, not a variable.
    None (a layer formulation without a unit form) is an unknown form. A form need not use σ
    (``"a*b"`` is a plain bilinear unit); its verdicts then do not depend on the activation.

    >>> form("gated").name, form("sigma(a) * sigma(b)").name
    ('gated', 'sigma(a) * sigma(b)')
    >>> form("sigma(a, b)")
    Traceback (most recent call last):
    ...
    symcheck.core.errors.ParseError: sigma() takes 1 argument, got 2
    """
    if not isinstance(text, str):
        raise UnknownNameError("form", repr(text), (), tuple(FORMS))
    if text in FORMS:
        return FORMS[text]
    word = text.strip()
    spelled = re.sub(r"[\s_-]", "", word.lower())  # rank-1, Rank_1, 'gated ': a name, spelt otherwise
    if spelled in FORMS and spelled != word:
        raise UnknownNameError("form", word, (spelled,), tuple(FORMS))
    if _IDENTIFIER.fullmatch(word) and word not in VARIABLES:
        raise UnknownNameError("form", word, closest(word, FORMS),
                               (*FORMS, "an expression in a, b and sigma(...)"))
    return _custom(text)
