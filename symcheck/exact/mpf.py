"""mpmath's raw numbers and intervals, typed: the part of ``mpmath.libmp`` the second opinion uses.

mpmath ships no type information, so every one of its functions returns ``Any`` to mypy. At run
time this module only re-exports mpmath's own functions (no wrapper, no cost); for the type
checker it declares their signatures, taken from mpmath's source (``libmpf.py``, ``libmpi.py``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = [
    "MPF", "Interval", "fone", "fzero", "round_ceiling", "round_floor",
    "from_int", "from_man_exp", "from_rational", "to_float", "to_int",
    "mpf_abs", "mpf_add", "mpf_gt", "mpf_lt", "mpf_neg", "mpf_shift", "mpf_sign", "mpf_sub",
    "mpi_abs", "mpi_add", "mpi_cos_sin", "mpi_div", "mpi_exp", "mpi_gamma", "mpi_log",
    "mpi_loggamma", "mpi_mul", "mpi_neg", "mpi_pi", "mpi_pow_int", "mpi_sqrt", "mpi_square",
    "mpi_sub",
]

# a raw mpf: (sign, mantissa, exponent, bit count) = (-1)**sign · mantissa · 2**exponent
# (the mantissa is gmpy's mpz instead of int when mpmath runs on gmpy; it behaves as an int)
MPF = tuple[int, int, int, int]
Interval = tuple[MPF, MPF]  # outward-rounded [lower, upper]

if TYPE_CHECKING:
    # a rounding mode is one of mpmath's one-letter strings ('f' floor, 'c' ceiling, ...)
    fone: MPF
    fzero: MPF
    round_ceiling: str
    round_floor: str

    def from_int(n: int, prec: int = ..., rnd: str = ...) -> MPF: ...
    def from_man_exp(man: int, exp: int, prec: int | None = ..., rnd: str = ...) -> MPF: ...
    def from_rational(p: int, q: int, prec: int, rnd: str = ...) -> MPF: ...
    def to_float(s: MPF, strict: bool = ..., rnd: str = ...) -> float: ...
    def to_int(s: MPF, rnd: str | None = ...) -> int: ...

    def mpf_abs(s: MPF, prec: int | None = ..., rnd: str = ...) -> MPF: ...
    def mpf_add(s: MPF, t: MPF, prec: int = ..., rnd: str = ..., _sub: int = ...) -> MPF: ...
    def mpf_gt(s: MPF, t: MPF) -> bool: ...
    def mpf_lt(s: MPF, t: MPF) -> bool: ...
    def mpf_neg(s: MPF, prec: int | None = ..., rnd: str = ...) -> MPF: ...
    def mpf_shift(s: MPF, n: int) -> MPF: ...
    def mpf_sign(s: MPF) -> int: ...
    def mpf_sub(s: MPF, t: MPF, prec: int = ..., rnd: str = ...) -> MPF: ...

    def mpi_abs(s: Interval, prec: int = ...) -> Interval: ...
    def mpi_add(s: Interval, t: Interval, prec: int = ...) -> Interval: ...
    def mpi_cos_sin(x: Interval, prec: int) -> tuple[Interval, Interval]: ...
    def mpi_div(s: Interval, t: Interval, prec: int) -> Interval: ...
    def mpi_exp(s: Interval, prec: int) -> Interval: ...
    def mpi_gamma(z: Interval, prec: int, type: int = ...) -> Interval: ...
    def mpi_log(s: Interval, prec: int) -> Interval: ...
    def mpi_loggamma(z: Interval, prec: int) -> Interval: ...
    def mpi_mul(s: Interval, t: Interval, prec: int = ...) -> Interval: ...
    def mpi_neg(s: Interval, prec: int = ...) -> Interval: ...
    def mpi_pi(prec: int) -> Interval: ...
    def mpi_pow_int(s: Interval, n: int, prec: int) -> Interval: ...
    def mpi_sqrt(s: Interval, prec: int) -> Interval: ...
    def mpi_square(s: Interval, prec: int = ...) -> Interval: ...
    def mpi_sub(s: Interval, t: Interval, prec: int = ...) -> Interval: ...
else:
    from mpmath.libmp import (
        fone,
        from_int,
        from_man_exp,
        from_rational,
        fzero,
        mpf_abs,
        mpf_add,
        mpf_gt,
        mpf_lt,
        mpf_neg,
        mpf_shift,
        mpf_sign,
        mpf_sub,
        round_ceiling,
        round_floor,
        to_float,
        to_int,
    )
    from mpmath.libmp.libmpi import (
        mpi_abs,
        mpi_add,
        mpi_cos_sin,
        mpi_div,
        mpi_exp,
        mpi_gamma,
        mpi_log,
        mpi_loggamma,
        mpi_mul,
        mpi_neg,
        mpi_pi,
        mpi_pow_int,
        mpi_sqrt,
        mpi_square,
        mpi_sub,
    )
