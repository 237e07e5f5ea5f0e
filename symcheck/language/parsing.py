"""Parse user expressions into SymPy without executing any code.

The text goes through ``ast.parse`` only; the tree is walked against an allow-list of node
types and names, and every SymPy object is built here by hand (never ``eval``, ``sympify``,
``parse_expr`` or ``lambdify`` on user text). Sizes, nesting and powers are bounded before
anything can grow, so hostile input fails fast with a one-line :class:`ParseError`.

While building, each construct that is only defined on part of R (``log``, ``sqrt``,
division, fractional powers, ``tan``, Piecewise without a final ``True``) records an
:class:`Obligation` from the expression *as written* -- before SymPy's automatic
simplification can hide it (``z/z`` becomes ``1`` but still needs ``z != 0``).
:func:`parse_activation` then has :mod:`symcheck.language.definedness` prove each obligation for every
real value of the variable, or refute it at a point it has certified, or report that it could
not decide.

SymPy decides the sign of a number with ``evalf`` at about two digits whenever it builds
``Abs``, ``Max``, ``sign``, ``Heaviside``, a relation or a Piecewise, and cancellation fools it
(it calls ``exp(-30) - log(1 + exp(-30)) - exp(-60)/2``, about −2.7·10⁻⁴⁰, positive). Where an
argument holds a number that is not rational, the parser never takes that answer: a node whose
arguments are numbers is decided by certified signs (:func:`~symcheck.exact.signs.exact_sign`),
two arguments of Max/Min that differ by a number are compared the same way, and any other
decision SymPy makes is kept only when it is proved for every real value (else the text is
refused). What is left is a fixed point of SymPy's evaluation: rebuilding it changes nothing.

>>> parse_activation("z/(1 + exp(-z))")
z/(1 + exp(-z))
>>> parse_activation("log(z)")
Traceback (most recent call last):
...
symcheck.core.errors.DomainError: log(z) is not defined on all of R: its argument is not positive at z = 0
"""
from __future__ import annotations

import ast
import copy
import functools
import io
import itertools
import keyword
import operator
import tokenize
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import sympy
from sympy import S
from sympy.core.function import AppliedUndef
from sympy.core.parameters import global_parameters
from sympy.logic.boolalg import Boolean, BooleanAtom

from symcheck.core.budget import BudgetExceeded, alarm
from symcheck.core.errors import DomainError, ParseError, SymcheckError
from symcheck.core.functions import BY_NAME, FUNCTIONS, INTEGER_PARTS
from symcheck.core.names import closest
from symcheck.core.printing import text as _shown
from symcheck.exact.signs import Undecided, exact_sign
from symcheck.language.definedness import (
    SOLVE_SECONDS,
    Obligation,
    ObligationKind,
    check_defined_on_reals,
    holds,
    truncate,
)
from symcheck.language.symbols import Z

__all__ = [
    "BUILTIN_FUNCTIONS",
    "CONSTANTS",
    "LIMITS",
    "Builder",
    "Limits",
    "Obligation",  # re-exported from .domain
    "Parsed",
    "check_defined_on_reals",  # re-exported from .domain
    "parse_activation",
    "parse_expression",
    "parse_tree",
    "refuse_forbidden",
]


@dataclass(frozen=True)
class Limits:
    """Bounds that keep parsing and checking fast whatever the input."""

    max_length: int = 1000  #: characters of input
    max_depth: int = 30  #: bracket nesting, counted before the Python parser sees the text
    max_ast_depth: int = 100  #: nesting of the syntax tree (unary chains, long sums)
    max_nodes: int = 400  #: expression nodes in the syntax tree
    max_literal_exponent: int = 300  #: number literals lie within 10**-300 .. 10**300
    max_exponent: int = 100  #: a numeric exponent p/q needs |p| <= 100 and q <= 100
    # Numbers stay below Python's 4300-digit limit for int -> str, so every result can be printed.
    max_number_bits: int = 10_000  #: bits of any integer built (about 3000 decimal digits)
    max_total_exponent: int = 1000  #: product of numeric exponents along nested powers
    build_seconds: float = 5.0  #: safety net for building the SymPy expression
    solve_seconds: float = SOLVE_SECONDS  #: budget of one proof attempt in the domain check


LIMITS = Limits()


@dataclass(frozen=True)
class Parsed:
    """A parsed expression, its definedness obligations, and the variables as written."""

    expr: sympy.Expr
    obligations: tuple[Obligation, ...] = ()
    #: variables that occur in the text (even if SymPy cancelled them), sorted by name
    variables: tuple[sympy.Symbol, ...] = ()


# --- the allow-lists -------------------------------------------------------------------------

# the functions of one argument, and Mod(u, c), from the one table of functions users write
# a builder is called as build(arg) and build(arg, evaluate=False)
_UNARY: dict[str, Callable[..., sympy.Expr]] = {f.name: f.build for f in FUNCTIONS if f.arity == 1}
_BINARY: dict[str, Callable[[sympy.Expr, sympy.Expr], sympy.Expr]] = {f.name: f.build for f in FUNCTIONS
                                                                      if f.arity == 2}
# SymPy's classes: called to build, and asked by isinstance to flatten nested ones
_VARIADIC: dict[str, type[sympy.Expr]] = {"Max": sympy.Max, "Min": sympy.Min}
# Eq and Ne too, because SymPy prints "z != 0" as Ne(z, 0): its output parses back.
_BOOLEAN_FUNCTIONS = ("And", "Or", "Not", "Eq", "Ne")
_ALIASES = {"abs": "Abs", "max": "Max", "min": "Min"}
#: the named constants users write (every other name is a variable, a parameter or a function)
CONSTANTS: dict[str, sympy.Expr] = {"pi": sympy.pi, "E": sympy.E}
#: every function name the parser knows without a catalogue (the family and parameter parsers ask too)
BUILTIN_FUNCTIONS = (*_UNARY, *_BINARY, *_VARIADIC, "Piecewise", *_BOOLEAN_FUNCTIONS, *_ALIASES)

