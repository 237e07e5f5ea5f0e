"""Hand-built certificates of real proofs, for the kernel's tests (docs/certificates.md).

Every step's ``after`` is computed here with plain list surgery from the rule's pattern as
written in the docs; the kernel recomputes it on its own and compares.
"""
from __future__ import annotations

import copy
import json

SCHEMA = "symcheck.certificate/1"
Z, A = ["var", "z"], ["var", "a"]


def I(n):  # noqa: E743
    return ["int", n]


def add(*xs):
    return ["add", *xs]


def mul(*xs):
    return ["mul", *xs]


def neg(x):
    return mul(I(-1), x)


def pw(*pairs):
    return ["piecewise", *[list(p) for p in pairs]]


def put(tree, path, new):
    """``tree`` with the sub-tree at ``path`` replaced (a deep copy)."""
    tree = json.loads(json.dumps(tree))  # no shared sub-lists
    if not path:
        return new
    node = tree
    for i in path[:-1]:
        node = node[i]
    node[path[-1]] = new
    return tree


def leaves(node, path=()):
    """(path, leaf) for every leaf of a proof (a split's pieces walked in order)."""
    if "pieces" in node:
        for i, piece in enumerate(node["pieces"]):
            yield from leaves(piece, path + ("pieces", i))
    elif "steps" in node:
        yield path, node


def proof_at(cert, path):
    """The proof node at a path from :func:`leaves`."""
    node = cert["proof"]
    for key in path:
        node = node[key]
    return node


def numbers(tree, path=()):
    """Paths of the int/rat leaves of an expression (not an integer exponent, which no step rewrites)."""
    if isinstance(tree, list) and tree and tree[0] in ("int", "rat"):
        yield path
        return
    if isinstance(tree, list):
        for i, sub in enumerate(tree):
            if i == 2 and tree[0] == "pow" and isinstance(sub, list) and sub[:1] == ["int"]:
                continue
            if isinstance(sub, list):
                yield from numbers(sub, path + (i,))


def at(tree, path):
    for i in path:
        tree = tree[i]
    return tree


class Chain:
    """Steps built one at a time: each records the whole expression after it."""

    def __init__(self, expr):
        self.expr = copy.deepcopy(expr)
        self.steps = []

    def step(self, rule, path, new, **extra):
        self.expr = put(self.expr, path, new)
        self.steps.append({"rule": rule, "at": list(path), "after": copy.deepcopy(self.expr), **extra})
        return self

    def branch(self, path, take):
        return self.step("branch", path, copy.deepcopy(at(self.expr, path)[take + 1][0]), take=take)


def leaf(chain: Chain, region=None, facts=(), end="normal-form"):
    out = {"steps": chain.steps, "end": end}
    if facts:
        out["facts"] = list(facts)
    if region is not None:
        out["region"] = region
    return out


# ------------------------------------------------------------ SiLU, rank-1 exchange: σ(ab) = σ(ba)

def silu(x):
    return mul(x, ["pow", add(I(1), ["exp", neg(x)]), I(-1)])


def silu_rank1_exchange():
    expr = add(silu(mul(A, ["var", "b"])), neg(silu(mul(["var", "b"], A))))
    return {"schema": SCHEMA,
            "about": {"statement": "exchange, rank1 form, σ = silu"},
            "claim": {"kind": "zero", "expr": expr, "vars": {"a": [], "b": []}},
            "proof": {"steps": [], "end": "normal-form"}}


# ------------------------------------------------------------ relu, inverse scaling for α > 0

RELU = pw((Z, ["gt", Z, I(0)]), (I(0), ["true"]))
ROOT2 = ["root", [-2, 0, 1], [I(1), I(2)]]
MINUS_ROOT2 = ["root", [-2, 0, 1], [I(-2), I(-1)]]


def relu_member_expr():
    # what the kernel builds from the member claim: σ(a·z) + (−1)·c·σ(z)
    scaled = pw((mul(A, Z), ["gt", mul(A, Z), I(0)]), (I(0), ["true"]))
    return add(scaled, mul(I(-1), A, RELU))


def relu_scaling_positive():
    expr = relu_member_expr()
    pieces = []
    for region, take in ((["open", "-inf", I(0)], 1), (["point", I(0)], 1), (["open", I(0), "inf"], 0)):
        chain = Chain(expr).branch([1], take).branch([2, 3], take)
        pieces.append(leaf(chain, region))
    return {"schema": SCHEMA,
            "about": {"statement": "inverse scaling, gated form, σ = relu, α > 0"},
            "claim": {"kind": "zero", "member": {"sigma": RELU, "a": A, "c": A},
                      "vars": {"z": [], "a": [["open", I(0), "inf"]]}},
            "proof": {"var": "z", "pieces": pieces}}


# ------------------------------------------------------------ tanh(−z) = −tanh(z), through exp

def tanh_exp(x):
    e2x = ["exp", mul(I(2), x)]
    return mul(add(e2x, I(-1)), ["pow", add(e2x, I(1)), I(-1)])


