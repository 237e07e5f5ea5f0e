"""Declared parameters of an activation family: ``"beta>0"``, ``"0<alpha<1"``, ``"p"``, ``"c!=0"``.

A declaration is parsed once into a :class:`ParamSpec` (the user's name, a fresh internal real
symbol, the range as disjoint regions); :class:`Parameters` holds them in order. Inside,
every parameter is its internal symbol (``param0``, ``param1``, …), so a user's ``alpha``,
``a``, ``b``, ``c``, ``p`` or even ``z`` never meets symcheck's own letters (the scale α, the
branches a and b, the variable z); everything printed maps back to the user's names.

The text goes through the safe parser's own machinery (``ast`` only, the allow-list, its
limits); a bound is a rational number, and every failure is a one-line :class:`ParseError`.

>>> p = parse_param("0<alpha<1")
>>> p.name, p.text, [(str(r.lower), str(r.upper)) for r in p.regions]
('alpha', '0 < alpha < 1', [('0', '1')])
>>> parse_param("beta>=1/2").text
'beta >= 1/2'
"""
from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import sympy
from sympy import S
from sympy.logic.boolalg import Boolean

from symcheck.core.errors import ParseError
from symcheck.exact.regions import Region
from symcheck.exact.signs import Undecided, certified_order

__all__ = ["ParamSpec", "Parameters", "internal_symbol", "parameters", "parse_param"]

_OO = S.Infinity
#: the comparison operators a declaration may use, as (SymPy relation, text)
_OPS: dict[type, tuple[type, str]] = {ast.Lt: (sympy.StrictLessThan, "<"), ast.LtE: (sympy.LessThan, "<="),
                                      ast.Gt: (sympy.StrictGreaterThan, ">"), ast.GtE: (sympy.GreaterThan, ">="),
                                      ast.NotEq: (sympy.Ne, "!="), ast.Eq: (sympy.Eq, "==")}
_FLIPPED = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE, ast.NotEq: ast.NotEq, ast.Eq: ast.Eq}
#: names a parameter may not take: the parser's constants and functions
_RESERVED_PREFIX = "param"


def internal_symbol(index: int) -> sympy.Symbol:
    """The internal real symbol of the ``index``-th parameter (never a name symcheck uses otherwise)."""
    return sympy.Symbol(f"{_RESERVED_PREFIX}{index}", real=True)


@dataclass(frozen=True)
class ParamSpec:
    """One declared parameter: its user name, internal symbol, and range (disjoint regions, in order)."""

    name: str
    symbol: sympy.Symbol
    regions: tuple[Region, ...]
    text: str  #: the declaration in canonical form: "beta > 0", "0 < alpha < 1", "p real"

    @property
    def shown(self) -> sympy.Symbol:
        """The user's name as a real symbol, for printing (β prints as \\beta in LaTeX)."""
        return sympy.Symbol(self.name, real=True)

    def condition(self, symbol: sympy.Symbol | None = None) -> Boolean:
        """The range as a SymPy condition on ``symbol`` (the user's name by default)."""
        v = self.shown if symbol is None else symbol
        return sympy.Or(*(r.condition(v) for r in self.regions))

    @property
    def phrase(self) -> str:
        """The declaration after "for every": "beta > 0", "real p"."""
        return f"real {self.name}" if self.all_reals else self.text

    @property
    def all_reals(self) -> bool:
        return len(self.regions) == 1 and self.regions[0].lower == -_OO and self.regions[0].upper == _OO

    def contains(self, value: sympy.Expr) -> bool:
        """Is ``value`` in the range? Certified comparisons; an undecided one answers False."""
        try:
            for r in self.regions:
                if r.is_point:
                    if certified_order(value, r.lower) == 0:
                        return True
                elif certified_order(value, r.lower) > 0 and certified_order(r.upper, value) > 0:
                    return True
        except Undecided:
            return False
        return False


