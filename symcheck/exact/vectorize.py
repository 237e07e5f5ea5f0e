"""SymPy expression → vectorised NumPy function, by walking the tree (no lambdify/eval/exec).

The same definitions the symbolic engine proves things about are evaluated here, so a numeric
check at size tests the activation the proof is about, not a hand-written copy of it.

Unstable subexpressions are replaced by stable equivalents chosen by the *shape* of the tree,
never by an activation's name, so user expressions benefit as well:

==========================  ====================================================================
as written                  evaluated as
==========================  ====================================================================
``log(1 + w)``              ``log1p(w)``; ``log1p(exp(u))`` is softplus ``max(u,0) + log1p(e^-|u|)``
``(1 + exp(u))**-n``        ``sigmoid(-u)**n``, the sigmoid computed from ``exp(-|u|) <= 1``
``c·exp(u) - c``            ``c·expm1(u)``
``c ± c·erf(u)``            ``c·erfc(∓u)`` (no cancellation in the GELU tail)
``c ± c·tanh(u)``           ``2c·sigmoid(±2u)``
``Piecewise``               each branch evaluated only on the inputs that select it
``exp``, ``sinh``, ``cosh``  beyond the float range: the correctly rounded ±inf or 0, computed
                            without raising the overflow flag (``Min(0, exp(z) - 1)`` stays 0)
==========================  ====================================================================

Constant subtrees (SELU's closed-form constants) are folded with SymPy's ``evalf`` at 30
digits. ``erf``/``erfc`` (which NumPy lacks) are computed in float64 from their Taylor series
and continued fraction, with ``exp(-x²)`` split so that ``x²`` is exact. Underflow to a
subnormal or zero is the correctly rounded result and is not signalled. Any other
floating-point trouble is not signalled either: a value float arithmetic spoils (inf/inf from
``exp(z)/(1 + exp(z))`` at z = 1e4) comes out non-finite and is recomputed from a certified
interval enclosure at rising precision (:func:`_rescue`), so the result is NaN only where the
expression is undefined, and ±inf only where the value is beyond the float range.

>>> import numpy as np, sympy
>>> z = sympy.Symbol("z", real=True)
>>> f = vectorize(sympy.log(1 + sympy.exp(z)), (z,))
>>> f(np.array([-1e4, 0.0, 1e4])).tolist() == [0.0, float(np.log(2)), 1e4]
True
"""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from functools import cache, lru_cache, reduce
from typing import TypeGuard, cast

import numpy as np
import sympy
from numpy.typing import DTypeLike
from sympy.core.relational import Relational
from sympy.logic.boolalg import And, BooleanFalse, BooleanTrue, Not, Or

from symcheck.core.errors import EvaluationError
from symcheck.core.functions import FUNCTIONS

__all__ = ["vectorize", "activation_function", "erf", "erfc", "DTYPES", "as_dtype"]

#: the dtypes every numeric path accepts, by name
DTYPES = {"float64": np.dtype(np.float64), "float32": np.dtype(np.float32)}

Env = tuple[np.ndarray, ...]
Fn = Callable[[Env], "np.ndarray | float | bool"]


def as_dtype(dtype: object) -> np.dtype:
    """``"float64"``, ``"float32"``, ``np.float32``, … as a NumPy dtype; anything else is an error."""
    try:
        # NumPy itself judges what names a dtype (a TypeError below for what does not)
        resolved: np.dtype | None = np.dtype(cast(DTypeLike, dtype))
    except TypeError:
        resolved = None
    if resolved is None or resolved not in DTYPES.values():
        raise EvaluationError(f"dtype must be float64 or float32, not {dtype!r}")
    return resolved