_ARITHMETIC: dict[type, Callable[[Any, Any], sympy.Expr]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_CONNECTIVES = {ast.BitAnd: "&", ast.BitOr: "|"}
_COMPARISONS: dict[type[ast.cmpop], type] = {
    ast.Lt: sympy.Lt, ast.LtE: sympy.Le, ast.Gt: sympy.Gt, ast.GtE: sympy.Ge,
    ast.Eq: sympy.Eq, ast.NotEq: sympy.Ne,
}
_OPERATOR_TEXT = {
    ast.Mod: "%", ast.FloorDiv: "//", ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>",
    ast.BitXor: "^", ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
}
# Node types with a fixed refusal; everything else not explicitly handled is refused generically.
_REFUSED = {
    ast.Attribute: "attribute access is not allowed",
    ast.Subscript: "subscripts are not allowed",
    ast.Slice: "slices are not allowed",
    ast.Lambda: "lambda expressions are not allowed",
    ast.ListComp: "comprehensions are not allowed",
    ast.SetComp: "comprehensions are not allowed",
    ast.DictComp: "comprehensions are not allowed",
    ast.GeneratorExp: "comprehensions are not allowed",
    ast.JoinedStr: "f-strings are not allowed",
    ast.FormattedValue: "f-strings are not allowed",
    ast.NamedExpr: "assignment expressions (:=) are not allowed",
    ast.Starred: "starred arguments are not allowed",
    ast.List: "lists are not allowed",
    ast.Set: "sets are not allowed",
    ast.Dict: "dictionaries are not allowed",
    ast.IfExp: "conditional expressions are not allowed; use Piecewise((a, cond), (b, True))",
    ast.Await: "await is not allowed",
    ast.Yield: "yield is not allowed",
    ast.YieldFrom: "yield is not allowed",
}

_ONE = sympy.Integer(1)


# --- public API --------------------------------------------------------------------------------

def parse_expression(
    text: str,
    *,
    functions: Mapping[str, Callable[[sympy.Expr], sympy.Expr]] = MappingProxyType({}),
    symbols: Mapping[str, sympy.Symbol] | None = None,
) -> Parsed:
    """Parse ``text`` into a SymPy expression plus the obligations it needs to be defined.

    ``functions`` adds trusted unary functions (they add no obligations of their own).
    ``symbols=None`` turns every free identifier into a real symbol; a mapping restricts the
    variables to its names. Every failure is a one-line :class:`ParseError`.

    >>> parse_expression("z/z").expr, parse_expression("z/z").obligations[0].kind
    (1, 'nonzero')
    """
    try:
        source, tree = parse_tree(text)
        refuse_forbidden(tree, source, functions)
        parsed = Builder(source, functions, symbols).build(tree.body)
        _check_against_as_written(parsed.expr, source, tree, functions, symbols)
        return parsed
    except ParseError as err:
        err.text = err.text or text
        raise


#: rational points where the expression is compared with the text as written (see below)
_PROBES = (sympy.Rational(1, 3), sympy.Rational(-2, 7), sympy.Rational(5, 4))


def _check_against_as_written(expr: sympy.Expr, source: str, tree: ast.Expression,
                              functions: Mapping[str, Callable[[sympy.Expr], sympy.Expr]],
                              symbols: Mapping[str, sympy.Symbol] | None) -> None:
    """Refuse the text when SymPy's arithmetic changed its value, as certified at a point.

    The safe constructors decide every node the parser builds, but SymPy's arithmetic still
    rebuilds what it combines, and asks ``is_zero`` of an exponent or factor on the way: for a c
    it wrongly calls zero (log(1 + 2e^-30) − log(1 + e^-30)), ``z*exp(c*z)`` becomes ``z``. So when
    the text holds a number SymPy signs by evalf, it is built a second time with no evaluation
    at all and both are evaluated by ball arithmetic (which decides its own branches) at a few
    rational points: a certified difference means SymPy changed the function, and the text is
    refused. No difference found proves nothing more; it only finds no such change.
    """
    from symcheck.exact.evaluate import certify_nonzero
    from symcheck.exact.signs import EXACT_SIGN_BITS
    # under evaluate(False) the safe constructors decide nothing: each node is built as written
    try:
        with sympy.evaluate(False):
            as_written = Builder(source, functions, symbols).build(tree.body).expr
    except SymcheckError:
        return
    if not _signed_by_evalf(as_written):
        return
    free = (expr.free_symbols | as_written.free_symbols)
    if len(free) > 1 or expr.has(AppliedUndef) or as_written.has(AppliedUndef):
        return
    points = [{}] if not free else [{next(iter(free)): p} for p in _PROBES]
    for point in points:
        try:
            changed = certify_nonzero(expr - as_written, point, max_prec=EXACT_SIGN_BITS)
        except SymcheckError:
            continue
        if changed is not None:
            where = ", ".join(f"{v} = {x}" for v, x in point.items()) or "every point"
            raise ParseError(f"SymPy's automatic simplification changes the value of the expression at "
                             f"{where} (it takes the sign of a number from a low-precision "
                             f"evaluation); symcheck cannot use it as SymPy builds it")


def parse_activation(
    text: str, *, functions: Mapping[str, Callable[[sympy.Expr], sympy.Expr]] = MappingProxyType({})
) -> sympy.Expr:
    """Parse a real activation of (at most) one variable and return it as an expression in Z.

    Raises :class:`ParseError` for bad text or two or more variables, and :class:`DomainError`
    unless the function is provably real-valued and defined on all of R.

    >>> parse_activation("x*tanh(log(1 + exp(x)))")
    z*tanh(log(exp(z) + 1))
    """
    parsed = parse_expression(text, functions=functions)
    if len(parsed.variables) > 1:
        names = [v.name for v in parsed.variables]
        raise ParseError(f"expected one variable, found {len(names)}: {', '.join(names)}"
                         + undeclared_hint(names), text=text)
    variable = parsed.variables[0] if parsed.variables else Z
    try:
        check_defined_on_reals(parsed.expr, parsed.obligations, variable=variable,
                               seconds=LIMITS.solve_seconds)
    except DomainError as err:
        err.text = err.text or text
        raise
    # renamed through the safe constructors: a plain xreplace rebuilds every node SymPy's way
    return parsed.expr if variable == Z else substitute(parsed.expr, {variable: Z}, text)


#: names taken as the variable when several are free, in this order
VARIABLE_NAMES = ("z", "x", "t", "u", "y")


def undeclared_hint(names: list[str]) -> str:
    """The end of the error for symbols beside the variable: declare them as parameters."""
    variable = next((n for n in VARIABLE_NAMES if n in names), None)
    extra = [n for n in names if n != variable] or names
    one = len(extra) == 1
    return (f"; if {', '.join(extra)} {'is a parameter' if one else 'are parameters'}, declare "
            f"{'it' if one else 'each'} with --param (e.g. --param \"{extra[0]}>0\", or "
            f"params={{'{extra[0]}': '{extra[0]}>0'}} in Python)")


# --- text -> syntax tree ---------------------------------------------------------------------

def parse_tree(text: str) -> tuple[str, ast.Expression]:
    """Validate the raw text and parse it; returns the text actually parsed and the tree."""
    if not isinstance(text, str):
        raise ParseError(f"expected a string, got {type(text).__name__}")
    if not text.strip():
        raise ParseError("empty expression")
    if len(text) > LIMITS.max_length:
        raise ParseError(f"expression too long: {len(text)} characters (limit {LIMITS.max_length})")
    for position, char in enumerate(text):
        if not (char.isprintable() or char in " \t\n"):
            raise ParseError(f"non-printable character {char!r} at position {position}")
    _check_bracket_depth(text)
    # SymPy's convert_xor: '^' is power. Replacing the token keeps Python's precedence right
    # ("z^2+1" is z**2 + 1, not z**3); a '^' inside a string is refused later anyway.
    source = text.strip().replace("^", "**")
    try:
        tree = _ast_parse(source)
    except SyntaxError as err:
        renamed = _parse_renamed(source)
        if renamed is None:
            line = f"line {err.lineno}, " if err.lineno and err.lineno > 1 else ""
            where = f" at {line}column {err.offset}" if err.offset else ""
            raise ParseError(f"syntax error{where}: {_one_line(err.msg)}") from None
        source, tree = renamed
    except (RecursionError, MemoryError, ValueError) as err:
        raise ParseError(f"could not parse the expression: {_one_line(str(err)) or type(err).__name__}") from None
    _check_tree_size(tree)
    return source, tree


def _ast_parse(source: str) -> ast.Expression:
    with warnings.catch_warnings():  # e.g. "invalid decimal literal": ours is the one message
        warnings.simplefilter("ignore")
        return ast.parse(source, mode="eval")


#: keywords with a meaning inside an expression: never read as a name
_EXPRESSION_KEYWORDS = frozenset({"and", "or", "not", "if", "else", "in", "is", "True", "False", "None",
                                  "for", "async", "await", "yield"})


def _keywords_renamed(source: str) -> tuple[str, dict[str, str]] | None:
    """``source`` with each keyword used as a name (SELU's ``lambda``) replaced, token by token,
    by a fresh identifier, and the map fresh → keyword; None when there is none (or no tokens).

    Only tried after Python refused the text, so a text that parses (``lambda: 1``, refused
    later as a lambda expression) is never reinterpreted; other names containing the keyword
    (``lambdas``, ``my_lambda``) are whole NAME tokens and are never touched."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    names = {t.string for t in tokens if t.type == tokenize.NAME}
    hits = [t for t in tokens if t.type == tokenize.NAME and keyword.iskeyword(t.string)
            and t.string not in _EXPRESSION_KEYWORDS]
    if not hits:
        return None
    fresh: dict[str, str] = {}
    for word in {t.string for t in hits}:
        alias = word + "_"
        while alias in names or alias in fresh:
            alias += "_"
        fresh[alias] = word
    alias_of = {word: alias for alias, word in fresh.items()}
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    out = source
    for t in sorted(hits, key=lambda t: t.start, reverse=True):  # from the end: offsets stay valid
        at = starts[t.start[0] - 1] + t.start[1]
        out = out[:at] + alias_of[t.string] + out[at + len(t.string):]
    return out, fresh


def _parse_renamed(source: str) -> tuple[str, ast.Expression] | None:
    """The text with its keywords renamed, parsed, each renamed name given the user's keyword
    back (the tree's names are plain strings, so the builder, the declarations and every
    printout see ``lambda``); None when nothing was renamed or it still does not parse."""
    renamed = _keywords_renamed(source)
    if renamed is None:
        return None
    text, fresh = renamed
    try:
        tree = _ast_parse(text)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in fresh:
            node.id = fresh[node.id]
    return text, tree


def _check_bracket_depth(text: str) -> None:
    # Counted on the raw text because deep nesting can exhaust the Python parser itself.
    depth = 0
    for char in text:
        if char in "([{":
            depth += 1
            if depth > LIMITS.max_depth:
                raise ParseError(f"expression nested too deeply: more than {LIMITS.max_depth} levels of brackets")
        elif char in ")]}":
            depth = max(depth - 1, 0)


def _check_tree_size(tree: ast.Expression) -> None:
    # Iterative, so that neither this check nor the recursive builder can overflow the stack.
    nodes = 0
    stack: list[tuple[ast.AST, int]] = [(tree.body, 1)]
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if nodes > LIMITS.max_nodes:
            raise ParseError(f"expression too large: more than {LIMITS.max_nodes} nodes")
        if depth > LIMITS.max_ast_depth:
            raise ParseError(f"expression nested too deeply: more than {LIMITS.max_ast_depth} levels")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node)
                     if isinstance(child, (ast.expr, ast.keyword)))


def refuse_forbidden(tree: ast.Expression, source: str, functions: Mapping[str, Any] = MappingProxyType({})) -> None:
    """Refuse constructs that are never allowed, reporting the leftmost one."""
    nodes = [node for node in ast.walk(tree.body) if isinstance(node, ast.expr)]
    outer = {id(node.value): node for node in nodes if isinstance(node, ast.Attribute)}
    calls = {id(node.func): node for node in nodes if isinstance(node, ast.Call)}
    problems = []
    for node in nodes:
        if isinstance(node, ast.Attribute):
            top = node  # the whole dotted name: torch.nn.functional.gelu, whose call says what to write
            while id(top) in outer:
                top = outer[id(top)]
            message: str | None = _attribute(node, top, calls.get(id(top)), source, functions)
        else:
            message = _forbidden(node, source)
        if message is not None:
            problems.append((node, message))
    if problems:
        node, message = min(problems, key=lambda item: _position(item[0]))
        raise ParseError(message)


#: NumPy's, PyTorch's and math's names for functions written here otherwise (np.maximum is Max)
_LIBRARY_NAMES = {"abs": "Abs", "absolute": "Abs", "fabs": "Abs", "maximum": "Max", "minimum": "Min",
                  "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh",
                  "arctanh": "atanh", "heaviside": "Heaviside", "sgn": "sign", "pi": "pi", "e": "E"}


def _attribute(node: ast.Attribute, top: ast.Attribute, call: ast.Call | None, source: str,
               functions: Mapping[str, Any]) -> str:
    """The refusal of ``node`` (an attribute of the dotted name ``top``): for ``np.tanh(z)``,
    ``torch.relu(z)``, ``F.silu(z)``, what to write instead, when the last name is one of ours
    (attributes are never read: only the message knows the libraries' spellings)."""
    ours = _LIBRARY_NAMES.get(top.attr, top.attr)
    dotted = f"attribute access is not allowed: {_segment(source, top)!r}"
    if ours in CONSTANTS and call is None:
        return f"{dotted}; write {ours}"
    if call is None or not (ours in BUILTIN_FUNCTIONS or ours in functions):
        return f"attribute access is not allowed: {node.attr!r}"
    written = f"{ours}({', '.join(_segment(source, arg) for arg in call.args)})"
    if ours in functions and ours not in BUILTIN_FUNCTIONS:
        return f"{dotted}; write {written} ({ours} is a built-in name: --act {ours})"
    return f"{dotted}; write {written}"


def _position(node: ast.AST) -> tuple[int, int, int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0),
            getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def _forbidden(node: ast.AST, source: str) -> str | None:
    """The refusal message for ``node`` if it is never allowed, else None."""
    if isinstance(node, ast.Attribute):
        return f"attribute access is not allowed: {node.attr!r}"
    if type(node) in _REFUSED:
        return _REFUSED[type(node)]
    if isinstance(node, ast.Name):
        return _forbidden_name(node.id)
    if isinstance(node, ast.Constant):
        return _forbidden_constant(node, source)
    if isinstance(node, ast.BinOp) and type(node.op) not in _ARITHMETIC | _CONNECTIVES:
        return f"operator {_OPERATOR_TEXT.get(type(node.op), type(node.op).__name__)!r} is not allowed"
    if isinstance(node, ast.Compare):
        for op in node.ops:
            if type(op) not in _COMPARISONS:
                return f"operator {_OPERATOR_TEXT.get(type(op), type(op).__name__)!r} is not allowed"
        return None
    if isinstance(node, ast.Call):
        if node.keywords:
            name = node.keywords[0].arg
            return f"keyword arguments are not allowed: '{name}='" if name else "'**' arguments are not allowed"
        if not isinstance(node.func, (ast.Name, ast.Attribute)):
            return "only named functions can be called"
        return None
    if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Tuple)):
        return None
    return f"{type(node).__name__} is not allowed"


