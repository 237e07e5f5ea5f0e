"""The paper's derivations as step lists in which every step is checked by the machine.

A step (``Claim``) asserts ``lhs = rhs`` and says how to check it. It is ``verified`` only when
a check valid for every size *and* the check at explicit sizes both showed the two sides equal:

* for every size (symbolic d, m, e, r): the matrix expressions rewrite to the same expression
  (``doit``/``block_collapse``), or -- when SymPy's matrix algebra cannot -- a generic entry
  with symbolic indices reduces, by sound rewrites of finite sums (linearity, products of sums,
  block indices, Kronecker deltas), to the same sum up to renaming of summation indices. Where
  the explicit check evaluates a formulation's builder, the builder's own generic entry (the same
  code, with symbolic sizes) must also equal its matrix expression's;
* at explicit sizes: ``expand(lhs - rhs)`` is exactly 0 with symbolic entries and σ opaque
  (``symcheck.language.symbols.SIGMA``) at every size in ``GRID``.

A check that cannot reduce the difference never counts as a proof; a non-zero expanded
residual at an explicit size fails the step. A step whose only passing check ran at explicit
sizes is ``explicit-only``: evidence, not a proof. A derivation is verified only when every step is.

>>> derive("absorb").verified
True
>>> [str(s.status) for s in derive("gated").steps]
['verified', 'verified', 'verified', 'verified']

The package: :mod:`~symcheck.paper.derivations.sums` (finite sums compared up to renaming and
sound rewrites), :mod:`~symcheck.paper.derivations.checks` (the checks and their records),
:mod:`~symcheck.paper.derivations.steps` (claims, checked steps, derivations),
:mod:`~symcheck.paper.derivations.units` (the pieces claims are written with), one module per
derivation (``absorb``, ``rank1``, ``mlp``, ``gated``, ``rank_r``), and
:mod:`~symcheck.paper.derivations.catalogue` (the derivations by name, :func:`derive`).
"""
from __future__ import annotations

from symcheck.paper.derivations.catalogue import DERIVATIONS, derive
from symcheck.paper.derivations.checks import GRID, UNIT_GRID, CheckKind, CheckRecord, DerivationStatus, Pair
from symcheck.paper.derivations.gated import move_sigma_onto_query
from symcheck.paper.derivations.steps import EXPLICIT_ONLY, STEP_TIMEOUT, Claim, Derivation, DerivationStep, StepKind
from symcheck.paper.derivations.sums import Limits, Ranges

__all__ = [
    "DERIVATIONS", "derive", "Derivation", "DerivationStep", "Claim", "StepKind", "DerivationStatus", "CheckKind",
    "CheckRecord",
    "EXPLICIT_ONLY", "STEP_TIMEOUT", "GRID", "UNIT_GRID", "Pair", "Limits", "Ranges", "move_sigma_onto_query",
]