def vectorize(expr: sympy.Expr, variables: Sequence[sympy.Symbol],
              dtype: object = np.float64, *, rescue: bool = True) -> Callable[..., np.ndarray]:
    """A NumPy function of ``len(variables)`` arrays (broadcast together) computing ``expr``.

    ``rescue=False`` leaves non-finite values as float arithmetic gave them, for a caller that
    treats them itself (the numeric fallback sends them to mpmath under its own budget).

    Raises :class:`EvaluationError` for a construct it cannot evaluate (an undefined
    function, a non-real constant).
    """
    variables = tuple(variables)
    kind = as_dtype(dtype)
    compiled = _Compiler(variables, kind).compile(sympy.sympify(expr))

    def function(*arrays: object) -> np.ndarray:
        if len(arrays) != len(variables):
            raise TypeError(f"expected {len(variables)} arrays ({', '.join(map(str, variables))}), "
                            f"got {len(arrays)}")
        shaped = np.broadcast_arrays(*(np.asarray(a, dtype=kind) for a in arrays)) if arrays else []
        shape = shaped[0].shape if arrays else ()
        env = tuple(a.reshape(-1) for a in shaped)
        # overflow and invalid operations in intermediates are not errors here: the values they
        # spoil come out non-finite and are recomputed below
        with np.errstate(all="ignore"):
            value = compiled(env)
        if _fresh(value, kind, math.prod(shape)):
            out = value.reshape(shape)     # a new array of the compiled code's own: not copied again
        else:
            out = np.empty(shape, dtype=kind)
            out[...] = np.reshape(value, shape) if np.ndim(value) else value
        if rescue:
            _rescue(expr, variables, shaped, out)
        return out

    function.__doc__ = f"Vectorised {sympy.sstr(expr)} in ({', '.join(map(str, variables))}), {kind}."
    return function


def _fresh(value: object, kind: np.dtype, size: int) -> TypeGuard[np.ndarray]:
    """Whether ``value`` is an array the compiled code made for this call, of the result's dtype
    and size: it owns its memory (an input, or a view of one, does not; every closure makes its
    arrays when called, none keeps one), so it can be handed out as the result."""
    return (isinstance(value, np.ndarray) and value.dtype == kind and value.size == size
            and value.flags.owndata and value.flags.writeable)


#: precisions (bits) tried, in turn, for a value float arithmetic could not produce; a point
#: none of them resolves (cancellation of terms beyond e^±2800) costs ~4 ms and stays NaN
RESCUE_PRECISIONS = (64, 256, 1024, 4096)
#: mpmath keeps its working precision in one global context: one rescue at a time
_RESCUE_LOCK = threading.Lock()


def _rescue(expr: sympy.Expr, variables: tuple[sympy.Symbol, ...],
            arrays: Sequence[np.ndarray], out: np.ndarray) -> None:
    """Recompute in place every non-finite entry of ``out`` from a certified enclosure.

    Float evaluation of a form the stable rewrites do not cover (``exp(z)/(1 + exp(z))``,
    ``sinh(z)/(1 + cosh(z))``) overflows to inf/inf = NaN although the value is tame. mpmath
    numbers have no exponent limit, so an interval enclosure (:func:`symcheck.exact.evaluate.enclose`)
    at rising precision gives the value; it is taken once both ends of the interval round to
    the same float. Entries where the expression is undefined, or that no precision in
    ``RESCUE_PRECISIONS`` resolves, keep the float result (NaN or ±inf): a genuinely infinite
    value, such as ``sinh(1e4)``, encloses to a number beyond the float range and rounds to inf.
    """
    bad = ~np.isfinite(out)
    if not bad.any():
        return
    from fractions import Fraction

    from mpmath.libmp import to_float

    from symcheck.exact.evaluate import enclose
    from symcheck.exact.intervals import Imprecise
    kind = out.dtype.type
    with _RESCUE_LOCK:
        for index in map(tuple, np.argwhere(bad)):     # argwhere also handles 0-d arrays
            floats = [float(a[index]) for a in arrays]
            if not all(math.isfinite(x) for x in floats):
                continue
            point = {v: Fraction(x) for v, x in zip(variables, floats, strict=False)}
            for prec in RESCUE_PRECISIONS:
                try:
                    interval = enclose(expr, point, prec)
                except Imprecise:
                    continue                        # a branch too close to call at this precision
                except EvaluationError:
                    break                           # undefined here, or beyond the enclosures
                # each end rounded to nearest (float() of an iv number rounds outward)
                low, high = (kind(to_float(end, rnd="n")) for end in interval._mpi_)
                if low == high:
                    out[index] = low
                    break