def tanh_odd_by_exp():
    expr = add(["tanh", neg(Z)], mul(I(-1), I(-1), ["tanh", Z]))
    c = Chain(expr)
    c.step("tanh_exp", [1], tanh_exp(neg(Z)))
    c.step("tanh_exp", [2, 3], tanh_exp(Z))
    for base in ([1, 1, 1], [1, 2, 1, 1]):          # the two exp(2·(−z)) of tanh(−z)
        c.step("ring", base + [1], mul(I(-2), Z))
        c.step("exp_int", base, ["pow", ["exp", Z], I(-2)])
    for base in ([2, 3, 1, 1], [2, 3, 2, 1, 1]):    # the two exp(2·z) of tanh(z)
        c.step("exp_int", base, ["pow", ["exp", Z], I(2)])
    return {"schema": SCHEMA,
            "about": {"statement": "inverse scaling, α = −1, σ = tanh"},
            "claim": {"kind": "zero", "member": {"sigma": ["tanh", Z], "a": I(-1), "c": I(-1)},
                      "vars": {"z": []}},
            "proof": {"var": "z", "pieces": [leaf(c, ["open", "-inf", "inf"])]}}


# ------------------------------------------------------------ a cut at the roots of z² − 2

G = add(["pow", Z, I(2)], I(-2))


def abs_cut_at_root2():
    """piecewise(|z²−2| − (z²−2) if z² > 2, |z²−2| + (z²−2) otherwise) ≡ 0: cut at ±√2."""
    expr = pw((add(["abs", G], neg(G)), ["gt", ["pow", Z, I(2)], I(2)]),
              (add(["abs", G], G), ["true"]))
    ends = ["-inf", MINUS_ROOT2, ROOT2, "inf"]
    outer = [True, False, True]  # z² > 2 on the outer intervals
    pieces = []
    for i in range(3):
        take = 0 if outer[i] else 1
        chain = Chain(expr).branch([], take)
        chain.step("abs_nonneg" if outer[i] else "abs_nonpos", [1], G if outer[i] else neg(G))
        pieces.append(leaf(chain, ["open", ends[i], ends[i + 1]]))
        if i < 2:  # the point ±√2: z² > 2 is false, |0| = 0
            chain = Chain(expr).branch([], 1).step("abs_nonpos", [1], neg(G))
            pieces.append(leaf(chain, ["point", ends[i + 1]]))
    return {"schema": SCHEMA,
            "claim": {"kind": "zero", "expr": expr, "vars": {"z": []}},
            "proof": {"var": "z", "pieces": pieces}}


# ------------------------------------------------------------ log(xy) split where x, y > 0

def log_split_on_domain():
    x, y = add(Z, I(3)), add(Z, I(5))
    expr = add(["log", mul(x, y)], neg(["log", x]), neg(["log", y]))
    chain = Chain(expr).step("log_mul", [1], add(["log", x], ["log", y]))
    return {"schema": SCHEMA,
            "claim": {"kind": "zero", "expr": expr, "vars": {"z": [["open", I(-3), "inf"]]}},
            "proof": leaf(chain)}


def log_split_outside():
    """The same on z ∈ (−3, 0) ∪ (0, ∞): the split's pieces left of −3 lie outside the domain."""
    cert = log_split_on_domain()
    cert["claim"]["vars"]["z"] = [["open", I(-3), I(0)], ["open", I(0), "inf"]]
    proof = cert["proof"]
    cert["proof"] = {"var": "z", "pieces": [
        {"region": ["open", "-inf", I(-3)], "outside": True},
        {"region": ["point", I(-3)], "outside": True},
        {**proof, "region": ["open", I(-3), I(0)]},
        {**proof, "region": ["point", I(0)]},
        {**proof, "region": ["open", I(0), "inf"]}]}
    return cert


# ------------------------------------------------------------ a broken statement: silu is not odd

def silu_not_odd_witness():
    return {"schema": SCHEMA,
            "claim": {"kind": "nonzero", "member": {"sigma": silu(Z), "a": I(-1), "c": I(-1)},
                      "vars": {"z": []}},
            "witness": {"point": {"z": I(1)}, "sign": "pos"}}


# ------------------------------------------------------------ cos 2z + 2 sin²z − 1 = 0: cos_add, sin² + cos² = 1

def sq(x):
    return ["pow", x, I(2)]


def double_angle():
    expr = add(["cos", mul(I(2), Z)], mul(I(2), sq(["sin", Z])), I(-1))
    chain = Chain(expr).step("ring", [1, 1], add(Z, Z))
    chain.step("cos_add", [1], add(mul(["cos", Z], ["cos", Z]), neg(mul(["sin", Z], ["sin", Z]))))
    return {"schema": SCHEMA,
            "claim": {"kind": "zero", "expr": expr, "vars": {"z": []}},
            "proof": leaf(chain)}   # the end reduces sin(z)² to 1 − cos(z)²


