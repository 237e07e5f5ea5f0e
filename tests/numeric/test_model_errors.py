"""Bad model directories and bad options: one line naming what was expected, exit 2 on the
command line, never a traceback."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.cli import main
from symcheck.core.errors import NumericError, WeightsError
from symcheck.numeric.model_report import model_report, parse_layers

from support.model_checkpoints import write_model, write_safetensors


def _cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out, err = capsys.readouterr()
    return done.value.code, out, err


def _one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    assert "Traceback" not in err
    return lines[0]


def test_unknown_architecture_names_what_it_read_and_what_is_known(tmp_path) -> None:
    write_model(tmp_path, "llama", extra={"model_type": "mamba", "architectures": ["MambaForCausalLM"]})
    with pytest.raises(WeightsError) as err:
        model_report(tmp_path)
    assert str(err.value) == (f"{tmp_path / 'config.json'}: unknown architecture (model_type 'mamba', "
                              "architectures ['MambaForCausalLM']); symcheck reads the MLPs of: llama, "
                              "mistral, qwen2, gemma, gemma2, phi3, gpt2, opt")


def test_the_architectures_list_identifies_a_model_without_model_type(tmp_path) -> None:
    write_model(tmp_path, "qwen2", extra={"model_type": None})
    assert model_report(tmp_path, tokens=2).architecture.name == "qwen2"


def test_missing_tensor_names_it_and_the_layer(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=3, drop=("model.layers.2.mlp.up_proj.weight",), shards=2)
    with pytest.raises(WeightsError) as err:
        model_report(tmp_path)
    assert str(err.value) == (f"{tmp_path}: missing tensor 'model.layers.2.mlp.up_proj.weight' (llama layer 2 "
                              "of 3 needs gate_proj.weight, up_proj.weight, down_proj.weight)")


def test_no_mlp_tensors_at_all_lists_the_names_tried(tmp_path) -> None:
    write_model(tmp_path, "gpt2", layers=1, drop=("transformer.h.0.mlp.c_fc.weight",))
    with pytest.raises(WeightsError) as err:
        model_report(tmp_path)
    assert str(err.value) == (f"{tmp_path}: no gpt2 MLP tensors: expected 'transformer.h.0.mlp.c_fc.weight' "
                              "or 'h.0.mlp.c_fc.weight'")


def test_missing_bias_is_missing(tmp_path) -> None:
    write_model(tmp_path, "opt", layers=1, drop=("model.decoder.layers.0.fc1.bias",))
    with pytest.raises(WeightsError, match=r"missing tensor 'model.decoder.layers.0.fc1.bias'"):
        model_report(tmp_path)


def test_opt_without_biases_needs_none(tmp_path) -> None:
    write_model(tmp_path, "opt", layers=1, extra={"enable_bias": False},
                drop=("model.decoder.layers.0.fc1.bias", "model.decoder.layers.0.fc2.bias"))
    assert model_report(tmp_path, tokens=3).layers[0].relative_error <= 1e-13


def test_a_shape_that_contradicts_the_config_is_named(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=1, d=6, m=10, extra={"intermediate_size": 12})
    with pytest.raises(WeightsError) as err:
        model_report(tmp_path)
    assert str(err.value) == (f"{tmp_path / 'model.safetensors'}: tensor 'model.layers.0.mlp.gate_proj.weight' "
                              "has shape (10, 6); expected (12, 6) (units × features: m = 12, d = 6 from "
                              "config.json)")


@pytest.mark.parametrize("config,message", [
    (None, "no config.json (a Hugging Face model directory has one)"),
    ("{not json", "not a readable JSON file"),
    ("[1, 2]", "expected a JSON object"),
])
def test_config_problems(tmp_path, config, message) -> None:
    write_model(tmp_path, "llama", layers=1)
    if config is None:
        (tmp_path / "config.json").unlink()
    else:
        (tmp_path / "config.json").write_text(config)
    with pytest.raises(WeightsError, match=re.escape(message)):
        model_report(tmp_path)


def test_unknown_activation_lists_the_known_ones(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=1, extra={"hidden_act": "xielu"})
    with pytest.raises(WeightsError, match=r"activation 'xielu' is not one symcheck maps to its catalogue; "
                                           r"known: silu, swish, gelu"):
        model_report(tmp_path)


def test_no_weights_file(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=1)
    (tmp_path / "model.safetensors").unlink()
    with pytest.raises(WeightsError) as err:
        model_report(tmp_path)
    assert str(err.value) == (f"{tmp_path}: no model.safetensors or model.safetensors.index.json "
                              "(safetensors weights as save_pretrained writes them)")


def test_index_naming_a_missing_shard(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=2, shards=3)
    (tmp_path / "model-00002-of-00003.safetensors").unlink()
    with pytest.raises(WeightsError, match=r"model.safetensors.index.json: shard 'model-00002-of-00003"
                                           r".safetensors' \(tensor '.*'\) is missing"):
        model_report(tmp_path)


def test_index_listing_a_tensor_its_shard_does_not_hold(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=1, shards=2)
    index = json.loads((tmp_path / "model.safetensors.index.json").read_text())
    index["weight_map"]["model.layers.0.mlp.up_proj.weight"] = "model-00002-of-00002.safetensors"
    index["weight_map"]["model.layers.0.mlp.gate_proj.weight"] = "model-00002-of-00002.safetensors"
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps(index))
    with pytest.raises(WeightsError, match=r"lists tensor 'model.layers.0.mlp.(gate|up)_proj.weight' in "
                                           r"model-00002-of-00002.safetensors, which does not hold it"):
        model_report(tmp_path)


@pytest.mark.parametrize("damage,message", [
    (lambda raw: raw[:5], "shorter than its 8-byte header length"),
    (lambda raw: (10**9).to_bytes(8, "little") + raw[8:], "header length 1000000000 does not fit"),
    (lambda raw: raw[:8] + b"x" + raw[9:], "its header is not JSON"),
    (lambda raw: raw[:-4], "bytes of data but the file has"),
])
def test_damaged_files_are_one_line_errors(tmp_path, damage, message) -> None:
    write_model(tmp_path, "llama", layers=1)
    path = tmp_path / "model.safetensors"
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(WeightsError, match=re.escape(message)):
        model_report(tmp_path)


def test_an_integer_tensor_is_refused_by_name(tmp_path) -> None:
    tensors = write_model(tmp_path, "llama", layers=1, d=4, m=5)
    entries = {n: ("F32", v) for n, v in tensors.items()}
    entries["model.layers.0.mlp.down_proj.weight"] = ("I32", np.zeros((4, 5), dtype=np.int32))
    # the writer writes I32 through its dtype table: add it for this one file
    from support import model_checkpoints
    model_checkpoints._STORED["I32"] = "<i4"
    try:
        write_safetensors(tmp_path / "model.safetensors", entries)
    finally:
        del model_checkpoints._STORED["I32"]
    with pytest.raises(WeightsError, match=r"tensor 'model.layers.0.mlp.down_proj.weight' has dtype I32; "
                                           r"expected a floating-point tensor \(F64, F32, F16, BF16\)"):
        model_report(tmp_path, tokens=2)


def test_a_non_finite_weight_is_named_with_its_unit(tmp_path) -> None:
    tensors = write_model(tmp_path, "llama", layers=1, d=4, m=5)
    tensors["model.layers.0.mlp.up_proj.weight"][3, 1] = np.nan
    write_safetensors(tmp_path / "model.safetensors", {n: ("F32", v) for n, v in tensors.items()})
    with pytest.raises(WeightsError, match=r"tensor 'model.layers.0.mlp.up_proj.weight' has a non-finite "
                                           r"value \(nan\) for unit 3, entry 1"):
        model_report(tmp_path, tokens=2)


@pytest.mark.parametrize("text,expected", [
    ("0", (0,)), ("0,3-5", (0, 3, 4, 5)), ("5-5, 1", (1, 5)), (" 2 - 3 ", (2, 3)), ("1,1,0-1", (0, 1)),
])
def test_layers_are_parsed(text, expected) -> None:
    assert parse_layers(text, 8) == expected


@pytest.mark.parametrize("text,message", [
    ("", "layers '': '' is not an index or a range; expected indices and ranges such as 0,3-5"),
    ("1,,2", "layers '1,,2': '' is not an index or a range; expected indices and ranges such as 0,3-5"),
    ("a", "layers 'a': 'a' is not an index or a range; expected indices and ranges such as 0,3-5"),
    ("-1", "layers '-1': '-1' is not an index or a range; expected indices and ranges such as 0,3-5"),
    ("3-", "layers '3-': '3-' is not an index or a range; expected indices and ranges such as 0,3-5"),
    ("5-3", "layers '5-3': the range 5-3 is empty; write it as 3-5"),
    ("8", "layers '8': the model has 8 MLP layers (0–7)"),
    ("0,2-9", "layers '0,2-9': the model has 8 MLP layers (0–7)"),
])
def test_bad_layers_are_refused_exactly(text, message) -> None:
    with pytest.raises(NumericError) as err:
        parse_layers(text, 8)
    assert str(err.value) == message


def test_layer_indices_from_python_are_checked(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=2)
    assert [r.index for r in model_report(tmp_path, layers=[1], tokens=2).layers] == [1]
    with pytest.raises(NumericError, match=r"layer 2: the model has 2 MLP layers \(0–1\)"):
        model_report(tmp_path, layers=[2])


def test_inputs_of_the_wrong_width_are_refused(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=1, d=6)
    np.save(tmp_path / "X.npy", np.ones((3, 5)))
    with pytest.raises(WeightsError, match=r"X.npy: tensor 'X' has shape \(3, 5\); expected \(tokens, 6\)"):
        model_report(tmp_path, inputs=tmp_path / "X.npy")


def test_a_budget_too_small_is_refused_before_any_work(tmp_path) -> None:
    write_model(tmp_path, "llama", layers=1, d=6, m=10)
    with pytest.raises(NumericError, match=r"the memory budget 1000 B is too small for a layer with d = 6, "
                                           r"m = 10, e = 6 and 64 input rows: it needs at least"):
        model_report(tmp_path, tokens=64, memory=1000)


@pytest.mark.parametrize("args,message", [
    (["--inputs", "X.npy", "--tokens", "3"], "Error: --inputs and --tokens exclude each other: give one"),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
     "Error: --workers and --scheduler exclude each other: give one"),
    (["--layers", "9"], "Error: layers '9': the model has 2 MLP layers (0–1)"),
    (["--memory", "lots"], "Error: memory budget 'lots' is not a size such as 268435456, 256MiB or 1GB"),
    (["--plot", "defects.txt"], "Error: cannot tell the figure format from 'defects.txt': use a .png, .svg "
                                "or .pdf file"),
    (["--tokens", "0"], None),
    (["--workers", "0"], None),
])
def test_cli_errors_are_one_line_exit_2(tmp_path, capsys, args, message) -> None:
    write_model(tmp_path, "llama", layers=2)
    code, out, err = _cli(capsys, "model", str(tmp_path), *args)
    assert code == 2 and out == ""
    line = _one_error_line(err)
    if message is not None:
        assert line == message


def test_cli_on_a_missing_directory(tmp_path, capsys) -> None:
    code, _, err = _cli(capsys, "model", str(tmp_path / "nowhere"))
    assert code == 2
    assert _one_error_line(err) == f"Error: {tmp_path / 'nowhere'}: no such directory"


def test_cli_unknown_architecture(tmp_path, capsys) -> None:
    write_model(tmp_path, "llama", extra={"model_type": "rwkv", "architectures": None})
    code, _, err = _cli(capsys, "model", str(tmp_path))
    assert code == 2
    assert _one_error_line(err).startswith(f"Error: {tmp_path / 'config.json'}: unknown architecture "
                                           "(model_type 'rwkv'); symcheck reads the MLPs of: llama")


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=40), min_size=1), st.randoms(use_true_random=False))
def test_any_list_of_indices_and_ranges_reads_back_as_its_set(chosen, rnd) -> None:
    """Written as runs of consecutive indices (some as ranges, some spelled out), in any order."""
    ordered, runs = sorted(chosen), []
    for i in ordered:
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    items = []
    for lo, hi in runs:
        if hi > lo and rnd.random() < 0.5:
            items.append(f"{lo}-{hi}")
        else:
            items += [str(i) for i in range(lo, hi + 1)]
    rnd.shuffle(items)
    assert parse_layers(",".join(items), 41) == tuple(ordered)
