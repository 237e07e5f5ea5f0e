"""The NumPy evaluator for heavy tensors: every layer form of docs/theory.md §1, memory-bounded.

σ comes from the same SymPy definition the symbolic engine reasons about
(``activation(name).to_numpy()``, see :mod:`symcheck.exact.vectorize`). Every form works through
its hidden units in chunks whose size follows from the ``memory`` budget (bytes of working
memory on top of the inputs, the output included), so the extra memory stays within it
whatever ``m`` is (chunks are also kept near ``CHUNK_BYTES``, cache-sized, when the budget is
larger); inside a chunk the work is a handful of BLAS matrix products, never a Python loop
over units. Inputs are cast to the working dtype (float64 by default, float32 on
request) one chunk at a time, so float16 or bfloat16 checkpoints are never copied whole.
Bilinear attention shares its chunks among threads (:mod:`symcheck.numeric.parallel`), each thread
planned within an equal share of the budget.

Every entry of the inputs must be finite in the working dtype (a NaN, ±inf, or a float64
beyond float32's range is a :class:`NumericError` naming the array and the index); σ's inputs,
the hidden activations and the output are checked block by block (their extremes, no extra
memory), and a value the computation pushes out of the float range raises
:class:`NumericOverflowError` instead of coming back as inf or NaN. No rows give an empty
(0, e) output; no units give the empty sum, zeros. A check reports an overflow, or outputs too
close to the underflow threshold for the tolerance, as no evidence either way, never as
a difference.

Full bilinear attention ``Σ_j σ(x Q_j K_jᵀ xᵀ) v_j`` has two routes, chosen by flops for a
chunk (every chunk has the same per-unit counts, so one comparison decides them all):

* factor route, ``4·N·d·r`` per unit: ``X·[Q_1 … Q_c]`` and ``X·[K_1 … K_c]`` as two products,
  multiplied elementwise and summed over the rank;
* kernel route, ``2·d²·r + 2·N·d²`` per unit: ``M_j = Q_j K_jᵀ`` materialised (one batched
  product), then ``X·[M_1 … M_c]`` as one product and each row contracted with x.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> X, Q, K, V = (rng.standard_normal(s) for s in [(5, 4), (3, 4, 1), (3, 4, 1), (3, 2)])
>>> y = bilinear_attention(X, Q, K, V, "silu")
>>> bool(np.allclose(y, rank1(X, Q[:, :, 0], K[:, :, 0], V, "silu")))
True
"""
from __future__ import annotations

import dataclasses
import functools
import math
import re
import shlex
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np

from symcheck.numeric import parallel
from symcheck.core.errors import NumericError, NumericOverflowError, SymcheckError
from symcheck.exact.vectorize import as_dtype

__all__ = [
    "DEFAULT_MEMORY", "NumericError", "NumericOverflowError", "Plan", "plan", "parse_memory",
    "bilinear_attention", "rank_r", "rank1", "gated", "mlp", "query_mlp", "evaluate",
    "CHECKS", "NumericCheck", "NumericReport", "prepare", "check", "tolerance",
]

#: the default working-memory budget in bytes
DEFAULT_MEMORY = 256 * 2**20
#: arrays of σ's input size that evaluating σ may hold at once (temporaries, masks, subsets)
SIGMA_WORKSPACE = 12
#: a chunk's own arrays stay near this size even when the budget allows more: the products then
#: stream from cache and a fresh workspace costs few page faults (at N=512, d=r=256 chunks of
#: ~10 units ran up to 2× faster than chunks filling 256 MiB, and ~5% faster than 32 MiB ones)
CHUNK_BYTES = 16 * 2**20

Progress = Callable[[str], None]






# --------------------------------------------------------------------------- small helpers


