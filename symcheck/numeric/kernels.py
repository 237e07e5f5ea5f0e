"""The NumPy evaluator for heavy tensors: every layer form of docs/theory.md §1, memory-bounded.

σ comes from the same SymPy definition the symbolic engine reasons about
(``activation(name).to_numpy()``, see :mod:`symcheck.exact.vectorize`). Every form works through
its hidden units in the chunks of its plan (:mod:`symcheck.numeric.planner`); inside a chunk
the work is a handful of BLAS matrix products, never a Python loop over units. Inputs are
cast to the working dtype (float64 by default, float32 on request) one chunk at a time, so
float16 or bfloat16 checkpoints are never copied whole. Inputs must be finite and a value
pushed out of the float range raises (:mod:`symcheck.numeric.arrays`). No rows give an
empty (0, e) output; no units give the empty sum, zeros.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> X, Q, K, V = (rng.standard_normal(s) for s in [(5, 4), (3, 4, 1), (3, 4, 1), (3, 2)])
>>> y = bilinear_attention(X, Q, K, V, "silu")
>>> bool(np.allclose(y, rank1(X, Q[:, :, 0], K[:, :, 0], V, "silu")))
True
"""
from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from symcheck.core.errors import NumericError
from symcheck.exact.vectorize import as_dtype
from symcheck.numeric import parallel
from symcheck.numeric.arrays import agree, as_rows, contiguous, numpy_sigma, real_array, refuse_overflow
from symcheck.numeric.planner import DEFAULT_MEMORY, Plan, bilinear_plan, plan
from symcheck.numeric.vocabulary import Route

__all__ = ["Progress", "bilinear_attention", "rank_r", "rank1", "gated", "mlp", "query_mlp", "evaluate"]

