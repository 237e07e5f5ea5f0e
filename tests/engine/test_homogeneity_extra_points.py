"""Extra points z given to the homogeneity degree are sampled with z/2 and 2z: a σ non-zero
only on a narrow interval around z/2 (zero at every grid point, at z and at 2z) is refuted by
the pair (z/2, z), and is "exactly 0 at every sampled point" without it."""
from __future__ import annotations

import pytest
from sympy import Rational as R

from symcheck.engine.homogeneity import homogeneity_degree
from symcheck.language.activations import activation


@pytest.mark.parametrize("z", [R(1, 4), R(7, 5), R(-9, 2), R(11, 13)])
def test_an_extra_point_is_sampled_with_its_half(z) -> None:
    half = z / 2
    lo, hi = sorted((half * R(99, 100), half * R(101, 100)))
    sigma = activation(f"Piecewise((1, (z > {lo}) & (z < {hi})), (0, True))")
    assert homogeneity_degree(sigma).kind == "vanishing"
    degree = homogeneity_degree(sigma, [z])
    assert degree.kind == "zero-and-nonzero" and degree.excludes_every_p
    refutation = degree.refutations[0]
    assert refutation.z == half
    assert {s.z: s.sign for s in degree.samples}[half] == 1
