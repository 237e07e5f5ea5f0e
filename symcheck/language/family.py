"""An activation family: σ(z; θ) with declared parameters θ, parsed once.

:func:`parse_family` reads the text with the safe parser, the declared names as extra symbols
renamed inside to the parameters' internal symbols (:mod:`symcheck.language.params`), and the
one remaining name as the variable z. It proves σ defined for every real z and every parameter
value in the declared range, or refuses it naming a parameter value and a point where it fails
(certified, as for one σ), or says it could not verify it. :meth:`FamilyActivation.at` gives
the ordinary :class:`~symcheck.language.activations.Activation` at one parameter value, built
through the parser's safe constructors (no SymPy evalf decides a branch).

>>> f = parse_family("z*sigmoid(beta*z)", parameters({"beta": "beta>0"}))
>>> f.shown_expr
z/(1 + exp(-beta*z))
>>> f.at({"beta": 1}).expr
z/(1 + exp(-z))
"""
from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass

import sympy
from sympy import S

from symcheck.core.errors import DomainError, ParseError
from symcheck.exact.definite import Want
from symcheck.exact.ranges import Range
from symcheck.exact.regions import Region
from symcheck.language.activations import Activation, catalogue_functions
from symcheck.language.definedness import Obligation, check_defined_on_reals
from symcheck.language.params import Parameters, parameters
from symcheck.language.parsing import undeclared_hint
from symcheck.language.symbols import Z

__all__ = ["FamilyActivation", "parse_family"]
#: parameter values per open region at which definedness is refuted first
_REFUTE_SAMPLES = 4


@dataclass(frozen=True)
class FamilyActivation:
    """σ as an expression in :data:`Z` and the parameters' internal symbols."""

    name: str
    expr: sympy.Expr
    params: Parameters
    variable: str = "z"  #: the user's name of the variable, for printing

    @property
    def formula(self) -> str:
        return self.name

    @property
    def shown_expr(self) -> sympy.Expr:
        """σ with the user's names (the parameters'; the variable stays z unless a parameter is named z)."""
        names = self.params.to_user
        if "z" in self.params.names:  # one renaming at once: the user's z is not the variable
            names[Z] = sympy.Symbol(self.variable, real=True)
        with sympy.evaluate(False):
            return self.expr.xreplace(names)

    def at(self, values: Mapping[str | sympy.Symbol, object]) -> Activation:
        """The ordinary σ at one value of every parameter (user names or internal symbols)."""
        from symcheck.language.parsing import substitute
        by_symbol = {k: v for k, v in values.items() if isinstance(k, sympy.Symbol)}
        by_name = {k: v for k, v in values.items() if not isinstance(k, sympy.Symbol)}
        exact = {**self.params.values({**{self.params.by_symbol(k).name: v for k, v in by_symbol.items()},
                                        **by_name})}
        expr = substitute(self.expr, exact, self.name)
        where = ", ".join(f"{self.params.by_symbol(s).name} = {v}" for s, v in exact.items())
        return Activation(f"{self.name} at {where}", expr, f"{self.name} at {where}")


def parse_family(text: str, params: Parameters | Mapping[str, str | None] | list[str] | None) -> FamilyActivation:
    """Parse σ with declared parameters; ParseError for bad text or an undeclared extra symbol,
    DomainError when σ is undefined for some parameter value (named) or not verified defined."""
    from symcheck.language.parsing import parse_expression
    params = parameters(params)
    functions = catalogue_functions()
    first = parse_expression(text, functions=functions, symbols=_bare_names(text, params))
    declared = set(params.names)
    others = sorted(v.name for v in first.variables if v.name not in declared)
    if len(others) > 1:
        raise ParseError(f"expected one variable, found {len(others)}: {', '.join(others)}"
                         + undeclared_hint(others), text=text)
    variable = others[0] if others else ("z" if "z" not in declared else "x")
    symbols = {p.name: p.symbol for p in params}
    symbols[variable] = Z
    parsed = parse_expression(text, functions=functions, symbols=symbols)
    family = FamilyActivation(text, parsed.expr, params, variable)
    try:
        _check_defined(family, parsed.obligations)
    except DomainError as err:
        err.text = err.text or text
        raise
    return family


def _bare_names(text: str, params: Parameters) -> dict[str, sympy.Symbol]:
    """Every name of the text used as a number, as a symbol of that name, so that
    a parameter named like a function (gamma) is read as the parameter where it is not called.
    An undeclared function name is left out: used as a number, the parser refuses it as before."""
    import ast

    from symcheck.language.parsing import BUILTIN_FUNCTIONS, CONSTANTS, parse_tree
    _, tree = parse_tree(text)
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    declared = set(params.names)
    functions = set(BUILTIN_FUNCTIONS) | set(catalogue_functions())
    return {n.id: sympy.Symbol(n.id, real=True) for n in ast.walk(tree)
            if isinstance(n, ast.Name) and id(n) not in called and n.id not in CONSTANTS
            and (n.id in declared or n.id not in functions)}


# --------------------------------------------------------------------------- definedness