@lru_cache(maxsize=256)
def _cached(expr: sympy.Expr, variables: tuple[sympy.Symbol, ...],
            dtype: np.dtype) -> Callable[..., np.ndarray]:
    return vectorize(expr, variables, dtype)


def activation_function(expr: sympy.Expr, variable: sympy.Symbol,
                        dtype: object = np.float64) -> Callable[[object], np.ndarray]:
    """The activation ``expr`` in ``variable`` as a one-argument NumPy function (cached)."""
    return _cached(sympy.sympify(expr), (variable,), as_dtype(dtype))


# --------------------------------------------------------------------------- stable primitives


@cache
def _limits(dtype: np.dtype) -> tuple[np.floating, np.floating]:
    """The largest argument whose exp is finite, and the smallest whose exp is not 0, in dtype."""
    info, kind = np.finfo(dtype), np.dtype(dtype).type
    high, low = kind(math.log(float(info.max))), kind(math.log(float(info.smallest_subnormal)))
    with np.errstate(all="ignore"):
        while not np.isfinite(np.exp(high)):
            high = np.nextafter(high, kind(0))
    return high, low


def _masked(func: Callable[..., object], x: np.ndarray, where: np.ndarray, fill: np.ndarray) -> np.ndarray:
    """``func(x)`` where ``where``, ``fill`` elsewhere, never calling ``func`` outside ``where``.
    ``fill`` is a fresh array, written into (a copy of it cost as much as the exp)."""
    out = fill if fill.dtype == x.dtype and fill.flags.writeable else fill.astype(x.dtype)
    func(x, out=out, where=where)
    return out


def _exp(x: np.ndarray) -> np.ndarray:
    high, low = _limits(x.dtype)
    inf = np.where(x > high, np.inf, 0.0).astype(x.dtype, copy=False)
    return _masked(np.exp, x, (x <= high) & (x >= low), inf)


def _expm1(x: np.ndarray) -> np.ndarray:
    high, _ = _limits(x.dtype)
    return _masked(np.expm1, x, x <= high, np.full(x.shape, np.inf, dtype=x.dtype))


def _sinh(x: np.ndarray) -> np.ndarray:
    high, _ = _limits(x.dtype)
    big = np.abs(x) > high + math.log(2.0)
    return _masked(np.sinh, x, ~big, np.copysign(np.inf, x).astype(x.dtype))


def _cosh(x: np.ndarray) -> np.ndarray:
    high, _ = _limits(x.dtype)
    big = np.abs(x) > high + math.log(2.0)
    return _masked(np.cosh, x, ~big, np.full(x.shape, np.inf, dtype=x.dtype))


def _sigmoid(x: np.ndarray) -> np.ndarray:
    """1/(1 + e^-x) from t = e^-|x| ∈ (0, 1]: 1/(1 + t) for x ≥ 0, t/(1 + t) for x < 0.
    Temporaries are reused in place: on a model's (rows × units) blocks, fresh ones cost more
    in page faults than the arithmetic."""
    minus = np.abs(x)
    t = _exp(np.negative(minus, out=minus))
    numerator = np.where(x >= 0, 1.0, t)
    quotient: np.ndarray = np.divide(numerator, np.add(t, 1.0, out=t), out=numerator)
    return quotient


def _softplus(x: np.ndarray) -> np.ndarray:
    """log(1 + e^x) = max(x, 0) + log1p(e^-|x|)."""
    value: np.ndarray = np.maximum(x, 0) + np.log1p(_exp(-np.abs(x)))
    return value


def _reciprocal(x: np.ndarray) -> np.ndarray:
    """1/x; an exact 0 (reached only by underflow: the domain check excludes real zeros)
    gives the correctly signed infinity without the divide-by-zero flag."""
    out: np.ndarray = np.copysign(np.inf, x).astype(x.dtype)
    np.divide(1.0, x, out=out, where=x != 0)
    return out


_SQRT_PI = math.sqrt(math.pi)
_SERIES_CUTOFF = 0.75
_SERIES_TERMS = 24
_ERFC_ZERO = 27.3  # erfc(27.3) < 1e-325: zero in float64
#: (lower end of the band, terms of the continued fraction that converge to < 1 ulp there)
_FRACTION_BANDS = ((0.75, 400), (1.0, 200), (1.5, 100), (2.5, 50), (4.0, 25), (8.0, 12))


