"""The layer forms of DESIGN §1, each encoded twice: a matrix expression and explicit components.

The matrix expression has symbolic dimensions ``d, m, e, r`` (``DIMS``) and is what the
derivations rewrite with SymPy's matrix-expression algebra. The explicit form is a ``1×e``
``sympy.Matrix`` for concrete sizes, with symbolic entries ``x_i``, ``q_{j,i}``, ``k_{j,i}``,
``v_{j,l}`` (per-unit factors ``Q_j, K_j ∈ R^{d×r}`` have entries ``q_{j,i,s}``, ``k_{j,i,s}``;
the global query ``Q_g`` has ``g_{i,t}``); any parameter can be replaced by a concrete matrix:

>>> from symcheck.symbols import SIGMA
>>> formulation("rank1").explicit(SIGMA, Sizes(d=1, m=1))
Matrix([[v_{1,1}*sigma(k_{1,1}*q_{1,1}*x_1**2)]])
>>> formulation("swiglu").activation, formulation("swiglu").base
('silu', 'gated')
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import sympy
from sympy.matrices.exceptions import ShapeError
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

from .errors import UnknownNameError
from .names import closest
from .symbols import SIGMA

Sigma = Callable[[sympy.Expr], sympy.Expr]

#: the symbolic dimensions: input d, hidden units m, output e, rank r
D, M, E, R = sympy.symbols("d m e r", integer=True, positive=True)
DIMS = (D, M, E, R)


@dataclass(frozen=True)
class Sizes:
    """Concrete sizes: input ``d``, units ``m``, output ``e``, per-unit rank ``r``."""

    d: int
    m: int
    e: int = 1
    r: int = 1

    def __post_init__(self) -> None:
        if min(self.d, self.m, self.e, self.r) < 1:
            raise ValueError(f"sizes must be positive, not {self}")

    def substitution(self) -> dict[sympy.Symbol, int]:
        return {D: self.d, M: self.m, E: self.e, R: self.r}

    def __str__(self) -> str:
        return f"d={self.d}, m={self.m}, e={self.e}, r={self.r}"


def sizes(spec: Sizes | tuple[int, ...] | Mapping[str, int]) -> Sizes:
    """``Sizes(2, 3)``, ``(2, 3, 1, 2)`` or ``{"d": 2, "m": 3}``."""
    if isinstance(spec, Sizes):
        return spec
    return Sizes(**spec) if isinstance(spec, Mapping) else Sizes(*spec)


# ---- symbolic entries -------------------------------------------------------------------------

def _entries(name: str, rows: int, cols: int, index: Callable[[int, int], str]) -> sympy.Matrix:
    return sympy.Matrix(rows, cols, lambda i, j: sympy.Symbol(f"{name}_{index(i + 1, j + 1)}", real=True))


def input_row(d: int) -> sympy.Matrix:
    """``x = (x_1, …, x_d)``."""
    return _entries("x", 1, d, lambda _, i: str(i))


def _stacked(name: str, rows: int, cols: int) -> sympy.Matrix:
    return _entries(name, rows, cols, lambda j, i: f"{{{j},{i}}}")


def _per_unit(name: str, j: int, d: int, r: int) -> sympy.Matrix:
    return _entries(name, d, r, lambda i, s: f"{{{j},{i},{s}}}")


# Each builder maps (sizes) -> the symbolic parameters, in the order the formulation lists them.
def _qkv(sz: Sizes) -> dict[str, sympy.Matrix]:
    return {"Q": _stacked("q", sz.m, sz.d), "K": _stacked("k", sz.m, sz.d), "V": _stacked("v", sz.m, sz.e)}


def _kv(sz: Sizes) -> dict[str, sympy.Matrix]:
    return {"K": _stacked("k", sz.m, sz.d), "V": _stacked("v", sz.m, sz.e)}


def _gkv(sz: Sizes) -> dict[str, sympy.Matrix]:
    return {"Q_g": _entries("g", sz.d, sz.d, lambda i, t: f"{{{i},{t}}}"), **_kv(sz)}


def _units(sz: Sizes) -> dict[str, sympy.Matrix]:
    params = {f"Q_{j}": _per_unit("q", j, sz.d, sz.r) for j in range(1, sz.m + 1)}
    params.update({f"K_{j}": _per_unit("k", j, sz.d, sz.r) for j in range(1, sz.m + 1)})
    params["V"] = _stacked("v", sz.m, sz.e)
    return params


# ---- matrix expressions -----------------------------------------------------------------------
# σ elementwise is an ElementwiseApplyFunction: it is itself a MatrixExpr, so transposes and
# products inside it are still rewritten by .doit(), .subs() reaches the matrices inside it, and
# .as_explicit() applies σ to every entry -- the same objects the explicit checks expand. An
# opaque scalar function would stop the matrix algebra at its boundary.

X = sympy.MatrixSymbol("x", 1, D)
Q, K, V = sympy.MatrixSymbol("Q", M, D), sympy.MatrixSymbol("K", M, D), sympy.MatrixSymbol("V", M, E)
Q_G = sympy.MatrixSymbol("Q_g", D, D)
#: per-unit factors side by side, Qs = [Q_1 | … | Q_m] ∈ R^{d×mr}
QS, KS = sympy.MatrixSymbol("Qs", D, M * R), sympy.MatrixSymbol("Ks", D, M * R)
#: full bilinear forms: column j is vec(M_j), row-major, M_j = Q_j K_jᵀ ∈ R^{d×d}
BILINEAR = sympy.MatrixSymbol("M", D**2, M)
#: sums each unit's r products: I_m ⊗ 1_r ∈ R^{mr×m}
BLOCK_SUM = sympy.KroneckerProduct(sympy.Identity(M), sympy.OneMatrix(R, 1))


#: the bound variable of every σ as a Lambda: one symbol, so two σ(…) nodes compare equal
_ARG = sympy.Dummy("z", real=True)


_SPECIAL = (sympy.Identity, sympy.OneMatrix, sympy.ZeroMatrix)


def elementwise(sigma: Sigma, matrix: sympy.MatrixExpr) -> ElementwiseApplyFunction:
    """σ applied entry by entry, as a matrix expression."""
    return ElementwiseApplyFunction(sympy.Lambda(_ARG, sigma(_ARG)), matrix)


def _hadamard(*factors: sympy.MatrixExpr) -> sympy.MatrixExpr:
    return sympy.HadamardProduct(*factors)


# ---- explicit builders ------------------------------------------------------------------------

def _mlp(s: Sigma, sz: Sizes, p: dict, x: sympy.Matrix) -> sympy.Matrix:
    return (x * p["K"].T).applyfunc(s) * p["V"]


def _query_mlp(s: Sigma, sz: Sizes, p: dict, x: sympy.Matrix) -> sympy.Matrix:
    return ((x * p["Q_g"]) * p["K"].T).applyfunc(s) * p["V"]


def _rank1(s: Sigma, sz: Sizes, p: dict, x: sympy.Matrix) -> sympy.Matrix:
    return (x * p["Q"].T).multiply_elementwise(x * p["K"].T).applyfunc(s) * p["V"]


def _gated(s: Sigma, sz: Sizes, p: dict, x: sympy.Matrix) -> sympy.Matrix:
    return (x * p["Q"].T).applyfunc(s).multiply_elementwise(x * p["K"].T) * p["V"]


def _bilinear(s: Sigma, sz: Sizes, p: dict, x: sympy.Matrix) -> sympy.Matrix:
    out = sympy.zeros(1, p["V"].cols)
    for j in range(1, sz.m + 1):
        out += s((x * p[f"Q_{j}"] * p[f"K_{j}"].T * x.T)[0, 0]) * p["V"][j - 1, :]
    return out


def _rank_r(s: Sigma, sz: Sizes, p: dict, x: sympy.Matrix) -> sympy.Matrix:
    out = sympy.zeros(1, p["V"].cols)
    for j in range(1, sz.m + 1):
        qs, ks = x * p[f"Q_{j}"], x * p[f"K_{j}"]   # (x·q_{js})_s and (x·k_{js})_s
        out += s(sum((qs[s_] * ks[s_] for s_ in range(qs.cols)), sympy.S.Zero)) * p["V"][j - 1, :]
    return out


# ---- binding the matrix expression's symbols to explicit parameters --------------------------

def _bind_plain(sz: Sizes, p: dict) -> dict:
    names = {"Q": Q, "K": K, "V": V, "Q_g": Q_G}
    return {names[k].subs(sz.substitution()): sympy.ImmutableMatrix(v) for k, v in p.items()}


def _bind_units(sz: Sizes, p: dict) -> dict:
    sub = sz.substitution()
    stack = lambda name: sympy.ImmutableMatrix(sympy.Matrix.hstack(*(p[f"{name}_{j}"] for j in range(1, sz.m + 1))))
    return {QS.subs(sub): stack("Q"), KS.subs(sub): stack("K"), V.subs(sub): sympy.ImmutableMatrix(p["V"])}


def _bind_bilinear(sz: Sizes, p: dict) -> dict:
    columns = [(p[f"Q_{j}"] * p[f"K_{j}"].T).reshape(sz.d * sz.d, 1) for j in range(1, sz.m + 1)]
    return {BILINEAR.subs(sz.substitution()): sympy.ImmutableMatrix(sympy.Matrix.hstack(*columns)),
            V.subs(sz.substitution()): sympy.ImmutableMatrix(p["V"])}


@dataclass(frozen=True)
class Encoding:
    """How a formulation is built: symbolic parameters at given sizes, the explicit output row,
    the matrix expression, and how the expression's matrix symbols bind to explicit parameters."""

    parameters: Callable[[Sizes], dict[str, sympy.Matrix]]
    explicit: Callable[[Sigma, Sizes, dict, sympy.Matrix], sympy.Matrix]
    expression: Callable[[Sigma], sympy.MatrixExpr]
    bind: Callable[[Sizes, dict], dict] = _bind_plain


