"""`symcheck canonical`: canonical(A) and canonical(g·A) agree to rounding for a random legal g —
on transformers' own models of every architecture (F32, BF16, sharded) and, with Hypothesis, on
layers given as arrays, where the truth is exact; the canonical model keeps the logits; memory
stays within the budget."""
from __future__ import annotations

import json
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.engine.group.layer import layer_group
from symcheck.numeric.canonical import canonical, canonical_element
from symcheck.numeric.checkpoint_writer import UNIT_ROUNDOFF
from symcheck.numeric.layer_elements import prove_element
from symcheck.numeric.safetensors_io import open_checkpoint, read_block
from symcheck.numeric.transform import transform

from support import invoke_cli as invoke
from support.model_checkpoints import write_model
from support.traced import large_model, traced_peak

DTYPES = {"float32": "F32", "bfloat16": "BF16"}
#: canonical(g·A) = round(s'·round(λ·A)) against canonical(A) = round(s·A), where s' = s/λ up to
#: the relative error u of a norm of rounded rows: at most four roundings apart
ROUNDINGS = 4


def _entrywise(first, second) -> float:
    """max over tensors and entries of |x − y| / |x|, tensor by tensor by name."""
    a, b = open_checkpoint(first), open_checkpoint(second)
    assert set(a.tensors) == set(b.tensors)
    worst = 0.0
    for name, info in a.tensors.items():
        x, y = read_block(info), read_block(b.tensors[name])
        worst = max(worst, float(np.max(np.abs(x - y) / np.maximum(np.abs(x), np.finfo(np.float64).tiny))))
    return worst


# ---- transformers' models ---------------------------------------------------------------------

torch = pytest.importorskip("torch", reason="needs torch (the torch extra)")
transformers = pytest.importorskip("transformers", reason="needs transformers (the test extra)")
from support import hf_models as hf


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("arch", hf.ARCHITECTURES)
@pytest.mark.slow
def test_canonical_of_a_and_of_g_a_agree_and_keep_the_logits(tmp_path, arch, dtype) -> None:
    hf.build(tmp_path / "a", arch, dtype)
    files, _ = hf.legal_element(tmp_path, arch, np.random.default_rng(zlib.crc32(f"{arch}{dtype}".encode())))
    transform(tmp_path / "a", tmp_path / "b", **files)
    first = canonical(tmp_path / "a", tmp_path / "ca")
    second = canonical(tmp_path / "b", tmp_path / "cb")
    u = UNIT_ROUNDOFF[DTYPES[dtype]]
    assert _entrywise(tmp_path / "ca", tmp_path / "cb") <= ROUNDINGS * u
    assert all(layer.moved > 0 for layer in second.layers)  # g's permutation undone
    if arch in hf.GATED:  # λ of both signs: some value paths turned back
        assert sum(layer.value_flips for layer in second.layers) > 0
    tokens = hf.tokens()
    before, after = hf.logits(hf.load(tmp_path / "a"), tokens), hf.logits(hf.load(tmp_path / "ca"), tokens)
    assert np.abs(after - before).max() <= 8 * u * np.abs(before).max(), first.rounding


@pytest.mark.slow
def test_an_odd_gate_has_its_sign_fixed(tmp_path) -> None:
    """tanh: G_σ = {(1, 1), (−1, −1)}: gates turned by g are turned back."""
    hf.build(tmp_path / "a", "llama", "bfloat16", hidden_act="tanh")
    files, _ = hf.legal_element(tmp_path, "llama", np.random.default_rng(4), gate_signs=True)
    transform(tmp_path / "a", tmp_path / "b", **files)
    canonical(tmp_path / "a", tmp_path / "ca")
    second = canonical(tmp_path / "b", tmp_path / "cb")
    assert _entrywise(tmp_path / "ca", tmp_path / "cb") <= ROUNDINGS * UNIT_ROUNDOFF["BF16"]
    assert sum(layer.gate_flips for layer in second.layers) > 0


@pytest.mark.slow
def test_a_changed_model_has_a_different_canonical_form(tmp_path) -> None:
    """The comparison can fail: one gate row changed outside the group moves canonical weights."""
    model = hf.build(tmp_path / "a", "llama", "float32")
    with torch.no_grad():
        model.model.layers[0].mlp.gate_proj.weight[5].mul_(1.5)
    model.to(torch.float32).save_pretrained(tmp_path / "b", safe_serialization=True, max_shard_size="8KB")
    canonical(tmp_path / "a", tmp_path / "ca")
    canonical(tmp_path / "b", tmp_path / "cb")
    assert _entrywise(tmp_path / "ca", tmp_path / "cb") > 0.1


# ---- layers as arrays: the truth is exact ----------------------------------------------------

_GROUPS = {}


def _group(act: str, form: str):
    if (act, form) not in _GROUPS:
        _GROUPS[act, form] = layer_group(act, form)
    return _GROUPS[act, form]