#: called with a label once per chunk and row block
Progress = Callable[[str], None]
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
            Vc = contiguous(V[u0:u1], dtype)
            for t0 in range(0, p.N, p.tokens):
                t1 = min(t0 + p.tokens, p.N)
                with np.errstate(over="ignore", invalid="ignore"):
                    pre = rows(t0, t1)
                    z = pre if to_input is None else to_input(pre)
                    block = f"units {u0 + 1}–{u1}, rows {t0 + 1}–{t1},"
                    refuse_overflow(z, dtype, "the pre-activations", f"the pre-activations of {block} are not finite")
                    hidden = sigma(z) if finish is None else finish(sigma(z), pre)
                    refuse_overflow(hidden, dtype, "the hidden activations",
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
    refuse_overflow(out, dtype, "the output")
    return out


def _workspace(p: Plan, dtype: np.dtype) -> dict[str, np.ndarray]:
    """Flat buffers reused by every chunk (a shorter last chunk uses a prefix, still contiguous)."""
    c, n, d, r = p.units, p.tokens, p.d, p.r
    if p.route is Route.FACTOR:
        return {"Qf": np.empty(d * c * r, dtype), "Kf": np.empty(d * c * r, dtype),
                "A": np.empty(n * c * r, dtype), "B": np.empty(n * c * r, dtype)}
    return {"M": np.empty(d * c * d, dtype), "P": np.empty(n * c * d, dtype)}


def bilinear_attention(X: Any, Q: Any, K: Any, V: Any, act: Any, *,
                       memory: int | str = DEFAULT_MEMORY, dtype: object = "float64",
                       route: Route | None = None, progress: Progress | None = None,
                       threads: int | None = None) -> np.ndarray:
    """``Σ_j σ(x Q_j K_jᵀ xᵀ) v_j`` for every row x of X.

    ``X`` (N, d) or one row (d,), ``Q``, ``K`` (m, d, r), ``V`` (m, e); ``act`` a catalogue name,
    an expression in z, or an Activation. ``memory`` bounds the working memory in bytes (or
    "256MiB"); ``route`` forces ``Route.FACTOR`` or ``Route.KERNEL`` (default: the cheaper by flops);
    ``progress(label)`` is called once per chunk and row block. ``threads`` share the chunks,
    each with a one-thread BLAS (:mod:`symcheck.numeric.parallel`); by default as many as the BLAS
    would use, 1 to stay on the calling thread.
    """
    kind = as_dtype(dtype)
    X, one = as_rows(X, kind)
    Q, K, V = real_array("Q", Q, 3, kind), real_array("K", K, 3, kind), real_array("V", V, 2, kind)
    N, d = X.shape
    m, _, r = Q.shape
    if K.shape != Q.shape:
        raise NumericError(f"K has shape {K.shape}; expected {Q.shape} like Q", name="K")
    agree("d (axis 1)", d, Q.shape[1], "Q")
    agree("m (axis 0)", m, V.shape[0], "V")
    sigma, _ = numpy_sigma(act, kind)
    Xd = contiguous(X, kind)
    cast = Q.dtype != kind or K.dtype != kind or not (Q.flags.c_contiguous and K.flags.c_contiguous)
    extra = 0 if Xd is X else Xd.nbytes
    p = bilinear_plan(N, d, m, V.shape[1], r, memory, kind, cast, extra, route, threads)

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
        np.matmul(contiguous(Q[u0:u1], kind), contiguous(K[u0:u1], kind).transpose(0, 2, 1),
                  out=M.transpose(1, 0, 2))
        flat = M.reshape(d, c * d)

        def rows(t0: int, t1: int) -> np.ndarray:
            n = t1 - t0
            P = np.matmul(Xd[t0:t1], flat, out=work["P"][: n * c * d].reshape(n, c * d))
            # row n: (x M_j)·x for every j of the chunk, one (c × d)·(d) product per row
            return np.matmul(P.reshape(n, c, d), Xd[t0:t1, :, None])[:, :, 0]
        return rows

    route_of = factor if p.route is Route.FACTOR else kernel
    out = _accumulate(p, Xd, V, kind, lambda: functools.partial(route_of, _workspace(p, kind)),
                      sigma, progress)
    return out[0] if one else out


def rank_r(X: Any, Q: Any, K: Any, V: Any, act: Any, **options: Any) -> np.ndarray:
    """The rank-r family ``Σ_j σ(Σ_s (x·q_js)(x·k_js)) v_j``: bilinear attention by the factor route."""
    return bilinear_attention(X, Q, K, V, act, route=Route.FACTOR, **options)


def _two_factor(route: Route, X: Any, Q: Any, K: Any, V: Any, act: Any, memory: int | str,
                dtype: object, progress: Progress | None,
                to_input: Callable[[Any], np.ndarray],
                finish: Callable[[np.ndarray, Any], np.ndarray] | None) -> np.ndarray:
    kind = as_dtype(dtype)
    X, one = as_rows(X, kind)
    Q, K, V = real_array("Q", Q, 2, kind), real_array("K", K, 2, kind), real_array("V", V, 2, kind)
    N, d = X.shape
    if K.shape != Q.shape:
        raise NumericError(f"K has shape {K.shape}; expected {Q.shape} like Q", name="K")
    agree("d (axis 1)", d, Q.shape[1], "Q")
    agree("m (axis 0)", Q.shape[0], V.shape[0], "V")
    sigma, _ = numpy_sigma(act, kind)
    Xd = contiguous(X, kind)
    cast = Q.dtype != kind or K.dtype != kind
    p = plan(route, N, d, Q.shape[0], V.shape[1], memory=memory, dtype=kind, cast_factors=cast,
             extra=0 if Xd is X else Xd.nbytes)

    def chunk(u0: int, u1: int):
        Qc, Kc = contiguous(Q[u0:u1], kind), contiguous(K[u0:u1], kind)
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
    return _two_factor(Route.RANK1, X, Q, K, V, act, memory, dtype, progress, _product, None)


def gated(X: Any, Q: Any, K: Any, V: Any, act: Any, *, memory: int | str = DEFAULT_MEMORY,
          dtype: object = "float64", progress: Progress | None = None) -> np.ndarray:
    """The gated MLP ``(σ(xQᵀ)⊙(xKᵀ))V`` (GLU family): σ on the gate/query factor only."""
    return _two_factor(Route.GATED, X, Q, K, V, act, memory, dtype, progress, _gate, _times_b)


def mlp(X: Any, K: Any, V: Any, act: Any, *, memory: int | str = DEFAULT_MEMORY,
        dtype: object = "float64", progress: Progress | None = None, _extra: int = 0) -> np.ndarray:
    """The standard MLP ``σ(xKᵀ)V`` = ``σ(x W1ᵀ) W2`` (keys ``K = W1``, values ``V = W2``)."""
    kind = as_dtype(dtype)
    X, one = as_rows(X, kind)
    K, V = real_array("K", K, 2, kind), real_array("V", V, 2, kind)
    N, d = X.shape
    agree("d (axis 1)", d, K.shape[1], "K")
    agree("m (axis 0)", K.shape[0], V.shape[0], "V")
    sigma, _ = numpy_sigma(act, kind)
    Xd = contiguous(X, kind)
    p = plan(Route.MLP, N, d, K.shape[0], V.shape[1], memory=memory, dtype=kind,
             cast_factors=K.dtype != kind, extra=_extra + (0 if Xd is X else Xd.nbytes))

    def chunk(u0: int, u1: int):
        Kc = contiguous(K[u0:u1], kind)
        return lambda t0, t1: Xd[t0:t1] @ Kc.T

    out = _accumulate(p, Xd, V, kind, lambda: chunk, sigma, progress)
    return out[0] if one else out


def query_mlp(X: Any, Q_g: Any, K: Any, V: Any, act: Any, *, memory: int | str = DEFAULT_MEMORY,
              dtype: object = "float64", progress: Progress | None = None) -> np.ndarray:
    """The MLP with one global query ``σ((x Q_g) Kᵀ) V``, ``Q_g`` (d, d), evaluated as written:
    ``x Q_g`` first (it is not absorbed into the keys here; that is what ``absorb`` compares)."""
    kind = as_dtype(dtype)
    X, one = as_rows(X, kind)
    Q_g = real_array("Q_g", Q_g, 2, kind)
    d = X.shape[1]
    if Q_g.shape != (d, d):
        raise NumericError(f"Q_g has shape {Q_g.shape}; expected ({d}, {d})", name="Q_g")
    with np.errstate(over="ignore", invalid="ignore"):
        XG = contiguous(X, kind) @ contiguous(Q_g, kind)     # counted below as fixed working memory
    refuse_overflow(XG, kind, "x·Q_g")
    out = mlp(XG, K, V, act, memory=memory, dtype=kind, progress=progress, _extra=XG.nbytes)
    return out[0] if one else out


def evaluate(form: str, X: Any, act: Any = None, **arrays_and_options: Any) -> np.ndarray:
    """Any formulation of docs/theory.md §1 by name, parameters by their names there:
    ``evaluate("swiglu", X, Q=…, K=…, V=…)``, ``evaluate("mlp", X, "relu", K=…, V=…)``,
    ``evaluate("bilinear", X, "gelu", Q=…, K=…, V=…)`` with per-unit factors (m, d, r)."""
    from symcheck.language.layer_formulations import formulation
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
    functions: dict[str, Callable[..., np.ndarray]] = {
        "mlp": mlp, "query-mlp": query_mlp, "bilinear": bilinear_attention, "rank-r": rank_r,
        "rank1": rank1, "gated": gated}
    return functions[base](X, *arrays, act, **options)

