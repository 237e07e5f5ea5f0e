"""The log-periodic form read off σ(±e^t) term by term: a phase on a sine, and a constant term
listed after the harmonic.

breaks._trig_form groups the terms of σ(e^t) by frequency (a term without cos or sin is the
frequency 0), and breaks._claimed writes the form back, α·cos(ωt + φ) + β·sin(ωt + φ), for the
zero prover. A sine's phase dropped from the claim, or a constant merged into a harmonic whose
phase happens to equal the constant's frequency 0, makes a false form: it is not proved, and the
group loses its log-periodic argument (partial where it is complete).
"""
from __future__ import annotations

from functools import cache

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.group.breaks import _T, _trig_form
from symcheck.engine.group.results import SymmetryGroup

W = "2*pi*log(Abs(z))/log(2)"
OMEGA = 2 * sympy.pi / sympy.log(2)


@cache
def group(spec: str) -> SymmetryGroup:
    return symmetry_group(spec, timeout=60)


def _has_log_periodic_form(g: SymmetryGroup) -> bool:
    return any(s.title == "Log-periodic form" for s in g.maximality)


# --- a sine with a phase ------------------------------------------------------------------------

@settings(max_examples=4, deadline=None, derandomize=True)
@given(phase=st.sampled_from([1, 2, -1, sympy.Rational(1, 2), 3]))
def test_a_sine_with_a_phase_keeps_its_log_periodic_argument(phase) -> None:
    """σ = z·sin(ω log|z| + φ), ω = 2π/log 2, φ ∉ πZ: odd, and half a period (a = √2) turns the
    sine into minus itself, so G = {(±√2^j, (−1)^j·a)}, complete."""
    g = group(f"Piecewise((z*sin({W} + ({phase})), Ne(z, 0)), (0, True))")
    assert _has_log_periodic_form(g), g.note
    assert g.complete, g.note
    root = sympy.sqrt(2)
    assert g.contains(root, -root) is True and g.contains(-root, root) is True
    assert g.contains(2, 2) is True and g.contains(-1, -1) is True
    assert g.contains(root, root) is False and g.contains(3, 3) is False


# --- a constant term after the harmonic ---------------------------------------------------------

def test_a_constant_listed_after_the_harmonic_is_its_own_frequency_zero() -> None:
    """(cos ωt + log 3)·e^t: SymPy lists e^t·cos ωt before log(3)·e^t; the constant is the harmonic
    of frequency 0, not added to the cosine (whose phase 0 equals that frequency)."""
    expr = sympy.exp(_T) * (sympy.cos(OMEGA * _T) + sympy.log(3))
    terms = sympy.Add.make_args(sympy.expand(sympy.powsimp(sympy.simplify(expr))))
    assert sympy.cos(OMEGA * _T) in terms[0].args  # the order this test is about
    m, harmonics = _trig_form(sympy.simplify(expr))
    assert m == 1
    assert sorted(harmonics, key=lambda h: h[0] != 0) == [(0, 0, sympy.log(3), 0), (OMEGA, 0, 1, 0)]


@pytest.mark.parametrize("side", ["z > 0", "Ne(z, 0)"])
def test_a_log_periodic_sigma_with_a_constant_term_is_complete(side: str) -> None:
    """σ = z·(cos(ω log|z|) + log 3) (on z > 0, z elsewhere; or on z ≠ 0): a > 0 must keep the
    cosine's period, a = 2^j with c = a; with the odd σ a < 0 is −2^j too."""
    g = group(f"Piecewise((z*(cos({W}) + log(3)), {side}), ({'z' if side == 'z > 0' else '0'}, True))")
    assert _has_log_periodic_form(g), g.note
    assert g.complete, g.note
    assert g.contains(2, 2) is True and g.contains(sympy.Rational(1, 4), sympy.Rational(1, 4)) is True
    assert g.contains(sympy.sqrt(2), sympy.sqrt(2)) is False and g.contains(3, 3) is False
    assert g.contains(-2, -2) is (side == "Ne(z, 0)")
