"""``zero.plain``: the numbers whose sign SymPy's assumptions read off their structure (a rational,
a Float, π, e, e^p and q^r of plain p and rational q > 0, r, log q, products) and no others —
a sum is never plain, since cancellation is what low-precision evaluation gets wrong. π and e
must be recognised as the constants they are (``is S.Pi``), not compared with a float."""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.engine.zero import plain

PLAIN = [S(3), S(-2) / 7, sympy.Float(0.5), S.Pi, S.Exp1, 2 * S.Pi, -S.Pi / 3, S.Pi**2, sympy.sqrt(S.Pi),
         S.Pi ** S(-3, 2), sympy.exp(S.Pi), sympy.exp(-2 * S.Pi), S.Exp1 ** S(1, 3), sympy.sqrt(2),
         S(2) ** S(1, 3) * S.Pi, sympy.log(3), S.Pi * S.Exp1]
NOT_PLAIN = [S.Pi - 3, S.Exp1 + 1, sympy.sqrt(S.Pi - 3), sympy.exp(S.Pi - 3), (S.Pi - 3) * 2,
             sympy.sin(1), S.Pi ** S.Pi, sympy.log(1 + sympy.exp(-30)) - sympy.exp(-30)]


@pytest.mark.parametrize("number", PLAIN, ids=str)
def test_a_plain_number_is_recognised(number) -> None:
    assert plain(number)


@pytest.mark.parametrize("number", NOT_PLAIN, ids=str)
def test_a_sum_or_a_function_of_one_is_not_plain(number) -> None:
    assert not plain(number)
