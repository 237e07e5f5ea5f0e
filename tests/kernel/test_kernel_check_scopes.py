"""Four checks of the kernel, each over exactly the right set of names or the right interval:

* a member claim's σ may use the claim's declared parameters besides z (a family's σ, e.g.
  z·sigmoid(β·z)) — and nothing else;
* a change of variables b ↦ u = P·b needs P free of b itself ("a polynomial in the piece's
  *other* variables"): with b in P the map is no longer the stated bijection;
* in a ``complete`` certificate a candidate a₀ left by the ``taylor`` or ``breaks`` argument is
  settled by a listed member *or* by a refutation;
* the ``breaks`` argument's pieces are each analytic on their *own* open interval (cuts[i − 1],
  cuts[i]), later pieces included.

Hand-built certificates (docs/certificates.md); each is checked by the whole kernel.
"""
from __future__ import annotations

import copy

import pytest

from symcheck.kernel.check import check

from support.kernel_certificates import SCHEMA, Chain, I, Z, add, leaf, mul, pw
from support.kernel_certificates import rejected_for as rejected

T = ["var", "t"]
NF = {"steps": [], "end": "normal-form"}
BETA, GAMMA = ["var", "beta"], ["var", "gamma"]
POSITIVE = [["open", I(0), "inf"]]


def accepted(cert: dict) -> None:
    verdict = check(cert)
    assert verdict.accepted, str(verdict)


# ------------------------------------------------------------ a member of a family's σ


def sigmoid(x):
    return ["pow", add(I(1), ["exp", mul(I(-1), x)]), I(-1)]


# (σ with parameters, a, c, the parameters' ranges): σ(a·z) − c·σ(z) is 0 in normal form
PARAMETRIC_MEMBERS = [
    ("beta*z", mul(BETA, Z), ["var", "a"], ["var", "a"], {"beta": POSITIVE}),
    ("beta*z**3", mul(BETA, ["pow", Z, I(3)]), I(-2), I(-8), {"beta": [["open", "-inf", I(0)]]}),
    ("beta*z + gamma*z", add(mul(BETA, Z), mul(GAMMA, Z)), I(3), I(3), {"beta": POSITIVE, "gamma": POSITIVE}),
    ("z*sigmoid(beta*z), a = 1", mul(Z, sigmoid(mul(BETA, Z))), I(1), I(1), {"beta": POSITIVE}),
]


def substitute(tree, name, value):
    if tree == ["var", name]:
        return copy.deepcopy(value)
    return [substitute(x, name, value) if isinstance(x, list) else x for x in tree]


def parametric_member(sigma, a, c, ranges) -> dict:
    """The member claim and its proof: the normal form, after one ``ring`` step at each exp's
    argument (the normal form keeps exp(−β·(1·z)) and exp(−β·z) apart as atoms)."""
    vars_ = {"z": [], **ranges}
    if a == ["var", "a"]:
        vars_["a"] = []
    chain = Chain(add(substitute(sigma, "z", mul(a, Z)), mul(I(-1), c, sigma)))
    if sigma == mul(Z, sigmoid(mul(BETA, Z))):
        chain.step("ring", [1, 2, 1, 2, 1], mul(I(-1), BETA, Z))
        chain.step("ring", [2, 3, 2, 1, 2, 1], mul(I(-1), BETA, Z))
    return {"schema": SCHEMA,
            "claim": {"kind": "zero", "member": {"sigma": sigma, "a": a, "c": c}, "vars": vars_,
                      "params": {name: name for name in ranges}},
            "proof": leaf(chain)}


@pytest.mark.parametrize("what, sigma, a, c, ranges", PARAMETRIC_MEMBERS, ids=[m[0] for m in PARAMETRIC_MEMBERS])
def test_a_member_of_a_family_sigma_with_declared_parameters_is_accepted(what, sigma, a, c, ranges) -> None:
    """σ's parameters are declared (claim "params"): σ is in z and them, and the member is a proof."""
    accepted(parametric_member(sigma, a, c, ranges))


