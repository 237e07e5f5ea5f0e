"""Cases written outside the repository (issue 20, "Done when"): does symcheck decide them right?

A corpus of activations a researcher would write — parameter families, bounded expressions whose
definedness on R takes an argument, the functions acos … LambertW composed so that they are
defined (or not), symmetry groups beyond the catalogue's patterns, Python callables — each with
its TRUE answer. The truth is established outside symcheck: by the mathematics stated beside
each case, re-checked here with mpmath at 40 digits (SymPy only builds the formula that mpmath
evaluates; nothing of symcheck runs in that check). Then symcheck's API decides each case under
a per-case time limit, and the answer is classified:

  right        the verdict (or the group's answers) is the truth
  wrong        a verdict contradicts the truth, a witness does not break the statement, an
               undefined σ is accepted, or a group answers True/False against the truth
  inconclusive undecided (or a group left partial), nothing false said
  refused      a σ that is defined everywhere is refused (parse or definedness error)
  crash        anything else raised, or the hard time limit was hit

    python scripts/outside_cases.py            # the table and the percentages
    python scripts/outside_cases.py --json     # one JSON object
    python scripts/outside_cases.py -k group   # only cases whose name or kind contains 'group'

Cases marked ``source="issue"`` are the examples of the issue's "Why" list; they are reported on
their own line and are not part of the outside measurement.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import mpmath
import sympy

mpmath.mp.dps = 40
#: symcheck's own budget per check or group (seconds); the hard limit kills a worker that hangs
CASE_TIMEOUT = 15.0
HARD_LIMIT = 90.0
#: a numeric residual this small counts as 0 in the truth re-check, this large as non-zero
TINY, CLEAR = mpmath.mpf("1e-25"), mpmath.mpf("1e-20")
Z_GRID = ("0", "0.3", "-0.3", "1", "-1", "2.5", "-2.5", "7", "-7", "0.71", "-1.9", "13.5")

OUTCOMES = ("right", "wrong", "inconclusive", "refused", "crash")


@dataclass(frozen=True)
class Case:
    """One question with its true answer.

    ``check`` is ``exchange``, ``scaling`` (gated unit; ``alpha`` the domain) or ``group``.
    ``truth`` for a check is ``holds``, ``broken`` or ``undefined`` (σ is not defined on all of R,
    for some declared parameter value): then ``bad`` is a point ``{"z": …, <param>: …}`` where
    it fails. For a group, ``probes`` are (a, c, member?) and the truth is that every answer of
    ``contains`` matches and the group is complete.
    """

    name: str
    kind: str
    act: str | Callable
    check: str
    truth: str = ""
    why: str = ""
    alpha: str | int = "positive"
    params: dict[str, str] | None = None
    samples: dict[str, tuple[str, ...]] = field(default_factory=dict)
    bad: dict[str, str | Callable[[], Any]] | None = None
    probes: tuple[tuple[Any, Any, bool], ...] = ()
    source: str = "outside"


def _pw(body: str, cond: str = "Ne(z, 0)", other: str = "0") -> str:
    return f"Piecewise(({body}, {cond}), ({other}, True))"


E_PI, E_2PI = "exp(pi)", "exp(2*pi)"

CASES: tuple[Case, ...] = (
    # ---- parameter families -----------------------------------------------------------------
    Case("mish-beta exchange", "family", "z*tanh(log(1 + exp(beta*z)))", "exchange", "broken",
         "σ(z)/z = tanh(softplus(βz)) is strictly increasing in z for β > 0: not linear",
         params={"beta": "beta>0"}, samples={"beta": ("0.5", "1", "3")}),
    Case("mish-beta scaling", "family", "z*tanh(log(1 + exp(beta*z)))", "scaling", "broken",
         "σ(2)/2 = tanh(softplus(2β)) > tanh(softplus(β)) = σ(1): not homogeneous",
         params={"beta": "beta>0"}, samples={"beta": ("0.5", "2")}),
    Case("mish-beta at 0 exchange", "family", "z*tanh(log(1 + exp(beta*z)))", "exchange", "broken",
         "β = 0 gives z·tanh(log 2), linear, but every β > 0 breaks it",
         params={"beta": "beta>=0"}, samples={"beta": ("0", "1")}),
    Case("z*erf(a*z) odd", "family", "z*erf(a*z)", "scaling", "broken",
         "z·erf(az) is even and non-zero for a ≠ 0: σ(−z) = σ(z) ≠ −σ(z)",
         alpha=-1, params={"a": "a>0"}, samples={"a": ("0.5", "2")}),
    Case("z*erf(a*z) exchange, a real", "family", "z*erf(a*z)", "exchange", "broken",
         "a = 0 gives σ = 0 (linear); a = 1 gives z·erf(z), not linear",
         params={"a": "a"}, samples={"a": ("0", "1", "-2")}),
    Case("squareplus-b scaling", "family", "(z + sqrt(z**2 + b))/2", "scaling", "broken",
         "σ(0) = √b/2 ≠ 0 for b > 0, and a positively homogeneous σ has σ(0) = 0",
         params={"b": "b>0"}, samples={"b": ("1", "4")}),
    Case("squareplus-b>=0 scaling", "family", "(z + sqrt(z**2 + b))/2", "scaling", "broken",
         "b = 0 is relu (holds) but every b > 0 breaks it (σ(0) ≠ 0)",
         params={"b": "b>=0"}, samples={"b": ("0", "1")}),
    Case("squareplus-b² scaling", "family", "(z + sqrt(z**2 + b**2))/2", "scaling", "broken",
         "defined for every real b (z² + b² ≥ 0); σ(0) = |b|/2 ≠ 0 for b ≠ 0",
         params={"b": "b"}, samples={"b": ("0", "1", "-3")}),
    Case("squareplus b real undefined", "family", "(z + sqrt(z**2 + b))/2", "exchange", "undefined",
         "b = −1: z² − 1 < 0 at z = 0", params={"b": "b"}, bad={"z": "0", "b": "-1"}),
    Case("leaky slope in (0,1) scaling", "family", "Max(z, alpha*z)", "scaling", "holds",
         "σ = z on z > 0, αz on z < 0 (0 < α < 1): positively homogeneous of degree 1",
         params={"alpha": "0<alpha<1"}, samples={"alpha": ("0.01", "0.5", "0.99")}),
    Case("leaky slope > 1 scaling", "family", "Max(z, alpha*z)", "scaling", "holds",
         "σ = αz on z > 0, z on z < 0 (α > 1): positively homogeneous",
         params={"alpha": "alpha>1"}, samples={"alpha": ("1.5", "10")}),
    Case("leaky slope odd", "family", "Max(z, alpha*z)", "scaling", "broken",
         "σ(1) = 1, σ(−1) = −α ≠ −1 for α in (0, 1): not odd",
         alpha=-1, params={"alpha": "0<alpha<1"}, samples={"alpha": ("0.5",)}),
    Case("two-slope Max(alpha z, z/alpha)", "family", "Max(alpha*z, z/alpha)", "scaling", "holds",
         "each branch is linear on its half-line: positively homogeneous for every α > 0",
         params={"alpha": "alpha>0"}, samples={"alpha": ("0.5", "1", "3")}),
    Case("alpha relu + k min", "family", "alpha*Max(z, 0) + k*Min(z, 0)", "scaling", "holds",
         "a sum of positively homogeneous functions, for every α and k",
         params={"alpha": "alpha", "k": "k"}, samples={"alpha": ("1", "-2"), "k": ("0", "3")}),
    Case("elu-alpha scaling", "family", "Piecewise((z, z > 0), (alpha*(exp(z) - 1), True))", "scaling",
         "broken", "σ(−2) = α(e⁻² − 1) ≠ 2σ(−1) = 2α(e⁻¹ − 1) for α > 0",
         params={"alpha": "alpha>0"}, samples={"alpha": ("1", "0.3")}),
    Case("selu-like exchange", "family", "lam*Piecewise((z, z > 0), (alpha*(exp(z) - 1), True))",
         "exchange", "broken", "σ(1) = λ but σ(−1) = λα(e⁻¹ − 1) ≠ −λ for α = 1: … for every α > 0 the "
         "negative branch is not linear", params={"lam": "lam>0", "alpha": "alpha>0"},
         samples={"lam": ("1", "2"), "alpha": ("1", "0.5")}),
    Case("snake-a exchange", "family", "z + sin(a*z)**2/a", "exchange", "broken",
         "sin(az)²/a is not linear (bounded, non-zero) for a > 0",
         params={"a": "a>0"}, samples={"a": ("1", "0.5")}),
    Case("snake-a odd", "family", "z + sin(a*z)**2/a", "scaling", "broken",
         "σ(−z) + σ(z) = 2 sin(az)²/a ≠ 0 at z = π/(2a)", alpha=-1,
         params={"a": "a>0"}, samples={"a": ("1", "3")}),
    Case("softplus-beta exchange", "family", "log(1 + exp(beta*z))/beta", "exchange", "broken",
         "σ(0) = log(2)/β ≠ 0: not linear", params={"beta": "beta>0"}, samples={"beta": ("1", "2")}),
    Case("relu power p", "family", "Max(z, 0)**p", "scaling", "broken",
         "σ(2) = 2^p = 2σ(1) only at p = 1; p = 2 breaks it", params={"p": "p>0"},
         samples={"p": ("1", "2", "0.5")}),
    Case("z|z|^p odd", "family", "z*Abs(z)**p", "scaling", "holds",
         "odd for every p ≥ 0: (−z)|−z|^p = −z|z|^p", alpha=-1, params={"p": "p>=0"},
         samples={"p": ("0", "1.5", "3")}),
    Case("|z|^p odd", "family", "Abs(z)**p", "scaling", "broken",
         "even and σ(1) = 1 ≠ 0: σ(−1) = 1 ≠ −1", alpha=-1, params={"p": "p>0"},
         samples={"p": ("1", "2")}),
    Case("sinh(cz)/c odd", "family", "sinh(c*z)/c", "scaling", "holds", "sinh is odd",
         alpha=-1, params={"c": "c>0"}, samples={"c": ("0.5", "2")}),
    Case("tanh(beta z) odd", "family", "tanh(beta*z)", "scaling", "holds",
         "tanh is odd, for every real β", alpha=-1, params={"beta": "beta"},
         samples={"beta": ("0", "1", "-3")}),
    Case("z**3 + beta z exchange", "family", "z**3 + beta*z", "exchange", "broken",
         "the cubic term is never linear", params={"beta": "beta"}, samples={"beta": ("0", "1")}),
    Case("z + (beta-1) z² exchange", "family", "z + (beta - 1)*z**2", "exchange", "broken",
         "linear only at β = 1; β = 2 gives z + z²", params={"beta": "beta"}, samples={"beta": ("1", "2")}),
    Case("beta z exchange", "family", "beta*z", "exchange", "holds",
         "linear for every β", params={"beta": "beta"}, samples={"beta": ("0", "1", "-2.5")}),
    Case("z(cos² + sin²)(beta) exchange", "family", "z*(cos(beta)**2 + sin(beta)**2)", "exchange",
         "holds", "cos²β + sin²β = 1: σ = z for every β", params={"beta": "beta"},
         samples={"beta": ("0", "1", "-2.5")}),
    Case("z exp(-c z²) odd", "family", "z*exp(-c*z**2)", "scaling", "holds",
         "odd for every real c", alpha=-1, params={"c": "c"}, samples={"c": ("0", "1", "-0.5")}),
    Case("sqrt(z² + c) odd", "family", "sqrt(z**2 + c)", "scaling", "broken",
         "even and positive away from z = 0 for c ≥ 0", alpha=-1, params={"c": "c>=0"},
         samples={"c": ("0", "1")}),
    Case("log(c + e^z) exchange", "family", "log(c + exp(z))", "exchange", "broken",
         "c = 0 gives z, every c > 0 gives σ(0) = log(1 + c) ≠ 0", params={"c": "c>=0"},
         samples={"c": ("0", "1")}),
    Case("PReLU alpha>=0 odd", "family", "Piecewise((z, z > 0), (alpha*z, True))", "scaling", "broken",
         "odd only at α = 1; α = 0 is relu", alpha=-1, params={"alpha": "alpha>=0"},
         samples={"alpha": ("0", "1")}),
    Case("log(c + z²) undefined", "family", "log(c + z**2)", "scaling", "undefined",
         "c = 0 gives log(0) at z = 0", alpha=-1, params={"c": "c>=0"}, bad={"z": "0", "c": "0"}),
    # ---- bounded expressions: definedness on R, then one check --------------------------------
    Case("log(3 + sin2z cos z)", "defined", "log(3 + sin(2*z)*cos(z))", "scaling", "broken",
         "|sin·cos| ≤ 1, so the argument ≥ 2; σ(−π/4) ≠ −σ(π/4)", alpha=-1),
    Case("1/(1.6 + tanh + sin/2)", "defined", "1/(1.6 + tanh(z) + sin(z)/2)", "scaling", "broken",
         "1.6 + tanh z + sin(z)/2 > 1.6 − 1 − 0.5 = 0.1; σ(0) = 1/1.6 ≠ 0", alpha=-1),
    Case("1/(3/2 + tanh + sin/2)", "defined", "1/(3/2 + tanh(z) + sin(z)/2)", "scaling", "broken",
         "tanh z > −1 strictly and sin z ≥ −1: the denominator is > 0 (infimum 0, never reached)",
         alpha=-1),
    Case("sqrt(2 + cos 3z)", "defined", "sqrt(2 + cos(3*z))", "scaling", "broken",
         "2 + cos ≥ 1; even and ≥ 1, so not odd", alpha=-1),
    Case("log(1 + z² + sin²)", "defined", "log(1 + z**2 + sin(z)**2)", "exchange", "broken",
         "argument ≥ 1; σ(0) = 0 but σ(1) ≠ σ(2)/2"),
    Case("1/(z² − 2z sin z + 2)", "defined", "1/(z**2 - 2*z*sin(z) + 2)", "exchange", "broken",
         "= 1/((z − sin z)² + 2 − sin² z), denominator ≥ 1; σ(0) = 1/2 ≠ 0"),
    Case("1/(1 + e^z cos²)", "defined", "1/(1 + exp(z)*cos(z)**2)", "exchange", "broken",
         "1 + a non-negative term; σ(0) = 1/2 ≠ 0"),
    Case("log(2 + tanh·cos)", "defined", "log(2 + tanh(z)*cos(z))", "scaling", "broken",
         "argument > 1; u = tanh·cos is odd and σ(−z) = −σ(z) would need (2 − u)(2 + u) = 1, "
         "u² = 3, but |u| < 1", alpha=-1),
    Case("sqrt(1 − tanh²)", "defined", "sqrt(1 - tanh(z)**2)", "scaling", "broken",
         "1 − tanh² = sech² > 0; even and positive", alpha=-1),
    Case("1/(cosh − sin)", "defined", "1/(cosh(z) - sin(z))", "exchange", "broken",
         "cosh z > 1 ≥ sin z for z ≠ 0, and 1 at z = 0; σ(0) = 1 ≠ 0"),
    Case("log(e^z + e^-z − 1)", "defined", "log(exp(z) + exp(-z) - 1)", "scaling", "broken",
         "e^z + e^−z ≥ 2, argument ≥ 1; even, σ(1) > 0", alpha=-1),
    Case("sqrt(z² − 2z + 2)", "defined", "sqrt(z**2 - 2*z + 2)", "exchange", "broken",
         "(z − 1)² + 1 ≥ 1; σ(0) = √2 ≠ 0"),
    Case("atan/(2 + sin)", "defined", "atan(z)/(2 + sin(z))", "exchange", "broken",
         "denominator ≥ 1; bounded, so not linear"),
    Case("1/(2.5 + sin z + sin √2 z)", "defined", "1/(2.5 + sin(z) + sin(sqrt(2)*z))", "exchange",
         "broken", "denominator ≥ 0.5; σ(0) = 0.4 ≠ 0"),
    Case("(1 + sin)/(3 + cos)", "defined", "(1 + sin(z))/(3 + cos(z))", "exchange", "broken",
         "denominator ≥ 2; σ(0) = 1/4 ≠ 0"),
    Case("e^z/(1 + e^z + cos)", "defined", "exp(z)/(1 + exp(z) + cos(z))", "exchange", "broken",
         "e^z > 0 and 1 + cos z ≥ 0: denominator > 0; σ(0) = 1/3 ≠ 0"),
    Case("log(z² − 2z cos z + 1)", "defined", "log(z**2 - 2*z*cos(z) + 1)", "exchange", "broken",
         "= (z − cos z)² + sin² z, zero only if z = kπ = cos(kπ) = ±1, impossible; σ(0) = 0, σ(1) ≠ σ(2)/2"),
    Case("1/(1 + tanh)", "defined", "1/(1 + tanh(z))", "exchange", "broken",
         "tanh z > −1: 1 + tanh z > 0 (= 2/(1 + e^−2z)); σ(0) = 1 ≠ 0"),
    Case("1/(1 + tanh + sin²)", "defined", "1/(1 + tanh(z) + sin(z)**2)", "exchange", "broken",
         "1 + tanh z > 0 and sin² ≥ 0; σ(0) = 1 ≠ 0"),
    Case("sqrt(3 − e^sin)", "defined", "sqrt(3 - exp(sin(z)))", "exchange", "broken",
         "e^sin ≤ e < 3; σ(0) = √2 ≠ 0"),
    Case("1/(z² + 1.01 − cos)", "defined", "1/(z**2 + 1.01 - cos(z))", "exchange", "broken",
         "z² + 1 − cos z ≥ 0, so the denominator ≥ 0.01; σ(0) = 100 ≠ 0"),
    Case("1/(1.4 + sin + cos) undefined", "defined", "1/(1.4 + sin(z) + cos(z))", "exchange",
         "undefined", "sin + cos = √2 sin(z + π/4) reaches −√2 < −1.4: a zero at an irrational point",
         bad={"z": "asin(-7/(5*sqrt(2))) - pi/4"}),
    Case("log(1 + sin) undefined", "defined", "log(1 + sin(z))", "exchange", "undefined",
         "log 0 at z = −π/2", bad={"z": "-pi/2"}),
    Case("sqrt(cos) undefined", "defined", "sqrt(cos(z))", "exchange", "undefined",
         "cos π = −1", bad={"z": "pi"}),
    Case("1/(2 + 3 sin) undefined", "defined", "1/(2 + 3*sin(z))", "exchange", "undefined",
         "sin z = −2/3 somewhere", bad={"z": "asin(-2/3)"}),
    Case("log(tanh + 1/2) undefined", "defined", "log(tanh(z) + 1/2)", "exchange", "undefined",
         "tanh(−1) + 1/2 < 0", bad={"z": "-1"}),
    Case("sqrt(2 − e^sin) undefined", "defined", "sqrt(2 - exp(sin(z)))", "exchange", "undefined",
         "e^sin(π/2) = e > 2", bad={"z": "pi/2"}),
    Case("1/(e^z − 2 − sin) undefined", "defined", "1/(exp(z) - 2 - sin(z))", "exchange", "undefined",
         "continuous, −2 at z → −∞ side (z = −10: ≈ −2.54), +∞ at z → ∞: a root near 1.06",
         bad={"z": lambda: mpmath.findroot(lambda t: mpmath.exp(t) - 2 - mpmath.sin(t), 1)}),
    Case("1/(z − sin) undefined", "defined", "1/(z - sin(z))", "exchange", "undefined",
         "zero at z = 0", bad={"z": "0"}),
    Case("1/(z² + 1 − cos) undefined", "defined", "1/(z**2 + 1 - cos(z))", "exchange", "undefined",
         "zero at z = 0", bad={"z": "0"}),
    # ---- the new functions, composed -------------------------------------------------------------
    Case("asin(tanh) odd", "function", "asin(tanh(z))", "scaling", "holds",
         "|tanh| < 1; asin and tanh are odd", alpha=-1),
    Case("acos(tanh) odd", "function", "acos(tanh(z))", "scaling", "broken",
         "acos(−u) = π − acos u: σ(0) = π/2 ≠ 0", alpha=-1),
    Case("acos(z) undefined", "function", "acos(z)", "exchange", "undefined", "acos(2) is not real",
         bad={"z": "2"}),
    Case("atanh(tanh/2) odd", "function", "atanh(tanh(z)/2)", "scaling", "holds",
         "|tanh/2| < 1/2; odd∘odd", alpha=-1),
    Case("atanh(z/2) undefined", "function", "atanh(z/2)", "exchange", "undefined", "atanh(1) = ∞",
         bad={"z": "2"}),
    Case("atanh(sin/2) odd", "function", "atanh(sin(z)/2)", "scaling", "holds",
         "|sin/2| ≤ 1/2; odd∘odd", alpha=-1),
    Case("acosh(1 + z²) odd", "function", "acosh(1 + z**2)", "scaling", "broken",
         "1 + z² ≥ 1; even and non-zero at 1", alpha=-1),
    Case("acosh(cos) undefined", "function", "acosh(cos(z))", "exchange", "undefined",
         "cos 1 < 1", bad={"z": "1"}),
    Case("acosh(2 + sin) exchange", "function", "acosh(2 + sin(z))", "exchange", "broken",
         "2 + sin ≥ 1; σ(0) = acosh 2 ≠ 0"),
    Case("floor scaling", "function", "floor(z)", "scaling", "broken",
         "floor(2·1/2) = 1 ≠ 2·floor(1/2) = 0"),
    Case("z − frac exchange", "function", "z - frac(z)", "exchange", "broken",
         "= floor(z): floor(1/2) = 0 but floor(1)·1/2 = 1/2"),
    Case("floor + frac = z", "function", "floor(z) + frac(z)", "exchange", "holds",
         "frac(z) = z − floor(z): σ = z"),
    Case("ceiling(z) + floor(−z) = 0", "function", "ceiling(z) + floor(-z)", "exchange", "holds",
         "floor(−z) = −ceiling(z): σ ≡ 0 = σ(1)·z"),
    Case("Mod(z, 3) odd", "function", "Mod(z, 3)", "scaling", "broken",
         "Mod(1, 3) = 1, Mod(−1, 3) = 2 ≠ −1", alpha=-1),
    Case("z + Mod(z,2) − 2 frac(z/2)", "function", "z + Mod(z, 2) - 2*frac(z/2)", "exchange", "holds",
         "Mod(z, 2) = 2·frac(z/2): σ = z"),
    Case("gamma(1 + z²) odd", "function", "gamma(1 + z**2)", "scaling", "broken",
         "1 + z² ≥ 1 > 0; even and positive", alpha=-1),
    Case("gamma(z) undefined", "function", "gamma(z)", "exchange", "undefined", "pole at 0",
         bad={"z": "0"}),
    Case("loggamma(2 + sin) odd", "function", "loggamma(2 + sin(z))", "scaling", "broken",
         "σ(π/2) = loggamma(3) = log 2, σ(−π/2) = loggamma(1) = 0 ≠ −log 2", alpha=-1),
    Case("1/gamma(1 + e^z) exchange", "function", "1/gamma(1 + exp(z))", "exchange", "broken",
         "1 + e^z > 1; σ(0) = 1/Γ(2) = 1 ≠ 0"),
    Case("W(e^z) exchange", "function", "LambertW(exp(z))", "exchange", "broken",
         "e^z > 0 > −1/e; σ(0) = W(1) = Ω ≈ 0.567 ≠ 0"),
    Case("W(z) undefined", "function", "LambertW(z)", "exchange", "undefined",
         "−1 < −1/e: no real principal value", bad={"z": "-1"}),
    Case("W(z²) odd", "function", "LambertW(z**2)", "scaling", "broken",
         "z² ≥ 0 > −1/e; even and W(1) ≠ 0", alpha=-1),
    Case("z W(e^(z²)) odd", "function", "z*LambertW(exp(z**2))", "scaling", "holds",
         "z times an even function: odd", alpha=-1),
    Case("asin(z/(1+|z|)) odd", "function", "asin(z/(1 + Abs(z)))", "scaling", "holds",
         "|z/(1 + |z|)| < 1; odd∘odd", alpha=-1),
    Case("acos(z/sqrt(1+z²)) odd", "function", "acos(z/sqrt(1 + z**2))", "scaling", "broken",
         "|u| < 1; σ(0) = π/2 ≠ 0", alpha=-1),
    Case("gd identity", "function", "z + atan(sinh(z)) - asin(tanh(z))", "exchange", "holds",
         "the Gudermannian: atan(sinh z) = asin(tanh z), so σ = z"),
    Case("2 atanh(tanh(z/2)) = z", "function", "2*atanh(tanh(z/2))", "exchange", "holds",
         "atanh is tanh's inverse on R: σ = z"),
    Case("acosh(cosh) = |z|", "function", "acosh(cosh(z))", "scaling", "holds",
         "acosh(cosh z) = |z|: positively homogeneous"),
    Case("asinh vs log identity", "function", "asinh(z) - log(z + sqrt(z**2 + 1)) + z", "exchange",
         "holds", "asinh z = log(z + √(z² + 1)): σ = z"),
    Case("Max+Min of z and sin", "function", "Max(z, sin(z)) + Min(z, sin(z)) - sin(z)", "exchange",
         "holds", "Max(u, v) + Min(u, v) = u + v: σ = z"),
    Case("sqrt(z²) − |z| + z", "function", "sqrt(z**2) - Abs(z) + z", "exchange", "holds",
         "√(z²) = |z| for real z: σ = z"),
    # ---- symmetry groups ------------------------------------------------------------------------
    Case("log-periodic, phase 1", "group", _pw("z*cos(log(Abs(z)) + 1)"), "group",
         why="σ(az) = cσ(z) ⇔ a·cos(θ + log|a|) = c·cos θ ∀θ ⇔ |a| = e^{kπ}, c = (−1)^k a (σ odd)",
         probes=((1, 1, True), (-1, -1, True), (E_PI, f"-{E_PI}", True), (E_2PI, E_2PI, True),
                 (f"-{E_PI}", E_PI, True), (E_PI, E_PI, False), (2, 2, False), (-1, 1, False))),
    Case("log-periodic base 2, phase", "group", _pw("z*sin(2*pi*log(Abs(z))/log(2) + 1)"), "group",
         why="ω = 2π/log 2: ω·log|a| = kπ ⇔ |a| = 2^{k/2}, c = (−1)^k a",
         probes=((1, 1, True), (2, 2, True), ("sqrt(2)", "-sqrt(2)", True), (-2, -2, True),
                 ("sqrt(2)", "sqrt(2)", False), (3, 3, False), ("1/2", "1/2", True))),
    Case("log-periodic |z|, even", "group", _pw("Abs(z)*cos(log(Abs(z)))"), "group",
         why="even; a·… : |a| = e^{kπ}, c = (−1)^k |a|",
         probes=((1, 1, True), (-1, 1, True), (-1, -1, False), (E_PI, f"-{E_PI}", True),
                 (f"-{E_PI}", f"-{E_PI}", True), (2, 2, False))),
    Case("log-periodic one side", "group", _pw("z*cos(log(z))", "z > 0"), "group",
         why="a > 0: a = e^{kπ}, c = (−1)^k a; a < 0 maps the support onto the zero side: none",
         probes=((1, 1, True), (E_PI, f"-{E_PI}", True), (E_2PI, E_2PI, True), (-1, -1, False),
                 (-1, 1, False), (2, 2, False))),
    Case("log-periodic, σ(0) = 1", "group", _pw("1 + z*cos(log(Abs(z)))", other="1"), "group",
         why="z → 0: σ → 1 forces c = 1, then a·cos(θ + log|a|) = cos θ forces a = 1",
         probes=((1, 1, True), (E_PI, 1, False), (-1, 1, False), (-1, -1, False))),
    Case("exp(z) group", "group", "exp(z)", "group", why="σ(0) = 1 ⇒ c = 1 ⇒ e^{az} = e^z ⇒ a = 1",
         probes=((1, 1, True), (-1, 1, False), (2, 2, False), (2, 1, False))),
    Case("2 + sin group", "group", "2 + sin(z)", "group", why="σ(0) = 2 ⇒ c = 1 ⇒ sin(az) = sin z ⇒ a = 1",
         probes=((1, 1, True), (-1, 1, False), (-1, -1, False))),
    Case("cosh + z² group", "group", "cosh(z) + z**2", "group", why="σ(0) = 1 ⇒ c = 1; even; a² = 1",
         probes=((1, 1, True), (-1, 1, True), (2, 1, False), (-1, -1, False))),
    Case("z + e^(−z²) group", "group", "z + exp(-z**2)", "group", why="σ(0) = 1 ⇒ c = 1 ⇒ a = 1",
         probes=((1, 1, True), (-1, 1, False), (-1, -1, False))),
    Case("sin z + sin 2z group", "group", "sin(z) + sin(2*z)", "group",
         why="odd; s₁ = 3, s₃ = −3/2 ⇒ a² = 1, c = a",
         probes=((1, 1, True), (-1, -1, True), (-1, 1, False), (2, 2, False))),
    Case("cos z + cos(3z)/3 group", "group", "cos(z) + cos(3*z)/3", "group",
         why="even; σ(0) = 4/3 ⇒ c = 1; s₂ ≠ 0, s₄ ≠ 0 ⇒ a² = 1",
         probes=((1, 1, True), (-1, 1, True), (-1, -1, False), (3, 1, False))),
    Case("sin z + sin √2 z group", "group", "sin(z) + sin(sqrt(2)*z)", "group",
         why="odd; s₁, s₃ ≠ 0 ⇒ a² = 1",
         probes=((1, 1, True), (-1, -1, True), ("sqrt(2)", "sqrt(2)", False))),
    Case("sin 2z cos 3z group", "group", "sin(2*z)*cos(3*z)", "group",
         why="= (sin 5z − sin z)/2, odd; s₁ = 2, s₃ ≠ 0 ⇒ a² = 1",
         probes=((1, 1, True), (-1, -1, True), (-1, 1, False))),
    Case("flat e^(−1/z²)", "group", _pw("exp(-1/z**2)"), "group",
         why="every Taylor coefficient is 0; σ → 1 at ∞ forces c = 1, then e^{−1/(a²z²)} = e^{−1/z²} ⇒ a² = 1",
         probes=((1, 1, True), (-1, 1, True), (2, 1, False), (-1, -1, False), (2, 4, False))),
    Case("flat one-sided e^(−1/z)", "group", _pw("exp(-1/z)", "z > 0"), "group",
         why="a < 0 moves the support; a > 0: c = 1 (limit 1 at ∞), then a = 1",
         probes=((1, 1, True), (-1, 1, False), (2, 1, False))),
    Case("flat odd z e^(−1/z²)", "group", _pw("z*exp(-1/z**2)"), "group",
         why="odd; σ(z)/z → 1 at ∞ ⇒ c = a, then a² = 1",
         probes=((1, 1, True), (-1, -1, True), (-1, 1, False), (2, 2, False))),
    Case("Taylor order 7: sin z − z + z³/6", "group", "sin(z) - z + z**3/6", "group",
         why="s₅ = 1/120, s₇ = −1/5040 ⇒ a² = 1; odd",
         probes=((1, 1, True), (-1, -1, True), (-1, 1, False), (2, 32, False))),
    Case("Taylor order 5, 7: z − tanh z − z³/3", "group", "z - tanh(z) - z**3/3", "group",
         why="= −2z⁵/15 + 17z⁷/315 − …: a² = 1; odd",
         probes=((1, 1, True), (-1, -1, True), (-1, 1, False))),
    Case("Taylor order 7, 8: exp tail", "group",
         "exp(z) - 1 - z - z**2/2 - z**3/6 - z**4/24 - z**5/120 - z**6/720", "group",
         why="first coefficients s₇ = 1/7!, s₈ = 1/8! ⇒ a = 1",
         probes=((1, 1, True), (-1, -1, False), (-1, 1, False), (2, 128, False))),
    Case("z + sin(z)^7", "group", "z + sin(z)**7", "group", why="s₁ = 1, s₇ = 1 ⇒ a⁶ = 1; odd",
         probes=((1, 1, True), (-1, -1, True), (-1, 1, False))),
    Case("|z−1| + |z+1| breaks", "group", "Abs(z - 1) + Abs(z + 1)", "group",
         why="even; σ(0) = 2 ⇒ c = 1; the breaks ±1 must be permuted ⇒ |a| = 1",
         probes=((1, 1, True), (-1, 1, True), (2, 1, False), (-1, -1, False))),
    Case("clipped relu breaks 0, 1", "group", "Max(z, 0) - Max(z - 1, 0)", "group",
         why="the breaks {0, 1} must be permuted ⇒ a = 1 (a < 0 maps the flat side onto the ramp)",
         probes=((1, 1, True), (-1, -1, False), (2, 2, False), ("1/2", "1/2", False))),
    Case("relu + Max(z, 1)", "group", "Max(z, 0) + Max(z, 1)", "group",
         why="σ(0) = 1 ⇒ c = 1 ⇒ a = 1", probes=((1, 1, True), (2, 1, False), (-1, 1, False))),
    Case("cube root |z|", "group", "Abs(z)**(1/3)", "group", why="(a, |a|^{1/3}) for every a ≠ 0",
         probes=((1, 1, True), (8, 2, True), (-8, 2, True), (8, 8, False), (-1, -1, False))),
    Case("sign(z) sqrt|z|", "group", "sign(z)*sqrt(Abs(z))", "group", why="(a, sign(a)·√|a|)",
         probes=((4, 2, True), (-4, -2, True), (-4, 2, False), (4, 4, False))),
    Case("z|z|", "group", "z*Abs(z)", "group", why="(a, a|a|)",
         probes=((2, 4, True), (-2, -4, True), (-2, 4, False))),
    # ---- Python callables ----------------------------------------------------------------------
    Case("callable t tanh t", "callable", lambda t: t * sympy.tanh(t), "exchange", "broken",
         "z·tanh z is not linear"),
    Case("callable sympy.tanh odd", "callable", sympy.tanh, "scaling", "holds", "tanh is odd", alpha=-1),
    Case("callable Max(t, t/4)", "callable", lambda t: sympy.Max(t, t / 4), "scaling", "holds",
         "leaky with slope 1/4: positively homogeneous"),
    Case("callable asinh odd", "callable", lambda t: sympy.asinh(t), "scaling", "holds", "asinh is odd",
         alpha=-1),
    Case("callable t erf t odd", "callable", lambda t: t * sympy.erf(t), "scaling", "broken",
         "even and non-zero", alpha=-1),
    # ---- traps: near-misses and identities that look false -------------------------------------
    Case("z + z³/10¹⁵ exchange", "trap", "z + z**3/10**15", "exchange", "broken",
         "differs from linear by less than float64 sees near 1, but not by 0"),
    Case("relu power p ≥ 1", "trap", "Max(z, 0)**p", "scaling", "broken", "p = 2: σ(2) = 4 ≠ 2σ(1)",
         params={"p": "p>=1"}, samples={"p": ("1", "2")}),
    Case("(|z| + z)/2 − relu + z", "trap", "(Abs(z) + z)/2 - Max(z, 0) + z", "exchange", "holds",
         "(|z| + z)/2 = max(z, 0): σ = z"),
    Case("e^z − e^−z − 2 sinh + z", "trap", "exp(z) - exp(-z) - 2*sinh(z) + z", "exchange", "holds",
         "2 sinh z = e^z − e^−z: σ = z"),
    Case("sigmoid − 1/2 odd", "trap", "1/(1 + exp(-z)) - 1/2", "scaling", "holds",
         "= tanh(z/2)/2, odd", alpha=-1),
    Case("swish-beta − z/2 odd", "trap", "z/(1 + exp(-beta*z)) - z/2", "scaling", "broken",
         "= (z/2)·tanh(βz/2): even, non-zero for β ≠ 0", alpha=-1, params={"beta": "beta"},
         samples={"beta": ("0", "1")}),
    Case("atan z + atan(1/z) undefined", "trap", "atan(z) + atan(1/z)", "exchange", "undefined",
         "1/z at z = 0", bad={"z": "0"}),
    Case("atan z + atan(1/z), patched", "trap", _pw("atan(z) + atan(1/z)", other="pi/2"), "exchange",
         "broken", "= sign(z)·π/2 for z ≠ 0 (π/2 at 0): not linear"),
    Case("sqrt(z²) scaling", "trap", "sqrt(z**2)", "scaling", "holds", "√(z²) = |z|"),
    Case("tanh double angle", "trap", "tanh(z) - 2*tanh(z/2)/(1 + tanh(z/2)**2) + z", "exchange", "holds",
         "tanh z = 2t/(1 + t²) with t = tanh(z/2): σ = z"),
    Case("log cosh group", "group", "log(cosh(z))", "group",
         why="even; s₂ = 1/2, s₄ = −1/12 ⇒ a² = 1, c = a² = 1",
         probes=((1, 1, True), (-1, 1, True), (-1, -1, False), (2, 4, False))),
    Case("z³ group", "group", "z**3", "group", why="(a, a³) for every a ≠ 0",
         probes=((2, 8, True), (-2, -8, True), (-2, 8, False), ("1/3", "1/27", True))),
    # ---- the issue's "Why" list (reported apart) -------------------------------------------------
    *(Case(f"why: {text} exchange", "family", text, "exchange", "broken", "not linear for any value "
           "in the range", params=params, samples=samples, source="issue")
      for text, params, samples in (
          ("z/(1+exp(-beta*z))", {"beta": "beta>0"}, {"beta": ("1",)}),
          ("Piecewise((z, z > 0), (alpha*(exp(z) - 1), True))", {"alpha": "alpha>0"}, {"alpha": ("1",)}),
          ("log(1 + exp(beta*z))/beta", {"beta": "beta>0"}, {"beta": ("1",)}),
          ("z + sin(a*z)**2/a", {"a": "a>0"}, {"a": ("1",)}),
          ("(z + sqrt(z**2 + b))/2", {"b": "b>0"}, {"b": ("1",)}),
          ("Max(z, alpha*z)", {"alpha": "0<alpha<1"}, {"alpha": ("0.5",)}),
          ("Max(z, 0)**p", {"p": "p>0"}, {"p": ("1", "2")}))),
    *(Case(f"why: {text}", "defined", text, "exchange", "broken", "bounded away from 0; σ(0) ≠ 0 or bounded",
           source="issue")
      for text in ("1/(2+cos(z))", "sin(z)/(2+cos(z))", "sqrt(2+cos(z))", "log(2+sin(z))",
                   "1/(2+tanh(z))", "1/(3+sin(z)+cos(z))")),
    Case("why: 1/(13/10+sin+cos)", "defined", "1/(13/10 + sin(z) + cos(z))", "exchange", "undefined",
         "13/10 < √2", bad={"z": "asin(-13/(10*sqrt(2))) - pi/4"}, source="issue"),
    *(Case(f"why: {text}", "function", text, "exchange", "broken", "defined; not linear", source="issue")
      for text in ("acos(tanh(z))", "asin(tanh(z))", "atanh(tanh(z)/2)", "acosh(1+z**2)", "floor(z)",
                   "ceiling(z)", "frac(z)", "Mod(z, 2)", "gamma(2+z**2)", "loggamma(1+z**2)",
                   "LambertW(exp(z))")),
)


# ---- the truth, re-checked with mpmath (no symcheck) ------------------------------------------

Z = sympy.Symbol("z")


def _symbols(case: Case) -> dict[str, sympy.Symbol]:
    # plain (assumption-free) symbols: SymPy must not rewrite √(z²) as |z| before mpmath sees it;
    # a declared name shadows SymPy's function of that name (beta, gamma)
    return {"z": Z, **{name: sympy.Symbol(name) for name in case.params or {}}}


def formula(case: Case) -> sympy.Expr:
    """σ as SymPy builds it from the case's own text (or by calling the case's callable)."""
    if callable(case.act):
        return case.act(Z)
    return sympy.sympify(case.act, locals=_symbols(case), rational=True)  # 1.4 is 7/5, as symcheck reads it


def _number(value: Any) -> mpmath.mpf:
    if callable(value):
        return value()
    return mpmath.mpf(sympy.N(sympy.sympify(value), mpmath.mp.dps + 10))


def numeric_sigma(case: Case) -> Callable[..., Any]:
    """σ(z, *params) in mpmath, the parameters in the order of ``case.params``."""
    names = list(case.params or {})
    symbols = _symbols(case)
    return sympy.lambdify([Z, *(symbols[n] for n in names)], formula(case), modules="mpmath")


def _real(value: Any) -> mpmath.mpf | None:
    """The value when it is a finite real number, else None (non-real, infinite, a pole)."""
    if isinstance(value, mpmath.mpc):
        if abs(value.imag) > TINY:
            return None
        value = value.real
    value = mpmath.mpf(value)
    return value if mpmath.isfinite(value) else None


def _safe(f: Callable[..., Any], *args: Any) -> mpmath.mpf | None:
    try:
        return _real(f(*args))
    except (ValueError, ZeroDivisionError, OverflowError):
        return None


def _param_points(case: Case) -> list[tuple[mpmath.mpf, ...]]:
    points: list[tuple[mpmath.mpf, ...]] = [()]
    for name in case.params or {}:
        points = [(*p, _number(v)) for p in points for v in case.samples.get(name, ("1",))]
    return points


def _alphas(case: Case) -> list[mpmath.mpf]:
    if case.check != "scaling":
        return []
    if case.alpha == "positive":
        return [mpmath.mpf(v) for v in ("0.5", "2", "3.7")]
    return [_number(case.alpha)]


def residual(case: Case, sigma: Callable[..., Any], z: Any, ps: tuple, alpha: Any = None, b: Any = 1) -> Any:
    """The gated unit's statement at a = z: exchange σ(a)·b − σ(b)·a, scaling σ(αa)·b/α − σ(a)·b."""
    if case.check == "exchange":
        return sigma(z, *ps) * b - sigma(b, *ps) * z
    return sigma(alpha * z, *ps) * b / alpha - sigma(z, *ps) * b