@dataclass(frozen=True)
class Formulation:
    """One layer form: y(x) for an input row x, as a matrix expression and as explicit entries."""

    name: str
    title: str
    text: str                       # the formula, plain text
    latex: str                      # the formula, LaTeX
    parameter_names: tuple[str, ...]  # per-unit families are written "Q_j", "K_j"
    unit_text: str                  # one hidden unit's contribution, plain text
    form: str | None                # the unit as a --form value (σ(a)·b is "gated"), if one exists
    unit: Callable[[Sigma, sympy.Expr, sympy.Expr], sympy.Expr] | None  # (σ, a, b) -> unit
    encoding: Encoding = field(repr=False)
    activation: str | None = None   # a fixed σ (the GLU family); None means any σ
    base: str | None = None         # the formulation this one instantiates

    def sigma(self, sigma: Sigma | None = None) -> Sigma:
        """The σ to use: the one given, else the formulation's own (GLU family), else opaque σ."""
        if sigma is not None:
            return sigma
        if self.activation is not None:
            from .activations import activation
            return activation(self.activation)
        return SIGMA

    def parameters(self, sz: Sizes | tuple[int, ...]) -> dict[str, sympy.Matrix]:
        """The symbolic parameter matrices at these sizes (per-unit ones as ``Q_1 … Q_m``)."""
        return self.encoding.parameters(sizes(sz))

    def explicit(self, sigma: Sigma | None, sz: Sizes | tuple[int, ...], **overrides: sympy.Matrix) -> sympy.Matrix:
        """The output row (1×e) with explicit entries; ``overrides`` replace parameters or ``x``.

        Entries are left as built (not expanded): compare with ``expand(lhs - rhs)``.
        """
        sz = sizes(sz)
        params, x = self._resolve(sz, overrides)
        return self.encoding.explicit(self.sigma(sigma), sz, params, x)

    def expression(self, sigma: Sigma | None = None) -> sympy.MatrixExpr:
        """The layer as a matrix expression in symbolic d, m, e, r (see ``matrix_symbols``)."""
        return self.encoding.expression(self.sigma(sigma))

    def expression_explicit(self, sigma: Sigma | None, sz: Sizes | tuple[int, ...],
                            **overrides: sympy.Matrix) -> sympy.Matrix:
        """``expression()`` at concrete sizes, its matrix symbols bound to the parameters, made explicit."""
        sz = sizes(sz)
        params, x = self._resolve(sz, overrides)
        bound = {X.subs(sz.substitution()): sympy.ImmutableMatrix(x), **self.encoding.bind(sz, params)}
        # built with σ opaque and σ put in afterwards: at 1×1 shapes ElementwiseApplyFunction
        # calls σ on the matrix itself, which e.g. Max(z, 0) cannot take
        concrete = self.expression(SIGMA).subs(sz.substitution()).xreplace(bound)
        concrete = concrete.replace(lambda n: isinstance(n, _SPECIAL), lambda n: sympy.ImmutableMatrix(n.as_explicit()))
        evaluated = concrete.doit()  # much faster than as_explicit() once every leaf is explicit
        explicit = sympy.Matrix(evaluated if isinstance(evaluated, sympy.MatrixBase) else evaluated.as_explicit())
        sigma = self.sigma(sigma)
        return explicit if sigma is SIGMA else explicit.replace(SIGMA, lambda arg: sigma(arg))

    def _resolve(self, sz: Sizes, overrides: Mapping[str, sympy.Matrix]) -> tuple[dict, sympy.Matrix]:
        params = self.parameters(sz)
        aliases = {"W1": "K", "W2": "V"} if self.name == "mlp" else {}
        x = input_row(sz.d)
        for key, value in overrides.items():
            key = aliases.get(key, key)
            if key != "x" and key not in params:
                known = ("x", *params)
                same_letters = tuple(k for k in known if k.lower() == key.lower())
                raise UnknownNameError(f"parameter of {self.name}", key, same_letters or closest(key, known), known)
            value = sympy.Matrix(value)
            expected = x.shape if key == "x" else params[key].shape
            if key != "x" and value.shape != expected:
                raise ShapeError(f"{self.name}: {key} must be {expected[0]}×{expected[1]}, "
                                 f"not {value.shape[0]}×{value.shape[1]}")
            if key == "x":
                x = value
            else:
                params[key] = value
        return params, x

    def __str__(self) -> str:
        return f"{self.name}: {self.text}"

    def _repr_latex_(self) -> str:
        return rf"$\text{{{self.name}}}:\ {self.latex}$"