_UNITS = {"": 1, "b": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40,
          "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}
_MEMORY = re.compile(r"^\s*(\d+(?:\.\d*)?(?:e\d+)?)\s*([a-z]*)\s*$")


def parse_memory(value: int | float | str) -> int:
    """A budget in bytes: ``268435456``, ``"256MiB"``, ``"256M"`` (binary), ``"300MB"`` (decimal).

    >>> parse_memory("1.5GiB"), parse_memory("256M"), parse_memory("10MB")
    (1610612736, 268435456, 10000000)
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number, unit = float(value), ""
    else:
        match = _MEMORY.match(str(value).lower())
        if not match or match[2] not in _UNITS:
            raise NumericError(f"memory budget {value!r} is not a size such as 268435456, 256MiB or 1GB")
        number, unit = float(match[1]), match[2]
    if not math.isfinite(number * _UNITS[unit]):
        raise NumericError(f"memory budget {value!r} is not a size such as 268435456, 256MiB or 1GB")
    size = int(number * _UNITS[unit])
    if size <= 0:
        raise NumericError(f"memory budget {value!r} must be positive")
    return size


def _bytes(n: float) -> str:
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{int(n)} B"


def _sigma(act: Any, dtype: np.dtype) -> tuple[Callable[[np.ndarray], np.ndarray], str]:
    """σ as a NumPy function in ``dtype`` and its name: a catalogue name, an expression, an
    :class:`~symcheck.language.activations.Activation`, or already a NumPy callable."""
    from symcheck.language.activations import Activation, activation
    if callable(act) and not isinstance(act, Activation):
        return act, getattr(act, "__name__", "custom")
    resolved = activation(act)
    return resolved.to_numpy(dtype), resolved.name


def _array(name: str, value: Any, ndim: int | tuple[int, ...], kind: np.dtype) -> np.ndarray:
    """``value`` as an array of real numbers of the right rank, every entry finite in ``kind``."""
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):           # ragged nested lists, objects NumPy cannot take
        raise NumericError(f"{name} is not a rectangular array of real numbers", name=name) from None
    if array.dtype.kind not in "fiu":
        raise NumericError(f"{name} has dtype {array.dtype}; expected real numbers", name=name)
    dims = (ndim,) if isinstance(ndim, int) else ndim
    if array.ndim not in dims:
        expected = " or ".join(f"{n}-D" for n in dims)
        raise NumericError(f"{name} has shape {array.shape}; expected a {expected} array", name=name)
    _refuse_non_finite(name, array, kind)
    return array


def _castable(array: np.ndarray, kind: np.dtype) -> bool:
    """Every entry finite once cast to ``kind``. The cast is monotone, so the extremes decide;
    min and max propagate NaN and need no temporary the size of the array."""
    if array.size == 0 or array.dtype.kind in "iu":   # every integer NumPy has is < 3.4e38
        return True
    with np.errstate(all="ignore"):
        return bool(np.isfinite(kind.type(array.min())) and np.isfinite(kind.type(array.max())))


def _first_bad(array: np.ndarray, kind: np.dtype) -> tuple[tuple[int, ...], Any]:
    """The index and value of the first entry (in C order) that is not finite in ``kind``:
    the first bad row by its extremes, then within it, so only one row is ever cast."""
    index: list[int] = []
    part = array
    while part.ndim > 1:
        row = next(i for i in range(part.shape[0]) if not _castable(part[i], kind))
        index.append(row)
        part = part[row]
    with np.errstate(all="ignore"):
        column = int(np.argmin(np.isfinite(part.astype(kind))))
    return (*index, column), part[column]


def _index(index: tuple[int, ...]) -> str:
    return str(index[0]) if len(index) == 1 else f"({', '.join(map(str, index))})"


def _refuse_non_finite(label: str, array: np.ndarray, kind: object) -> None:
    """Raise :class:`NumericError` naming ``label`` and an index when an entry of ``array`` is
    NaN or ±inf, or beyond the range of the working dtype ``kind`` (it would become inf)."""
    kind = as_dtype(kind)
    if _castable(array, kind):
        return
    index, value = _first_bad(array, kind)
    if not np.isfinite(value):
        raise NumericError(f"{label} has a non-finite value ({value}) at index {_index(index)}", name=label)
    shown = np.format_float_scientific(value, precision=3, trim="-")
    raise NumericError(f"{label} has the value {shown} at index {_index(index)}, beyond the {kind.name} "
                       f"range (±{float(np.finfo(kind).max):.2g})", name=label)


def _all_finite(values: np.ndarray) -> bool:
    if values.size == 0:
        return True
    with np.errstate(all="ignore"):
        return bool(np.isfinite(values.min()) and np.isfinite(values.max()))


def _overflow(values: np.ndarray, kind: np.dtype, stage: str, text: str | None = None) -> None:
    """Raise :class:`NumericOverflowError` when ``values`` (a stage of the computation) are not all
    finite: a NaN or inf there means the result would not be the layer's value. ``text`` says
    where (default: ``stage`` and the first bad index)."""
    if _all_finite(values):
        return
    if text is None:
        first = tuple(int(i) for i in np.argwhere(~np.isfinite(values))[0])
        text = f"{stage} is not finite at index {_index(first)}"
    raise NumericOverflowError(f"overflow in {kind.name}: {text}", stage=stage, dtype=kind.name)


def _agree(what: str, expected: int, got: int, name: str) -> None:
    if expected != got:
        raise NumericError(f"{name} has {what} = {got}; expected {expected} to match the other arrays",
                           name=name)


def _rows(X: Any, kind: np.dtype) -> tuple[np.ndarray, bool]:
    """X as (N, d), and whether it was one row (so the result is returned as one row)."""
    X = _array("X", X, (1, 2), kind)
    return (X[None, :], True) if X.ndim == 1 else (X, False)


def _cast(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return a if a.dtype == dtype and a.flags.c_contiguous else np.ascontiguousarray(a, dtype=dtype)


# --------------------------------------------------------------------------- plans


#: bytes per unit (independent of tokens) and per (token, unit), in items of the working dtype
_PER_UNIT = {
    "factor": lambda d, r, e: 2 * d * r,            # [Q_1 … Q_c] and [K_1 … K_c] side by side
    "kernel": lambda d, r, e: d * d,                # M_1 … M_c, laid out for one product with X
    "rank1": lambda d, r, e: 0, "gated": lambda d, r, e: 0, "mlp": lambda d, r, e: 0,
}
_PER_TOKEN_UNIT = {
    "factor": lambda d, r: 2 * r,                   # X·[Q_j], X·[K_j]
    "kernel": lambda d, r: d,                       # X·[M_j]
    "rank1": lambda d, r: 2, "gated": lambda d, r: 2, "mlp": lambda d, r: 1,
}
#: the flops each route is counted at, per unit, for N tokens
_FLOPS = {
    "factor": lambda N, d, r: 4 * N * d * r,
    "kernel": lambda N, d, r: 2 * d * d * r + 2 * N * d * d,
    "rank1": lambda N, d, r: 4 * N * d, "gated": lambda N, d, r: 4 * N * d,
    "mlp": lambda N, d, r: 2 * N * d,
}


@dataclass(frozen=True)
class Plan:
    """How one evaluation is cut into chunks of ``units`` units and blocks of ``tokens`` rows.

    ``bytes`` is the working memory the plan needs at most (within the budget); ``flops`` is
    what the route is counted at for the whole call (σ and the product with V not included).
    """

    route: str
    N: int
    d: int
    m: int
    e: int
    r: int
    units: int
    tokens: int
    bytes: int
    budget: int
    flops: float
    itemsize: int
    cast_factors: bool = False
    #: threads sharing the chunks, each with its own workspace and output (``bytes`` counts all)
    workers: int = 1

    @property
    def chunks(self) -> int:
        return -(-self.m // self.units)

    @property
    def blocks(self) -> int:
        return -(-self.N // self.tokens)

    @property
    def steps(self) -> int:
        """Progress steps: one per (chunk, token block)."""
        return self.chunks * self.blocks

    def describe(self) -> str:
        threads = f" on {self.workers} threads" if self.workers > 1 else ""
        return (f"{self.route} route, {self.chunks} chunk(s) of ≤ {self.units} units × "
                f"{self.blocks} block(s) of ≤ {self.tokens} rows{threads}, ≈ {_bytes(self.bytes)} of "
                f"{_bytes(self.budget)}")


def _need(route: str, N: int, d: int, e: int, r: int, c: int, n: int, s: int,
          fixed: int, cast_per_unit: int) -> int:
    """Working bytes of a chunk of c units and n rows (the output and fixed arrays included)."""
    per_unit = _PER_UNIT[route](d, r, e) + cast_per_unit
    per_token_unit = _PER_TOKEN_UNIT[route](d, r) + 1 + SIGMA_WORKSPACE
    return fixed + s * (c * per_unit + n * (e + c * per_token_unit))


def plan(route: str, N: int, d: int, m: int, e: int = 1, r: int = 1, *,
         memory: int | str = DEFAULT_MEMORY, dtype: object = "float64",
         cast_factors: bool = False, extra: int = 0) -> Plan:
    """The largest chunks that fit ``memory``: all rows at once if one unit fits with them,
    else one unit at a time over blocks of rows. ``extra`` is fixed working memory (bytes)
    beyond the output; ``cast_factors`` counts a per-chunk copy of the factors in the working
    dtype. Raises :class:`NumericError` when not even one unit and one row fit."""
    budget = parse_memory(memory)
    s = as_dtype(dtype).itemsize
    fixed = s * N * e + extra                      # the output, accumulated in place
    # a chunk's factors and values cast to the working dtype (the factor route casts while
    # copying them side by side, which its own per-unit memory already counts)
    cast = ({"factor": 0, "kernel": 2 * d * r}.get(route, 2 * d) + e) if cast_factors else 0

    def fits(c: int, n: int) -> bool:
        return _need(route, N, d, e, r, c, n, s, fixed, cast) <= budget

    if fits(1, N):
        lo, hi = 1, m                              # the largest c with fits(c, N)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if fits(mid, N) else (lo, mid - 1)
        per_unit = _need(route, N, d, e, r, 2, N, s, 0, cast) - _need(route, N, d, e, r, 1, N, s, 0, cast)
        # no rows (or d = e = 0) cost nothing per unit; blocks of at least one row keep the
        # row loop well defined when there are none
        units, tokens = max(1, min(lo, CHUNK_BYTES // max(per_unit, 1))), max(N, 1)
    else:
        lo, hi = 0, N
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if fits(1, mid) else (lo, mid - 1)
        if lo == 0:
            least = _need(route, N, d, e, r, 1, 1, s, fixed, cast)
            raise NumericError(f"the memory budget {_bytes(budget)} is too small for the {route} route "
                               f"at these sizes: it needs at least {_bytes(least)}")
        units, tokens = 1, lo
    used = _need(route, N, d, e, r, units, tokens, s, fixed, cast)
    return Plan(route, N, d, m, e, r, units, tokens, used, budget,
                float(m * _FLOPS[route](N, d, r)), s, cast_factors)


def _workers(threads: Any) -> int:
    """``threads`` validated: None for as many as the BLAS would use (:func:`parallel.available`)."""
    if threads is None:
        return parallel.available()
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise NumericError(f"threads must be a whole number ≥ 1, not {threads!r}", name="threads")
    return threads


def _bilinear_setup(N: int, d: int, m: int, e: int, r: int, memory: int | str, dtype: object,
                    cast: bool, extra: int, route: str | None, threads: Any = None) -> Plan:
    """The plan of :func:`_bilinear_plan`, shared by ``workers`` threads when there are chunks
    enough for them: each plans within an equal share of the budget (its own workspace and
    output), so the whole stays within it. Else, or when a share is too small, one thread."""
    wanted, budget = _workers(threads), parse_memory(memory)
    if wanted > 1:
        try:
            share = _bilinear_plan(N, d, m, e, r, budget // wanted, dtype, cast, extra, route)
        except NumericError:
            share = None
        if share is not None and share.chunks >= wanted:
            # as many chunks for every thread: smaller chunks (still within the share) rather
            # than one thread left with the last, odd chunk
            units = -(-m // (-(-share.chunks // wanted) * wanted))
            return dataclasses.replace(share, units=units, workers=wanted, bytes=share.bytes * wanted,
                                       budget=budget)
    return _bilinear_plan(N, d, m, e, r, budget, dtype, cast, extra, route)


def _bilinear_plan(N: int, d: int, m: int, e: int, r: int, memory: int | str, dtype: object,
                   cast: bool, extra: int, route: str | None) -> Plan:
    """The cheaper of the factor and kernel routes (by flops) among those that fit."""
    routes = [route] if route else ["factor", "kernel"]
    options, errors = [], []
    for name in routes:
        if name not in ("factor", "kernel"):
            raise NumericError(f"unknown route {name!r}; expected factor or kernel", name="route")
        try:
            options.append(plan(name, N, d, m, e, r, memory=memory, dtype=dtype,
                                cast_factors=cast, extra=extra))
        except NumericError as err:
            errors.append(err)
    if not options:
        raise errors[-1]
    # per unit the counts do not depend on the chunk, so the per-chunk choice is this one
    return min(options, key=lambda p: (p.flops, p.route != "factor"))


# --------------------------------------------------------------------------- the driver


Preactivate = Callable[[int, int], Callable[[int, int], Any]]


def _accumulate(p: Plan, X: np.ndarray, V: np.ndarray, dtype: np.dtype,
                preactivate: Callable[[], Preactivate],
                sigma: Callable[[np.ndarray], np.ndarray],
                progress: Progress | None,
                to_input: Callable[[Any], np.ndarray] | None = None,
                finish: Callable[[np.ndarray, Any], np.ndarray] | None = None) -> np.ndarray:
    """``out = Σ_chunks σ(S_chunk) V_chunk``. ``preactivate()`` makes a chunk preparer (with its
    own buffers: one per thread), which for units u0…u1 returns ``rows(t0, t1)``, the
    (rows × units) pre-activations of that block, or something ``to_input`` turns into them;
    ``finish(σ(z), rows)`` then makes the hidden activations (σ(z) itself by default). With
    ``p.workers`` threads, thread i takes every ``workers``-th chunk from the i-th, into its
    own output; the outputs are summed at the end.

    σ's inputs, the hidden activations and the output are each checked to be finite: an inf
    or NaN anywhere raises :class:`NumericOverflowError` (σ saturating at inf, as sigmoid does,
    would otherwise hide an overflow in its input)."""
    label = f"{p.route} route"
    starts = list(range(0, p.m, p.units))
    lock = threading.Lock()

    def report(text: str) -> None:
        if progress is not None:
            with lock:                      # progress bars are not all thread-safe
                progress(text)

    def work(share: Sequence[int], stop: threading.Event) -> np.ndarray:
        prepare = preactivate()
        out = np.zeros((p.N, p.e), dtype=dtype)
        for u0 in share:
            if stop.is_set():
                break
            u1 = min(u0 + p.units, p.m)
            with np.errstate(over="ignore", invalid="ignore"):      # found and named below
                rows = prepare(u0, u1)
            Vc = _cast(V[u0:u1], dtype)
            for t0 in range(0, p.N, p.tokens):
                t1 = min(t0 + p.tokens, p.N)
                with np.errstate(over="ignore", invalid="ignore"):
                    pre = rows(t0, t1)
                    z = pre if to_input is None else to_input(pre)
                    block = f"units {u0 + 1}–{u1}, rows {t0 + 1}–{t1},"
                    _overflow(z, dtype, "the pre-activations", f"the pre-activations of {block} are not finite")
                    hidden = sigma(z) if finish is None else finish(sigma(z), pre)
                    _overflow(hidden, dtype, "the hidden activations",
                              f"the hidden activations of {block} are not finite")
                    out[t0:t1] += hidden @ Vc
                report(f"{label}: units {u0 + 1}–{u1} of {p.m}")
        return out

    if p.workers == 1:
        out = work(starts, threading.Event())
    else:
        out, *rest = parallel.run(work, [starts[i::p.workers] for i in range(p.workers)])
        with np.errstate(over="ignore", invalid="ignore"):
            for part in rest:
                out += part
    _overflow(out, dtype, "the output")
    return out


def _workspace(p: Plan, dtype: np.dtype) -> dict[str, np.ndarray]:
    """Flat buffers reused by every chunk (a shorter last chunk uses a prefix, still contiguous)."""
    c, n, d, r = p.units, p.tokens, p.d, p.r
    if p.route == "factor":
        return {"Qf": np.empty(d * c * r, dtype), "Kf": np.empty(d * c * r, dtype),
                "A": np.empty(n * c * r, dtype), "B": np.empty(n * c * r, dtype)}
    return {"M": np.empty(d * c * d, dtype), "P": np.empty(n * c * d, dtype)}


def bilinear_attention(X: Any, Q: Any, K: Any, V: Any, act: Any, *,
                       memory: int | str = DEFAULT_MEMORY, dtype: object = "float64",
                       route: str | None = None, progress: Progress | None = None,
                       threads: int | None = None) -> np.ndarray:
    """``Σ_j σ(x Q_j K_jᵀ xᵀ) v_j`` for every row x of X.

    ``X`` (N, d) or one row (d,), ``Q``, ``K`` (m, d, r), ``V`` (m, e); ``act`` a catalogue name,
    an expression in z, or an Activation. ``memory`` bounds the working memory in bytes (or
    "256MiB"); ``route`` forces ``"factor"`` or ``"kernel"`` (default: the cheaper by flops);
    ``progress(label)`` is called once per chunk and row block. ``threads`` share the chunks,
    each with a one-thread BLAS (:mod:`symcheck.numeric.parallel`); by default as many as the BLAS
    would use, 1 to stay on the calling thread.
    """
    kind = as_dtype(dtype)
    X, one = _rows(X, kind)
    Q, K, V = _array("Q", Q, 3, kind), _array("K", K, 3, kind), _array("V", V, 2, kind)
    N, d = X.shape
    m, _, r = Q.shape
    if K.shape != Q.shape:
        raise NumericError(f"K has shape {K.shape}; expected {Q.shape} like Q", name="K")
    _agree("d (axis 1)", d, Q.shape[1], "Q")
    _agree("m (axis 0)", m, V.shape[0], "V")
    sigma, _ = _sigma(act, kind)
    Xd = _cast(X, kind)
    cast = Q.dtype != kind or K.dtype != kind or not (Q.flags.c_contiguous and K.flags.c_contiguous)
    extra = 0 if Xd is X else Xd.nbytes
    p = _bilinear_setup(N, d, m, V.shape[1], r, memory, kind, cast, extra, route, threads)

    def factor(work: dict[str, np.ndarray], u0: int, u1: int):
        c = u1 - u0
        Qf = work["Qf"][: d * c * r].reshape(d, c * r)
        Kf = work["Kf"][: d * c * r].reshape(d, c * r)
        np.copyto(Qf.reshape(d, c, r), Q[u0:u1].transpose(1, 0, 2), casting="unsafe")
        np.copyto(Kf.reshape(d, c, r), K[u0:u1].transpose(1, 0, 2), casting="unsafe")

        def rows(t0: int, t1: int) -> np.ndarray:
            n = t1 - t0
            A = np.matmul(Xd[t0:t1], Qf, out=work["A"][: n * c * r].reshape(n, c * r))
            B = np.matmul(Xd[t0:t1], Kf, out=work["B"][: n * c * r].reshape(n, c * r))
            A *= B
            return A.reshape(n, c, r).sum(axis=2)
        return rows

    def kernel(work: dict[str, np.ndarray], u0: int, u1: int):
        c = u1 - u0
        M = work["M"][: d * c * d].reshape(d, c, d)      # M[a, j, b] = (Q_j K_jᵀ)[a, b]
        np.matmul(_cast(Q[u0:u1], kind), _cast(K[u0:u1], kind).transpose(0, 2, 1),
                  out=M.transpose(1, 0, 2))
        flat = M.reshape(d, c * d)

        def rows(t0: int, t1: int) -> np.ndarray:
            n = t1 - t0
            P = np.matmul(Xd[t0:t1], flat, out=work["P"][: n * c * d].reshape(n, c * d))
            # row n: (x M_j)·x for every j of the chunk, one (c × d)·(d) product per row
            return np.matmul(P.reshape(n, c, d), Xd[t0:t1, :, None])[:, :, 0]
        return rows

    route_of = factor if p.route == "factor" else kernel
    out = _accumulate(p, Xd, V, kind, lambda: functools.partial(route_of, _workspace(p, kind)),
                      sigma, progress)
    return out[0] if one else out


def rank_r(X: Any, Q: Any, K: Any, V: Any, act: Any, **options: Any) -> np.ndarray:
    """The rank-r family ``Σ_j σ(Σ_s (x·q_js)(x·k_js)) v_j``: bilinear attention by the factor route."""
    return bilinear_attention(X, Q, K, V, act, route="factor", **options)


def _two_factor(route: str, X: Any, Q: Any, K: Any, V: Any, act: Any, memory: int | str,
                dtype: object, progress: Progress | None,
                to_input: Callable[[Any], np.ndarray],
                finish: Callable[[np.ndarray, Any], np.ndarray] | None) -> np.ndarray:
    kind = as_dtype(dtype)
    X, one = _rows(X, kind)
    Q, K, V = _array("Q", Q, 2, kind), _array("K", K, 2, kind), _array("V", V, 2, kind)
    N, d = X.shape
    if K.shape != Q.shape:
        raise NumericError(f"K has shape {K.shape}; expected {Q.shape} like Q", name="K")
    _agree("d (axis 1)", d, Q.shape[1], "Q")
    _agree("m (axis 0)", Q.shape[0], V.shape[0], "V")
    sigma, _ = _sigma(act, kind)
    Xd = _cast(X, kind)
    cast = Q.dtype != kind or K.dtype != kind
    p = plan(route, N, d, Q.shape[0], V.shape[1], memory=memory, dtype=kind, cast_factors=cast,
             extra=0 if Xd is X else Xd.nbytes)

    def chunk(u0: int, u1: int):
        Qc, Kc = _cast(Q[u0:u1], kind), _cast(K[u0:u1], kind)
        return lambda t0, t1: (Xd[t0:t1] @ Qc.T, Xd[t0:t1] @ Kc.T)

    out = _accumulate(p, Xd, V, kind, lambda: chunk, sigma, progress, to_input, finish)
    return out[0] if one else out


def _product(pair: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """σ's input in the rank-1 form: (x·q)(x·k), in place."""
    a, b = pair
    a *= b
    return a


def _gate(pair: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """σ's input in the gated form: x·q alone."""
    return pair[0]


def _times_b(hidden: np.ndarray, pair: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    hidden *= pair[1]
    return hidden


def rank1(X: Any, Q: Any, K: Any, V: Any, act: Any, *, memory: int | str = DEFAULT_MEMORY,
          dtype: object = "float64", progress: Progress | None = None) -> np.ndarray:
    """The symmetric rank-1 form ``σ((xQᵀ)⊙(xKᵀ))V`` with ``Q, K`` (m, d), ``V`` (m, e)."""
    return _two_factor("rank1", X, Q, K, V, act, memory, dtype, progress, _product, None)


def gated(X: Any, Q: Any, K: Any, V: Any, act: Any, *, memory: int | str = DEFAULT_MEMORY,
          dtype: object = "float64", progress: Progress | None = None) -> np.ndarray:
    """The gated MLP ``(σ(xQᵀ)⊙(xKᵀ))V`` (GLU family): σ on the gate/query factor only."""
    return _two_factor("gated", X, Q, K, V, act, memory, dtype, progress, _gate, _times_b)


def mlp(X: Any, K: Any, V: Any, act: Any, *, memory: int | str = DEFAULT_MEMORY,
        dtype: object = "float64", progress: Progress | None = None, _extra: int = 0) -> np.ndarray:
    """The standard MLP ``σ(xKᵀ)V`` = ``σ(x W1ᵀ) W2`` (keys ``K = W1``, values ``V = W2``)."""
    kind = as_dtype(dtype)
    X, one = _rows(X, kind)
    K, V = _array("K", K, 2, kind), _array("V", V, 2, kind)
    N, d = X.shape
    _agree("d (axis 1)", d, K.shape[1], "K")
    _agree("m (axis 0)", K.shape[0], V.shape[0], "V")
    sigma, _ = _sigma(act, kind)
    Xd = _cast(X, kind)
    p = plan("mlp", N, d, K.shape[0], V.shape[1], memory=memory, dtype=kind,
             cast_factors=K.dtype != kind, extra=_extra + (0 if Xd is X else Xd.nbytes))

    def chunk(u0: int, u1: int):
        Kc = _cast(K[u0:u1], kind)
        return lambda t0, t1: Xd[t0:t1] @ Kc.T

    out = _accumulate(p, Xd, V, kind, lambda: chunk, sigma, progress)
    return out[0] if one else out


def query_mlp(X: Any, Q_g: Any, K: Any, V: Any, act: Any, *, memory: int | str = DEFAULT_MEMORY,
              dtype: object = "float64", progress: Progress | None = None) -> np.ndarray:
    """The MLP with one global query ``σ((x Q_g) Kᵀ) V``, ``Q_g`` (d, d), evaluated as written:
    ``x Q_g`` first (it is not absorbed into the keys here; that is what ``absorb`` compares)."""
    kind = as_dtype(dtype)
    X, one = _rows(X, kind)
    Q_g = _array("Q_g", Q_g, 2, kind)
    d = X.shape[1]
    if Q_g.shape != (d, d):
        raise NumericError(f"Q_g has shape {Q_g.shape}; expected ({d}, {d})", name="Q_g")
    with np.errstate(over="ignore", invalid="ignore"):
        XG = _cast(X, kind) @ _cast(Q_g, kind)     # counted below as fixed working memory
    _overflow(XG, kind, "x·Q_g")
    out = mlp(XG, K, V, act, memory=memory, dtype=kind, progress=progress, _extra=XG.nbytes)
    return out[0] if one else out


def evaluate(form: str, X: Any, act: Any = None, **arrays_and_options: Any) -> np.ndarray:
    """Any formulation of docs/theory.md §1 by name, parameters by their names there:
    ``evaluate("swiglu", X, Q=…, K=…, V=…)``, ``evaluate("mlp", X, "relu", K=…, V=…)``,
    ``evaluate("bilinear", X, "gelu", Q=…, K=…, V=…)`` with per-unit factors (m, d, r)."""
    from symcheck.language.formulations import formulation
    f = formulation(form)
    if f.activation is not None:
        if act is not None and act != f.activation:
            raise NumericError(f"{f.name} fixes σ = {f.activation}; do not pass act={act!r}")
        act = f.activation
    if act is None:
        raise NumericError(f"{f.name} needs an activation: evaluate({form!r}, X, act, …)")
    base = f.base or f.name
    options = {k: arrays_and_options.pop(k) for k in ("memory", "dtype", "progress")
               if k in arrays_and_options}
    names = {"mlp": ("K", "V"), "query-mlp": ("Q_g", "K", "V")}.get(base, ("Q", "K", "V"))
    if "W1" in arrays_and_options or "W2" in arrays_and_options:
        arrays_and_options = {{"W1": "K", "W2": "V"}.get(k, k): v for k, v in arrays_and_options.items()}
    missing = [n for n in names if n not in arrays_and_options]
    unknown = [n for n in arrays_and_options if n not in names]
    if missing or unknown:
        raise NumericError(f"{f.name} takes {', '.join(names)}" + (f"; missing {', '.join(missing)}"
                           if missing else "") + (f"; unknown {', '.join(unknown)}" if unknown else ""))
    arrays = [arrays_and_options[n] for n in names]
    function = {"mlp": mlp, "query-mlp": query_mlp, "bilinear": bilinear_attention, "rank-r": rank_r,
                "rank1": rank1, "gated": gated}[base]
    return function(X, *arrays, act, **options)


# --------------------------------------------------------------------------- checks at size


def tolerance(dtype: object, terms: int) -> float:
    """The relative error two evaluations of the same quantity may differ by: sums of ``terms``
    rounded products drift like √terms·ε (a random walk of rounding errors), with a margin
    of 64 for σ's conditioning and the different association of the two sides."""
    return 64 * float(np.finfo(as_dtype(dtype)).eps) * math.sqrt(max(terms, 1))


CHECKS = {
    "rank1": "bilinear attention at r = 1 equals the rank-1 form σ((xQᵀ)⊙(xKᵀ))V",
    "absorb": "a global query is absorbed into the keys: σ((xQ_g)Kᵀ)V = σ(x(KQ_gᵀ)ᵀ)V",
    "exchange": "swapping query and key, (Q, K) → (K, Q), leaves the layer unchanged",
    "scaling": "inverse scaling, (Q, K) → (αQ, K/α), leaves the layer unchanged",
}
_IDENTITIES = ("rank1", "absorb")
FORMS = ("gated", "rank1", "bilinear")
_DEFAULTS = {"d": 256, "m": 1024, "r": 4, "tokens": 256}


@dataclass(frozen=True)
class NumericReport:
    """Two evaluations of a layer at size and their relative difference: numeric evidence only.

    For ``rank1``/``absorb`` (identities) agreement within the tolerance is evidence for the
    identity (its proof is ``symcheck derive``); for ``exchange``/``scaling`` a relative change
    far above the tolerance is evidence that the map is not a symmetry at these weights, never
    a symbolic verdict (those come from ``symcheck exchange``/``scaling``, with certified witnesses).
    When float arithmetic cannot resolve the comparison (a value out of range, outputs in the
    underflow range or all 0) the outcome is ``overflow``/``underflow``: no evidence either way.
    """

    check: str
    claim: str
    form: str
    activation: str
    left: str
    right: str
    dtype: str
    sizes: Mapping[str, int]
    #: None when there is no finite ratio: an overflow, or a left side of exact zeros
    relative: float | None
    tolerance: float
    source: str
    routes: tuple[str, ...]
    memory: int
    seed: int | None = None
    alpha: str | None = None
    elapsed: float = 0.0
    evidence: str = "numeric"
    #: "overflow" or "underflow" when float arithmetic could not resolve the comparison
    no_evidence: str | None = None
    #: why ``relative`` is None or why there is no evidence
    reason: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "sizes", MappingProxyType(dict(self.sizes)))

    @property
    def within(self) -> bool:
        return self.no_evidence is None and self.relative is not None and self.relative <= self.tolerance

    @property
    def outcome(self) -> str:
        """``agree`` (within the tolerance), ``differ``, or ``overflow``/``underflow``: no
        evidence either way."""
        return self.no_evidence or ("agree" if self.within else "differ")

    @property
    def quantity(self) -> str:
        return "relative error" if self.check in _IDENTITIES else "relative change"

    @property
    def summary(self) -> str:
        if self.no_evidence is not None:
            return (f"{self.no_evidence}: no evidence either way — {self.reason}; the comparison "
                    "says nothing about the claim at these weights")
        if self.relative is None:
            head = f"{self.quantity} unbounded ≫ tolerance {self.tolerance:.2g} ({self.reason})"
        else:
            compare = "≤" if self.within else ("≫" if self.relative > 100 * self.tolerance else ">")
            head = f"{self.quantity} {self.relative:.3g} {compare} tolerance {self.tolerance:.2g}"
        if self.check in _IDENTITIES:
            tail = ("the two sides agree: numeric evidence for the identity, not a proof "
                    f"(the proof: symcheck derive {self.check})" if self.within else
                    "the two sides differ by more than rounding explains: numeric evidence "
                    "against the identity at these weights")
        else:
            name = "exchange" if self.check == "exchange" else f"scaling with α = {self.alpha}"
            command = f"symcheck {self.check} --act {shlex.quote(self.activation)}" + (
                f" --alpha {shlex.quote(self.alpha)}" if self.check == "scaling" else "") + (
                f" --form {self.form}" if self.form != "gated" else "")
            hint = "" if self.form == "bilinear" else f" (a certified one: {command})"
            tail = (f"the layer changes under {name}: numeric evidence that it is not a symmetry "
                    f"of the {self.form} layer with σ = {self.activation} — not a symbolic "
                    f"verdict{hint}" if not self.within else
                    "the layer is unchanged up to rounding: consistent with a symmetry at these "
                    "weights — numeric evidence, not a proof")
        return f"{head}: {tail}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "check": self.check, "claim": self.claim, "form": self.form,
            "activation": self.activation, "compared": {"left": self.left, "right": self.right},
            "dtype": self.dtype, "sizes": dict(self.sizes), "alpha": self.alpha,
            "quantity": self.quantity.replace(" ", "_"), "relative": self.relative,
            "tolerance": self.tolerance, "outcome": self.outcome, "reason": self.reason,
            "evidence": self.evidence,
            "verdict": None, "summary": self.summary, "source": self.source, "seed": self.seed,
            "routes": list(self.routes), "memory_bytes": self.memory,
            "elapsed_seconds": round(self.elapsed, 4),
        }

    def __str__(self) -> str:
        sizes = ", ".join(f"{k}={v}" for k, v in self.sizes.items())
        lines = [f"numeric {self.check}: {self.claim}",
                 f"  left   {self.left}", f"  right  {self.right}",
                 f"  σ = {self.activation}, {self.form} form, {self.dtype}, {sizes}",
                 f"  data   {self.source}", f"  routes {'; '.join(dict.fromkeys(self.routes))}",
                 f"  {self.summary}"]
        return "\n".join(lines)

    def __rich__(self):
        from rich.panel import Panel
        from rich.table import Table
        from rich.text import Text
        table = Table(show_header=False, box=None, padding=(0, 1))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        for key, value in (("claim", self.claim), ("left", self.left), ("right", self.right),
                           ("layer", f"{self.form} form, σ = {self.activation}, {self.dtype}"),
                           ("sizes", ", ".join(f"{k} = {v}" for k, v in self.sizes.items())),
                           ("data", self.source), ("routes", "; ".join(dict.fromkeys(self.routes))),
                           ("time", f"{self.elapsed:.2f} s")):
            table.add_row(key, value)
        # an identity that fails is alarming; a symmetry that breaks is a finding
        style = ("green" if self.within else "yellow" if self.no_evidence else
                 "bold red" if self.check in _IDENTITIES else "bold yellow")
        table.add_row("result", Text(self.summary, style=style))
        return Panel(table, title=f"numeric {self.check}", title_align="left",
                     subtitle="numeric evidence, not a symbolic verdict", subtitle_align="left")


@dataclass(frozen=True)
class _Side:
    text: str
    run: Callable[[Progress | None], np.ndarray]
    plan: Plan
    #: ("overflow" | "underflow", reason) when the side's data already cannot give evidence
    blocked: tuple[str, str] | None = None


class _NoEvidence(Exception):
    """Inside :meth:`NumericCheck.run`: the comparison cannot give evidence (``kind`` says why)."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind, self.reason = kind, reason


def _compare(left: np.ndarray, right: np.ndarray, kind: np.dtype,
             tol: float) -> tuple[float | None, str | None]:
    """‖left − right‖ / ‖left‖, with the norms computed so that they cannot overflow: both
    sides are scaled by the same power of two (exact) so that their largest entry is below 1.

    Raises :class:`_NoEvidence` when the outputs lie so close to the underflow threshold that
    rounding there (absolute, not relative) could exceed the tolerance, or are all exactly 0
    (which underflow also produces). Returns (None, reason) for a left side of exact zeros
    against a non-zero right side."""
    a, b = left.astype(np.float64), right.astype(np.float64)
    top = max(float(np.max(np.abs(a), initial=0.0)), float(np.max(np.abs(b), initial=0.0)))
    tiny = float(np.finfo(kind).tiny)
    if top == 0.0:
        raise _NoEvidence("underflow", f"both sides are exactly 0 in {kind.name} (underflow gives that too)")
    if top < tiny / tol:
        raise _NoEvidence("underflow", f"the outputs (largest |value| {top:.3g}) are within 1/tolerance of "
                                       f"{kind.name}'s underflow threshold {tiny:.3g}, where rounding is "
                                       "absolute")
    shift = -math.frexp(top)[1]
    a, b = np.ldexp(a, shift), np.ldexp(b, shift)
    scale = float(np.linalg.norm(a))
    diff = float(np.linalg.norm(a - b))
    if scale == 0.0:
        return None, "the left side is exactly 0 and the right side is not: the relative change is unbounded"
    return diff / scale, None


@dataclass(frozen=True)
class NumericCheck:
    """A prepared check: data in place, both sides planned. ``run(progress)`` does the work."""

    check: str
    form: str
    activation: str
    dtype: str
    sizes: Mapping[str, int]
    left: _Side
    right: _Side
    terms: int
    source: str
    memory: int
    seed: int | None = None
    alpha: str | None = None

    @property
    def steps(self) -> int:
        return self.left.plan.steps + self.right.plan.steps

    @property
    def flops(self) -> float:
        return self.left.plan.flops + self.right.plan.flops

    @property
    def slow(self) -> bool:
        """Worth a progress bar: more than about a second of matrix products."""
        return self.flops > 5e9

    def run(self, progress: Progress | None = None) -> NumericReport:
        """Both sides, compared. An overflow in either (or data that cannot give evidence) is
        reported as such, with no ratio: never as a difference."""
        started = time.perf_counter()
        tol = tolerance(self.dtype, self.terms)
        relative: float | None = None
        no_evidence = reason = None
        try:
            for side in (self.left, self.right):
                if side.blocked is not None:
                    raise _NoEvidence(*side.blocked)
            left = self.left.run(progress)
            right = self.right.run(progress)
            relative, reason = _compare(left, right, as_dtype(self.dtype), tol)
        except NumericOverflowError as err:
            no_evidence, reason = "overflow", str(err)
        except _NoEvidence as err:
            no_evidence, reason = err.kind, err.reason
        return NumericReport(
            check=self.check, claim=CHECKS[self.check], form=self.form, activation=self.activation,
            left=self.left.text, right=self.right.text, dtype=self.dtype, sizes=self.sizes,
            relative=relative, tolerance=tol, source=self.source,
            routes=(self.left.plan.describe(), self.right.plan.describe()), memory=self.memory,
            seed=self.seed, alpha=self.alpha, elapsed=time.perf_counter() - started,
            no_evidence=no_evidence, reason=reason)


def _alpha(value: str | float | int | Fraction | None, kind: np.dtype) -> tuple[np.floating, str]:
    """α as a number of the working dtype, and as given: finite and non-zero there, else an error."""
    text = "2" if value is None else str(value).strip()
    if text.lower() in ("minus-one", "minus_one"):
        text = "-1"
    try:
        number = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise NumericError(f"numeric scaling needs one number for alpha (e.g. 2, -1, 1/3), not {text!r}",
                           name="alpha") from None
    if number == 0:
        raise NumericError("alpha must be non-zero: (q, k) -> (0·q, k/0) is not defined", name="alpha")
    beyond = f"alpha = {text} is beyond the {kind.name} range (±{float(np.finfo(kind).max):.2g})"
    try:
        wide = float(number)
    except OverflowError:
        raise NumericError(beyond, name="alpha") from None
    with np.errstate(over="ignore", under="ignore"):
        value_in_kind = kind.type(wide)
    if not np.isfinite(value_in_kind):
        raise NumericError(beyond, name="alpha")
    if value_in_kind == 0:
        raise NumericError(f"alpha = {text} rounds to 0 in {kind.name}", name="alpha")
    return value_in_kind, text


def _whole(name: str, value: Any, least: int) -> int | None:
    """A size or seed as given (None: the default), refused unless a whole number ≥ ``least``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise NumericError(f"{name} must be a whole number ≥ {least}, not {value!r}", name=name)
    return int(value)


def prepare(check_name: str, *, act: Any = "silu", form: str | None = None, d: int | None = None,
            m: int | None = None, r: int | None = None, tokens: int | None = None, seed: int = 0,
            dtype: object = "float64", memory: int | str = DEFAULT_MEMORY,
            alpha: str | float | None = None, weights: Sequence[str] = (), inputs: str | None = None,
            layer: str | None = None) -> NumericCheck:
    """Set up a numeric check (see ``CHECKS``) on random data or real weights; ``.run()`` it.

    Random data: X ~ N(0, 1) rows; factors scaled so pre-activations are O(1); V ~ N(0, 1/m);
    output size e = d. Real weights: ``weights`` files (see :mod:`symcheck.numeric.weights`), the sizes
    come from them and ``d``/``m``/``r`` must not be given.
    """
    from symcheck.language.activations import activation
    if check_name not in CHECKS:
        from symcheck.core.errors import UnknownNameError
        from symcheck.core.names import closest
        raise UnknownNameError("numeric check", check_name, closest(check_name, CHECKS), tuple(CHECKS))
    kind = as_dtype(dtype)
    budget = parse_memory(memory)
    d, m, r, tokens = (_whole(name, value, 1) for name, value in (("d", d), ("m", m), ("r", r),
                                                                   ("tokens", tokens)))
    seed = _whole("seed", seed, 0)
    sigma = activation(act)
    if alpha is not None and check_name != "scaling":
        raise NumericError("alpha applies to the scaling check only", name="alpha")
    if form is not None and check_name not in ("exchange", "scaling"):
        raise NumericError(f"the {check_name} check fixes its forms; form applies to exchange and "
                           "scaling", name="form")
    if form is not None and form not in FORMS:
        from symcheck.core.errors import UnknownNameError
        from symcheck.core.names import closest
        raise UnknownNameError("numeric form", form, closest(form, FORMS), FORMS)
    rng = np.random.default_rng(seed)
    if weights:
        data = _weights_data(check_name, form, weights, layer, d, m, r, tokens, inputs, rng, seed, kind)
    else:
        if inputs is not None:
            raise NumericError("inputs (X) need weights too; give the weight files", name="inputs")
        data = _random_data(check_name, form or "gated", d, m, r, tokens, rng, seed, kind)
    sizes, arrays, form_used, source = data
    options = {"memory": budget, "dtype": kind}
    left, right, terms, alpha_text = _sides(check_name, form_used, sizes, arrays, sigma, options, alpha)
    return NumericCheck(check_name, form_used, sigma.name, kind.name, sizes, left, right, terms,
                        source, budget, None if weights else seed, alpha_text)


def check(check_name: str, **options: Any) -> NumericReport:
    """``prepare(check_name, **options).run()``.

    >>> check("exchange", act="silu", d=8, m=16, tokens=32).outcome
    'differ'
    >>> check("rank1", act="gelu", d=8, m=16, tokens=32).outcome
    'agree'
    """
    progress = options.pop("progress", None)
    return prepare(check_name, **options).run(progress)


def _random_data(check_name: str, form: str, d: int | None, m: int | None, r: int | None,
                 tokens: int | None, rng: np.random.Generator, seed: int, kind: np.dtype):
    d = _DEFAULTS["d"] if d is None else d
    m = _DEFAULTS["m"] if m is None else m
    N = _DEFAULTS["tokens"] if tokens is None else tokens
    if check_name == "rank1":
        if r not in (None, 1):
            raise NumericError("the rank1 check compares at r = 1; leave out r", name="r")
        r = 1
    elif form != "bilinear" and r not in (None, 1):
        raise NumericError(f"r applies to the bilinear form, not {form}; add form='bilinear'", name="r")
    r = r or (_DEFAULTS["r"] if form == "bilinear" and check_name != "rank1" else 1)

    def normal(shape, std):
        return (rng.standard_normal(shape, dtype=kind) * kind.type(std)).astype(kind, copy=False)

    X = normal((N, d), 1.0)
    V = normal((m, d), 1 / math.sqrt(m))
    if check_name == "absorb":
        arrays = {"X": X, "Q_g": normal((d, d), 1 / math.sqrt(d)), "K": normal((m, d), 1 / math.sqrt(d)), "V": V}
        form = "query-mlp"
    elif form == "bilinear" and check_name != "rank1":
        std = 1 / math.sqrt(d * math.sqrt(r))      # x Q_j K_jᵀ xᵀ = O(1)
        arrays = {"X": X, "Q": normal((m, d, r), std), "K": normal((m, d, r), std), "V": V}
    else:
        std = 1 / math.sqrt(d)                     # a = x·q, b = x·k are O(1)
        arrays = {"X": X, "Q": normal((m, d), std), "K": normal((m, d), std), "V": V}
        form = "rank1" if check_name == "rank1" else form
    sizes = {"d": d, "m": m, "e": d, "r": r, "tokens": N}
    return sizes, arrays, form, f"random normal data, seed {seed}"


def _weights_data(check_name: str, form: str | None, weights: Sequence[str], layer: str | None,
                  d: int | None, m: int | None, r: int | None, tokens: int | None,
                  inputs: str | None, rng: np.random.Generator, seed: int, kind: np.dtype):
    from symcheck.numeric.weights import load_inputs, load_layer
    given = [name for name, value in (("d", d), ("m", m), ("r", r)) if value is not None]
    if given:
        raise NumericError(f"{', '.join(given)} come(s) from the weights; leave {', '.join(given)} out",
                           name=given[0])
    w = load_layer(weights, layer=layer, form=None if form == "bilinear" else form)
    if check_name == "absorb" and w.form != "query-mlp":
        raise NumericError("the absorb check needs tensors Q_g (d, d), K (m, d) and V (m, e)", name="Q_g")
    if check_name != "absorb" and w.form == "query-mlp":
        raise NumericError(f"the {check_name} check needs Q, K and V; the weights hold Q_g, K, V "
                           "(use the absorb check)", name="Q")
    if check_name == "rank1" and w.form == "bilinear":
        if w.r != 1:
            raise NumericError(f"the rank1 check needs rank-1 factors; the weights have r = {w.r}", name="Q")
    if form == "bilinear" and w.form != "bilinear":
        raise NumericError("form bilinear needs 3-D factors Q, K (m, d, r) in the weights", name="Q")
    for role in ("Q", "K", "V", "Q_g"):
        array = getattr(w, role)
        if array is not None:
            label = w.sources[role]
            if label.endswith(" transposed"):      # name the index as the file stores it
                array, label = array.T, label[: -len(" transposed")]
            _refuse_non_finite(label, array, kind)
    d = w.d
    if inputs is not None:
        X, where = load_inputs(inputs, d)
        _refuse_non_finite(where, X, kind)
        source = f"weights {w.describe()}; inputs {where}"
    else:
        X = rng.standard_normal((_DEFAULTS["tokens"] if tokens is None else tokens, d), dtype=kind)
        source = f"weights {w.describe()}; random normal inputs, seed {seed}"
    arrays = {"X": X, "K": w.K, "V": w.V}
    if w.form == "query-mlp":
        arrays["Q_g"] = w.Q_g
    else:
        arrays["Q"] = w.Q
    used = w.form
    if check_name == "rank1":
        used = "rank1"
        if w.Q.ndim == 3:
            arrays["Q"], arrays["K"] = w.Q[:, :, 0], w.K[:, :, 0]
    sizes = {"d": d, "m": w.m, "e": w.e, "r": w.r, "tokens": int(X.shape[0])}
    return sizes, arrays, used, source


def _sides(check_name: str, form: str, sizes: Mapping[str, int], a: Mapping[str, np.ndarray],
           sigma: Any, options: dict, alpha: Any):
    """The two evaluations to compare, planned, and the length of the longest sum involved."""
    N, d, m, e, r = sizes["tokens"], sizes["d"], sizes["m"], sizes["e"], sizes["r"]
    kind = options["dtype"]
    X = a["X"]

    def side(text: str, function: Callable, arrays: Sequence[Any], p: Plan,
             blocked: tuple[str, str] | None = None, **extra: Any) -> _Side:
        return _Side(text, lambda progress: function(X, *arrays, sigma, progress=progress,
                                                     **options, **extra), p, blocked)

    def two_factor_plan(route: str) -> Plan:
        return plan(route, N, d, m, e, memory=options["memory"], dtype=kind,
                    cast_factors=a["Q"].dtype != kind)

    alpha_text = None
    if check_name == "rank1":
        Q3, K3 = a["Q"][:, :, None], a["K"][:, :, None]
        p = _bilinear_setup(N, d, m, e, 1, options["memory"], kind, a["Q"].dtype != kind, 0, "kernel")
        left = side("Σ_j σ(x M_j xᵀ) v_j with M_j = q_jᵀ k_j materialised (bilinear, r = 1, kernel route)",
                    bilinear_attention, (Q3, K3, a["V"]), p, route="kernel")
        right = side("σ((xQᵀ)⊙(xKᵀ))V (the rank-1 form)", rank1, (a["Q"], a["K"], a["V"]),
                     two_factor_plan("rank1"))
        return left, right, d * d + m, alpha_text
    if check_name == "absorb":
        with np.errstate(over="ignore", invalid="ignore"):
            K_absorbed = (np.asarray(a["K"], np.float64) @ np.asarray(a["Q_g"], np.float64).T).astype(kind)
        p = plan("mlp", N, d, m, e, memory=options["memory"], dtype=kind)
        left = side("σ((xQ_g)Kᵀ)V (the global query applied to x)", query_mlp, (a["Q_g"], a["K"], a["V"]), p)
        right = side("σ(xK'ᵀ)V with K' = K Q_gᵀ (absorbed into the keys)", mlp, (K_absorbed, a["V"]), p,
                     blocked=_blocked(K_absorbed, None, "K·Q_gᵀ", kind))
        return left, right, 2 * d + m, alpha_text
    function = {"gated": gated, "rank1": rank1, "bilinear": bilinear_attention}[form]
    formula = {"gated": "(σ(xQᵀ)⊙(xKᵀ))V", "rank1": "σ((xQᵀ)⊙(xKᵀ))V",
               "bilinear": "Σ_j σ(x Q_j K_jᵀ xᵀ) v_j"}[form]
    if form == "bilinear":
        p = _bilinear_setup(N, d, m, e, r, options["memory"], kind, a["Q"].dtype != kind, 0, None)
        terms = d * max(d, r) + m
    else:
        p = two_factor_plan(form)
        terms = d + m
    Q, K, V = a["Q"], a["K"], a["V"]
    left = side(f"{formula} with (Q, K)", function, (Q, K, V), p)
    if check_name == "exchange":
        right = side(f"{formula} with (K, Q) swapped", function, (K, Q, V), p)
    else:
        value, alpha_text = _alpha(alpha, kind)
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            scaled_q = np.asarray(Q, kind) * value
            scaled_k = np.asarray(K, kind) / value
        blocked = _blocked(scaled_q, Q, "α·Q", kind) or _blocked(scaled_k, K, "K/α", kind)
        right = side(f"{formula} with (αQ, K/α), α = {alpha_text}", function, (scaled_q, scaled_k, V), p,
                     blocked)
    return left, right, terms, alpha_text


def _blocked(computed: np.ndarray, source: np.ndarray | None, name: str,
             kind: np.dtype) -> tuple[str, str] | None:
    """Why data computed for one side (scaled or absorbed factors) can give no evidence: an entry
    not finite in ``kind`` (overflow), or a non-zero entry of ``source`` that became 0 or
    subnormal (underflow: its relative precision is lost, so a 'change' there is rounding)."""
    if not _all_finite(computed):
        first = tuple(int(i) for i in np.argwhere(~np.isfinite(computed))[0])
        return "overflow", f"overflow in {kind.name}: {name} is not finite at index {_index(first)}"
    if source is None:
        return None
    lost = (np.abs(computed) < np.finfo(kind).tiny) & (np.asarray(source) != 0)
    if lost.any():
        first = tuple(int(i) for i in np.argwhere(lost)[0])
        return "underflow", (f"underflow in {kind.name}: {name} is {computed[first]:.3g} at index "
                             f"{_index(first)}, below the normal range: its precision is lost")
    return None