@pytest.mark.parametrize("what, sigma, a, c, ranges", PARAMETRIC_MEMBERS, ids=[m[0] for m in PARAMETRIC_MEMBERS])
def test_a_member_whose_sigma_has_an_undeclared_name_is_rejected(what, sigma, a, c, ranges) -> None:
    cert = parametric_member(sigma, a, c, ranges)
    del cert["claim"]["params"]  # the same names, now ordinary variables: σ is no longer in z alone
    rejected(cert, "σ must be in the variable z")
    cert = parametric_member(sigma, a, c, ranges)
    name = next(iter(ranges))
    cert["claim"]["params"] = {n: n for n in ranges if n != name}  # one parameter left undeclared
    if cert["claim"]["params"]:
        rejected(cert, "σ must be in the variable z")


# ------------------------------------------------------------ a change of variables whose factor holds b


def change_certificate(factor, region=POSITIVE) -> dict:
    """b − b = 0 for b in the region, through the change u = factor·b (then the normal form)."""
    b = ["var", "b"]
    return {"schema": SCHEMA,
            "claim": {"kind": "zero", "expr": add(b, mul(I(-1), b)), "vars": {"b": region, "a": POSITIVE}},
            "proof": {"change": {"var": "b", "to": "u", "factor": factor}, "proof": copy.deepcopy(NF)}}


def test_a_change_whose_factor_is_in_the_other_variables_is_accepted() -> None:
    accepted(change_certificate(["var", "a"]))
    accepted(change_certificate(add(["pow", ["var", "a"], I(2)], I(1)), [["open", "-inf", "inf"]]))


@pytest.mark.parametrize("factor", [
    ["var", "b"],                                            # u = b²
    add(["pow", ["var", "b"], I(2)], I(1)),                  # u = (b² + 1)·b, one strict sign everywhere
    mul(["var", "a"], ["var", "b"]),                         # u = a·b²
    add(["var", "a"], ["pow", ["var", "b"], I(4)]),          # u = (a + b⁴)·b
], ids=["b", "b^2+1", "a*b", "a+b^4"])
def test_a_change_whose_factor_mentions_the_changed_variable_is_rejected(factor) -> None:
    """The factor has a strict sign on the piece and the claim is true, yet b ↦ P(b)·b is not the
    change the kernel justifies (P must be in the piece's other variables): rejected."""
    rejected(change_certificate(factor), "the factor must be a polynomial in the piece's other variables")


# ------------------------------------------------------------ complete: a candidate settled by a refutation


def exp_complete() -> dict:
    """σ = exp: G = {(1, 1)} (e^(a·z) = c·e^z for every z forces a = 1). The germ is two-sided,
    orders 0 and 2 (each coefficient 1): a > 0 leaves a = 1, a < 0 the candidate a = −1 (laws
    c = b⁰ and c = b²), and −1 is not a member: σ(−0)·σ(1) − σ(−1)·σ(0) = e − 1/e > 0."""
    return {"schema": SCHEMA, "claim": {"kind": "complete", "sigma": ["exp", Z]},
            "nonzero": {"point": I(0), "sign": "pos"},
            "refuted": [{"a": I(-1), "at": [I(0), I(1)], "sign": "pos"}],
            "germ": {"q": 1, "two_sided": True, "r": I(1), "rho": I(1),
                     "plus": {"expr": ["exp", T], "proof": copy.deepcopy(NF)}, "orders": [0, 2]},
            "halves": {"pos": {"by": "taylor"}, "neg": {"by": "taylor"}}}


def breaks_sigma(f1, f2):
    """0 for z < −1, f1 on [−1, 2), f2 from 2 on."""
    return pw((I(0), ["lt", Z, I(-1)]), (f1, ["lt", Z, I(2)]), (f2, ["true"]))


