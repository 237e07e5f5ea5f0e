"""The layer forms of docs/theory.md §1, each encoded twice: a matrix expression and explicit components.

The matrix expression has symbolic dimensions ``d, m, e, r`` (``DIMS``) and is what the
derivations rewrite with SymPy's matrix-expression algebra. The explicit form is a ``1×e``
``sympy.Matrix`` for concrete sizes, with symbolic entries ``x_i``, ``q_{j,i}``, ``k_{j,i}``,
``v_{j,l}`` (per-unit factors ``Q_j, K_j ∈ R^{d×r}`` have entries ``q_{j,i,s}``, ``k_{j,i,s}``;
the global query ``Q_g`` has ``g_{i,t}``); any parameter can be replaced by a concrete matrix:

>>> from symcheck.language.symbols import SIGMA
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
from sympy.matrices.expressions.matexpr import MatrixElement

from symcheck.core.errors import UnknownNameError
from symcheck.core.names import closest
from symcheck.core.rendering import render
from symcheck.language.symbols import SIGMA

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


# ---- one builder for every size ----------------------------------------------------------------
# Each formulation is built once, as its output entry l written with sums over index ranges:
# Σ_{j<m} unit(σ, Σ_{i<d} x_i Q_{j,i}, …) V_{j,l}. At concrete sizes the sums are unrolled and the
# entries bound to the parameters (``explicit``); with the symbolic sizes ``SYMBOLIC`` the very
# same builder gives the generic entry that the derivations compare for every size at once, so a
# builder that is wrong only beyond the sizes checked explicitly cannot pass as proved.

@dataclass(frozen=True)
class SymbolicSizes:
    """Sizes that may be symbols: what a builder ranges its sums over."""

    d: sympy.Expr
    m: sympy.Expr
    e: sympy.Expr
    r: sympy.Expr


#: the symbolic sizes d, m, e, r
SYMBOLIC = SymbolicSizes(D, M, E, R)
#: unit j's factors Q_{j+1}, K_{j+1} ∈ R^{d×r} as one indexed family: QU[j, i, s] = (Q_{j+1})_{i,s}
QU, KU = sympy.IndexedBase("Qu"), sympy.IndexedBase("Ku")
#: bound indices of the builders' sums: input i, t; unit j; rank s (every use is bound)
_i, _t, _j, _s = sympy.symbols("i t j s", integer=True)
#: the free output index of a generic entry
L = sympy.Symbol("l", integer=True)


def _in(n: Sizes | SymbolicSizes, weights: Callable[[sympy.Expr], sympy.Expr]) -> sympy.Expr:
    """Σ_{i<d} x_i w_i: the input against one row of weights."""
    return sympy.Sum(X[0, _i] * weights(_i), (_i, 0, n.d - 1))


def _over_units(n: Sizes | SymbolicSizes, l: sympy.Expr, unit: sympy.Expr) -> sympy.Expr:
    """Σ_{j<m} unit_j V_{j,l}."""
    return sympy.Sum(unit * V[_j, l], (_j, 0, n.m - 1))


def _mlp(s: Sigma, n: Sizes | SymbolicSizes, l: sympy.Expr) -> sympy.Expr:
    return _over_units(n, l, s(_in(n, lambda i: K[_j, i])))


def _query_mlp(s: Sigma, n: Sizes | SymbolicSizes, l: sympy.Expr) -> sympy.Expr:
    # (x Q_g)_t = Σ_i x_i (Q_g)_{i,t}, then against key row j
    projected = sympy.Sum(sympy.Sum(X[0, _i] * Q_G[_i, _t], (_i, 0, n.d - 1)) * K[_j, _t], (_t, 0, n.d - 1))
    return _over_units(n, l, s(projected))


def _rank1(s: Sigma, n: Sizes | SymbolicSizes, l: sympy.Expr) -> sympy.Expr:
    return _over_units(n, l, s(_in(n, lambda i: Q[_j, i]) * _in(n, lambda i: K[_j, i])))


def _gated(s: Sigma, n: Sizes | SymbolicSizes, l: sympy.Expr) -> sympy.Expr:
    return _over_units(n, l, s(_in(n, lambda i: Q[_j, i])) * _in(n, lambda i: K[_j, i]))


def _bilinear(s: Sigma, n: Sizes | SymbolicSizes, l: sympy.Expr) -> sympy.Expr:
    # x Q_j K_jᵀ xᵀ = Σ_i x_i Σ_t (Σ_s Q_{j,i,s} K_{j,t,s}) x_t
    entry = sympy.Sum(QU[_j, _i, _s] * KU[_j, _t, _s], (_s, 0, n.r - 1))   # (Q_j K_jᵀ)_{i,t}
    form = sympy.Sum(X[0, _i] * sympy.Sum(entry * X[0, _t], (_t, 0, n.d - 1)), (_i, 0, n.d - 1))
    return _over_units(n, l, s(form))


def _rank_r(s: Sigma, n: Sizes | SymbolicSizes, l: sympy.Expr) -> sympy.Expr:
    # Σ_s (x·q_{js})(x·k_{js})
    products = sympy.Sum(_in(n, lambda i: QU[_j, i, _s]) * _in(n, lambda i: KU[_j, i, _s]),
                         (_s, 0, n.r - 1))
    return _over_units(n, l, s(products))


def unroll(expr: sympy.Basic) -> sympy.Basic:
    """Every sum with concrete bounds written out term by term (outer sums first)."""
    if not isinstance(expr, sympy.Basic) or not expr.has(sympy.Sum):
        return expr
    if isinstance(expr, sympy.Sum):
        *inner, (v, lo, hi) = expr.limits
        body = sympy.Sum(expr.function, *inner) if inner else expr.function
        if not (lo.is_Integer and hi.is_Integer) or hi < lo - 1:
            raise ValueError(f"cannot write out a sum over {v} from {lo} to {hi}")
        return sympy.Add(*(unroll(body.subs(v, k)) for k in range(int(lo), int(hi) + 1)))
    return expr.func(*(unroll(a) for a in expr.args))


# ---- binding the matrix expression's symbols to explicit parameters --------------------------

def _bind_plain(sz: Sizes, p: dict) -> dict:
    names = {"Q": Q, "K": K, "V": V, "Q_g": Q_G}
    return {names[k].subs(sz.substitution()): sympy.ImmutableMatrix(v) for k, v in p.items()}


def _bind_units(sz: Sizes, p: dict) -> dict:
    sub = sz.substitution()

    def stack(name: str) -> sympy.ImmutableMatrix:
        return sympy.ImmutableMatrix(sympy.Matrix.hstack(*(p[f"{name}_{j}"] for j in range(1, sz.m + 1))))

    return {QS.subs(sub): stack("Q"), KS.subs(sub): stack("K"), V.subs(sub): sympy.ImmutableMatrix(p["V"])}


_BUILDER_NAMES = (X, Q, K, V, Q_G, QU.label, KU.label, QU, KU)


def _entries_of(sz: Sizes, p: dict, x: sympy.Matrix) -> dict:
    """Each indexed entry a builder can name, bound to the parameter's explicit entry."""
    names = {"Q": Q, "K": K, "V": V, "Q_g": Q_G}
    bound = {X[0, i]: x[0, i] for i in range(x.cols)}
    for key, value in p.items():
        if key in names:
            bound.update({names[key][a, b]: value[a, b] for a in range(value.rows) for b in range(value.cols)})
        else:  # a per-unit factor Q_j or K_j
            base, j = (QU if key[0] == "Q" else KU), int(key[2:]) - 1
            bound.update({base[j, a, b]: value[a, b] for a in range(value.rows) for b in range(value.cols)})
    return bound


