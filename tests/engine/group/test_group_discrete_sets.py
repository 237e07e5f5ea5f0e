"""The exact sets a discrete group component stands for, on the inputs that make a slip visible.

* results._power_index: "provably no power" (False) needs the modulus certified strictly between
  two consecutive powers, on BOTH sides. A modulus equal to base^j whose difference from base^j is
  a zero the engine cannot prove (log 6 − log 2 − log 3) is undecided (None): checking only one
  side would call a true member "not in the set".
* results._discrete_alphas: with ε = base_c/base = −1 and unit_c = 1 the negative α are the odd
  powers, α = −base·(base²)^n (target −1/unit_c = −1, so (−1)^j = −1); dropping that part prints a
  group smaller than the true one.
"""
from __future__ import annotations

from functools import cache

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.engine.group.facts import certified_sign
from symcheck.engine.group.results import ASet, Component, J, _discrete_alphas, _power_index

R = sympy.Rational

#: exactly 0, but no proof of it is found: its sign is undecided
HIDDEN_ZERO = sympy.log(6) - sympy.log(2) - sympy.log(3)

BASES = [sympy.Integer(2), sympy.Integer(3), R(1, 2), R(3, 2), R(2, 5), sympy.sqrt(2)]


def test_the_hidden_zero_is_undecided() -> None:
    # the premise of the tests below: the sign oracle answers None, not 0 and not ±1
    assert HIDDEN_ZERO != 0
    assert certified_sign(HIDDEN_ZERO) is None


# ---- results._power_index ------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(base=st.sampled_from(BASES), j=st.integers(-3, 3), scaled=st.booleans())
def test_a_power_not_proved_equal_is_undecided_not_refuted(base, j, scaled) -> None:
    # modulus = base^j exactly, written so that modulus − base^j is the unprovable zero: the
    # comparison with base^j is undecided, so neither neighbouring pair of powers certifies
    # "strictly between" — the answer is None, never False (and never a guessed j)
    modulus = base**j * (1 + HIDDEN_ZERO) if scaled else base**j + HIDDEN_ZERO
    assert certified_sign(modulus - base**j) is None
    assert _power_index(modulus, base) is None


def test_the_clean_cases_around_it_still_decide() -> None:
    assert _power_index(sympy.Integer(4), sympy.Integer(2)) == 2
    assert _power_index(sympy.Integer(5), sympy.Integer(2)) is False
    assert _power_index(sympy.Integer(3), sympy.Integer(2)) is False


def test_a_discrete_aset_does_not_exclude_a_member_it_cannot_compare() -> None:
    # 4 = 2^2 and −4 = −2^2 are in {±2^j}; written with the hidden zero they are undecided
    aset = ASet("discrete", base=sympy.Integer(2), negatives=True)
    assert aset.contains(4 + HIDDEN_ZERO) is None
    assert aset.contains(-4 - HIDDEN_ZERO) is None
    assert aset.contains(sympy.Integer(4)) is True
    assert aset.contains(sympy.Integer(5)) is False


# ---- results._discrete_alphas --------------------------------------------------------------------

def _values(alphas: sympy.Set, ks=range(-2, 3)) -> set[sympy.Expr]:
    """The exact numbers of each part at n = −2..2 (ImageSet membership is not decided by SymPy)."""
    parts = alphas.args if isinstance(alphas, sympy.Union) else (alphas,)
    out: set[sympy.Expr] = set()
    for part in parts:
        assert isinstance(part, sympy.ImageSet), part
        (n,) = part.lamda.variables
        out |= {part.lamda.expr.xreplace({n: k}) for k in ks}
    return out


def _odd_powers_component(base: sympy.Expr, unit_c: sympy.Expr) -> Component:
    """a = ±base^j with c = unit_c^[a<0]·(−base)^j (hand-built: the arithmetic of the set alone)."""
    return Component(ASet("discrete", base=base, negatives=True), (-base) ** J, (),
                     base_c=-base, unit_c=unit_c)


@settings(max_examples=12, deadline=None)
@given(base=st.sampled_from(BASES))
def test_the_negative_alphas_of_epsilon_minus_one_are_the_odd_powers(base) -> None:
    # (α, α) with α = −base^j: c = 1·(−base)^j = −base^j ⇔ (−1)^j = −1 ⇔ j odd
    found = _discrete_alphas(_odd_powers_component(base, sympy.Integer(1)))
    assert found is not None
    step = base**2
    expected = {v for k in range(-2, 3) for v in (step**k, -base * step**k)}
    assert _values(found) == expected
    assert -base in _values(found) and -base**3 in _values(found)


def test_with_unit_c_minus_one_every_power_is_negated() -> None:
    # target −1/unit_c = 1: ε^j = 1 for every even j, α = ±4^n
    found = _discrete_alphas(_odd_powers_component(sympy.Integer(2), sympy.Integer(-1)))
    assert _values(found) == {s * R(4) ** k for k in range(-2, 3) for s in (1, -1)}


@cache
def _even_log_periodic_group():
    # σ(z) = |z|·cos(π·log|z|/log 2): even, and σ(2z) = −2·σ(z); so (−1, 1), (2, −2) ∈ G and
    # (α, α) ∈ G exactly for α = 4^n and α = −2·4^n
    return sc.symmetry_group("Piecewise((Abs(z)*cos(pi*log(Abs(z))/log(2)), Ne(z, 0)), (0, True))")


def test_the_inverse_scaling_set_of_an_even_log_periodic_sigma_has_its_odd_part() -> None:
    g = _even_log_periodic_group()
    assert g.complete
    alphas = g.inverse_scaling_alphas()
    assert alphas is not None
    assert _values(alphas) == {v for k in range(-2, 3) for v in (R(4) ** k, -2 * R(4) ** k)}
    assert g.contains(-2, -2) is True