_GATED = Encoding(_qkv, _gated, lambda s: _hadamard(elementwise(s, X * Q.T), X * K.T) * V)


def _glu(name: str, act: str, title: str) -> Formulation:
    return Formulation(
        name, title, f"({act}(xQᵀ) ⊙ (xKᵀ))V",
        rf"\big(\operatorname{{{act}}}(xQ^\top) \odot (xK^\top)\big) V",
        ("Q", "K", "V"), f"{act}(a)·b", "gated", lambda s, a, b: s(a) * b,
        _GATED, activation=act, base="gated")


_FORMULATIONS = (
    Formulation(
        "mlp", "standard MLP: a key-value memory with keys K = W1 and values V = W2",
        "σ(xW1ᵀ)W2 = Σ_j σ(x·k_j) v_j", r"\sigma(x W_1^\top) W_2 = \sum_j \sigma(x \cdot k_j)\, v_j",
        ("K", "V"), "σ(b), b = x·k_j (no query)", "sigma(b)", lambda s, a, b: s(b),
        Encoding(_kv, _mlp, lambda s: elementwise(s, X * K.T) * V)),
    Formulation(
        "query-mlp", "MLP with one global query Q_g ∈ R^{d×d}; absorbed into the keys as K' = K Q_gᵀ",
        "σ((xQ_g)Kᵀ)V", r"\sigma\big((x Q_g) K^\top\big) V",
        ("Q_g", "K", "V"), "σ((xQ_g)·k_j) = σ(x·k'_j), k'_j = k_j Q_gᵀ", None, None,
        Encoding(_gkv, _query_mlp, lambda s: elementwise(s, X * Q_G * K.T) * V)),
    Formulation(
        "bilinear", "full bilinear attention: query and key both computed from x, Q_j, K_j ∈ R^{d×r}",
        "Σ_j σ(x Q_j K_jᵀ xᵀ) v_j", r"\sum_j \sigma\big(x Q_j K_j^\top x^\top\big)\, v_j",
        ("Q_j", "K_j", "V"), "σ(x Q_j K_jᵀ xᵀ)", None, None,
        # x M_j xᵀ = (x ⊗ x) vec(M_j): one column of M per unit
        Encoding(_units, _bilinear, lambda s: elementwise(s, sympy.KroneckerProduct(X, X) * BILINEAR) * V,
                 _bind_bilinear)),
    Formulation(
        "rank-r", "the low-rank family: Q_j K_jᵀ = Σ_{s≤r} q_{js}ᵀ k_{js}",
        "Σ_j σ(Σ_s (x·q_js)(x·k_js)) v_j = σ(((xQs)⊙(xKs))(I_m⊗1_r))V",
        r"\sum_j \sigma\Big(\sum_{s=1}^{r} (x \cdot q_{js})(x \cdot k_{js})\Big) v_j"
        r" = \sigma\big(((x\mathbf{Q}) \odot (x\mathbf{K}))(I_m \otimes \mathbf{1}_r)\big) V",
        ("Q_j", "K_j", "V"), "σ(Σ_s a_s·b_s)", None, None,
        Encoding(_units, _rank_r, lambda s: elementwise(s, _hadamard(X * QS, X * KS) * BLOCK_SUM) * V,
                 _bind_units)),
    Formulation(
        "rank1", "symmetric rank-1 bilinear form: Q_j K_jᵀ = q_jᵀ k_j",
        "σ((xQᵀ)⊙(xKᵀ))V = Σ_j σ(a_j b_j) v_j",
        r"\sigma\big((xQ^\top) \odot (xK^\top)\big) V = \sum_j \sigma(a_j b_j)\, v_j",
        ("Q", "K", "V"), "σ(a·b)", "rank1", lambda s, a, b: s(a * b),
        Encoding(_qkv, _rank1, lambda s: elementwise(s, _hadamard(X * Q.T, X * K.T)) * V)),
    Formulation(
        "gated", "the conventional gated MLP (GLU family): σ on the query/gate factor only",
        "(σ(xQᵀ)⊙(xKᵀ))V = Σ_j σ(a_j) b_j v_j",
        r"\big(\sigma(xQ^\top) \odot (xK^\top)\big) V = \sum_j \sigma(a_j)\, b_j\, v_j",
        ("Q", "K", "V"), "σ(a)·b", "gated", lambda s, a, b: s(a) * b,
        _GATED),
    _glu("glu", "sigmoid", "GLU (Dauphin et al. 2017): gated with σ = sigmoid"),
    _glu("bilinear-glu", "identity", "Bilinear GLU (Shazeer 2020): gated with σ = identity"),
    _glu("reglu", "relu", "ReGLU (Shazeer 2020): gated with σ = relu"),
    _glu("geglu", "gelu", "GEGLU (Shazeer 2020): gated with σ = gelu"),
    _glu("swiglu", "silu", "SwiGLU (Shazeer 2020; LLaMA): gated with σ = silu"),
)
#: every formulation by name, the GLU family last
FORMULATIONS: dict[str, Formulation] = {f.name: f for f in _FORMULATIONS}


def formulation(name: str) -> Formulation:
    """A formulation by name (``"rank1"``, ``"swiglu"``, …)."""
    try:
        return FORMULATIONS[name.strip().lower().replace("_", "-")]
    except (KeyError, AttributeError):
        raise UnknownNameError("formulation", str(name), closest(str(name), FORMULATIONS),
                               tuple(FORMULATIONS)) from None