def _exp_minus_square(x: np.ndarray) -> np.ndarray:
    """exp(-x²) with x² split as hi² + (x - hi)(x + hi), hi exact to 26 bits so hi² is exact:
    the rounding of x² would otherwise cost x²·ε relative (1e-13 at x = 27)."""
    hi = (x.view(np.int64) & np.int64(-(1 << 27))).view(np.float64)
    return np.exp(-hi * hi) * np.exp(-(x - hi) * (x + hi))


def _erf_series(x: np.ndarray) -> np.ndarray:
    """erf(x) = (2/√π)·x·e^(-x²)·Σ (2x²)^n / (1·3···(2n+1)): positive terms, for |x| < 0.75."""
    x2 = x * x
    acc = np.zeros_like(x)
    for k in range(_SERIES_TERMS, 0, -1):
        acc = 2.0 + x2 * acc / (k + 0.5)
    value: np.ndarray = acc * x * _exp_minus_square(x) / _SQRT_PI
    return value


def _erfc_fraction(x: np.ndarray) -> np.ndarray:
    """erfc(x) for 0.75 <= x < 27.3 from Laplace's continued fraction
    erfc(x) = e^(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …))))),
    evaluated from the tail: every partial quotient is positive, so it is stable to < 1 ulp;
    the number of terms shrinks as x grows (see _FRACTION_BANDS)."""
    out = np.empty_like(x)
    uppers = [band[0] for band in _FRACTION_BANDS[1:]] + [np.inf]
    for (lower, terms), upper in zip(_FRACTION_BANDS, uppers, strict=True):
        band = (x >= lower) & (x < upper)
        if not band.any():
            continue
        xb = x[band]
        tail = np.zeros_like(xb)
        for k in range(terms, 0, -1):
            tail = (0.5 * k) / (xb + tail)
        out[band] = _exp_minus_square(xb) / (_SQRT_PI * (xb + tail))
    return out


def _in_float64(kernel: Callable[[np.ndarray], np.ndarray], x: np.ndarray) -> np.ndarray:
    """Run a float64 kernel and round back to the input's dtype (float32 stays float32)."""
    x = np.asarray(x)
    with np.errstate(under="ignore"):
        out = kernel(x.astype(np.float64))
    return out.astype(x.dtype if x.dtype in DTYPES.values() else np.float64, copy=False)


def erf(x: np.ndarray) -> np.ndarray:
    """The error function, elementwise, to a few ulp in float64 (float32 input is computed in
    float64 and rounded)."""
    return _in_float64(_erf64, x)


def _erf64(work: np.ndarray) -> np.ndarray:
    ax = np.abs(work)
    out = np.empty_like(work)
    small = ax < _SERIES_CUTOFF
    out[small] = _erf_series(work[small])
    middle = ~small & (ax < _ERFC_ZERO)
    out[middle] = np.copysign(1.0 - _erfc_fraction(ax[middle]), work[middle])
    far = ~small & ~middle
    out[far] = np.copysign(1.0, work[far])
    return out


def erfc(x: np.ndarray) -> np.ndarray:
    """The complementary error function 1 - erf(x), elementwise, without cancellation for
    large positive x (the GELU tail lives there)."""
    return _in_float64(_erfc64, x)


def _erfc64(work: np.ndarray) -> np.ndarray:
    ax = np.abs(work)
    out = np.empty_like(work)
    small = ax < _SERIES_CUTOFF
    out[small] = 1.0 - _erf_series(work[small])
    middle = ~small & (ax < _ERFC_ZERO)
    tail = _erfc_fraction(ax[middle])
    out[middle] = np.where(work[middle] > 0, tail, 2.0 - tail)
    far = ~small & ~middle
    out[far] = np.where(work[far] > 0, 0.0, 2.0)
    return out


# --------------------------------------------------------------------------- the compiler

