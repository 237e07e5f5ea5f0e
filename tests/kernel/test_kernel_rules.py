"""The rules added for trigonometry, real powers and logarithms, and the two extensions of the
normal form (sin² + cos² = 1) and of the ring step (negative powers of bases proved non-zero):
each with an accepted instance and a rejected one where its side condition (or its pattern) fails."""
from __future__ import annotations

import copy

import pytest

from symcheck.kernel.check import check

from support.kernel_certificates import (
    HALF,
    PI,
    SCHEMA,
    A,
    Chain,
    I,
    Z,
    add,
    double_angle,
    leaf,
    log_periodic_argument,
    mul,
    neg,
    put,
    sq,
    sqrt_abs_member,
)


def cert(expr, chain, vars_=None):
    return {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": vars_ or {"z": []}},
            "proof": leaf(chain)}


def rejected(c, *words):
    verdict = check(c)
    assert not verdict.accepted, "accepted"
    text = f"{verdict.where}: {verdict.reason}"
    assert all(w in text for w in words), text


def one_step(expr, rule, path, new, vars_=None, **extra):
    return cert(expr, Chain(expr).step(rule, path, new, **extra), vars_)


# ------------------------------------------------------------ the normal form modulo sin² + cos² − 1

def test_the_pythagorean_identity_is_used_by_the_normal_form_for_the_same_argument_only():
    assert check(cert(add(mul(Z, sq(["sin", Z])), mul(Z, sq(["cos", Z])), neg(Z)), Chain(I(0)))).accepted
    # sin(2z)⁴ = (1 − cos(2z)²)²: a higher power, and the argument z + z equal to 2z up to canon
    expr = add(["pow", ["sin", add(Z, Z)], I(4)], neg(sq(add(I(1), neg(sq(["cos", mul(Z, I(2))]))))))
    assert not check(cert(expr, Chain(I(0)))).accepted     # z + z and 2·z: two arguments, no relation
    expr = add(["pow", ["sin", mul(I(2), Z)], I(4)], neg(sq(add(I(1), neg(sq(["cos", mul(Z, I(2))]))))))
    assert check(cert(expr, Chain(I(0)))).accepted
    rejected(cert(add(sq(["sin", Z]), sq(["cos", mul(I(2), Z)]), I(-1)), Chain(I(0))), "numerator is not 0")
    rejected(cert(add(sq(["sin", Z]), sq(["cos", Z]), I(-1), ["rat", 1, 10 ** 100]), Chain(I(0))),
             "numerator is not 0")
    rejected(cert(add(sq(["sinh", Z]), sq(["cos", Z]), I(-1)), Chain(I(0))), "numerator is not 0")


# ------------------------------------------------------------ sin_add, cos_add, n·π, 0

def test_addition_formulas_accept_their_instance_and_reject_a_wrong_sign():
    c = double_angle()
    assert check(c).accepted
    wrong = copy.deepcopy(c)
    wrong["proof"]["steps"][1]["after"] = put(wrong["proof"]["steps"][1]["after"], [1],
                                              add(mul(["cos", Z], ["cos", Z]), mul(["sin", Z], ["sin", Z])))
    rejected(wrong, "steps[1]", "not the result of cos_add")
    expr = add(["sin", add(Z, I(1))], neg(mul(["sin", Z], ["cos", I(1)])), neg(mul(["cos", Z], ["sin", I(1)])))
    assert check(one_step(expr, "sin_add", [1], add(mul(["sin", Z], ["cos", I(1)]),
                                                     mul(["cos", Z], ["sin", I(1)])))).accepted
    rejected(one_step(expr, "sin_add", [1], add(mul(["sin", Z], ["cos", I(1)]),
                                                 neg(mul(["cos", Z], ["sin", I(1)])))), "sin_add")


@pytest.mark.parametrize("n", [-3, 0, 1, 2, 7])
def test_sine_and_cosine_at_integer_multiples_of_pi(n):
    expr = add(["sin", mul(I(n), PI)], ["cos", mul(I(n), PI)], I(-1 if n % 2 == 0 else 1))
    chain = Chain(expr).step("sin_pi", [1], I(0)).step("cos_pi", [2], ["pow", I(-1), I(n)])
    assert check(cert(expr, chain)).accepted


def test_a_half_multiple_of_pi_or_a_non_multiple_is_not_an_instance():
    expr = ["sin", mul(["rat", 1, 2], PI)]
    rejected(one_step(expr, "sin_pi", [], I(0)), "not an instance of sin_pi")
    rejected(one_step(["cos", mul(I(2), Z)], "cos_pi", [], ["pow", I(-1), I(2)]), "not an instance of cos_pi")
    assert check(cert(add(["sin", I(0)], ["cos", I(0)], I(-1)),
                      Chain(add(["sin", I(0)], ["cos", I(0)], I(-1))).step("sin_zero", [1], I(0))
                      .step("cos_zero", [2], I(1)))).accepted
    rejected(one_step(["sin", I(1)], "sin_zero", [], I(0)), "not an instance of sin_zero")


