"""Hostile model directories: every one is a one-line ``Error: …`` with exit 2, never a hang,
a traceback (exit 3) or memory growing without end.

JSON that Python's parser cannot take (nesting 200,000 deep, a 5,000-digit integer) in a
safetensors header, an index or config.json; config.json, an index or a shard that is a FIFO or
a link to /dev/zero; safetensors headers the safetensors library refuses (overlapping, shifted
or gapped data_offsets) — refused here too, by the same rules, checked against the library on
generated headers; links followed and reported, or refused; .npy inputs whose header claims
more than the file holds; a directory holding only a PyTorch pickle.
"""
from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcheck.core.errors import WeightsError
from symcheck.numeric.architectures import open_model
from symcheck.numeric.model_report import model_report
from symcheck.numeric.safetensors_io import read_header

from support import invoke_cli
from support.model_checkpoints import write_model

#: a generous bound for a subprocess that must end by itself (it ends in about a second); a
#: hang would otherwise stop the whole test run
HANG = 120


def _one_line_exit_2(code: int, err: str) -> str:
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    return lines[0]


def _cli_in_child(*args: str) -> tuple[int, str]:
    """The real command in its own process: what hangs or grows there cannot take the test run
    with it (the timeout turns a hang into a failure)."""
    done = subprocess.run([sys.executable, "-m", "symcheck", *args], check=False, capture_output=True, text=True,
                          timeout=HANG, stdin=subprocess.DEVNULL,
                          preexec_fn=lambda: __import__("resource").setrlimit(
                              __import__("resource").RLIMIT_AS, (4 * 2**30, 4 * 2**30)))
    return done.returncode, done.stderr


def _header_and_data(path: Path) -> tuple[dict, bytes]:
    raw = path.read_bytes()
    (length,) = struct.unpack("<Q", raw[:8])
    return json.loads(raw[8:8 + length]), raw[8 + length:]


def _write_raw(path: Path, header_text: bytes, data: bytes) -> None:
    path.write_bytes(struct.pack("<Q", len(header_text)) + header_text + data)


def _rewrite_header(path: Path, change) -> None:
    header, data = _header_and_data(path)
    change(header)
    _write_raw(path, json.dumps(header).encode(), data)


# --------------------------------------------------------------------------- JSON Python cannot parse


DEEP = b"[" * 200_000 + b"]" * 200_000
HUGE_INT = b"1" * 5000


@pytest.mark.parametrize("where", ["header", "index", "config"])
@pytest.mark.parametrize("payload,why", [(DEEP, "nested too deeply"), (HUGE_INT, "digits")])
def test_json_python_cannot_parse_is_one_line_exit_2(tmp_path, where, payload, why) -> None:
    write_model(tmp_path, "llama", layers=1, shards=2 if where == "index" else 1)
    text = b'{"__metadata__": {}, "x": ' + payload + b"}"
    if where == "header":
        _, data = _header_and_data(tmp_path / "model.safetensors")
        _write_raw(tmp_path / "model.safetensors", text, data)
        name = "model.safetensors"
    else:
        name = "model.safetensors.index.json" if where == "index" else "config.json"
        (tmp_path / name).write_bytes(text)
    with pytest.raises(WeightsError, match=why) as err:
        open_model(tmp_path)
    assert str(err.value).startswith(f"{tmp_path / name}: ")
    line = _one_line_exit_2(*invoke_cli("model", str(tmp_path))[::2])
    assert why in line


# --------------------------------------------------------------------------- files that are not files


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


@pytest.mark.parametrize("name", ["config.json", "model.safetensors.index.json", "model-00001-of-00002.safetensors"])
@pytest.mark.parametrize("make,kind", [(_fifo, "a FIFO"), (_dev_zero, "a character device")])
@pytest.mark.slow
def test_a_file_that_is_not_a_regular_file_is_refused_without_reading(tmp_path, name, make, kind) -> None:
    write_model(tmp_path, "llama", layers=1, shards=2)
    make(tmp_path / name)
    code, err = _cli_in_child("model", str(tmp_path), "--tokens", "2")
    line = _one_line_exit_2(code, err)
    assert line.startswith(f"Error: {tmp_path / name}: {kind}")
    assert line.endswith("expected a regular file")


