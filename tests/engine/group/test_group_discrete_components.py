"""Issue 23, slip 2: a discrete group component accepted without proving its (−1, c) generator.

The only discrete activation elsewhere in the tests is odd, so (−1, −1) is a member and a
component that skipped its proof is still right. Here σ is log-periodic but asymmetric: z·p(z)
for z > 0 and 2z·p(z) for z < 0, with p(z) = cos(2π·log|z| / log 2). Then (√2, −√2) and (2, 2)
are members (p changes sign under z → √2·z), but no a < 0 is: σ(−z) = c·σ(z) needs c = −2 for
z > 0 and c = −1/2 for z < 0. A group that lists a negative member, or says it is complete with
a member it did not prove, is wrong.
"""
from __future__ import annotations

from functools import cache

import mpmath
import pytest
import sympy

import symcheck as sc

P = "cos(2*pi*log(Abs(z))/log(2))"
ASYMMETRIC = f"Piecewise((z*{P}, z > 0), (2*z*{P}, z < 0), (0, True))"
ODD = f"Piecewise((z*{P}, Ne(z, 0)), (0, True))"


def sigma(z: mpmath.mpf) -> mpmath.mpf:
    if z == 0:
        return mpmath.mpf(0)
    p = mpmath.cos(2 * mpmath.pi * mpmath.log(abs(z)) / mpmath.log(2))
    return z * p if z > 0 else 2 * z * p


@cache
def group(spec: str):
    return sc.symmetry_group(spec)


def _member_numerically(a, c) -> bool:
    """σ(a·z) = c·σ(z) at points that separate the two halves (100 digits)."""
    with mpmath.workdps(100):
        a, c = mpmath.mpf(sympy.N(a, 110)), mpmath.mpf(sympy.N(c, 110))
        return all(abs(sigma(a * z) - c * sigma(z)) < mpmath.mpf(10) ** -80
                   for z in map(mpmath.mpf, ("0.3", "1.7", "-0.45", "-2.9", "5.5")))


@pytest.mark.parametrize("a, c", [(-1, -2), (-1, sympy.Rational(-1, 2)), (-1, -1), (-1, 1), (-2, -4),
                                  (-sympy.sqrt(2), 2 * sympy.sqrt(2)), (-sympy.sqrt(2), sympy.sqrt(2))])
def test_no_negative_a_is_a_member_of_the_asymmetric_group(a, c) -> None:
    assert not _member_numerically(a, c)
    assert group(ASYMMETRIC).contains(a, c) is not True


def test_the_asymmetric_group_keeps_its_positive_members() -> None:
    g = group(ASYMMETRIC)
    for a, c in ((2, 2), (sympy.sqrt(2), -sympy.sqrt(2)), (sympy.Rational(1, 4), sympy.Rational(1, 4))):
        assert _member_numerically(a, c)
        assert g.contains(a, c) is not False
    assert g.contains(3, 3) is not True


def test_no_component_of_the_asymmetric_group_has_negative_a() -> None:
    """No component may claim a < 0 (a discrete set with its negatives, or a negative unit)."""
    g = group(ASYMMETRIC)
    for component in g.components:
        assert not getattr(component.aset, "negatives", False), component.aset
        assert getattr(component, "unit_c", None) is None, component
        assert all(a > 0 for a, _ in getattr(component, "pairs", ()) or ()), component


def test_every_listed_pair_of_the_asymmetric_group_is_a_member() -> None:
    g = group(ASYMMETRIC)
    for component in g.components:
        for a, c in getattr(component, "pairs", ()) or ():
            assert _member_numerically(a, c), (a, c)
        if getattr(component, "base_c", None) is not None:
            assert _member_numerically(component.aset.base, component.base_c)


def test_the_odd_group_still_has_its_reflection() -> None:
    g = group(ODD)
    assert g.contains(-1, -1) is True and g.contains(-2, -2) is True
    assert g.contains(-1, 1) is False


# --- a member needs the kernel's certificate, whatever the engine says ------------------------------

@pytest.mark.kernel_rejection  # the forged members may reach the kernel through 'complete'
@pytest.mark.parametrize("spec, a, c", [("relu", 2, 2), ("tanh", -1, -1), (ODD, -1, -1), (ODD, 2, 2)])
def test_a_member_proved_without_a_kernel_certificate_is_not_a_member(monkeypatch, spec: str, a, c) -> None:
    """A slip in the members' deciders that reports holds without the kernel's certificate
    (a skipped gate, a dropped admission) makes no member, no component and no 'complete'."""
    from symcheck.engine.group import assemble as group_module
    from symcheck.engine.group.members import Proof

    def uncertified(decide):
        def wrapper(*args, **kwargs):
            proof = decide(*args, **kwargs)
            return Proof(proof.verdict, proof.steps, proof.witness, proof.note, None)
        return wrapper

    monkeypatch.setattr(group_module, "prove_pair", uncertified(group_module.prove_pair))
    monkeypatch.setattr(group_module, "prove_family", uncertified(group_module.prove_family))
    g = sc.symmetry_group(spec)
    assert g.contains(a, c) is not True, str(g)
    assert not g.complete
    assert not g.certificates


EVEN = f"Piecewise((Abs(z)*{P}, Ne(z, 0)), (0, True))"


def test_the_even_group_reflects_with_its_own_unit() -> None:
    """An even log-periodic σ: the reflection's member is (−1, 1), proved as (a, c) = (−1, 1) —
    not (1, −1), which is no member — so a < 0 is −2^(j/2) with c = (−√2)^j."""
    g = group(EVEN)
    assert g.contains(-1, 1) is True
    assert g.contains(-2, 2) is True
    assert g.contains(-sympy.sqrt(2), -sympy.sqrt(2)) is True
    assert g.contains(-1, -1) is not True