def _apply(element, form: str, rows: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """g applied to a layer's rows by the definition: scale, then unit i := unit P[i]."""
    m = len(rows["value"])
    order = np.arange(m) if element.permutation is None else element.permutation
    multipliers = element.multipliers(form, m)
    return {role: (r if multipliers.get(role) is None else r * multipliers[role][:, None])[order]
            for role, r in rows.items()}


def _canonical(group, form: str, rows: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    gate, path = (rows["query"], rows["key"]) if form == "gated" else (rows["key"], None)
    element, _ = canonical_element(group, 0, gate, path, rows["value"], len(rows["value"]))
    return _apply(element, form, rows)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.integers(1, 6),
       st.sampled_from([("silu", "gated"), ("relu", "gated"), ("tanh", "gated"), ("relu", "mlp"),
                        ("tanh", "mlp"), ("Abs(z)", "mlp")]))
def test_arrays_canonical_is_invariant_and_idempotent(seed, m, d, kind) -> None:
    act, form = kind
    group = _group(act, form)
    rng = np.random.default_rng(seed)
    roles = ("query", "key", "value") if form == "gated" else ("key", "value")
    rows = {role: rng.standard_normal((m, d)) for role in roles}
    # a random legal g: scales from G_σ's own members, λ of both signs, a permutation
    gate = {"silu": np.ones(m), "relu": rng.uniform(0.2, 5, m), "tanh": rng.choice([-1.0, 1.0], m),
            "Abs(z)": rng.uniform(0.2, 5, m) * rng.choice([-1.0, 1.0], m)}[act]
    g = prove_element(group, 0, m, rng.permutation(m), gate,
                      rng.uniform(0.2, 5, m) * rng.choice([-1.0, 1.0], m) if form == "gated" else None)
    moved = _apply(g, form, rows)
    first, second = _canonical(group, form, rows), _canonical(group, form, moved)
    for role in roles:
        np.testing.assert_allclose(second[role], first[role], rtol=1e-12, atol=0)
        np.testing.assert_allclose(_canonical(group, form, first)[role], first[role], rtol=1e-12, atol=0)
    if form == "gated":  # the value path balanced, and its sign fixed
        np.testing.assert_allclose(np.linalg.norm(first["key"], axis=1), np.linalg.norm(first["value"], axis=1),
                                   rtol=1e-12)
        assert np.all(first["key"][:, 0] > 0)
    if act in ("tanh", "Abs(z)"):  # the gate's sign fixed
        assert np.all(first["query" if form == "gated" else "key"][:, 0] > 0)


# ---- --like: the units matched to a reference ---------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 40), st.integers(8, 24), st.sampled_from([0.0, 1e-3, 1e-2]),
       st.sampled_from([("silu", "gated"), ("relu", "mlp"), ("tanh", "gated")]))
def test_like_aligns_a_moved_fine_tune_unit_by_unit(seed, m, d, noise, kind) -> None:
    """B = g·(A + noise): each unit of canonical(B, like=canonical(A)) lies within a few times the
    noise of the same unit of canonical(A) (exactly, to 1e-12, without noise) — where sorting by
    sign patterns would scramble the order as soon as one entry's sign changes."""
    act, form = kind
    group = _group(act, form)
    rng = np.random.default_rng(seed)
    roles = ("query", "key", "value") if form == "gated" else ("key", "value")
    rows = {role: rng.standard_normal((m, d)) for role in roles}
    for r in rows.values():  # first entries small: the noise turns their signs (the signs must come from the match)
        r[:, 0] *= 1e-3
    tuned = {role: r + noise * rng.standard_normal(r.shape) for role, r in rows.items()}
    gate = {"silu": np.ones(m), "relu": rng.uniform(0.2, 5, m), "tanh": rng.choice([-1.0, 1.0], m)}[act]
    g = prove_element(group, 0, m, rng.permutation(m), gate,
                      rng.uniform(0.2, 5, m) * rng.choice([-1.0, 1.0], m) if form == "gated" else None)
    reference = _canonical(group, form, rows)
    moved = _apply(g, form, tuned)
    factors, like = ((side["query"], side["key"], side["value"]) if form == "gated" else
                     (side["key"], None, side["value"]) for side in (moved, reference))
    element, canon = canonical_element(group, 0, *factors, m, like=like)
    aligned = _apply(element, form, moved)
    for role in roles:
        error = np.linalg.norm(aligned[role] - reference[role], axis=1) / np.linalg.norm(reference[role], axis=1)
        assert error.max() <= (1e-12 if noise == 0 else 10 * noise), (role, error.max())  # a row moves by ≈ noise
    assert 0.0 <= canon.alignment <= 1.0 + 1e-12


def test_like_refuses_a_reference_of_another_shape(tmp_path) -> None:
    write_model(tmp_path / "a", "llama", layers=2, d=6, m=10)
    write_model(tmp_path / "r", "llama", layers=2, d=6, m=12)
    code, _, err = invoke("canonical", str(tmp_path / "a"), "-o", str(tmp_path / "o"), "--like", str(tmp_path / "r"))
    assert code == 2 and "does not have" in err and "cannot be matched" in err
    assert not (tmp_path / "o").exists()


# ---- memory and the command --------------------------------------------------------------------

@pytest.mark.slow
def test_memory_stays_within_the_budget_on_a_model_four_times_larger(tmp_path) -> None:
    budget = 2**20
    model, groups = large_model(tmp_path / "src", budget)
    report, peak = traced_peak(lambda: canonical(model, tmp_path / "out", memory=budget, groups=groups))
    assert peak <= budget, peak
    assert report.rounding < 1e-5


def test_cli_json_and_refusal(tmp_path) -> None:
    write_model(tmp_path / "src", "opt", layers=2, d=6, m=10, dtype="BF16")
    code, out, err = invoke("canonical", str(tmp_path / "src"), "-o", str(tmp_path / "out"), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["architecture"] == "opt" and len(data["layers"]) == 2
    assert {"moved", "gate_flips", "value_flips", "ties", "degenerate", "rounding"} <= set(data["layers"][0])
    assert any("balanced" in rule for rule in data["groups"][0]["rules"])
    code, _, err = invoke("canonical", str(tmp_path / "src"), "-o", str(tmp_path / "out"))
    assert code == 2 and err.startswith("Error: ") and "not an empty directory" in err and err.count("\n") == 1
