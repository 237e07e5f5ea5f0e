"""The activation catalogue (data) and ``activation()``, the one place that resolves names.

Definitions and constants follow ``torch.nn.functional`` defaults. Formulas are written in
the same safe expression language users type, so the catalogue exercises the parser and a
catalogue name can be called inside a user expression (``"z*tanh(softplus(z))"``).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import sympy

from symcheck.core.errors import ParseError, UnknownNameError
from symcheck.core.formula import Apply, Rel, Relation, to_latex
from symcheck.core.names import closest
from symcheck.core.printing import text as printed
from symcheck.core.rendering import render
from symcheck.core.results import Renderable
from symcheck.exact.signs import at_point
from symcheck.language.symbols import SIGMA_NAME, Z

if TYPE_CHECKING:
    import numpy as np

# SELU's constants in closed form (Klambauer et al. 2017, eq. 14), not the rounded floats.
_SELU_ALPHA = "(-sqrt(2/pi)/(erfc(1/sqrt(2))*exp(1/2) - 1))"
_SELU_SCALE = ("((1 - erfc(1/sqrt(2))*sqrt(E))*sqrt(2*pi)/sqrt(2*erfc(sqrt(2))*E**2"
               " + pi*erfc(1/sqrt(2))**2*E - 2*(2 + pi)*erfc(1/sqrt(2))*sqrt(E) + pi + 2))")

#: name -> (formula, description); torch.nn.functional defaults
CATALOGUE: dict[str, tuple[str, str]] = {
    "relu": ("Max(z, 0)", "rectified linear unit"),
    "leaky_relu": ("Max(z, 0.01*z)", "leaky ReLU, negative_slope = 0.01"),
    "relu6": ("Min(Max(z, 0), 6)", "ReLU capped at 6"),
    "relu2": ("Max(z, 0)**2", "squared ReLU"),
    "elu": ("Piecewise((z, z > 0), (exp(z) - 1, True))", "ELU, alpha = 1"),
    "selu": (f"{_SELU_SCALE}*Piecewise((z, z > 0), ({_SELU_ALPHA}*(exp(z) - 1), True))",
             "SELU with the exact self-normalising constants λ ≈ 1.0507, α ≈ 1.6733"),
    "celu": ("Max(0, z) + Min(0, exp(z) - 1)", "CELU, alpha = 1"),
    "gelu": ("z/2*(1 + erf(z/sqrt(2)))", "GELU, exact (erf) form"),
    "gelu_tanh": ("z/2*(1 + tanh(sqrt(2/pi)*(z + 0.044715*z**3)))", "GELU, tanh approximation"),
    "quick_gelu": ("z*sigmoid(1.702*z)", "GELU approximated by z·sigmoid(1.702 z)"),
    "silu": ("z*sigmoid(z)", "SiLU / swish"),
    "mish": ("z*tanh(softplus(z))", "Mish"),
    "sigmoid": ("1/(1 + exp(-z))", "logistic sigmoid"),
    "tanh": ("tanh(z)", "hyperbolic tangent"),
    "softplus": ("log(1 + exp(z))", "softplus, beta = 1"),
    "softsign": ("z/(1 + Abs(z))", "softsign"),
    "hardtanh": ("Min(Max(z, -1), 1)", "hard tanh, range [-1, 1]"),
    "hardsigmoid": ("Min(Max(z/6 + 1/2, 0), 1)", "hard sigmoid, relu6(z + 3)/6"),
    "hardswish": ("z*Min(Max(z + 3, 0), 6)/6", "hard swish, z·relu6(z + 3)/6"),
    "tanhshrink": ("z - tanh(z)", "tanh shrink"),
    "softshrink": ("Piecewise((z - 0.5, z > 0.5), (z + 0.5, z < -0.5), (0, True))",
                   "soft shrinkage, lambda = 0.5"),
    "hardshrink": ("Piecewise((z, z > 0.5), (z, z < -0.5), (0, True))",
                   "hard shrinkage, lambda = 0.5"),
    "sin": ("sin(z)", "sine"),
    "identity": ("z", "identity (no nonlinearity)"),
}
#: table-friendly formulas where the real one is too long to read (SELU's constants as λ and α)
SHORT_EXPR = {"selu": sympy.Symbol("λ") * sympy.Piecewise((Z, Z > 0), (sympy.Symbol("α") * (sympy.exp(Z) - 1), True))}
SHORT = {name: printed(expr) for name, expr in SHORT_EXPR.items()}
ALIASES = {"swish": "silu", "linear": "identity", "gelu_erf": "gelu", "squared_relu": "relu2",
           "leakyrelu": "leaky_relu", "hard_tanh": "hardtanh", "hard_sigmoid": "hardsigmoid",
           "hard_swish": "hardswish"}
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Activation:
    """σ: R → R as a SymPy expression in ``symcheck.language.symbols.Z``; callable on expressions."""

    name: str
    expr: sympy.Expr
    formula: str
    description: str = ""
    builtin: bool = False

    def __call__(self, arg: sympy.Expr) -> sympy.Expr:
        # a number goes in with its branches chosen by certified signs, not SymPy's evalf
        return at_point(self.expr, Z, arg) if arg != Z else self.expr

    @property
    def short(self) -> str:
        """The formula for tables: SELU's closed-form constants are abbreviated as λ and α."""
        return SHORT.get(self.name, self.formula) if self.builtin else self.formula

    @property
    def short_expr(self) -> sympy.Expr:
        """σ's expression for tables, the output layer's to print: :attr:`short`'s abbreviation
        where it has one, else :attr:`expr`."""
        return SHORT_EXPR.get(self.name, self.expr) if self.builtin else self.expr

    def to_numpy(self, dtype: object = "float64") -> Callable[[object], np.ndarray]:
        """This σ as a vectorised NumPy function (float64, or float32 on request), built from
        ``expr`` itself, with overflow-prone pieces rewritten stably (see :mod:`symcheck.exact.vectorize`).

        >>> activation("softplus").to_numpy()([-1e4, 0.0, 1e4]).tolist()[::2]
        [0.0, 10000.0]
        """
        from symcheck.exact.vectorize import activation_function
        return activation_function(self.expr, Z, dtype)

    @property
    def parsed(self) -> str:
        """The expression as parsed (what every check and certificate uses), as SymPy prints it:
        each sign of a number in it was decided by a certificate (see :mod:`symcheck.language.parsing`).

        >>> activation("Max(z, z + exp(-30) - log(1 + exp(-30)) - exp(-60)/2)").parsed
        'z'
        """
        return sympy.sstr(self.expr)

    def __str__(self) -> str:  # a user's own σ is named by its formula: not "z*tanh(z)(z) = z*tanh(z)"
        return f"{self.name if self.builtin else 'σ'}(z) = {self.parsed}"

    @property
    def definition(self) -> Relation:
        """Its definition: silu(z) = z/(1 + e^(−z)) for a built-in σ, σ(z) = … for a user's own."""
        return Relation(Rel.EQ, Apply(self.name if self.builtin else SIGMA_NAME, (Z,)), self.expr)

    def _repr_latex_(self) -> str:
        return f"${to_latex(self.definition)}$"

    def _repr_html_(self) -> str:
        return render(self.definition, "html")  # MathML, printed by the output layer


