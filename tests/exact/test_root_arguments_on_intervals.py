"""Sign-definite and monotone root arguments speak about exactly the interval asked.

They once rewrote z as a function of t > 0 and asked SymPy's assumptions for a sign; they now
rest on certified ranges over the interval itself (issue 26). Whatever the argument, a root
inside must be found and none invented.
"""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.exact.roots import roots_in
from symcheck.language.symbols import Z


@pytest.mark.parametrize("g, lower, upper, roots", [
    (sympy.exp(Z) - 2, S(0), S(1), [sympy.log(2)]),
    (sympy.exp(Z) - 2, S(1), S(3), []),
    (Z**3 - 2, S(1), S(2), [sympy.cbrt(2)]),
])
def test_a_root_inside_is_found_and_none_is_invented(g, lower, upper, roots) -> None:
    found = roots_in(g, Z, lower, upper).points
    assert len(found) == len(roots)
    assert all(sympy.simplify(a - b) == 0 for a, b in zip(found, roots, strict=True))
