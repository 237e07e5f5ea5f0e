"""The emitter looks for a constant factor (log(1 + e^-2000)·(z² − 4z + 5) ≤ 0) in every relation
``l rel 0`` of a Piecewise condition, at any depth of and / or / not and in any operand — the
first one included. A relation it skips is one whose sign it cannot argue, and the certificate
of a true statement is then refused."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from symcheck.engine.certificate.rewrite import _relation_paths
from symcheck.kernel.tree import RELATIONS

ZERO = ("int", 0)
LEAF = st.sampled_from([("var", "z"), ("add", ("var", "z"), ("int", 1)), ("int", 3)])


@st.composite
def conditions(draw, depth: int = 0):
    """(a condition, the paths of its relations with right side 0)."""
    kind = draw(st.sampled_from(["rel", "rel-nonzero", "true"] + (["and", "or", "not"] if depth < 3 else [])))
    if kind in ("rel", "rel-nonzero"):
        rhs = ZERO if kind == "rel" else ("int", 2)
        return (draw(st.sampled_from(sorted(RELATIONS))), draw(LEAF), rhs), ([()] if kind == "rel" else [])
    if kind == "true":
        return ("true",), []
    parts = [draw(conditions(depth + 1)) for _ in range(1 if kind == "not" else draw(st.integers(2, 4)))]
    paths = [(i,) + p for i, (_, found) in enumerate(parts, start=1) for p in found]
    return (kind, *(c for c, _ in parts)), paths


@given(conditions())
def test_every_relation_with_zero_on_the_right_is_found_once_in_order(drawn) -> None:
    cond, paths = drawn
    assert list(_relation_paths(cond)) == paths


def test_the_first_operand_is_searched() -> None:
    tiny = ("le", ("mul", ("var", "z"), ("const", "tiny")), ZERO)
    assert list(_relation_paths(("and", tiny, ("gt", ("var", "z"), ZERO)))) == [(1,), (2,)]
    assert list(_relation_paths(("not", tiny))) == [(1,)]
