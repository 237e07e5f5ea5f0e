"""Decide whether a one-variable expression is identically zero on R.

The answer is three-valued and follows the soundness contract: ``holds`` only when every
piece of a case split covering R was reduced to exactly 0 by an equivalence-preserving
transformation; ``broken`` only with an exact point where the value is certified
non-zero; otherwise ``inconclusive`` with what was tried. A failed simplification proves
nothing, so it only ever leads to ``inconclusive``.

SymPy's answer that something is 0 is only a proposal where it could rest on SymPy's own
sign of a number (its assumptions evaluate a number with ``evalf`` at a few digits, and
``simplify``, ``expand``, ``expand_log`` split logarithms and powers on such signs):

* a **constant** (a piece, or a point value, with no variable left) is 0 only by
  :func:`~symcheck.exact.signs.exact_sign` — an exact proof (rational function of independent
  atoms, resultants of radicals) — never by ``simplify(value) == 0``; a constant certified
  non-zero is a witness;
* an expression **in the variable** is 0 by an exact identity of rational functions of
  independent atoms (:func:`~symcheck.exact.zero_proof.generator_identity`), or by SymPy's
  rewrites applied after every constant SymPy could misjudge was made **opaque**
  (:func:`opaque_constants`): replaced by a symbol whose only assumption is its sign, certified
  by :func:`~symcheck.exact.signs.exact_sign` (a constant proved 0 becomes 0). SymPy's rewrites
  then see the variable, opaque constants of certified sign and *plain* numbers only —
  rationals, π, e, e^p (p plain: e^q, e^(qπ)), log q (q > 0), q^(p/n) (q > 0) and products of these — whose signs
  SymPy's assumptions read off the structure; a 0 it reaches is an identity for every real
  value of the opaque constants of the given signs, so for the actual ones.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

import sympy
from sympy import S

from symcheck.core.budget import Budget, BudgetExceeded
from symcheck.core.errors import EvaluationError
from symcheck.core.functions import rewritten
from symcheck.core.results import Status
from symcheck.core.verdict import Verdict
from symcheck.exact.evaluate import Certificate, approximate, certify_nonzero
from symcheck.exact.regions import Piece, Region, Undecided, split
from symcheck.exact.signs import EXACT_SIGN_BITS, exact_sign
from symcheck.exact.zero_proof import generator_identity_safe

#: how many of the best-ranked sample points are sent to the certifier
CERTIFY_TOP = 4
#: approximate values above this (at 30 digits) are worth certifying first
VISIBLE = 1e-25


class PieceStatus(StrEnum):
    """What became of the residual on one piece of a case split: proved 0, certified non-zero
    somewhere in it, neither (unknown; undecided when its branches could not be chosen), or out
    of time."""

    PROVED = "proved"
    NONZERO = "nonzero"
    UNKNOWN = "unknown"
    UNDECIDED = "undecided"
    TIMEOUT = "timeout"

    @property
    def step(self) -> Status:
        """The status of the proof step that reports the piece."""
        return _STEP_STATUS[self]


_STEP_STATUS = {PieceStatus.PROVED: Status.VERIFIED, PieceStatus.NONZERO: Status.CERTIFIED,
                PieceStatus.UNKNOWN: Status.UNKNOWN, PieceStatus.UNDECIDED: Status.UNKNOWN,
                PieceStatus.TIMEOUT: Status.TIMEOUT}


@dataclass(frozen=True)
class PieceOutcome:
    """What became of the residual on one region of the case split."""

    region: Region
    expr: sympy.Expr
    status: PieceStatus
    method: str = ""


@dataclass(frozen=True)
class Evidence:
    """Numeric facts gathered on the way; never a proof."""

    points: int = 0
    largest: str = "0"

    def merge(self, other: Evidence) -> Evidence:
        biggest = max((self.largest, other.largest), key=lambda s: abs(float(s)))
        return Evidence(self.points + other.points, biggest)


@dataclass(frozen=True)
class ZeroDecision:
    verdict: Verdict
    residual: sympy.Expr
    pieces: tuple[PieceOutcome, ...] = ()
    point: sympy.Rational | None = None
    certificate: Certificate | None = None
    evidence: Evidence = Evidence()
    note: str = ""
    #: why each branch condition's cut points are all of its roots (one line per condition)
    cut_proofs: tuple[str, ...] = ()


def decide_zero(residual: sympy.Expr, var: sympy.Symbol, budget: Budget, *,
                cuts: Iterable[sympy.Expr] = (S.Zero,)) -> ZeroDecision:
    """Is ``residual`` ≡ 0 for every real ``var``?"""
    if residual == 0:
        return ZeroDecision(Verdict.HOLDS, residual,
                            (PieceOutcome(Region(-S.Infinity, S.Infinity), S.Zero, PieceStatus.PROVED,
                                          "identically 0 as written"),))
    evidence = Evidence()
    try:
        found, evidence = _search(residual, var, Region(-S.Infinity, S.Infinity).samples(30) + [S.Zero],
                                  budget)
        if found:
            return ZeroDecision(Verdict.BROKEN, residual, point=found[0], certificate=found[1],
                                evidence=evidence)
        pieces = split(residual, var, budget, cuts)
    except Undecided as why:
        return ZeroDecision(Verdict.INCONCLUSIVE, residual, evidence=evidence, note=str(why))
    except BudgetExceeded:
        return ZeroDecision(Verdict.INCONCLUSIVE, residual, evidence=evidence,
                            note="the time budget ran out while splitting into cases")
    outcomes: list[PieceOutcome] = []
    for piece in pieces:
        outcome, found, more = _settle(piece, var, budget)
        evidence = evidence.merge(more)
        outcomes.append(outcome)
        if found:
            return ZeroDecision(Verdict.BROKEN, residual, tuple(outcomes), found[0], found[1], evidence)
    proved = all(o.status is PieceStatus.PROVED for o in outcomes)
    verdict = Verdict.HOLDS if proved else Verdict.INCONCLUSIVE
    note = "" if proved else "the residual was neither proved zero nor certified non-zero on every piece"
    cut_proofs = tuple(dict.fromkeys(a for piece in pieces for a in piece.cut_proofs))
    return ZeroDecision(verdict, residual, tuple(outcomes), evidence=evidence, note=note,
                        cut_proofs=cut_proofs)


def _settle(piece: Piece, var: sympy.Symbol, budget: Budget):
    """Prove the piece zero, or find a certified non-zero point in it."""
    evidence = Evidence()
    try:
        if not piece.branch_free:
            return _settle_alternatives(piece, var, budget)
        if piece.region.is_point:
            return _settle_point(piece, var, budget)
        found, evidence = _search(piece.expr, var, piece.region.samples(12), budget)
        if found:
            return PieceOutcome(piece.region, piece.expr, PieceStatus.NONZERO), found, evidence
        if piece.expr != 0 and var not in piece.expr.free_symbols:
            return _settle_constant(piece, budget, evidence)
        method = prove_identically_zero(piece.expr, var, piece.region, budget)
    except BudgetExceeded:
        return PieceOutcome(piece.region, piece.expr, PieceStatus.TIMEOUT), None, evidence
    status = PieceStatus.PROVED if method else PieceStatus.UNKNOWN
    return PieceOutcome(piece.region, piece.expr, status, method or ""), None, evidence


def _settle_constant(piece: Piece, budget: Budget, evidence: Evidence):
    """A piece with no variable left: 0 only by an exact proof, else a certified witness at
    any rational point of the region (the value is the same everywhere on it)."""
    with budget.step():
        sign = constant_sign(piece.expr)
        if sign == 0:
            return (PieceOutcome(piece.region, piece.expr, PieceStatus.PROVED, ZERO_CONSTANT), None, evidence)
        points = piece.region.samples(1)
        if sign is not None and points:
            certificate = certify_nonzero(piece.expr, {}, max_prec=EXACT_SIGN_BITS)
            if certificate is not None:
                return (PieceOutcome(piece.region, piece.expr, PieceStatus.NONZERO), (points[0], certificate),
                        evidence.merge(Evidence(1, certificate.decimal(6))))
    return PieceOutcome(piece.region, piece.expr, PieceStatus.UNKNOWN), None, evidence


#: how a constant proved 0 is named
ZERO_CONSTANT = "a constant proved 0 by exact algebra"


def constant_sign(value: sympy.Expr) -> int | None:
    """The sign of a closed-form number: 0 only with an exact proof, ±1 only certified
    (:func:`~symcheck.exact.signs.exact_sign`); None when undecided."""
    try:
        return exact_sign(value)
    except (Undecided, EvaluationError, TypeError, ValueError, RecursionError):
        return None


def _settle_alternatives(piece: Piece, var: sympy.Symbol, budget: Budget):
    """A condition could not be cut on this region: the value at each point is one of the
    alternatives, so the piece is 0 if every alternative is. A witness is searched on the
    expression as written (its branches decided point by point), never on an alternative."""
    samples = [piece.region.lower] if piece.region.is_point else piece.region.samples(12)
    found, evidence = _search(piece.expr, var, samples, budget)
    if found:
        return PieceOutcome(piece.region, piece.expr, PieceStatus.NONZERO), found, evidence
    methods = []
    for alternative in piece.alternatives:
        if piece.region.is_point:
            value = _at(alternative, var, piece.region.lower)
            method = "exact value 0" if constant_sign(value) == 0 else None
        else:
            method = prove_identically_zero(alternative, var, piece.region, budget)
        if method is None:
            return (PieceOutcome(piece.region, piece.expr, PieceStatus.UNKNOWN,
                                 "the branches of an uncut condition were not all proved zero: "
                                 + "; ".join(piece.undecided)), None, evidence)
        methods.append(method)
    return (PieceOutcome(piece.region, piece.expr, PieceStatus.PROVED,
                         f"0 on every branch the uncut condition may choose ({len(methods)}: "
                         + ", ".join(dict.fromkeys(methods)) + "), whatever its truth"), None, evidence)


def _settle_point(piece: Piece, var: sympy.Symbol, budget: Budget):
    point = piece.region.lower
    with budget.step():
        value = _at(piece.expr, var, point)
        sign = constant_sign(value)
        if sign == 0:
            return PieceOutcome(piece.region, value, PieceStatus.PROVED, "exact value 0"), None, Evidence(1)
        certificate = (certify_nonzero(value, {}, max_prec=EXACT_SIGN_BITS)
                       if sign is not None and point.is_Rational else None)
        if certificate:
            return (PieceOutcome(piece.region, value, PieceStatus.NONZERO), (point, certificate),
                    Evidence(1, certificate.decimal(6)))
    return PieceOutcome(piece.region, value, PieceStatus.UNKNOWN), None, Evidence(1)


def _at(expr: sympy.Expr, var: sympy.Symbol, point: sympy.Expr) -> sympy.Expr:
    """``expr`` at ``var = point``, unevaluated: SymPy's evaluation would decide ``Abs``,
    ``sqrt(u**2)`` and the like on its own sign of the number; the tree is for
    :func:`constant_sign`, which decides with a certificate."""
    with sympy.evaluate(False):
        return expr.xreplace({var: point})


def _search(expr: sympy.Expr, var: sympy.Symbol, points: Sequence[sympy.Rational], budget: Budget):
    """Certify the simplest sample points whose approximate value is visibly non-zero.

    Points come simplest first, so the witness a user reads is small; the point with the
    largest value is tried too, for residuals that vanish near the origin (relu6, hardtanh).
    """
    values: list[tuple[sympy.Rational, float]] = []
    with budget.step():
        for q in dict.fromkeys(points):
            try:
                values.append((q, abs(approximate(expr, {var: q}, dps=30))))
            except EvaluationError:
                continue
        largest = max(values, key=lambda t: t[1], default=(None, 0))
        evidence = Evidence(len(values), sympy.sstr(sympy.Float(largest[1], 6)))
        visible = [q for q, v in values if v > VISIBLE]
        candidates = list(dict.fromkeys(visible[:CERTIFY_TOP] + [largest[0]]))
        for q in candidates:
            if q is None:
                continue
            certificate = certify_nonzero(expr, {var: q})
            if certificate is not None:
                return (q, certificate), evidence
    return None, evidence


# Identities of real functions, each valid for every real u (the residual is real-valued
# wherever it is evaluated, so every argument is real): (name, function, rewrite of its
# argument), applied innermost first. Each is an equivalence on the whole region. The one
# with a side condition (u > 0) asks :func:`_positive`, never SymPy's sign of a number.
_IDENTITIES: tuple[tuple[str, type[sympy.Basic], Callable[[sympy.Expr], sympy.Expr | None]], ...] = (
    ("asinh(sinh u) = u", sympy.asinh, lambda u: u.args[0] if isinstance(u, sympy.sinh) else None),
    ("sinh(asinh u) = u", sympy.sinh, lambda u: u.args[0] if isinstance(u, sympy.asinh) else None),
    ("cosh(asinh u) = √(1 + u²)", sympy.cosh,
     lambda u: sympy.sqrt(1 + u.args[0] ** 2) if isinstance(u, sympy.asinh) else None),
    ("tanh(asinh u) = u/√(1 + u²)", sympy.tanh,
     lambda u: u.args[0] / sympy.sqrt(1 + u.args[0] ** 2) if isinstance(u, sympy.asinh) else None),
    ("tan(atan u) = u", sympy.tan, lambda u: u.args[0] if isinstance(u, sympy.atan) else None),
    ("atanh(tanh u) = u", sympy.atanh, lambda u: u.args[0] if isinstance(u, sympy.tanh) else None),
    ("ceiling u = −floor(−u)", sympy.ceiling, lambda u: -sympy.floor(-u)),
    ("acosh(cosh u) = |u|", sympy.acosh, lambda u: sympy.Abs(u.args[0]) if isinstance(u, sympy.cosh) else None),
    ("asin(tanh u) = atan(sinh u)", sympy.asin,
     lambda u: sympy.atan(sympy.sinh(u.args[0])) if isinstance(u, sympy.tanh) else None),
    ("log(exp u) = u", sympy.log, lambda u: u.args[0] if isinstance(u, sympy.exp) else None),
    ("exp(log u) = u for u > 0", sympy.exp,
     lambda u: u.args[0] if isinstance(u, sympy.log) and _positive(u.args[0]) else None),
    ("erfc u = 1 − erf u", sympy.erfc, lambda u: 1 - sympy.erf(u)),
    ("2·atan(tanh u) = atan(sinh 2u)", sympy.atan,
     lambda u: sympy.atan(sympy.sinh(2 * u.args[0])) / 2 if isinstance(u, sympy.tanh) else None),
)


def _positive(u: sympy.Expr) -> bool:
    """u > 0, proved: a number by a certificate; an expression in symbols by SymPy's assumptions
    on them, once every constant SymPy could misjudge is opaque (see :func:`opaque_constants`)."""
    if u.is_number:
        return constant_sign(u) == 1
    opaque, _ = opaque_constants(u)
    return opaque.is_positive is True


def apply_identities(expr: sympy.Expr) -> tuple[sympy.Expr, tuple[str, ...]]:
    """``expr`` with every identity of :data:`_IDENTITIES` applied, and the names of those used."""
    used: list[str] = []

    def rewrite(node: sympy.Basic) -> sympy.Basic:
        if not node.args:
            return node
        node = node.func(*(rewrite(a) for a in node.args)) if isinstance(node, sympy.Expr) else node
        for name, func, rule in _IDENTITIES:
            if isinstance(node, func) and len(node.args) == 1:
                new = rule(node.args[0])
                if new is not None:
                    used.append(name)
                    return rewrite(new)
        definition = rewritten(node)  # the certificate's tree writes frac and Mod the same way
        if definition is not None:
            used.append("frac u = u − floor u, Mod(u, c) = u − c·floor(u/c)")
            return rewrite(definition)
        return node

    return rewrite(expr), tuple(dict.fromkeys(used))


def _identities_then_simplify(expr: sympy.Expr) -> tuple[sympy.Expr, str]:
    rewritten, used = apply_identities(expr)
    if not used:
        return expr, ""
    # expand_log without force splits log(x·y) only where SymPy's assumptions prove x, y > 0:
    # on an expression whose constants are opaque or plain, a logical consequence of the
    # symbols' assumptions and the certified signs, not an evalf
    return sympy.simplify(sympy.expand_log(rewritten, force=False)), f" ({'; '.join(used)})"


def _log_rules_then_simplify(expr: sympy.Expr) -> tuple[sympy.Expr, str]:
    expanded = sympy.expand_log(expr, force=False)
    if expanded == expr:
        return expr, ""
    return sympy.simplify(expanded), " (log(x·y) = log x + log y, with x, y > 0 proved)"


# Rewrites tried in order on the expression with its constants opaque (see the module's
# docstring); the first that yields exactly 0 is the proof.
_METHODS: tuple[tuple[str, Callable[[sympy.Expr], sympy.Expr]], ...] = (
    ("expand", sympy.expand),
    ("cancel", lambda e: sympy.cancel(sympy.together(e))),
    ("simplify", sympy.simplify),
    ("rewrite in exponentials, then simplify", lambda e: sympy.simplify(e.rewrite(sympy.exp))),
    ("expand trigonometric functions, then simplify", lambda e: sympy.simplify(sympy.expand_trig(e))),
)
#: rewrites whose name depends on the identities they used
_NAMED_METHODS: tuple[tuple[str, Callable[[sympy.Expr], tuple[sympy.Expr, str]]], ...] = (
    ("identities of real functions, then simplify", _identities_then_simplify),
    ("logarithm rules, then simplify", _log_rules_then_simplify),
)
#: the exact argument, tried first
EXACT_IDENTITY = "an identity of rational functions of independent atoms (exact)"


def prove_identically_zero(expr: sympy.Expr, var: sympy.Symbol, region: Region,
                           budget: Budget) -> str | None:
    """The name of the argument that reduced ``expr`` to 0 on ``region``, or None.

    A constant is 0 only by an exact proof (:func:`constant_sign`). Otherwise the exact
    identity of :func:`~symcheck.exact.zero_proof.generator_identity` is tried, then SymPy's
    rewrites on the expression with its constants opaque (:func:`opaque_constants`). On a
    half-line the variable is replaced by ``lower + t`` or ``upper - t`` with t > 0, so
    that SymPy may use the sign (e.g. Abs(z) = z for z > 0); the identity then holds for all
    t > 0, which covers the region.
    """
    if expr == 0:
        return "0 once the branches for this region are chosen"
    if var not in expr.free_symbols:
        with budget.step():
            return ZERO_CONSTANT if constant_sign(expr) == 0 else None
    with budget.step():
        if generator_identity_safe(expr):
            return EXACT_IDENTITY
    try:
        with budget.step():
            # opaque before the shift: substituting z = lower + t evaluates (Abs, √(u²)) on signs
            made, opaque = opaque_constants(expr)
            ends = tuple(end if end in (S.Infinity, S.NegativeInfinity) else opaque_constants(end)[0]
                         for end in (region.lower, region.upper))
    except BudgetExceeded:
        raise
    except Exception:  # a SymPy failure while making constants opaque proves nothing
        return None
    shifted, note = _positive_shift(made, var, region, ends)
    if opaque:
        note += f" (the constants {', '.join(opaque)} kept opaque, with their certified signs)"
    if shifted == 0:
        return "constants proved 0 by exact algebra" + note
    for name, method in _METHODS:
        try:
            with budget.step():
                if method(shifted) == 0:
                    return name + note
        except BudgetExceeded:
            raise
        except Exception:  # a SymPy failure inside one rewrite proves nothing either way
            continue
    for name, named in _NAMED_METHODS:
        try:
            with budget.step():
                result, used = named(shifted)
                if used and result == 0:
                    return name + used + note
        except BudgetExceeded:
            raise
        except Exception:
            continue
    return None


def _positive_shift(expr: sympy.Expr, var: sympy.Symbol, region: Region,
                    ends: tuple[sympy.Expr, sympy.Expr]) -> tuple[sympy.Expr, str]:
    """z = lower + t or upper − t, t > 0, with the end as made opaque (``ends``); the text names
    the end as written."""
    t = sympy.Symbol("t", positive=True)
    lower, upper = ends
    if region.lower != -S.Infinity and region.upper == S.Infinity:
        return expr.subs(var, lower + t), f" (with {var} = {sympy.sstr(region.lower + t)}, t > 0)"
    if region.upper != S.Infinity and region.lower == -S.Infinity:
        return expr.subs(var, upper - t), f" (with {var} = {sympy.sstr(region.upper - t)}, t > 0)"
    return expr, ""


# --------------------------------------------------------------------------- opaque constants


def plain(number: sympy.Expr) -> bool:
    """A number whose sign SymPy's assumptions read off its structure, never from ``evalf``:
    a rational (or a Float, an exact binary value), π, e, e^p with p plain, log q with q > 0 rational,
    q^r with q > 0 rational and r rational, and products of these. No sum: cancellation is
    what low-precision evaluation gets wrong."""
    if number.is_Rational or number.is_Float or number is S.Pi or number is S.Exp1:
        return True
    if isinstance(number, sympy.Mul):
        return all(plain(arg) for arg in number.args)
    if isinstance(number, sympy.Pow):
        base, exponent = number.args
        if not exponent.is_Rational:
            return False
        if exponent.is_Integer:
            return plain(base)
        return (base.is_Rational and base > 0) or base is S.Pi or base is S.Exp1
    if isinstance(number, sympy.exp):  # e^(qπ) too: log(e^π·|z|) is π + log|z| only if e^π stays visible
        return plain(number.args[0])
    if isinstance(number, sympy.log):
        return number.args[0].is_Rational and number.args[0] > 0
    return False


def opaque_constants(expr: sympy.Expr) -> tuple[sympy.Expr, tuple[str, ...]]:
    """``expr`` with every constant that is not :func:`plain` replaced by a symbol whose only
    assumption is its sign, certified by :func:`constant_sign` (a constant proved 0 becomes 0;
    one undecided becomes a symbol with no assumption at all, not even real). The numeric terms
    of a sum are one constant. Equal constants share a symbol; the names of those made opaque
    are returned for the proof's text.

    An identity SymPy proves of the result holds for every value of the symbols with those
    signs, so for the constants themselves.
    """
    names: dict[sympy.Expr, sympy.Expr] = {}

    def opaque(number: sympy.Expr) -> sympy.Expr:
        if plain(number):
            return number
        if number not in names:
            names[number] = _opaque(number)
        return names[number]

    def walk(node: sympy.Basic) -> sympy.Basic:
        if not node.args:
            return node
        if isinstance(node, sympy.Expr) and node.is_number:
            return opaque(node)
        if isinstance(node, sympy.Add):
            numeric = [a for a in node.args if a.is_number]
            rest = [walk(a) for a in node.args if not a.is_number]
            if len(numeric) > 1:
                with sympy.evaluate(False):
                    together = sympy.Add(*numeric)
                return sympy.Add(opaque(together), *rest)
            return sympy.Add(*(walk(a) for a in node.args))
        return node.func(*(walk(a) for a in node.args))

    result = walk(expr)
    shown = tuple(sympy.sstr(c) for c, v in names.items() if isinstance(v, sympy.Dummy))
    return result, shown


@lru_cache(maxsize=4096)
def _opaque(number: sympy.Expr) -> sympy.Expr:
    """What a constant that is not plain becomes: SymPy's ``simplify`` proposes a plain form,
    kept only when the difference is proved 0 by exact algebra (cos²1 + sin²1 is 1); else a
    symbol with the certified sign (0 when the constant itself is proved 0)."""
    # an identity of the table at a number (atanh(tanh(1/2)) is 1/2; 1 + atan(sinh 1) − asin(tanh 1)
    # is 1), not SymPy's proposal: rebuilding atanh(1/2's tanh) evaluates it, so the top node first
    for _, func, rule in _IDENTITIES:
        identity = rule(number.args[0]) if isinstance(number, func) and len(number.args) == 1 else None
        if identity is not None and plain(identity):
            return identity
    identity, used = apply_identities(number)
    if used and plain(identity):
        return identity
    try:
        proposed = sympy.simplify(number)
    except Exception:  # a proposal that fails proposes nothing
        proposed = None
    if proposed is not None and proposed != number and isinstance(proposed, sympy.Expr) \
            and proposed.is_number and plain(proposed) and constant_sign(number - proposed) == 0:
        return proposed
    sign = constant_sign(number)
    if sign == 0:
        return S.Zero
    return sympy.Dummy("k", positive=True) if sign == 1 else sympy.Dummy("k", negative=True) if sign == -1 \
        else sympy.Dummy("k")
