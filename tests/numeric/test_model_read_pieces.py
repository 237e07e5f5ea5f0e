"""Reading a layer's weights a cache-sized piece at a time (issue 22, item 8): what
``read_into`` writes, divides and reports as finite, whatever the pieces; σ's result handed
out without a copy only when it is an array of its own."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.numeric import safetensors_io
from symcheck.numeric.safetensors_io import read_header, read_into

from support.model_checkpoints import stored, write_model, write_safetensors

DTYPES = ("F64", "F32", "F16", "BF16")


def _tensor(tmp_path, dtype: str, shape: tuple[int, int], seed: int = 0) -> tuple[object, np.ndarray]:
    values = stored(np.random.default_rng(seed).standard_normal(shape), dtype)
    path = tmp_path / f"{dtype}.safetensors"
    write_safetensors(path, {"w": (dtype, values)})
    return read_header(path)["w"], values


@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from(DTYPES), rows=st.integers(1, 9), cols=st.integers(1, 9),
       entries=st.integers(1, 20), map_bytes=st.sampled_from([1, 7, 40, 10**6]),
       by_columns=st.booleans(), transposed=st.booleans(), data=st.data())
def test_every_piece_is_written_and_divided(tmp_path_factory, dtype, rows, cols, entries, map_bytes,
                                            by_columns, transposed, data) -> None:
    """Pieces of a few entries (by rows into an array's rows, by columns into a transposed
    one), files mapped a row or a few at a time: the block and its division by β, exactly."""
    info, values = _tensor(tmp_path_factory.mktemp("w"), dtype, (rows, cols))
    r0 = data.draw(st.integers(0, rows - 1))
    r1 = data.draw(st.integers(r0 + 1, rows))
    c0 = data.draw(st.integers(0, cols - 1))
    c1 = data.draw(st.integers(c0 + 1, cols))
    span = (r0, r1), (c0, c1)
    if by_columns:
        span = (0, rows), (c0, c1)
    shape = (span[0][1] - span[0][0], span[1][1] - span[1][0])
    base, halves = (np.full(shape[::-1], np.nan), np.full(shape[::-1], np.nan)) if transposed else \
        (np.full(shape, np.nan), np.full(shape, np.nan))
    out, half = (base.T, halves.T) if transposed else (base, halves)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(safetensors_io, "WIDEN_ENTRIES", entries)
        finite = read_into(info, out, rows=span[0], columns=span[1], map_bytes=map_bytes, divided=(half, 2.0))
    expected = values[span[0][0]:span[0][1], span[1][0]:span[1][1]]
    assert finite is True
    assert np.array_equal(out, expected)
    assert np.array_equal(half, expected / 2.0)


@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from(("F32", "F16", "BF16")), bad=st.sampled_from([np.nan, np.inf, -np.inf]),
       where=st.tuples(st.integers(0, 6), st.integers(0, 10)), entries=st.integers(1, 30),
       transposed=st.booleans())
def test_a_non_finite_entry_is_reported_from_any_piece(tmp_path_factory, dtype, bad, where, entries,
                                                       transposed) -> None:
    """One NaN or infinity anywhere, in the first piece or the last: not finite. (A check of
    only some pieces, or of the division's result, would miss it.)"""
    values = stored(np.random.default_rng(1).standard_normal((7, 11)), dtype)
    values[where] = bad
    path = tmp_path_factory.mktemp("w") / "w.safetensors"
    write_safetensors(path, {"w": (dtype, values)})
    info = read_header(path)["w"]
    out = np.empty((11, 7)).T if transposed else np.empty((7, 11))
    clean = [r for r in range(7) if r != where[0]][0]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(safetensors_io, "WIDEN_ENTRIES", entries)
        assert read_into(info, out, map_bytes=30) is False
        assert read_into(info, np.empty((7, 11)), map_bytes=10**6, divided=(np.empty((7, 11)), 2.0)) is False
        assert read_into(info, np.empty((1, 11)), rows=(clean, clean + 1)) is True


def test_a_value_factor_with_a_non_finite_weight_is_named(tmp_path) -> None:
    """down_proj's units are its columns (read transposed, by column pieces): the error names
    the unit and the entry, as before the pieces."""
    from symcheck.core.errors import WeightsError
    from symcheck.numeric.architectures import open_model
    from symcheck.numeric.model_report import measure_layer
    tensors = write_model(tmp_path / "m", "llama", layers=1, d=5, m=9, dtype="BF16")
    name = "model.layers.0.mlp.down_proj.weight"
    tensors[name][2, 6] = np.inf
    tensors[name][4, 1] = np.nan
    write_safetensors(tmp_path / "m" / "model.safetensors", {n: ("BF16", v) for n, v in tensors.items()})
    layer = open_model(tmp_path / "m").layers[0]
    with pytest.raises(WeightsError, match=r"down_proj.weight' has a non-finite value \(nan\) for unit 1, "
                                           r"entry 4$"):
        measure_layer(layer, np.ones((3, 5)), "1MiB")


def test_sigma_hands_out_its_own_array_never_its_input() -> None:
    """σ(z) = z and σ = |z| evaluate to the input or to an array of their own: the result may
    be changed in place by the caller (the model report does) without changing the input or
    the next call's result."""
    import sympy

    from symcheck.exact.vectorize import vectorize
    z = sympy.Symbol("z", real=True)
    x = np.array([[-1.5, 0.0], [2.0, 3.0]])
    kept = x.copy()
    for expr in (z, sympy.Abs(z), z / (1 + sympy.exp(-z)), sympy.Max(z, 0)):
        f = vectorize(expr, (z,))
        first = f(x)
        expected = first.copy()
        first += 100.0
        assert np.array_equal(x, kept)
        assert np.array_equal(f(x), expected)
        assert not np.shares_memory(f(x), x)