def test_an_oversized_config_is_refused_before_it_is_read(tmp_path) -> None:
    from symcheck.numeric.architectures import MAX_CONFIG
    write_model(tmp_path, "llama", layers=1)
    with open(tmp_path / "config.json", "ab") as f:
        f.truncate(MAX_CONFIG + 1)
    with pytest.raises(WeightsError, match=f"{MAX_CONFIG + 1} bytes; config.json is expected to be at most"):
        open_model(tmp_path)


# --------------------------------------------------------------------------- headers the library refuses


def _entries(path: Path) -> dict[str, list[int]]:
    header, _ = _header_and_data(path)
    return {n: e["data_offsets"] for n, e in header.items() if n != "__metadata__"}


def test_a_tensor_pointing_at_anothers_bytes_is_refused(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=1)
    path = tmp_path / "model.safetensors"
    offsets = _entries(path)
    gate, up = "model.layers.0.mlp.gate_proj.weight", "model.layers.0.mlp.up_proj.weight"
    _rewrite_header(path, lambda h: h[up].update(data_offsets=offsets[gate]))
    with pytest.raises(WeightsError, match=r"overlaps the tensor before it|leaves a gap"):
        model_report(tmp_path, tokens=2)
    _one_line_exit_2(*invoke_cli("model", str(tmp_path))[::2])


def test_offsets_shifted_into_the_wrong_bytes_are_refused(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=1)
    path = tmp_path / "model.safetensors"
    header, data = _header_and_data(path)
    for entry in header.values():
        entry["data_offsets"] = [entry["data_offsets"][0] + 64, entry["data_offsets"][1] + 64]
    _write_raw(path, json.dumps(header).encode(), data + bytes(64))  # the file still covers them
    with pytest.raises(WeightsError, match=r"leaves a gap of 64 bytes before it"):
        model_report(tmp_path, tokens=2)


def _library_accepts(path: Path) -> bool:
    from safetensors import safe_open
    try:
        with safe_open(str(path), framework="np") as handle:
            for name in handle.keys():  # noqa: SIM118 - the handle is not a dict
                handle.get_slice(name)
        return True
    except Exception:  # noqa: BLE001 - the library's error types differ between versions
        return False


def _ours_accepts(path: Path) -> bool:
    try:
        read_header(path)
        return True
    except WeightsError:
        return False


_ITEMSIZE = {"F32": 4, "F16": 2, "BF16": 2, "F64": 8, "I8": 1}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=st.lists(st.tuples(st.sampled_from(sorted(_ITEMSIZE)),
                                  st.lists(st.integers(0, 4), min_size=0, max_size=2)), min_size=1, max_size=4),
       order=st.randoms(use_true_random=False),
       edits=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 1), st.integers(-9, 9)), max_size=3),
       extra=st.integers(-3, 3))
def test_headers_are_accepted_exactly_when_the_safetensors_library_accepts_them(
        tmp_path, entries, order, edits, extra) -> None:
    """A valid header (tensors end to end, in a shuffled order in the JSON), then a few offsets
    moved and the data cut or padded: overlaps, gaps, misfits, and some still valid."""
    pytest.importorskip("safetensors")
    header, offset = {}, 0
    for i, (dtype, shape) in enumerate(entries):
        size = int(np.prod(shape)) * _ITEMSIZE[dtype]
        header[f"t{i}"] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    for which, side, delta in edits:
        entry = header[f"t{which % len(entries)}"]
        entry["data_offsets"][side] = max(0, entry["data_offsets"][side] + delta)
    names = list(header)
    order.shuffle(names)
    path = tmp_path / "h.safetensors"
    _write_raw(path, json.dumps({n: header[n] for n in names}).encode(), bytes(max(0, offset + extra)))
    assert _ours_accepts(path) == _library_accepts(path)


# --------------------------------------------------------------------------- links


def _linked_model(tmp_path: Path) -> tuple[Path, Path]:
    """A model directory whose second shard is a link to a file elsewhere, as the Hugging Face
    cache lays them (snapshots/ links into blobs/)."""
    model, blobs = tmp_path / "snapshot", tmp_path / "blobs"
    write_model(model, "llama", layers=2, shards=2)
    blobs.mkdir()
    shard = model / "model-00002-of-00002.safetensors"
    target = blobs / "3f2a"
    shard.rename(target)
    shard.symlink_to(target)
    return model, target


