"""A numeric check's tolerance is 64·ε·√n for n the length of the sums its two sides round
(docs/numeric.md): d + m for the gated and rank-1 forms, d·max(d, r) + m for the bilinear form,
2d + m for absorb, d² + m for rank1. At skewed sizes (d ≫ m, m ≫ d) a term that dropped d or
m would give a tolerance several times too small — agreement then reads as a difference."""
from __future__ import annotations

import pytest

from symcheck.numeric.checks import prepare, tolerance

#: (check, options, n as a function of d, m)
ROWS = [
    ("exchange", {}, lambda d, m: d + m),
    ("exchange", {"form": "rank1"}, lambda d, m: d + m),
    ("scaling", {"alpha": "3"}, lambda d, m: d + m),
    ("scaling", {"alpha": "1/2", "form": "rank1"}, lambda d, m: d + m),
    ("exchange", {"form": "bilinear", "r": 3}, lambda d, m: d * max(d, 3) + m),
    ("absorb", {}, lambda d, m: 2 * d + m),
    ("rank1", {}, lambda d, m: d * d + m),
]


@pytest.mark.parametrize("d, m", [(40, 3), (2, 90)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("check, options, n", ROWS, ids=[f"{c}-{'-'.join(map(str, o.values()))}" for c, o, _ in ROWS])
def test_the_tolerance_counts_the_length_of_every_sum(check, options, n, d, m, dtype) -> None:
    report = prepare(check, d=d, m=m, tokens=4, seed=1, dtype=dtype, **options).run()
    assert report.tolerance == tolerance(dtype, n(d, m)), (report.tolerance, tolerance(dtype, n(d, m)))
