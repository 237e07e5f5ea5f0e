"""The paper's results by name: derivations, the theorems with the checks that show them, the
catalogue sweep, the audit.

A name here is a plain identifier — a derivation (``absorb``, ``rank1``, ``mlp``, ``gated``,
``rank-r``), a paper result (``exchange``, ``scaling``, ``audit``, ``group``, ``weight-symmetries``:
the theorem and the checks that show it), ``catalogue`` (every catalogue activation × the
transformations of the gated unit), or ``all`` (every paper result, in the order of :data:`PAPER` —
the files in ``proofs/``). A check with options (``exchange --act silu``) is read by the command line's own
option parsing (``symcheck latex``), not here: each paper result lists its checks as calls.

Results are immutable and checking again gives the same answer, so resolved names are cached.

>>> resolve("exchange").items[0].verdict.value
'broken'
>>> [name for name in PAPER]  # doctest: +NORMALIZE_WHITESPACE
['absorb', 'rank1', 'mlp', 'gated', 'exchange', 'scaling', 'rank-r', 'audit', 'group',
 'weight-symmetries']
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.errors import UnknownNameError
from symcheck.core.names import closest
from symcheck.core.results import Renderable
from symcheck.engine.check_result import CheckResult
from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.group.layer import layer_group
from symcheck.engine.symmetries import check, check_exchange, check_inverse_scaling
from symcheck.language.activations import CATALOGUE, catalogue
from symcheck.language.transformations import Transformation, domain
from symcheck.paper.auditing import audit
from symcheck.paper.derivations import derive

__all__ = ["PAPER", "NAMES", "CATALOGUE_COLUMNS", "Catalogue", "PaperResult", "catalogue_audit", "resolve",
           "paper_result"]


# ---- the catalogue sweep ------------------------------------------------------------------------

#: the catalogue's columns: every transformation of the gated unit that depends on σ
CATALOGUE_COLUMNS: tuple[tuple[str, str | None], ...] = (
    ("exchange", None), ("inverse-scaling", "positive"), ("inverse-scaling", "negative"),
    ("inverse-scaling", "-1"), ("inverse-scaling", "any"),
    ("key-value-rescaling", "positive"), ("key-value-rescaling", "any"))


@dataclass(frozen=True)
class Catalogue(Renderable):
    """Every catalogue activation against the same transformations of one unit form."""


    form: str
    columns: tuple[Transformation, ...]
    rows: tuple[tuple[str, tuple[CheckResult, ...]], ...]

    def verdict(self, activation: str, symmetry: str, domain: str | None = None) -> str:
        """The verdict in one cell, e.g. ``verdict("tanh", "inverse-scaling", "-1") == "holds"``."""
        column = [(t.name.value, None if t.domain is None else str(t.domain)) for t in self.columns].index(
            (symmetry, domain))
        for name, results in self.rows:
            if name == activation:
                return results[column].verdict.value
        raise KeyError(activation)

    def to_dict(self) -> dict[str, Any]:
        return {"form": self.form,
                "columns": [{"symmetry": t.name, "domain": None if t.domain is None else str(t.domain)}
                            for t in self.columns],
                "rows": [{"activation": name, "results": [r.to_dict() for r in results]}
                         for name, results in self.rows]}



def catalogue_audit(form: str = "gated", *, timeout: float = DEFAULT_TIMEOUT,
                    columns: tuple[tuple[str, str | None], ...] = CATALOGUE_COLUMNS,
                    progress: Callable[[str], None] | None = None) -> Catalogue:
    """Check every catalogue activation against ``columns`` (symmetry, domain) on ``form``;
    ``progress`` is told the activation's name after each check."""
    transformations = [Transformation(s, None if d is None else domain(d)) for s, d in columns]
    rows = []
    for act in catalogue():
        results = []
        for t in transformations:
            results.append(check(act, t, form, timeout=timeout))
            if progress is not None:
                progress(act.name)
        rows.append((act.name, tuple(results)))
    return Catalogue(form, tuple(transformations), tuple(rows))


# ---- the paper's results ------------------------------------------------------------------------

@dataclass(frozen=True)
class PaperResult(Renderable):
    """One result of the paper: its statement (LaTeX) and the checks or derivations that show it."""


    name: str
    title: str
    statement: str
    items: tuple[Any, ...]


    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "items": [i.to_dict() for i in self.items]}


