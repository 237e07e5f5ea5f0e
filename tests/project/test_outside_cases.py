"""scripts/outside_cases.py cannot rot: a few of its cases, one per kind, run through its own
classifier; a truth stated wrongly is caught by its mpmath re-check, and a verdict against the
truth is classified ``wrong`` (the classifier is what the issue's "none wrong" is measured by).
"""
from __future__ import annotations

import dataclasses

import pytest

SUBSET = ("z*erf(a*z) odd", "1/(1.4 + sin + cos) undefined", "asin(tanh) odd", "floor scaling",
          "exp(z) group", "callable t tanh t", "1/(2.5 + sin z + sin √2 z)")


@pytest.fixture(scope="module")
def outside(outside_cases):
    return outside_cases


def _case(outside, name):
    (case,) = [c for c in outside.CASES if c.name == name]
    return case


def test_the_corpus_is_large_and_its_names_unique(outside):
    names = [c.name for c in outside.CASES]
    assert len(names) == len(set(names))
    assert sum(c.source == "outside" for c in outside.CASES) >= 80
    assert {c.kind for c in outside.CASES} >= {"family", "defined", "function", "group", "callable"}


@pytest.mark.parametrize("name", SUBSET)
def test_a_case_is_true_by_mpmath_and_decided_right(outside, name):
    case = _case(outside, name)
    assert outside.truth_problem(case) is None
    outcome = outside.classify(case)
    assert outcome.outcome == "right", outcome


@pytest.mark.parametrize("name, flipped", [("asin(tanh) odd", "broken"), ("floor scaling", "holds"),
                                           ("1/(2.5 + sin z + sin √2 z)", "undefined")])
def test_a_wrong_truth_is_caught_by_mpmath_and_the_verdict_classified_wrong(outside, name, flipped):
    case = dataclasses.replace(_case(outside, name), truth=flipped, bad={"z": "0"})
    assert outside.truth_problem(case) is not None
    assert outside.classify(case).outcome == "wrong"


def test_a_group_answer_against_the_truth_is_wrong(outside):
    case = _case(outside, "exp(z) group")
    flipped = dataclasses.replace(case, probes=tuple((a, c, not m) for a, c, m in case.probes))
    assert outside.truth_problem(flipped) is not None
    assert outside.classify(flipped).outcome == "wrong"


def test_a_defined_sigma_that_is_refused_counts_as_refused(outside):
    case = dataclasses.replace(_case(outside, "asin(tanh) odd"), act="acos(z)")
    assert outside.classify(case).outcome == "refused"


def test_the_tally_and_the_table(outside):
    rows = [outside.Outcome("x", "group", "outside", "group", "complete", kind, "", 0.0)
            for kind in ("right", "right", "right", "wrong")]
    t = outside.tally(rows)
    assert (t["total"], t["right"], t["wrong"], t["right_percent"]) == (4, 3, 1, 75.0)
    assert "wrong" in outside._table(rows)
