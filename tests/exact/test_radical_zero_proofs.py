"""The radical zero proof (``exact/zero_proof``) on roots of quotients: √(1 + 1/c) is defined by
r²·c = c + 1 (the base's denominator kept), never r² = c + 1. A proof of 0 for a non-zero
number is the worst slip a zero prover can make; each false claim here differs from 0 by
more than 0.1, and each true one is an identity of principal roots of positive numbers."""
from __future__ import annotations

import pytest
import sympy

from symcheck.exact.zero_proof import proved_zero

S = sympy.S
CONSTANTS = [S.Pi, S.Exp1, sympy.exp(-3), sympy.log(3), 1 + sympy.sqrt(2)]


@pytest.mark.parametrize("c", CONSTANTS, ids=str)
def test_a_root_of_a_quotient_keeps_its_denominator(c: sympy.Expr) -> None:
    root = sympy.sqrt(1 + 1 / c)
    if not c.has(S.Exp1, sympy.exp):  # (SymPy writes √(e^k) as e^(k/2): the prover does not reach those)
        assert proved_zero(sympy.sqrt(c) * root - sympy.sqrt(1 + c))  # √c·√(1 + 1/c) = √(1 + c)
    assert not proved_zero(root - sympy.sqrt(1 + c))  # √(1 + 1/c) ≠ √(1 + c) unless c = 1
    cube = (2 + 1 / c) ** S("1/3")
    assert not proved_zero(cube - (2 * c + 1) ** S("1/3"))


@pytest.mark.parametrize("c", CONSTANTS, ids=str)
@pytest.mark.parametrize("p, q", [(-1, 2), (-1, 3), (-2, 3), (1, 2), (2, 3)])
def test_a_root_with_a_negative_exponent_keeps_both_parts_of_its_base(c, p, q) -> None:
    """r = (1 + 1/c)^(p/q): r^q = ((c + 1)/c)^p is r^q·(c + 1)^(−p) = c^(−p) for p < 0, with the
    base's numerator kept. Dropping either part of the base makes r a root of c or of c + 1,
    and a prover that uses it "proves" r equal to that root."""
    r = (1 + 1 / c) ** sympy.Rational(p, q)
    for wrong in (c ** sympy.Rational(-p if p < 0 else p, q), (1 + c) ** sympy.Rational(abs(p), q),
                  c ** sympy.Rational(p, q), (1 + c) ** sympy.Rational(p, q)):
        assert abs(sympy.N(r - wrong, 30)) > sympy.Rational(1, 1000)  # really different numbers
        assert not proved_zero(r - wrong), wrong