# ------------------------------------------------------------ real powers of products, 0^r

def test_pow_mul_nonneg_needs_both_factors_nonneg():
    assert check(sqrt_abs_member()).accepted
    # (a·z)^(1/2) split as a^(1/2)·z^(1/2) where a < 0 and z < 0: the factors are negative
    c = sqrt_abs_member()
    piece = c["proof"]["pieces"][0]
    expr = c["claim"]["member"]
    steps = piece["steps"]
    steps[1]["after"] = put(steps[1]["after"], [1, 1], mul(A, Z))
    steps[2]["after"] = put(steps[2]["after"], [1], mul(["pow", A, HALF], ["pow", Z, HALF]))
    rejected(c, "pieces[0].steps[")
    assert expr  # the claim is untouched
    one = ["pow", mul(A, Z), HALF]
    split = mul(["pow", A, HALF], ["pow", Z, HALF])
    positive = {"z": [["open", I(0), "inf"]], "a": [["open", I(0), "inf"]]}
    assert check(one_step(add(one, neg(split)), "pow_mul_nonneg", [1], split, positive)).accepted
    rejected(one_step(add(one, neg(split)), "pow_mul_nonneg", [1], split, {"z": [], "a": positive["a"]}),
             "side[y]", "nonneg")


def test_pow_zero_only_for_a_positive_rational_exponent():
    assert check(one_step(["pow", I(0), ["rat", 3, 2]], "pow_zero", [], I(0))).accepted
    rejected(one_step(["pow", I(0), ["rat", -1, 2]], "pow_zero", [], I(0)), "not an instance of pow_zero")
    rejected(one_step(["pow", I(0), Z], "pow_zero", [], I(0)), "not an instance of pow_zero")


# ------------------------------------------------------------ logarithms of real powers

def test_log_pow_takes_any_exponent_of_a_positive_base():
    expr = add(["log", ["pow", I(2), HALF]], neg(mul(HALF, ["log", I(2)])))
    assert check(one_step(expr, "log_pow", [1], mul(HALF, ["log", I(2)]))).accepted
    expr = add(["log", ["pow", Z, HALF]], neg(mul(HALF, ["log", Z])))
    assert check(one_step(expr, "log_pow", [1], mul(HALF, ["log", Z]), {"z": [["open", I(0), "inf"]]})).accepted
    rejected(one_step(expr, "log_pow", [1], mul(HALF, ["log", Z])), "side[x]", "pos")
    expr = add(["log", ["pow", Z, I(2)]], neg(mul(I(2), ["log", Z])))   # log z² = 2 log z needs z > 0
    rejected(one_step(expr, "log_pow", [1], mul(I(2), ["log", Z]), {"z": [["open", "-inf", I(0)]]}), "side[x]")


# ------------------------------------------------------------ ring steps with negative powers

def test_a_ring_step_may_cancel_a_negative_power_of_a_base_proved_non_zero_only():
    expr = add(mul(Z, ["pow", Z, I(-1)]), I(-1))
    chain = Chain(expr).step("ring", [1], I(1))
    assert check(cert(expr, chain, {"z": [["open", I(0), "inf"]]})).accepted
    rejected(cert(expr, chain, {"z": []}), "polynomials only", "nonzero")
    assert check(log_periodic_argument()).accepted
    # with log 1 (= 0) in place of log 2 the same ring step is refused
    c = log_periodic_argument()
    text = repr(c).replace("['log', ['int', 2]]", "['log', ['int', 1]]")
    rejected(eval(text), "steps[")  # noqa: S307 - our own literal


def test_the_log_periodic_step_needs_z_positive():
    c = log_periodic_argument()
    c["claim"]["vars"]["z"] = []
    rejected(c, "side[y]")
    c["claim"]["vars"]["z"] = [["open", "-inf", I(0)]]
    rejected(c, "side[y]")


def test_pow_pow_right_to_left_inverts_a_real_power_of_a_positive_base_only():
    # z^(−1/2)·z^(1/2) = 1: the exponent written (1/2)·(−1), then z^((1/2)·(−1)) = (z^(1/2))^(−1)
    expr = add(mul(["pow", Z, ["rat", -1, 2]], ["pow", Z, HALF]), I(-1))
    chain = Chain(expr).step("ring", [1, 1, 2], mul(HALF, I(-1)))
    chain.step("pow_pow", [1, 1], ["pow", ["pow", Z, HALF], I(-1)], dir="rl")
    assert check(cert(expr, chain, {"z": [["open", I(0), "inf"]]})).accepted
    rejected(cert(expr, chain, {"z": []}), "side[x]")