def canonical(name: str) -> str | None:
    key = name.strip().lower().replace("-", "_")
    key = ALIASES.get(key, key)
    return key if key in CATALOGUE else None


def activation(spec: str | Activation | sympy.Expr | sympy.Lambda | Callable[[sympy.Symbol], Any]) -> Activation:
    """A catalogue name (``"silu"``), an expression in one real variable (``"z*tanh(z)"``),
    a SymPy expression in one symbol or a ``Lambda``, or a Python callable that builds one
    (``lambda t: t*sympy.tanh(t)``, ``sympy.tanh``: called once on a real symbol). Anything
    not text is read back through the same safe parser, so it meets the same allow-list and
    definedness checks as typed text.

    >>> activation("swish").name
    'silu'
    >>> activation("Max(z, z/5)").expr
    Max(z/5, z)

    A bare word that is not in the catalogue is an error, not a variable named like a typo:
    ``activation("sigmod")`` raises UnknownNameError suggesting ``sigmoid``.
    """
    if isinstance(spec, Activation):
        return spec
    if callable(spec) and not isinstance(spec, (str, sympy.Basic)):
        spec = _called(spec)
    if isinstance(spec, (sympy.Lambda, sympy.Expr)):
        spec = _as_text(spec)
    if not isinstance(spec, str):
        raise UnknownNameError("activation", repr(spec))
    name = canonical(spec)
    if name is not None:
        return _builtin(name)
    text = spec.strip()
    if _IDENTIFIER.fullmatch(text) and len(text) > 1:
        raise UnknownNameError("activation", text, closest(text.lower(), [*CATALOGUE, *ALIASES]))
    from symcheck.language.parsing import parse_activation
    return Activation(text, parse_activation(text, functions=catalogue_functions()), text)