def _undefined_at(case: Case) -> bool:
    """At the stated bad point σ has no finite real value, or its value has no limit as the
    point is computed more precisely (log(1 + sin z) at a rounded −π/2 is merely very negative)."""
    values = []
    for dps in (40, 80):
        with mpmath.workdps(dps):
            point = {name: _number(v) for name, v in case.bad.items()}
            value = _safe(numeric_sigma(case), point["z"], *(point[n] for n in case.params or {}))
            if value is None or abs(value) > mpmath.mpf("1e25"):
                return True
            values.append(value)
    return abs(values[0] - values[1]) > mpmath.mpf("1e-20") * (1 + abs(values[1]))


def _grid() -> list[mpmath.mpf]:
    # up to |z| = 30: beyond, 40 digits round tanh(z) to ±1 and 1/(1 + tanh z) looks undefined
    return [mpmath.mpf(v) for v in Z_GRID] + [mpmath.mpf(k) / 7 for k in range(-210, 211)]


def truth_problem(case: Case) -> str | None:
    """None when mpmath agrees with the stated truth, else what it found."""
    sigma = numeric_sigma(case)
    if case.truth == "undefined":
        return None if _undefined_at(case) else f"σ is finite and real at the stated point {case.bad}"
    grid = _grid()
    for ps in _param_points(case):
        for z in grid:
            if _safe(sigma, z, *ps) is None:
                return f"σ is not finite and real at z = {z}, params {ps}"
    if case.check == "group":
        return _group_problem_for(case, sigma)
    scales = _alphas(case) or [None]
    worst = max(abs(residual(case, sigma, z, ps, alpha)) / (1 + abs(sigma(z, *ps)))
                for ps in _param_points(case) for z in map(mpmath.mpf, Z_GRID) for alpha in scales)
    if case.truth == "holds" and worst > TINY:
        return f"a residual of {mpmath.nstr(worst, 5)} where it should vanish"
    if case.truth == "broken" and worst < CLEAR:
        return "no residual above 1e-20 on the grid"
    return None


