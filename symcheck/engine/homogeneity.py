"""Which degrees p query-value rescaling (q, v) → (αq, v/α^p), α > 0, could have.

The symmetry holds for a given p iff σ(αz) = α^p·σ(z) for every α > 0 and every real z. A
claim about *every* p needs an argument about every p; this module finds one from σ's values
at a few exact points z and their doubles 2z (α = 2), each value certified non-zero (with its
sign) or exactly zero by :mod:`symcheck.exact.evaluate` on σ's own expression, never by a float:

* **pin**: σ(z₁) and σ(2z₁) certified non-zero of one sign. 2^p = σ(2z₁)/σ(z₁) has exactly one
  solution, so every other p fails at (z₁, α = 2). σ(0) ≠ 0 pins p = 0: σ(0) = α^p·σ(0).
* **opposite signs**: σ(z), σ(2z) certified non-zero of opposite signs; 2^p > 0, so no p works.
* **zero and non-zero**: one of σ(z), σ(2z) exactly 0 and the other certified non-zero; 2^p ≠ 0,
  so no p works.
* **conflict**: a pin at z₁ contradicted at z, σ(2z)·σ(z₁) − σ(2z₁)·σ(z) ≠ 0 certified: the
  pinned p fails at z and every other p at z₁, so no p works. The pinned p need not be known.
* a pin consistent with every sample **names** the one candidate p; only a proof of the
  statement for that p (:func:`symcheck.engine.symmetries.check`) can show that it works.

>>> import symcheck as sc
>>> homogeneity_degree(sc.activation("relu2")).p
2
>>> homogeneity_degree(sc.activation("Piecewise((1, Eq(z, 0)), (0, True))")).p
0
>>> homogeneity_degree(sc.activation("silu")).excludes_every_p
True
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import sympy
from sympy import S

from symcheck.core.errors import EvaluationError, Undecided
from symcheck.core.printing import text
from symcheck.exact.evaluate import certify_nonzero, enclose
from symcheck.exact.signs import exact_sign
from symcheck.language.activations import Activation
from symcheck.language.symbols import Z

#: the points z whose pairs (z, 2z) are sampled; 0 is sampled on its own
GRID: tuple[sympy.Rational, ...] = tuple(sympy.Rational(v) for v in (
    "1", "-1", "1/2", "-1/2", "3", "-3", "1/3", "-1/3", "5/7", "-5/7"))
SCALE = sympy.Integer(2)
# σ's value at a rational point is taken from SymPy's substitution only when σ is built from
# these: then substituting is plain arithmetic. Branches (Piecewise, Max, Abs, sign, …) are
# decided by SymPy with floats, so their values count only when our own arithmetic is exact.
_ARITHMETIC = (sympy.Add, sympy.Mul, sympy.Pow, sympy.Symbol, sympy.Number, sympy.NumberSymbol,
               sympy.exp, sympy.log, sympy.sin, sympy.cos, sympy.tan, sympy.sinh, sympy.cosh,
               sympy.tanh, sympy.asinh, sympy.atan, sympy.erf, sympy.erfc)


@dataclass(frozen=True)
class Sample:
    """σ(z) as far as it is certified: ``sign`` ±1 (non-zero), 0 (exactly zero) or None."""

    z: sympy.Rational
    sign: int | None
    exact: sympy.Rational | None  # the value, when exact rational arithmetic decided it
    certificate: str              # how it was decided, in words

    def __str__(self) -> str:
        return f"σ({text(self.z)}) {self.certificate}"


@dataclass(frozen=True)
class Pin:
    """σ(z) and σ(2z) certified non-zero of one sign (or z = 0 and σ(0) ≠ 0): only one p can work.

    ``p`` is that p when it could be named exactly; ``trusted`` says the name rests on values
    our own arithmetic computed (or on plain arithmetic substitution), so that a refutation of
    ``p`` refutes the pinned degree itself.
    """

    z: sympy.Rational
    p: sympy.Expr | None
    trusted: bool

    def __str__(self) -> str:
        if self.z == 0:
            return "σ(0) ≠ 0 pins p = 0 (σ(0) = α^p·σ(0))"
        named = f" = {text(self.p)}" if self.p is not None else ""
        return f"σ({text(SCALE * self.z)})/σ({text(self.z)}) > 0 pins p{named} (2^p = the ratio)"


@dataclass(frozen=True)
class OppositeSigns:
    """σ(z) and σ(2z) are non-zero with opposite signs: σ(2z) = 2^p·σ(z) fails for every p."""

    z: sympy.Rational

    def __str__(self) -> str:
        return f"σ({text(self.z)}) and σ({text(SCALE * self.z)}) have opposite signs, 2^p > 0"


@dataclass(frozen=True)
class ZeroAndNonzero:
    """One of σ(z), σ(2z) is exactly 0 and the other is not: fails for every p as 2^p ≠ 0."""

    z: sympy.Rational
    zero_at: sympy.Rational

    def __str__(self) -> str:
        other = SCALE * self.z if self.zero_at == self.z else self.z
        return f"σ({text(self.zero_at)}) = 0 but σ({text(other)}) ≠ 0, 2^p ≠ 0"


@dataclass(frozen=True)
class Conflict:
    """The pinned p fails at z: σ(2z)·σ(z₁) ≠ σ(2z₁)·σ(z) (certified); every other p at z₁."""

    pin: Pin
    z: sympy.Rational
    certificate: str

    def __str__(self) -> str:
        z, z1 = self.z, self.pin.z
        return (f"{self.pin}, but σ({text(SCALE * z)})·σ({text(z1)}) − σ({text(SCALE * z1)})·σ({text(z)}) "
                f"{self.certificate}: that p fails at z = {text(z)}")


@dataclass(frozen=True)
class Pinned:
    """One pin, consistent with every certified sample: ``pin.p`` is the only candidate."""

    pin: Pin

    def __str__(self) -> str:
        return f"{self.pin}; every other sample agrees"


@dataclass(frozen=True)
class Vanishing:
    """σ is exactly 0 at every sample: nothing pins p (every p works if σ ≡ 0)."""

    def __str__(self) -> str:
        return "σ is exactly 0 at every sampled point, so no sample pins p"


@dataclass(frozen=True)
class Unsettled:
    """No argument applies: some values could not be certified, or the budget ran out."""

    why: str

    def __str__(self) -> str:
        return self.why


Argument = OppositeSigns | ZeroAndNonzero | Conflict | Pinned | Vanishing | Unsettled


class Excludes(Enum):
    """Which degrees one refutation point rules out."""

    EVERY = "every p"
    ALL_BUT_PINNED = "every p but the pinned one"
    PINNED = "the pinned p"


@dataclass(frozen=True)
class Refutation:
    """At a = z, α = 2 (b = 1) the statement fails for the degrees in ``excludes``.

    ``pin`` is the pin's point when ``excludes`` is PINNED: the conflict is between z and it.
    """

    z: sympy.Rational
    excludes: Excludes
    pin: sympy.Rational | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"a": str(self.z), "alpha": str(SCALE), "excludes": self.excludes.value,
                "pin": None if self.pin is None else str(self.pin)}


@dataclass(frozen=True)
class Degree:
    """The decision: which argument applies, and the certified samples it rests on."""

    argument: Argument
    samples: tuple[Sample, ...] = ()

    @property
    def excludes_every_p(self) -> bool:
        """Certified: no real p works."""
        return isinstance(self.argument, (OppositeSigns, ZeroAndNonzero, Conflict))

    @property
    def pin(self) -> Pin | None:
        return getattr(self.argument, "pin", None)

    @property
    def p(self) -> sympy.Expr | None:
        """The one candidate p, when a consistent pin names it; otherwise None."""
        return self.argument.pin.p if isinstance(self.argument, Pinned) else None

    @property
    def refutations(self) -> tuple[Refutation, ...]:
        arg = self.argument
        if isinstance(arg, (OppositeSigns, ZeroAndNonzero)):
            return (Refutation(arg.z, Excludes.EVERY),)
        if isinstance(arg, Conflict):
            return (Refutation(arg.pin.z, Excludes.ALL_BUT_PINNED),
                    Refutation(arg.z, Excludes.PINNED, arg.pin.z))
        if isinstance(arg, Pinned):
            return (Refutation(arg.pin.z, Excludes.ALL_BUT_PINNED),)
        return ()

    @property
    def kind(self) -> str:
        return {OppositeSigns: "opposite-signs", ZeroAndNonzero: "zero-and-nonzero",
                Conflict: "conflict", Pinned: "pinned", Vanishing: "vanishing",
                Unsettled: "undecided"}[type(self.argument)]

    def __str__(self) -> str:
        return str(self.argument)

    def to_dict(self) -> dict[str, Any]:
        pin = self.pin
        return {"kind": self.kind, "excludes_every_p": self.excludes_every_p, "argument": str(self),
                "p": None if self.p is None else text(self.p),
                "pin": None if pin is None else {"z": str(pin.z), "p": None if pin.p is None else text(pin.p),
                                                 "trusted": pin.trusted},
                "refutations": [r.to_dict() for r in self.refutations],
                "samples": [{"z": str(s.z), "sign": s.sign, "certificate": s.certificate}
                            for s in self.samples]}


def homogeneity_degree(sigma: Activation, extra: Iterable[sympy.Rational] = ()) -> Degree:
    """Decide from certified samples which p can make σ(αz) = α^p·σ(z) (α > 0) hold.

    ``extra`` adds points z (with z/2 and 2z) to :data:`GRID`, e.g. where a check found σ
    non-zero after the grid saw only zeros.
    """
    more = tuple(q for z in extra if (q := sympy.Rational(z)) != 0)
    grid = tuple(dict.fromkeys((*GRID, *more, *(q / SCALE for q in more))))
    points = sorted({S.Zero, *grid, *(SCALE * z for z in grid)}, key=lambda q: (abs(q), q))
    samples = {z: _sample(sigma, z) for z in points}
    known = tuple(samples.values())
    for z in grid:
        first, second = samples[z].sign, samples[SCALE * z].sign
        if first is None or second is None:
            continue
        if first * second == -1:
            return Degree(OppositeSigns(z), known)
        if first * second == 0 and first + second != 0:
            return Degree(ZeroAndNonzero(z, z if first == 0 else SCALE * z), known)
    pins = [z for z in (S.Zero, *grid) if _pins(samples, z)]
    if pins:
        z1 = pins[0]
        for z in (S.Zero, *grid):
            found = _conflict(sigma, samples, z1, z)
            if found is not None:  # the pinned p need not be named: skip SymPy's simplify
                return Degree(Conflict(_pin(sigma, samples, z1, symbolic=False), z, found), known)
        return Degree(Pinned(_pin(sigma, samples, z1)), known)
    if all(s.sign == 0 for s in known):
        return Degree(Vanishing(), known)
    open_points = ", ".join(text(s.z) for s in known if s.sign is None)
    return Degree(Unsettled(f"no sample pins p or excludes every p (σ undecided at {open_points})"
                            if open_points else "no sample pins p or excludes every p"), known)


def _sample(sigma: Activation, z: sympy.Rational) -> Sample:
    certificate = certify_nonzero(sigma.expr, {Z: z})
    if certificate is not None:
        how = (f"= {text(certificate.value)} exactly" if certificate.exact else
               f"∈ [{certificate.lower}, {certificate.upper}] ({certificate.prec}-bit interval)")
        return Sample(z, certificate.sign, certificate.value if certificate.exact else None, how)
    if _exactly_zero(sigma.expr, {Z: z}):
        return Sample(z, 0, S.Zero, "= 0 exactly")
    return Sample(z, None, None, "not decided")


def certified_sign(expr: sympy.Expr, point: dict[sympy.Symbol, sympy.Rational]) -> int | None:
    """±1 when certified non-zero, 0 when certified exactly zero, None when undecided."""
    certificate = certify_nonzero(expr, point)
    if certificate is not None:
        return certificate.sign
    return 0 if _exactly_zero(expr, point) else None


def _exactly_zero(expr: sympy.Expr, point: dict[sympy.Symbol, sympy.Rational]) -> bool:
    """An enclosure that is the single point 0 contains the value, so the value is 0."""
    try:
        interval = enclose(expr, point, 64)
    except EvaluationError:
        return False
    return bool(interval.a == 0 and interval.b == 0)


def _pins(samples: dict[sympy.Rational, Sample], z: sympy.Rational) -> bool:
    if z == 0:
        return samples[z].sign in (1, -1)
    return samples[z].sign in (1, -1) and samples[z].sign == samples[SCALE * z].sign


def _conflict(sigma: Activation, samples: dict[sympy.Rational, Sample],
              z1: sympy.Rational, z: sympy.Rational) -> str | None:
    """Certify σ(2z)·σ(z₁) − σ(2z₁)·σ(z) ≠ 0: the degree pinned at z₁ fails at z."""
    if z == z1 or (samples[z].sign == 0 and samples[SCALE * z].sign == 0):
        return None
    u = sympy.symbols("u1:5", real=True)
    cross = sigma(u[0]) * sigma(u[1]) - sigma(u[2]) * sigma(u[3])
    certificate = certify_nonzero(cross, dict(zip(u, (SCALE * z, z1, SCALE * z1, z), strict=True)))
    if certificate is None:
        return None
    return (f"= {text(certificate.value)}" if certificate.exact else
            f"∈ [{certificate.lower}, {certificate.upper}]")


def _pin(sigma: Activation, samples: dict[sympy.Rational, Sample], z1: sympy.Rational,
         symbolic: bool = True) -> Pin:
    """Name the pinned p exactly where that can be done soundly."""
    if z1 == 0:
        return Pin(z1, S.Zero, True)
    low, high = samples[z1].exact, samples[SCALE * z1].exact
    if low is not None and high is not None:
        return Pin(z1, _log2_rational(high / low), True)
    if not symbolic:
        return Pin(z1, None, False)
    # σ(2z₁) and σ(z₁) are certified non-zero of one sign: p = log(ratio)/log 2 is exactly the
    # pinned degree. SymPy's simplify only proposes a shorter name for it, kept when
    # 2^p·σ(z₁) = σ(2z₁) is proved by exact algebra (never SymPy's sign of a number)
    low, high = sigma(z1), sigma(SCALE * z1)
    exact = sympy.log(high / low) / sympy.log(SCALE)
    try:
        proposed = sympy.simplify(exact)
    except Exception:  # a failed proposal names nothing
        return Pin(z1, None, False)
    if proposed == exact:
        p = exact  # the pinned degree as it is defined
    elif isinstance(proposed, sympy.Expr) and proposed.is_number and \
            _proved_zero_number(SCALE ** proposed * low - high):
        p = proposed
    else:  # a name that is not proved is not used (it may be SymPy's misreading of a tiny term)
        return Pin(z1, None, False)
    arithmetic = all(isinstance(node, _ARITHMETIC) for node in sympy.preorder_traversal(sigma.expr))
    return Pin(z1, p, arithmetic)


def _proved_zero_number(value: sympy.Expr) -> bool:
    """value = 0 by an exact proof (:func:`~symcheck.exact.signs.exact_sign`)."""
    try:
        return exact_sign(value) == 0
    except (Undecided, EvaluationError, TypeError, ValueError, RecursionError):
        return False


def _log2_rational(ratio: sympy.Rational) -> sympy.Expr:
    """The exact p with 2^p = ratio > 0: an integer for powers of 2, else log(ratio)/log(2)."""
    n, d = int(ratio.p), int(ratio.q)
    if d == 1 and n & (n - 1) == 0:
        return sympy.Integer(n.bit_length() - 1)
    if n == 1 and d & (d - 1) == 0:
        return -sympy.Integer(d.bit_length() - 1)
    return sympy.log(ratio) / sympy.log(SCALE)
