"""Every verdict the paper states, for both forms and all four columns."""
from __future__ import annotations

import pytest

import symcheck as sc

from support import paper_claims

COLUMNS = {"exchange": None, "positive": "positive", "minus-one": -1, "any": "any"}
CASES = [(c["act"], c["form"], column, c[column]) for c in paper_claims() for column in COLUMNS]


@pytest.mark.parametrize("act, form, column, expected", CASES,
                         ids=[f"{a}-{f}-{c}" for a, f, c, _ in CASES])
def test_paper_verdict(act: str, form: str, column: str, expected: str) -> None:
    if column == "exchange":
        result = sc.check_exchange(act, form=form)
    else:
        result = sc.check_inverse_scaling(act, alpha=COLUMNS[column], form=form)
    assert result.verdict.value == expected, str(result)
    if expected == "broken":
        assert result.witness, "a broken verdict needs a witness"
        assert all(v.is_Rational for v in result.witness.values())
    else:
        assert result.witness is None
