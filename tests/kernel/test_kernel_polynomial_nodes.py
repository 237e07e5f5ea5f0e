"""``kernel/check._polynomial``: a node is a polynomial (defined everywhere, so a factor the
kernel may take out of a change of variables) exactly when it is built from numbers and
variables by sums, products and natural powers. Trees are generated with that truth known."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from symcheck.kernel.check import _polynomial

LEAVES = st.sampled_from([(("int", 3), True), (("rat", -1, 2), True), (("var", "z"), True),
                          (("const", "pi"), False)])


def _combine(children: st.SearchStrategy) -> st.SearchStrategy:
    def node(kind: str, parts: list, exponent: int) -> tuple:
        if kind in ("add", "mul"):
            return (kind, *(p for p, _ in parts)), all(ok for _, ok in parts)
        if kind == "pow":
            (base, ok), = parts[:1]
            return ("pow", base, ("int", exponent)), ok and exponent >= 0
        (arg, _), = parts[:1]
        return (kind, arg), False  # a function of a polynomial is no polynomial

    return st.builds(node, st.sampled_from(["add", "mul", "pow", "exp", "log"]),
                     st.lists(children, min_size=2, max_size=3), st.integers(-3, 4))


trees = st.recursive(LEAVES, _combine, max_leaves=12)


@given(trees)
def test_a_polynomial_is_numbers_and_variables_by_sums_products_and_natural_powers(tree) -> None:
    node, expected = tree
    assert _polynomial(node) is expected, node


def test_a_power_of_a_non_polynomial_base_is_none() -> None:
    assert _polynomial(("pow", ("add", ("var", "z"), ("int", 1)), ("int", 2))) is True
    assert _polynomial(("pow", ("exp", ("var", "z")), ("int", 2))) is False
    assert _polynomial(("pow", ("var", "z"), ("rat", 1, 2))) is False
