"""A change of variables u = P·b is accepted only on a region of b whose ends are −∞, 0 or ∞: only
then is b's image under b ↦ P·b the same region for every value of P. On a ∈ (1, ∞) with b > 0
the image of u = b·a is (b, ∞), not (1, ∞): read as (1, ∞) it would prove the false claim
"0 if a·b > 1, else 1 is 0" (a = 2, b = 1/10 gives 1)."""
from __future__ import annotations

import pytest

from symcheck.kernel.check import check

from support.kernel_certificates import SCHEMA, I, mul, pw

AV, BV = ["var", "a"], ["var", "b"]


def forged(a_region: list) -> dict:
    expr = pw([I(0), ["gt", mul(AV, BV), I(1)]], [I(1), ["true"]])
    return {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr,
                                        "vars": {"a": [a_region], "b": [["open", I(0), "inf"]]}},
            "proof": {"change": {"var": "a", "to": "u", "factor": BV},
                      "proof": {"steps": [{"rule": "branch", "at": [], "take": 0, "after": I(0)}],
                                "end": "normal-form"}}}


@pytest.mark.parametrize("a_region", [["open", I(1), "inf"], ["open", ["rat", 1, 2], "inf"],
                                      ["open", I(0), I(3)], ["open", "-inf", I(-1)],
                                      # a point: its image under b ↦ P·b is the point P·b, not itself
                                      ["point", I(1)], ["point", ["rat", 1, 2]], ["point", I(-2)]])
def test_a_change_on_a_region_with_another_end_is_rejected(a_region) -> None:
    verdict = check(forged(a_region))
    assert not verdict.accepted
    assert "ends at −∞, 0 or ∞" in verdict.reason, verdict.reason
