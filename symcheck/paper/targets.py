"""What a TARGET names: a check, a derivation, an audit, the catalogue sweep, or a paper result.

A TARGET is written as on the command line:

* a derivation: ``absorb``, ``rank1``, ``mlp``, ``gated``, ``rank-r``;
* a check: ``exchange --act silu [--form F]``, ``scaling --act relu [--alpha D] [--form F]``
  (``--timeout S`` too);
* an audit: ``audit --act relu``; the catalogue sweep: ``catalogue`` (every catalogue
  activation × exchange and the scalings on the gated form);
* one of the paper's results as a whole: ``exchange`` and ``scaling`` without ``--act`` (the
  theorem and the checks that show it), ``audit`` without ``--act`` (the audit over the whole
  catalogue), or a derivation name;
* ``all``: every paper result, in the order of :data:`PAPER` — the files in ``proofs/``.

Results are immutable and checking again gives the same answer, so resolved targets are cached.

>>> resolve("exchange --act silu").verdict.value
'broken'
>>> [name for name in PAPER]
['absorb', 'rank1', 'mlp', 'gated', 'exchange', 'scaling', 'rank-r', 'audit']
"""
from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.errors import TargetError, UnknownNameError
from symcheck.core.names import closest
from symcheck.core.results import Renderable
from symcheck.engine.check_result import CheckResult
from symcheck.engine.symmetries import check, check_exchange, check_inverse_scaling
from symcheck.language.activations import catalogue
from symcheck.language.transformations import Transformation, domain
from symcheck.paper.auditing import audit
from symcheck.paper.derivations import derive

