"""The scalar symmetry group G_σ of an activation, and the groups built from it.

One module per concept: :mod:`~symcheck.engine.group.assemble` builds G_σ
(:func:`~symcheck.engine.group.assemble.symmetry_group`) from the maximality arguments at 0
(:mod:`~symcheck.engine.group.maximality`) and away from it (:mod:`~symcheck.engine.group.breaks`),
read from certified facts (:mod:`~symcheck.engine.group.facts`), and from its members, each proved
or refuted by the engine's deciders (:mod:`~symcheck.engine.group.members`); the result types are in
:mod:`~symcheck.engine.group.results`, what the group means for each unit in
:mod:`~symcheck.engine.group.formulations`. Built from G_σ: a family's group, one parameter value at
a time (:mod:`~symcheck.engine.group.family`), and the weight-symmetry group of a layer
(:mod:`~symcheck.engine.group.layer`).

The names this package exported when it was one module stay importable from it (PEP 562, on first
use: importing a submodule must not import the others, or the certificate emitter, which reads
:mod:`~symcheck.engine.group.facts`, would import the group's assembly, which imports the emitter).
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from symcheck.engine.group.assemble import symmetry_group as symmetry_group
    from symcheck.engine.group.facts import exact_number as exact_number
    from symcheck.engine.group.formulations import FORMS as FORMS
    from symcheck.engine.group.formulations import FormulationSymmetries as FormulationSymmetries
    from symcheck.engine.group.formulations import symmetry_forms as symmetry_forms
    from symcheck.engine.group.results import ASet as ASet
    from symcheck.engine.group.results import Component as Component
    from symcheck.engine.group.results import Exclusion as Exclusion
    from symcheck.engine.group.results import J as J
    from symcheck.engine.group.results import Membership as Membership
    from symcheck.engine.group.results import SymmetryGroup as SymmetryGroup
    from symcheck.engine.group.results import set_text as set_text

#: each exported name and the module it lives in
_HOME = {
    "symmetry_group": "assemble", "exact_number": "facts",
    **dict.fromkeys(("FORMS", "FormulationSymmetries", "symmetry_forms"), "formulations"),
    **dict.fromkeys(("J", "ASet", "Component", "Exclusion", "Membership", "SymmetryGroup", "set_text"), "results"),
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    if name in _HOME:
        value = getattr(import_module(f"{__name__}.{_HOME[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})