@dataclass(frozen=True)
class Parameters:
    """The declared parameters of a family, in declaration order (empty: an ordinary σ)."""

    specs: tuple[ParamSpec, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.specs)

    def __iter__(self):
        return iter(self.specs)

    def __len__(self) -> int:
        return len(self.specs)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.specs)

    def by_name(self, name: str) -> ParamSpec:
        for p in self.specs:
            if p.name == name:
                return p
        known = ", ".join(self.names) or "none declared"
        raise ParseError(f"unknown parameter {name!r} (declared: {known})")

    def by_symbol(self, symbol: sympy.Symbol) -> ParamSpec:
        return next(p for p in self.specs if p.symbol == symbol)

    @property
    def to_user(self) -> dict[sympy.Symbol, sympy.Symbol]:
        """internal symbol → the user's name (for printing)."""
        return {p.symbol: p.shown for p in self.specs}

    def shown(self, expr: sympy.Basic) -> sympy.Basic:
        """``expr`` with the internal symbols printed as the user's names (nothing re-decided)."""
        with sympy.evaluate(False):
            return expr.xreplace(self.to_user)

    def quantifier(self) -> str:
        """'for every beta > 0', 'for every beta > 0 and every 0 < alpha < 1'."""
        return "for every " + " and every ".join(p.phrase for p in self.specs) if self.specs else ""

    def values(self, given: Mapping[str, object]) -> dict[sympy.Symbol, sympy.Rational]:
        """User values ``{"beta": "1/2"}`` as internal symbol → exact rational, each inside its range."""
        out: dict[sympy.Symbol, sympy.Rational] = {}
        for name, value in given.items():
            spec = self.by_name(name)
            q = rational(value, f"the value of {name}")
            if not spec.contains(q):
                raise ParseError(f"{name} = {q} is outside its declared range {spec.text}")
            out[spec.symbol] = q
        missing = [p.name for p in self.specs if p.symbol not in out]
        if missing:
            raise ParseError(f"no value given for the parameter(s) {', '.join(missing)}")
        return out

    def to_dict(self) -> list[dict[str, str]]:
        return [{"name": p.name, "range": p.text} for p in self.specs]


def rational(value: object, what: str) -> sympy.Rational:
    """An exact rational from an int, a Fraction, a SymPy Rational or text like "1/2" (safe parser)."""
    if isinstance(value, sympy.Rational):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return sympy.Integer(value)
    if isinstance(value, str):
        from symcheck.language.parsing import parse_expression
        number = parse_expression(value, symbols={}).expr
        if number.is_Rational:
            return number
    raise ParseError(f"{what} must be a rational number such as 1 or 1/2, got {value!r}")


def parse_param(text: str, index: int = 0) -> ParamSpec:
    """One declaration: ``name``, ``name OP c``, ``c OP name``, ``c1 < name < c2`` (or ``<=``),
    OP one of ``< <= > >= !=``, c rational."""
    from symcheck.language.parsing import parse_tree, refuse_forbidden
    if not isinstance(text, str):
        raise ParseError(f"a parameter is declared by a string such as 'beta>0', got {type(text).__name__}")
    source, tree = parse_tree(text)
    refuse_forbidden(tree, source)
    body = tree.body
    if isinstance(body, ast.Name):
        name = _name(body.id, text)
        return ParamSpec(name, internal_symbol(index), (Region(-_OO, _OO),), f"{name} real")
    if not isinstance(body, ast.Compare):
        raise ParseError(f"cannot read the parameter declaration {text!r}: expected NAME, NAME > c, "
                         f"c < NAME < d or NAME != c (c, d rational)")
    from symcheck.language.parsing import CONSTANTS
    operands = [body.left, *body.comparators]
    names = [i for i, node in enumerate(operands) if isinstance(node, ast.Name) and node.id not in CONSTANTS]
    if not names:  # "pi>0": the one name is a constant, which cannot be a parameter
        for node in operands:
            if isinstance(node, ast.Name):
                _name(node.id, text)
    if len(names) != 1:
        raise ParseError(f"the declaration {text!r} must name exactly one parameter, compared with numbers")
    at = names[0]
    target = operands[at]
    assert isinstance(target, ast.Name)  # names holds the indices of ast.Name operands only
    name = _name(target.id, text)
    bounds = {i: _bound(source, node, text) for i, node in enumerate(operands) if i != at}
    ops = list(body.ops)
    if any(type(op) is ast.Eq for op in ops):
        raise ParseError(f"{text!r}: a parameter fixed to one value is a number; write the number in the activation")
    if len(operands) == 2:
        op = type(ops[0]) if at == 0 else _FLIPPED[type(ops[0])]  # read as "name OP c"
        c = bounds[1 - at]
        regions = _one_sided(op, c)
        return ParamSpec(name, internal_symbol(index), regions, f"{name} {_OPS[op][1]} {c}")
    if len(operands) == 3 and at == 1 and all(type(op) in (ast.Lt, ast.LtE) for op in ops):
        lo, hi = bounds[0], bounds[2]
        return _between(name, index, lo, hi, type(ops[0]) is ast.LtE, type(ops[1]) is ast.LtE, text)
    if len(operands) == 3 and at == 1 and all(type(op) in (ast.Gt, ast.GtE) for op in ops):
        hi, lo = bounds[0], bounds[2]
        return _between(name, index, lo, hi, type(ops[1]) is ast.GtE, type(ops[0]) is ast.GtE, text)
    raise ParseError(f"cannot read the parameter declaration {text!r}: a range is c < NAME < d "
                     f"(or <=), with the parameter in the middle")


