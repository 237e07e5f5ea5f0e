"""A change of variables u = P·b must name a fresh u: neither a variable of the piece (an earlier
change's target) nor a declared variable (one an earlier change already substituted away).
Reusing a name would give u the region of one variable while the expression still reads it as
another; the kernel refuses before looking at the rest of the proof."""
from __future__ import annotations

import pytest

from symcheck.kernel.check import check

from support.kernel_certificates import SCHEMA, I, add, mul, neg

POS = [["open", I(0), "inf"]]
A, B, C = ["var", "a"], ["var", "b"], ["var", "c"]


def two_changes(second_to: str) -> dict:
    """a·b·c − a·b·c = 0 on a, b, c > 0, after a → u = b·a and then c → ``second_to`` = b·c."""
    expr = add(mul(A, B, C), neg(mul(A, B, C)))
    leaf = {"steps": [], "end": "normal-form"}
    return {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"a": POS, "b": POS, "c": POS}},
            "proof": {"change": {"var": "a", "to": "u", "factor": B},
                      "proof": {"change": {"var": "c", "to": second_to, "factor": B}, "proof": leaf}}}


def test_a_fresh_second_name_is_accepted() -> None:
    verdict = check(two_changes("w"))
    assert verdict.accepted, verdict.reason


@pytest.mark.parametrize("name", ["u",   # the first change's target: in the piece, not declared
                                  "a",   # declared, substituted away by the first change
                                  "b"])  # declared and still in the piece
def test_a_reused_name_is_rejected(name: str) -> None:
    verdict = check(two_changes(name))
    assert not verdict.accepted
    assert "must be a fresh identifier" in verdict.reason, verdict.reason
