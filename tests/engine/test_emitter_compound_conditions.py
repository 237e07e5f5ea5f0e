"""A relation inside an and / or of a Piecewise condition gets its constant factor split off
like a relation standing alone: in And(K·(z − a) > 0, z > b) the emitter writes K·(z − a) as
K·P (a ring step at the relation's own place inside the compound condition) so that K's sign
is proved by its value and P's by its roots. A step aimed at the compound condition instead
of the relation inside it finds no factor, the branch stays undecided and the certificate of a
true identity is lost. Every identity below is true on R; the kernel must accept each one."""
from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import And, Or, Piecewise, exp, log, pi

from support.kernel_certificates import emitted_and_accepted

z = sympy.Symbol("z", real=True)

#: positive constants free of z that are no polynomial coefficient: only their value signs them
CONSTANTS = [log(2), pi, log(1 + exp(-2000)), log(3) - log(2)]


def accepted(expr) -> None:
    emitted_and_accepted(expr, z)


def step(cond) -> sympy.Expr:
    return Piecewise((1, cond), (0, True))


IDENTITIES = [
    # the brief's example: K·(z² − 4z + 5) > 0 holds everywhere, so the condition is z > 1
    step(And(log(1 + exp(-2000)) * (z**2 - 4 * z + 5) > 0, z > 1)) - step(z > 1),
    # K·(z − 1) > 0 is z > 1: |z − 1| through a compound condition
    Piecewise((z - 1, And(log(2) * (z - 1) > 0, z > -5)), (1 - z, True)) - sympy.Abs(z - 1),
    Piecewise((z - 1, Or(pi * (z - 1) > 0, z > 5)), (1 - z, True)) - sympy.Abs(z - 1),
]


@pytest.mark.parametrize("expr", IDENTITIES, ids=str)
def test_a_constant_factor_inside_a_compound_condition_is_split(expr) -> None:
    accepted(expr)


@settings(max_examples=10, deadline=None)
@given(K=st.sampled_from(CONSTANTS), a=st.integers(-3, 3).filter(bool), d=st.integers(0, 3),
       conj=st.booleans())
def test_a_scaled_relation_that_decides_an_and_or_an_or(K, a, d, conj) -> None:
    """And(K·(z − a) > 0, z > a − d) and Or(K·(z − a) > 0, z > a + d) are both z > a: the
    scaled relation is the one that decides the branch, so its sign must be argued.
    (a ≠ 0: constant_factor splits K off only when P has two terms or more; K·z with K a sum,
    (log 3 − log 2)·z > 0, is not certified even standing alone.)"""
    scaled = K * (z - a) > 0
    cond = And(scaled, z > a - d) if conj else Or(scaled, z > a + d)
    assert isinstance(cond, (And, Or))  # SymPy kept it compound: the relation sits inside
    accepted(step(cond) - step(z > a))
