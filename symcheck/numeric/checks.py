"""Numeric checks at size: the same layer evaluated two ways, compared within a tolerance.

A check reports an overflow, or outputs too close to the underflow threshold for the
tolerance, as no evidence either way, never as a difference. Random data or real weights
(:mod:`symcheck.numeric.weights`); the result is a :class:`~symcheck.numeric.report.NumericReport`.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from symcheck.core.errors import NumericError, NumericOverflowError, UnknownNameError
from symcheck.core.names import closest
from symcheck.core.verdict import Outcome
from symcheck.exact.vectorize import as_dtype
from symcheck.language.activations import Activation
from symcheck.numeric.arrays import all_finite, index_text, refuse_non_finite
from symcheck.numeric.kernels import Progress, bilinear_attention, gated, mlp, query_mlp, rank1
from symcheck.numeric.planner import DEFAULT_MEMORY, Plan, bilinear_plan, parse_memory, plan, require_memory
from symcheck.numeric.report import CHECKS, NumericReport
from symcheck.numeric.vocabulary import CHECK_FORMS, NumericCheckKind, NumericForm, Route

__all__ = ["FORMS", "NumericCheck", "numeric_form", "prepare", "measure", "tolerance"]

#: the forms exchange and scaling take (absorb and rank1 fix theirs)
FORMS = CHECK_FORMS
_K = NumericCheckKind
_DEFAULTS = {"d": 256, "m": 1024, "r": 4, "tokens": 256}


def tolerance(dtype: object, terms: int) -> float:
    """The relative error two evaluations of the same quantity may differ by: sums of ``terms``
    rounded products drift like √terms·ε (a random walk of rounding errors), with a margin
    of 64 for σ's conditioning and the different association of the two sides."""
    return 64 * float(np.finfo(as_dtype(dtype)).eps) * math.sqrt(max(terms, 1))



@dataclass(frozen=True)
class _Side:
    text: str
    run: Callable[[Progress | None], np.ndarray]
    plan: Plan
    #: (overflow or underflow, reason) when the side's data already cannot give evidence
    blocked: tuple[Outcome, str] | None = None


