"""Every condition a ``branch`` step or an ``alternatives`` close relies on is re-proved
(docs/certificates.md, "Leaves"), and the index taken is one of the piecewise's branches.

- ``branch`` taking k: conditions 0…k−1 proved false on the piece and condition k proved true,
  all of them, not only the first one;
- ``alternatives`` taking [k0 < … < K]: every condition below K not taken proved false and
  condition K true, also when condition 0 is one of the taken ones;
- a ``take`` one past the last branch is refused by the index check itself ("take must …"),
  before any condition is looked at, and check() returns that rejection.

Each false certificate below claims zero for a piecewise that is not 0 on the piece: accepted,
it would be a false ``holds``. Conditions are z > t / z < t on open intervals with integer
ends, whose truth on the whole interval is decided exactly here; every value is an integer.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.check import check

from support.kernel_certificates import SCHEMA, Chain, I, Z, leaf, pw

TRUE = ["true"]


def _zero_claim(expr, proof, lo, hi):
    return {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"z": [["open", lo, hi]]}},
            "proof": proof}


ZERO_END, ONE_END = I(0), I(1)


def _branch_cert(expr, take, lo=ZERO_END, hi=ONE_END):
    return _zero_claim(expr, leaf(Chain(expr).branch([], take)), lo, hi)


def _alternatives_cert(expr, take, lo=ZERO_END, hi=ONE_END):
    proofs = [{"steps": [], "end": "normal-form"} for _ in take]
    return _zero_claim(expr, {"steps": [], "alternatives": {"at": [], "take": list(take), "proofs": proofs}},
                       lo, hi)


# ------------------------------------------------------------ branch: the taken condition and every earlier one

def test_branch_1_needs_its_own_condition_true():
    """piecewise(0 if z < −5, 0 if z > 5, 1) is 1 on (0, 1): z < −5 is false there, but z > 5 is
    not true, so branch 1 (value 0) may not be taken."""
    expr = pw([I(0), ["lt", Z, I(-5)]], [I(0), ["gt", Z, I(5)]], [I(1), TRUE])
    verdict = check(_branch_cert(expr, 1))
    assert not verdict.accepted
    assert "condition[1]" in verdict.where, verdict
    # the same step on z > 6, where z > 5 holds: accepted
    assert check(_branch_cert(expr, 1, I(6), "inf")).accepted


def test_branch_2_needs_every_earlier_condition_false():
    """piecewise(1 if z < −5, 1 if z > 0, 0) is 1 on (0, 1): branch 2 needs z > 0 false there."""
    expr = pw([I(1), ["lt", Z, I(-5)]], [I(1), ["gt", Z, I(0)]], [I(0), TRUE])
    verdict = check(_branch_cert(expr, 2))
    assert not verdict.accepted
    assert "condition[1]" in verdict.where, verdict
    # on (−5, 0) both earlier conditions are false and the expression is 0: accepted
    assert check(_branch_cert(expr, 2, I(-5), I(0))).accepted


def _truth(rel: str, t: int, lo: int, hi: int):
    """The truth of z rel t on the open interval (lo, hi): True, False, or None (both occur)."""
    if rel == "gt":
        return True if lo >= t else False if hi <= t else None
    return True if hi <= t else False if lo >= t else None


_REL = st.sampled_from(["gt", "lt"])
_T = st.integers(-3, 3)


@settings(max_examples=20, deadline=None)
@given(conds=st.lists(st.tuples(_REL, _T), min_size=1, max_size=3), last_true=st.booleans(),
       lo=st.integers(-3, 2), width=st.integers(1, 3), data=st.data())
def test_branch_is_accepted_exactly_when_its_conditions_hold(conds, last_true, lo, width, data):
    """Every value is 0, so the end always closes: the step is accepted exactly when conditions
    0…k−1 are false and condition k true on the whole interval."""
    hi = lo + width
    pairs = [[I(0), [rel, Z, I(t)]] for rel, t in conds] + ([[I(0), TRUE]] if last_true else [])
    take = data.draw(st.integers(0, len(pairs) - 1))
    truths = [_truth(rel, t, lo, hi) for rel, t in conds] + [True]
    valid = all(x is False for x in truths[:take]) and truths[take] is True
    verdict = check(_branch_cert(pw(*pairs), take, I(lo), I(hi)))
    assert verdict.accepted == valid, (pairs, take, lo, hi, verdict)


# ------------------------------------------------------------ alternatives: every condition up to the last taken

def test_alternatives_0_1_needs_condition_1_true():
    """piecewise(0 if z > 5, 0 if z > 6, 1) is 1 on (0, 1): taking [0, 1] says the value is
    branch 0's or branch 1's, which needs z > 6 true on the piece; it is not."""
    expr = pw([I(0), ["gt", Z, I(5)]], [I(0), ["gt", Z, I(6)]], [I(1), TRUE])
    verdict = check(_alternatives_cert(expr, [0, 1]))
    assert not verdict.accepted
    assert "condition[1]" in verdict.where, verdict
    # with z > −1 (true on (0, 1)) as condition 1 the alternatives are sound: accepted
    ok = pw([I(0), ["gt", Z, I(5)]], [I(0), ["gt", Z, I(-1)]], [I(1), TRUE])
    assert check(_alternatives_cert(ok, [0, 1])).accepted


def test_alternatives_1_needs_its_condition_true():
    """piecewise(1 if z < −5, 0 if z > 5, 1) is 1 on (0, 1): taking [1] needs z > 5 true."""
    expr = pw([I(1), ["lt", Z, I(-5)]], [I(0), ["gt", Z, I(5)]], [I(1), TRUE])
    verdict = check(_alternatives_cert(expr, [1]))
    assert not verdict.accepted
    assert "condition[1]" in verdict.where, verdict


def test_alternatives_0_2_needs_condition_1_false():
    """piecewise(0 if z > 5, 1 if z > 0, 0) is 1 on (0, 1): taking [0, 2] skips branch 1, which
    needs z > 0 false on the piece; it is true."""
    expr = pw([I(0), ["gt", Z, I(5)]], [I(1), ["gt", Z, I(0)]], [I(0), TRUE])
    verdict = check(_alternatives_cert(expr, [0, 2]))
    assert not verdict.accepted
    assert "condition[1]" in verdict.where, verdict


@settings(max_examples=20, deadline=None)
@given(conds=st.lists(st.tuples(_REL, _T), min_size=1, max_size=3), last_true=st.booleans(),
       lo=st.integers(-3, 2), width=st.integers(1, 3), data=st.data())
def test_alternatives_are_accepted_exactly_when_their_conditions_hold(conds, last_true, lo, width, data):
    """Every value is 0: accepted exactly when each condition below the last taken one and not
    taken is false on the interval and the last taken one is true."""
    hi = lo + width
    pairs = [[I(0), [rel, Z, I(t)]] for rel, t in conds] + ([[I(0), TRUE]] if last_true else [])
    take = sorted(data.draw(st.sets(st.integers(0, len(pairs) - 1), min_size=1)))
    truths = [_truth(rel, t, lo, hi) for rel, t in conds] + [True]
    valid = all(truths[i] is False for i in range(take[-1]) if i not in take) and truths[take[-1]] is True
    verdict = check(_alternatives_cert(pw(*pairs), take, I(lo), I(hi)))
    assert verdict.accepted == valid, (pairs, take, lo, hi, verdict)


# ------------------------------------------------------------ take one past the last branch

#: piecewise(0 if z > 5): every condition false on (0, 1), so nothing but the index stops a take of 1
NO_DEFAULT = pw([I(0), ["gt", Z, I(5)]])
#: piecewise(0 if z > 5, 0): its last condition is true
WITH_DEFAULT = pw([I(0), ["gt", Z, I(5)]], [I(0), TRUE])


def test_branch_past_the_last_is_refused_by_the_index_check():
    for expr in (NO_DEFAULT, WITH_DEFAULT):
        n = len(expr) - 1
        cert = _branch_cert(expr, 0)
        step = cert["proof"]["steps"][0]
        step["take"] = n
        verdict = check(cert)
        assert not verdict.accepted
        assert verdict.reason == f"take must index one of the {n} branches", verdict
        assert verdict.where == "proof.steps[0]", verdict


def test_alternatives_past_the_last_are_refused_by_the_index_check():
    for expr in (NO_DEFAULT, WITH_DEFAULT):
        n = len(expr) - 1
        for take in ([n], [0, n]):
            verdict = check(_alternatives_cert(expr, take))
            assert not verdict.accepted
            assert verdict.reason == "take must list increasing branch indices, one proof for each", verdict
            assert verdict.where == "proof.alternatives", verdict
