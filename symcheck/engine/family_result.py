"""What a family check returns: the verdict over the whole range, its witness, and the regions."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, cast

import sympy

from symcheck.core.rendering import render
from symcheck.core.results import Renderable
from symcheck.core.verdict import Verdict
from symcheck.engine.check_result import OnATransformation
from symcheck.language.family import FamilyActivation
from symcheck.language.transformations import Transformation
from symcheck.language.unit_forms import Form

__all__ = ["FamilyResult", "RegionVerdict", "statement_values"]


def statement_values(values: Mapping[Any, Any], user_names: Iterable[str]) -> str:
    """"a = 2, b = 1, alpha = 2": the statement's own variables (a, b, the scale) at a probe or a
    witness, each one named like a user's parameter marked "(of the statement)", so that a
    parameter called alpha is not read as the scale α."""
    clash = set(user_names)
    return ", ".join(f"{k}{' (of the statement)' if str(k) in clash else ''} = {v}" for k, v in values.items())


@dataclass(frozen=True)
class RegionVerdict:
    """The verdict on every value of one part of the range (``condition`` in the user's names)."""

    condition: sympy.Basic
    verdict: Verdict
    how: tuple[str, ...] = ()
    #: the kernel-accepted certificates behind a holds or broken region (one per piece): a
    #: holds piece's statement certificate, a broken piece's nonzero-region certificate (or, at
    #: one parameter value, the ordinary check's witness)
    certificates: tuple[dict, ...] = field(default=(), repr=False, compare=False)

    @property
    def region(self) -> str:
        """The condition as SymPy prints it (it parses back): ``Eq(beta, 0)``, ``beta > 0``."""
        return sympy.sstr(self.condition)

    def to_dict(self) -> dict[str, Any]:
        return {"region": self.region, "verdict": self.verdict.value, "how": list(self.how),
                "kernel_certificates": len(self.certificates)}


@dataclass(frozen=True)
class FamilyResult(OnATransformation, Renderable):
    """A symmetry of a family σ(z; θ), quantified over every θ in the declared range."""

    family: FamilyActivation
    transformation: Transformation
    form: Form
    verdict: Verdict
    #: a, b (the scale) and every parameter's internal symbol (``param0``): exact rationals; the
    #: user's names are in :attr:`witness_params` (a parameter named ``a`` is not the branch a)
    witness: Mapping[str, sympy.Rational] | None
    regions: tuple[RegionVerdict, ...]
    kernel: Any = None
    note: str = ""
    elapsed: float = 0.0

    def __post_init__(self) -> None:
        if self.witness is not None:
            object.__setattr__(self, "witness", MappingProxyType(dict(self.witness)))

    @property
    def params(self):
        return self.family.params

    @property
    def quantifier(self) -> str:
        """'for every beta > 0' (and every further parameter)."""
        return self.params.quantifier()

    @property
    def certificate(self) -> dict | None:
        found = getattr(self.kernel, "certificate", None)
        return None if found is None else found.data

    @property
    def witness_params(self) -> dict[str, sympy.Rational] | None:
        """The witness's parameter values by the user's names: ``{"beta": 1}``."""
        return None if self.witness is None else self._params_of(self.witness)

    @property
    def witness_point(self) -> dict[str, sympy.Rational] | None:
        """The witness's values of the statement's own variables (a, b, the scale)."""
        return None if self.witness is None else self._point_of(self.witness)

    def _params_of(self, witness: Mapping[str, sympy.Rational]) -> dict[str, sympy.Rational]:
        return {p.name: witness[p.symbol.name] for p in self.params if p.symbol.name in witness}

    def _point_of(self, witness: Mapping[str, sympy.Rational]) -> dict[str, sympy.Rational]:
        internal = {p.symbol.name for p in self.params}
        return {k: v for k, v in witness.items() if k not in internal}

    def witness_text(self) -> str:
        if self.witness is None:
            return ""
        named = self._params_of(self.witness)
        point = statement_values(self._point_of(self.witness), named)
        params = ", ".join(f"{k} = {v}" for k, v in named.items())
        return f"{point} with {params}" if point else params

    @property
    def title(self) -> str:
        t = self.transformation
        where = "" if t.domain is None else f" ({t.domain.condition(t.scale_text)})"
        return f"{self.symmetry}{where} on the {self.form.name} form, σ = {self.family.name}, {self.quantifier}"

    def to_dict(self) -> dict[str, Any]:
        witness: dict[str, Any] | None = None
        if self.witness is not None:
            witness = {k: str(v) for k, v in self._point_of(self.witness).items()}
            witness["params"] = {k: str(v) for k, v in self._params_of(self.witness).items()}
        return {
            "symmetry": self.symmetry, "form": self.form.name, "domain": self.domain,
            "activation": self.family.name, "formula": self.family.name,
            "parsed": sympy.sstr(self.family.shown_expr),
            "params": self.params.to_dict(), "quantifier": self.quantifier,
            "verdict": self.verdict.value, "witness": witness,
            "regions": [r.to_dict() for r in self.regions],
            "note": self.note, "elapsed_seconds": round(self.elapsed, 4),
            "kernel": None if self.kernel is None else self.kernel.summary(),
        }

    def __repr__(self) -> str:
        witness = "" if self.witness is None else ", witness " + self.witness_text()
        return f"<FamilyResult {self.symmetry} on {self.form.name}, σ = {self.family.name}, " \
               f"{self.quantifier}: {self.verdict.value}{witness}>"

    def __str__(self) -> str:  # by the text printer (symcheck.output.text), as every format is
        return cast(str, render(self, "text"))