def _bind_bilinear(sz: Sizes, p: dict) -> dict:
    columns = [(p[f"Q_{j}"] * p[f"K_{j}"].T).reshape(sz.d * sz.d, 1) for j in range(1, sz.m + 1)]
    return {BILINEAR.subs(sz.substitution()): sympy.ImmutableMatrix(sympy.Matrix.hstack(*columns)),
            V.subs(sz.substitution()): sympy.ImmutableMatrix(p["V"])}


@dataclass(frozen=True)
class Encoding:
    """How a formulation is built: symbolic parameters at given sizes, output entry l for any
    sizes (``entry(σ, sizes, l)``, sums over index ranges), the matrix expression, and how the
    expression's matrix symbols bind to explicit parameters."""

    parameters: Callable[[Sizes], dict[str, sympy.Matrix]]
    entry: Callable[[Sigma, Sizes | SymbolicSizes, sympy.Expr], sympy.Expr]
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
            from symcheck.language.activations import activation
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
        # built with σ opaque and σ put in afterwards, as in expression_explicit
        row = sympy.Matrix(1, sz.e, lambda _, l: unroll(self.encoding.entry(SIGMA, sz, l)))
        row = row.xreplace(_entries_of(sz, params, x))
        unbound = [a for a in row.atoms(MatrixElement, sympy.Indexed) if a.args[0] in _BUILDER_NAMES]
        if unbound:  # a parameter (x, say) smaller than the sizes say
            raise ShapeError(f"{self.name} at {sz}: no value for {sympy.sstr(sorted(unbound, key=sympy.sstr)[0])}")
        sigma = self.sigma(sigma)
        return row if sigma is SIGMA else row.replace(SIGMA, lambda arg: sigma(arg))

    def entry(self, sigma: Sigma | None = None, n: Sizes | SymbolicSizes = SYMBOLIC,
              l: sympy.Expr = L) -> sympy.Expr:
        """Output entry ``l`` as the builder writes it: sums over index ranges, parameters as
        ``x[0, i]``, ``Q[j, i]``, ``QU[j, i, s]`` (0-based), for symbolic sizes by default.

        ``explicit`` is this entry with its sums written out and its entries bound.
        """
        return self.encoding.entry(self.sigma(sigma), n, l)

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

    def _repr_html_(self) -> str:
        return render(self, "html")  # MathML, printed by the output layer


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
