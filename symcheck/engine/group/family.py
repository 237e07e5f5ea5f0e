"""The symmetry group of a family σ(z; θ), asked one parameter value at a time.

G_σ depends on θ (z + β·z² has the group {(a, a) : a ≠ 0} only at β = 0), so membership is
answered for one declared value: the family at that value is an ordinary σ, and its group is
built (once per value) by :func:`~symcheck.engine.group.assemble.symmetry_group`, with every member
proved and every refusal certified as there.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.language.family import FamilyActivation

__all__ = ["FamilyGroup"]


@dataclass(frozen=True)
class FamilyGroup:
    """G_σ for each parameter value in the declared range of a family."""

    family: FamilyActivation
    timeout: float = DEFAULT_TIMEOUT
    #: builds an ordinary group: :func:`symcheck.engine.group.assemble.symmetry_group`, passed in by it
    build: Callable[..., Any] | None = field(default=None, compare=False, repr=False)
    _groups: dict = field(default_factory=dict, compare=False, repr=False)

    def at(self, params: Mapping[str, Any]):
        """The group of σ at one value of every parameter (``{"beta": "1/2"}``), inside its range."""
        values = self.family.params.values(params)  # exact, and refused outside the range
        key = tuple(sorted((s.name, v) for s, v in values.items()))
        if key not in self._groups:
            if self.build is None:  # the TypeError calling None raised, with its reason
                raise TypeError("FamilyGroup.build is not set: construct it through symmetry_group")
            self._groups[key] = self.build(self.family.at(params), timeout=self.timeout)
        return self._groups[key]

    def contains(self, a: Any, c: Any, params: Mapping[str, Any]) -> bool | None:
        """Is (a, c) in G_σ at these parameter values? True, False, or None when undecided."""
        return self.at(params).contains(a, c)