def _special(name: str) -> Callable[[np.ndarray], np.ndarray]:
    """A function of SciPy's ``special``, imported on first use (SciPy is slow to import)."""
    def function(x: np.ndarray) -> np.ndarray:
        import scipy.special
        return _in_float64(getattr(scipy.special, name), x)
    function.__name__ = name
    return function


def _lambertw(x: np.ndarray) -> np.ndarray:
    """The principal branch W₀, real for x ≥ −1/e (NaN below, where it is not real)."""
    import scipy.special

    def real(work: np.ndarray) -> np.ndarray:
        out = np.full(work.shape, np.nan)
        inside = work >= -math.exp(-1.0)
        out[inside] = scipy.special.lambertw(work[inside]).real
        return out
    return _in_float64(real, x)


def _loggamma(x: np.ndarray) -> np.ndarray:
    """log Γ(x) for x > 0 (NaN elsewhere: the real log-gamma is not real below 0)."""
    import scipy.special
    return _in_float64(lambda w: np.where(w > 0, scipy.special.gammaln(np.where(w > 0, w, 1.0)), np.nan), x)


def _frac(x: np.ndarray) -> np.ndarray:
    fraction: np.ndarray = x - np.floor(x)
    return fraction


#: the functions of one argument, by the method name of the table (symcheck.core.functions)
_BY_METHOD: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "exp": _exp, "sinh": _sinh, "cosh": _cosh, "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "tanh": np.tanh, "asinh": np.arcsinh, "atan": np.arctan, "abs": np.abs, "erf": erf, "erfc": erfc,
    "log": np.log, "acos": np.arccos, "asin": np.arcsin, "atanh": np.arctanh, "acosh": np.arccosh,
    "floor": np.floor, "ceiling": np.ceil, "gamma": _special("gamma"), "loggamma": _loggamma,
    "lambertw": _lambertw,
}
_UNARY: dict[type, Callable[[np.ndarray], np.ndarray]] = {
    **{f.cls: _BY_METHOD[f.method] for f in FUNCTIONS if f.cls is not None and f.method is not None},
    sympy.sign: np.sign, sympy.frac: _frac,
}
_RELATIONS = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
              "==": np.equal, "!=": np.not_equal}