def _group_problem_for(case: Case, sigma: Callable[..., Any]) -> str | None:
    for a, c, member in case.probes:
        an, cn = _number(a), _number(c)
        worst = max(abs(sigma(an * z) - cn * sigma(z)) / (1 + abs(sigma(z))) for z in map(mpmath.mpf, Z_GRID))
        if member and worst > TINY or not member and worst < CLEAR:
            stated = "a member" if member else "not a member"
            return f"probe ({a}, {c}) stated {stated}, residual {mpmath.nstr(worst, 5)}"
    return None


# ---- what symcheck answers, classified ----------------------------------------------------------

@dataclass(frozen=True)
class Outcome:
    name: str
    kind: str
    source: str
    truth: str
    answer: str
    outcome: str
    detail: str
    seconds: float


def _alpha_value(case: Case, witness: dict) -> Any:
    if "alpha" in witness:
        return witness["alpha"]
    return case.alpha


def _false_witness(case: Case, result: Any) -> str | None:
    """None when the reported witness breaks the statement by mpmath at 60 digits."""
    witness = result.to_dict().get("witness") or {}
    if not witness:
        return None
    with mpmath.workdps(60):
        params = witness.get("params") or {}
        ps = tuple(_number(params[n]) for n in case.params or {})
        a, b = _number(witness["a"]), _number(witness["b"])
        alpha = _number(_alpha_value(case, witness)) if case.check == "scaling" else None
        value = residual(case, numeric_sigma(case), a, ps, alpha, b)
        if abs(value) < mpmath.mpf("1e-40"):
            return f"the witness {witness} gives a residual of {mpmath.nstr(value, 5)}"
    return None