#: name -> (title, statement in LaTeX, the calls whose results show it); a derivation stands for itself
PAPER: dict[str, tuple[str, str, tuple[Callable[[], Any], ...]]] = {
    "absorb": ("Query absorption", "", (partial(derive, "absorb"),)),
    "rank1": ("The rank-1 reduction", "", (partial(derive, "rank1"),)),
    "mlp": ("The MLP as a special case", "", (partial(derive, "mlp"),)),
    "gated": ("The gated form", "", (partial(derive, "gated"),)),
    "exchange": (
        "The exchange theorem",
        r"For the gated unit $g(a, b) = \sigma(a)\,b$ the exchange $(q, k) \mapsto (k, q)$ is a symmetry "
        r"if and only if $\sigma(z) = \sigma(1)\,z$ for every real $z$: every nonlinear $\sigma$ breaks it, "
        r"an affine one ($z + 1$) included. For the symmetric rank-1 unit $\sigma(a\,b)$ it is a symmetry "
        r"for every $\sigma$.",
        (partial(check_exchange, "silu"), partial(check_exchange, "z + 1"), partial(check_exchange, "identity"),
         partial(check_exchange, "silu", "rank1"))),
    "scaling": (
        "The inverse-scaling theorem",
        r"For the gated unit $g(a, b) = \sigma(a)\,b$ the inverse scaling $(q, k) \mapsto (\alpha q, k/\alpha)$ "
        r"is a symmetry for every $\alpha > 0$ if and only if $\sigma$ is positively homogeneous of degree 1 "
        r"(ReLU keeps it, GELU breaks it); for $\alpha = -1$ if and only if $\sigma$ is odd (tanh); for every "
        r"$\alpha \neq 0$ if and only if $\sigma$ is linear. For the rank-1 unit $\sigma(a\,b)$ it is a "
        r"symmetry for every $\sigma$ and every $\alpha \neq 0$.",
        (partial(check_inverse_scaling, "relu", "positive"), partial(check_inverse_scaling, "gelu", "positive"),
         partial(check_inverse_scaling, "tanh", "-1"), partial(check_inverse_scaling, "relu", "any"),
         partial(check_inverse_scaling, "silu", "any", "rank1"))),
    "rank-r": ("Rank r", "", (partial(derive, "rank-r"),)),
    "audit": (
        "The symmetry audit over the catalogue",
        r"Every activation of the catalogue against exchange, inverse scaling ($\alpha > 0$, $\alpha < 0$, "
        r"$\alpha = -1$, $\alpha \neq 0$) and key-value rescaling on the gated unit: exchange holds only for "
        r"the identity, inverse scaling for every $\alpha > 0$ only for the positively homogeneous "
        r"activations, for $\alpha = -1$ exactly for the odd ones, and key-value rescaling for all. Then the "
        r"full audit of ReLU: every formulation against every transformation.",
        (catalogue_audit, partial(audit, "relu"))),
    "group": (
        "The symmetry groups of the catalogue",
        r"For every activation of the catalogue, the group $G_\sigma = \{(a, c) : a \neq 0,\ \sigma(a z) = "
        r"c\,\sigma(z)\ \forall z\}$, each member proved and every other pair excluded: the identity keeps "
        r"every $(a, a)$, ReLU and leaky ReLU every $(a, a)$ with $a > 0$, squared ReLU $(a, a^2)$ with "
        r"$a > 0$, the odd activations (tanh, sin, softsign, hardtanh, \dots) only $(\pm 1, \pm 1)$, and "
        r"GELU, SiLU, sigmoid and the rest only $(1, 1)$ (Godfrey et al.\ 2022).",
        tuple(partial(symmetry_group, name) for name in CATALOGUE)),
    "weight-symmetries": (
        "Weight symmetries of MLP layers",
        r"For a gated unit $\sigma(q_j x + b_j)\,(k_j x + e_j)\,v_j$ the per-unit weight symmetries are "
        r"the permutations of the units, the value path $(k_j, e_j) \mapsto \lambda (k_j, e_j)$ with "
        r"$v_j \mapsto v_j / \lambda$ for every $\lambda \neq 0$, and the gate $(q_j, b_j) \mapsto a (q_j, "
        r"b_j)$ with the value path divided by $c$ for every $(a, c) \in G_\sigma$; for $\sigma(k_j x + b_j)"
        r"\,v_j$ the same without a value path. The group is complete exactly when $G_\sigma$ is: SwiGLU's "
        r"gate takes no scale but $a = 1$, ReLU's every $a > 0$, tanh's $a = \pm 1$.",
        tuple(partial(layer_group, act, form) for act, form in (
            ("silu", "gated"), ("gelu_tanh", "gated"), ("relu", "gated"), ("tanh", "gated"),
            ("gelu_tanh", "mlp"), ("relu", "mlp")))),
}
#: the paper results that are one derivation
_DERIVATIONS = ("absorb", "rank1", "mlp", "gated", "rank-r")


def paper_result(name: str, progress: Callable[[str], None] | None = None) -> Any:
    """A paper result: the Derivation itself for a derivation, else a :class:`PaperResult`.
    ``progress`` is told the result's name after each of its computations (see :func:`steps`)."""
    if name not in PAPER:
        raise UnknownNameError("paper result", name, closest(name, PAPER), tuple(PAPER))
    if name not in _COMPUTED:  # computed once per process, as every target is
        title, statement, calls = PAPER[name]
        done = []
        for call in calls:
            done.append(call())
            if progress is not None:
                progress(name)
        _COMPUTED[name] = done[0] if name in _DERIVATIONS else PaperResult(name, title, statement, tuple(done))
    return _COMPUTED[name]


_COMPUTED: dict[str, Any] = {}


# ---- names ------------------------------------------------------------------------------------

#: what ``resolve`` knows besides the paper results
NAMES = (*PAPER, "catalogue", "all")
_ALIASES = {"catalog": "catalogue"}


def _key(name: str) -> str:
    key = name.strip().lower().replace("_", "-")
    return _ALIASES.get(key, key)


def resolve(name: str, progress: Callable[[str], None] | None = None) -> Any:
    """The result a name stands for: a derivation, a paper result, ``catalogue`` (the sweep on
    the gated form) or ``all`` (a tuple of every paper result). ``progress``: see :func:`steps`."""
    key = _key(name)
    if key == "all":
        return tuple(paper_result(n, progress) for n in PAPER)
    if key == "catalogue":
        return _catalogue()
    if key in PAPER:
        return paper_result(key, progress)
    raise UnknownNameError("target", name, closest(key, NAMES), NAMES)


def steps(name: str) -> int:
    """How often :func:`resolve` tells its ``progress`` when it computes ``name`` afresh: once per
    check, derivation or group of each paper result it names (0 for any other name)."""
    key = _key(name)
    names = tuple(PAPER) if key == "all" else (key,) if key in PAPER else ()
    return sum(len(PAPER[n][2]) for n in names)


@cache
def _catalogue() -> Catalogue:
    return catalogue_audit()
