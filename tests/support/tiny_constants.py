"""Closed-form real constants whose sign SymPy's low-precision evaluation gets wrong (issue 26).

Each constant is a cancellation at a tiny x = e^-k, 10^-k or 2^-k:

=========  ==================================  ================
family     f(x)                                 f(x) for small x
=========  ==================================  ================
``log3``   log(1 + x) − x + x²/2                +x³/3
``logq``   log(1 + x) − log(1 + 2x)             −x
``exp2``   e^x − 1 − x                          +x²/2
``sqrt2``  √(1 + x) − 1 − x/2                   −x²/8
=========  ==================================  ================

optionally negated, or a rational combination of several of them (sums of tiny numbers of
opposite sign, and double cancellations such as (e^x − 1 − x) + 4(√(1+x) − 1 − x/2) ≈ 5x³/12).

Every constant carries its TRUE sign and the decimal exponent of its magnitude, computed here
with mpmath at a precision chosen from the magnitude (2·digits + 50) and confirmed at a second,
higher precision -- never by SymPy. It also carries the text a user would type (for
``symcheck.activation`` / the CLI) and the SymPy expression built with ``sympy.exp/log/sqrt``
as a user would build it in Python.

The strategies at the end draw such constants with a chosen sign for Hypothesis.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import mpmath
import sympy
from hypothesis import strategies as st

__all__ = ["Tiny", "tiny", "combination", "negated", "double_cancellation", "FAMILIES", "BASES", "K_RANGES",
           "tiny_constants", "tiny_of_sign", "single_constants", "combined_constants", "mp_sign", "mp_value",
           "digits_for", "LN10", "P", "D", "P_TEXT", "D_TEXT", "Position", "POSITIONS", "POSITIONS_BY_NAME",
           "Definedness", "DEFINEDNESS", "UNITS", "mp_rational", "residual", "witness_breaks", "witness_digits"]

LN10 = math.log(10)

# --- x -----------------------------------------------------------------------------------

#: base -> (largest k the parser accepts written this way, user text of x, SymPy x, mpmath x,
#: log10(x) for the magnitude)
BASES: dict[str, tuple[int, Callable[[int], str], Callable[[int], sympy.Expr],
                       Callable[[int], mpmath.mpf], Callable[[int], float]]] = {
    # exp(-k): any k (the README's own example is e^-2000)
    "e": (2000, lambda k: f"exp(-{k})", lambda k: sympy.exp(-k),
          lambda k: mpmath.exp(-k), lambda k: -k / LN10),
    # 10**(-k): the parser allows a numeric exponent up to 100
    "10": (100, lambda k: f"10**(-{k})", lambda k: sympy.Integer(10) ** -k,
           lambda k: mpmath.mpf(10) ** -k, lambda k: -float(k)),
    # a decimal literal 1e-k: the parser allows literals down to 1e-300
    "1e": (300, lambda k: f"1e-{k}", lambda k: sympy.Rational(1, 10**k),
           lambda k: mpmath.mpf(10) ** -k, lambda k: -float(k)),
    # 2**(-k): numeric exponent up to 100
    "2": (100, lambda k: f"2**(-{k})", lambda k: sympy.Integer(2) ** -k,
          lambda k: mpmath.mpf(2) ** -k, lambda k: -k * math.log10(2)),
}

# --- the families ------------------------------------------------------------------------

#: family -> (user text of f with x written X, SymPy f(x), mpmath f(x), sign of f for small
#: x > 0, order: f(x) ≈ coefficient·x^order)
FAMILIES: dict[str, tuple[str, Callable[[sympy.Expr], sympy.Expr], Callable[[mpmath.mpf], mpmath.mpf], int, int]] = {
    "log3": ("log(1 + X) - X + X**2/2",
             lambda x: sympy.log(1 + x) - x + x**2 / 2,
             lambda x: mpmath.log(1 + x) - x + x**2 / 2, 1, 3),
    "logq": ("log(1 + X) - log(1 + 2*X)",
             lambda x: sympy.log(1 + x) - sympy.log(1 + 2 * x),
             lambda x: mpmath.log(1 + x) - mpmath.log(1 + 2 * x), -1, 1),
    "exp2": ("exp(X) - 1 - X",
             lambda x: sympy.exp(x) - 1 - x,
             lambda x: mpmath.exp(x) - 1 - x, 1, 2),
    "sqrt2": ("sqrt(1 + X) - 1 - X/2",
              lambda x: sympy.sqrt(1 + x) - 1 - x / 2,
              lambda x: mpmath.sqrt(1 + x) - 1 - x / 2, -1, 2),
}


# --- mpmath at high precision ------------------------------------------------------------

def digits_for(log10_magnitude: float) -> int:
    """The precision (decimal digits) used for a number of about 10^log10_magnitude whose terms
    are of size about 1: 2·digits + 50, as the brief asks."""
    return int(2 * max(0.0, -log10_magnitude)) + 50


def mp_value(compute: Callable[[], mpmath.mpf], dps: int) -> mpmath.mpf:
    with mpmath.workdps(dps):
        return +compute()


def mp_sign(compute: Callable[[], mpmath.mpf], dps: int) -> int:
    """The sign of compute() from two evaluations (dps and 1.5·dps + 40) that must agree in sign
    and to 10 relative digits; AssertionError when they do not (the test is then wrong)."""
    low = mp_value(compute, dps)
    high = mp_value(compute, int(1.5 * dps) + 40)
    with mpmath.workdps(int(1.5 * dps) + 40):
        if high == 0:
            assert low == 0 or abs(low) < mpmath.mpf(10) ** (-dps // 2), (low, high)
            raise AssertionError(f"no sign at {dps} and {int(1.5 * dps) + 40} digits: {low}, {high}")
        assert low != 0 and (low > 0) == (high > 0), f"precisions disagree: {low} vs {high}"
        assert abs(low - high) <= abs(high) * mpmath.mpf(10) ** -10, f"precisions disagree: {low} vs {high}"
        return 1 if high > 0 else -1


# --- one constant -------------------------------------------------------------------------

@dataclass(frozen=True)
class Tiny:
    """A tiny closed-form constant: its text, its SymPy expression, its true sign and size.

    ``text`` is bracketed, so it can be pasted into any position of an expression.
    ``mp(dps)`` evaluates it with mpmath alone (the expression is never handed to SymPy's
    evalf). ``sign`` and ``log10`` (≈ log10 |c|) come from mpmath at ``dps`` digits, confirmed
    at a second, higher precision.
    """

    text: str
    expr: sympy.Expr
    compute: Callable[[], mpmath.mpf] = field(repr=False, compare=False)
    estimate: float = field(repr=False, compare=False)  # log10 |c| predicted from the series
    label: str = ""

    @property
    def dps(self) -> int:
        return digits_for(self.estimate)

    @cached_property
    def sign(self) -> int:
        return mp_sign(self.compute, self.dps)

    @cached_property
    def log10(self) -> float:
        with mpmath.workdps(self.dps):
            return float(mpmath.log10(abs(self.compute())))

    def mp(self, dps: int | None = None) -> mpmath.mpf:
        return mp_value(self.compute, dps or self.dps)

    def __str__(self) -> str:
        return f"{self.label or self.text} (sign {self.sign:+d}, about 1e{self.log10:.0f})"


def tiny(family: str, base: str, k: int, negate: bool = False) -> Tiny:
    """f(x) of one family at x = base^-k (negated on request)."""
    pattern, sym_f, mp_f, _, order = FAMILIES[family]
    limit, x_text, x_sym, x_mp, x_log10 = BASES[base]
    if not 1 <= k <= limit:
        raise ValueError(f"k = {k} outside 1..{limit} for base {base}")
    x = x_text(k)
    body = pattern.replace("X", x if x.startswith("exp") or base == "1e" else f"({x})")
    value = sym_f(x_sym(k))
    compute = (lambda: -mp_f(x_mp(k))) if negate else (lambda: mp_f(x_mp(k)))
    text = f"(-({body}))" if negate else f"({body})"
    label = f"{'-' if negate else ''}{family}({base}^-{k})"
    return Tiny(text, -value if negate else value, compute, order * x_log10(k), label)


def negated(c: Tiny) -> Tiny:
    return Tiny(f"(-{c.text})", -c.expr, lambda: -c.compute(), c.estimate, f"-{c.label}")


def combination(terms: list[tuple[Fraction, Tiny]]) -> Tiny:
    """Σ q_i·c_i for rational q_i: sums of tiny numbers of opposite sign, or double cancellations."""
    text = " + ".join(f"({q.numerator}/{q.denominator})*{c.text}" if q.denominator != 1 else
                      f"({q.numerator})*{c.text}" for q, c in terms)
    expr = sympy.Add(*(sympy.Rational(q.numerator, q.denominator) * c.expr for q, c in terms))

    def compute() -> mpmath.mpf:
        return mpmath.fsum(mpmath.mpf(q.numerator) / q.denominator * c.compute() for q, c in terms)

    # a double cancellation can go below every term: ask for twice the smallest term's digits
    estimate = 2 * min(c.estimate for _, c in terms)
    label = " + ".join(f"{q}·{c.label}" for q, c in terms)
    return Tiny(f"({text})", expr, compute, estimate, label)


def double_cancellation(base: str, k: int) -> Tiny:
    """(e^x − 1 − x) + 4(√(1+x) − 1 − x/2) ≈ 5x³/12 > 0: both x² terms cancel too."""
    return combination([(Fraction(1), tiny("exp2", base, k)), (Fraction(4), tiny("sqrt2", base, k))])


# --- Hypothesis strategies -----------------------------------------------------------------

#: k ranges per base: large enough that SymPy's default evaluation loses the number, small
#: enough that Arb at 8192 bits can still certify it (a fixed engine may be decisive)
K_RANGES = {"e": (20, 2000), "10": (10, 100), "1e": (10, 300), "2": (40, 100)}


@st.composite
def single_constants(draw, max_digits: int = 2400) -> Tiny:
    family = draw(st.sampled_from(sorted(FAMILIES)))
    base = draw(st.sampled_from(sorted(BASES)))
    low, high = K_RANGES[base]
    order = FAMILIES[family][4]
    _, _, _, _, x_log10 = BASES[base]
    # keep |c| above 10^-max_digits: mpmath stays fast and a certificate stays possible
    high = max(low, min(high, int(max_digits / (order * -x_log10(1)))))
    k = draw(st.integers(low, high))
    return tiny(family, base, k, negate=draw(st.booleans()))


@st.composite
def combined_constants(draw, max_digits: int = 1200) -> Tiny:
    kind = draw(st.sampled_from(["double", "opposite"]))
    base = draw(st.sampled_from(["e", "10", "2"]))
    low, high = K_RANGES[base]
    _, _, _, _, x_log10 = BASES[base]
    if kind == "double":
        high = max(low, min(high, int(max_digits / (3 * -x_log10(1)))))
        c = double_cancellation(base, draw(st.integers(low, high)))
        return negated(c) if draw(st.booleans()) else c
    # a big tiny term and a smaller one of the opposite sign: the sum has the big one's sign
    high = max(low + 1, min(high, int(max_digits / (3 * -x_log10(1)))))
    k1 = draw(st.integers(low, high - 1))
    k2 = draw(st.integers(k1 + 1, high))
    big = tiny(draw(st.sampled_from(sorted(FAMILIES))), base, k1)
    small = tiny(draw(st.sampled_from(sorted(FAMILIES))), base, k2)
    if FAMILIES[big.label.split("(")[0]][3] == FAMILIES[small.label.split("(")[0]][3]:
        small = negated(small)
    q = Fraction(draw(st.integers(1, 9)), draw(st.integers(1, 9)))
    return combination([(Fraction(1), big), (q, small)])


def tiny_constants(max_digits: int = 2400) -> st.SearchStrategy[Tiny]:
    """Any tiny constant: one family at one x, or a sum of several."""
    return st.one_of(single_constants(max_digits), combined_constants(min(max_digits, 1200)))


def tiny_of_sign(sign: int, max_digits: int = 2400) -> st.SearchStrategy[Tiny]:
    """A tiny constant whose TRUE sign (by mpmath) is ``sign``."""
    return tiny_constants(max_digits).map(lambda c: c if c.sign == sign else negated(c))


#: the two constants of issue 26, written as there
P_TEXT = "exp(-30) - log(1 + exp(-30)) - exp(-60)/2"
D_TEXT = "log(1 + exp(-30)) - log(1 + 2*exp(-30))"
P = Tiny(f"({P_TEXT})", sympy.exp(-30) - sympy.log(1 + sympy.exp(-30)) - sympy.exp(-60) / 2,
         lambda: mpmath.exp(-30) - mpmath.log(1 + mpmath.exp(-30)) - mpmath.exp(-60) / 2,
         -90 / LN10, "P")
D = Tiny(f"({D_TEXT})", sympy.log(1 + sympy.exp(-30)) - sympy.log(1 + 2 * sympy.exp(-30)),
         lambda: mpmath.log(1 + mpmath.exp(-30)) - mpmath.log(1 + 2 * mpmath.exp(-30)),
         -30 / LN10, "D")


# --- positions: activations with a tiny constant C somewhere, and their TRUE properties ------

def _pw(*pairs):
    """Piecewise at a point, as mpmath decides it: the first (value, condition) pair that holds."""
    for value, condition in pairs:
        if condition:
            return value()
    raise AssertionError("no branch")


@dataclass(frozen=True)
class Position:
    """An activation with the constant C in one position, the true σ, and its true properties.

    ``sigma(z, c)`` is the activation evaluated by mpmath from the construction (the branch
    conditions decided at the working precision, which the caller sets high enough: every
    quantity compared is far above 10^-dps). The three properties, as functions of the sign s
    of c, are what every verdict below is derived from:

    - ``linear(s)``: σ(z) = σ(1)·z for every z (here always σ = z): exchange on the gated unit
      holds iff this is true, since a·σ(b) = b·σ(a) for all a, b iff σ(z) = σ(1)·z;
    - ``homogeneous(s)``: σ(αz) = α·σ(z) for every α > 0 and every z (inverse scaling, α > 0;
      for these σ also at each single α = 2, 1/2: each failure is on an interval or a point
      that scaling by 2 or 1/2 moves off itself);
    - ``odd(s)``: σ(−z) = −σ(z) (inverse scaling, α = −1).

    ``rational_witness`` is False where a counterexample exists only at irrational points
    (a branch on Eq(z, C)): ``broken`` needs a rational witness, so it cannot be right there.
    """

    name: str
    pattern: str
    sigma: Callable[[mpmath.mpf, mpmath.mpf], mpmath.mpf] = field(repr=False, compare=False)
    linear: Callable[[int], bool] = field(repr=False, compare=False)
    homogeneous: Callable[[int], bool] = field(repr=False, compare=False)
    odd: Callable[[int], bool] = field(repr=False, compare=False)
    rational_witness: bool = True
    slow: bool = False  # a cubic condition: root isolation with irrational coefficients

    def text(self, c: Tiny) -> str:
        return self.pattern.replace("C", c.text)

    def truth(self, transformation: str, domain: str | None, sign: int) -> str:
        """'holds' or 'broken' for the gated unit (or a form with the same statement)."""
        if transformation == "exchange":
            ok = self.linear(sign)
        elif domain in ("positive", "2", "1/2"):
            ok = self.homogeneous(sign)
        elif domain == "-1":
            ok = self.odd(sign)
        elif domain in ("negative", "any"):
            ok = self.odd(sign) and self.homogeneous(sign)
        else:
            raise ValueError(domain)
        return "holds" if ok else "broken"


def _always(_s: int) -> bool:
    return True


def _never(_s: int) -> bool:
    return False


POSITIONS: tuple[Position, ...] = (
    # a branch condition linear in z: σ = z + z² on (0, −C] when C < 0, else σ = z
    Position("condition z + C > 0", "Piecewise((z, z <= 0), (z, z + C > 0), (z + z**2, True))",
             lambda z, c: _pw((lambda: z, z <= 0), (lambda: z, z + c > 0), (lambda: z + z**2, True)),
             lambda s: s >= 0, lambda s: s >= 0, lambda s: s >= 0),
    # a cubic condition: its root is a tiny irrational number when C < 0
    Position("condition z**3 + z + C > 0", "Piecewise((z, z < 0), (z, z**3 + z + C > 0), (z + z**2, True))",
             lambda z, c: _pw((lambda: z, z < 0), (lambda: z, z**3 + z + c > 0), (lambda: z + z**2, True)),
             lambda s: s >= 0, lambda s: s >= 0, lambda s: s >= 0, slow=True),
    # a constant condition Eq(C, 0): false, so σ = z
    Position("condition Eq(C, 0)", "Piecewise((z + 1, Eq(C, 0)), (z, True))",
             lambda z, c: _pw((lambda: z + 1, c == 0), (lambda: z, True)),
             _always, _always, _always),
    # a constant condition C > 0: σ = z + z² when C > 0
    Position("condition C > 0", "Piecewise((z + z**2, C > 0), (z, True))",
             lambda z, c: _pw((lambda: z + z**2, c > 0), (lambda: z, True)),
             lambda s: s <= 0, lambda s: s <= 0, lambda s: s <= 0),
    # a point branch Eq(z, C): σ(C) = C² + C ≠ C, everything else z
    Position("condition Eq(z, C)", "Piecewise((z**2 + z, Eq(z, C)), (z, True))",
             lambda z, c: _pw((lambda: z**2 + z, z == c), (lambda: z, True)),
             lambda s: s == 0, lambda s: s == 0, lambda s: s == 0, rational_witness=False),
    # Abs(C) − C is 0 for C ≥ 0 and −2C > 0 for C < 0: a coefficient
    Position("coefficient Abs(C) - C", "z + (Abs(C) - C)*z**2",
             lambda z, c: z + (abs(c) - c) * z**2,
             lambda s: s >= 0, lambda s: s >= 0, lambda s: s >= 0),
    Position("coefficient Abs(C) + C", "z + (Abs(C) + C)*z**2",
             lambda z, c: z + (abs(c) + c) * z**2,
             lambda s: s <= 0, lambda s: s <= 0, lambda s: s <= 0),
    # Abs(C) − C in front of Abs(z): σ = z + k|z| is positively homogeneous, odd only if k = 0
    Position("coefficient of Abs(z)", "z + (Abs(C) - C)*Abs(z)",
             lambda z, c: z + (abs(c) - c) * abs(z),
             lambda s: s >= 0, _always, lambda s: s >= 0),
    # Max(z, z + C) = z + max(0, C), Min(z, z + C) = z + min(0, C)
    Position("offset Max(z, z + C)", "Max(z, z + C)",
             lambda z, c: max(z, z + c), lambda s: s <= 0, lambda s: s <= 0, lambda s: s <= 0),
    Position("offset Min(z, z + C)", "Min(z, z + C)",
             lambda z, c: min(z, z + c), lambda s: s >= 0, lambda s: s >= 0, lambda s: s >= 0),
    # Max(z, z + C·z²) = z + max(0, C)·z²
    Position("coefficient in Max(z, z + C*z**2)", "Max(z, z + C*z**2)",
             lambda z, c: max(z, z + c * z**2), lambda s: s <= 0, lambda s: s <= 0, lambda s: s <= 0),
    # sign(C) and Heaviside(C) (SymPy's Heaviside(0) = 1/2; C is never 0 here)
    Position("sign(C)", "z + (1 - sign(C))*z**2",
             lambda z, c: z + (1 - mpmath.sign(c)) * z**2, lambda s: s > 0, lambda s: s > 0, lambda s: s > 0),
    Position("Heaviside(C)", "z + Heaviside(C)*z**2",
             lambda z, c: z + (1 if c > 0 else 0) * z**2, lambda s: s < 0, lambda s: s < 0, lambda s: s < 0),
    Position("Heaviside(-C)", "z + Heaviside(-C)*z**2",
             lambda z, c: z + (1 if c < 0 else 0) * z**2, lambda s: s > 0, lambda s: s > 0, lambda s: s > 0),
    # C itself as a coefficient: σ = z + C·z² is never linear (C ≠ 0)
    Position("coefficient C", "z + C*z**2",
             lambda z, c: z + c * z**2, lambda s: s == 0, lambda s: s == 0, lambda s: s == 0),
    # C as a cut point: σ = z + z² on (C, 0) when C < 0, else σ = z
    Position("cut point z <= C", "Piecewise((z, z <= C), (z, z >= 0), (z + z**2, True))",
             lambda z, c: _pw((lambda: z, z <= c), (lambda: z, z >= 0), (lambda: z + z**2, True)),
             lambda s: s >= 0, lambda s: s >= 0, lambda s: s >= 0),
    # C as a cut point on the other side: σ = z + z² on (0, C) when C > 0
    Position("cut point z >= C", "Piecewise((z, z >= C), (z, z <= 0), (z + z**2, True))",
             lambda z, c: _pw((lambda: z, z >= c), (lambda: z, z <= 0), (lambda: z + z**2, True)),
             lambda s: s <= 0, lambda s: s <= 0, lambda s: s <= 0),
    # C as an offset inside a ReLU: max(0, z + C) is homogeneous only for C = 0
    Position("offset Max(0, z + C)", "Max(0, z + C)",
             lambda z, c: max(0, z + c), _never, lambda s: s == 0, _never),
    # nodes with no value for every real z when C < 0 (kept as written by the parser): a branch,
    # a Heaviside, an Abs and a Max that change on the tiny interval z² < −C (or z² < C)
    Position("condition z**2 + C > 0", "Piecewise((z, z**2 + C > 0), (z + z**2, True))",
             lambda z, c: _pw((lambda: z, z**2 + c > 0), (lambda: z + z**2, True)),
             lambda s: s > 0, lambda s: s > 0, lambda s: s > 0),
    Position("Heaviside(z**2 + C)", "z + (1 - Heaviside(z**2 + C))*z**2",
             lambda z, c: z + (1 - (1 if z**2 + c > 0 else mpmath.mpf(1) / 2 if z**2 + c == 0 else 0)) * z**2,
             lambda s: s > 0, lambda s: s > 0, lambda s: s > 0),
    # |z² + C| − z² − C is 0 where z² + C ≥ 0: an odd perturbation, times z
    Position("Abs(z**2 + C)", "z + (Abs(z**2 + C) - z**2 - C)*z",
             lambda z, c: z + (abs(z**2 + c) - z**2 - c) * z,
             lambda s: s > 0, lambda s: s > 0, _always),
    # Max(z², C) − z² is C − z² on z² < C (C > 0) and 0 everywhere when C < 0
    Position("Max(z**2, C)", "z + (Max(z**2, C) - z**2)*z",
             lambda z, c: z + (max(z**2, c) - z**2) * z,
             lambda s: s < 0, lambda s: s < 0, _always),
)
POSITIONS_BY_NAME = {p.name: p for p in POSITIONS}


@dataclass(frozen=True)
class Definedness:
    """An expression defined on all of R exactly when C has a given sign, and what fails where.

    ``fails(z, c)`` is True when the expression is undefined at z (decided by mpmath).
    """

    name: str
    pattern: str
    defined: Callable[[int], bool] = field(repr=False, compare=False)
    fails: Callable[[mpmath.mpf, mpmath.mpf], bool] = field(repr=False, compare=False)

    def text(self, c: Tiny) -> str:
        return self.pattern.replace("C", c.text)


DEFINEDNESS: tuple[Definedness, ...] = (
    Definedness("log(z**2 + C)", "log(z**2 + C)", lambda s: s > 0, lambda z, c: z**2 + c <= 0),
    Definedness("sqrt(C + z**2)", "sqrt(C + z**2)", lambda s: s >= 0, lambda z, c: c + z**2 < 0),
    Definedness("log(C*z**2 + 1)", "log(C*z**2 + 1)", lambda s: s >= 0, lambda z, c: c * z**2 + 1 <= 0),
    Definedness("z + sqrt(C - Abs(C))", "z + sqrt(C - Abs(C))", lambda s: s >= 0, lambda z, c: c - abs(c) < 0),
    Definedness("z/(z**2 + C)", "z/(z**2 + C)", lambda s: s > 0, lambda z, c: z**2 + c == 0),
)


# --- the statements, evaluated by mpmath at a witness ---------------------------------------

#: unit forms as mpmath functions of (σ, a, b)
UNITS: dict[str, Callable] = {
    "gated": lambda s, a, b: s(a) * b,
    "rank1": lambda s, a, b: s(a * b),
    "sigma(b)": lambda s, a, b: s(b),
    "a*sigma(b)": lambda s, a, b: a * s(b),
    "sigma(a)*sigma(b)": lambda s, a, b: s(a) * s(b),
    "sigma(a)*b + sigma(b)*a": lambda s, a, b: s(a) * b + s(b) * a,
}


def mp_rational(value) -> mpmath.mpf:
    q = sympy.Rational(value)
    return mpmath.mpf(int(q.p)) / int(q.q)


def residual(position: Position, c: Tiny, unit: str, transformation: str, point: dict,
             dps: int) -> mpmath.mpf:
    """transformed unit − unit at the witness, as in symcheck.language.transformations, by mpmath."""
    with mpmath.workdps(dps):
        cv = c.compute()
        s = lambda z: position.sigma(z, cv)  # noqa: E731
        f = UNITS[unit]
        a, b = mp_rational(point["a"]), mp_rational(point.get("b", 1))
        if transformation == "exchange":
            return f(s, b, a) - f(s, a, b)
        if transformation == "inverse-scaling":
            alpha = mp_rational(point["alpha"])
            return f(s, alpha * a, b / alpha) - f(s, a, b)
        if transformation == "key-value-rescaling":
            beta = mp_rational(point["beta"])
            return f(s, a, beta * b) / beta - f(s, a, b)
        raise ValueError(transformation)


def witness_digits(point: dict) -> int:
    """Decimal digits of the witness's numerators and denominators (its scale)."""
    return max([len(str(abs(sympy.Rational(v).p))) + len(str(sympy.Rational(v).q)) for v in point.values()] or [0])


def witness_breaks(position: Position, c: Tiny, unit: str, transformation: str, point: dict) -> bool:
    """Does the statement really fail at ``point``? mpmath at two precisions must agree that the
    residual is non-zero (a precision far above |C| and the witness's own scale)."""
    dps = c.dps + 4 * witness_digits(point) + 50
    low = residual(position, c, unit, transformation, point, dps)
    high = residual(position, c, unit, transformation, point, 2 * dps)
    with mpmath.workdps(2 * dps):
        if high == 0:
            return False
        floor = mpmath.mpf(10) ** (-dps // 2)
        return abs(high) > floor and (low > 0) == (high > 0)