# ------------------------------------------------------------ √|a·z| = √|a|·√|z| for a < 0: pow_mul_nonneg, pow_zero

HALF = ["rat", 1, 2]


def sqrt_abs_member():
    sigma = ["pow", ["abs", Z], HALF]
    c = ["pow", ["abs", A], HALF]
    expr = add(["pow", ["abs", mul(A, Z)], HALF], mul(I(-1), c, sigma))   # as the kernel builds it
    pieces = []
    for region in (["open", "-inf", I(0)], ["point", I(0)], ["open", I(0), "inf"]):
        chain = Chain(expr)
        if region[0] == "point":
            chain.step("subst", [1, 1, 1, 2], I(0)).step("subst", [2, 3, 1, 1], I(0))
            chain.step("abs_nonneg", [1, 1], mul(A, I(0))).step("ring", [1, 1], I(0))
            chain.step("pow_zero", [1], I(0))
            chain.step("abs_nonneg", [2, 3, 1], I(0)).step("pow_zero", [2, 3], I(0))
        else:
            below = region[1] == "-inf"   # z < 0: a·z > 0
            chain.step("abs_nonneg" if below else "abs_nonpos", [1, 1], mul(A, Z) if below else neg(mul(A, Z)))
            chain.step("ring", [1, 1], mul(neg(A), neg(Z) if below else Z))
            chain.step("pow_mul_nonneg", [1], mul(["pow", neg(A), HALF], ["pow", neg(Z) if below else Z, HALF]))
            chain.step("abs_nonpos", [2, 2, 1], neg(A))
            chain.step("abs_nonpos" if below else "abs_nonneg", [2, 3, 1], neg(Z) if below else Z)
        pieces.append(leaf(chain, region))
    return {"schema": SCHEMA,
            "claim": {"kind": "zero", "member": {"sigma": sigma, "a": A, "c": c},
                      "vars": {"z": [], "a": [["open", "-inf", I(0)]]}},
            "proof": {"var": "z", "pieces": pieces}}


# ------------------------------------------------------------ cos(2π·log₂(2z)) = cos(2π·log₂ z) for z > 0

PI = ["const", "pi"]
INV_LOG2 = ["pow", ["log", I(2)], I(-1)]


def log_periodic_argument():
    u = mul(I(2), PI, INV_LOG2, ["log", Z])
    expr = add(["cos", mul(I(2), PI, INV_LOG2, ["log", mul(I(2), Z)])], neg(["cos", u]))
    chain = Chain(expr).step("log_mul", [1, 1, 4], add(["log", I(2)], ["log", Z]))
    # 2π·(log 2 + log z)/log 2 = 2π + 2π·log z/log 2: a ring step with log 2 ≠ 0 proved
    chain.step("ring", [1, 1], add(mul(I(2), PI), u))
    chain.step("cos_add", [1], add(mul(["cos", mul(I(2), PI)], ["cos", u]),
                                   neg(mul(["sin", mul(I(2), PI)], ["sin", u]))))
    chain.step("cos_pi", [1, 1, 1], ["pow", I(-1), I(2)])
    chain.step("sin_pi", [1, 2, 2, 1], I(0))
    return {"schema": SCHEMA,
            "claim": {"kind": "zero", "expr": expr, "vars": {"z": [["open", I(0), "inf"]]}},
            "proof": leaf(chain)}


ACCEPTED = {
    "double_angle": double_angle,
    "sqrt_abs_member": sqrt_abs_member,
    "log_periodic_argument": log_periodic_argument,
    "silu_rank1_exchange": silu_rank1_exchange,
    "relu_scaling_positive": relu_scaling_positive,
    "tanh_odd_by_exp": tanh_odd_by_exp,
    "abs_cut_at_root2": abs_cut_at_root2,
    "log_split_on_domain": log_split_on_domain,
    "log_split_outside": log_split_outside,
    "silu_not_odd_witness": silu_not_odd_witness,
}


def rejected_for(cert: dict, *words: str) -> str:
    """The kernel's reason for rejecting ``cert``, which must name each of ``words`` (reason or place)."""
    from symcheck.kernel.check import check

    verdict = check(cert)
    assert not verdict.accepted, "the kernel accepted a certificate it must reject"
    for word in words:
        assert word in verdict.reason + verdict.where, str(verdict)
    return verdict.reason


def emitted_and_accepted(expr, variable) -> None:
    """The emitter certifies ``expr`` = 0 over all real ``variable``, and the kernel accepts the
    certificate after a JSON round trip (what a user's file would carry)."""
    from symcheck.engine.certificate.emit import Certificate, certify_zero
    from symcheck.kernel.check import check

    outcome = certify_zero(expr, {variable: ()})
    assert isinstance(outcome, Certificate), str(outcome)
    verdict = check(json.loads(json.dumps(outcome.data)))
    assert verdict.accepted, str(verdict)
