"""The gated route's stacked product through V (f, the exchanged f and the reference's hidden
rows as one product of 3N rows, when N is a multiple of 16 and the product fits what the cut
counts) gives the same figures and the same f as three products of N rows each: to the bit
where the BLAS gives a row the same result whatever rows are beside it (OpenBLAS's Haswell
kernels); its SkylakeX small-matrix kernels do not, and there they agree in all but the last bits."""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from symcheck.numeric import model_report
from symcheck.numeric.architectures import open_model
from symcheck.numeric.model_report import layer_output, measure_layer

from support.model_checkpoints import write_model


@pytest.mark.parametrize("arch, dtype", [("llama", "BF16"), ("llama", "F32"), ("gemma", "BF16"), ("phi3", "F16")])
@pytest.mark.parametrize("rows, memory, stacked", [
    (16, "64MiB", True), (48, "64MiB", True),
    (64, 1_000_000, True),      # 48 units a chunk: two chunks
    (64, 250_000, False),       # 5 units a chunk: 3·N rows would not fit what the cut counts
    (17, "64MiB", False),       # not a multiple of 16
])
def test_stacked_products_give_the_figures_of_separate_ones(tmp_path, monkeypatch, arch, dtype, rows, memory,
                                                            stacked) -> None:
    write_model(tmp_path, arch, layers=1, d=40, m=96, dtype=dtype, seed=3)
    layer = open_model(tmp_path).layers[0]
    X = np.random.default_rng(5).standard_normal((rows, layer.d))
    taken: list[bool] = []
    stacks = model_report._stacks
    monkeypatch.setattr(model_report, "_stacks", lambda *a: taken.append(stacks(*a)) or taken[-1])
    figures, output = measure_layer(layer, X, memory), layer_output(layer, X, memory)
    assert taken and all(taken) == stacked and any(taken) == stacked
    monkeypatch.setattr(model_report, "_STACKED_ROWS", 10**9)   # three products of N rows each
    taken.clear()
    separate, separate_output = measure_layer(layer, X, memory), layer_output(layer, X, memory)
    assert taken and not any(taken)
    if _rows_independent(rows, layer.m, layer.d):
        assert separate == figures
        assert np.array_equal(separate_output, output)
    else:
        for name, value in dataclasses.asdict(figures).items():
            other = getattr(separate, name)
            assert (value is None) == (other is None), name
            assert value is None or math.isclose(value, other, rel_tol=1e-9, abs_tol=1e-12), name
        assert np.allclose(separate_output, output, rtol=1e-9, atol=1e-12)


def _rows_independent(n: int, m: int, d: int) -> bool:
    """Does this BLAS give N rows of a product through an m×d matrix to the bit whether they
    are multiplied alone or as the first third of 3N rows? V is handed on as the transposed
    view of down_proj's rows, as the report does (the layout decides which kernel runs)."""
    rng = np.random.default_rng(11)
    rows, matrix = rng.standard_normal((3 * n, m)), rng.standard_normal((d, m)).T
    stacked = rows @ matrix
    return all(np.array_equal(rows[k * n:(k + 1) * n] @ matrix, stacked[k * n:(k + 1) * n]) for k in range(3))


def test_the_stacked_product_is_taken_only_where_it_fits() -> None:
    # 2·n·e more entries must fit the 3·c·max(d1, e) of read copies the cut counts and does not hold
    assert model_report._stacks(16, 100, 8, 8)
    assert not model_report._stacks(16, 1, 8, 200)
    assert not model_report._stacks(24, 100, 8, 8)
