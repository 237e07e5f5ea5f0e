"""How a layer evaluation is cut to fit a memory budget: the budget's parsing and the plans.

A plan works through the hidden units in chunks whose size follows from the ``memory`` budget
(bytes of working memory on top of the inputs, the output included), so the extra memory
stays within it whatever ``m`` is; chunks are also kept near ``CHUNK_BYTES``, cache-sized,
when the budget is larger. Bilinear attention may share its chunks among threads
(:mod:`symcheck.numeric.parallel`), each planned within an equal share of the budget.

Full bilinear attention ``Σ_j σ(x Q_j K_jᵀ xᵀ) v_j`` has two routes, chosen by flops for a
chunk (every chunk has the same per-unit counts, so one comparison decides them all):

* factor route, ``4·N·d·r`` per unit: ``X·[Q_1 … Q_c]`` and ``X·[K_1 … K_c]`` as two products,
  multiplied elementwise and summed over the rank;
* kernel route, ``2·d²·r + 2·N·d²`` per unit: ``M_j = Q_j K_jᵀ`` materialised (one batched
  product), then ``X·[M_1 … M_c]`` as one product and each row contracted with x.
"""
from __future__ import annotations

import dataclasses
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from symcheck.core.errors import InsufficientMemoryError, NumericError
from symcheck.exact.vectorize import as_dtype
from symcheck.numeric import parallel
from symcheck.numeric.vocabulary import Route

__all__ = ["DEFAULT_MEMORY", "SIGMA_WORKSPACE", "CHUNK_BYTES", "parse_memory", "size_text", "Plan", "Route",
           "plan", "bilinear_plan", "available_memory", "require_memory"]

DEFAULT_MEMORY = 256 * 2**20
#: arrays of σ's input size that evaluating σ may hold at once (temporaries, masks, subsets)
SIGMA_WORKSPACE = 12
#: a chunk's own arrays stay near this size even when the budget allows more: the products then
#: stream from cache and a fresh workspace costs few page faults (at N=512, d=r=256 chunks of
#: ~10 units ran up to 2× faster than chunks filling 256 MiB, and ~5% faster than 32 MiB ones)
CHUNK_BYTES = 16 * 2**20


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


def size_text(n: float) -> str:
    """A byte count as people read it: ``size_text(3 * 2**30)`` is ``'3 GiB'``."""
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{int(n)} B"



#: bytes per unit (independent of tokens) and per (token, unit), in items of the working dtype
_PER_UNIT = {
    Route.FACTOR: lambda d, r, e: 2 * d * r,        # [Q_1 … Q_c] and [K_1 … K_c] side by side
    Route.KERNEL: lambda d, r, e: d * d,            # M_1 … M_c, laid out for one product with X
    Route.RANK1: lambda d, r, e: 0, Route.GATED: lambda d, r, e: 0, Route.MLP: lambda d, r, e: 0,
}
_PER_TOKEN_UNIT = {
    Route.FACTOR: lambda d, r: 2 * r,               # X·[Q_j], X·[K_j]
    Route.KERNEL: lambda d, r: d,                   # X·[M_j]
    Route.RANK1: lambda d, r: 2, Route.GATED: lambda d, r: 2, Route.MLP: lambda d, r: 1,
}
#: the flops each route is counted at, per unit, for N tokens
_FLOPS = {
    Route.FACTOR: lambda N, d, r: 4 * N * d * r,
    Route.KERNEL: lambda N, d, r: 2 * d * d * r + 2 * N * d * d,
    Route.RANK1: lambda N, d, r: 4 * N * d, Route.GATED: lambda N, d, r: 4 * N * d,
    Route.MLP: lambda N, d, r: 2 * N * d,
}


@dataclass(frozen=True)
class Plan:
    """How one evaluation is cut into chunks of ``units`` units and blocks of ``tokens`` rows.

    ``bytes`` is the working memory the plan needs at most (within the budget); ``flops`` is
    what the route is counted at for the whole call (σ and the product with V not included).
    """

    route: Route
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
                f"{self.blocks} block(s) of ≤ {self.tokens} rows{threads}, ≈ {size_text(self.bytes)} of "
                f"{size_text(self.budget)}")


def _need(route: Route, N: int, d: int, e: int, r: int, c: int, n: int, s: int,
          fixed: int, cast_per_unit: int) -> int:
    """Working bytes of a chunk of c units and n rows (the output and fixed arrays included)."""
    per_unit = _PER_UNIT[route](d, r, e) + cast_per_unit
    per_token_unit = _PER_TOKEN_UNIT[route](d, r) + 1 + SIGMA_WORKSPACE
    return fixed + s * (c * per_unit + n * (e + c * per_token_unit))