def _check_defined(family: FamilyActivation, obligations: tuple[Obligation, ...]) -> None:
    params = family.params
    obligations = tuple(_relaxed(ob, family.expr, params) for ob in obligations)
    symbols = {p.symbol for p in params}
    fixed = [ob for ob in obligations if not (ob.expr.free_symbols | ob.region.free_symbols) & symbols]
    if fixed:  # independent of the parameters: the ordinary check, once
        check_defined_on_reals(S.Zero, fixed, variable=Z)
    varying = [ob for ob in obligations if ob not in fixed]
    if not varying:
        return
    _refute(family, varying)
    for box in _boxes(params):
        points = {s: r.lo for s, r in box.items() if r.is_point}
        for ob in varying:
            if points and _proved_at_points(ob, points):
                continue
            if not _proved_on_box(ob, box):
                where = " and ".join(p.text for p in params)
                raise DomainError(f"could not verify that {ob.source} is defined for every real "
                                  f"{family.variable} and every parameter value ({where})")


def _relaxed(ob: Obligation, expr: sympy.Expr, params: Parameters) -> Obligation:
    """A base of a power whose exponent is not a number needs only be ≥ 0 when every such
    exponent is proved ≥ 0 over the declared range: x^p = 0 at x = 0 for p > 0, and 0^0 = 1, as
    SymPy, mpmath, NumPy and PyTorch all compute it (``z*Abs(z)**p`` at p = 0 is the σ = z the
    user gets from writing ``z*Abs(z)**0``)."""
    if ob.role != "variable base" or ob.kind != "positive":
        return ob
    from symcheck.exact.definite import prove_sign
    exponents = [p.exp for p in expr.atoms(sympy.Pow) if p.base == ob.expr and not p.exp.is_number]
    if not exponents or any(e.free_symbols - {s.symbol for s in params} for e in exponents):
        return ob
    for box in _boxes(params):
        for e in exponents:
            if prove_sign(e, {s: r for s, r in box.items() if s in e.free_symbols}, "nonnegative") is None:
                return ob
    return Obligation("nonnegative", ob.expr, ob.source, ob.region, "base", ob.requirement, ob.sufficient)


def _boxes(params: Parameters) -> list[dict[sympy.Symbol, Range]]:
    """The declared range as boxes: one region per parameter (a point is a closed one-point range)."""
    per = [[(p.symbol, _range(r)) for r in p.regions] for p in params]
    return [dict(combo) for combo in itertools.product(*per)]


def _range(r: Region) -> Range:
    return Range.point(r.lower) if r.is_point else Range(r.lower, r.upper)


def _samples(params: Parameters) -> list[dict[sympy.Symbol, sympy.Rational]]:
    per = [[v for r in p.regions for v in (r.samples(_REFUTE_SAMPLES) if not r.is_point else [r.lower])]
           for p in params]
    symbols = [p.symbol for p in params]
    return [dict(zip(symbols, combo, strict=True)) for combo in itertools.islice(itertools.product(*per), 32)]


def _at(ob: Obligation, values: Mapping[sympy.Symbol, sympy.Expr]) -> Obligation:
    from symcheck.language.parsing import substitute
    expr = substitute(ob.expr, values, ob.source)
    region = ob.region if ob.region in (sympy.true, sympy.false) else substitute(ob.region, values, ob.source)
    return Obligation(ob.kind, expr, ob.source, region, ob.role, ob.requirement, ob.sufficient)


def _refute(family: FamilyActivation, obligations: list[Obligation]) -> None:
    """A parameter value in the range where σ fails at a certified point: refused, naming both."""
    for values in _samples(family.params):
        try:
            check_defined_on_reals(S.Zero, [_at(ob, values) for ob in obligations], variable=Z)
        except DomainError as err:
            if err.point is None:
                continue
            where = ", ".join(f"{family.params.by_symbol(s).name} = {v}" for s, v in values.items())
            raise DomainError(f"not defined for every parameter value in the declared range: at {where}, "
                              f"{err}", point=err.point) from None


def _proved_at_points(ob: Obligation, points: Mapping[sympy.Symbol, sympy.Expr]) -> bool:
    """Every parameter of ``ob`` sits at a point of this box: the ordinary one-variable check."""
    if (ob.expr.free_symbols | ob.region.free_symbols) - set(points) - {Z}:
        return False
    try:
        check_defined_on_reals(S.Zero, [_at(ob, points)], variable=Z)
    except DomainError:
        return False
    return True


_WANTS: dict[str, tuple[Want, ...]] = {"positive": ("positive",), "nonnegative": ("nonnegative",)}


def _proved_on_box(ob: Obligation, box: dict[sympy.Symbol, Range]) -> bool:
    """Certified signs over z ∈ R and the box (the branch region ignored: a stronger claim)."""
    from symcheck.exact.definite import prove_nonzero, prove_sign
    if ob.kind == "covered":
        return False
    u = sympy.cos(ob.expr, evaluate=False) if ob.kind == "cos-nonzero" else ob.expr
    ranges = {Z: Range(-S.Infinity, S.Infinity), **box}
    if not u.free_symbols <= set(ranges):
        return False
    if ob.kind in ("nonzero", "cos-nonzero"):
        return prove_nonzero(u, ranges) is not None
    return any(prove_sign(u, ranges, want) is not None for want in _WANTS[ob.kind])
