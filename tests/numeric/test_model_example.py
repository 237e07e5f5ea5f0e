"""examples/tiny-llama ships ready to read: the script that made it makes the same bytes, the
command reads it right after install, and transformers reads its config.json and its MLPs to
the same outputs."""
from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

from symcheck.numeric.architectures import open_model
from symcheck.numeric.model_report import layer_output

from support import ROOT, invoke_cli

EXAMPLES = ROOT / "examples"
TINY = EXAMPLES / "tiny-llama"


def _script():
    spec = importlib.util.spec_from_file_location("make_tiny_llama", EXAMPLES / "make_tiny_llama.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_files_are_what_the_script_makes(tmp_path) -> None:
    _script().write(tmp_path)
    for name in ("config.json", "model.safetensors"):
        assert (tmp_path / name).read_bytes() == (TINY / name).read_bytes(), name
    assert sum(p.stat().st_size for p in TINY.iterdir()) < 512 * 1024


def test_symcheck_model_reads_the_example() -> None:
    code, out, err = invoke_cli("model", str(TINY), "--json", "--tokens", "16")
    assert code == 0, err
    report = json.loads(out)
    assert report["architecture"] == "llama" and report["layers_in_model"] == 4
    assert all(layer["relative_error"] <= 1e-12 for layer in report["layers"])


def test_transformers_reads_the_example_as_symcheck_does() -> None:
    torch = pytest.importorskip("torch", reason="needs torch (the torch extra)")
    transformers = pytest.importorskip("transformers", reason="needs transformers (the test extra)")
    from safetensors.torch import load_file  # BF16: NumPy has no bfloat16
    config = transformers.LlamaConfig.from_pretrained(TINY)
    weights = load_file(str(TINY / "model.safetensors"))
    X = np.random.default_rng(4).standard_normal((5, config.hidden_size))
    for layer in open_model(TINY).layers:
        module = transformers.models.llama.modeling_llama.LlamaMLP(config).to(torch.float64)
        module.load_state_dict({k[len(layer.prefix):]: v.to(torch.float64) for k, v in weights.items()
                                if k.startswith(layer.prefix)})
        with torch.no_grad():
            expected = module(torch.from_numpy(X)).numpy()
        got = layer_output(layer, X)
        assert np.linalg.norm(got - expected) <= 1e-12 * np.linalg.norm(expected)