def plan(route: Route, N: int, d: int, m: int, e: int = 1, r: int = 1, *,
         memory: int | str = DEFAULT_MEMORY, dtype: object = "float64",
         cast_factors: bool = False, extra: int = 0) -> Plan:
    """The largest chunks that fit ``memory``: all rows at once if one unit fits with them,
    else one unit at a time over blocks of rows. ``extra`` is fixed working memory (bytes)
    beyond the output; ``cast_factors`` counts a per-chunk copy of the factors in the working
    dtype. Raises :class:`NumericError` when not even one unit and one row fit."""
    route = Route(route)                           # "factor" reads as the member
    budget = parse_memory(memory)
    s = as_dtype(dtype).itemsize
    fixed = s * N * e + extra                      # the output, accumulated in place
    # a chunk's factors and values cast to the working dtype (the factor route casts while
    # copying them side by side, which its own per-unit memory already counts)
    cast = ({Route.FACTOR: 0, Route.KERNEL: 2 * d * r}.get(route, 2 * d) + e) if cast_factors else 0

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
            raise NumericError(f"the memory budget {size_text(budget)} is too small for the {route} route "
                               f"at these sizes: it needs at least {size_text(least)}")
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


def bilinear_plan(N: int, d: int, m: int, e: int, r: int, memory: int | str, dtype: object,
                    cast: bool, extra: int, route: Route | None, threads: Any = None) -> Plan:
    """The plan of :func:`_cheaper_route`, shared by ``workers`` threads when there are chunks
    enough for them: each plans within an equal share of the budget (its own workspace and
    output), so the whole stays within it. Else, or when a share is too small, one thread."""
    wanted, budget = _workers(threads), parse_memory(memory)
    if wanted > 1:
        try:
            share = _cheaper_route(N, d, m, e, r, budget // wanted, dtype, cast, extra, route)
        except NumericError:
            share = None
        if share is not None and share.chunks >= wanted:
            # as many chunks for every thread: smaller chunks (still within the share) rather
            # than one thread left with the last, odd chunk
            units = -(-m // (-(-share.chunks // wanted) * wanted))
            return dataclasses.replace(share, units=units, workers=wanted, bytes=share.bytes * wanted,
                                       budget=budget)
    return _cheaper_route(N, d, m, e, r, budget, dtype, cast, extra, route)


def _cheaper_route(N: int, d: int, m: int, e: int, r: int, memory: int | str, dtype: object,
                   cast: bool, extra: int, route: Route | None) -> Plan:
    """The cheaper of the factor and kernel routes (by flops) among those that fit."""
    routes = [route] if route else [Route.FACTOR, Route.KERNEL]
    options, errors = [], []
    for name in routes:
        if name not in (Route.FACTOR, Route.KERNEL):  # a string from a caller, or another route
            raise NumericError(f"unknown route '{name}'; expected factor or kernel", name="route")
        try:
            options.append(plan(name, N, d, m, e, r, memory=memory, dtype=dtype,
                                cast_factors=cast, extra=extra))
        except NumericError as err:
            errors.append(err)
    if not options:
        raise errors[-1]
    # per unit the counts do not depend on the chunk, so the per-chunk choice is this one
    return min(options, key=lambda p: (p.flops, p.route is not Route.FACTOR))


# --------------------------------------------------------------------------- what the machine has


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as handle:
            text = handle.read().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None     # cgroup v2 writes "max" for no limit


def _meminfo_available() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def available_memory() -> int | None:
    """Bytes this process may still allocate without swapping: the memory the kernel reports
    available, or less when a cgroup (a container) limits the process; None when unknown."""
    known = [n for n in (_meminfo_available(),) if n is not None]
    for limit, usage in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                         ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                          "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        cap, used = _read_int(limit), _read_int(usage)
        if cap is not None and used is not None and cap < 2**60:   # v1 writes a huge number for none
            known.append(max(cap - used, 0))
    return min(known) if known else None


def require_memory(parts: Sequence[tuple[str, int]], working: int, available: int | None = None,
                   advice: str = "choose smaller sizes") -> int:
    """Refuse, before anything is allocated, a computation whose arrays ``parts`` (name, bytes)
    and working-memory budget ``working`` need more than ``available`` bytes (default: what
    :func:`available_memory` reports; nothing is refused when that is unknown). Returns the total;
    ``advice`` ends the refusal.

    >>> require_memory([("X", 2**20), ("Q", 2**30)], 2**28, available=2**31)
    1343225856
    >>> require_memory([("Q", 2**40)], 2**28, available=2**34)
    Traceback (most recent call last):
    ...
    symcheck.core.errors.InsufficientMemoryError: the check needs ≈ 1 TiB of memory before it starts (Q 1 TiB, and a working-memory budget of 256 MiB on top), but only 16 GiB is available: choose smaller sizes
    """  # noqa: E501 (a doctest's expected message is one line)
    inputs = sum(size for _, size in parts)
    total = inputs + working
    if available is None:
        available = available_memory()
    if available is None or total <= available:
        return total
    shown = ", ".join(f"{name} {size_text(size)}" for name, size in parts if size > 0)
    raise InsufficientMemoryError(
        f"the check needs ≈ {size_text(total)} of memory before it starts ({shown}, and a working-memory "
        f"budget of {size_text(working)} on top), but only {size_text(available)} is available: "
        f"{advice}",
        needed=total, available=available, parts=tuple(parts))
