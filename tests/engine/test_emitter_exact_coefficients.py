"""The emitter writes the coefficients of the polynomials it rebuilds from the kernel's normal form
(``polynomial_tree``, ``_polynomial_tree`` in symcheck.engine.certificate.rewrite) as exact
rationals: 1/3 is ``("rat", 1, 3)``, never the binary fraction nearest to the float 1/3
(6004799503160661/18014398509481984), which would make a ``ring`` step claim a false identity and
the certificate be refused (a lost proof).

Truth by hand: the tree of a polynomial p over generators g is Σ c·∏ g^e with the coefficients c
of p, so re-reading the tree in the normal form gives p back exactly; asin and atan are odd and
z/(3 + 3|z|), 2z/(3 + 5z²) are odd in z, so σ(−z) = −σ(z) for those σ.
"""
from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.engine.certificate.emit import Certificate, certify_member
from symcheck.engine.certificate.rewrite import _polynomial_tree, polynomial_over_generators, polynomial_tree
from symcheck.kernel.check import check
from symcheck.kernel.normal import Form

X, Y = ("var", "x"), ("var", "y")
# 1/3 x·y − 2/7 x² + 5: coefficients a float cannot hold
THIRDS = ("add", ("mul", ("rat", 1, 3), X, Y), ("mul", ("rat", -2, 7), ("pow", X, ("int", 2))), ("int", 5))
THIRDS_TREE = ("add", ("mul", ("rat", -2, 7), ("pow", X, ("int", 2))), ("mul", ("rat", 1, 3), X, Y), ("int", 5))


def _numerator_and_trees(node):
    gens, form, n, d = polynomial_over_generators(node)
    assert d.is_constant() and d == 1
    return n, [gens[k] for k in sorted(form.index, key=form.index.get)]


def _same_polynomial(a, b) -> bool:
    """a − b has the normal form 0 (exact, over the generators of both)."""
    n, _ = Form(a, b).of(("add", a, ("mul", ("int", -1), b)))
    return n.is_zero()


def _rationals(node):
    if isinstance(node, tuple):
        if node and node[0] == "rat":
            yield node
        for part in node[1:]:
            yield from _rationals(part)


def test_polynomial_tree_writes_thirds_exactly():
    n, trees = _numerator_and_trees(THIRDS)
    assert polynomial_tree(n, trees) == THIRDS_TREE


def test_private_polynomial_tree_writes_thirds_exactly():
    n, trees = _numerator_and_trees(THIRDS)
    assert _polynomial_tree(n, trees) == THIRDS_TREE
    assert _polynomial_tree(n - n, trees) is None


_COEFF = st.builds(Fraction, st.integers(-9, 9).filter(bool), st.sampled_from([1, 3, 5, 7, 11]))
_MONOMIAL = st.tuples(st.integers(0, 2), st.integers(0, 2))


def _node(terms):
    parts = []
    for (i, j), c in terms.items():
        num = ("int", c.numerator) if c.denominator == 1 else ("rat", c.numerator, c.denominator)
        parts.append(("mul", num, ("pow", X, ("int", i)), ("pow", Y, ("int", j))))
    return ("add", ("mul", ("int", 0), X, Y), *parts)


@settings(max_examples=25, deadline=None)
@given(terms=st.dictionaries(_MONOMIAL, _COEFF, min_size=1, max_size=5))
def test_polynomial_trees_reread_to_the_same_polynomial(terms):
    node = _node(terms)
    n, trees = _numerator_and_trees(node)
    for build in (polynomial_tree, _polynomial_tree):
        out = build(n, trees)
        if n.is_zero():
            continue
        assert _same_polynomial(out, node), (build.__name__, out)
        written = {Fraction(r[1], r[2]) for r in _rationals(out)}
        assert written <= {c for c in terms.values()} | {-c for c in terms.values()}, (build.__name__, out)


def _accepted(outcome):
    assert isinstance(outcome, Certificate), str(outcome)
    again = check(json.loads(json.dumps(outcome.data)))
    assert again.accepted, str(again)
    return outcome.data


def test_an_odd_function_of_a_fraction_with_thirds_is_certified_with_exact_coefficients():
    # the argument z/(3 + 3|z|) is rewritten N·D⁻¹ with D's first coefficient 1: (1/3·z)·(|z| + 1)⁻¹
    steps = json.dumps(_accepted(certify_member("asin(z/(3 + 3*Abs(z)))", -1, -1))["proof"])
    assert '["rat", -1, 3]' in steps and '["rat", 1, 3]' in steps
    steps = json.dumps(_accepted(certify_member("atan(2*z/(3 + 5*z**2))", -1, -1))["proof"])
    assert '["rat", -2, 5]' in steps and '["rat", 3, 5]' in steps