def breaks_complete(f1, f2, order: int, refute_at: list, at: list = None, signs=("pos", "pos")) -> dict:
    """A ``breaks`` certificate of σ = :func:`breaks_sigma`: cuts −1 and 2, the pieces 0, f1, f2
    (each σ's branch on its interval), the jump at −1 of the given derivative order; both halves
    by ``breaks`` (candidates 1 and −1), −1 refuted at the two points."""
    sigma = breaks_sigma(f1, f2)
    pieces = [{"expr": f, "proof": leaf(Chain(add(sigma, mul(I(-1), f))).branch([1], i))}
              for i, f in enumerate((I(0), f1, f2))]
    return {"schema": SCHEMA, "claim": {"kind": "complete", "sigma": sigma},
            "nonzero": {"point": at or I(0), "sign": signs[0]},
            "refuted": [{"a": I(-1), "at": refute_at, "sign": signs[1]}],
            "halves": {"pos": {"by": "breaks"}, "neg": {"by": "breaks"}},
            "breaks": {"cuts": [I(-1), I(2)], "pieces": pieces,
                       "jump": {"cut": 0, "order": order, "around": [["rat", -3, 2], ["rat", -1, 2]]}}}


def log_breaks() -> dict:
    """σ = 0 (z < −1), z + 1 (−1 ≤ z < 2), log(z − 1) + 3 (z ≥ 2): analytic off the cuts, its
    first derivative jumps at −1; −1 refuted at (0, 1): σ(0)·σ(1) − σ(−1)·σ(0) = 1·2 − 0·1 = 2."""
    return breaks_complete(add(Z, I(1)), add(["log", add(Z, I(-1))], I(3)), 1, [I(0), I(1)])


@pytest.mark.parametrize("make", [exp_complete, log_breaks], ids=["taylor", "breaks"])
def test_a_candidate_settled_only_by_a_refutation_is_covered(make) -> None:
    """No member is listed at all: a = 1 is the identity, a = −1 is refuted. Accepted."""
    cert = make()
    assert "members" not in cert
    accepted(cert)


@pytest.mark.parametrize("make", [exp_complete, log_breaks], ids=["taylor", "breaks"])
def test_without_the_refutation_the_candidate_is_open(make) -> None:
    cert = make()
    del cert["refuted"]
    rejected(cert, "the candidate a = -1 is neither a listed member nor refuted")


# ------------------------------------------------------------ complete: a later piece not analytic on its own interval


def abs_shifted(s: int):
    """|z − s| written ((z − s)²)^(1/2): continuous, not analytic at s."""
    return ["pow", ["pow", add(Z, I(-s)), I(2)], ["rat", 1, 2]]


HALF = ["rat", 1, 2]


@pytest.mark.parametrize("s", [0, 1])
def test_a_later_piece_with_a_kink_inside_its_interval_is_rejected(s) -> None:
    """σ = 0 (z < −1), |z − s| on [−1, 2), z − s from 2 on: the piece on (−1, 2) has a kink at s,
    inside its own interval, so the ``breaks`` argument's "each piece analytic on its interval" is
    false there. Every other part is true: σ(1/2) > 0, σ jumps at −1 (by 1 + s, order 0) where
    the piece is analytic, and −1 is refuted at (1/2, 3): σ(−1/2)·σ(3) − σ(−3)·σ(1/2) =
    |1/2 + s|·(3 − s) > 0. Checked on any interval other than (−1, 2) — e.g. the empty (−1, −1),
    where z < 0 and so (z − s)² > 0 — the piece would pass."""
    cert = breaks_complete(abs_shifted(s), add(Z, I(-s)), 0, [HALF, I(3)], at=HALF)
    rejected(cert, "breaks.pieces[1]", "not proved on the piece")


def test_the_same_certificate_with_an_analytic_piece_is_accepted() -> None:
    """The control: the kinked piece replaced by its branch on (1, 2) — σ = z − 1 on [−1, 2) — is a
    certificate the kernel accepts: σ(1/2) = −1/2 < 0, σ(−1⁺) = −2 ≠ 0 = σ(−1⁻), and at (1/2, 3)
    σ(−1/2)·σ(3) − σ(−3)·σ(1/2) = (−3/2)·2 − 0 < 0."""
    accepted(breaks_complete(add(Z, I(-1)), add(Z, I(-1)), 0, [HALF, I(3)], at=HALF, signs=("neg", "neg")))