def _run_check(case: Case, timeout: float) -> tuple[str, str, str]:
    import symcheck as sc
    kwargs: dict[str, Any] = {"timeout": timeout}
    if case.params:
        kwargs["params"] = case.params
    if case.check == "exchange":
        result = sc.check_exchange(case.act, **kwargs)
    else:
        result = sc.check_inverse_scaling(case.act, alpha=case.alpha, **kwargs)
    verdict = result.verdict.value
    if case.truth == "undefined":
        return verdict, "wrong", "an undefined σ was accepted"
    if verdict == "inconclusive":
        return verdict, "inconclusive", (getattr(result, "note", "") or "")[:200]
    if verdict != case.truth:
        return verdict, "wrong", f"the truth is {case.truth}"
    if verdict == "broken":
        false = _false_witness(case, result)
        if false:
            return verdict, "wrong", false
    return verdict, "right", ""


def _run_group(case: Case, timeout: float) -> tuple[str, str, str]:
    import symcheck as sc
    group = sc.symmetry_group(case.act, timeout=timeout)
    answers = [(a, c, member, group.contains(sympy.sympify(a), sympy.sympify(c))) for a, c, member in case.probes]
    against = [f"({a}, {c}) → {got}" for a, c, member, got in answers if got is not None and got != member]
    shown = "complete" if group.complete else "partial"
    if against:
        return shown, "wrong", "; ".join(against)
    undecided = [f"({a}, {c})" for a, c, _, got in answers if got is None]
    if group.complete and not undecided:
        return shown, "right", ""
    return shown, "inconclusive", (f"undecided {', '.join(undecided)}; " if undecided else "") + \
        (group.note or "")[:200]


