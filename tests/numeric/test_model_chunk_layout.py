"""A chunk's factors hold the units' rows whatever the checkpoint's layout (down_proj's values,
stored with their units as columns, are read in the file's order into (e, c) arrays and handed
on as their transposed view), and work arrays shared from layer to layer never carry one
layer's numbers into another's figures."""
from __future__ import annotations

import numpy as np
import pytest

from symcheck.numeric.architectures import open_model
from symcheck.numeric.layer_chunks import Buffers, chunks
from symcheck.numeric.model_report import measure_layer
from symcheck.numeric.unit_blocks import unit_block

from support.model_checkpoints import write_model

_BETA = 2.0


@pytest.mark.parametrize("arch, dtype", [("llama", "BF16"), ("llama", "F32"), ("gpt2", "F32"),
                                         ("opt", "BF16"), ("phi3", "F16")])
@pytest.mark.parametrize("spans", [[(0, 96)], [(0, 40), (40, 41), (41, 96)], [(7, 30), (30, 96)]])
def test_every_factor_holds_the_units_rows(tmp_path, arch, dtype, spans) -> None:
    write_model(tmp_path, arch, layers=1, d=24, m=96, dtype=dtype, seed=11)
    layer = open_model(tmp_path).layers[0]
    seen = []
    for chunk in chunks(layer, spans, 4096, _BETA):
        seen.append((chunk.u0, chunk.u1))
        expected_value = unit_block(layer.value, chunk.u0, chunk.u1)
        assert chunk.value.shape == expected_value.shape
        assert np.array_equal(chunk.value, expected_value)
        assert np.array_equal(chunk.value_over_beta, expected_value / _BETA)
        key = unit_block(layer.key, chunk.u0, chunk.u1)
        assert np.array_equal(chunk.key if layer.biased else chunk.key[:, :layer.d], key)
        if layer.query is not None:
            query = unit_block(layer.query, chunk.u0, chunk.u1)
            assert np.array_equal(chunk.query if layer.biased else chunk.query[:, :layer.d], query)
    assert seen == spans


def test_shared_work_arrays_give_each_layer_its_own_figures(tmp_path) -> None:
    # layers of different shapes and contents, measured in turn through one set of arrays and
    # in the opposite order: each layer's figures are those it has with arrays of its own
    small, large = tmp_path / "small", tmp_path / "large"
    write_model(small, "llama", layers=2, d=16, m=40, dtype="BF16", seed=1)
    write_model(large, "llama", layers=1, d=16, m=72, dtype="BF16", seed=2, scale=3.0)
    layers = [*open_model(small).layers, *open_model(large).layers]
    X = np.random.default_rng(4).standard_normal((32, 16))
    alone = [measure_layer(layer, X, 200_000) for layer in layers]
    assert len(set(alone)) == len(alone)     # the layers differ, so a carried-over number shows
    for order in (layers, layers[::-1]):
        shared = Buffers()
        figures = {layer.index + 10 * (layer in layers[2:]): measure_layer(layer, X, 200_000, None, shared)
                   for layer in order}
        assert [figures[0], figures[1], figures[10]] == alone
