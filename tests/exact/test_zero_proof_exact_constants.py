"""The exact zero prover's exp-term split keeps exact coefficients: a term whose coefficient is
not rational (a Float) gets the exact power Integer(1), so exp(1 + 0.5·π) = e·exp(0.5·π) is proved."""
from __future__ import annotations

import sympy

from symcheck.exact.zero_proof import _exp_terms, generator_identity, proved_zero


def test_non_rational_coefficient_gets_the_exact_power_one():
    term = sympy.Float(0.5) * sympy.pi
    terms = dict(_exp_terms(1 + term))
    assert terms[term] == 1 and isinstance(terms[term], sympy.Integer)


def test_exp_with_a_float_coefficient_term_is_still_proved_zero():
    term = sympy.Float(0.5) * sympy.pi
    value = sympy.exp(1 + term) - sympy.E * sympy.exp(term)
    assert value != 0  # SymPy does not fold it by itself
    assert generator_identity(value)
    assert proved_zero(value)