def classify(case: Case, timeout: float = CASE_TIMEOUT) -> Outcome:
    """Run symcheck on one case and say how its answer compares with the truth."""
    from symcheck.core.errors import DomainError, SymcheckError
    started = time.perf_counter()
    truth = case.truth or "group"
    try:
        answer, outcome, detail = (_run_group if case.check == "group" else _run_check)(case, timeout)
    except DomainError as err:
        answer, outcome, detail = "refused", ("right" if case.truth == "undefined" else "refused"), str(err)[:200]
    except SymcheckError as err:
        answer, outcome, detail = "error", "refused", f"{type(err).__name__}: {str(err)[:200]}"
    except Exception as err:  # noqa: BLE001 - a crash is one of the outcomes measured
        answer, outcome, detail = "crash", "crash", f"{type(err).__name__}: {str(err)[:200]}"
    return Outcome(case.name, case.kind, case.source, truth, answer, outcome, " ".join(detail.split()),
                   round(time.perf_counter() - started, 2))


# ---- running every case in a worker, with a hard time limit --------------------------------------

def _worker(conn: Any, timeout: float) -> None:
    import symcheck  # noqa: F401 - imported once per worker, not per case
    while True:
        index = conn.recv()
        if index is None:
            return
        conn.send(classify(CASES_BY_INDEX[index], timeout))


