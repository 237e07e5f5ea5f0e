"""The last check before a proof is reported: a bounded, certified search for a counterexample.

A ``holds`` rests on a chain of arguments (cut points proved complete, rewrites that preserve
equality, branch choices decided by certified signs). If any link were wrong, the statement
would still be false somewhere, and a false statement almost always shows itself at a simple
point near a branch point. Before a proof is reported, :func:`counterexample` samples the
statement where it is most likely to break — each branch condition's roots on a bounded
window and their neighbourhoods, a grid that visits every branch, and wide scales — and
certifies what it finds (exact or ball arithmetic, :func:`~symcheck.exact.evaluate.certify_nonzero`).
A certified counterexample withdraws the proof: the statement is ``broken`` after all. This
never *adds* confidence to a proof: it only catches a wrong one.

Every withdrawal is recorded in :data:`WITHDRAWN`, so a test suite can fail on any of them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sympy

from symcheck.core.budget import Budget, BudgetExceeded
from symcheck.core.errors import EvaluationError
from symcheck.exact.evaluate import Certificate
from symcheck.exact.regions import Region

__all__ = ["Counterexample", "counterexample", "WITHDRAWN", "GUARD_SHARE", "GUARD_SAMPLES"]

#: the guard's share of the time left in the check's budget
GUARD_SHARE = 0.1
#: the least time the guard gets, so that a fast proof is still guarded (seconds)
GUARD_FLOOR = 0.5
#: points sampled (float64, vectorised) and re-evaluated at high precision
GUARD_SAMPLES = 200
GUARD_HIGH_PRECISION = 4


@dataclass(frozen=True)
class Counterexample:
    """A certified point where the statement the proof claimed fails."""

    point: Mapping[sympy.Symbol, sympy.Rational]
    certificate: Certificate
    statement: str


#: every proof withdrawn in this process (a test suite fails on any it did not expect)
WITHDRAWN: list[Counterexample] = []


def counterexample(difference: sympy.Expr, space: Mapping[sympy.Symbol, Sequence[Region]],
                   budget: Budget, *, elapsed: float = 0.0) -> Counterexample | None:
    """A certified point of ``space`` where ``difference`` ≠ 0, or None (nothing found).

    Runs under its own share of the budget (about a tenth of the check's time so far, at
    least :data:`GUARD_FLOOR` seconds, never past the check's deadline).
    """
    seconds = min(budget.remaining(), max(GUARD_FLOOR, GUARD_SHARE * elapsed))
    if seconds <= 0:
        return None
    own = Budget(seconds)
    try:
        from symcheck.engine.fallback import numeric_witness  # NumPy: only when a proof is guarded
        found = numeric_witness(difference, list(space), dict(space), samples=GUARD_SAMPLES,
                                high_precision_points=GUARD_HIGH_PRECISION, certify=3,
                                max_prec=1024, budget=own)
    except (BudgetExceeded, EvaluationError):
        return None
    if found.witness is None or found.certificate is None:
        return None
    example = Counterexample(dict(found.witness), found.certificate, str(difference))
    WITHDRAWN.append(example)
    return example
