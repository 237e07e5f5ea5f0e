"""`transform` on models transformers built and saved itself: the whole model's logits, computed
by transformers from OUT, equal the original's to the dtype's rounding — and a hand-made illegal
change is far outside that."""
from __future__ import annotations

import zlib

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="needs torch (the torch extra)")
transformers = pytest.importorskip("transformers", reason="needs transformers (the test extra)")

from symcheck.numeric.checkpoint_writer import UNIT_ROUNDOFF
from symcheck.numeric.transform import transform

from support import hf_models as hf

DTYPES = {"float32": "F32", "bfloat16": "BF16"}


def _relative(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).max() / np.abs(a).max())


def _element(tmp_path, arch: str, rng, exact: bool) -> dict[str, str]:
    """A random legal g: a permutation, value scales (gated) and gate scales where G_σ has more
    than a = 1 (ReLU: any a > 0). ``exact``: powers of two, which no dtype rounds."""
    def scales(low: float, high: float) -> np.ndarray:
        if exact:
            return 2.0 ** rng.integers(-3, 4, hf.M)
        return rng.uniform(low, high, hf.M)
    np.save(tmp_path / "P.npy", rng.permutation(hf.M))
    options = {"permute": str(tmp_path / "P.npy")}
    if arch in hf.GATED:
        np.save(tmp_path / "l.npy", scales(0.3, 3) * rng.choice([-1.0, 1.0], hf.M))
        options["scale_value"] = str(tmp_path / "l.npy")
    if arch in hf.POSITIVE_GATES:
        np.save(tmp_path / "a.npy", scales(0.3, 3))
        options["scale_gate"] = str(tmp_path / "a.npy")
    return options


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("arch", hf.ARCHITECTURES)
def test_a_legal_element_keeps_the_whole_models_logits(tmp_path, arch, dtype) -> None:
    source = tmp_path / "a"
    hf.build(source, arch, dtype)
    tokens = hf.tokens()
    before = hf.logits(hf.load(source), tokens)
    rng = np.random.default_rng(zlib.crc32(f"{arch}-{dtype}".encode()))

    transform(source, tmp_path / "exact", **_element(tmp_path, arch, rng, exact=True))
    assert _relative(before, hf.logits(hf.load(tmp_path / "exact"), tokens)) < 1e-12  # nothing rounded

    report = transform(source, tmp_path / "b", **_element(tmp_path, arch, rng, exact=False))
    after = hf.logits(hf.load(tmp_path / "b"), tokens)
    tolerance = 8 * UNIT_ROUNDOFF[DTYPES[dtype]]
    assert _relative(before, after) <= tolerance, (report.rounding, _relative(before, after))


@pytest.mark.parametrize("arch", ["llama", "opt"])
def test_an_illegal_change_by_hand_is_far_outside_the_rounding(tmp_path, arch) -> None:
    source = tmp_path / "a"
    model = hf.build(source, arch, "float32")
    tokens = hf.tokens()
    before = hf.logits(model, tokens)
    with torch.no_grad():  # the gate of every unit scaled by 2 (SiLU), or by -1 (ReLU), uncompensated
        for layer in (model.model.layers if arch == "llama" else model.model.decoder.layers):
            if arch == "llama":
                layer.mlp.gate_proj.weight.mul_(2.0)
            else:
                layer.fc1.weight.mul_(-1.0)
                layer.fc1.bias.mul_(-1.0)
    assert _relative(before, hf.logits(model, tokens)) > 100 * 8 * UNIT_ROUNDOFF["F32"]