__all__ = ["PAPER", "CATALOGUE_COLUMNS", "Catalogue", "PaperResult", "catalogue_audit", "resolve",
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
    columns: tuple[tuple[str, str | None], ...]
    rows: tuple[tuple[str, tuple[CheckResult, ...]], ...]

    def verdict(self, activation: str, symmetry: str, domain: str | None = None) -> str:
        """The verdict in one cell, e.g. ``verdict("tanh", "inverse-scaling", "-1") == "holds"``."""
        column = self.columns.index((symmetry, domain))
        for name, results in self.rows:
            if name == activation:
                return results[column].verdict.value
        raise KeyError(activation)

    def to_dict(self) -> dict[str, Any]:
        return {"form": self.form, "columns": [{"symmetry": s, "domain": d} for s, d in self.columns],
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
    return Catalogue(form, tuple(columns), tuple(rows))


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


#: name -> (title, statement in LaTeX, the targets that show it); a derivation stands for itself
PAPER: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "absorb": ("Query absorption", "", ("absorb",)),
    "rank1": ("The rank-1 reduction", "", ("rank1",)),
    "mlp": ("The MLP as a special case", "", ("mlp",)),
    "gated": ("The gated form", "", ("gated",)),
    "exchange": (
        "The exchange theorem",
        r"For the gated unit $g(a, b) = \sigma(a)\,b$ the exchange $(q, k) \mapsto (k, q)$ is a symmetry "
        r"if and only if $\sigma(z) = \sigma(1)\,z$ for every real $z$: every nonlinear $\sigma$ breaks it, "
        r"an affine one ($z + 1$) included. For the symmetric rank-1 unit $\sigma(a\,b)$ it is a symmetry "
        r"for every $\sigma$.",
        ("exchange --act silu", "exchange --act 'z + 1'", "exchange --act identity",
         "exchange --act silu --form rank1")),
    "scaling": (
        "The inverse-scaling theorem",
        r"For the gated unit $g(a, b) = \sigma(a)\,b$ the inverse scaling $(q, k) \mapsto (\alpha q, k/\alpha)$ "
        r"is a symmetry for every $\alpha > 0$ if and only if $\sigma$ is positively homogeneous of degree 1 "
        r"(ReLU keeps it, GELU breaks it); for $\alpha = -1$ if and only if $\sigma$ is odd (tanh); for every "
        r"$\alpha \neq 0$ if and only if $\sigma$ is linear. For the rank-1 unit $\sigma(a\,b)$ it is a "
        r"symmetry for every $\sigma$ and every $\alpha \neq 0$.",
        ("scaling --act relu --alpha positive", "scaling --act gelu --alpha positive",
         "scaling --act tanh --alpha -1", "scaling --act relu --alpha any",
         "scaling --act silu --alpha any --form rank1")),
    "rank-r": ("Rank r", "", ("rank-r",)),
    "audit": (
        "The symmetry audit over the catalogue",
        r"Every activation of the catalogue against exchange, inverse scaling ($\alpha > 0$, $\alpha < 0$, "
        r"$\alpha = -1$, $\alpha \neq 0$) and key-value rescaling on the gated unit: exchange holds only for "
        r"the identity, inverse scaling for every $\alpha > 0$ only for the positively homogeneous "
        r"activations, for $\alpha = -1$ exactly for the odd ones, and key-value rescaling for all. Then the "
        r"full audit of ReLU: every formulation against every transformation.",
        ("catalogue", "audit --act relu")),
}
#: the paper results that are one derivation
_DERIVATIONS = ("absorb", "rank1", "mlp", "gated", "rank-r")


def paper_result(name: str) -> Any:
    """A paper result: the Derivation itself for a derivation, else a :class:`PaperResult`."""
    if name not in PAPER:
        raise UnknownNameError("paper result", name, closest(name, PAPER), tuple(PAPER))
    title, statement, targets = PAPER[name]
    if name in _DERIVATIONS:
        return resolve(targets[0])
    return PaperResult(name, title, statement, tuple(resolve(t) for t in targets))


# ---- targets ------------------------------------------------------------------------------------

_OPTIONS = {"exchange": ("act", "form", "timeout"), "scaling": ("act", "form", "alpha", "timeout"),
            "audit": ("act", "timeout"), "catalogue": ("form", "timeout")}
_ALIASES = {"catalog": "catalogue"}


def _tokens(target: str | Sequence[str]) -> tuple[str, ...]:
    parts = [target] if isinstance(target, str) else list(target)
    if len(parts) == 1:  # one argument: the target quoted as one string
        try:
            parts = shlex.split(parts[0])
        except ValueError as err:
            raise TargetError(f"cannot read the target {parts[0]!r}: {err}") from None
    if not parts:
        raise TargetError("no target given; expected a derivation name, a check, 'audit --act NAME' or 'all'")
    return tuple(parts)


def _options(command: str, words: Sequence[str]) -> dict[str, str]:
    allowed, found = _OPTIONS[command], {}
    i = 0
    while i < len(words):
        word = words[i]
        if not word.startswith("--"):
            raise TargetError(f"unexpected argument {word!r} in the {command} target")
        key, eq, value = word[2:].partition("=")
        if key not in allowed:
            hint = closest(key, allowed)
            raise TargetError(f"no option --{key} for the {command} target"
                              + (f"; did you mean --{hint[0]}?" if hint else
                                 f"; options: {', '.join('--' + a for a in allowed)}"))
        if not eq:
            i += 1
            if i >= len(words):
                raise TargetError(f"option --{key} needs a value")
            value = words[i]
        found[key] = value
        i += 1
    return found


def _timeout(options: dict[str, str]) -> float:
    try:
        value = float(options.get("timeout", DEFAULT_TIMEOUT))
    except ValueError:
        raise TargetError(f"--timeout must be a number of seconds, not {options['timeout']!r}") from None
    if not 0.01 <= value <= 86400:  # also false for NaN; as the commands' --timeout
        raise TargetError(f"--timeout must be between 0.01 and 86400 seconds, not {options['timeout']!r}")
    return value


def resolve(target: str | Sequence[str]) -> Any:
    """The result a TARGET names (a check, derivation, audit, catalogue or paper result).

    ``all`` gives a tuple of every paper result.
    """
    return _resolve(_tokens(target))


@lru_cache(maxsize=None)
def _resolve(tokens: tuple[str, ...]) -> Any:
    head, rest = tokens[0].strip().lower().replace("_", "-"), tokens[1:]
    if head == "derive" and len(rest) == 1:  # as in `symcheck derive NAME`
        head, rest = rest[0].strip().lower().replace("_", "-"), ()
    head = _ALIASES.get(head, head)
    if head == "all" and not rest:
        return tuple(paper_result(name) for name in PAPER)
    if head in _DERIVATIONS and not rest:
        return derive(head)
    if head in PAPER and not rest:
        return paper_result(head)
    if head in _OPTIONS:
        options = _options(head, rest)
        timeout = _timeout(options)
        if head == "catalogue":
            return catalogue_audit(options.get("form", "gated"), timeout=timeout)
        if "act" not in options:
            raise TargetError(f"the {head} target needs --act NAME")
        if head == "audit":
            return audit(options["act"], timeout=timeout)
        if head == "exchange":
            return check_exchange(options["act"], options.get("form", "gated"), timeout=timeout)
        return check_inverse_scaling(options["act"], options.get("alpha", "positive"),
                                     options.get("form", "gated"), timeout=timeout)
    known = tuple(dict.fromkeys((*PAPER, "exchange", "scaling", "audit", "catalogue", "all")))
    if head in known:
        raise TargetError(f"the {head} target takes no options")
    raise UnknownNameError("target", tokens[0], closest(head, known), known)
