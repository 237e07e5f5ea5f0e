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