def _forbidden_name(name: str) -> str | None:
    if name.startswith("_"):
        return f"name {name!r} is not allowed: names starting with '_' are reserved"
    if "__" in name:
        return f"name {name!r} is not allowed: names containing '__' are reserved"
    return None


def _forbidden_constant(node: ast.Constant, source: str) -> str | None:
    value = node.value
    if isinstance(value, (bool, int, float)):
        return None
    if isinstance(value, complex):
        return f"not real-valued: imaginary number {_segment(source, node)}"
    if isinstance(value, str):
        return f"strings are not allowed: {truncate(repr(value))}"
    if isinstance(value, bytes):
        return "bytes are not allowed"
    return f"{value!r} is not allowed"


# --- syntax tree -> SymPy ------------------------------------------------------------------

class Builder:
    """Builds SymPy objects from a validated tree, collecting obligations as written."""

    def __init__(self, source: str, functions: Mapping[str, Callable[[sympy.Expr], sympy.Expr]],
                 symbols: Mapping[str, sympy.Symbol] | None) -> None:
        self.source = source
        self.functions = functions
        self.symbols = symbols
        self.region: Boolean = sympy.true  # where the node being built is evaluated
        self.obligations: dict[tuple[str, sympy.Expr, Boolean], Obligation] = {}
        self.variables: dict[str, sympy.Symbol] = {}
        self.weights: dict[ast.AST, sympy.Rational] = {}  # product of exponents below a node

    def build(self, node: ast.expr) -> Parsed:
        try:
            with alarm(LIMITS.build_seconds):
                expr = self.number(node)
        except SymcheckError:
            raise
        except BudgetExceeded:
            raise ParseError(f"expression too expensive to build (over {LIMITS.build_seconds:g} s)") from None
        except (RecursionError, MemoryError) as err:
            raise ParseError(f"expression too complex to build: {type(err).__name__}") from None
        except Exception as err:  # SymPy refusing a construction (e.g. comparing non-reals)
            raise ParseError(f"could not build the expression: {_one_line(str(err)) or type(err).__name__}") from None
        variables = tuple(sorted(self.variables.values(), key=lambda s: s.name))
        return Parsed(expr, tuple(self.obligations.values()), variables)

    # numbers ------------------------------------------------------------------------------

    def number(self, node: ast.expr) -> sympy.Expr:
        """Build ``node`` where a real number is expected."""
        if isinstance(node, ast.Constant):
            value = self._constant(node)
        elif isinstance(node, ast.Name):
            value = self._name(node)
        elif isinstance(node, ast.BinOp):
            value = self._binop(node)
        elif isinstance(node, ast.UnaryOp):
            value = self._unary(node)
        elif isinstance(node, ast.Call):
            value = self._call(node)
        elif isinstance(node, ast.Compare):
            raise ParseError(f"a comparison cannot be used as a number: {self._text(node)!r}")
        elif isinstance(node, ast.BoolOp):
            raise ParseError(f"a condition cannot be used as a number: {self._text(node)!r}")
        elif isinstance(node, ast.Tuple):
            raise ParseError("a tuple is only allowed as a Piecewise (expression, condition) pair")
        else:  # unreachable after refuse_forbidden; kept so nothing slips through
            raise ParseError(f"{type(node).__name__} is not allowed")
        if node not in self.weights:
            self.weights[node] = self._weight_below(node)
        if isinstance(node, ast.BinOp):  # products of many literals grow too, not just powers
            self._check_number_size(node, value)
        return value

    def _check_number_size(self, node: ast.BinOp, value: sympy.Expr) -> None:
        bits = max((max(r.p.bit_length(), r.q.bit_length()) for r in value.atoms(sympy.Rational)), default=0)
        if bits > LIMITS.max_number_bits:
            raise ParseError(f"numbers too large: {self._text(node)} contains a number of about "
                             f"{bits} bits (limit {LIMITS.max_number_bits})")

    def _weight_below(self, node: ast.AST) -> sympy.Rational:
        # Conservative: a node carries the largest exponent product found beneath it.
        return max((self.weights.get(child) or self._weight_below(child)
                    for child in ast.iter_child_nodes(node)), default=_ONE)

    def _constant(self, node: ast.Constant) -> sympy.Expr:
        value = node.value
        if isinstance(value, bool):
            raise ParseError(f"a condition cannot be used as a number: {value!r}")
        if isinstance(value, int):
            if abs(value) > 10 ** LIMITS.max_literal_exponent:
                raise ParseError(f"number literal out of range: {truncate(_segment(self.source, node))}")
            return sympy.Integer(value)
        return self._float_literal(node)

    def _float_literal(self, node: ast.Constant) -> sympy.Rational:
        # Exact from the source text: "0.01" is 1/100, not the binary float nearest to it.
        text = _segment(self.source, node).replace("_", "")
        try:
            decimal = Decimal(text)
        except InvalidOperation:
            raise ParseError(f"could not read the number {truncate(text)!r}") from None
        exponent = decimal.as_tuple().exponent
        bound = LIMITS.max_literal_exponent
        if not isinstance(exponent, int) or abs(exponent) > bound + 100 or (
                decimal != 0 and abs(decimal.adjusted()) > bound):
            raise ParseError(f"number literal out of range: {truncate(text)}")
        fraction = Fraction(decimal)
        return sympy.Rational(fraction.numerator, fraction.denominator)

    def _name(self, node: ast.Name) -> sympy.Expr:
        name = node.id
        if name in CONSTANTS:
            return CONSTANTS[name]
        declared = self.symbols is not None and name in self.symbols
        # a declared name used as a number (a family's parameter gamma) is that symbol; called, a function
        if not declared and (name in self.functions or name in BUILTIN_FUNCTIONS):
            raise ParseError(f"{name!r} is a function; call it, as in {name}(z)")
        if self.symbols is None:
            symbol = sympy.Symbol(name, real=True)
        elif declared:
            symbol = self.symbols[name]
        else:
            raise ParseError(_unknown("variable", name, self.symbols))
        self.variables[name] = symbol
        return symbol

    def _unary(self, node: ast.UnaryOp) -> sympy.Expr:
        if isinstance(node.op, ast.USub):
            return -self.number(node.operand)
        if isinstance(node.op, ast.UAdd):
            return self.number(node.operand)
        raise ParseError(f"a condition cannot be used as a number: {self._text(node)!r}")

    def _binop(self, node: ast.BinOp) -> sympy.Expr:
        op = type(node.op)
        if op in _CONNECTIVES:
            raise ParseError(f"{_CONNECTIVES[op]!r} joins conditions, not numbers; put parentheses "
                             f"around comparisons, as in (z > 0) {_CONNECTIVES[op]} (z < 1)")
        left, right = self.number(node.left), self.number(node.right)
        if op is ast.Pow:
            return self._power(node, left, right)
        if op is ast.Div:
            self._oblige("nonzero", right, f"division by {self._operand_text(node.right)}")
        return _ARITHMETIC[op](left, right)

    def _power(self, node: ast.BinOp, base: sympy.Expr, exponent: sympy.Expr) -> sympy.Expr:
        written = self._text(node)
        if not exponent.is_number:
            # Positivity of the base is sufficient (not necessary) for base**exponent to be real.
            self._oblige("positive", base, written, role="variable base")
            self.weights[node] = max(self.weights[node.left], self.weights[node.right])
            return _power(base, exponent)
        self._check_power_size(node, base, exponent)
        if exponent.is_integer:
            if exponent.is_negative:
                self._oblige("nonzero", base, written)
        elif exponent.is_positive:
            self._oblige("nonnegative", base, written, role="base")
        else:
            self._oblige("positive", base, written, role="base")
        return _power(base, exponent)

    def _check_power_size(self, node: ast.BinOp, base: sympy.Expr, exponent: sympy.Expr) -> None:
        """Refuse powers whose evaluation could be huge, before SymPy evaluates them."""
        limit = LIMITS.max_exponent
        if not exponent.is_Rational or abs(exponent.p) > limit or exponent.q > limit:
            raise ParseError(f"exponent {truncate(sympy.sstr(exponent))} is not allowed: a numeric "
                             f"exponent must be a fraction p/q with |p| <= {limit} and q <= {limit}")
        total = self.weights[node.left] * abs(exponent)
        if total > LIMITS.max_total_exponent:
            raise ParseError(f"nested powers too large: total exponent {total} exceeds {LIMITS.max_total_exponent}")
        self.weights[node] = max(total, self.weights[node.right])
        # SymPy distributes integer powers over products of numbers, so every number in the base
        # may be raised to |p|: estimate the size before SymPy computes it.
        bits = max(1, sum(r.p.bit_length() + r.q.bit_length() for r in base.atoms(sympy.Rational)))
        if bits * abs(exponent.p) > LIMITS.max_number_bits:
            raise ParseError(f"power too large: {self._text(node)} would need about "
                             f"{bits * abs(exponent.p)} bits (limit {LIMITS.max_number_bits})")

    # calls ------------------------------------------------------------------------------------

    def _call(self, node: ast.Call) -> sympy.Expr:
        name = self._function_name(node)
        # Built-ins win over caller-supplied names: the catalogue defines tanh as tanh(z).
        if name in self.functions and _ALIASES.get(name, name) not in BUILTIN_FUNCTIONS:
            # trusted definitions: only their argument is checked
            (arg,) = self._arguments(node, name, 1)
            return self._trusted(self.functions[name], self.number(arg), self._text(node))
        name = _ALIASES.get(name, name)
        if name in _UNARY:
            (arg,) = self._arguments(node, name, 1)
            return self._unary_function(node, name, self.number(arg))
        if name in _BINARY:
            arg, modulus = self._arguments(node, name, 2)
            return self._modulo(node, self.number(arg), self.number(modulus))
        if name in _VARIADIC:
            args = [self.number(arg) for arg in self._arguments(node, name, 2, at_least=True)]
            return extremum(name, args, self._text(node))
        if name == "Piecewise":
            return self._piecewise(node)
        if name in _BOOLEAN_FUNCTIONS:
            raise ParseError(f"a condition cannot be used as a number: {self._text(node)!r}")
        raise ParseError(_unknown("function", name, (*BUILTIN_FUNCTIONS, *self.functions)))

    def _function_name(self, node: ast.Call) -> str:
        if not isinstance(node.func, ast.Name):  # refused earlier; kept for safety
            raise ParseError("only named functions can be called")
        return node.func.id

    def _arguments(self, node: ast.Call, name: str, count: int, at_least: bool = False) -> list[ast.expr]:
        args = node.args
        if len(args) == count or (at_least and len(args) > count):
            return args
        plural = "argument" if count == 1 else "arguments"
        need = f"at least {count}" if at_least else f"{count}"
        raise ParseError(f"{name}() takes {need} {plural}, got {len(args)}")

    def _unary_function(self, node: ast.Call, name: str, arg: sympy.Expr) -> sympy.Expr:
        written = self._text(node)
        entry = BY_NAME[name]
        for condition in entry.domain:  # the domain on R, from the table (acos: -1 <= u <= 1)
            self._oblige(condition.kind, condition.of(arg), written, requirement=condition.requirement,
                         sufficient=entry.sufficient)
        if entry.cls in INTEGER_PARTS and arg.is_number and not arg.is_Rational:
            return _integer_part(entry.build, arg)
        if name in _NONSMOOTH:
            return nonsmooth(name, arg, written)
        if name == "log":
            return _evaluated_or_as_written(sympy.log(arg), sympy.log(arg, evaluate=False), arg)
        if name == "sqrt":
            return _evaluated_or_as_written(sympy.sqrt(arg), sympy.Pow(arg, S.Half, evaluate=False), arg)
        # sin, tanh, erf, ... of an argument SymPy calls zero by evalf would be 0
        return _evaluated_or_as_written(_UNARY[name](arg), _UNARY[name](arg, evaluate=False), arg)

    def _modulo(self, node: ast.Call, arg: sympy.Expr, modulus: sympy.Expr) -> sympy.Expr:
        """Mod(u, c) for a constant c certified positive: u − c·floor(u/c), in [0, c)."""
        written = self._text(node)
        if modulus.free_symbols:
            raise ParseError(f"{written}: the modulus of Mod must be a positive constant, "
                             f"not an expression in {', '.join(sorted(map(str, modulus.free_symbols)))}")
        try:
            positive = exact_sign(modulus) > 0
        except Undecided:
            raise ParseError(f"{written}: cannot certify that the modulus {_shown(modulus)} is positive") from None
        if not positive:
            raise ParseError(f"{written}: the modulus of Mod must be a positive constant, got {_shown(modulus)}")
        if arg.is_number and not arg.is_Rational:
            return _integer_part(sympy.Mod, arg, modulus)
        return _evaluated_or_as_written(sympy.Mod(arg, modulus), sympy.Mod(arg, modulus, evaluate=False),
                                        sympy.Tuple(arg, modulus))

    def _trusted(self, function: Callable[[sympy.Expr], sympy.Expr], arg: sympy.Expr, written: str) -> sympy.Expr:
        """A trusted function applied: a catalogue activation is substituted through the safe
        constructors (SymPy's substitution would rebuild its Max or Piecewise at ``arg`` and
        decide them with evalf); anything else (σ) is applied as it is."""
        body = getattr(function, "expr", None)
        if isinstance(body, sympy.Expr) and (_inexact(arg) or arg.is_number):
            return substitute(body, {Z: arg}, written)
        return function(arg)

    def _piecewise(self, node: ast.Call) -> sympy.Expr:
        if not node.args:
            raise ParseError("Piecewise() needs at least one (expression, condition) pair")
        outer, taken = self.region, sympy.false  # taken: where an earlier branch applies
        pairs = []
        try:
            for arg in node.args:
                if not (isinstance(arg, ast.Tuple) and len(arg.elts) == 2):
                    raise ParseError("Piecewise arguments must be (expression, condition) pairs")
                value_node, condition_node = arg.elts
                self.region = sympy.And(outer, sympy.Not(taken))
                condition = self.condition(condition_node)
                self.region = sympy.And(outer, sympy.Not(taken), condition)
                pairs.append((self.number(value_node), condition))
                taken = sympy.Or(taken, condition)
        finally:
            self.region = outer
        result = piecewise(pairs)
        uncovered = sympy.And(outer, sympy.Not(taken))
        if uncovered is not sympy.false:
            self._oblige("covered", result, self._text(node), region=uncovered)
        return result

    # conditions -------------------------------------------------------------------------------

    def condition(self, node: ast.expr) -> Boolean:
        """Build ``node`` where a condition is expected (Piecewise conditions, And/Or/Not)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return sympy.true if node.value else sympy.false
        if isinstance(node, ast.Compare):
            return self._comparison(node)
        if isinstance(node, ast.BoolOp):
            parts = [self.condition(value) for value in node.values]
            return sympy.And(*parts) if isinstance(node.op, ast.And) else sympy.Or(*parts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.Invert)):
            return sympy.Not(self.condition(node.operand))
        if isinstance(node, ast.BinOp) and type(node.op) in _CONNECTIVES:
            left, right = self.condition(node.left), self.condition(node.right)
            return sympy.And(left, right) if isinstance(node.op, ast.BitAnd) else sympy.Or(left, right)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _BOOLEAN_FUNCTIONS:
            return self._boolean_call(node, node.func.id)
        if isinstance(node, ast.Tuple):
            raise ParseError("a tuple is only allowed as a Piecewise (expression, condition) pair")
        raise ParseError(f"expected a condition (a comparison, And/Or/Not, True or False), got {self._text(node)!r}")

    def _comparison(self, node: ast.Compare) -> Boolean:
        operands = [self.number(node.left), *(self.number(c) for c in node.comparators)]
        written = self._text(node)
        return sympy.And(*(relation(_COMPARISONS[type(op)], a, b, written)
                           for op, (a, b) in zip(node.ops, itertools.pairwise(operands), strict=True)))

    def _boolean_call(self, node: ast.Call, name: str) -> Boolean:
        if name == "Not":
            (arg,) = self._arguments(node, name, 1)
            return sympy.Not(self.condition(arg))
        if name in ("Eq", "Ne"):
            left, right = (self.number(arg) for arg in self._arguments(node, name, 2))
            return relation(sympy.Eq if name == "Eq" else sympy.Ne, left, right, self._text(node))
        args = self._arguments(node, name, 2, at_least=True)
        parts = [self.condition(arg) for arg in args]
        return sympy.And(*parts) if name == "And" else sympy.Or(*parts)

    # helpers ----------------------------------------------------------------------------------

    def _oblige(self, kind: ObligationKind, expr: sympy.Expr, source: str, *,
                role: str = "argument", region: Boolean | None = None, requirement: str = "",
                sufficient: bool = False) -> None:
        if kind != "cos-nonzero" and expr.is_Rational and holds(kind, expr):
            return  # a sign condition on a number, e.g. the "/3" in z**(1/3): nothing to check
        region = self.region if region is None else region
        self.obligations.setdefault((kind, expr, region), Obligation(kind, expr, source, region, role,
                                                                     requirement, sufficient))

    def _text(self, node: ast.AST) -> str:
        # ast.unparse restores the parentheses a sub-node needs (a segment of the source would
        # cut "z**(-1)" at "z**(-1"); tighten its spacing of the binding operators.
        text = ast.unparse(_AsWritten(self.source).visit(copy.deepcopy(node)))
        for spaced, tight in ((" ** ", "**"), (" * ", "*"), (" / ", "/")):
            text = text.replace(spaced, tight)
        return truncate(text)

    def _operand_text(self, node: ast.expr) -> str:
        text = self._text(node)
        return text if isinstance(node, (ast.Name, ast.Constant, ast.Call)) else f"({text})"


class _AsWritten(ast.NodeTransformer):
    """Keeps number literals as typed ("1e-3", not "0.001") when a node is unparsed."""

    def __init__(self, source: str) -> None:
        self.source = source

    def visit_Constant(self, node: ast.Constant) -> ast.expr:
        segment = ast.get_source_segment(self.source, node)
        return ast.Name(id=segment) if segment and isinstance(node.value, float) else node



# --- building without SymPy's numeric decisions ---------------------------------------------
#
# SymPy evaluates Abs, sign, Heaviside, Max/Min, relations, Piecewise, log and fractional powers
# when it builds them, and signs any number in their arguments with evalf at about two digits.
# With only rational numbers (and variables) in the arguments that is exact, and SymPy's own
# construction is kept: printed forms stay as they were. Otherwise:
#
# * a node whose arguments are numbers is decided by a certified sign (exact_sign), or refused;
# * two arguments of Max/Min that differ by a number are compared by the certified sign of the
#   difference, and the smaller (larger) one dropped;
# * a node with variables is kept as SymPy builds it when SymPy changes nothing (a fixed point,
#   so no later rebuild changes it either); if SymPy does decide something (drops a Max
#   argument, calls a relation True, Abs(u) = u), its decision is only a proposal: it is kept
#   when the definedness check proves it for every real value; otherwise each other decision
#   (the other argument, truth value or sign) is tried with the same proof, a constant factor
#   of certified sign is taken out of a relation (c·g > 0 is g > 0 or g < 0), and a node with
#   no proved decision is kept as written (unevaluated);
# * every other function (log, sqrt, exp, sin, tanh, erf, ...) and fractional powers are kept as
#   written when SymPy would change them and their argument holds a sum of irrational numbers or
#   a function value other than exp: SymPy writes log(c) as log(-c) + iπ for a c it wrongly
#   thinks negative, sqrt(c**2) as c, and sin(c·z) as 0 for a c it wrongly calls zero (it calls
#   log(1 + 2e^-30) − log(1 + e^-30) zero). A definedness obligation decides an argument's sign
#   with a certificate. SymPy still
#   rewrites sqrt(2/pi) as sqrt(2)/sqrt(pi): that rests only on signs SymPy knows by definition
#   (rationals, pi, E, exp of a real, powers of positive numbers), not on evalf.

_NONSMOOTH = {"Abs": sympy.Abs, "sign": sympy.sign, "Heaviside": sympy.Heaviside}
#: a relation's truth from the certified sign of lhs − rhs
_RELATION_SIGN: dict[type, Callable[[int], bool]] = {
    sympy.StrictGreaterThan: lambda s: s > 0, sympy.GreaterThan: lambda s: s >= 0,
    sympy.StrictLessThan: lambda s: s < 0, sympy.LessThan: lambda s: s <= 0,
    sympy.Equality: lambda s: s == 0, sympy.Unequality: lambda s: s != 0,
}
#: what proves SymPy's decision (relation, truth) for every real value: an obligation kind on
#: ±(lhs − rhs). "lhs == rhs everywhere" has no such obligation: that relation stays as written.
_RELATION_PROOF: dict[tuple[type, bool], tuple[ObligationKind, int]] = {
    (sympy.StrictGreaterThan, True): ("positive", 1), (sympy.StrictGreaterThan, False): ("nonnegative", -1),
    (sympy.GreaterThan, True): ("nonnegative", 1), (sympy.GreaterThan, False): ("positive", -1),
    (sympy.StrictLessThan, True): ("positive", -1), (sympy.StrictLessThan, False): ("nonnegative", 1),
    (sympy.LessThan, True): ("nonnegative", -1), (sympy.LessThan, False): ("positive", 1),
    (sympy.Unequality, True): ("nonzero", 1), (sympy.Equality, False): ("nonzero", 1),
}


def _inexact(expr: sympy.Basic) -> bool:
    """Whether ``expr`` holds a number that is not rational (SymPy would sign it with evalf)."""
    return any(getattr(e, "is_number", False) and not e.is_Rational and not isinstance(e, BooleanAtom)
               for e in sympy.preorder_traversal(expr))


def _signed_by_evalf(expr: sympy.Basic) -> bool:
    """Whether a rewrite of ``expr`` by SymPy could rest on a sign SymPy takes from evalf: it holds
    an irrational number that is a sum (cancellation) or a function value other than exp (whose
    sign SymPy knows from its definition, as it knows pi's, E's, and a power's of a positive base).
    """
    return any(getattr(e, "is_number", False) and not e.is_Rational and (
        e.is_Add or (isinstance(e, sympy.Function) and not isinstance(e, sympy.exp)))
        for e in sympy.preorder_traversal(expr))


def _not_real(value: sympy.Basic, written: str) -> ParseError:
    return ParseError(f"not real-valued: {written} compares a number that is not real")


def _real_comparison(build: Callable[[], Any], written: str, parts: tuple[sympy.Expr, ...] | None = None) -> Any:
    """SymPy's own construction; its refusal to order a non-real number is ours too.

    With ``parts`` (arguments holding irrational numbers) a failure is called non-real only
    when a part is; SymPy also fails to order a real number it cannot evaluate at low
    precision, and then proposes nothing (None): the caller decides by its own proofs.
    """
    try:
        return build()
    except (TypeError, ValueError):
        if parts is None or any(_has_non_real(part) for part in parts):
            raise _not_real(S.Zero, written) from None
        return None


def _has_non_real(expr: sympy.Expr) -> bool:
    if expr.has(S.ImaginaryUnit, S.ComplexInfinity, S.NaN):
        return True
    try:  # SymPy's word only chooses between two refusals
        return any(e.is_number and e.is_extended_real is False for e in sympy.preorder_traversal(expr))
    except Exception:  # a SymPy failure on a number it cannot judge: not called non-real
        return False


def certified_sign(value: sympy.Expr, written: str) -> int:
    """The certified sign of a number met while building ``written``, or a ParseError.

    >>> certified_sign(sympy.exp(-30) - sympy.log(1 + sympy.exp(-30)) - sympy.exp(-60)/2, "Abs(...)")
    -1
    """
    try:
        return exact_sign(value)
    except Undecided:
        pass
    if _has_non_real(value):
        raise _not_real(value, written)
    raise ParseError(f"cannot certify the sign of {truncate(_shown(value))} in {written}; symcheck "
                     f"takes the sign of a number only from a certificate")


def _proved_everywhere(kind: ObligationKind, expr: sympy.Expr) -> bool:
    """True when the definedness check proves ``kind`` of ``expr`` for every real value of its
    one variable (a case split with proved cut points, or a certified sign); False otherwise."""
    free = expr.free_symbols
    if len(free) != 1 or expr.has(AppliedUndef):
        return False
    try:
        check_defined_on_reals(S.Zero, [Obligation(kind, expr, "")], variable=next(iter(free)),
                               seconds=LIMITS.solve_seconds)
    except SymcheckError:
        return False
    return True


def relation(cls: type, lhs: sympy.Expr, rhs: sympy.Expr, written: str) -> Boolean:
    """``cls(lhs, rhs)`` (Lt, Le, Gt, Ge, Eq or Ne) decided only by certified signs.

    >>> z = sympy.Symbol("z", real=True)
    >>> D = sympy.log(1 + sympy.exp(-30)) - sympy.log(1 + 2*sympy.exp(-30))
    >>> relation(sympy.Eq, D, 0, "Eq(D, 0)"), relation(sympy.Lt, z + D, z, "z + D < z")
    (False, True)
    """
    if not (_inexact(lhs) or _inexact(rhs)) or not global_parameters.evaluate:  # (as written: see below)
        return _real_comparison(lambda: cls(lhs, rhs), written)  # rational numbers only: exact
    difference = lhs - rhs
    if not difference.free_symbols:
        return sympy.true if _RELATION_SIGN[cls](certified_sign(difference, written)) else sympy.false
    evaluated = _real_comparison(lambda: cls(lhs, rhs), written, (lhs, rhs))
    as_written = cls(lhs, rhs, evaluate=False)
    if evaluated == as_written:
        return evaluated
    # SymPy's decision (if it made one) is tried first, then the other truth value: a relation
    # that is True or False for every real value is decided by our own proof, whatever SymPy said
    truths = [bool(evaluated)] if isinstance(evaluated, BooleanAtom) else []
    for truth in [*truths, *({True, False} - set(truths))]:
        if (cls, truth) in _RELATION_PROOF:
            kind, sign = _RELATION_PROOF[cls, truth]
            if _proved_everywhere(kind, sign * difference):
                return sympy.true if truth else sympy.false
    # c·g ⋈ 0 with a constant c of certified sign s is s·g ⋈ 0: without c, SymPy has no sign
    # of a number left to misjudge when it builds (or later rebuilds) the relation
    factor, target = difference.as_independent(*difference.free_symbols, as_Add=False)
    if factor != 1 and _inexact(factor):
        sign = certified_sign(factor, written)
        if sign == 0:
            return sympy.true if _RELATION_SIGN[cls](0) else sympy.false
        return relation(cls, sign * target, S.Zero, written)
    return as_written  # neither truth value is proved for every real value: kept as written


#: a nonsmooth function's value from the certified sign of its argument u
_NONSMOOTH_VALUE: dict[str, Callable[[int, sympy.Expr], sympy.Expr]] = {
    "Abs": lambda s, u: u if s > 0 else -u if s < 0 else S.Zero,
    "sign": lambda s, u: sympy.Integer(s),
    "Heaviside": lambda s, u: {1: S.One, 0: S.Half, -1: S.Zero}[s],  # SymPy's Heaviside(0) = 1/2
}


#: the values a nonsmooth function of t can take on all of R, each with what proves it:
#: (value, obligation kind, sign) — the value holds everywhere when ``kind`` holds of sign·t
_NONSMOOTH_CASES: dict[str, Callable[[sympy.Expr], list[tuple[sympy.Expr, ObligationKind, int]]]] = {
    "Abs": lambda t: [(t, "nonnegative", 1), (-t, "nonnegative", -1)],
    "sign": lambda t: [(S.One, "positive", 1), (S.NegativeOne, "positive", -1)],
    "Heaviside": lambda t: [(S.One, "positive", 1), (S.Zero, "positive", -1)],
}


def nonsmooth(name: str, arg: sympy.Expr, written: str) -> sympy.Expr:
    """Abs, sign or Heaviside of ``arg``, decided only by certified signs.

    >>> P = sympy.exp(-30) - sympy.log(1 + sympy.exp(-30)) - sympy.exp(-60)/2
    >>> nonsmooth("Abs", P, "Abs(P)") == -P, nonsmooth("sign", P, "sign(P)")
    (True, -1)
    """
    function = _NONSMOOTH[name]
    if not _inexact(arg) or not global_parameters.evaluate:
        return function(arg)  # rational numbers only: exact
    if not arg.free_symbols:
        return _NONSMOOTH_VALUE[name](certified_sign(arg, written), arg)
    # a number factor comes out by its certified sign: |c·u| = |c|·|u|, sign(c·u) = sign(c)·sign(u),
    # H(c·u) = H(±u); SymPy would take it out by evalf
    factor, target = arg.as_independent(*arg.free_symbols, as_Add=False) if arg.is_Mul else (S.One, arg)
    scale = S.One
    if factor != 1:
        sign = certified_sign(factor, written)
        if sign == 0:
            return _NONSMOOTH_VALUE[name](0, S.Zero)
        if name == "Abs":
            scale = sign * factor
        elif name == "sign":
            scale = sympy.Integer(sign)
        elif sign < 0:
            target = -target
    evaluated = _real_comparison(lambda: function(target), written, (target,))
    if not _inexact(target) or evaluated == function(target, evaluate=False):
        return scale * evaluated
    # SymPy decided Abs(t) = ±t, sign(t) = ±1 or H(t) = 0/1: a value is kept only when its
    # condition on t is proved for every real value; SymPy's proposal is tried first, then the
    # other (its sign of a constant factor inside t may be the wrong one)
    values = _NONSMOOTH_CASES[name](target)
    values.sort(key=lambda case: case[0] != evaluated)
    for value, kind, sign in values:
        if _proved_everywhere(kind, sign * target):
            return scale * value
    return scale * function(target, evaluate=False)  # no value is proved everywhere: kept as written


def extremum(name: str, args: list[sympy.Expr], written: str) -> sympy.Expr:
    """Max or Min of ``args``; an argument is dropped only by a certified comparison.

    >>> z = sympy.Symbol("z", real=True)
    >>> P = sympy.exp(-30) - sympy.log(1 + sympy.exp(-30)) - sympy.exp(-60)/2
    >>> extremum("Max", [z, z + P], "Max(z, z + P)"), extremum("Min", [z, z + P], "Min(z, z + P)") == z + P
    (z, True)
    """
    cls = _VARIADIC[name]
    if not any(_inexact(arg) for arg in args) or not global_parameters.evaluate:
        return _real_comparison(lambda: cls(*args), written)  # rational numbers only: exact
    flat = [part for arg in args for part in (arg.args if isinstance(arg, cls) else (arg,))]
    larger = 1 if name == "Max" else -1
    kept: list[sympy.Expr] = []
    for arg in flat:
        for i, other in enumerate(kept):
            difference = arg - other
            if not difference.free_symbols:  # one class per offset: keep its largest (smallest)
                if larger * certified_sign(difference, written) > 0:
                    kept[i] = arg
                break
        else:
            kept.append(arg)
    if len(kept) == 1:
        return kept[0]
    evaluated = _real_comparison(lambda: cls(*kept), written, tuple(kept))
    remaining = set(evaluated.args) if isinstance(evaluated, cls) else {evaluated}
    if remaining == set(kept):
        return evaluated
    @functools.cache  # each comparison is a definedness proof: at most one attempt per pair
    def dominates(y: sympy.Expr, x: sympy.Expr) -> bool:
        return _proved_everywhere("nonnegative", larger * (y - x))

    # SymPy dropped an argument by its assumptions: kept only when a remaining one is proved to
    # dominate it everywhere
    if evaluated is not None and remaining <= set(kept) and all(
            any(dominates(y, x) for y in remaining) for x in set(kept) - remaining):
        return evaluated
    # its choice was not proved (it may rest on the wrong sign of a constant): an argument we
    # prove to dominate every other one is the value
    for y in kept:
        if all(dominates(y, x) for x in kept if x is not y):
            return y
    return cls(*kept, evaluate=False)  # none proved to dominate: kept as written


def piecewise(pairs: list[tuple[sympy.Expr, Boolean]]) -> sympy.Expr:
    """A Piecewise whose conditions were built by :func:`relation` (decided or fixed points).

    False branches are dropped and those after a True one, as SymPy does; SymPy's own
    construction is used when every condition has rational numbers only, else the pairs are
    kept as they are (SymPy would rebuild each relation and may decide it with evalf).
    """
    if not global_parameters.evaluate:
        return sympy.Piecewise(*pairs)
    kept = []
    for value, condition in pairs:
        if condition is sympy.false:
            continue
        kept.append((value, condition))
        if condition is sympy.true:
            break
    if not kept:
        return sympy.Piecewise(*pairs)  # SymPy's nan: refused as not real
    if not any(_inexact(condition) for _, condition in kept):
        return sympy.Piecewise(*kept)
    if kept[0][1] is sympy.true:
        return kept[0][0]
    return sympy.Piecewise(*kept, evaluate=False)


def _integer_part(build: Callable[..., sympy.Expr], *args: sympy.Expr) -> sympy.Expr:
    """floor, ceiling, frac or Mod of a number that is not rational. SymPy guesses the integer
    part with evalf: its guess k is kept only when certified signs show k <= u < k + 1 (u the
    argument, or u/c for Mod); otherwise the node is kept as written, for certified
    evaluation at each use."""
    as_written = build(*args, evaluate=False)
    if len(args) == 1:
        (u,) = args
    else:
        u = args[0] / args[1]
    try:
        k = sympy.floor(u)
        if not k.is_Integer:
            return as_written
        below = exact_sign(u - k)
        if below < 0 or exact_sign(u - k - 1) >= 0:
            return as_written
    except (Undecided, TypeError, ValueError):
        return as_written
    if build is sympy.floor:
        return k
    if build is sympy.ceiling:
        return k if below == 0 else k + 1
    if build is sympy.frac:
        return args[0] - k
    return args[0] - args[1] * k  # Mod(u, c) = u - c*floor(u/c)


def _evaluated_or_as_written(evaluated: sympy.Expr, as_written: sympy.Expr, arg: sympy.Expr) -> sympy.Expr:
    """SymPy's construction unless it changed a node whose argument holds an irrational number."""
    return evaluated if not _signed_by_evalf(arg) or evaluated == as_written else as_written


def _power(base: sympy.Expr, exponent: sympy.Expr) -> sympy.Expr:
    # integer powers are exact algebra; a fractional or symbolic power may be rewritten by the
    # sign SymPy gives the base (sqrt(c**2) = c for a c it thinks positive)
    evaluated = sympy.Pow(base, exponent)
    if exponent.is_Integer:
        return evaluated
    return _evaluated_or_as_written(evaluated, sympy.Pow(base, exponent, evaluate=False), base)


def substitute(expr: sympy.Expr, values: Mapping[sympy.Basic, sympy.Expr], written: str) -> sympy.Expr:
    """``expr.xreplace(values)`` with every node that changes rebuilt by the safe constructors.

    >>> z = sympy.Symbol("z", real=True)
    >>> P = sympy.exp(-30) - sympy.log(1 + sympy.exp(-30)) - sympy.exp(-60)/2
    >>> substitute(sympy.Max(z, 0), {z: P}, "relu(P)")
    0
    """
    def walk(node: sympy.Basic) -> sympy.Basic:
        if node in values:
            return values[node]
        if not node.args or not (node.free_symbols & values.keys()):
            return node
        if isinstance(node, sympy.Piecewise):
            return piecewise([(walk(value), walk(condition)) for value, condition in node.args])
        args = [walk(arg) for arg in node.args]
        if isinstance(node, tuple(_NONSMOOTH.values())):
            return nonsmooth(type(node).__name__, args[0], written)
        if isinstance(node, (sympy.Max, sympy.Min)):
            return extremum(type(node).__name__, args, written)
        if type(node) in _RELATION_SIGN:
            return relation(type(node), args[0], args[1], written)
        if isinstance(node, sympy.log):
            return _evaluated_or_as_written(sympy.log(args[0]), sympy.log(args[0], evaluate=False), args[0])
        if isinstance(node, sympy.Pow):
            return _power(args[0], args[1])
        if isinstance(node, sympy.Function) and not isinstance(node, AppliedUndef):
            return _evaluated_or_as_written(node.func(*args), node.func(*args, evaluate=False), sympy.Tuple(*args))
        return node.func(*args)

    return walk(expr)


# --- small text helpers ---------------------------------------------------------------------

def _unknown(kind: str, name: str, known: Any) -> str:
    matches = closest(name, known, n=1)
    if matches:
        return f"unknown {kind} {name!r}; did you mean {matches[0]!r}?"
    if kind == "variable":
        return f"unknown {kind} {name!r}; expected one of: {', '.join(sorted(known))}"
    return f"unknown {kind} {name!r}"


def _segment(source: str, node: ast.AST) -> str:
    return ast.get_source_segment(source, node) or ast.unparse(node)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())