CASES_BY_INDEX = dict(enumerate(CASES))


class _Runner:
    """One forked worker that is replaced when a case exceeds the hard limit."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.ctx = mp.get_context("fork")
        self.proc: Any = None

    def _start(self) -> None:
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker, args=(child, self.timeout), daemon=True)
        self.proc.start()

    def run(self, index: int) -> Outcome:
        if self.proc is None or not self.proc.is_alive():
            self._start()
        self.conn.send(index)
        if self.conn.poll(HARD_LIMIT):
            try:
                return self.conn.recv()
            except EOFError:
                detail = "the worker died"
        else:
            detail = f"no answer within the hard limit of {HARD_LIMIT:.0f} s"
        self.proc.kill()
        self.proc.join()
        self.proc = None
        case = CASES[index]
        return Outcome(case.name, case.kind, case.source, case.truth or "group", "crash", "crash", detail, HARD_LIMIT)

    def close(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            self.conn.send(None)
            self.proc.join(5)


def tally(outcomes: list[Outcome]) -> dict[str, Any]:
    counts = Counter(o.outcome for o in outcomes)
    total = len(outcomes)
    return {"total": total, **{k: counts.get(k, 0) for k in OUTCOMES},
            **{f"{k}_percent": round(100 * counts.get(k, 0) / total, 1) if total else 0.0 for k in OUTCOMES}}


def _table(outcomes: list[Outcome]) -> str:
    lines = [f"{'case':44} {'kind':8} {'truth':9} {'answer':12} {'outcome':12} {'s':>6}  detail"]
    for o in outcomes:
        lines.append(f"{o.name[:44]:44} {o.kind:8} {o.truth:9} {o.answer:12} {o.outcome:12} {o.seconds:6.1f}  "
                     f"{o.detail[:110]}")
    return "\n".join(lines)


def _summary(title: str, t: dict[str, Any]) -> str:
    return (f"{title}: {t['total']} cases — " +
            ", ".join(f"{k} {t[k]} ({t[k + '_percent']} %)" for k in OUTCOMES))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("-k", default="", help="only cases whose name or kind contains this text")
    parser.add_argument("--timeout", type=float, default=CASE_TIMEOUT, help="symcheck's budget per case (s)")
    args = parser.parse_args(argv)
    chosen = [i for i, c in CASES_BY_INDEX.items() if args.k in c.name or args.k in c.kind]
    problems = {CASES[i].name: p for i in chosen if (p := truth_problem(CASES[i]))}
    runner = _Runner(args.timeout)
    outcomes = []
    try:
        for i in chosen:
            outcomes.append(runner.run(i))
            if not args.json:
                print(_table(outcomes[-1:]).splitlines()[1], flush=True)
    finally:
        runner.close()
    outside = [o for o in outcomes if o.source == "outside"]
    issue = [o for o in outcomes if o.source == "issue"]
    kinds = sorted({o.kind for o in outside})
    report = {"outside": tally(outside), "issue": tally(issue),
              "by_kind": {k: tally([o for o in outside if o.kind == k]) for k in kinds},
              "truth_problems": problems, "cases": [o.__dict__ for o in outcomes]}
    if args.json:
        print(json.dumps(report, indent=1, default=str))
    else:
        print()
        print(_table(outcomes))
        print()
        for k in kinds:
            print(_summary(f"  {k}", report["by_kind"][k]))
        print(_summary("outside cases", report["outside"]))
        print(_summary("the issue's examples", report["issue"]))
        for name, problem in problems.items():
            print(f"TRUTH? {name}: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
