"""The memory-mapped safetensors reader: blocks of rows and columns, every float dtype, BF16
widened exactly, against the safetensors library and torch's own bfloat16."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.numeric.safetensors_io import read_block, read_header

from support.model_checkpoints import bfloat16_bits, stored, write_safetensors


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
def test_blocks_equal_the_safetensors_librarys_tensor(tmp_path, dtype) -> None:
    safetensors_numpy = pytest.importorskip("safetensors.numpy", reason="needs the safetensors package")
    rng = np.random.default_rng(1)
    tensors = {"a": rng.standard_normal((13, 7)).astype(dtype), "b": rng.standard_normal(5).astype(dtype),
               "c": rng.standard_normal((3, 40)).astype(dtype)}
    path = tmp_path / "t.safetensors"
    safetensors_numpy.save_file(tensors, str(path))
    header = read_header(path)
    assert set(header) == set(tensors)
    for name, array in tensors.items():
        assert np.array_equal(read_block(header[name]), array.astype(np.float64))
    # every block of rows and columns, with mappings of one row at a time and of all of them
    for map_bytes in (1, 10**6):
        for r0, r1, c0, c1 in [(0, 13, 0, 7), (2, 9, 3, 4), (12, 13, 0, 1), (5, 5, 0, 7), (0, 13, 6, 7)]:
            got = read_block(header["a"], rows=(r0, r1), columns=(c0, c1), map_bytes=map_bytes)
            assert np.array_equal(got, tensors["a"][r0:r1, c0:c1].astype(np.float64))
    assert np.array_equal(read_block(header["b"], rows=(1, 4)), tensors["b"][1:4].astype(np.float64))


def test_bfloat16_is_read_as_torch_reads_it(tmp_path) -> None:
    torch = pytest.importorskip("torch", reason="needs torch for its bfloat16")
    values = np.random.default_rng(2).standard_normal((6, 9)) * 1e3
    path = tmp_path / "bf.safetensors"
    write_safetensors(path, {"w": ("BF16", values)})
    expected = torch.tensor(values, dtype=torch.float32).to(torch.bfloat16).to(torch.float64).numpy()
    assert np.array_equal(read_block(read_header(path)["w"]), expected)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=2**16 - 1), min_size=1, max_size=64))
def test_bfloat16_widening_is_exact_on_every_bit_pattern(tmp_path_factory, patterns) -> None:
    """Every 16-bit pattern is the top half of a float32 (NaNs and infinities included)."""
    bits = np.array(patterns, dtype=np.uint16)
    path = tmp_path_factory.mktemp("bf") / "p.safetensors"
    header = {"p": ("BF16", np.zeros(len(bits)))}
    write_safetensors(path, header)
    raw = bytearray(path.read_bytes())
    raw[-2 * len(bits):] = bits.tobytes()
    path.write_bytes(bytes(raw))
    got = read_block(read_header(path)["p"])
    expected = (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    assert np.array_equal(got, expected, equal_nan=True)
    assert np.array_equal(np.isnan(got), np.isnan(expected))


@settings(max_examples=40, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, width=32))
def test_the_test_writer_rounds_to_the_nearest_bfloat16(value) -> None:
    """The checkpoints the tests write hold the bfloat16 nearest to each value (ties to even)."""
    bits = int(bfloat16_bits(np.array([value]))[0])
    as_float = float((np.array([bits], dtype=np.uint32) << 16).view(np.float32)[0])
    if not np.isfinite(as_float):
        return  # rounded past the largest bfloat16
    neighbours = [float((np.array([b % 2**16], dtype=np.uint32) << 16).view(np.float32)[0])
                  for b in (bits - 1, bits + 1)]
    assert all(abs(as_float - value) <= abs(n - value) for n in neighbours if np.isfinite(n))


def test_a_2d_tensor_outside_its_shape_is_refused(tmp_path) -> None:
    path = tmp_path / "t.safetensors"
    write_safetensors(path, {"w": ("F32", np.ones((3, 4)))})
    from symcheck.core.errors import WeightsError
    with pytest.raises(WeightsError, match=r"block rows 0–4, columns 0–4 outside shape \(3, 4\)"):
        read_block(read_header(path)["w"], rows=(0, 4))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(1, 30), st.sampled_from(["BF16", "F16", "F32", "F64"]), st.data())
def test_blocks_into_a_given_array_equal_the_stored_tensor(tmp_path_factory, rows, cols, dtype, data) -> None:
    """Blocks read into ``out`` — a buffer or a transposed view of one — through scratches
    smaller and larger than a row (map_bytes 1 gives a one-entry scratch) equal the stored
    tensor, and nothing outside the block is written."""
    values = np.random.default_rng(rows * 31 + cols).standard_normal((rows, cols)) * 50
    path = tmp_path_factory.mktemp("bf") / "w.safetensors"
    write_safetensors(path, {"w": (dtype, values)})
    full = stored(values, dtype)
    r0 = data.draw(st.integers(0, rows))
    r1 = data.draw(st.integers(r0, rows))
    c0 = data.draw(st.integers(0, cols))
    c1 = data.draw(st.integers(c0, cols))
    map_bytes = data.draw(st.sampled_from([1, 2 * cols, 64, 10**6]))
    info = read_header(path)["w"]
    expected = full[r0:r1, c0:c1]
    assert np.array_equal(read_block(info, (r0, r1), (c0, c1), map_bytes=map_bytes), expected)
    buffer = np.full((r1 - r0 + 1, c1 - c0 + 1), -7.0)
    got = read_block(info, (r0, r1), (c0, c1), map_bytes=map_bytes, out=buffer[:-1, :-1])
    assert np.array_equal(got, expected) and np.array_equal(buffer[:-1, :-1], expected)
    assert (buffer[-1] == -7.0).all() and (buffer[:, -1] == -7.0).all()
    transposed = np.full((c1 - c0, r1 - r0), -7.0)
    read_block(info, (r0, r1), (c0, c1), map_bytes=map_bytes, out=transposed.T)
    assert np.array_equal(transposed, expected.T)


def test_a_given_array_of_the_wrong_shape_is_refused(tmp_path) -> None:
    path = tmp_path / "t.safetensors"
    write_safetensors(path, {"w": ("BF16", np.ones((3, 4)))})
    with pytest.raises(ValueError, match=r"expected float64 and \(3, 4\)"):
        read_block(read_header(path)["w"], out=np.empty((4, 3)))
