"""Layers as dask tasks on worker processes give exactly the serial report; a failing layer
fails the run with its own one-line error; an unreachable scheduler is a one-line error."""
from __future__ import annotations

import json

import numpy as np
import pytest

from symcheck.core.errors import NumericError, WeightsError
from symcheck.numeric.model_report import model_report

from support import invoke_cli
from support.model_checkpoints import write_model, write_safetensors

pytestmark = pytest.mark.slow  # among the heaviest files measured: left out of the quick run

distributed = pytest.importorskip("dask.distributed", reason="needs dask.distributed (the dask extra)")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=40) as running:
        yield running


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    write_model(root / "llama", "llama", layers=4, d=12, m=20, dtype="BF16", shards=3)
    write_model(root / "gpt2", "gpt2", layers=3, d=8, m=32, dtype="F32")
    return root


def _layers(report) -> str:
    return json.dumps([layer.to_dict() for layer in report.layers])


@pytest.mark.parametrize("name", ["llama", "gpt2"])
def test_a_cluster_gives_the_serial_figures_exactly(cluster, models, name) -> None:
    serial = model_report(models / name, tokens=24, memory="64KiB")
    spread = model_report(models / name, tokens=24, memory="64KiB", scheduler=cluster.scheduler_address)
    assert spread.runner == f"dask at {cluster.scheduler_address}"
    assert _layers(spread) == _layers(serial)


def test_progress_is_reported_per_layer(cluster, models) -> None:
    seen: list[str] = []
    model_report(models / "llama", tokens=4, scheduler=cluster.scheduler_address, progress=seen.append)
    assert sorted(seen) == ["layer 0", "layer 1", "layer 2", "layer 3"]


def test_a_layer_failing_on_a_worker_is_its_one_line_error(cluster, tmp_path) -> None:
    tensors = write_model(tmp_path, "llama", layers=2, d=4, m=5)
    tensors["model.layers.1.mlp.down_proj.weight"][2, 3] = np.inf
    write_safetensors(tmp_path / "model.safetensors", {n: ("F32", v) for n, v in tensors.items()})
    with pytest.raises(WeightsError, match=r"tensor 'model.layers.1.mlp.down_proj.weight' has a non-finite "
                                           r"value \(inf\) for unit 3, entry 2"):
        model_report(tmp_path, tokens=3, scheduler=cluster.scheduler_address)


def test_cli_workers_match_the_serial_json(models) -> None:
    code, serial, err = invoke_cli("model", str(models / "gpt2"), "--json", "--tokens", "6")
    assert code == 0, err
    code, spread, err = invoke_cli("model", str(models / "gpt2"), "--json", "--tokens", "6", "--workers", "2")
    assert code == 0, err
    serial, spread = json.loads(serial), json.loads(spread)
    assert spread["runner"] == "dask, 2 local worker processes"
    assert spread["layers"] == serial["layers"]


def test_an_unreachable_scheduler_is_a_one_line_error(models, monkeypatch) -> None:
    from symcheck.numeric import distributed as ours
    monkeypatch.setattr(ours, "CONNECT_SECONDS", 1)
    with pytest.raises(NumericError, match=r"^cannot reach the dask scheduler at 'tcp://127.0.0.1:9' "):
        model_report(models / "gpt2", tokens=2, scheduler="tcp://127.0.0.1:9")
