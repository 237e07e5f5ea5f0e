"""Where the MLP of each layer lies in a Hugging Face checkpoint: a table, not guesswork.

Each entry names the tensors of one MLP block and how its units lie in them. torch's
``Linear`` stores ``out × in`` (a unit is a row of the first projection and a column of the
second); GPT-2's ``Conv1D`` stores ``in × out`` (a column of ``c_fc``, a row of ``c_proj``).
Gated blocks ``down(σ(gate(x)) · up(x))`` are the ``gated`` form with Q = gate, K = up,
V = downᵀ; two-layer blocks ``fc2(σ(fc1(x)))`` are ``mlp`` with keys K = fc1 and values
V = fc2ᵀ. Attention, embeddings and norms are not read.

The activation comes from the config key transformers' module for the family reads
(``hidden_act``, ``hidden_activation`` or ``activation_function``; Gemma2 reads
``hidden_activation`` and Gemma ``hidden_act``, and a Gemma config whose two keys transformers
versions would read differently is refused) and maps to a catalogue entry by the frameworks'
definitions: ``gelu_new`` and ``gelu_pytorch_tanh`` are both the tanh approximation ``gelu_tanh``.

>>> ARCHITECTURES["gpt2"].form is LayerForm.MLP, ARCHITECTURES["phi3"].roles["key"].start
(True, 'intermediate')
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from symcheck.core.errors import WeightsError
from symcheck.engine.group.layer_forms import LayerForm
from symcheck.numeric.regular_files import read_json
from symcheck.numeric.safetensors_io import Checkpoint, TensorInfo, open_checkpoint

__all__ = [
    "ARCHITECTURES",
    "HF_ACTIVATIONS",
    "MAX_CONFIG",
    "Architecture",
    "Factor",
    "MlpLayer",
    "Model",
    "Role",
    "architecture_of",
    "open_model",
]

#: the largest config.json read (real ones are a few kB)
MAX_CONFIG = 4 * 2**20

#: Hugging Face activation names (ACT2FN) -> catalogue entries with the same definition
HF_ACTIVATIONS: Mapping[str, str] = MappingProxyType({
    "silu": "silu", "swish": "silu",
    "gelu": "gelu", "gelu_python": "gelu",
    "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "gelu_python_tanh": "gelu_tanh",
    "quick_gelu": "quick_gelu",
    "relu": "relu", "relu2": "relu2", "relu6": "relu6", "leaky_relu": "leaky_relu",
    "sigmoid": "sigmoid", "tanh": "tanh", "mish": "mish", "hardswish": "hardswish",
    "linear": "identity",
})


@dataclass(frozen=True)
class Role:
    """One factor of every unit: the tensor (relative to the layer prefix), the axis its units
    run along (0: rows, as in torch Linear's first projection), where the units start along it
    (``"intermediate"``: after the first m, Phi-3's up half of ``gate_up_proj``), and the
    per-unit bias entry, if the block has one."""

    tensor: str
    units_axis: int
    start: int | str = 0
    bias: str | None = None


@dataclass(frozen=True)
class Architecture:
    """One row of the table: how a model family lays out its MLP blocks."""

    name: str
    model_types: tuple[str, ...]
    classes: tuple[str, ...]
    form: LayerForm
    prefixes: tuple[str, ...]                   # layer i's MLP tensors start with one of these
    roles: Mapping[str, Role]                   # query (gated only), key, value
    output_bias: str | None = None
    #: None: the biases are always there; (config key, default): present when the key is true
    bias_flag: tuple[str, bool] | None = None
    layers: tuple[str, ...] = ("num_hidden_layers",)
    hidden: tuple[str, ...] = ("hidden_size",)
    intermediate: tuple[str, ...] = ("intermediate_size",)
    activation: tuple[str, ...] = ("hidden_act",)
    default_activation: str = "silu"
    #: names this family uses differently from ACT2FN (Gemma's legacy "gelu" is the tanh form)
    aliases: Mapping[str, str] = field(default_factory=dict)
    #: the keys other transformers versions read the activation from: a config on which they
    #: disagree with ``activation`` is refused as ambiguous
    other_readings: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "form", LayerForm(self.form))  # a string reads back as the member

    @property
    def unit_tensors(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.tensor for r in self.roles.values()))

    def expected(self) -> str:
        return ", ".join(self.unit_tensors)


def _gated(name: str, model_types: tuple[str, ...], classes: tuple[str, ...], **options: Any) -> Architecture:
    roles = {"query": Role("gate_proj.weight", 0), "key": Role("up_proj.weight", 0),
             "value": Role("down_proj.weight", 1)}
    return Architecture(name, model_types, classes, LayerForm.GATED, ("model.layers.{i}.mlp.", "layers.{i}.mlp."),
                        MappingProxyType(roles), **options)


_LLAMA_BIASED = {"query": Role("gate_proj.weight", 0, bias="gate_proj.bias"),
                 "key": Role("up_proj.weight", 0, bias="up_proj.bias"),
                 "value": Role("down_proj.weight", 1)}

ARCHITECTURES: Mapping[str, Architecture] = MappingProxyType({
    "llama": Architecture("llama", ("llama",), ("LlamaForCausalLM", "LlamaModel"), LayerForm.GATED,
                          ("model.layers.{i}.mlp.", "layers.{i}.mlp."), MappingProxyType(_LLAMA_BIASED),
                          output_bias="down_proj.bias", bias_flag=("mlp_bias", False)),
    "mistral": _gated("mistral", ("mistral",), ("MistralForCausalLM", "MistralModel")),
    "qwen2": _gated("qwen2", ("qwen2",), ("Qwen2ForCausalLM", "Qwen2Model")),
    # transformers 5: GemmaMLP runs ACT2FN[config.hidden_act], GemmaConfig turning the legacy
    # "gelu" into "gelu_pytorch_tanh"; transformers 4 ran config.hidden_activation (None: the tanh
    # form), so a config on which the two readings differ is refused
    "gemma": _gated("gemma", ("gemma",), ("GemmaForCausalLM", "GemmaModel"),
                    activation=("hidden_act",), default_activation="gelu_pytorch_tanh",
                    aliases=MappingProxyType({"gelu": "gelu_pytorch_tanh"}),
                    other_readings=(("hidden_activation",),)),
    # Gemma2MLP (transformers 4 and 5) runs ACT2FN[config.hidden_activation]: "gelu" is exact
    # GELU there, and hidden_act is not read
    "gemma2": _gated("gemma2", ("gemma2",), ("Gemma2ForCausalLM", "Gemma2Model"),
                     activation=("hidden_activation",), default_activation="gelu_pytorch_tanh"),
    "phi3": Architecture("phi3", ("phi3",), ("Phi3ForCausalLM", "Phi3Model"), LayerForm.GATED,
                         ("model.layers.{i}.mlp.", "layers.{i}.mlp."),
                         MappingProxyType({"query": Role("gate_up_proj.weight", 0),
                                           "key": Role("gate_up_proj.weight", 0, start="intermediate"),
                                           "value": Role("down_proj.weight", 1)})),
    "gpt2": Architecture("gpt2", ("gpt2",), ("GPT2LMHeadModel", "GPT2Model"), LayerForm.MLP,
                         ("transformer.h.{i}.mlp.", "h.{i}.mlp."),
                         MappingProxyType({"key": Role("c_fc.weight", 1, bias="c_fc.bias"),
                                           "value": Role("c_proj.weight", 0)}),
                         output_bias="c_proj.bias", layers=("n_layer",), hidden=("n_embd",),
                         intermediate=("n_inner",), activation=("activation_function",),
                         default_activation="gelu_new"),
    "opt": Architecture("opt", ("opt",), ("OPTForCausalLM", "OPTModel"), LayerForm.MLP,
                        ("model.decoder.layers.{i}.", "decoder.layers.{i}."),
                        MappingProxyType({"key": Role("fc1.weight", 0, bias="fc1.bias"),
                                          "value": Role("fc2.weight", 1)}),
                        output_bias="fc2.bias", bias_flag=("enable_bias", True),
                        intermediate=("ffn_dim",), activation=("activation_function",),
                        default_activation="relu"),
})


@dataclass(frozen=True)
class Factor:
    """One factor of a layer's units: a tensor, the axis its units run along, the first unit's
    position on it, and the per-unit bias (a vector), if any."""

    tensor: TensorInfo
    units_axis: int
    start: int
    bias: TensorInfo | None = None

    @property
    def width(self) -> int:
        """The length of one unit's row (d for keys and queries, e for values)."""
        return self.tensor.shape[1 - self.units_axis]


@dataclass(frozen=True)
class MlpLayer:
    """One MLP block, resolved: where every factor lies, its sizes and its activation name."""

    index: int
    prefix: str
    form: LayerForm
    hf_activation: str
    activation: str                 # the catalogue entry
    d: int
    m: int
    e: int
    key: Factor
    value: Factor
    query: Factor | None = None
    output_bias: TensorInfo | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "form", LayerForm(self.form))  # a string reads back as the member

    @property
    def biased(self) -> bool:
        """Whether σ's arguments carry a per-unit bias (then x is extended by a constant 1)."""
        return self.key.bias is not None or (self.query is not None and self.query.bias is not None)


@dataclass(frozen=True)
class Model:
    """A checkpoint directory read as a table entry: its config, tensors and MLP layers."""

    directory: Path
    architecture: Architecture
    config: Mapping[str, Any]
    checkpoint: Checkpoint
    layers: tuple[MlpLayer, ...]
    #: (file as the directory names it, the file it leads to) for every link followed
    links: tuple[tuple[Path, Path], ...] = ()

    @property
    def name(self) -> str:
        return str(self.config.get("_name_or_path") or self.directory.name)


def _config(directory: Path, follow_links: bool = True) -> tuple[dict[str, Any], Path | None]:
    """config.json as a dict, and the file its link led to (None: no link)."""
    path = directory / "config.json"
    if not directory.is_dir():
        raise WeightsError(f"{directory}: no such directory", path=directory)
    if not os.path.lexists(path):
        raise WeightsError(f"{directory}: no config.json (a Hugging Face model directory has one)", path=path)
    config, target = read_json(path, MAX_CONFIG, "config.json", follow_links=follow_links)
    if not isinstance(config, dict):
        raise WeightsError(f"{path}: expected a JSON object", path=path)
    return config, target


def architecture_of(config: Mapping[str, Any], where: str = "config.json") -> Architecture:
    """The table entry for a config: by ``model_type``, else by the ``architectures`` classes."""
    model_type = config.get("model_type")
    classes = config.get("architectures") or []
    for arch in ARCHITECTURES.values():
        if model_type in arch.model_types:
            return arch
    for arch in ARCHITECTURES.values():
        if isinstance(classes, list) and any(c in arch.classes for c in classes):
            return arch
    said = ", ".join(f"{k} {v!r}" for k, v in (("model_type", model_type), ("architectures", classes)) if v)
    known = ", ".join(t for a in ARCHITECTURES.values() for t in a.model_types)
    raise WeightsError(f"{where}: unknown architecture ({said or 'no model_type or architectures'}); "
                       f"symcheck reads the MLPs of: {known}", path=where)


def _setting(config: Mapping[str, Any], keys: Sequence[str], what: str, where: str) -> Any:
    for key in keys:
        if config.get(key) is not None:
            return config[key]
    raise WeightsError(f"{where}: no {what} ({' or '.join(keys)})", path=where)


def _size(config: Mapping[str, Any], keys: Sequence[str], what: str, where: str) -> int:
    value = _setting(config, keys, what, where)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise WeightsError(f"{where}: {keys[0]} = {value!r}; expected a positive whole number", path=where)
    return value


def _reading(arch: Architecture, config: Mapping[str, Any], keys: Sequence[str], where: str,
             aliases: Mapping[str, str]) -> str:
    """The activation one reading of the config gives: the first key that is set, the family's
    default otherwise, with ``aliases`` resolved."""
    name = next((config[k] for k in keys if config.get(k) is not None), arch.default_activation)
    if not isinstance(name, str):
        raise WeightsError(f"{where}: {keys[0]} = {name!r}; expected an activation name", path=where)
    return aliases.get(name, name)


def _activation(arch: Architecture, config: Mapping[str, Any], where: str) -> tuple[str, str]:
    name = _reading(arch, config, arch.activation, where, arch.aliases)
    for keys in arch.other_readings:  # another transformers version reads another key, unaliased
        other = _reading(arch, config, keys, where, {})
        if other != name:
            said = ", ".join(f"{k} = {config[k]!r}" for k in (*arch.activation, *keys) if k in config)
            raise WeightsError(f"{where}: the activation is ambiguous ({said or 'neither key set'}): "
                               f"transformers reads {arch.activation[0]} ({name}) for model_type "
                               f"{arch.model_types[0]!r} in recent versions and {keys[0]} ({other}) in "
                               f"older ones; set both to the same name", path=where)
    if name not in HF_ACTIVATIONS:
        raise WeightsError(f"{where}: activation {name!r} is not one symcheck maps to its catalogue; "
                           f"known: {', '.join(HF_ACTIVATIONS)}", path=where)
    return name, HF_ACTIVATIONS[name]


def open_model(directory: str | Path, *, follow_links: bool = True) -> Model:
    """Read ``config.json`` and the checkpoint's headers; resolve and check every MLP layer.

    Raises :class:`WeightsError` (one line, naming what was expected) for an unknown
    architecture, a missing tensor or a shape that does not match the config. Links to
    regular files are followed (and listed in ``Model.links``) unless ``follow_links`` is false.
    """
    directory = Path(directory)
    config, config_link = _config(directory, follow_links)
    where = str(directory / "config.json")
    arch = architecture_of(config, where)
    count = _size(config, arch.layers, "number of layers", where)
    d = _size(config, arch.hidden, "hidden size", where)
    if arch.name == "gpt2" and config.get("n_inner") is None:
        m = 4 * d  # GPT-2's default inner size
    else:
        m = _size(config, arch.intermediate, "intermediate size", where)
    hf_act, act = _activation(arch, config, where)
    checkpoint = open_checkpoint(directory, follow_links=follow_links)
    biased = (True if arch.bias_flag is None else bool(config.get(arch.bias_flag[0], arch.bias_flag[1])))
    prefix = _prefix(arch, checkpoint, directory)
    layers = tuple(_layer(arch, checkpoint, prefix, i, count, d, m, hf_act, act, biased)
                   for i in range(count))
    links = (((directory / "config.json", config_link),) if config_link is not None else ()) + checkpoint.links
    return Model(directory, arch, MappingProxyType(dict(config)), checkpoint, layers, links)


def _prefix(arch: Architecture, checkpoint: Checkpoint, directory: Path) -> str:
    first = arch.roles["key"].tensor
    for prefix in arch.prefixes:
        if checkpoint.get(prefix.format(i=0) + first) is not None:
            return prefix
    names = " or ".join(repr(p.format(i=0) + first) for p in arch.prefixes)
    raise WeightsError(f"{directory}: no {arch.name} MLP tensors: expected {names}", path=directory,
                       tensor=arch.prefixes[0].format(i=0) + first)


def _vector(checkpoint: Checkpoint, arch: Architecture, name: str, i: int, count: int, length: int) -> TensorInfo:
    """A bias: the tensor ``name`` of layer ``i``, which must have shape (length,)."""
    info = _tensor(checkpoint, arch, name, i, count)
    if info.shape != (length,):
        raise WeightsError(f"{info.where} has shape {info.shape_text()}; expected ({length},)",
                           path=info.path, tensor=info.name)
    return info


def _tensor(checkpoint: Checkpoint, arch: Architecture, name: str, index: int, count: int) -> TensorInfo:
    info = checkpoint.get(name)
    if info is None:
        raise WeightsError(f"{checkpoint.directory}: missing tensor {name!r} ({arch.name} layer {index} "
                           f"of {count} needs {arch.expected()})", path=checkpoint.directory, tensor=name)
    return info


def _layer(arch: Architecture, checkpoint: Checkpoint, prefix: str, i: int, count: int, d: int, m: int,
           hf_act: str, act: str, biased: bool) -> MlpLayer:
    base = prefix.format(i=i)
    factors = {}
    for role_name, role in arch.roles.items():
        info = _tensor(checkpoint, arch, base + role.tensor, i, count)
        width = d  # both projections of every block here map between d and m
        units = 2 * m if role.start == "intermediate" or _fused(arch, role) else m
        expected = (units, width) if role.units_axis == 0 else (width, units)
        if info.shape != expected:
            rows, cols = ("units", "features") if role.units_axis == 0 else ("features", "units")
            raise WeightsError(f"{info.where} has shape {info.shape_text()}; expected {expected} "
                               f"({rows} × {cols}: m = {m}, d = {d} from config.json)",
                               path=info.path, tensor=info.name)
        bias = None
        if role.bias is not None and biased:
            bias = _vector(checkpoint, arch, base + role.bias, i, count, m)
        start = m if role.start == "intermediate" else int(role.start)
        factors[role_name] = Factor(info, role.units_axis, start, bias)
    output_bias = None
    if arch.output_bias is not None and biased:
        output_bias = _vector(checkpoint, arch, base + arch.output_bias, i, count, d)
    return MlpLayer(i, base, arch.form, hf_act, act, d, m, d, factors["key"], factors["value"],
                    factors.get("query"), output_bias)


def _fused(arch: Architecture, role: Role) -> bool:
    """A tensor that two roles share (Phi-3's gate_up_proj) holds 2m units."""
    return sum(r.tensor == role.tensor for r in arch.roles.values()) > 1