def _name(name: str, text: str) -> str:
    """A parameter may be named like a function (gamma: used as a number it is the parameter,
    called it is Γ), never like a constant (pi, E), which has no other reading."""
    from symcheck.language.parsing import CONSTANTS
    if name in CONSTANTS:
        raise ParseError(f"{name!r} cannot be a parameter: it is a constant of the expression language")
    return name


def _bound(source: str, node: ast.expr, text: str) -> sympy.Rational:
    from symcheck.language.parsing import Builder
    value = Builder(source, {}, {}).build(node).expr
    if not value.is_Rational:
        raise ParseError(f"a bound of a parameter must be a rational number, got {sympy.sstr(value)!r} in {text!r}")
    return value


def _one_sided(op: type[ast.cmpop], c: sympy.Rational) -> tuple[Region, ...]:
    point = (Region(c, c),)
    return {ast.Gt: (Region(c, _OO),), ast.GtE: point + (Region(c, _OO),),
            ast.Lt: (Region(-_OO, c),), ast.LtE: (Region(-_OO, c),) + point,
            ast.NotEq: (Region(-_OO, c), Region(c, _OO))}[op]


def _between(name: str, index: int, lo: sympy.Rational, hi: sympy.Rational, lo_closed: bool, hi_closed: bool,
             text: str) -> ParamSpec:
    if lo >= hi:  # rationals: exact comparison
        raise ParseError(f"the range {text!r} is empty: its lower bound {lo} is not below its upper bound {hi}")
    regions = ((Region(lo, lo),) if lo_closed else ()) + (Region(lo, hi),) + ((Region(hi, hi),) if hi_closed else ())
    shown = f"{lo} {'<=' if lo_closed else '<'} {name} {'<=' if hi_closed else '<'} {hi}"
    return ParamSpec(name, internal_symbol(index), regions, shown)


def parameters(spec: Parameters | Mapping[str, str | None] | Sequence[str] | str | None) -> Parameters:
    """Declarations from the API's ``params={"beta": "beta>0", "p": None}``, the CLI's list of
    ``--param`` texts, one text, or None (no parameters)."""
    if spec is None:
        return Parameters()
    if isinstance(spec, Parameters):
        return spec
    if isinstance(spec, str):
        spec = [spec]
    texts: list[str] = []
    if isinstance(spec, Mapping):
        for name, declared in spec.items():
            declared = name if declared in (None, "", "real") else declared
            texts.append(declared)
            parsed = parse_param(declared)
            if parsed.name != name:
                raise ParseError(f"params[{name!r}] declares {parsed.name!r}; the key must be the parameter's name")
    elif isinstance(spec, Iterable):
        texts = list(spec)
    else:
        raise ParseError(f"params must be a mapping such as {{'beta': 'beta>0'}}, got {type(spec).__name__}")
    specs = tuple(parse_param(t, i) for i, t in enumerate(texts))
    seen: set[str] = set()
    for p in specs:
        if p.name in seen:
            raise ParseError(f"the parameter {p.name!r} is declared twice")
        seen.add(p.name)
    return Parameters(specs)
