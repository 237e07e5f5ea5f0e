"""The numeric evidence a decision reports, and the numeric fallback after an inconclusive proof.

Evidence is what was seen — points sampled, the largest |r| — never a verdict: the fallback's find
counts only once it is certified (:mod:`symcheck.engine.fallback` searches and certifies), and the
caller still certifies it on the original statement.
"""
from __future__ import annotations

import math
from typing import Any

import sympy

from symcheck.core.budget import Budget, BudgetExceeded
from symcheck.core.errors import EvaluationError

__all__ = ["fallback_witness", "magnitude", "numeric_evidence"]


def magnitude(value: str) -> float | None:
    """A largest |r| (a decimal string) as a JSON number; None where float64 cannot hold it
    (it would read as 0 or inf) — the evidence is what was seen, never rounded into a claim."""
    number = float(value)
    if not math.isfinite(number) or (number == 0.0 and not sympy.Float(value).is_zero):
        return None
    return number


def numeric_evidence(found: Any) -> dict:
    """The numeric evidence of a decision: points sampled, and the largest |r| (None: no points)."""
    return {"points": found.points, "largest": magnitude(found.largest) if found.points else None}


def fallback_witness(expr: sympy.Expr, domains: dict, budget: Budget, evidence: dict):
    """After an inconclusive proof: wide numeric sampling, then certification.

    Returns the certified find (or None) and the evidence merged in; a candidate that is not
    certified stays evidence, never a verdict.
    """
    from symcheck.engine.fallback import numeric_witness  # NumPy costs import time most checks never need
    try:
        found = numeric_witness(expr, list(domains), domains, budget=budget)
    except (BudgetExceeded, EvaluationError):
        return None, evidence
    sampled = found.evidence.to_dict()
    merged = {**evidence, "fallback": {**sampled, "largest": magnitude(sampled["largest"])}}
    certified = found.witness is not None and found.certificate is not None
    return (found if certified else None), merged