def _short(node: sympy.Basic, limit: int = 60) -> str:
    text = " ".join(sympy.sstr(node).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _coefficient_and_core(term: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
    """``-3*erf(u)`` → ``(-3, erf(u))``: the numeric factor and the rest."""
    coeff, core = term.as_coeff_Mul()
    return coeff, core


class _Compiler:
    """Turns a SymPy tree into nested closures over the tuple of 1-D variable arrays."""

    def __init__(self, variables: tuple[sympy.Symbol, ...], dtype: np.dtype) -> None:
        self.index = {v: i for i, v in enumerate(variables)}
        self.dtype = dtype
        self.scalar = dtype.type

    def compile(self, node: sympy.Basic) -> Fn:
        if isinstance(node, (BooleanTrue, BooleanFalse)):
            value = bool(node)
            return lambda env: value
        if not node.free_symbols:
            return self._constant(node)
        if node.is_Symbol:
            if node not in self.index:
                raise EvaluationError(f"no variable {node} among {', '.join(map(str, self.index))}")
            i = self.index[node]
            return lambda env: env[i]
        if node.is_Add:
            return self._add(node)
        if node.is_Mul:
            return self._mul(node)
        if node.is_Pow:
            return self._pow(*node.args)
        if isinstance(node, sympy.Piecewise):
            return self._piecewise(node)
        if isinstance(node, (sympy.Max, sympy.Min)):
            extreme = np.maximum if isinstance(node, sympy.Max) else np.minimum
            parts = [self.compile(a) for a in node.args]
            return lambda env: reduce(extreme, (p(env) for p in parts))
        if isinstance(node, sympy.Heaviside):
            return self._heaviside(node)
        if isinstance(node, sympy.log):
            return self._log(node.args[0])
        if isinstance(node, sympy.Mod):  # u − c·floor(u/c), as np.mod computes it (c > 0)
            arg, modulus = self.compile(node.args[0]), self.compile(node.args[1])
            return lambda env: np.mod(self._array(arg(env), env), modulus(env))
        if isinstance(node, Relational) and node.rel_op in _RELATIONS:
            op, lhs, rhs = _RELATIONS[node.rel_op], self.compile(node.lhs), self.compile(node.rhs)
            return lambda env: op(lhs(env), rhs(env))
        if isinstance(node, (And, Or)):
            connective = np.logical_and if isinstance(node, And) else np.logical_or
            parts = [self.compile(a) for a in node.args]
            return lambda env: reduce(connective, (p(env) for p in parts))
        if isinstance(node, Not):
            inner = self.compile(node.args[0])
            return lambda env: np.logical_not(inner(env))
        func = _UNARY.get(type(node))
        if func is not None and len(node.args) == 1:
            inner = self.compile(node.args[0])
            return lambda env: func(self._array(inner(env), env))
        raise EvaluationError(f"cannot vectorise {type(node).__name__}: {_short(node)}")

    # ---- leaves

    def _constant(self, node: sympy.Basic) -> Fn:
        # float64 sampling only proposes points (every witness is certified afterwards), so a
        # constant condition or step SymPy left unevaluated is decided here in floats
        if isinstance(node, sympy.logic.boolalg.Boolean):
            if node is sympy.true or node is sympy.false:
                truth = bool(node)
            elif isinstance(node, Relational) and node.rel_op in _RELATIONS:
                truth = bool(_RELATIONS[node.rel_op](self._float(node.lhs), self._float(node.rhs)))
            else:
                raise EvaluationError(f"the constant condition {_short(node)} is not decided here")
            return lambda env: truth
        value = self.scalar(self._float(node))
        return lambda env: value

    def _float(self, node: sympy.Basic) -> float:
        if isinstance(node, sympy.Heaviside) and node.args[0].is_number:
            x = self._float(node.args[0])
            return 1.0 if x > 0 else 0.0 if x < 0 else float(self._float(node.args[1])) if len(node.args) > 1 else 0.5
        number = node.evalf(30)
        try:
            if not number.is_number or number.is_real is not True or not number.is_finite:
                raise TypeError
            return float(number)
        except TypeError:
            raise EvaluationError(f"the constant {_short(node)} is not a finite real number") from None

    def _array(self, value: object, env: Env) -> np.ndarray:
        """A closure's result as an array of the working length (constants are scalars)."""
        if isinstance(value, np.ndarray) and value.ndim:
            return value
        n = len(env[0]) if env else 1
        return np.full(n, value, dtype=self.dtype)

    # ---- sums: c ± c·erf(u), c ± c·tanh(u), c·exp(u) - c are rewritten before summing

    def _add(self, node: sympy.Add) -> Fn:
        constant, terms = node.as_coeff_Add()
        terms_list = list(sympy.Add.make_args(terms))
        parts: list[Fn] = []
        if constant != 0:
            for i, term in enumerate(terms_list):
                rewritten = self._paired(constant, term)
                if rewritten is not None:
                    parts.append(rewritten)
                    del terms_list[i]
                    constant = sympy.S.Zero
                    break
        parts.extend(self.compile(t) for t in terms_list)
        if constant != 0:
            parts.append(self._constant(constant))
        if len(parts) == 1:
            return parts[0]
        return lambda env: reduce(np.add, (p(env) for p in parts))

    def _paired(self, c: sympy.Expr, term: sympy.Expr) -> Fn | None:
        k, core = _coefficient_and_core(term)
        if len(core.args) != 1 or not core.free_symbols:
            return None
        inner = core.args[0]
        if isinstance(core, sympy.erf) and abs(k) == abs(c) and c != 0:
            arg = self.compile(-inner if k == c else inner)     # c + c·erf(u) = c·erfc(-u)
            scale = self.scalar(float(c))
            return lambda env: scale * erfc(self._array(arg(env), env))
        if isinstance(core, sympy.tanh) and abs(k) == abs(c) and c != 0:
            arg = self.compile(2 * inner if k == c else -2 * inner)  # c ± c·tanh(u) = 2c·σ(±2u)
            scale = self.scalar(2 * float(c))
            return lambda env: scale * _sigmoid(self._array(arg(env), env))
        if isinstance(core, sympy.exp) and k == -c:             # k·exp(u) - k = k·expm1(u)
            arg = self.compile(inner)
            scale = self.scalar(float(k))
            return lambda env: scale * _expm1(self._array(arg(env), env))
        return None

    def _mul(self, node: sympy.Mul) -> Fn:
        coeff, rest = node.as_coeff_Mul()
        factors = [self.compile(f) for f in sympy.Mul.make_args(rest)]
        if coeff != 1:
            factors.insert(0, self._constant(coeff))
        if len(factors) == 1:
            return factors[0]
        return lambda env: reduce(np.multiply, (f(env) for f in factors))

    # ---- powers: (1 + exp(u))^-n is sigmoid(-u)^n

    def _pow(self, base: sympy.Expr, expo: sympy.Expr) -> Fn:
        if expo.free_symbols:  # b^e = exp(e·log b), b > 0 by the domain check
            return self.compile(sympy.exp(expo * sympy.log(base), evaluate=False))
        if expo.is_Integer and expo < 0:
            logistic = self._logistic(base)
            if logistic is not None:
                n = -int(expo)
                return logistic if n == 1 else (lambda env: logistic(env) ** n)
        b = self.compile(base)
        if expo.is_Integer:
            n = int(expo)
            if n >= 0:
                return lambda env: np.power(self._array(b(env), env), n)
            return lambda env: _reciprocal(np.power(self._array(b(env), env), -n))
        if expo == sympy.S.Half:
            return lambda env: np.sqrt(b(env))
        if expo == -sympy.S.Half:
            return lambda env: _reciprocal(np.sqrt(self._array(b(env), env)))
        e = self.scalar(float(expo.evalf(30)))
        if e < 0:
            return lambda env: _reciprocal(np.power(self._array(b(env), env), -e))
        return lambda env: np.power(b(env), e)

    def _logistic(self, base: sympy.Expr) -> Fn | None:
        """``1 + exp(u)`` → the closure of ``sigmoid(-u) = 1/(1 + exp(u))``, else None."""
        constant, rest = base.as_coeff_Add()
        if constant == 1 and isinstance(rest, sympy.exp):
            arg = self.compile(-rest.args[0])
            return lambda env: _sigmoid(self._array(arg(env), env))
        return None

    # ---- log(1 + w) = log1p(w); log1p(exp(u)) = softplus(u)

    def _log(self, arg: sympy.Expr) -> Fn:
        constant, rest = arg.as_coeff_Add()
        if constant == 1 and rest != 0:
            if isinstance(rest, sympy.exp):
                inner = self.compile(rest.args[0])
                return lambda env: _softplus(self._array(inner(env), env))
            w = self.compile(rest)
            return lambda env: np.log1p(w(env))
        inner = self.compile(arg)
        return lambda env: np.log(inner(env))

    # ---- branches: each evaluated only where it is selected

    def _heaviside(self, node: sympy.Heaviside) -> Fn:
        arg = self.compile(node.args[0])
        at_zero = self.compile(node.args[1] if len(node.args) > 1 else sympy.S.Half)
        one, zero = self.scalar(1), self.scalar(0)
        return lambda env: np.where(arg(env) > 0, one, np.where(arg(env) < 0, zero, at_zero(env)))

    def _piecewise(self, node: sympy.Piecewise) -> Fn:
        pairs = [(self.compile(p.expr), self.compile(p.cond)) for p in node.args]
        text = _short(node)

        def piecewise(env: Env) -> np.ndarray:
            n = len(env[0])
            out = np.empty(n, dtype=self.dtype)
            rows = np.arange(n)
            sub = env
            for expr, cond in pairs:
                chosen = np.broadcast_to(np.asarray(cond(sub), dtype=bool), rows.shape)
                if chosen.all():
                    out[rows] = expr(sub)
                    return out
                if chosen.any():
                    picked = rows[chosen]
                    out[picked] = expr(tuple(v[chosen] for v in sub))
                    keep = ~chosen
                    rows, sub = rows[keep], tuple(v[keep] for v in sub)
            if rows.size:
                raise EvaluationError(f"the piecewise expression is undefined at some inputs: {text}")
            return out

        return piecewise