def test_a_linked_shard_is_followed_and_reported(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    # wide enough for the whole path on one line, however deep the temporary folder (pytest-xdist's
    # workers add a level): a line wrapped inside the path would split it
    monkeypatch.setenv("COLUMNS", "1000")
    model, target = _linked_model(tmp_path)
    report = model_report(model, tokens=3)
    assert report.links == ((model / "model-00002-of-00002.safetensors", target),)
    code, out, err = invoke_cli("model", str(model), "--tokens", "3")
    assert code == 0, err
    flat = " ".join(out.split())
    assert f"model-00002-of-00002.safetensors → {target}" in flat
    code, out, _ = invoke_cli("model", str(model), "--tokens", "3", "--json")
    assert json.loads(out)["links"] == [{"file": str(model / "model-00002-of-00002.safetensors"),
                                        "target": str(target)}]


def test_links_are_refused_on_request(tmp_path) -> None:
    model, target = _linked_model(tmp_path)
    with pytest.raises(WeightsError, match=f"a symbolic link \\(to {target}\\); links are refused"):
        open_model(model, follow_links=False)
    line = _one_line_exit_2(*invoke_cli("model", str(model), "--refuse-links")[::2])
    assert "model-00002-of-00002.safetensors: a symbolic link" in line
    _, help_text, _ = invoke_cli("model", "--help")
    assert "--refuse-links" in help_text


def test_a_link_to_nowhere_is_one_line(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=1)
    (tmp_path / "model.safetensors").unlink()
    (tmp_path / "model.safetensors").symlink_to(tmp_path / "gone")
    with pytest.raises(WeightsError, match="a symbolic link that leads to no file"):
        open_model(tmp_path)


def test_an_unlinked_model_reports_no_links(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=1)
    assert model_report(tmp_path, tokens=2).links == ()


# --------------------------------------------------------------------------- inputs


def _npy_claiming(path: Path, shape: tuple[int, ...]) -> None:
    """A .npy file whose header claims ``shape`` of float64 but holds 16 bytes of data."""
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, {"descr": "<f8", "fortran_order": False, "shape": shape})
        f.write(bytes(16))


@pytest.mark.parametrize("rows", [2**37, 3])
def test_an_npy_header_claiming_more_than_the_file_is_refused_before_allocating(tmp_path, rows) -> None:
    write_model(tmp_path, "llama", layers=1, d=6)
    _npy_claiming(tmp_path / "X.npy", (rows, 6))
    with pytest.raises(WeightsError, match=rf"claims shape \({rows}, 6\) of float64 \({rows * 48} bytes\) "
                                           r"but 16 bytes of data follow"):
        model_report(tmp_path, inputs=tmp_path / "X.npy")
    _one_line_exit_2(*invoke_cli("model", str(tmp_path), "--inputs", str(tmp_path / "X.npy"))[::2])


def test_an_npz_member_claiming_more_than_it_holds_is_refused(tmp_path) -> None:
    import zipfile
    write_model(tmp_path, "llama", layers=1, d=6)
    _npy_claiming(tmp_path / "X.npy", (2**37, 6))
    with zipfile.ZipFile(tmp_path / "X.npz", "w") as archive:
        archive.write(tmp_path / "X.npy", "X.npy")
    with pytest.raises(WeightsError, match=r"tensor 'X': its header claims shape \(137438953472, 6\)"):
        model_report(tmp_path, inputs=tmp_path / "X.npz")


def test_honest_npy_inputs_still_load(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=1, d=6)
    X = np.random.default_rng(3).standard_normal((5, 6))
    np.save(tmp_path / "X.npy", X)
    np.savez_compressed(tmp_path / "X.npz", X=X)
    assert model_report(tmp_path, inputs=tmp_path / "X.npy").tokens == 5
    assert model_report(tmp_path, inputs=tmp_path / "X.npz").tokens == 5


# --------------------------------------------------------------------------- other formats


def test_a_pytorch_pickle_alone_is_named_with_how_to_convert_it(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=1)
    (tmp_path / "model.safetensors").rename(tmp_path / "pytorch_model.bin")
    with pytest.raises(WeightsError) as err:
        open_model(tmp_path)
    message = str(err.value)
    assert message.startswith(f"{tmp_path}: found pytorch_model.bin (PyTorch's pickle format")
    assert "save_pretrained(NEW_DIR, safe_serialization=True)" in message
    _one_line_exit_2(*invoke_cli("model", str(tmp_path))[::2])