class _NoEvidence(Exception):
    """Inside :meth:`NumericCheck.run`: the comparison cannot give evidence (``kind`` says why)."""

    def __init__(self, kind: Outcome, reason: str) -> None:
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
        raise _NoEvidence(Outcome.UNDERFLOW, f"both sides are exactly 0 in {kind.name} (underflow gives that too)")
    if top < tiny / tol:
        raise _NoEvidence(Outcome.UNDERFLOW, f"the outputs (largest |value| {top:.3g}) are within 1/tolerance "
                                             f"of {kind.name}'s underflow threshold {tiny:.3g}, where rounding "
                                             "is absolute")
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

    kind: NumericCheckKind
    form: NumericForm
    activation: Activation
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
        no_evidence: Outcome | None = None
        reason: str | None = None
        try:
            for side in (self.left, self.right):
                if side.blocked is not None:
                    raise _NoEvidence(*side.blocked)
            left = self.left.run(progress)
            right = self.right.run(progress)
            relative, reason = _compare(left, right, as_dtype(self.dtype), tol)
        except NumericOverflowError as err:
            no_evidence, reason = Outcome.OVERFLOW, str(err)
        except _NoEvidence as err:
            no_evidence, reason = err.kind, err.reason
        return NumericReport(
            kind=self.kind, claim=CHECKS[self.kind], form=self.form, activation=self.activation,
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


def check_kind(name: NumericCheckKind | str) -> NumericCheckKind:
    """The numeric check called ``name``; an unknown name is an error that names the closest."""
    try:
        return NumericCheckKind(name)
    except ValueError:
        known = tuple(kind.value for kind in NumericCheckKind)
        raise UnknownNameError("numeric check", str(name), closest(str(name), known), known) from None


def numeric_form(name: str) -> NumericForm:
    """The form of ``--form`` read from its name; UnknownNameError (with a suggestion) otherwise."""
    known = tuple(form.value for form in FORMS)
    if name not in known:
        raise UnknownNameError("numeric form", name, closest(name, known), known)
    return NumericForm(name)


def prepare(check_name: NumericCheckKind, *, act: Any = "silu", form: NumericForm | None = None, d: int | None = None,
            m: int | None = None, r: int | None = None, tokens: int | None = None, seed: int | None = 0,
            dtype: object = "float64", memory: int | str = DEFAULT_MEMORY,
            alpha: str | float | None = None, weights: Sequence[str] = (), inputs: str | None = None,
            layer: str | None = None) -> NumericCheck:
    """Set up a numeric check (see ``CHECKS``) on random data or real weights; ``.run()`` it.

    Random data: X ~ N(0, 1) rows; factors scaled so pre-activations are O(1); V ~ N(0, 1/m);
    output size e = d. Real weights: ``weights`` files (see :mod:`symcheck.numeric.weights`), the sizes
    come from them and ``d``/``m``/``r`` must not be given.
    """
    from symcheck.language.activations import activation
    check_name = check_kind(check_name)
    kind = as_dtype(dtype)
    budget = parse_memory(memory)
    d, m, r, tokens = (_whole(name, value, 1) for name, value in (("d", d), ("m", m), ("r", r),
                                                                   ("tokens", tokens)))
    seed = _whole("seed", seed, 0)
    sigma = activation(act)
    if alpha is not None and check_name is not _K.SCALING:
        raise NumericError("alpha applies to the scaling check only", name="alpha")
    if form is not None and check_name not in (_K.EXCHANGE, _K.SCALING):
        raise NumericError(f"the {check_name} check fixes its forms; form applies to exchange and "
                           "scaling", name="form")
    form = None if form is None else numeric_form(form)
    rng = np.random.default_rng(seed)
    if weights:
        data = _weights_data(check_name, form, weights, layer, d, m, r, tokens, inputs, rng, seed, kind,
                            budget)
    else:
        if inputs is not None:
            raise NumericError("inputs (X) need weights too; give the weight files", name="inputs")
        data = _random_data(check_name, form or NumericForm.GATED, d, m, r, tokens, rng, seed, kind, budget)
    sizes, arrays, form_used, source = data
    options = {"memory": budget, "dtype": kind}
    left, right, terms, alpha_text = _sides(check_name, form_used, sizes, arrays, sigma, options, alpha)
    return NumericCheck(check_name, form_used, sigma, kind.name, sizes, left, right, terms,
                        source, budget, None if weights and inputs is not None else seed, alpha_text)


def measure(check_name: NumericCheckKind, **options: Any) -> NumericReport:
    """``prepare(check_name, **options).run()``.

    >>> measure("exchange", act="silu", d=8, m=16, tokens=32).outcome.value
    'differ'
    >>> measure("rank1", act="gelu", d=8, m=16, tokens=32).outcome.value
    'agree'
    """
    progress = options.pop("progress", None)
    return prepare(check_name, **options).run(progress)


def _footprint(check_name: NumericCheckKind, form: NumericForm, N: int, d: int, m: int, e: int, r: int, kind: np.dtype,
               drawn: bool, inputs_drawn: bool) -> list[tuple[str, int]]:
    """The arrays a check allocates besides its working memory, by name, in bytes: the random
    data (``drawn``: the factors; ``inputs_drawn``: X), the copies one side computes (α·Q and
    K/α, or the absorbed keys), and the two outputs with the comparison's float64 copies."""
    s = kind.itemsize
    factor = m * d * (r if form is NumericForm.BILINEAR and check_name is not _K.RANK1 else 1) * s
    parts: list[tuple[str, int]] = []
    if inputs_drawn:
        parts.append(("X", N * d * s))
    if drawn:
        parts += [("Q_g", d * d * s)] if check_name is _K.ABSORB else [("Q", factor)]
        parts += [("K", m * d * s if check_name is _K.ABSORB else factor), ("V", m * e * s)]
    if drawn:                                       # a draw is scaled in a temporary of its size
        parts.append(("a temporary while drawing", max(size for _, size in parts)))
    if check_name is _K.SCALING:
        parts += [("α·Q", factor), ("K/α", factor)]
    elif check_name is _K.ABSORB:                    # the product in float64, then cast
        parts.append(("K·Q_gᵀ", m * d * (16 + s) + d * d * 8))
    parts.append(("the outputs and their comparison", N * e * (2 * s + 5 * 8)))
    return parts


def _advice(kind: np.dtype) -> str:
    return "choose smaller sizes d, m, tokens" + (" or float32" if kind.itemsize > 4 else "")


def _random_data(check_name: NumericCheckKind, form: NumericForm, d: int | None, m: int | None, r: int | None,
                 tokens: int | None, rng: np.random.Generator, seed: int | None, kind: np.dtype,
                 budget: int):
    d = _DEFAULTS["d"] if d is None else d
    m = _DEFAULTS["m"] if m is None else m
    N = _DEFAULTS["tokens"] if tokens is None else tokens
    if check_name is _K.RANK1:
        if r not in (None, 1):
            raise NumericError("the rank1 check compares at r = 1; leave out r", name="r")
        r = 1
    elif form is not NumericForm.BILINEAR and r not in (None, 1):
        raise NumericError(f"r applies to the bilinear form, not {form}; add form='bilinear'", name="r")
    r = r or (_DEFAULTS["r"] if form is NumericForm.BILINEAR and check_name is not _K.RANK1 else 1)

    used = NumericForm.QUERY_MLP if check_name is _K.ABSORB else NumericForm.RANK1 if check_name is _K.RANK1 else form
    require_memory(_footprint(check_name, used, N, d, m, d, r, kind, True, True), budget,
                   advice=_advice(kind))

    def normal(shape, std):
        return (rng.standard_normal(shape, dtype=kind) * kind.type(std)).astype(kind, copy=False)

    X = normal((N, d), 1.0)
    V = normal((m, d), 1 / math.sqrt(m))
    if check_name is _K.ABSORB:
        arrays = {"X": X, "Q_g": normal((d, d), 1 / math.sqrt(d)), "K": normal((m, d), 1 / math.sqrt(d)), "V": V}
        form = NumericForm.QUERY_MLP
    elif form is NumericForm.BILINEAR and check_name is not _K.RANK1:
        std = 1 / math.sqrt(d * math.sqrt(r))      # x Q_j K_jᵀ xᵀ = O(1)
        arrays = {"X": X, "Q": normal((m, d, r), std), "K": normal((m, d, r), std), "V": V}
    else:
        std = 1 / math.sqrt(d)                     # a = x·q, b = x·k are O(1)
        arrays = {"X": X, "Q": normal((m, d), std), "K": normal((m, d), std), "V": V}
        form = NumericForm.RANK1 if check_name is _K.RANK1 else form
    sizes = {"d": d, "m": m, "e": d, "r": r, "tokens": N}
    return sizes, arrays, form, f"random normal data, seed {seed}"


def _weights_data(check_name: NumericCheckKind, form: NumericForm | None, weights: Sequence[str], layer: str | None,
                  d: int | None, m: int | None, r: int | None, tokens: int | None,
                  inputs: str | None, rng: np.random.Generator, seed: int | None, kind: np.dtype,
                  budget: int):
    from symcheck.numeric.weights import load_inputs, load_layer
    given = [name for name, value in (("d", d), ("m", m), ("r", r)) if value is not None]
    if given:
        raise NumericError(f"{', '.join(given)} come(s) from the weights; leave {', '.join(given)} out",
                           name=given[0])
    w = load_layer(weights, layer=layer, form=None if form is NumericForm.BILINEAR else form)
    if check_name is _K.ABSORB and w.form is not NumericForm.QUERY_MLP:
        raise NumericError("the absorb check needs tensors Q_g (d, d), K (m, d) and V (m, e)", name="Q_g")
    if check_name is not _K.ABSORB and w.form is NumericForm.QUERY_MLP:
        raise NumericError(f"the {check_name} check needs Q, K and V; the weights hold Q_g, K, V "
                           "(use the absorb check)", name="Q")
    if check_name is _K.RANK1 and w.form is NumericForm.BILINEAR:
        if w.r != 1:
            raise NumericError(f"the rank1 check needs rank-1 factors; the weights have r = {w.r}", name="Q")
    if form is NumericForm.BILINEAR and w.form is not NumericForm.BILINEAR:
        raise NumericError("form bilinear needs 3-D factors Q, K (m, d, r) in the weights", name="Q")
    for role in ("Q", "K", "V", "Q_g"):
        array = getattr(w, role)
        if array is not None:
            label = w.sources[role]
            if label.endswith(" transposed"):      # name the index as the file stores it
                array, label = array.T, label[: -len(" transposed")]
            refuse_non_finite(label, array, kind)
    d = w.d
    used = NumericForm.RANK1 if check_name is _K.RANK1 else w.form
    if inputs is not None:
        X, where = load_inputs(inputs, d)
        refuse_non_finite(where, X, kind)
        require_memory(_footprint(check_name, used, int(X.shape[0]), d, w.m, w.e, w.r, kind, False, False),
                       budget, advice=_advice(kind).replace("sizes d, m, tokens", "inputs"))
        source = f"weights {w.describe()}; inputs {where}"
    else:
        N = _DEFAULTS["tokens"] if tokens is None else tokens
        require_memory(_footprint(check_name, used, N, d, w.m, w.e, w.r, kind, False, True), budget,
                       advice=_advice(kind).replace("sizes d, m, tokens", "tokens"))
        X = rng.standard_normal((N, d), dtype=kind)
        source = f"weights {w.describe()}; random normal inputs, seed {seed}"
    arrays = {"X": X, "K": w.K, "V": w.V}
    if w.form is NumericForm.QUERY_MLP:
        arrays["Q_g"] = w.Q_g
    else:
        arrays["Q"] = w.Q
    if check_name is _K.RANK1:
        assert w.Q is not None and w.K is not None  # not query-mlp (refused above): Q and K are set
        if w.Q.ndim == 3:
            arrays["Q"], arrays["K"] = w.Q[:, :, 0], w.K[:, :, 0]
    sizes = {"d": d, "m": w.m, "e": w.e, "r": w.r, "tokens": int(X.shape[0])}
    return sizes, arrays, used, source


def _sides(check_name: NumericCheckKind, form: NumericForm, sizes: Mapping[str, int], a: Mapping[str, np.ndarray],
           sigma: Any, options: dict, alpha: Any):
    """The two evaluations to compare, planned, and the length of the longest sum involved."""
    N, d, m, e, r = sizes["tokens"], sizes["d"], sizes["m"], sizes["e"], sizes["r"]
    kind = options["dtype"]
    X = a["X"]

    def side(text: str, function: Callable, arrays: Sequence[Any], p: Plan,
             blocked: tuple[Outcome, str] | None = None, **extra: Any) -> _Side:
        return _Side(text, lambda progress: function(X, *arrays, sigma, progress=progress,
                                                     **options, **extra), p, blocked)

    def two_factor_plan(route: Route) -> Plan:
        return plan(route, N, d, m, e, memory=options["memory"], dtype=kind,
                    cast_factors=a["Q"].dtype != kind)

    alpha_text = None
    if check_name is _K.RANK1:
        Q3, K3 = a["Q"][:, :, None], a["K"][:, :, None]
        p = bilinear_plan(N, d, m, e, 1, options["memory"], kind, a["Q"].dtype != kind, 0, Route.KERNEL)
        left = side("Σ_j σ(x M_j xᵀ) v_j with M_j = q_jᵀ k_j materialised (bilinear, r = 1, kernel route)",
                    bilinear_attention, (Q3, K3, a["V"]), p, route=Route.KERNEL)
        right = side("σ((xQᵀ)⊙(xKᵀ))V (the rank-1 form)", rank1, (a["Q"], a["K"], a["V"]),
                     two_factor_plan(Route.RANK1))
        return left, right, d * d + m, alpha_text
    if check_name is _K.ABSORB:
        with np.errstate(over="ignore", invalid="ignore"):
            K_absorbed = (np.asarray(a["K"], np.float64) @ np.asarray(a["Q_g"], np.float64).T).astype(kind)
        p = plan(Route.MLP, N, d, m, e, memory=options["memory"], dtype=kind)
        left = side("σ((xQ_g)Kᵀ)V (the global query applied to x)", query_mlp, (a["Q_g"], a["K"], a["V"]), p)
        right = side("σ(xK'ᵀ)V with K' = K Q_gᵀ (absorbed into the keys)", mlp, (K_absorbed, a["V"]), p,
                     blocked=_blocked(K_absorbed, None, "K·Q_gᵀ", kind))
        return left, right, 2 * d + m, alpha_text
    function = {NumericForm.GATED: gated, NumericForm.RANK1: rank1, NumericForm.BILINEAR: bilinear_attention}[form]
    formula = {NumericForm.GATED: "(σ(xQᵀ)⊙(xKᵀ))V", NumericForm.RANK1: "σ((xQᵀ)⊙(xKᵀ))V",
               NumericForm.BILINEAR: "Σ_j σ(x Q_j K_jᵀ xᵀ) v_j"}[form]
    if form is NumericForm.BILINEAR:
        p = bilinear_plan(N, d, m, e, r, options["memory"], kind, a["Q"].dtype != kind, 0, None)
        terms = d * max(d, r) + m
    else:
        p = two_factor_plan(Route(form))  # gated and rank1 each have the route of their name
        terms = d + m
    Q, K, V = a["Q"], a["K"], a["V"]
    left = side(f"{formula} with (Q, K)", function, (Q, K, V), p)
    if check_name is _K.EXCHANGE:
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
             kind: np.dtype) -> tuple[Outcome, str] | None:
    """Why data computed for one side (scaled or absorbed factors) can give no evidence: an entry
    not finite in ``kind`` (overflow), or a non-zero entry of ``source`` that became 0 or
    subnormal (underflow: its relative precision is lost, so a 'change' there is rounding)."""
    if not all_finite(computed):
        first = tuple(int(i) for i in np.argwhere(~np.isfinite(computed))[0])
        return Outcome.OVERFLOW, f"overflow in {kind.name}: {name} is not finite at index {index_text(first)}"
    if source is None:
        return None
    lost = (np.abs(computed) < np.finfo(kind).tiny) & (np.asarray(source) != 0)
    if lost.any():
        first = tuple(int(i) for i in np.argwhere(lost)[0])
        return Outcome.UNDERFLOW, (f"underflow in {kind.name}: {name} is {computed[first]:.3g} at index "
                             f"{index_text(first)}, below the normal range: its precision is lost")
    return None
