"""The kernel knows six sign claims (pos, neg, zero, nonneg, nonpos, nonzero) and refuses every
other value a certificate may carry there — a list or an object too, as a refusal and not a
TypeError, and the names of its sign arguments ("point", "roots", …), which sit beside the claim
in the same JSON object and are the likeliest to be confused with one."""
from __future__ import annotations

import pytest

from symcheck.kernel.signs import ARGUMENTS, CLAIMS, prove_sign
from symcheck.kernel.verdict import Reject

#: claim → (a number with that sign, one without)
SIGNS = {"pos": (1, 0), "neg": (-1, 0), "zero": (0, 1), "nonneg": (0, -1), "nonpos": (0, 1), "nonzero": (-1, 0)}


def test_the_claims_are_the_six_signs() -> None:
    assert CLAIMS == {"pos": {1}, "neg": {-1}, "zero": {0}, "nonneg": {0, 1}, "nonpos": {-1, 0}, "nonzero": {-1, 1}}


@pytest.mark.parametrize("claim", [*ARGUMENTS, "positive", "POS", "", None, 1, ["pos"], "nonnegative"], ids=str)
def test_any_other_claim_is_refused(claim) -> None:
    for value in (1, 0, -1):
        with pytest.raises(Reject, match="unknown sign claim"):
            prove_sign(("int", value), claim, {})


@pytest.mark.parametrize("claim, values", SIGNS.items())
def test_each_claim_is_proved_of_a_number_with_that_sign(claim, values) -> None:
    value, wrong = values
    assert prove_sign(("int", value), claim, {}) in ARGUMENTS
    with pytest.raises(Reject):
        prove_sign(("int", wrong), claim, {})