def _called(function: Callable[[sympy.Symbol], Any]) -> sympy.Lambda:
    """A Python callable (``lambda t: t*sympy.tanh(t)``, ``sympy.tanh``) as a Lambda: called
    once on a real symbol; what it returns is read back through the safe parser like any
    SymPy expression."""
    t = sympy.Dummy("t", real=True)
    shown = getattr(function, "__name__", repr(function))
    try:
        value = function(t)
    except Exception as err:  # noqa: BLE001 -- the user's function failing on a symbol is their input's error
        raise ParseError(f"calling the activation {shown} on a real symbol failed: "
                         f"{type(err).__name__}: {err}; it must build a SymPy expression "
                         f"(use sympy.tanh, not math.tanh or numpy.tanh)") from None
    try:
        value = sympy.sympify(value, strict=True)
    except (sympy.SympifyError, TypeError):
        value = None
    if not isinstance(value, sympy.Expr):
        raise ParseError(f"the activation {shown} did not return a SymPy expression of its argument")
    return sympy.Lambda(t, value)


def _as_text(spec: sympy.Expr | sympy.Lambda) -> str:
    """A SymPy activation as the text the parser reads, its one variable renamed z."""
    if isinstance(spec, sympy.Lambda):
        if len(spec.variables) != 1:
            raise UnknownNameError("activation", f"a Lambda of {len(spec.variables)} variables")
        with sympy.evaluate(False):  # a renaming: rebuilt nodes are not re-decided by SymPy's evalf
            spec = spec.expr.xreplace({spec.variables[0]: Z})
    free = spec.free_symbols
    if len(free) > 1:
        names = ", ".join(sorted(str(s) for s in free))
        raise UnknownNameError("activation", f"an expression in {len(free)} variables ({names})")
    if free:
        with sympy.evaluate(False):
            spec = spec.xreplace({free.pop(): Z})
    return sympy.sstr(spec)


@cache
def _builtin(name: str) -> Activation:
    from symcheck.language.parsing import parse_activation
    formula, description = CATALOGUE[name]
    expr = parse_activation(formula, functions=catalogue_functions())
    return Activation(name, expr, formula, description, builtin=True)


class _LazyCatalogue(Mapping):
    """Catalogue names callable inside expressions; each definition is parsed on first use."""

    def __getitem__(self, key: str) -> Activation:
        if key not in CATALOGUE:
            raise KeyError(key)
        return _builtin(key)

    def __contains__(self, key: object) -> bool:
        return key in CATALOGUE

    def __iter__(self) -> Iterator[str]:
        return iter(CATALOGUE)

    def __len__(self) -> int:
        return len(CATALOGUE)


def catalogue_functions() -> Mapping[str, Activation]:
    return _LazyCatalogue()


def catalogue() -> tuple[Activation, ...]:
    """Every catalogue activation, in catalogue order."""
    return tuple(_builtin(name) for name in CATALOGUE)


@dataclass(frozen=True)
class Entry:
    """One catalogue activation as listed: its formula as written, shortened, and its aliases."""

    name: str
    formula: str
    short: str
    description: str
    aliases: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "formula": self.formula, "short": self.short,
                "description": self.description, "aliases": list(self.aliases)}


@dataclass(frozen=True)
class Listing(Renderable):
    """The catalogue as ``symcheck activations`` lists it (nothing is parsed to list it)."""

    entries: tuple[Entry, ...]

    def to_dict(self) -> list[dict[str, object]]:
        return [entry.to_dict() for entry in self.entries]


def listing() -> Listing:
    """Every catalogue activation with its formula, description and aliases, in catalogue order."""
    aliases: dict[str, list[str]] = {}
    for alias, name in ALIASES.items():
        aliases.setdefault(name, []).append(alias)
    return Listing(tuple(Entry(n, f, SHORT.get(n, f), d, tuple(aliases.get(n, ())))
                         for n, (f, d) in CATALOGUE.items()))
