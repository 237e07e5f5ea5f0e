#!/usr/bin/env python3
"""Mutation check of symcheck's soundness core: do the tests notice a realistic unsound edit?

Each mutant is one small change of the kind that turns a sound decision into a wrong proof
(``>`` read as ``>=`` at a cut point, an ``and`` read as ``or``, a dropped ``raise``, a
skipped ``append`` of a cut point, ``lower`` used for ``upper``, an "undecided" ``None``
returned as an answer ...). A mutant is *killed* when the tests that exercise its module
fail (or time out) with it in place; it *survives* when they stay green. The score is
killed / (killed + survived), timeouts counted as killed.

Only unsound edits are generated: numeric limits, precisions and thresholds (module-level
ALL_CAPS numbers, precision arguments and ladders, the raise that enforces a named limit),
ranking-only and proposal-only code, and display-only code are left alone, each by a named
rule below that says why it cannot make a verdict wrong. Three kinds of mutant are reported
apart and kept out of the denominator: those in the ``EQUIVALENT`` table (each with its
one-line proof, not run), those in the ``SOUND_EITHER_WAY`` table (proved to keep every
result valid, e.g. an enclosure that only gets wider; one-line proof, not run), and a dropped
``raise`` that survives only because every call reaching it still ends in an exception (one
refusal swapped for another, observed by a probe run, see ``_refusal_swap``).

    python3 scripts/mutation_check.py                      # the whole core, 2 jobs
    python3 scripts/mutation_check.py --module regions --list
    python3 scripts/mutation_check.py --module zero --max 20 --json
    python3 scripts/mutation_check.py --id regions:324:compare-1 --tests tests/exact/test_case_splits.py
    python3 scripts/mutation_check.py --json > report.json; \
        python3 scripts/mutation_check.py --survivors-of report.json   # after adding tests

The working tree is never edited: every job owns a copy of the package and its tests in a
temporary directory, put first on ``PYTHONPATH`` and used as the working directory; a mutant
is written into that copy and the original text put back after its run. The copies are
removed on exit, also on Ctrl-C.

Why a small AST mutator and not mutmut or cosmic-ray: mutmut 3 rewrites every function of
the package into trampolines and runs the whole suite once to collect per-test coverage
before the first mutant; on this package's SymPy-heavy suite that alone is many minutes on
two cores, and its operator set (every string, every argument, every number) is dominated
by mutants that are harmless to soundness. cosmic-ray needs a session database, a config
per module and its own worker setup to map modules to test selections. What this check
needs is small: operators that model unsound edits, a table from each core module to the
test files that exercise it, ``pytest -x`` per mutant under a timeout, and a report that
names each survivor. That is this file, with the standard library only.
"""
from __future__ import annotations

import argparse
import ast
import concurrent.futures
import copy
import dataclasses
import functools
import json
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The soundness core, and the tests that exercise each module (directly or through the
# decisions built on it). A mutant runs only its module's files, with ``-x``.
CORE: dict[str, tuple[str, ...]] = {
    "roots": ("test_certainly_real_constants.py", "test_exact_constants_roots.py", "test_root_proposals_inside.py", "test_cache_keys.py", "test_root_proposals_cache.py", "test_root_isolation.py", "test_root_arguments_on_intervals.py", "test_case_splits.py", "test_roots.py", "test_regions.py", "test_split_soundness.py", "test_symmetries.py", "test_root_bracket_far_ends.py"),
    "signs": ("test_nonsmooth_rewrite_unevaluated.py", "test_point_values_ite.py", "test_nonsmooth_rewrite_depth.py", "test_point_values.py", "test_cache_keys.py", "test_exact_sign_contract.py", "test_certified_signs.py", "test_substitute_without_sign_guesses.py", "test_roots.py", "test_regions.py", "test_split_soundness.py", "test_symmetries.py"),
    "regions": ("test_regions_undecided_relation_terms.py", "test_exact_constants_regions.py", "test_case_splits.py", "test_undecided_comparisons.py", "test_zero_decisions.py", "test_regions.py", "test_split_soundness.py", "test_roots.py", "test_symmetries.py", "test_split_tangent_poles.py"),
    "zero": ("test_zero_opaque_signs.py", "test_zero_evidence_and_method_text.py", "test_zero_plain_numbers.py", "test_cache_keys.py", "test_zero_identities.py", "test_zero_decisions.py", "test_fallback_wiring.py", "test_split_soundness.py", "test_regions.py", "test_symmetries.py"),
    "plane": ("test_plane_product_derivation.py", "test_plane_written_sides.py", "test_plane_orientation.py", "test_plane_resolver_exact.py", "test_plane_case_justification.py", "test_plane_cases.py", "test_plane.py", "test_fallback_wiring.py"),
    "evaluate": ("test_exact_values_root_ends.py", "test_exact_values_special_points.py", "test_real_root_enclosures.py", "test_certified_evaluation.py", "test_point_coordinate_types.py", "test_inverse_functions_at_rationals.py", "test_undecided_comparisons.py", "test_evaluate.py", "test_arb_enclose_range.py", "test_intervals.py"),
    "balls": ("test_exact_power_size_limit.py", "test_lambertw_domain_refusal.py", "test_exact_values_special_points.py", "test_balls_upper_end_zero.py", "test_ball_signs_and_powers.py", "test_inverse_functions_at_rationals.py", "test_refusal_kinds.py", "test_hulls.py", "test_certified_evaluation.py", "test_arb_enclose_range.py", "test_evaluate.py", "test_intervals.py"),
    "intervals": ("test_interval_floor.py", "test_interval_real_powers.py", "test_exact_power_size_limit.py", "test_interval_series_cutoffs.py", "test_exact_values_special_points.py", "test_interval_atanh_values.py", "test_interval_exact_values.py", "test_interval_helpers.py", "test_interval_domains.py", "test_second_opinion_gamma.py", "test_ball_signs_and_powers.py", "test_refusal_kinds.py", "test_hulls.py", "test_interval_enclosures.py", "test_intervals.py", "test_arb_enclose_range.py"),
    "symmetries": ("test_check_accepts_activation_objects.py", "test_plane_witness_budget.py", "test_elapsed_times.py", "test_certified_witnesses.py", "test_proof_steps.py", "test_fallback_wiring.py", "test_rescaling_degree_domain.py", "test_symmetries.py", "test_guard.py", "test_custom_forms.py"),
    "theorems": ("test_certified_witnesses.py", "test_symmetries.py"),
    # split from symmetries (issue 24): the steps a decision is written as, and its numeric evidence
    "proof_steps": ("test_certified_witnesses.py", "test_proof_steps.py", "test_fallback_wiring.py", "test_rescaling_degree_domain.py", "test_symmetries.py", "test_guard.py", "test_custom_forms.py", "test_group.py"),
    "evidence": ("test_certified_witnesses.py", "test_expect_and_json_names.py", "test_fallback_wiring.py", "test_symmetries.py"),
    "domain": ("test_definedness_proofs.py", "test_domain.py"),
    "guard": ("test_guard_withdrawals.py", "test_guard.py"),
    "fallback": ("test_fallback_no_rational_point.py", "test_fallback_relative_rounding.py", "test_fallback_unresolved_count.py", "test_exact_constants_engine.py", "test_fallback_witnesses.py", "test_fallback.py", "test_fallback_wiring.py"),
    "smt": ("test_z3_partial_piecewise.py", "test_smt_time_limit.py", "test_elapsed_times.py", "test_exact_constants_engine.py", "test_z3_cross_check.py", "test_smt.py"),
    "homogeneity": ("test_homogeneity_extra_points.py", "test_homogeneity_degree.py", "test_homogeneity.py", "test_audit_certified.py"),
}

# The deciding modules the realistic family (REALISTIC_OPERATORS) covers besides the core above:
# group assembly, the proof kernel and its certificate emitter and gate, the exact zero
# argument, the parser, the numeric checks and the command line. The old family is not run
# on them (its exclusion tables were written for the core only): see FAMILY_MODULES.
_GROUP_TESTS = ("test_group_half_lines.py", "test_group_zero_activation_and_poles.py", "test_group_discrete_unit_formulas.py", "test_group_opposite_signs_points.py", "test_group_witness_break_images.py", "test_group_discrete_sets.py", "test_group_term_decisions.py", "test_group_elapsed_times.py", "test_group_identity_candidate.py", "test_group_discrete_derivation.py", "test_group_exact_moduli.py", "test_group_component_formulas.py", "test_group_log_periodic_terms.py", "test_group_asin_analyticity.py",
                "test_group_flat.py", "test_group_break_orders.py", "test_group_log_periodic_harmonics.py", "test_group_discrete_components.py",
                "test_group_taylor_order.py", "test_group.py", "test_group_cli.py", "test_group_consistency.py",
                "test_group_fuzz.py", "test_tiny_constant_groups.py", "test_group_finite_formulas.py",
                "test_member_fallback_refutation.py")
_KERNEL_TESTS = ("test_kernel_connectives.py", "test_kernel_bounds_abs_root_monotone.py", "test_kernel_bounds_limits_tight.py", "test_kernel_check_scopes.py", "test_kernel_branch_conditions.py", "test_kernel_sign_arguments_complete.py", "test_kernel_tree_depth_every_edge.py", "test_kernel_exact_relations.py", "test_kernel_bounds_conditions.py", "test_kernel_complete_harmonics.py", "test_kernel_every_part.py", "test_kernel_rational_literals.py", "test_kernel_piecewise_structure.py", "test_kernel_exact_constants.py", "test_kernel_bounds_branches.py", "test_kernel_probe_regions.py", "test_kernel_vocabulary_gates.py", "test_kernel_closed_interval_roots.py", "test_kernel_sign_claims.py", "test_kernel_integer_parts_at_points.py", "test_kernel_change_fresh_names.py", "test_kernel_tree_grammar.py", "test_kernel_polynomial_nodes.py", "test_kernel_change_regions.py", "test_kernel_tree_depth.py", "test_kernel_bundles.py", "test_certificate_gaps.py", "test_functions_table.py",
                 "test_kernel_units.py", "test_kernel_rules.py", "test_kernel_certificates.py",
                 "test_kernel_cli.py", "test_certificate_emitter.py",
                 # the family claims (nonzero-region, covers by several probes), Taylor bounds, points
                 "test_family_kernel_regions.py", "test_kernel_taylor.py", "test_kernel_points_between.py",
                 "test_kernel_zero_power.py", "test_kernel_taylor_bound.py",
                 # scaled probe values of family claims, accepted and forged (kernel/probe.py)
                 "test_families_covers.py",
                 # the completeness certificates of the group classes, edited by hand (kernel/complete.py)
                 "test_group_classes.py")
_EMIT_TESTS = ("test_certificate_tree_nonsmooth_args.py", "test_emitter_rational_coefficients.py", "test_emitter_compound_conditions.py", "test_emitter_bounds.py", "test_emitter_outcome_times.py", "test_certificate_points_exact.py", "test_emitter_exact_coefficients.py", "test_emitter_identities_reached.py", "test_emitter_relation_paths.py", "test_emitter_rewrite_reach.py", "test_certificate_gaps.py", "test_certificate_emitter.py", "test_kernel_certificates.py",
               "test_kernel_cli.py", "test_kernel_units.py", "test_group.py")
DECIDING: dict[str, tuple[str, ...]] = {
    **{name: _GROUP_TESTS for name in ("group", "group_breaks", "group_facts", "group_formulations",
                                       "group_maximality", "group_members", "group_results")},
    "kernel_gate": ("test_smt.py", "test_certificate_emitter.py", "test_kernel_cli.py",
                    "test_group.py"),
    **{name: _EMIT_TESTS for name in ("certificate_emit", "certificate_points", "certificate_rewrite",
                                      "certificate_tree")},
    **{f"kernel_{name}": _KERNEL_TESTS for name in ("check", "derivative", "evaluate", "normal", "points",
                                                    "rules", "signs", "tree", "verdict", "bounds",
                                                    "complete", "probe")},
    "zero_proof": ("test_zero_proof_exp_generators_distinct.py", "test_radical_negative_exponent_identities.py", "test_zero_proof_root_bound.py", "test_zero_proof_exact_constants.py", "test_zero_proof_exact_generators.py", "test_zero_proofs_over_e.py", "test_radical_zero_proofs.py", "test_zero_tiny_residual.py", "test_zero_decisions.py", "test_symmetries.py", "test_group.py"),
    "parsing": ("test_parsing_extremum_nested.py", "test_parsing_extremum_fooled_offsets.py", "test_parsing_nonsmooth_fooled_sums.py", "test_parsing_integer_parts.py", "test_parsing_multiline_keywords.py", "test_parser_vocabulary.py", "test_parsing_defined_on_r.py", "test_extremum_proofs.py", "test_parsing_relation_factors.py", "test_parsing_condition_names.py", "test_parsing_constant_factors.py", "test_parsing.py", "test_domain.py", "test_definedness_proofs.py",
                "test_parse_unevaluated.py", "test_tiny_constant_signs.py", "test_families_keywords.py"),
    "numeric_checks": ("test_numeric_default_rank.py", "test_numeric_underflow_band.py", "test_numeric_alpha_field.py", "test_random_data_scales.py", "test_numeric_relative_change.py", "test_numeric_underflow.py", "test_numeric_form_names.py", "test_numeric_checks.py", "test_numeric_empty.py",
                       "test_numeric_nonfinite.py", "test_numeric.py", "test_memory_estimate.py",
                       "test_memory_estimate_skewed_sizes.py", "test_numeric_tolerance_terms.py", "test_numeric_pair_figures.py"),
    "cli": ("test_expect_exit_status.py", "test_cli.py", "test_cli_errors.py", "test_expect_and_json_names.py",
            "test_group_cli.py", "test_kernel_cli.py"),
}
CORE.update({name: files for name, files in DECIDING.items()})

#: where each module of the core lives in the package (a path names the module's layer)
PATHS: dict[str, str] = {
    "roots": "exact/roots.py", "signs": "exact/signs.py", "regions": "exact/regions.py",
    "evaluate": "exact/evaluate.py", "balls": "exact/balls.py", "intervals": "exact/intervals.py",
    "zero": "engine/zero.py", "plane": "engine/plane.py", "symmetries": "engine/symmetries.py",
    "theorems": "engine/theorems.py", "proof_steps": "engine/proof_steps.py", "evidence": "engine/evidence.py", "guard": "engine/guard.py", "fallback": "engine/fallback.py",
    "smt": "engine/smt.py", "homogeneity": "engine/homogeneity.py", "domain": "language/definedness.py",
    # the group's modules keep their short names from before engine/group/ became a package (the
    # EQUIVALENT and SOUND_EITHER_WAY entries are keyed by them); "group" is its assembly
    **{name: f"engine/group/{name.removeprefix('group_') if name != 'group' else 'assemble'}.py"
       for name in DECIDING if name.startswith("group")},
    **{name: f"engine/certificate/{name.removeprefix('certificate_')}.py" for name in DECIDING
       if name.startswith("certificate_")},
    "kernel_gate": "engine/kernel_gate.py",
    **{name: f"kernel/{name.removeprefix('kernel_')}.py" for name in DECIDING if name.startswith("kernel_")
       and name != "kernel_gate"},
    "zero_proof": "exact/zero_proof.py", "parsing": "language/parsing.py",
    "numeric_checks": "numeric/checks.py", "cli": "cli.py",
}
#: which operator family runs on which modules: the old family on the core it was built for,
#: the realistic family on every deciding module
FAMILY_MODULES: dict[str, tuple[str, ...]] = {
    "old": tuple(name for name in CORE if name not in DECIDING),
    "new": tuple(CORE),
}

# What is not mutated, each a rule with the reason it cannot make a verdict wrong. The
# operators model unsound edits; a change that only moves a resource limit, reorders a
# search or rewords a message is not one, and counting it would measure the wrong thing.

# Display only: functions that render text (descriptions, LaTeX, reprs, the decimal ends
# printed in a certificate) or build a step's formula to be printed. The verdict and the
# certificate's ball are computed elsewhere; these only turn them into characters.
SKIP_FUNCTIONS = re.compile(r"^(describe|latex|_render|_interval_text|to_dict|to_latex|"
                            r"formula|definition|enclosure|point_formula|_approximately|_and_zero|_range|"
                            r"approximately|and_zero|describe_certificate|statement_step|"
                            r"__repr__|__str__|_repr_\w+|decimal|explain\w*|_text\w*|"
                            r"_describe|_decimal|summary|truncate|"
                            r"_failure_message|substitution_text|_statement|_short|"
                            r"_decimal_end|_decimal_far|_decimal_string|_format|_floor_log10|"
                            r"_at_least_pow10)$")

# Ranking only: functions that order candidates or cases for the search. Every case a
# ranking puts first or last is still decided on its own, so the order changes which
# witness is met first and how long a search takes, never whether a verdict is right.
# ``approximate`` and its arithmetic ``_Approx`` are mpmath at a fixed precision with no error
# bound: they pick which points are handed to ``certify_nonzero``, which alone decides.
RANKING_FUNCTIONS = re.compile(r"^(_order_key|_by_simplicity|approximate|_Approx|_guarded)$")

# Proposal only: functions that propose a rational point whose membership the caller then
# certifies (``Region._contains``); a worse proposal is refused by that check, never used. The
# numeric fallback's point pools, products and float64 ranking are the same: every point
# goes through ``fallback._inside`` (its domain) and is a witness only once ``certify_nonzero``
# certifies it (both still mutated). Definedness asks SymPy's solver for points to refute an
# obligation at (the region and violation as sets, a point picked in them): a point is
# reported only after ``_fails_at`` confirms the failure there, and without one the
# activation is refused as unverified, never accepted.
PROPOSAL_FUNCTIONS = re.compile(r"^(_candidates|_rational_between|_rational_below|_rational_above|"
                                r"_breakpoints|_near|_short_decimal|_values|_points|_product|_float64|"
                                r"_region_set|_as_set|_comparison_set|_violation_set|_pick_point|"
                                r"_point_in_interval)$")
# Module-level tables of proposed points, left alone for the same reason: ``_CHANGE_GRID`` lists the
# rationals where group_maximality looks for a sign change of σ; each sign found is certified there
# (certified_sign), and the 'complete' certificate states the points, whose half-line and sign the
# kernel proves again (kernel/complete.py, signs): another or a shorter grid only loses an argument.
PROPOSAL_NAMES = re.compile(r"^(_CHANGE_GRID)$")

# A Step's text: the title, statement, formula and justification of a ``Step(...)`` (positional
# 0-3 or by keyword), and a local name used only there. Read only by the renderers, ``to_dict``
# and ``__str__``: every verdict is the ``verdict`` field of the decision a function returns,
# never parsed back from a step, and the one count over steps (``CheckResult.cases``) reads
# ``case``. A step's ``status`` and ``case`` are still mutated.
_STEP_CALLS = {"Step"}
_STEP_TEXT_KEYWORDS = ("title", "statement", "formula", "justification")

# Calls that only display or only sort: what is inside a ``text(...)`` or ``", ".join(...)``
# is a message, and a ``key=`` of ``sorted``/``sort``/``min``/``max`` is a ranking.
_DISPLAY_CALLS = {"text", "latex", "repr", "join", "_short"}
_ORDERING_CALLS = {"sorted", "sort", "min", "max"}

# Precision and resource arguments: the working precision of Arb or mpmath, and the ladders
# of precisions tried in turn. A certified enclosure is valid at every precision (it is only
# wider or narrower), and running out of precision is a refusal, so doubling or halving a
# precision changes cost and how often a check is inconclusive, not what a verdict says.
_PRECISION_CALLS = {"arb_precision", "workprec", "workdps", "evalf", "N", "limit_denominator"}
_PRECISION_NAMES = {"prec", "precision", "dps", "digits", "workprec", "maxprec", "precs"}

# Formula trees: a call of a constructor imported from ``symcheck.core.formula`` (or of
# ``sigma_at``, which builds σ(·) for one) makes the typeset statement of a step, read only by
# the output layer's printers and never by a decision (nothing below the output layer prints or
# inspects a formula), so what is inside such a call is display. Matched by the bare names the
# module imports from there, so ``sympy.And`` or ``sympy.Interval`` stay decision code.
_FORMULA_MODULES = {"symcheck.core.formula": None, "symcheck.language.symbols": {"sigma_at"}}


def _formula_names(tree: ast.Module) -> frozenset[str]:
    names: set[str] = set()
    for stmt in ast.walk(tree):
        if isinstance(stmt, ast.ImportFrom) and stmt.module in _FORMULA_MODULES:
            allowed = _FORMULA_MODULES[stmt.module]
            names.update(a.asname or a.name for a in stmt.names if allowed is None or a.name in allowed)
    return frozenset(names - {"to_latex", "Formula", "Term", "Rel"})


def _is_limit_name(name: str) -> bool:
    """An ALL_CAPS name that some module of the core binds to a number at module level:
    a precision, a resource limit or a threshold (not a symbol such as ``Z`` or ``ALPHA``)."""
    return name in _limit_names()


# capitalised numbers that are part of the mathematics, not a limit: the homogeneity degree
# search compares σ(SCALE·z) with σ(z), and its messages say 2^p
_PARAMETERS = {"SCALE"}


#: the commit whose tree is mutated and tested (``--commit``); None: the working tree
COMMIT: str | None = None


def package_source(path: str) -> str:
    """The text of ``symcheck/<path>`` in the tree under test: the working tree, or COMMIT's."""
    if COMMIT is None:
        return (ROOT / "symcheck" / path).read_text()
    return subprocess.run(["git", "show", f"{COMMIT}:symcheck/{path}"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout


@functools.cache
def _limit_names() -> frozenset[str]:
    names: set[str] = set()
    for path in PATHS.values():
        tree = ast.parse(package_source(path))
        for stmt in tree.body:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else \
                [stmt.target] if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else []
            value = getattr(stmt, "value", None)
            for t in targets:
                if (isinstance(t, ast.Name) and re.fullmatch(r"_?[A-Z][A-Z0-9_]*", t.id)
                        and t.id not in _PARAMETERS and value is not None
                        and _is_numeric_constant(value)):
                    names.add(t.id)
    return frozenset(names)


def _mentions_limit(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and _is_limit_name(n.id) for n in ast.walk(node))


def _is_numeric_constant(node: ast.AST) -> bool:
    """Numbers and arithmetic on them (``2**16``, ``from_int(2**16)``, ``(64, 192)``, ``Fraction(1, 3)``),
    without a comparison, a function, a truth value or a table of them."""
    banned = (ast.Lambda, ast.Compare, ast.BoolOp, ast.Dict, ast.Set, ast.comprehension, ast.IfExp)
    if any(isinstance(n, banned) or (isinstance(n, ast.Constant) and isinstance(n.value, (bool, str)))
           for n in ast.walk(node)):
        return False
    return any(_is_number(n) for n in ast.walk(node))


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


# identity rules SymPy applies itself (see EQUIVALENT)
_DEAD_COSH = "SymPy's cosh.eval itself rewrites cosh(asinh u) to sqrt(u**2 + 1) whenever apply_identities rebuilds the node, before any rule is tried: the rule never fires"
_DEAD_TANH = "SymPy's tanh.eval itself rewrites tanh(asinh u) to u/sqrt(u**2 + 1) whenever apply_identities rebuilds the node, before any rule is tried: the rule never fires"
_DEAD_FRAC = "kernel/points.frac is called nowhere (not in the package, not in the tests: dead code, reported for removal), so no behaviour depends on its body"
_DEAD_EXP = "SymPy's exp.eval itself rewrites exp(log u) to u for every u whenever apply_identities rebuilds the node, before any rule is tried: the rule never fires"

# Provably equivalent mutants: (module, the exact change text) → the one-line proof. They
# are listed, not run, and kept out of the score's denominator. A change whose equivalence
# takes more than one sentence to argue is not here: it gets a test instead.
EQUIVALENT: dict[tuple[str, str], str] = {
    ("balls", "`n < 0` → `n <= 0`, in `if n < 0:`"):
        "pow_int returns fmpq(1) for n == 0 on the line above, on every path, so n <= 0 is n < 0 here",
    ("fallback", "`v > 0` → `v >= 0`, in `if finite and v > RESOLVED * scale and v > 0:`"):
        "`v > RESOLVED * scale` with RESOLVED = 1e-12 and scale a finite sum of absolute values already gives v > 0",
    ("evaluate", "`0` → `1`, in `if lo == hi or lo > 0:`"):
        "sign bounds satisfy lo <= hi within {-1, 0, 1}, so lo > 0 only when lo == hi == 1, which `lo == hi` already takes",
    ("plane", "`r.lower` → `r.upper`, in `self.points = {v: r.lower for v, r in case.regions if r.is_point}`"):
        "a point region has lower == upper (that is what is_point tests)",
    ("domain", "`piece.region.lower` → `piece.region.upper`, in `point = piece.region.lower if piece.region.is_point else piece.region.sample()`"):
        "a point region has lower == upper (that is what is_point tests)",
    ("theorems", "`Z > 0` → `Z >= 0`, in `return sympy.Piecewise((s(Z) + s(-S.One) * Z, Z > 0), (s(S.Zero), sympy.Eq(Z, 0)),`"):
        "at Z = 0 the first branch is s(0) + s(-1)·0 = s(0), the value of the Eq(Z, 0) branch it now shadows",
    ("theorems", "`Z > 0` → `Z >= 0`, in `return sympy.Piecewise((s(Z) - s(S.One) * Z, Z > 0), (s(S.Zero), sympy.Eq(Z, 0)),`"):
        "at Z = 0 the first branch is s(0) - s(1)·0 = s(0), the value of the Eq(Z, 0) branch it now shadows",
    ("balls", "`0` → `1`, in `if not isinstance(x, fmpq) or x != 0:`"):
        "the check skipped for an exact argument is the exponent limit, which exact 0 and exact 1 both pass",
    ("signs", "`i > j` → `i >= j`, in `return (i > j) - (i < j)`"):
        "only certified_order calls this, after returning 0 for x == y, and two roots of one polynomial with one index are equal",
    ("evaluate", "`lo` → `hi`, in `return [lo]`"):
        "sign bounds satisfy lo <= hi within {-1, 0, 1}, so `lo == hi or lo > 0` leaves lo == hi",
    ("zero", "`1` → `0`, in `lambda u: sympy.sqrt(1 + u.args[0] ** 2) if isinstance(u, sympy.asinh) else None),`"):
        _DEAD_COSH,
    ("zero", "`1` → `0`, in `lambda u: u.args[0] / sympy.sqrt(1 + u.args[0] ** 2) if isinstance(u, sympy.asinh) else N…`"):
        _DEAD_TANH,
    ("zero", "`1 + u.args[0] ** 2` → `1 - u.args[0] ** 2`, in `lambda u: sympy.sqrt(1 + u.args[0] ** 2) if isinstance(u, sympy.asinh) else None),`"):
        _DEAD_COSH,
    ("zero", "`1 + u.args[0] ** 2` → `1 - u.args[0] ** 2`, in `lambda u: u.args[0] / sympy.sqrt(1 + u.args[0] ** 2) if isinstance(u, sympy.asinh) else N…`"):
        _DEAD_TANH,
    ("zero", "`2` → `4`, in `lambda u: sympy.sqrt(1 + u.args[0] ** 2) if isinstance(u, sympy.asinh) else None),`"):
        _DEAD_COSH,
    ("zero", "`2` → `4`, in `lambda u: u.args[0] / sympy.sqrt(1 + u.args[0] ** 2) if isinstance(u, sympy.asinh) else N…`"):
        _DEAD_TANH,
    ("smt", "`left.is_Rational and right.is_Rational`: and → or, in `if not (left.is_Rational and right.is_Rational):`"):
        "covers() admits only rationals, the variables, +, ·, integer powers (negative ones of the scale, checked in its domain and non-zero just above) and piecewise choices, so at z3's rational model both sides are rationals: the test is never true",
    ("smt", "`n >= 0` → `n > 0`, in `return power if n >= 0 else self.real(sympy.Integer(1)) / power # base ≠ 0 is asserted`"):
        "SymPy evaluates x**0 to 1, so no Pow node has exponent 0 (and were n 0, power is the constant 1, whose reciprocal is 1)",
    ("smt", "`0` → `1`, in `return power if n >= 0 else self.real(sympy.Integer(1)) / power # base ≠ 0 is asserted`"):
        "n is a non-zero integer here (SymPy evaluates x**0 to 1), so n >= 1 and n >= 0 are the same test",
    ("smt", "`x > best` → `x >= best`, in `best = z3.If(x > best, x, best) if isinstance(e, sympy.Max) else z3.If(x < best, x, best)`"):
        "the tests differ only on a tie x == best, where the If's two branches are the same real",
    ("smt", "`x < best` → `x <= best`, in `best = z3.If(x > best, x, best) if isinstance(e, sympy.Max) else z3.If(x < best, x, best)`"):
        "the tests differ only on a tie x == best, where the If's two branches are the same real",
    ("smt", "`x >= 0` → `x > 0`, in `return z3.If(x >= 0, x, -x)`"):
        "the tests differ only at x = 0, where x and -x are the same real (0)",
    ("smt", "`isinstance(c, Relational) and type(c) in _RELATIONS`: and → or, in `if isinstance(c, Relational) and type(c) in _RELATIONS:`"):
        "condition() only receives conditions of expressions covers() admitted, which admits a relation only when type(c) is in _RELATIONS (six Relational classes), so both tests are true together or false together",
    ("fallback", "`region.lower` → `region.upper`, in `if region.lower == sympy.Rational(q.numerator, q.denominator):`"):
        "a point region has lower == upper (that is what is_point tests)",
    ("domain", "`True` → `False`, in `if at_point(sympy.Piecewise((S.One, ob.region), (S.Zero, True)), var, point) != S.One:`"):
        "with the last branch dropped, a region false at the point leaves no branch: at_point raises Undecided (or the Piecewise is nan when the region is false outright), which _fails_at answers False as it answers the value 0",
    ("signs", "`i < j` → `i <= j`, in `return (i > j) - (i < j)`"):
        'certified_order returns 0 for x == y before _order_roots, and two roots of one polynomial with one index are equal, so x.index == y.index never reaches this line',
    ('signs', '`certified_order(xb, ya) < 0` → `certified_order(xb, ya) <= 0`, in `if certified_order(xb, ya) < 0:`'):
        'a CRootOf is irrational (SymPy returns a rational root as a Rational) and lies strictly inside its rational isolating interval, so xb == ya already gives x < y',
    ('plane', '`lo` → `hi`, in `subs[var] = lo`'):
        'this branch is taken for a point region, whose lower and upper are equal (that is what is_point tests)',
    ('plane', '`self.sign(x) < 0` → `self.sign(x) <= 0`, in `return -x if self.sign(x) < 0 else x`'):
        'a sign of 0 on the case means x is 0 at every point of it, where -x and x are the same value',
    ('evaluate', '`lo` → `hi`, in `return 1 if lo > 0 else -1`'):
        'in the branch `lo > 0 or hi < 0`, with end signs lo <= hi, lo > 0 and hi > 0 are the same test',
    ('guard', '`found.witness is None or found.certificate is None`: or → and, in `if found.witness is None or found.certificate is None:`'):
        'numeric_witness sets witness and certificate together (the witness is the candidate whose certificate was found), so both are None or neither is',
    ("signs", '`x > y` → `x >= y`, in `return 1 if x > y else -1`'):
        "certified_order has returned 0 for x == y before this line, so for these two rationals x >= y and x > y agree",
    ("signs", '`certified_order(xa, yb) > 0` → `certified_order(xa, yb) >= 0`, in `if certified_order(xa, yb) > 0:`'):
        "a CRootOf is irrational (SymPy returns a rational root as a Rational) and lies strictly inside its rational isolating interval, so xa == yb already gives x > y",
    ("roots", '`norm.is_zero or norm.degree() <= 0`: or → and, in `if norm.is_zero or norm.degree() <= 0:`'):
        "g has degree >= 1 here (checked just above), so its norm has degree >= 1 and is not zero: both parts are False",
    ("regions", "`self.lower` → `self.upper`, in `return sympy.Eq(var, self.lower)`"):
        "this branch is taken for a point region, whose lower and upper are equal (that is what is_point tests)",
    ("regions", "`self.lower` → `self.upper`, in `return [self.lower] if self.lower.is_Rational else []`"):
        "this line runs only for a point region, whose lower and upper are equal (that is what is_point tests)",
    ("roots", "`s * side * slope > 0` → `s * side * slope >= 0`, in `if s != 0 and s * side * slope > 0 or s == 0:`"):
        "after `s != 0` each factor is ±1 (s a certified sign, side ±1, slope ±1 as 0 returned earlier): the product is ±1, where >= 0 and > 0 agree",
    ("regions", "`isinstance(cond, sympy.Rel) and type(cond) in _SIGN_TEST`: and → or, in `if isinstance(cond, sympy.Rel) and type(cond) in _SIGN_TEST:`"):
        "the concrete subclasses of sympy.Rel are exactly the six keys of _SIGN_TEST (Eq, Ne, Gt, Ge, Lt, Le; _Inequality, _Greater and _Less are abstract), so the two tests are always equal",
    ("signs", "`0` → `1`, in `if certified_order(xb, ya) < 0:`"):
        "certified_order is -1, 0 or 1, so `< 1` is `<= 0`; a CRootOf is irrational and lies strictly inside its rational isolating interval, so xb == ya already gives x < y",
    ("roots", "`len(roots) > 1` → `len(roots) >= 1`, in `if len(roots) > 1:`"):
        "len(roots) == 1 has returned on the line above, so here len(roots) >= 1 and len(roots) > 1 agree",
    ("roots", "`1` → `0`, in `if len(roots) > 1:`"):
        "len(roots) == 1 has returned on the line above, so here len(roots) > 0 and len(roots) > 1 agree",
    ("roots", '`norm.degree() <= 0` → `norm.degree() < 0`, in `if norm.is_zero or norm.degree() <= 0:`'):
        "g has degree >= 1 here (checked just above), so its norm, the product of its conjugates, has degree >= 1: `< 0` and `<= 0` are both False",
    ("roots", '`raise Undecided(f"the norm of {text(g)} over its coefficien…` → `pass`, in `raise Undecided(f"the norm of {text(g)} over its coefficient field is degenerate")`'):
        "unreachable: g has degree >= 1 here, so its norm has degree >= 1 and is not zero, and the test guarding this raise is never true",
    ("roots", '`certified_order(c, qa) >= 0` → `certified_order(c, qa) > 0`, in `inside = ends or [c for c in proposals if certified_order(c, qa) >= 0 and certified_order…`'):
        "a proved root c equal to the box end qa makes g(qa) = 0, and the bracket's sign sa at qa is certified, so sa == 0 and `ends` is used, never this list",
    ("roots", '`certified_order(qb, c) >= 0` → `certified_order(qb, c) > 0`, in `inside = ends or [c for c in proposals if certified_order(c, qa) >= 0 and certified_order…`'):
        "a proved root c equal to the box end qb makes g(qb) = 0, and the bracket's sign sb at qb is certified, so sb == 0 and `ends` is used, never this list",
    ("roots", '`0` → `1`, in `inside = ends or [c for c in proposals if certified_order(c, qa) >= 0 and certified_order…`'):
        "certified_order is -1, 0 or 1, so `>= 1` is `> 0`; a proved root c equal to a box end makes g 0 there, the bracket's certified sign there is 0 and `ends` is used, never this list",
    ("signs", '`not r.is_real or r.index >= len(intervals)`: or → and, in `if not r.is_real or r.index >= len(intervals):`'):
        "a CRootOf's poly is irreducible over Q (SymPy factors it first), so its distinct real roots are indices 0 .. len(intervals) - 1 and its complex ones come after: not r.is_real and r.index >= len(intervals) are the same test",
    ("signs", '`r.index >= len(intervals)` → `r.index > len(intervals)`, in `if not r.is_real or r.index >= len(intervals):`'):
        "a CRootOf's poly is irreducible over Q (SymPy factors it first), so index == len(intervals) is its first complex root, for which `not r.is_real` is already True",
    ("balls", '`lo > 0` → `lo >= 0`, in `return lo if lo > 0 else -1`'):
        "in the branch `lo > 0 or hi < 0`, lo == 0 would need hi < 0, impossible as lo <= hi: there lo >= 0 means lo > 0",
    ("balls", '`lo` → `hi`, in `return lo if lo > 0 else -1`'):
        "in the branch `lo > 0 or hi < 0`, with end signs lo <= hi in {-1, 0, 1}, lo > 0 and hi > 0 are the same test and both give lo == hi == 1",
    ("balls", "`ball.lower() <= a and ball.upper() >= b`: and → or, in `if ball.lower() <= a and ball.upper() >= b:`"):
        "both tests always hold, so and/or agree: the ball has radius R (the mag Arb gives `wanted`, as arb(0, wanted) showed) and exact midpoint m = lower(a + R) <= a + R, so m − R <= a; and a + R − m <= |a + R|·2^(2−prec) < 2·slack = (|a| + |b|)·2^(3−prec) while 2R >= b − a + 2·slack, so m + R >= b",
    ('intervals', '`10` → `20`, in `return x[2] + x[3] if x[1] else -(10**9)`'):
        "_bits of an exact-0 end is read only by _cos_sin's test against TRIG_MAX_BITS (any negative value passes) and by the series' stop tests, whose terms and totals are products and sums of non-zero one-signed intervals (positive arguments), never an end mpmath rounds to 0",
    ('intervals', '`9` → `18`, in `return x[2] + x[3] if x[1] else -(10**9)`'):
        "_bits of an exact-0 end is read only by _cos_sin's test against TRIG_MAX_BITS (any negative value passes) and by the series' stop tests, whose terms and totals are products and sums of non-zero one-signed intervals (positive arguments), never an end mpmath rounds to 0",
    ('evaluate', '`lo > 0` → `lo >= 0`, in `return 1 if lo > 0 else -1`'):
        'in the branch `lo > 0 or hi < 0`, lo == 0 would need hi < 0, impossible as lo <= hi: there lo >= 0 means lo > 0',
    ('evaluate', '`prec < max_prec` → `prec <= max_prec`, in `while prec < max_prec:`'):
        'the ladder gains only a second max_prec (when max_prec = 64·2^k), and a second try at the same precision repeats the first, deterministic one',
    ('evaluate', '`value > 0` → `value >= 0`, in `prec=0, sign=1 if value > 0 else -1)`'):
        '_exact_certificate is called only for value != 0 (certify_nonzero returns None for 0 just before), where >= 0 and > 0 agree',
    ('balls', '`p > best` → `p >= best`, in `if (p > best) if largest else (p < best):`'):
        'the points are exact end points, so p >= best and not p > best means p == best: the same number replaces best',
    ('balls', '`p < best` → `p <= best`, in `if (p > best) if largest else (p < best):`'):
        'the points are exact end points, so p <= best and not p < best means p == best: the same number replaces best',
    ("intervals", '`lo <= 0 <= hi` → `lo <= 0 < hi`, in `if lo <= 0 <= hi:`'):
        "for x = [lo, 0] with lo < 0 mpmath's x**n (n < 0) is unbounded, which _finite refuses with the same Imprecise",
    ("homogeneity", '`0` → `1`, in `if z == z1 or (samples[z].sign == 0 and samples[SCALE * z].sign == 0):`'):
        "homogeneity_degree returns ZeroAndNonzero before any _conflict call when some grid z has sigma(z) = 0 and sigma(2z) certified non-zero (and z = 0 cannot), so the new condition is never true there",
    ("homogeneity", '`0` → `1`, in `more = tuple(q for z in extra if (q := sympy.Rational(z)) != 0)`'):
        "1 and 1/2 are in GRID already, and an extra 0 only repeats the sample at 0, whose pair (0, 0) no argument but the one on S.Zero uses",
    ("symmetries", '`shown.is_number and shown.is_real`: and → or, in `if shown.is_number and shown.is_real:`'):
        "both branches return a string, never None, and only whether _recheck returns None is a decision: the string is the Re-check step's text",
    ("plane", "`isinstance(cond, sympy.Rel) and type(cond) in _SIGN_TEST`: and → or, in `if isinstance(cond, sympy.Rel) and type(cond) in _SIGN_TEST:`"):
        "SymPy's Relational subclasses are the six keys of _SIGN_TEST and the abstract bases _Inequality, _Greater, _Less, which SymPy never instantiates (Relational.__new__ maps every operator to one of the six): both parts are true for the same conditions",
    ("plane", "`0` → `1`, in `return -x if self.sign(x) < 0 else x`"):
        "sign is -1, 0 or 1, so `< 1` is `<= 0`, and a sign of 0 on the case means x is 0 at every point of it, where -x and x are the same value",
    ("zero", "`piece.region.lower` → `piece.region.upper`, in `samples = [piece.region.lower] if piece.region.is_point else piece.region.samples(12)`"):
        "this branch is taken for a point region, whose lower and upper are equal (that is what is_point tests)",
    ("zero", "`piece.region.lower` → `piece.region.upper`, in `point = piece.region.lower`"):
        "_settle_point is called only for a point region (_settle tests is_point first), whose lower and upper are equal",
    ("homogeneity", "`z == z1 or (samples[z].sign == 0 and samples[SCALE * z].sig…`: or → and, in `if z == z1 or (samples[z].sign == 0 and samples[SCALE * z].sign == 0):`"):
        "the skip then never fires (σ(z₁) ≠ 0), so the cross σ(2z)·σ(z₁) − σ(2z₁)·σ(z) is also tried at z = z₁ and where σ(z) = σ(2z) = 0 exactly: there it is exactly 0, which certify_nonzero never certifies, so _conflict returns None as the skip did",
    ("evidence", '`found.witness is not None and found.certificate is not None`: and → or, in `certified = found.witness is not None and found.certificate is not None`'):
        "numeric_witness sets witness and certificate together (the witness is the candidate whose certificate was found; both stay None otherwise), so both are None or neither is",
    # the realistic family (issue 23)
    ("kernel_check", "`_IMPLIED_BY` gets the extra entry `gt`, in `_IMPLIED_BY = {\"pos\": {\"pos\"}, \"neg\": {\"neg\"}, \"zero\": {\"zero\"}, \"nonneg\": {\"nonneg\", \"po…`"):
        "_IMPLIED_BY is read once, as _IMPLIED_BY[claim] under `claim in CLAIMS`, whose keys are the six sign claims; gt is a relation head, never a claim, so the extra entry is never looked up",
    ("kernel_check", "`_RELATION_SIGNS` gets the extra entry `pos`, in `_RELATION_SIGNS = {\"gt\": (\"pos\", \"nonpos\"), \"ge\": (\"nonneg\", \"neg\"), \"lt\": (\"neg\", \"nonne…`"):
        "truth() reads only condition nodes made by tree.parse_cond, which refuses every head outside RELATIONS | {and, or, not, true, false}, and substitute/replace/canon never change a condition's head: a head 'pos' never reaches the lookup",
    ("certificate_rewrite", "`_RELATION_SIGNS` gets the extra entry `Leaf`, in `_RELATION_SIGNS = {\"gt\": (\"pos\", \"nonpos\"), \"ge\": (\"nonneg\", \"neg\"), \"lt\": (\"neg\", \"nonne…`"):
        "the emitter's conditions are made by certificate_tree.condition, whose relation heads are the six values of its _RELATIONS (gt ge lt le eq ne), and no rewrite changes a condition's head: the key 'Leaf' is never looked up",
    ("kernel_points", '`Fraction(int(x.p), int(x.q))` → `(int(x.p)) / (int(x.q))`, in `return Fraction(int(x.p), int(x.q))`'):
        _DEAD_FRAC,
    ("kernel_points", '`Fraction(int(x.p), int(x.q))`: arguments 1 and 2 swapped, in `return Fraction(int(x.p), int(x.q))`'):
        _DEAD_FRAC,
    ("kernel_points", '`Fraction(int(x))` → `float(int(x))`, in `return Fraction(int(x))`'):
        _DEAD_FRAC,
    ("plane", "`expr.args[0]` → `expr.args[-1]`, in `x = self.resolve(expr.args[0])`"):
        "the line is the Abs branch of resolve, and SymPy's Abs takes exactly one argument (Abs(x, y) is a TypeError), so args[-1] is args[0]",
    ("plane", "`expr.args[0]` → `expr.args[-1]`, in `return sympy.Integer(self.sign(self.resolve(expr.args[0])))`"):
        "the line is the sign branch of resolve, and SymPy's sign takes exactly one argument, so args[-1] is args[0]",
    ("intervals", "`_bits(total[0]) - 1` → `_bits(total[0])`, in `small = _bits(term[1]) < _bits(total[0]) - 1 + tol`"):
        "`small` only chooses where the series stops: the tail bound 2·t_(n+1) is added wherever it stops, once ratio(n+1) <= 1/2",
    ("kernel_evaluate", "`_PARTIAL` gets the extra entry `gt`, in `_PARTIAL: dict[str, Callable[[arb], arb]] = {`"):
        "enclose only reads trees validated by kernel/tree.parse_expr or built by engine/certificate_tree.tree, and both put a relation head only in a condition (read through _TESTS): no value node has the head gt",
    ("group_members", "`Proof(proof.verdict, proof.steps, proof.witness, proof.note, admissio…`: arguments 3 and 4 swapped, in `return Proof(proof.verdict, proof.steps, proof.witness, proof.note, admission)`"):
        "_admitted only gets a fresh Proof(HOLDS, steps) (witness None, note ''), and it returns it only when accepted, i.e. certified: group.py reads a proof's witness only when BROKEN and its note only when not certified",
    ("parsing", "`_ARITHMETIC` gets the extra entry `ast.BitAnd`, in `_ARITHMETIC: dict[type, Callable[[Any, Any], sympy.Expr]] = {`"):
        "_binop refuses an operator of _CONNECTIVES before it reads _ARITHMETIC, and _forbidden tests membership of _ARITHMETIC | _CONNECTIVES, which already holds BitAnd: the extra entry is never read",
    ("parsing", "`_REFUSED` gets the extra entry `ast.Add`, in `_REFUSED = {`"):
        "_REFUSED is looked up only by _forbidden, which refuse_forbidden calls on ast.expr nodes only; ast.Add is an ast.operator (a BinOp's op), never such a node",
    ("parsing", "`_RELATION_SIGN` gets the extra entry `ast.Add`, in `_RELATION_SIGN: dict[type, Callable[[int], bool]] = {`"):
        "_RELATION_SIGN is keyed and looked up by SymPy relation classes (relation's cls, the rebuild's type(node) of a SymPy node); an ast class is never such a key",
    ("parsing", "`_NONSMOOTH_VALUE` gets the extra entry `asin`, in `_NONSMOOTH_VALUE: dict[str, Callable[[int, sympy.Expr], sympy.Expr]] = {`"):
        "nonsmooth looks _NONSMOOTH_VALUE up only by a name it has just read from _NONSMOOTH (Abs, sign, Heaviside), so an asin entry is never read",
    ("parsing", "`_NONSMOOTH_CASES` gets the extra entry `asin`, in `_NONSMOOTH_CASES: dict[str, Callable[[sympy.Expr], list[tuple[sympy.Expr, ObligationKind,…`"):
        "nonsmooth looks _NONSMOOTH_CASES up only by its name argument, which is Abs, sign or Heaviside (Builder calls it for a name in _NONSMOOTH, substitute with the class name of an _NONSMOOTH value): an asin entry is never read",
    ("parsing", "`_VARIADIC` gets the extra entry `asin`, in `_VARIADIC: dict[str, type[sympy.Expr]] = {\"Max\": sympy.Max, \"Min\": sympy.Min}`"):
        "Builder._call tests _UNARY (every one-argument function of the table, asin among them) before _VARIADIC, and extremum, the one reader of its values, is called from that later branch and from substitute for SymPy's Max and Min only; BUILTIN_FUNCTIONS gets a second 'asin', read only by membership",
    ("parsing", "`_COMPARISONS` gets the extra entry `ast.Add`, in `_COMPARISONS: dict[type[ast.cmpop], type] = {`"):
        "_COMPARISONS is looked up only by the type of a Compare node's operator (_forbidden, the condition builder), an ast.cmpop; ast.Add is an ast.operator, never such a key",
    ("parsing", "`_EXPRESSION_KEYWORDS` gets the extra entry `BUILTIN_FUNCTIONS`, in `_EXPRESSION_KEYWORDS = frozenset({\"and\", \"or\", \"not\", \"if\", \"else\", \"in\", \"is\", \"True\", \"…`"):
        "_keywords_renamed tests the set only for tokens keyword.iskeyword accepts; BUILTIN_FUNCTIONS is not a Python keyword, so the extra entry is never compared",
    ("parsing", "`_LIBRARY_NAMES` gets the extra entry `asin`, in `_LIBRARY_NAMES = {\"abs\": \"Abs\", \"absolute\": \"Abs\", \"fabs\": \"Abs\", \"maximum\": \"Max\", \"mini…`"):
        "the entry maps asin to asin (the neighbours' pattern \"pi\": \"pi\"), and _LIBRARY_NAMES is read only as _LIBRARY_NAMES.get(attr, attr): the same answer for every name",
    ("plane", "`_SIGN_TEST` gets the extra entry `sympy.Piecewise`, in `_SIGN_TEST = {`"):
        "_SIGN_TEST is read only under isinstance(cond, sympy.Rel), by type(cond); a Piecewise is never a relation",
    ("signs", "`_RELATIONS` gets the extra entry `sympy.Abs`, in `_RELATIONS: dict[type[sympy.Rel], Callable[[int], bool]] = {`"):
        "_RELATIONS is read by the type of a Piecewise condition (_truth and its recursion through And/Or/Not/ITE) or of a relation with a branch value put in (_decided, called on a Relational's xreplace): SymPy Booleans all, never an Abs, which is an Expr",
    ("parsing", "`_OPERATOR_TEXT` gets the extra entry `ast.Add`, in `_OPERATOR_TEXT = {`"):
        "_OPERATOR_TEXT only names an operator in a refusal message, looked up only for an operator outside _ARITHMETIC, _CONNECTIVES and _COMPARISONS; ast.Add is arithmetic, so its entry is never read",
    ("parsing", "`written` → `sign`, in `return relation(cls, sign * target, S.Zero, written)`"):
        "relation reads `written` only into the text of a ParseError (_real_comparison's _not_real, certified_sign's refusal): every value returned and every error raised are the same, only a message names -1 or 1 instead of the input",
    ("evaluate", "`raise EvaluationError(f\"{_short(node)} is not a real root\")` → `pass`, in `raise EvaluationError(f\"{_short(node)} is not a real root\")`"):
        "unreachable: both lines run after `node.is_real` is checked, and SymPy stores a CRootOf with its irreducible (square-free) factor and calls it real exactly when its index is below that factor's number of real roots, which both isolations (Arb's exactly-real balls, SymPy's sqf intervals) list",
    ("smt", "`_RELATIONS` gets the extra entry `sympy.Max`, in `_RELATIONS = {sympy.StrictLessThan: \"<\", sympy.LessThan: \"<=\", sympy.StrictGreaterThan: \"…`"):
        "_RELATIONS is read by _walk (type(node) in _RELATIONS, where Max is already accepted through _FUNCTIONS and walked the same way) and by condition only for a Relational, which a Max never is: the extra key's value is never read",
    ("kernel_check", "`region[1:2]` → `region[1:3]`, in `ends = region[1:] if region[0] == \"open\" else region[1:2]`"):
        "every point region the kernel builds (region_from, the witness point, complete.py) is the 2-tuple ('point', p), so region[1:3] and region[1:2] are the same 1-tuple",
}

# the rewrite rules of engine/zero's table of identities: each rule reads u.args only after
# isinstance(u, f) for a one-argument SymPy function f
_ONE_ARGUMENT_RULES = (
    '("asinh(sinh u) = u", sympy.asinh, lambda u: u.args[0] if isinstance(u, sympy.sinh) else …',
    '("sinh(asinh u) = u", sympy.sinh, lambda u: u.args[0] if isinstance(u, sympy.asinh) else …',
    'lambda u: sympy.sqrt(1 + u.args[0] ** 2) if isinstance(u, sympy.asinh) else None),',
    'lambda u: u.args[0] / sympy.sqrt(1 + u.args[0] ** 2) if isinstance(u, sympy.asinh) else N…',
    '("tan(atan u) = u", sympy.tan, lambda u: u.args[0] if isinstance(u, sympy.atan) else None…',
    '("atanh(tanh u) = u", sympy.atanh, lambda u: u.args[0] if isinstance(u, sympy.tanh) else …',
    '("acosh(cosh u) = |u|", sympy.acosh, lambda u: sympy.Abs(u.args[0]) if isinstance(u, symp…',
    'lambda u: sympy.atan(sympy.sinh(u.args[0])) if isinstance(u, sympy.tanh) else None),',
    '("log(exp u) = u", sympy.log, lambda u: u.args[0] if isinstance(u, sympy.exp) else None),',
    'lambda u: u.args[0] if isinstance(u, sympy.log) and _positive(u.args[0]) else None),',
    'lambda u: sympy.atan(sympy.sinh(2 * u.args[0])) / 2 if isinstance(u, sympy.tanh) else Non…',
)
EQUIVALENT[("kernel_complete", "`@lru_cache(maxsize=1024)` of `_normal_derivative` keyed without `v`, "
            "in `@lru_cache(maxsize=1024)`")] = (
    "_normal_derivative is called only by nth_derivative(normal=True) and by itself with the same v, and the one "
    "caller with normal=True (the Taylor rows' derivatives at 0, _at_zero(nth_derivative(…, j, normal=True))) passes "
    "no v: every call has v = 't', so no two cached calls differ in v alone")
EQUIVALENT.update({
    ("kernel_evaluate", '`_TESTS` gets the extra entry `exp`, in `_TESTS = {"gt": lambda d: d > 0, "ge": lambda d: d >= 0, '
                        '"lt": lambda d: d < 0,`'):
        "_TESTS is read only on a piecewise's conditions (exact_truth, truth_over and their recursion through "
        "and/or/not), and every condition is parsed by tree.parse_cond (the six relations, and/or/not, true/false) "
        "or built by the emitter's condition with the same heads; substitute and canon keep heads and a rewrite's "
        "result is its parsed `after`: no condition has the head exp (test_kernel_vocabulary_gates.py pins the gate)",
    ("kernel_bounds", '`_SIGN_TESTS` gets the extra entry `exp`, in `_SIGN_TESTS = {"gt": (lambda lo, hi: lo > 0, '
                      'lambda lo, hi: hi <= 0),`'):
        "_SIGN_TESTS is read only by bounds._truth, called only by bounds._piecewise on a piecewise's conditions "
        "(and its own recursion through not/and/or): the same grammar gate as _TESTS, no condition has the head exp",
    ("kernel_signs", '`_ARGUMENTS` gets the extra entry `pos`, in `_ARGUMENTS = {"point": _point, "structure": '
                     '_structure, "roots": _roots, "enclosure": _en…`'):
        "prove_sign looks a name up in _ARGUMENTS only after `by not in ARGUMENTS` has rejected it, or from literal "
        "tuples drawn from ARGUMENTS; 'pos' is not in ARGUMENTS and no other module reads _ARGUMENTS",
    ("kernel_evaluate", "`_UNARY` gets the extra entry `asin`, in `_UNARY: dict[str, Callable[[arb], arb]] = {`"):
        "Arb enforces asin's domain itself: arb_asin of a ball with any point outside [-1, 1] is NaN (an exact "
        "|x| > 1 directly, an inexact ball through rsqrt(1 - x^2) of a ball not certainly positive), which _finite "
        "refuses as Unknown like _PARTIAL's _in; only the Unknown's text differs, and no caller puts it in a "
        "verdict (test_kernel_vocabulary_gates.py checks the NaN with Hypothesis balls touching ±1)",
})
EQUIVALENT[("certificate_rewrite", "`varying[0]` → `varying[-1]`, in `rest = [f for f in g[1:] if f is not "
            "varying[0]] if len(varying) == 1 else []`")] = (
    "the list is built only when len(varying) == 1, where varying[-1] is varying[0]")
EQUIVALENT[("balls", "`fmpq(1)` → `float(1)`, in `lo, hi = self.sign_bounds(self.add([fmpq(1), x]))`")] = (
    "the line runs only for an arb x (an fmpq returned the line above), and add([1.0, x]) is 1.0 + x: Arb converts "
    "the float 1.0 exactly, the same one rounded addition as x + fmpq(1), so the ball and its sign bounds are the same")
EQUIVALENT[("kernel_signs", "`Fraction(0)` → `float(0)`, in `no_cell: tuple[None, tuple[Fraction, Fraction]] = "
            "(None, (Fraction(0), Fraction(0)))`")] = (
    "no_cell is used only when no cell is found, and then its v is None: `if v is None or a == b: raise Unknown` "
    "raises before a and b are read as numbers")
EQUIVALENT[("certificate_rewrite", "`Fraction(1)` → `float(1)`, in `coeff, factors = (_number(arg[1]), arg[2:]) if "
            "arg[1][0] in (\"int\", \"rat\") else (Fraction…`")] = (
    "_split_product only negates this coefficient, so it stays ±1.0 against ±Fraction(1): `coeff <= 0` reads the "
    "same, and number(coeff) is called only under `coeff != 1`, false for 1.0 as for Fraction(1)")
EQUIVALENT[("certificate_rewrite", "`Fraction(0)` → `float(0)`, in `return Fraction(0), None`")] = (
    "_multiple returns this coefficient only with m = None, and both callers read it only when m is not None")
EQUIVALENT[("group_results", "`sympy.Rational(1, 2)` → `(1) / (2)`, in `for q in (S.One, -S.One, 2, -2, "
            "sympy.Rational(1, 2), -sympy.Rational(1, 2), 3, -3):`")] = (
    "q reaches only `q > 0` and contains(q, q), whose membership reads both through exact_number, which turns "
    "the float ±0.5 into Rational('±0.5') = ±1/2 exactly")
EQUIVALENT[("signs", "`i + 1` → `1`, in `pairs = [(a, sympy.And(*(rel(kind, a, b) for b in args[i + 1:]), "
            "evaluate=False))`")] = (
    "branch i >= 1 is reached only when branch 0 failed, so the maximum (minimum) lies in args[1:]; there "
    "'a_i >= every a_j, j >= 1' holds exactly when a_i is it, as the clean 'a_i >= every later a_j' does "
    "after the earlier branches failed: the Piecewise equals Max (Min) everywhere")
EQUIVALENT[("evaluate", "`c * scale` → `c`, in `poly = fmpz_poly([int(c * scale) for c in reversed(coeffs)])`")] = (
    "node is a SymPy CRootOf, whose constructor always clears denominators (its PurePoly is over ZZ, even when "
    "built from a QQ Poly), so every coefficient is an integer, scale = ilcm of denominators 1 = 1, and c·1 = c")
EQUIVALENT[("group_maximality", "`(-1) ** j * sign` → `sign`, in `m = [(j, (-1) ** j * v, None if sign is None else "
            "(-1) ** j * sign) for j, v, sign in p]`")] = (
    "the line runs only in the analytic case (not one_sided, q = 1), where the third component is read only as "
    "`ps or ms`, `ms is not None` and `ms == 0`; coefficients gives a sign in {0, ±1, None}, and (−1)^j·sign "
    "agrees with sign on all three")
EQUIVALENT[("zero_proof", "`key / d` → `key`, in `return {key: (sympy.exp(key / d), d) for key, d in denominators.items()}`")] = (
    "the base is used only as the key of a fresh Dummy (_atom), with the power·d exponents unchanged; keys are "
    "distinct coefficient-free terms (as_coeff_Mul), so exp(key) are as distinct per key as exp(key/d), and every "
    "exp of the expression goes through this table: the polynomial form is the same up to renaming its atoms")
EQUIVALENT[("certificate_tree", "`expr.args[0]` → `expr.args[-1]`, in `return (name, tree(expr.args[0], sigma))`")] = (
    "the line runs only after `if len(expr.args) != 1: raise Unsupported(...)`, so args[-1] is args[0]")
EQUIVALENT[("kernel_complete", "`args[0]` → `args[-1]`, in `return args[0] if len(args) == 1 else (node[0], *args)`")] = (
    "args[0] is read only when len(args) == 1, where args[-1] is args[0]")
EQUIVALENT[("certificate_tree", "`xs[0]` → `xs[1]`, in `return xs[0]`")] = (
    "the branch is never taken: SymPy never builds a Max or Min of one argument (Max(x) is x, even with "
    "evaluate=False), so an extremum node always has two arguments or more")
EQUIVALENT[("numeric_checks", "`check_name` → `r`, in `r = r or (_DEFAULTS[\"r\"] if form is NumericForm.BILINEAR and check_name is not _K.RANK1 e…`")] = (
    "the rank1 check has set r = 1 two lines above, so `r or (…)` never reads the condition for it; for "
    "every other check `check_name is not _K.RANK1` and `r is not _K.RANK1` are both true")
EQUIVALENT[("group_breaks", "`trig[0]` → `trig[-1]`, in `h = _harmonic(trig[0], rest) if trig else (S.Zero, S.Zero, rest, S.Zero)`")] = (
    "a term with more than one cos or sin factor has returned None two lines above, so trig has at most one "
    "element here and trig[-1] is trig[0]")
EQUIVALENT[("zero", "`number.args[0]` → `number.args[-1]`, in `identity = rule(number.args[0]) if isinstance(number, func) and len(number.args) == 1 els…`")] = (
    "args[0] is read only under `len(number.args) == 1`, where args[-1] is args[0]")
EQUIVALENT[("certificate_tree", "`xs[0]` → `xs[-1]`, in `return xs[0]`")] = (
    "as for `xs[0]` → `xs[1]`: the branch is never taken, SymPy never builds a Max or Min of one argument; "
    "and were it taken, xs would have one element, where xs[-1] is xs[0]")
EQUIVALENT[("kernel_complete", "`_apart(wi, w)`: arguments 1 and 2 swapped, in `_apart(wi, w)`")] = (
    "_apart(w1, w) proves w1 − w ≠ 0 and w1 + w ≠ 0; swapped it proves w − w1 ≠ 0 and w + w1 ≠ 0, the "
    "negation of the first (non-zero exactly when it is) and the same sum: |ω₁| ≠ |ω| is symmetric")
EQUIVALENT[("regions", "`raise Undecided(f\"cannot order the cut points {lo} and {hi}…` → `pass`, in `raise Undecided(f\"cannot order the cut points {lo} and {hi} exactly\")`")] = (
    "_check_strictly_increasing is given only the output of sorted_points, which keeps hi after lo only when "
    "the same certified_order(hi, lo) was non-zero after sorting by it: the condition is never true (and an "
    "Undecided from the comparison itself still propagates)")
EQUIVALENT[("evaluate", "`cond.args[0]` → `cond.args[-1]`, in `t = self.truth(cond.args[0])`")] = (
    "the line runs under isinstance(cond, Not), and SymPy's Not has exactly one argument")
EQUIVALENT[("theorems", "`sympy.Piecewise((s(Z) + s(-S.One) * Z, Z > 0), (s(S.Zero), sympy.Eq(Z…`: arguments 2 and 3 swapped, in `return sympy.Piecewise((s(Z) + s(-S.One) * Z, Z > 0), (s(S.Zero), sympy.Eq(Z, 0)),`")] = (
    "with the default branch moved before Eq(z, 0), z = 0 takes s(z) − s(1)·z = s(0), the Eq branch's value: "
    "the same function of z (SymPy drops the branch after True)")
EQUIVALENT[("plane", "`live[0]` → `live[-1]`, in `var, region = live[0]`")] = (
    "the line runs only under `if len(live) == 1`, where live[-1] is live[0]")
EQUIVALENT.update({("zero", f"`u.args[0]` → `u.args[-1]`, in `{line}`"):
                   "u is an instance of sinh, asinh, atan, tanh, cosh, exp or log, each of one argument in SymPy "
                   "(log(x, b) is built as log(x)/log(b)), so u.args[-1] is u.args[0]"
                   for line in _ONE_ARGUMENT_RULES})

# Mutants proved to keep every result sound, though not always the same: an enclosure that
# still contains the value (only its width can change), a series stopped at another term whose
# remainder bound is added all the same. Like equivalent mutants they are not unsound edits:
# listed with the one-line proof, not run, and kept out of the score's denominator.
_ERFC_ROUTE = ("it only moves where erfc (erf) takes the asymptotic route: for real x > 0 that series is enveloping "
               "after any number of terms (DLMF 7.12(i)) and the first omitted term is hulled in, so both routes "
               "enclose the value on the whole interval; only the width differs")
SOUND_EITHER_WAY: dict[tuple[str, str], str] = {
    ("signs", "`sympy.Rational(1, 10**digits)` → `(1) / (10 ** digits)`, in `eps = sympy.Rational(1, 10**digits)`"):
        "eps only sets the target width of Poly.intervals, which takes the float as a positive rational (10^-k or "
        "slightly above): the intervals stay exact isolating ones and _order_roots answers only after "
        "certified_order compares their exact ends, so only the level where the roots separate can change",
    ("intervals", "`self.sign_bounds(x)[0]` → `self.sign_bounds(x)[-1]`, in `if self.sign_bounds(x)[0] >= 0:`"):
        "acos(x) = 2·atan(√((1 − x)/(1 + x))) on all of (−1, 1], so the branch only chooses the better-"
        "conditioned formula; where x reaches −1, 1/(1 + x) of an enclosure holding 0 is refused "
        "(division by zero or an unbounded enclosure), never a wrong value",
    ("roots", "`depth + 1` → `depth`, in `stack += [(mid, b, depth + 1), (a, mid, depth + 1)]`"):
        "the depth only bounds the work: a bracket is kept only when g's sign at both ends and g' on the box "
        "are certified, at any depth, and both the depth limit and the box limit (MAX_BOXES, still counted) "
        "end in Undecided; a half that keeps its parent's depth is bisected further, nothing more",
    **{("intervals", f"`total[0]` → `total[{i}]`, in `small = _bits(term[1]) < _bits(total[0]) - 1 + tol`"):
       "`small` only chooses where the positive series stops (the sum's upper end for its lower end): "
       "the tail bound 2·t_(n+1) is added wherever it stops, once ratio(n+1) <= 1/2, so the "
       "enclosure contains the sum either way"
       for i in ("-1", "1")},
    ("balls", "`hi < 0` → `hi <= 0`, in `if hi < 0: # (an upper end exactly 0 would prove it too: Arb's bound of 1/e is above it)`"):
        "LambertW: shifted encloses x + w for every x in the ball and w in Arb's ball of 1/e, whose upper end is dyadic and so > 1/e (irrational); an upper end exactly 0 thus gives x + 1/e < 0 for every x: 'not defined' is true there too",
    ("domain", "`not u.free_symbols <= {var} or u.is_polynomial(var)`: or → and, in `if not u.free_symbols <= {var} or u.is_polynomial(var):`"):
        "it only lets prove_sign/prove_nonzero try more obligations: on a polynomial in var a certified sign over R is still a proof, and on u with a symbol besides var both return None before trying (definite.py: `if not expr.free_symbols <= set(ranges): return None`)",
    ("certificate_emit", '`range(1, 100)` → `range(1, 100 - 1)`, in `u = next((n for n in ("u", *(f"u{i}" for i in range(1, 100)))`'):
        "the names only need to be fresh, and each is checked against the box and the domains: a shorter list can only run out (no certificate), never hand out a name in use",
    ("certificate_emit", '`checked_outcome(None, started, check_it, f"the witness gives no exact…`: arguments 2 and 3 swapped, in `return checked_outcome(None, started, check_it, f"the witness gives no exact value for {w…`'):
        "with no certificate checked_outcome never reads run_kernel and returns the same Rejection (reason, 'emit'): only its emit_seconds, a timing, is wrong, and no time decides a verdict",
    ("intervals", "`x[0]` → `x[1]`, in `bits, target = _asymptotic_bits(x[0]), self.prec + 2 * _GUARD_BITS`"):
        _ERFC_ROUTE,
    ("intervals", "`x[0]` → `x[-1]`, in `bits, target = _asymptotic_bits(x[0]), self.prec + 2 * _GUARD_BITS`"):
        _ERFC_ROUTE,
    ("roots", "`lower` → `upper`, in `roots = [c for c in _proved_roots(g, var, propose(g, var, sympy.Interval.open(lower, uppe…`"):
        "the interval only goes to propose, whose candidates are proposals: every root kept is proved by _proved_roots and must lie strictly inside (lower, upper); with fewer proposals _monotone ends in the certified end test or None (the caller bisects), at worst a proof lost",
    ("balls", "`1` → `0`, in `if isinstance(x, fmpq) and x.q == 1:`"):
        "an fmpq's denominator is never 0, so gamma's exact-integer branch is never taken: Arb's gamma then encloses (n − 1)! at n > 0 (an enclosure for an exact value), and at a pole n <= 0 the ball holds the integer and is not > 0, so Imprecise (undecided) replaces EvaluationError: only answers lost",
    ("balls", "`power.lower() < 0` → `power.lower() <= 0`, in `return power.nonnegative_part() if power.lower() < 0 else power`"):
        "the two differ only when the ball's lower end is exactly 0, where nonnegative_part still encloses ball ∩ [0, ∞), which holds every value |x|**n >= 0 the ball held",
    ("intervals", "`2` → `4`, in `if 2 * bits >= target:`"):
        "it only moves where erf takes 1 − erfc's asymptotic route: for real x > 0 that series is enveloping after any number of terms (DLMF 7.12(i)) and the first omitted term is hulled in, so both routes enclose erf(x); only the width differs",
    ("smt", "`seconds < 0.05` → `seconds <= 0.05`, in `if seconds < 0.05:`"):
        "it only decides whether z3 is asked at all with about 0.05 s left: not asking gives verdict unknown and agrees None, and a cross-check only withdraws a verdict when agrees is False, never upgrades one",
    ("smt", "`0.05` → `0.1`, in `if seconds < 0.05:`"):
        "it only decides whether z3 is asked at all with under 0.1 s left: not asking gives verdict unknown and agrees None, and a cross-check only withdraws a verdict when agrees is False, never upgrades one",
    ("smt", '`1000` → `2000`, in `solver.set("timeout", max(1, int(seconds * 1000)))`'):
        "z3's time limit in milliseconds only bounds how long it searches: sat and unsat mean the same whenever they come, and running out is unknown, no verdict",
    ("fallback", "`2` → `4`, in `pools = [_values(v, domain_regions(domains.get(v)), expr, max(samples // 2, 16), rng) for…`"):
        "only how many random values each variable's pool draws (at least 16 either way): every point still passes _inside, and a witness is only a point certify_nonzero certified",
    ("fallback", "`value < 1e300` → `value <= 1e+300`, in `v = float(value) if value < 1e300 else math.inf`"):
        "v changes only at a value equal to the double 1e300, to that finite double instead of inf (both > 0): v only ranks candidates and fills the evidence's largest, and a witness is only a point certify_nonzero certified",
    ("fallback", "`1e300` → `2e+300`, in `v = float(value) if value < 1e300 else math.inf`"):
        "for values in [1e300, 2e300) v becomes float(value), finite (below float64's maximum 1.8e308) and > 0, instead of inf: v only ranks candidates and fills the evidence's largest, and a witness is only a point certify_nonzero certified",
    ("fallback", "`value > 10 ** (10 - digits) * max(scale, 10 ** -digits)` → `value >= 10 ** (10 - digits) * max(scale, 10 ** (-digits))`, in `if value > 10 ** (10 - digits) * max(scale, 10 ** -digits) and v > 0:`"):
        "it adds as a candidate only a point whose value equals the threshold exactly: a candidate is a proposal, certified once at most, and a witness is only a point certify_nonzero certified",
    ("fallback", "`v > 0` → `v >= 0`, in `if value > 10 ** (10 - digits) * max(scale, 10 ** -digits) and v > 0:`"):
        "with value above the threshold (at least 10^(10 - 2·digits) > 0) v = float(value) is 0 only when it underflows float64: that adds a candidate ranked last, certified once at most, and a witness is only a point certify_nonzero certified",
    ('balls', '`rad * self._narrow > abs(x.mid())` → `rad * self._narrow >= abs(x.mid())`, in `return bool(rad != 0 and rad * self._narrow > abs(x.mid()))`'):
        '_wide only chooses how a monotone f is applied (to the ball, or to its two ends and hulled): both enclose f over the ball',
    ('intervals', '`4` → `8`, in `tol = -(prec + 4)`'):
        'tol only chooses where a series stops: the positive series adds its tail bound 2·t_(n+1) wherever it stops (once ratio(n+1) <= 1/2), the alternating one its remainder, between 0 and the first omitted term',
    ('intervals', '`2` → `4`, in `bits, target = _asymptotic_bits(x[0]), self.prec + 2 * _GUARD_BITS`'):
        "a larger target only asks erfc's asymptotic series for more bits (needed = target − bits) or sends x to the series: both enclose erf",
    ('intervals', '`3` → `6`, in `next_ratio_below_1 = mpf_lt(from_int(2 * m + 3), two_x2[0])`'):
        'for real x > 0 the asymptotic series of erfc is enveloping at every truncation (DLMF 7.12(i)): the hull with the first omitted term added after the loop encloses erfc wherever the loop stops',
    ("balls", "`lo >= 0` → `lo > 0`, in `if lo >= 0 or hi <= 0: # monotone on each side of 0`"):
        "with x = [0, h] both branches enclose cosh over x: Arb's monotone cosh, or the hull [1, cosh(max |x|)] = [1, cosh h]",
    ("balls", "`hi <= 0` → `hi < 0`, in `if lo >= 0 or hi <= 0: # monotone on each side of 0`"):
        "with x = [l, 0] both branches enclose cosh over x: Arb's monotone cosh, or the hull [1, cosh(max |x|)] = [1, cosh l]",
    ("balls", "`0` → `1`, in `if lo >= 0:`"):
        "lo is an end's sign; with lo = 0, x = [0, h] and the other branches return -x = 0 (h = 0) or span(0, max |x|), both enclosing |x| = x",
    ("balls", "`hi <= 0` → `hi < 0`, in `if hi <= 0:`"):
        "with hi = 0, x = [l, 0] and span(0, max |x|) encloses |x| = -x as -x does",
    ("balls", "`((b - a) / 2).upper` → `((b - a) / 2).lower`, in `half = ((b - a) / 2).upper()`"):
        "span returns the ball it builds only after checking that it holds [a, b] (else Arb's own a.union(b), which holds it too): how half, slack or the midpoint are rounded changes the width, never that [a, b] is enclosed",
    ("balls", "`((abs(a) + abs(b)) * arb(2) ** (2 - flint.ctx.prec)).upper` → `((abs(a) + abs(b)) * arb(2) ** (2 - flint.ctx.prec)).lower`, in `slack = ((abs(a) + abs(b)) * arb(2) ** (2 - flint.ctx.prec)).upper()`"):
        "span returns the ball it builds only after checking that it holds [a, b] (else Arb's own a.union(b), which holds it too): how half, slack or the midpoint are rounded changes the width, never that [a, b] is enclosed",
    ("balls", "`2` → `4`, in `slack = ((abs(a) + abs(b)) * arb(2) ** (2 - flint.ctx.prec)).upper()`"):
        "span returns the ball it builds only after checking that it holds [a, b] (else Arb's own a.union(b), which holds it too): how half, slack or the midpoint are rounded changes the width, never that [a, b] is enclosed",
    ("balls", "`ball.upper() >= b` → `ball.upper() > b`, in `if ball.lower() <= a and ball.upper() >= b:`"):
        "where ball.upper() == b the built ball holds [a, b]; the mutant returns Arb's a.union(b) instead, which holds [a, b] too (only the clip to the sign of an end is skipped: a sign left undecided, never a wrong one)",
    ("balls", "`a >= 0 > ball.lower()` → `a >= 0 >= ball.lower()`, in `if a >= 0 > ball.lower():`"):
        "with a >= 0 the ball is also clipped when its lower end is exactly 0: ball.nonnegative_part() encloses ball ∩ [0, ∞), which contains [a, b]",
    ("balls", "`b <= 0 < ball.upper()` → `b <= 0 <= ball.upper()`, in `if b <= 0 < ball.upper():`"):
        "with b <= 0 the ball is also clipped when its upper end is exactly 0: -(-ball).nonnegative_part() encloses ball ∩ (−∞, 0], which contains [a, b]",
    ("balls", "`rad != 0 and rad * self._narrow > abs(x.mid())`: and → or, in `return bool(rad != 0 and rad * self._narrow > abs(x.mid()))`"):
        "_wide only chooses how a monotone f is applied (to the ball, or to its two ends and hulled; every f passed is defined on the whole ball, its domain checked before): both enclose f over the ball",
    ("balls", "`0` → `1`, in `if lo >= 0 or hi <= 0: # monotone on each side of 0`"):
        "lo is an end's sign in {-1, 0, 1}, so `lo >= 1` differs from `lo >= 0` only at lo = 0, x = [0, h], where the hull [1, cosh(max |x|)] = [1, cosh h] encloses cosh over x as Arb's monotone cosh does",
    ("intervals", "`2 * bits >= target` → `2 * bits > target`, in `if 2 * bits >= target:`"):
        "at 2·bits == target both routes enclose erf(x) for x > 0: 1 − erfc's enveloping asymptotic series with its first omitted term (DLMF 7.12(i)), or the positive series with its tail bound (about 2x² = target/log2(e) terms, far below the term limit): only the width differs",
    ('intervals', '`bits >= target or mpf_gt(x[0], _ERFC_SERIES_MAX)`: or → and, in `if bits >= target or mpf_gt(x[0], _ERFC_SERIES_MAX):`'):
        "where the two tests differ the mutant takes 1 − erf's positive series, which encloses erfc for every x > 0 (its tail bound added, at a working precision raised by the cancellation x²·log2(e)), instead of the enveloping asymptotic series; a series needing more than _MAX_SERIES_TERMS terms is refused (EvaluationError), which recheck_sign, Enclosure's only caller, reads as no sign",
    ('intervals', '`bits >= target` → `bits > target`, in `if bits >= target or mpf_gt(x[0], _ERFC_SERIES_MAX):`'):
        "where the two tests differ the mutant takes 1 − erf's positive series, which encloses erfc for every x > 0 (its tail bound added, at a working precision raised by the cancellation x²·log2(e)), instead of the enveloping asymptotic series; a series needing more than _MAX_SERIES_TERMS terms is refused (EvaluationError), which recheck_sign, Enclosure's only caller, reads as no sign",
    ('intervals', '`4` → `8`, in `eps = mpf_shift(fone, -(prec - 4))`'):
        'a larger eps only widens: the factor [1 - 2^-(prec-8), 1 + 2^-(prec-8)] contains [1 - 2^-(prec-4), 1 + 2^-(prec-4)]',
    ('intervals', '`prec + 4` → `prec - 4`, in `tol = -(prec + 4)`'):
        'tol only chooses where a series stops: the positive series adds its tail bound 2·t_(n+1) wherever it stops (once ratio(n+1) <= 1/2), the alternating one its remainder, between 0 and the first omitted term',
    ('intervals', '`_bits(term[1]) < _bits(total[0]) - 1 + tol` → `_bits(term[1]) <= _bits(total[0]) - 1 + tol`, in `small = _bits(term[1]) < _bits(total[0]) - 1 + tol`'):
        '`small` only chooses where the positive series stops: the tail bound 2·t_(n+1) is added wherever it stops, once ratio(n+1) <= 1/2',
    ('intervals', '`_bits(total[0]) - 1` → `_bits(total[0]) + 1`, in `small = _bits(term[1]) < _bits(total[0]) - 1 + tol`'):
        '`small` only chooses where the positive series stops: the tail bound 2·t_(n+1) is added wherever it stops, once ratio(n+1) <= 1/2',
    ('intervals', '`n + 1` → `n - 1`, in `if small and not mpf_gt(ratio(n + 1)[1], mpf_shift(fone, -1)):`'):
        "ratio is non-increasing in n (the helper's contract, met by its callers x/(n+2) and 2x²/(2n+3)), so ratio(n) <= 1/2 or ratio(n-1) <= 1/2 gives ratio(n+1) <= 1/2: the tail bound 2·t_(n+1) still holds wherever it returns",
    ('intervals', '`1` → `0`, in `if small and not mpf_gt(ratio(n + 1)[1], mpf_shift(fone, -1)):`'):
        "ratio is non-increasing in n (the helper's contract, met by its callers x/(n+2) and 2x²/(2n+3)), so ratio(n) <= 1/2 or ratio(n-1) <= 1/2 gives ratio(n+1) <= 1/2: the tail bound 2·t_(n+1) still holds wherever it returns",
    ('intervals', '`_bits(magnitude[1]) < _bits(total[0]) - 1 + tol` → `_bits(magnitude[1]) <= _bits(total[0]) - 1 + tol`, in `if _bits(magnitude[1]) < _bits(total[0]) - 1 + tol:`'):
        'this test only chooses where the alternating series stops: its remainder, between 0 and the first omitted term (the magnitudes decrease, ratio < 1), is added wherever it stops',
    ('intervals', '`_bits(total[0]) - 1` → `_bits(total[0]) + 1`, in `if _bits(magnitude[1]) < _bits(total[0]) - 1 + tol:`'):
        'this test only chooses where the alternating series stops: its remainder, between 0 and the first omitted term (the magnitudes decrease, ratio < 1), is added wherever it stops',
    ('intervals', '`1` → `0`, in `if _bits(magnitude[1]) < _bits(total[0]) - 1 + tol:`'):
        'this test only chooses where the alternating series stops: its remainder, between 0 and the first omitted term (the magnitudes decrease, ratio < 1), is added wherever it stops',
    ('intervals', '`2` → `4`, in `next_ratio_below_1 = mpf_lt(from_int(2 * m + 3), two_x2[0])`'):
        'for real x > 0 the asymptotic series of erfc is enveloping at every truncation (DLMF 7.12(i)): the hull with the first omitted term added after the loop encloses erfc wherever the loop stops',
    ('intervals', '`max(_bits(mpf_abs(term[0])), _bits(mpf_abs(term[1]))) < tol` → `max(_bits(mpf_abs(term[0])), _bits(mpf_abs(term[1]))) <= tol`, in `small = max(_bits(mpf_abs(term[0])), _bits(mpf_abs(term[1]))) < tol`'):
        'for real x > 0 the asymptotic series of erfc is enveloping at every truncation (DLMF 7.12(i)): the hull with the first omitted term added after the loop encloses erfc wherever the loop stops',
    ('intervals', '`1` → `0`, in `return acc if exact == 1 else mpi_mul(acc, self.iv(exact), self.prec)`'):
        'exact == 0 has returned just above, so the mutant also multiplies by an exact 1: a product rounded outward at the working precision, which contains acc·1 = acc (at most wider)',
    ('balls', '`1` → `0`, in `return acc if exact == 1 else acc * exact`'):
        'exact == 0 has returned just above, so the mutant also multiplies by an exact 1: a product rounded outward at the working precision, which contains acc·1 = acc (at most wider)',
    ('balls', '`lo >= 0 or hi <= 0`: or → and, in `if lo >= 0 or hi <= 0: # monotone on each side of 0`'):
        'the hull [1, cosh(max |x|)] encloses cosh over every ball (cosh >= 1, increasing in |x|): taking it also for a ball on one side of 0 only widens',
    ('evaluate', '`x != 0 and mpmath.mag(x) > TRIG_MAX_BITS`: and → or, in `if x != 0 and mpmath.mag(x) > TRIG_MAX_BITS:`'):
        '_check_trig is read only by _Approx, the ranking arithmetic (see RANKING_FUNCTIONS): which points it refuses changes only which candidates reach certify_nonzero, which alone decides',
    ('evaluate', '`x != 0` → `x == 0`, in `if x != 0 and mpmath.mag(x) > TRIG_MAX_BITS:`'):
        '_check_trig is read only by _Approx, the ranking arithmetic (see RANKING_FUNCTIONS): which points it refuses changes only which candidates reach certify_nonzero, which alone decides',
    ('evaluate', '`0` → `1`, in `if x != 0 and mpmath.mag(x) > TRIG_MAX_BITS:`'):
        '_check_trig is read only by _Approx, the ranking arithmetic (see RANKING_FUNCTIONS): which points it refuses changes only which candidates reach certify_nonzero, which alone decides',
    ("intervals", "`1` → `0`, in `small = _bits(term[1]) < _bits(total[0]) - 1 + tol`"):
        "`small` only chooses where the series stops: the tail bound 2·t_(n+1) is added wherever it stops, once ratio(n+1) <= 1/2",
    ("signs", "`10` → `20`, in `eps = sympy.Rational(1, 10**digits)`"):
        "eps only sets the width of the exact isolating intervals: each contains its root at any width, and an order is returned only when the two intervals are certified apart",
    ("regions", '`raise Undecided(f"cannot decide the condition {text(cond)}")` → `pass`, in `raise Undecided(f"cannot decide the condition {text(cond)}")`'):
        "_decide then returns None, an undecided condition: _specialize keeps every branch it may select and And/Or/ITE/Xor treat it as unknown, so results only keep more alternatives",
    ("roots", "`certified_order(q, x) * direction >= 0` → `certified_order(q, x) * direction > 0`, in `if certified_order(q, x) * direction >= 0:`"):
        "the two differ only when q == x exactly (certified order 0), where the mutant refuses (Undecided) instead of returning q; every rational returned is still certified at or beyond x",
    ("roots", "`0` → `1`, in `if certified_order(q, x) * direction >= 0:`"):
        "the product is -1, 0 or 1, so `>= 1` is `> 0`: it differs only when q == x exactly, where the mutant refuses (Undecided); every rational returned is still certified at or beyond x",
    ("roots", "`1` → `0`, in `stack += [(mid, b, depth + 1), (a, mid, depth + 1)]`"):
        "depth is read only by the MAX_DEPTH refusal: every excluded box and every bracket is decided by its enclosures and exact end signs at any depth, and MAX_BOXES still ends the loop in a refusal",
    ("roots", "`depth + 1` → `depth - 1`, in `stack += [(mid, b, depth + 1), (a, mid, depth + 1)]`"):
        "depth is read only by the MAX_DEPTH refusal: every excluded box and every bracket is decided by its enclosures and exact end signs at any depth, and MAX_BOXES still ends the loop in a refusal",
    ("roots", "`10` → `20`, in `step = Fraction(1, 10**30) * max(Fraction(1), abs(approx))`"):
        "step only sets how far beyond x the rational is put: the next line certifies it at or beyond x (else Undecided), and the isolation box [lo, hi] need only contain the interval",
    **{("intervals", f"`term[{i}]` → `term[{j}]`, in `small = max(_bits(mpf_abs(term[0])), _bits(mpf_abs(term[1]))) < tol`"):
       "the smallness test only chooses where the loop stops: for real x > 0 the asymptotic series of erfc is "
       "enveloping at every truncation (DLMF 7.12(i)), and the first omitted term, the whole enclosure term "
       "whichever end was read, is added as hull(term, 0) after the loop, so erfc is enclosed wherever it stops"
       for i, j in (("0", "-1"), ("0", "1"), ("1", "0"))},
    **{("intervals", f"`range(8)` → `{to}`, in `for k in range(8):`"):
       "k only sets the size of the step tried away from mpmath's guess (the smallest first); a candidate is "
       "returned only when c·e^c is certified on the asked side of x, so one attempt fewer gives a looser "
       "certified bound or Imprecise (a refusal), never a wrong side"
       for to in ("range(1, 8)", "range(8 - 1)")},
    ("intervals", "`target - int(bits)` → `target`, in `needed = target - int(bits)`"):
        "needed only sets where _erfc_asymptotic stops summing (tol = -bits): for real x > 0 its series is "
        "enveloping (DLMF 7.12(i)) and the first omitted term is added as hull(term, 0) after the loop, so erfc, and "
        "erf = 1 - erfc, are enclosed wherever it stops; a larger needed only sums more terms",
    **{("balls", f"`abs(a) + abs(b)` → `{to}`, in `slack = ((abs(a) + abs(b)) * arb(2) ** (2 - flint.ctx.prec)).upper()`"):
       "the slack only widens the ball tried; it is returned only when checked to hold [a, b] (ball.lower() <= a "
       "and ball.upper() >= b, Arb's certain comparisons), and otherwise Arb's union, always sound, is returned"
       for to in ("abs(a)", "abs(b)")},
    ("intervals", "`2 * m + 3` → `2 * m - 3`, in `next_ratio_below_1 = mpf_lt(from_int(2 * m + 3), two_x2[0])`"):
        "for real x > 0 the asymptotic series of erfc is enveloping at every truncation (DLMF 7.12(i)): the hull with the first omitted term added after the loop encloses erfc wherever the loop stops",
    ("zero", "`expanded == expr` → `expanded != expr`, in `if expanded == expr:`"):
        "the log method then returns simplify(expr) only where expand_log changed nothing, so it reports 0 only where the 'simplify' rewrite of _METHODS, tried first on the same input, already returned 0: it proves nothing new, it only loses the log-rule proofs",
    ("homogeneity", "`samples[z].sign == 0 and samples[SCALE * z].sign == 0`: and → or, in `if z == z1 or (samples[z].sign == 0 and samples[SCALE * z].sign == 0):`"):
        "_conflict then skips z = z₁ and the z where one of σ(z), σ(2z) is an exact 0 (this may take or drop the both-zero z, whose cross is exactly 0 and never certified): a z skipped in addition only loses a Conflict, leaving Pinned, which names the one candidate p and claims nothing about it, so no result becomes wrong",
    **{("homogeneity", f"`SCALE * z` → `{to}`, in `if z == z1 or (samples[z].sign == 0 and samples[SCALE * z].sign == 0):`"):
       "_conflict then skips z = z₁ and the z where σ(z) is an exact 0 and σ(2) (or σ(z) again) is: a z skipped in "
       "addition only loses a Conflict, leaving Pinned, which names the one candidate p and claims nothing about "
       "it; a both-zero z taken has a cross exactly 0, never certified, so it gives no Conflict either"
       for to in ("SCALE", "z")},
    ("homogeneity", "`samples[z].sign == 0` → `samples[z].sign != 0`, in `if z == z1 or (samples[z].sign == 0 and samples[SCALE * z].sign == 0):`"):
        "_conflict then skips z = z₁ and the z where one of σ(z), σ(2z) is an exact 0 (this may take or drop the both-zero z, whose cross is exactly 0 and never certified): a z skipped in addition only loses a Conflict, leaving Pinned, which names the one candidate p and claims nothing about it, so no result becomes wrong",
    ("homogeneity", "`samples[SCALE * z].sign == 0` → `samples[SCALE * z].sign != 0`, in `if z == z1 or (samples[z].sign == 0 and samples[SCALE * z].sign == 0):`"):
        "_conflict then skips z = z₁ and the z where one of σ(z), σ(2z) is an exact 0 (this may take or drop the both-zero z, whose cross is exactly 0 and never certified): a z skipped in addition only loses a Conflict, leaving Pinned, which names the one candidate p and claims nothing about it, so no result becomes wrong",
    ("symmetries", "`t.domain.value > 0` → `t.domain.value >= 0`, in `and t.domain.name is not DomainName.POSITIVE and not (t.domain.value is not None and t.do…`"):
        "the two differ only for a fixed scale of exactly 0, which transformations.domain refuses ('alpha must be non-zero'); a Domain built by hand with 0 puts 0^-p (not finite) into D, so no point is certified and no case proved: inconclusive either way, only the note differs",
    ("zero", "`S.Exp1` → `2.718281828459045`, in `return (base.is_Rational and base > 0) or base is S.Pi or base is S.Exp1`"):
        "a SymPy base is never that float, so plain() answers False only for e^r, r a non-integer rational (unevaluated: SymPy writes it exp(r)): a constant not plain is made opaque, replaced only by a form proved equal by exact algebra or a table identity, or by a symbol with its certified sign, so proofs are only lost",
    ("intervals", "`4 * k` → `4`, in `step = mpf_shift(mpf_add(mpf_abs(w), fone, wp), -(wp - 8 - 4 * k))`"):
        "the k = 0 step is unchanged and every later k then repeats the k = 0 candidate, already refused by the certified c·e^c test: the mutant returns exactly what the original returns at k = 0, else raises Imprecise (undecided), never another bound",
    ("intervals", "`wp - 8 - 4 * k` → `wp - 8`, in `step = mpf_shift(mpf_add(mpf_abs(w), fone, wp), -(wp - 8 - 4 * k))`"):
        "the k = 0 step is unchanged and every later k then repeats the k = 0 candidate, already refused by the certified c·e^c test: the mutant returns exactly what the original returns at k = 0, else raises Imprecise (undecided), never another bound",
    ("homogeneity", "`_ARITHMETIC` gets the extra entry `sympy.asin`, in `_ARITHMETIC = (sympy.Add, sympy.Mul, sympy.Pow, sympy.Symbol, sympy.Number, sympy.NumberS…`"):
        "the flag only lets auditing read a broken p as the pinned degree; p is log(σ(2z₁)/σ(z₁))/log 2 from SymPy's substitution at a pin where certify_nonzero certified both values (its asin ball is taken on [−1, 1] only, so asin's argument is inside), where SymPy's asin of a number is exact (a table value, −asin(−u), or left asin(u); its asin(sin u) shortcut compares u with π as atan(tan u), already listed, does), so the ratio is σ's and p the pinned degree either way",
    ("group_maximality", "`first.K * modulus ** first.k` → `first.K`, in `c0 = exact_form(first.K * modulus ** first.k)`"):
        "relations with K = 0 returned EMPTY above; the others are c = |a|^k (a > 0, K = 1, so modulus = 1) or, for a < 0, c = 1 (σ(0) ≠ 0) or c = K·|a|^(j/q) from a Taylor coefficient p_j ≠ 0 of σ₊; a member with a < 0, b = |a|, gives σ₊(b²s) = c²·σ₊(s), so p_j·b^(2j/q) = c²·p_j for two orders: b = 1. So modulus ≠ 1 names no member with any c0 (prove_pair refutes or leaves it open; 'at most a = a0 with c = c0' holds vacuously) and modulus = 1 gives K·1^k = K",
    **{("kernel_signs", f"`range(3000)` → `{r}`, in `for _ in range(3000):`"):
       "_separate's passes each return only on an exact check (a rational point, or count_closed equal to the "
       "root's own count); one pass fewer reaches `raise Unknown` sooner, so the roots argument is refused"
       for r in ("range(1, 3000)", "range(3000 - 1)")},
    **{(module, "`PRECISIONS[:2]` → `PRECISIONS[:3]`, in `for bits in PRECISIONS[:2]:`"):
       "one more precision (1024 bits) is tried before bisecting; every attempt is a rigorous Arb enclosure "
       "whose sign is read exactly, with Unknown giving no sign, so the answer can only be tighter, never wrong"
       for module in ("kernel_signs", "kernel_bounds")},
    **{("kernel_complete", f"`range(1, len(cuts))` → `{r}`, in `for i in range(1, len(cuts)):`"):
       "the increasing-cuts loop is an early check with a clearer message: every piece i is then checked by "
       "zero_on over [\"open\", raw[i], raw[i + 1]], whose region_from rejects lower >= upper, so cuts that do "
       "not increase are still rejected, only later"
       for r in ("range(1 + 1, len(cuts))", "range(1, len(cuts) - 1)")},
    ("evaluate", "`getattr(self.arith, \"prec\", 64) + 8` → `getattr(self.arith, \"prec\", 64)`, in "
                 "`bits = getattr(self.arith, \"prec\", 64) + 8`"):
        "Arb's complex_roots isolation is certified at any precision (the ends always hold the root, or "
        "_real_root_by_arb declines and the root is refused); 8 bits fewer only widens ends that hull rounds "
        "to prec bits anyway",
    ("intervals", "`prec + 4` → `prec`, in `tol = -(prec + 4)`"):
        "the remainder is always added (_hull(term, 0) or total + [0, 2·term]), so the enclosure holds the value wherever the series stops; callers pass the working precision prec + 20, so 4 bits less leaves a tail far below the final "
        "outward rounding to prec bits",
    ("intervals", "`_bits(total[0]) - 1` → `_bits(total[0])`, in `if _bits(magnitude[1]) < _bits(total[0]) - 1 + tol:`"):
        "the remainder is always added (_hull(term, 0) or total + [0, 2·term]), so the enclosure holds the value wherever the series stops; the stop moves by one bit at about |total|·2^-(prec+23), below the rounding to prec bits",
    ("intervals", "`n + 1` → `n`, in `if small and not mpf_gt(ratio(n + 1)[1], mpf_shift(fone, -1)):`"):
        "both callers' term ratios decrease in n (x/(n+2), 2x²/(2n+3)), so ratio(n) <= 1/2 implies every later "
        "ratio is: the tail bound 2·term stays valid, the stricter test costs at most one term",
    ("intervals", "`wp + 10` → `wp`, in `context.prec = wp + 10`"):
        "mpmath's guess only seeds the candidates; each returned bound is certified by the sign of c·e^c − x, so "
        "a coarser guess can only pick another certified bound or refuse (Imprecise)",
    ("intervals", "`wp - 8` → `wp`, in `step = mpf_shift(mpf_add(mpf_abs(w), fone, wp), -(wp - 8 - 4 * k))`"):
        "the steps are the clean ones shifted by two; every candidate is still certified by the sign of "
        "c·e^c − x, so the bound is the same, tighter, or refused (Imprecise)",
    ("intervals", "`2 * m + 3` → `2 * m`, in `next_ratio_below_1 = mpf_lt(from_int(2 * m + 3), two_x2[0])`"):
        "for real x > 0 the erfc asymptotic series brackets its value at every truncation (DLMF 7.12(i)), so "
        "total + _hull(term, 0) holds it wherever the loop stops; a later stop only widens it slightly",
    ("certificate_tree", "`i + 1` → `1`, in `for y in xs[i + 1:]]`"):
        "Max/Min's piecewise then also asks xᵢ ≥ xⱼ (Min: ≤) of the earlier xⱼ, j ≥ 1, and the trivial xᵢ − xᵢ ≥ 0: "
        "the first branch whose clean condition holds also meets these (an earlier xⱼ > xᵢ would make the largest "
        "of xⱼ…xᵢ₋₁ satisfy its own earlier branch), and any branch taken picks an extremum, so the tree denotes "
        "the same function; the kernel re-checks every step on it",
    ('parsing', '`{True, False} - set(truths)` → `{True, False}`, in `for truth in [*truths, *({True, False} - set(truths))]:`'):
        "the loop only tries SymPy's truth once more after itself, the other order unchanged; a truth is returned only when _proved_everywhere proves it, so a repeat adds nothing or a proved truth",
    ('parsing', '`set(kept) - remaining` → `set(kept)`, in `any(dominates(y, x) for y in remaining) for x in set(kept) - remaining):`'):
        "dominates(x, x) is not proved (no variable), so the mutant only adds conditions and returns SymPy's evaluated less often; the fallback returns a proved dominating argument or the expression as written: a lost simplification, never a wrong value",
    ("balls", "`rad * self._narrow` → `self._narrow`, in `return bool(rad != 0 and rad * self._narrow > abs(x.mid()))`"):
        "_wide only chooses between two enclosures of a monotone f (every _monotone caller passes one: odd powers, "
        "|x|^n, sqrt, exp, log, log1p, erfc, cosh on one side of 0, acos, acosh, LambertW, odd increasing f): f of "
        "the ball itself (Arb, rigorous on any ball) or the hull of f at the two ends; both contain f's range, "
        "only the width differs",
    ("intervals", "`2 * bits` → `bits`, in `if 2 * bits >= target:`"):
        _ERFC_ROUTE + "; this edit only narrows the asymptotic route (bits ≥ target), leaving more x to the series, "
        "whose remainder is bounded too",
    ("intervals", "`4 * k` → `k`, in `step = mpf_shift(mpf_add(mpf_abs(w), fone, wp), -(wp - 8 - 4 * k))`"):
        "the step only schedules the candidates tried: each is returned only after c·e^c, enclosed by interval "
        "arithmetic, is certified on the right side of x (and W ≥ −1 is a theorem), so a slower-growing step can "
        "only run out of the 8 tries (Imprecise: no value), never return a bound on the wrong side",
    ("kernel_points", "`Fraction(1, 2 ** prec_bits) * max(Fraction(1), abs(self.lo))` → `Fraction(1, 2 ** prec_bits)`, in `if self.hi - self.lo <= Fraction(1, 2 ** prec_bits) * max(Fraction(1), abs(self.lo)):`"):
        "the test only decides when to stop narrowing: every refine keeps the point in [lo, hi] and the ball is "
        "the union of the two exact ends, so an absolute width asks more refinements (at most MAX_REFINE) and the "
        "ball still contains the point; only its width and the time change",
    ("group_results", "`signs[1] * epsilon` → `epsilon`, in `j = None if None in signs or 0 in signs else _power_index(signs[0] * target, signs[1] * e…`"):
        "for ε > 0 the two calls are the same; for ε < 0, _power_index(m, ε) gives j = 0 when m = 1 (log 1 = 0 "
        "exactly, 1 − ε⁰ = 0) and None otherwise (a complex log is refused): the same j or a refusal, never "
        "another j",
    ("intervals", "`magnitude[1]` → `magnitude[0]`, in `if _bits(magnitude[1]) < _bits(total[0]) - 1 + tol:`"):
        "the test only decides where the alternating series stops: its magnitudes decrease (0 ≤ ratio < 1), so the "
        "remainder lies between 0 and the first omitted term, and the hull of that term's whole interval with 0 is "
        "added wherever it stops; an earlier stop can only widen the enclosure",
    ("zero_proof", "`power * denominator` → `power`, in `result *= _atom(base, atoms) ** (power * denominator)`"):
        "every exp(c·t) then becomes X^c for the one atom X of the key t (c rational): a consistent renaming with "
        "X standing for exp(t); SymPy's automatic rules for powers of one symbol (x^a·x^b = x^(a+b), (x^a)^n = "
        "x^(a·n) for integer n) hold for every non-zero complex x on the principal branch, so a numerator that "
        "expands to 0 is still an identity at X = exp(t) > 0; only proofs that need integer powers are lost",
    ("zero", "`0` → `1`, in `return number.args[0].is_Rational and number.args[0] > 0`"):
        "it only narrows plain(): log(q) for a rational 0 < q ≤ 1 (log(2/3), say) is no longer plain; a number "
        "that is not plain is made a symbol carrying only the sign constant_sign certifies, or a proposed plain "
        "form is accepted only after constant_sign(number − proposed) == 0, so it can only lose a proof",
    ("evaluate", "`getattr(self.arith, \"prec\", 64) + 8` → `getattr(self.arith, 'prec', 64) - 8`, in `bits = getattr(self.arith, \"prec\", 64) + 8`"):
        "bits only sets Arb's precision for root isolation; the ends returned are Arb's certified ball, which "
        "holds the root at any precision, and balls that do not separate are refused: a wider hull or a refusal",
}

_FLIP_COMPARE: dict[type, type] = {
    ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Lt: ast.LtE, ast.LtE: ast.Lt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
}
_OP_TEXT = {ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<=", ast.Eq: "==", ast.NotEq: "!=",
            ast.Is: "is", ast.IsNot: "is not", ast.Add: "+", ast.Sub: "-"}
_SWAP_NAMES = {"lower": "upper", "upper": "lower", "lo": "hi", "hi": "lo"}
# names that hold small offsets, steps and radii: ``x ± name`` is worth flipping
_OFFSET_NAMES = {"t", "eps", "step", "offset", "delta", "rad", "radius", "width", "h", "o",
                 "half", "slack", "shift", "margin"}
_COLLECTORS = {"append", "extend", "add", "insert", "update"}


# --------------------------------------------------------------------------- the realistic family

#: The realistic operators (issue 23): one- or two-line slips a developer makes, each of which
#: leaves code that reads as right. Reported and scored apart from the operators above (the
#: "old" family) by ``--operators``:
#:   index        `x[0]` ↔ `x[-1]`, `x[k]` → `x[k-1]`, `x[i]` → `x[i+1]`, `x[i+1]` → `x[i]`
#:   bound        `range(n)` → `range(n-1)` / `range(1, n)`, `range(a, b)` → `range(a+1, b)` /
#:                `range(a, b-1)`, a slice's constant bound moved by one
#:   swap-args    two neighbouring positional arguments of a call swapped
#:   drop-factor  `a*b` → `a` / `b`, `a/b` → `a`
#:   drop-term    `a+b` → `a` / `b`, `a-b` → `a`
#:   wrong-var    a local read where the local bound just before was meant
#:   float-const  `Rational(p, q)` → `p / q`, `Integer(n)` → `float(n)`, `S.Half` → `0.5`, `pi` → 3.14…
#:   shared-cache an ``lru_cache`` keyed without one argument; a per-call memo shared by all calls
#:   allow-list   an allow-list (a literal of names tested with ``in``, looked up or dispatched
#:                on) gets an extra entry: `asin` for a list of functions, else an entry of a
#:                sibling list of the same module (`cos` added to the odd functions)
REALISTIC_OPERATORS = frozenset({"index", "bound", "swap-args", "drop-factor", "drop-term", "wrong-var",
                                 "float-const", "shared-cache", "allow-list"})
FAMILIES = ("old", "new")


def family(operator: str) -> str:
    return "new" if operator in REALISTIC_OPERATORS else "old"


# subscripts of these are types (`tuple[int, ...]`), not positions
_TYPE_NAMES = {"tuple", "list", "dict", "set", "frozenset", "type", "Callable", "Optional", "Union",
               "Iterable", "Iterator", "Sequence", "Mapping", "Any", "Literal"}
# calls whose two arguments commute (a swap is the same call) or whose swap only crashes on every
# call (`isinstance(T, x)`: a TypeError at the first run, no slip a reader would miss)
_SYMMETRIC_CALLS = {"max", "min", "Max", "Min", "Add", "Mul", "And", "Or", "Eq", "Ne", "isinstance",
                    "issubclass", "getattr", "setattr", "hasattr", "print", "union", "intersection",
                    "gcd", "lcm", "hypot", "Xor", "mpf_add", "mpf_mul", "mpi_add", "mpi_mul", "mpf_max",
                    "mpf_min", "add", "mul", "fadd", "fmul"}
# a name read as a position (`x[i]` → `x[i + 1]`); other names index by key (`table[name]`)
_POSITION_NAME = re.compile(r"^([ijkmn]|\w*(index|idx|pos|position)\w*|take|first|last|start|end|depth|count)$")
# exact constructors whose value a slip folds to a float
_EXACT_CONSTRUCTORS = {"Rational", "Integer", "Fraction", "fmpq", "mpq"}
_FLOAT_CONSTANTS = {"S.Half": 0.5, "sympy.S.Half": 0.5, "sympy.pi": 3.141592653589793, "S.Pi": 3.141592653589793,
                    "sympy.E": 2.718281828459045, "S.Exp1": 2.718281828459045, "sympy.Rational(1, 2)": 0.5}
# the functions an allow-list of functions gets first (the issue's slip: asin is not defined on R)
_FUNCTION_NAMES = {"exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asinh", "atan",
                   "erf", "erfc", "Abs", "abs", "sign", "Heaviside", "Max", "Min", "Piecewise"}
_EXTRA_FUNCTIONS = ("asin", "acos", "acosh", "atanh", "gamma", "floor")


def _int_value(node: ast.AST | None) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_value(node.operand)
        return None if inner is None else -inner
    return None


def _local_bindings(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[int]]:
    """The function's own local names (parameters, assignments, loop and ``with`` targets), each
    with the lines that bind it; not the names of nested functions, lambdas or comprehensions."""
    found: dict[str, list[int]] = {}
    for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs,
              function.args.vararg, function.args.kwarg):
        if a is not None:
            found.setdefault(a.arg, []).append(function.lineno)

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
                                  ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                continue
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                found.setdefault(child.id, []).append(child.lineno)
            elif isinstance(child, ast.ExceptHandler) and child.name:
                found.setdefault(child.name, []).append(child.lineno)
            walk(child)

    for stmt in function.body:
        walk(stmt)
    return found


def _entries(value: ast.AST) -> list[ast.AST] | None:
    """The entries of a literal collection (for a dict, its keys)."""
    if isinstance(value, ast.Call) and _call_name(value) in ("frozenset", "set", "tuple") and len(value.args) == 1:
        value = value.args[0]
    if isinstance(value, (ast.Set, ast.Tuple, ast.List)):
        return list(value.elts)
    if isinstance(value, ast.Dict) and None not in value.keys:
        return list(value.keys)
    return None


def _name_like(node: ast.AST) -> str | None:
    """The text of an entry that names something: a string or a dotted name."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
        return repr(node.value)
    if isinstance(node, (ast.Name, ast.Attribute)):
        return ast.unparse(node)
    return None


def _constant_key(node: ast.AST) -> bool:
    """A key written out in the code (``TABLE["d"]``, ``PAIR[1]``): it reads one known entry."""
    return isinstance(node, ast.Constant) or _int_value(node) is not None


def _allow_lists(tree: ast.Module) -> dict[str, list[str]]:
    """The module-level (or class-level) literals of names used as an allow-list — a name tested
    with ``in``/``not in``, looked up by a computed key (``[name]``, ``.get(name)``), or handed to
    ``isinstance`` — each with the pool its extra entry is drawn from: the entries of the
    module's other such literals, of the same kind (strings, or dotted names). A literal read
    only by keys written out in the code (``_DEFAULTS["d"]``, a table of sizes) is no allow-list:
    no input decides which entry is read, so an extra entry is never asked for."""
    literals: dict[str, list[str]] = {}
    for stmt in [*tree.body, *(s for c in tree.body if isinstance(c, ast.ClassDef) for s in c.body)]:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else \
            stmt.target if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else None
        if not isinstance(target, ast.Name):
            continue
        entries = _entries(stmt.value)
        texts = [_name_like(e) for e in entries or ()]
        if len(texts) >= 2 and all(texts) and len({t[0] == "'" for t in texts}) == 1:
            literals[target.id] = texts
    used: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            used.update(c.id for op, c in zip(node.ops, node.comparators, strict=True)
                        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(c, ast.Name))
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and not _constant_key(node.slice):
            used.add(node.value.id)
        elif isinstance(node, ast.Call) and _call_name(node) == "get" and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.args and not _constant_key(node.args[0]):
            used.add(node.func.value.id)
        elif isinstance(node, ast.Call) and _call_name(node) == "isinstance" and len(node.args) == 2 \
                and isinstance(node.args[1], ast.Name):
            used.add(node.args[1].id)
    pools: dict[str, list[str]] = {}
    for name, texts in literals.items():
        if name not in used:
            continue
        strings = texts[0][0] == "'"
        others = [t for other, ts in literals.items() if other != name for t in ts
                  if (t[0] == "'") == strings and t not in texts]
        functions = {t.strip("'").rsplit(".", 1)[-1] for t in texts} & _FUNCTION_NAMES
        if functions:  # a list of functions: the issue's slip first (asin is not defined on R)
            prefix = "" if strings else texts[0].rsplit(".", 1)[0] + "." if "." in texts[0] else None
            if prefix is not None:
                extra = [repr(f) if strings else prefix + f for f in _EXTRA_FUNCTIONS]
                others = [t for t in extra if t not in texts] + others
        pools[name] = list(dict.fromkeys(others))
    return pools


def _extra_entry(value: ast.AST, pool: list[str]) -> tuple[str, str] | None:
    """(the literal with one more entry, that entry) or None when the pool is empty. A dict's
    new entry takes the value its neighbours' pattern gives (``"asin": sympy.asin`` beside
    ``"exp": sympy.exp``), else the first entry's value."""
    if not pool:
        return None
    entry = pool[0]
    wrapped = None
    if isinstance(value, ast.Call):
        wrapped, value = value, value.args[0]
    mutated = copy.deepcopy(value)
    new = ast.parse(entry, mode="eval").body
    if isinstance(mutated, ast.Dict):
        key_name = entry.strip("'").rsplit(".", 1)[-1]
        pattern = None
        for k, v in zip(mutated.keys, mutated.values, strict=True):
            kn = (_name_like(k) or "").strip("'").rsplit(".", 1)[-1]
            if isinstance(v, ast.Attribute) and v.attr == kn:
                pattern = ast.Attribute(copy.deepcopy(v.value), key_name, ast.Load())
            elif isinstance(v, ast.Constant) and v.value == kn:
                pattern = ast.Constant(key_name)
        mutated.keys.append(new)
        mutated.values.append(pattern or copy.deepcopy(mutated.values[0]))
    else:
        mutated.elts.append(new)
    if wrapped is not None:
        outer = copy.deepcopy(wrapped)
        outer.args[0] = mutated
        mutated = outer
    return f"({ast.unparse(mutated)})", entry.strip("'")


@dataclass(frozen=True)
class Mutant:
    """One change: the text of ``module`` between two positions replaced."""

    id: str            # module:line:operator-ordinal, stable while the line stays put
    module: str
    line: int
    operator: str
    change: str        # what a reader sees, e.g. "`s > 0` → `s >= 0`"
    start: tuple[int, int]   # (line, UTF-8 byte column) of the replaced text
    end: tuple[int, int]
    replacement: str
    function_line: int = 0   # the enclosing ``def`` (0 at module level), for the probe

    @property
    def family(self) -> str:
        """"old" (the operators above) or "new" (REALISTIC_OPERATORS)."""
        return family(self.operator)

    def apply(self, source: str) -> str:
        lines = source.splitlines(keepends=True)
        (l0, c0), (l1, c1) = self.start, self.end
        head = lines[l0 - 1].encode()[:c0].decode()
        tail = lines[l1 - 1].encode()[c1:].decode()
        return "".join(lines[:l0 - 1]) + head + self.replacement + tail + "".join(lines[l1:])


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    status: str        # killed | survived | timeout | invalid
    seconds: float
    detail: str = ""


# --------------------------------------------------------------------------- generating mutants


class _Collector(ast.NodeVisitor):
    """Walks one module and proposes (node, operator, change, replacement) edits."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.found: list[tuple[ast.AST, str, str, str, int]] = []
        self.function: list[ast.AST] = []
        self.quiet_numbers = 0  # > 0 inside a precision argument: its numbers are not mutated
        self.limit_raises: set[int] = set()  # the raises that enforce a named limit (visit_If)
        self.step_text_names: frozenset[str] = frozenset()  # locals only a Step's text reads
        self.trailing_continues: set[int] = set()  # `continue`s that end their loop's body
        self.formula_names = _formula_names(ast.parse(source))  # see _FORMULA_MODULES
        # the realistic family (REALISTIC_OPERATORS)
        self.index_depth = 0  # > 0 inside an index: only realistic operators are generated
        self.limit_operands: set[int] = set()  # arithmetic compared with a named limit (a cost)
        self.locals: list[dict[str, list[int]]] = []  # per enclosing def: local name → binding lines
        self.allow_lists = _allow_lists(ast.parse(source))  # name → extra-entry pool (see _allow_lists)

    # context ------------------------------------------------------------------------------
    def _skipped(self) -> bool:
        return any(rule.match(f.name) for f in self.function
                   for rule in (SKIP_FUNCTIONS, RANKING_FUNCTIONS, PROPOSAL_FUNCTIONS))

    def _quietly(self, node: ast.AST) -> None:
        """Visit ``node`` with its numbers left alone (a precision or a precision ladder)."""
        self.quiet_numbers += 1
        try:
            self.visit(node)
        finally:
            self.quiet_numbers -= 1

    def visit_Call(self, node: ast.Call) -> None:
        name = _call_name(node)
        if name in _DISPLAY_CALLS or (isinstance(node.func, ast.Name) and node.func.id in self.formula_names):
            return  # a message or a formula: see _DISPLAY_CALLS and _FORMULA_MODULES
        self._realistic_call(node, name)
        self.visit(node.func)
        step = name in _STEP_CALLS
        for i, arg in enumerate(node.args):
            if step and i < len(_STEP_TEXT_KEYWORDS):
                continue  # a Step's text: see _STEP_CALLS
            (self._quietly if name in _PRECISION_CALLS else self.visit)(arg)
        for keyword in node.keywords:
            if name in _ORDERING_CALLS and keyword.arg == "key":
                continue  # a ranking: see _ORDERING_CALLS
            if step and keyword.arg in _STEP_TEXT_KEYWORDS:
                continue
            quiet = name in _PRECISION_CALLS or keyword.arg in _PRECISION_NAMES
            (self._quietly if quiet else self.visit)(keyword.value)

    def _display_comprehension(self, node: ast.ListComp | ast.GeneratorExp) -> bool:
        return isinstance(node.elt, ast.Call) and _call_name(node.elt) in _DISPLAY_CALLS

    def visit_ListComp(self, node: ast.ListComp) -> None:
        if not self._display_comprehension(node):  # a list of messages: see _DISPLAY_CALLS
            self.generic_visit(node)

    def visit_GeneratorExp(self, node: ast.GeneratorExp) -> None:
        if not self._display_comprehension(node):
            self.generic_visit(node)

    def _visit_for(self, node: ast.For) -> None:
        if isinstance(node.target, ast.Name) and node.target.id in _PRECISION_NAMES:
            self._quietly(node.iter)  # `for prec in (64, 256, ...)`: a precision ladder
            for stmt in node.body + node.orelse:
                self.visit(stmt)
        else:
            self.generic_visit(node)

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.function.append(node)
        self._shared_cache(node)
        saved, self.step_text_names = self.step_text_names, _step_text_names(node)
        self.locals.append(_local_bindings(node))
        # annotations and default values are not behaviour worth mutating here
        for stmt in node.body:
            self.visit(stmt)
        self.locals.pop()
        self.step_text_names = saved
        self.function.pop()

    visit_FunctionDef = _visit_function
    visit_AsyncFunctionDef = _visit_function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.function.append(node)  # a class's name can skip it whole (RANKING_FUNCTIONS)
        for stmt in node.body:  # not the decorators: `frozen=True` is no decision
            self.visit(stmt)
        self.function.pop()

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        return  # f-strings are messages; their positions are unreliable in 3.11 too

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            if isinstance(node.target, ast.Name):
                if not self.function and _is_limit_name(node.target.id):
                    self.visit(node.value)  # the old family's rule is left as it was
                    return
                self._realistic_assign(node, [node.target.id])
            elif isinstance(node.target, ast.Attribute):
                self._realistic_assign(node, [node.target.attr])
            self.visit(node.value)

    def visit_Assign(self, node: ast.Assign) -> None:
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        if "__all__" in names:
            return
        # module-level ALL_CAPS numbers (MAX_DEPTH = 40, PRECISIONS = (64, 192)) are limits,
        # precisions and thresholds: not mutated, see _is_limit_name. A capitalised table of
        # decisions (`_SIGN_TEST = {Gt: lambda s: s > 0}`) is no number and is mutated.
        if not self.function and names and all(_is_limit_name(n) or PROPOSAL_NAMES.match(n) for n in names):
            return  # a proposal table: see PROPOSAL_NAMES
        if _binds_only(node, self.step_text_names):
            return  # text only a Step shows: see _STEP_CALLS
        if names and all(n in _PRECISION_NAMES for n in names):
            self._quietly(node.value)  # `prec = 4 * digits + 64`: a working precision
            return
        self._realistic_assign(node, names)
        self.generic_visit(node)

    def add(self, node: ast.AST, operator: str, change: str, replacement: str) -> None:
        realistic = operator in REALISTIC_OPERATORS
        if self.index_depth and not realistic:
            return  # the old family never looked inside an index (visit_Subscript)
        if realistic and self.quiet_numbers:
            return  # a precision's arithmetic: see _PRECISION_CALLS
        if not self._skipped():
            self.found.append((node, operator, change, replacement, self._function_line()))

    def _function_line(self) -> int:
        """The line of the innermost enclosing ``def`` (0 at module level)."""
        for f in reversed(self.function):
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return f.lineno
        return 0

    def seg(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.source, node) or ast.unparse(node)

    # operators ----------------------------------------------------------------------------
    def visit_Compare(self, node: ast.Compare) -> None:
        if _mentions_limit(node):  # `len(a) + len(b) > MAX_CASES`: dropping a term moves a limit
            self.limit_operands.update(id(n) for n in ast.walk(node) if isinstance(n, ast.BinOp))
        for i, op in enumerate(node.ops):
            swaps: list[ast.cmpop] = []
            if type(op) in _FLIP_COMPARE:
                strictness = isinstance(op, (ast.Gt, ast.GtE, ast.Lt, ast.LtE))
                left = node.left if i == 0 else node.comparators[i - 1]
                # `depth >= MAX_DEPTH` → `>`: moves a named limit by one step (_is_limit_name)
                if not (strictness and (_mentions_limit(left) or _mentions_limit(node.comparators[i]))):
                    swaps.append(_FLIP_COMPARE[type(op)]())
            elif isinstance(op, (ast.Is, ast.IsNot)):
                right = node.comparators[i]
                if isinstance(right, ast.Constant) and right.value is None:
                    swaps.append(ast.IsNot() if isinstance(op, ast.Is) else ast.Is())
                elif isinstance(op, ast.Is) and isinstance(right, ast.Constant) and isinstance(right.value, bool):
                    # `x is True` weakened to `x is not False`: None (undecided) now passes
                    mutated = copy.deepcopy(node)
                    mutated.ops[i] = ast.IsNot()
                    mutated.comparators[i] = ast.Constant(not right.value)
                    self.add(node, "is-weaken", f"`{self.seg(node)}` → `{ast.unparse(mutated)}`",
                             f"({ast.unparse(mutated)})")
                    mutated = copy.deepcopy(node)
                    mutated.ops[i] = ast.IsNot()
                    mutated.comparators[i] = ast.Constant(None)
                    self.add(node, "is-weaken", f"`{self.seg(node)}` → `{ast.unparse(mutated)}`",
                             f"({ast.unparse(mutated)})")
            for new in swaps:
                mutated = copy.deepcopy(node)
                mutated.ops[i] = new
                self.add(node, "compare", f"`{self.seg(node)}` → `{ast.unparse(mutated)}`",
                         f"({ast.unparse(mutated)})")
        for const in node.comparators + [node.left]:
            if _is_number(const):
                self._number(const)
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        mutated = copy.deepcopy(node)
        mutated.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        self.add(node, "and-or", f"`{_short(self.seg(node))}`: {_word(node.op)} → {_word(mutated.op)}",
                 f"({ast.unparse(mutated)})")
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if (isinstance(node.op, (ast.Add, ast.Sub)) and not self.quiet_numbers
                and (_offset_like(node.left) or _offset_like(node.right))):
            mutated = copy.deepcopy(node)
            mutated.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
            self.add(node, "plus-minus", f"`{self.seg(node)}` → `{ast.unparse(mutated)}`",
                     f"({ast.unparse(mutated)})")
        for side in (node.left, node.right):
            if _is_number(side):
                self._number(side)
        self._dropped(node)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, bool):
            self.add(node, "bool", f"`{node.value}` → `{not node.value}`", repr(not node.value))

    def _number(self, node: ast.Constant) -> None:
        if self.quiet_numbers:
            return
        value = node.value
        if value == 0:
            new = 1
        elif value == 1:
            new = 0
        else:
            new = value * 2
        self.add(node, "number", f"`{self.seg(node)}` → `{new!r}`", repr(new))

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load) and node.id in _SWAP_NAMES:
            self.add(node, "lower-upper", f"`{node.id}` → `{_SWAP_NAMES[node.id]}`", _SWAP_NAMES[node.id])
        self._wrong_variable(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load) and node.attr in ("lower", "upper"):
            mutated = copy.deepcopy(node)
            mutated.attr = _SWAP_NAMES[node.attr]
            self.add(node, "lower-upper", f"`{self.seg(node)}` → `{ast.unparse(mutated)}`",
                     f"({ast.unparse(mutated)})")
        if isinstance(node.ctx, ast.Load) and ast.unparse(node) in _FLOAT_CONSTANTS:
            new = repr(_FLOAT_CONSTANTS[ast.unparse(node)])
            self.add(node, "float-const", f"`{self.seg(node)}` → `{new}`", new)
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        value = node.value
        if isinstance(value, ast.Constant) and value.value is None and self.function:
            new = _answer_for(self.function[-1])
            if new is not None:
                self.add(node, "return", f"`return None` → `return {new}`", f"return {new}")
        elif isinstance(value, ast.Constant) and value.value is False:
            self.add(node, "return", "`return False` → `return True`", "return True")
            return
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        # `if count > MAX_CASES: raise Undecided(...)` enforces a resource limit: dropping
        # that raise removes the limit (cost), it does not change what is decided
        if _mentions_limit(node.test):
            self.limit_raises.update(id(s) for s in node.body if isinstance(s, ast.Raise))
        self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> None:
        if id(node) not in self.limit_raises:
            self.add(node, "drop-raise", f"`{_short(self.seg(node))}` → `pass`", "pass")

    def visit_Continue(self, node: ast.Continue) -> None:
        # the last statement a loop's body runs: dropping it changes nothing (_ends_body)
        if id(node) not in self.trailing_continues:
            self.add(node, "drop-continue", "`continue` → `pass`", "pass")

    def visit_For(self, node: ast.For) -> None:
        self.trailing_continues.update(_trailing_continues(node.body))
        self._visit_for(node)

    def visit_While(self, node: ast.While) -> None:
        self.trailing_continues.update(_trailing_continues(node.body))
        self.generic_visit(node)

    def visit_Break(self, node: ast.Break) -> None:
        self.add(node, "drop-break", "`break` → `pass`", "pass")

    def visit_Expr(self, node: ast.Expr) -> None:
        call = node.value
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr in _COLLECTORS):
            self.add(node, "drop-append", f"`{_short(self.seg(node))}` → `pass`", "pass")
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        # the old family leaves indices alone (`x[0]` → `x[1]` is none of its edits); the
        # realistic family reads a wrong index or slice bound there (_wrong_index)
        self.visit(node.value)
        if isinstance(node.ctx, ast.Load):
            self._wrong_index(node)
        self.index_depth += 1
        try:
            self.visit(node.slice)
        finally:
            self.index_depth -= 1

    # the realistic family ---------------------------------------------------------------------
    # Slips a developer makes while writing correct-looking code, none of which the operators
    # above generate: see REALISTIC_OPERATORS. Each stays inside the same rules (display,
    # ranking, proposals, precisions and named limits are left alone).
    def _wrong_index(self, node: ast.Subscript) -> None:
        """`x[0]` ↔ `x[-1]`, `x[k]` → `x[k - 1]`, `x[i]` → `x[i + 1]`, `x[i ± 1]` → `x[i]`; a
        slice's constant bound moved by one."""
        index = node.slice
        if isinstance(index, ast.Slice):
            for part in ("lower", "upper"):
                bound = getattr(index, part)
                k = _int_value(bound) if bound is not None else None
                if k is None:
                    continue
                mutated = copy.deepcopy(node)
                setattr(mutated.slice, part, ast.Constant(k + 1 if k >= 0 else k - 1))
                self.add(node, "bound", f"`{self.seg(node)}` → `{ast.unparse(mutated)}`",
                         f"({ast.unparse(mutated)})")
            return
        k = _int_value(index)
        if k is not None:
            new = [-1, 1] if k == 0 else [0] if k == -1 else [k - 1] if k > 0 else [k + 1]
            replacements = [ast.Constant(n) if n >= 0 else ast.UnaryOp(ast.USub(), ast.Constant(-n)) for n in new]
        elif isinstance(index, ast.Name) and _POSITION_NAME.match(index.id) and not _mentions_limit(index):
            replacements = [ast.BinOp(ast.Name(index.id, ast.Load()), ast.Add(), ast.Constant(1))]
        elif (isinstance(index, ast.BinOp) and isinstance(index.op, (ast.Add, ast.Sub))
              and _int_value(index.right) is not None and not _mentions_limit(index)):
            replacements = [index.left]
        else:
            return  # a key (a string, a type, a tuple of them), not a position
        if isinstance(node.value, ast.Name) and node.value.id in _TYPE_NAMES:
            return  # `tuple[int, ...]`: a type, not an index
        for r in replacements:
            mutated = copy.deepcopy(node)
            mutated.slice = r
            self.add(node, "index", f"`{self.seg(node)}` → `{ast.unparse(mutated)}`", f"({ast.unparse(mutated)})")

    def _realistic_call(self, node: ast.Call, name: str) -> None:
        """A wrong loop bound, swapped arguments, an exact constant folded to a float."""
        args = node.args
        if any(isinstance(a, ast.Starred) for a in args) or any(k.arg is None for k in node.keywords):
            return
        if name == "range" and isinstance(node.func, ast.Name) and 1 <= len(args) <= 2 \
                and not any(_mentions_limit(a) for a in args):
            if len(args) == 1:
                edits = [[ast.BinOp(args[0], ast.Sub(), ast.Constant(1))], [ast.Constant(1), args[0]]]
            else:
                edits = [[ast.BinOp(args[0], ast.Add(), ast.Constant(1)), args[1]],
                         [args[0], ast.BinOp(args[1], ast.Sub(), ast.Constant(1))]]
            for new in edits:
                mutated = copy.deepcopy(node)
                mutated.args = copy.deepcopy(new)
                self.add(node, "bound", f"`{self.seg(node)}` → `{ast.unparse(mutated)}`", f"({ast.unparse(mutated)})")
        if len(args) >= 2 and name not in _SYMMETRIC_CALLS | _PRECISION_CALLS | _STEP_CALLS:
            for i in range(len(args) - 1):
                a, b = args[i], args[i + 1]
                if ast.dump(a) == ast.dump(b) or all(isinstance(x, ast.Constant) and isinstance(x.value, str)
                                                     for x in (a, b)):
                    continue
                mutated = copy.deepcopy(node)
                mutated.args[i], mutated.args[i + 1] = mutated.args[i + 1], mutated.args[i]
                self.add(node, "swap-args", f"`{_short(self.seg(node), 70)}`: arguments {i + 1} and {i + 2} swapped",
                         f"({ast.unparse(mutated)})")
        if name in _EXACT_CONSTRUCTORS and not node.keywords and 1 <= len(args) <= 2:
            if len(args) == 2:
                new = f"({ast.unparse(args[0])}) / ({ast.unparse(args[1])})"
            elif isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
                return  # `Rational("1/3")`: no float spelling worth writing
            else:
                new = f"float({ast.unparse(args[0])})"
            self.add(node, "float-const", f"`{_short(self.seg(node), 70)}` → `{new}`", f"({new})")

    def _dropped(self, node: ast.BinOp) -> None:
        """`a * b` → `a` or `b`, `a / b` → `a` (a dropped factor); `a + b` → `a` or `b`, `a - b` →
        `a` (a dropped term). Not in string building, not in arithmetic on a named limit."""
        if isinstance(node.op, ast.Mult):
            kept, operator = [node.left, node.right], "drop-factor"
        elif isinstance(node.op, ast.Div):
            kept, operator = [node.left], "drop-factor"
        elif isinstance(node.op, ast.Add):
            kept, operator = [node.left, node.right], "drop-term"
        elif isinstance(node.op, ast.Sub):
            kept, operator = [node.left], "drop-term"
        else:
            return
        if any(isinstance(n, (ast.JoinedStr, ast.List, ast.Tuple)) or
               (isinstance(n, ast.Constant) and isinstance(n.value, (str, bytes)))
               for n in (node.left, node.right)) or _mentions_limit(node) or id(node) in self.limit_operands:
            return
        for side in kept:
            self.add(node, operator, f"`{_short(self.seg(node), 70)}` → `{_short(self.seg(side), 50)}`",
                     f"({ast.unparse(side)})")

    def _wrong_variable(self, node: ast.Name) -> None:
        """A local read where another local of the same function was meant: the local bound
        most recently before this line (a parameter counts as bound at the ``def``)."""
        if not isinstance(node.ctx, ast.Load) or not self.locals or node.id in ("self", "cls"):
            return
        scope = self.locals[-1]
        if node.id not in scope or node.id in self.step_text_names:
            return
        best: tuple[int, str] | None = None
        for other, lines in scope.items():
            if other in (node.id, "self", "cls", "_") or other in self.step_text_names:
                continue
            before = [line for line in lines if line < node.lineno]
            if before and (best is None or (max(before), other) > best):
                best = (max(before), other)
        if best is not None:
            self.add(node, "wrong-var", f"`{node.id}` → `{best[1]}`", best[1])

    def _shared_cache(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """An ``lru_cache``/``cache`` whose key drops one argument: calls that differ only there
        share one entry (the first call's answer is returned for the others)."""
        params = [a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)
                  if a.arg not in ("self", "cls")]
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name not in ("lru_cache", "cache"):
                continue
            for param in params:
                new = f"__import__({_PROBE!r}).shared_cache({param!r})"
                self.add(decorator, "shared-cache", f"`@{self.seg(decorator)}` of `{node.name}` keyed without `{param}`", new)

    def _realistic_assign(self, node: ast.Assign | ast.AnnAssign, names: list[str]) -> None:
        """An allow-list gets an extra entry; a per-call memo becomes one shared by every call."""
        value = node.value
        if value is None:
            return
        for name in names:
            if name in self.allow_lists and not self.function:
                extra = _extra_entry(value, self.allow_lists[name])
                if extra is not None:
                    text, entry = extra
                    self.add(value, "allow-list", f"`{name}` gets the extra entry `{entry}`", text)
        if self.function and any(re.search(r"memo|cache", n, re.IGNORECASE) for n in names) and (
                (isinstance(value, ast.Dict) and not value.keys)
                or (isinstance(value, ast.Call) and _call_name(value) == "dict" and not value.args)):
            key = f"{self.function[-1].name}:{node.lineno}"
            self.add(value, "shared-cache", f"the memo `{names[0]}` shared by every call",
                     f"__import__({_PROBE!r}).SHARED.setdefault({key!r}, {{}})")


def _trailing_continues(body: list[ast.stmt]) -> set[int]:
    """The ``continue`` statements after which the loop body has nothing left to run: the last
    statement of the body, or the last of a branch, handler or ``with`` block that is itself
    last. Replaced by ``pass`` the next iteration starts all the same: an equivalent mutant."""
    if not body:
        return set()
    last = body[-1]
    if isinstance(last, ast.Continue):
        return {id(last)}
    if isinstance(last, ast.If):
        return _trailing_continues(last.body) | _trailing_continues(last.orelse)
    if isinstance(last, (ast.With, ast.AsyncWith)):
        return _trailing_continues(last.body)
    if isinstance(last, ast.Try) and not last.finalbody:
        found = set().union(*(_trailing_continues(h.body) for h in last.handlers))
        # the try body ends the loop body only when no else block follows it
        return found | (_trailing_continues(last.orelse) if last.orelse else _trailing_continues(last.body))
    return set()


def _binds_only(node: ast.Assign, names: frozenset[str]) -> bool:
    """Does the assignment bind nothing but ``names``?"""
    bound = [t for target in node.targets
             for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
    return bool(bound) and all(isinstance(t, ast.Name) and t.id in names for t in bound)


def _step_text_nodes(call: ast.Call) -> list[ast.AST]:
    """The arguments of a ``Step(...)`` that are its text (see _STEP_CALLS)."""
    return [*call.args[:len(_STEP_TEXT_KEYWORDS)],
            *(k.value for k in call.keywords if k.arg in _STEP_TEXT_KEYWORDS)]


def _step_text_names(function: ast.AST) -> frozenset[str]:
    """Local names bound only by plain assignments (``n = ...``, ``n, m = ..., ...``) and read
    only inside a Step's text (directly, or through the value of another such name)."""
    values: dict[str, list[ast.AST]] = {}
    plain: set[int] = set()  # the Name nodes those assignments store to
    for node in ast.walk(function):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name):
                values.setdefault(target.id, []).append(node.value)
                plain.add(id(target))
            elif (isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                  and len(target.elts) == len(node.value.elts)
                  and all(isinstance(t, ast.Name) for t in target.elts)):
                for t, v in zip(target.elts, node.value.elts, strict=True):
                    values.setdefault(t.id, []).append(v)
                    plain.add(id(t))
    loads = [n for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    # any other binding (a for target, with, +=, :=, an unpacked call) disqualifies the name
    other = {n.id for n in ast.walk(function)
             if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and id(n) not in plain}
    in_steps = {id(n) for call in ast.walk(function)
                if isinstance(call, ast.Call) and _call_name(call) in _STEP_CALLS
                for arg in _step_text_nodes(call) for n in ast.walk(arg)}
    names = {n for n in values if n not in other}
    while True:
        inside = set(in_steps)
        for name in names:
            for value in values[name]:
                inside.update(id(n) for n in ast.walk(value))
        keep = {name for name in names
                if all(id(load) in inside for load in loads if load.id == name)
                and any(load.id == name for load in loads)}
        if keep == names:
            return frozenset(names)
        names = keep


def _is_number(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, (int, float))
            and not isinstance(node.value, bool))


def _numbers_in(node: ast.AST) -> Iterator[ast.Constant]:
    if _is_number(node):
        yield node  # type: ignore[misc]
    elif isinstance(node, (ast.Tuple, ast.List)):
        for elt in node.elts:
            yield from _numbers_in(elt)
    elif isinstance(node, ast.UnaryOp):
        yield from _numbers_in(node.operand)


def _offset_like(node: ast.AST) -> bool:
    if _is_number(node):
        return True
    if isinstance(node, ast.Name):
        return node.id in _OFFSET_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in _OFFSET_NAMES
    return False


def _answer_for(function: ast.AST) -> str | None:
    """What an 'undecided' ``return None`` becomes: a decision of the annotated type."""
    returns = getattr(function, "returns", None)
    text = ast.unparse(returns) if returns is not None else ""
    if "bool" in text:
        return "True"
    if re.search(r"\bint\b", text):
        return "0"
    return None


def _word(op: ast.boolop) -> str:
    return "and" if isinstance(op, ast.And) else "or"


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def mutants_of(module: str, source: str) -> list[Mutant]:
    """Every mutant of one module's source, in order of position; each parses and differs.

    Each mutant is checked on the top-level statement that holds it (a change inside one
    statement cannot reach another), so a module is parsed once per mutant's statement, not
    whole: the same mutants as parsing the module each time, thousands of times faster."""
    tree = ast.parse(source)
    collector = _Collector(source)
    collector.visit(tree)
    lines = source.splitlines(keepends=True)
    spans = [(min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))]), stmt.end_lineno)
             for stmt in tree.body]
    references: dict[int, str] = {}
    seen: set[tuple[int, str]] = set()
    out: list[Mutant] = []
    ordinal: dict[tuple[int, str], int] = {}
    occurrences: dict[tuple[int, str], int] = {}
    for node, operator, change, replacement, function_line in sorted(
            collector.found, key=lambda f: (f[0].lineno, f[0].col_offset, f[1], f[2])):
        key = (node.lineno, operator)
        ordinal[key] = ordinal.get(key, 0) + 1
        mutant = Mutant(f"{module}:{node.lineno}:{operator}-{ordinal[key]}", module, node.lineno,
                        operator, change, (node.lineno, node.col_offset),
                        (node.end_lineno, node.end_col_offset), replacement, function_line)
        where = next(i for i, (a, b) in enumerate(spans) if a <= node.lineno and node.end_lineno <= b)
        first, last = spans[where]
        chunk = "".join(lines[first - 1:last])
        shifted = dataclasses.replace(mutant, start=(node.lineno - first + 1, node.col_offset),
                                      end=(node.end_lineno - first + 1, node.end_col_offset))
        text = shifted.apply(chunk)
        try:
            dumped = ast.dump(ast.parse(text))
        except SyntaxError:
            continue
        if where not in references:
            references[where] = ast.dump(ast.parse(chunk))
        if dumped == references[where] or (where, dumped) in seen:
            continue
        seen.add((where, dumped))
        before = source.splitlines()[node.lineno - 1].strip()
        after = text.splitlines()[node.lineno - first].strip()
        described = f"{change}, in `{_short(before, 90)}`" if before != after else change
        # the same edit twice on a line (`omega * _T` in both cos and sin): numbered, so that a
        # change names one mutant (--survivors-of and the tables find mutants by their change)
        twice = occurrences[(node.lineno, described)] = occurrences.get((node.lineno, described), 0) + 1
        out.append(dataclasses.replace(mutant, change=f"{described} (occurrence {twice} on the line)"
                                       if twice > 1 else described))
    return out


# --------------------------------------------------------------------------- running them


class Sandbox:
    """Copies of the package and its tests, one per job, removed on exit."""

    def __init__(self, jobs: int) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="symcheck-mutation-")
        self.free: queue.Queue[Path] = queue.Queue()
        self.first = Path(self._tmp.name) / "job0"
        for i in range(jobs):
            root = Path(self._tmp.name) / f"job{i}"
            if COMMIT is not None:  # a committed tree: others' unfinished edits in the checkout stay out
                root.mkdir()
                archive = subprocess.run(["git", "archive", "--format=tar", COMMIT, "symcheck", "tests",
                                          *(e for e in _TREE_EXTRAS if (ROOT / e).is_dir()),
                                          "pyproject.toml", "README.md"],
                                         cwd=ROOT, check=True, capture_output=True).stdout
                subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
                (root / f"{_PROBE}.py").write_text(_PROBE_SOURCE)
                self.free.put(root)
                continue
            ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.pyc")
            shutil.copytree(ROOT / "symcheck", root / "symcheck", ignore=ignore)
            shutil.copytree(ROOT / "tests", root / "tests", ignore=ignore)
            for extra in _TREE_EXTRAS:
                if (ROOT / extra).is_dir():
                    shutil.copytree(ROOT / extra, root / extra, ignore=ignore)
            for name in ("pyproject.toml", "README.md"):
                shutil.copy2(ROOT / name, root / name)
            # beside the package, not in it: a test that walks symcheck/ never sees it
            (root / f"{_PROBE}.py").write_text(_PROBE_SOURCE)
            self.free.put(root)

    def close(self) -> None:
        self._tmp.cleanup()


_RUNNING: set[subprocess.Popen] = set()
_LOCK = threading.Lock()
_STOPPING = threading.Event()


def _pytest(root: Path, files: Sequence[str], timeout: float,
            extra_env: dict[str, str] | None = None) -> tuple[str, float, str]:
    """Run the files with pytest in the copy at ``root``: (passed|failed|timeout, seconds, tail)."""
    env = dict(os.environ) | (extra_env or {})
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH", "")]))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               "--hypothesis-seed=0", *files]
    start = time.monotonic()
    with _LOCK:
        if _STOPPING.is_set():
            return "interrupted", 0.0, ""
        process = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, start_new_session=True)
        _RUNNING.add(process)
    try:
        out, _ = process.communicate(timeout=timeout)
        status = "passed" if process.returncode == 0 else "failed"
    except subprocess.TimeoutExpired:
        _kill(process)
        out, status = "", "interrupted" if _STOPPING.is_set() else "timeout"
    finally:
        with _LOCK:
            _RUNNING.discard(process)
    tail = " | ".join(line for line in (out or "").strip().splitlines()[-3:])
    return status, time.monotonic() - start, tail


def _kill(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def test_path(name: str, root: Path = ROOT) -> str | None:
    """Where the test file ``name`` is in ``root``: the tables name a file by its basename, which is
    unique under tests/ (the files sit in folders by layer); a path (``--tests``) is taken as given."""
    if "/" in name:
        return name if (root / name).exists() else None
    found = sorted((root / "tests").rglob(name))
    return str(found[0].relative_to(root)) if found else None


def test_files(module: str, override: Sequence[str] = (), root: Path = ROOT) -> list[str]:
    """The module's test files that exist in ``root`` (the copy the run uses), and its doctests."""
    files = [path for name in (override or CORE[module]) if (path := test_path(name, root))]
    # the module's own doctests run too (the suite runs them with --doctest-modules)
    return files + [f"symcheck/{PATHS[module]}"]


def run_mutant(sandbox: Sandbox, mutant: Mutant, files: Sequence[str], timeout: float) -> Outcome:
    root = sandbox.free.get()
    target = root / "symcheck" / PATHS[mutant.module]
    original = target.read_text()
    detail = ""
    try:
        target.write_text(mutant.apply(original))
        status, seconds, tail = _pytest(root, files, timeout)
        if status == "passed" and mutant.operator == "drop-raise" and mutant.function_line:
            status, detail = _refusal_swap(root, target, original, mutant, files, timeout)
    finally:
        target.write_text(original)
        sandbox.free.put(root)
    if _STOPPING.is_set():
        status = "interrupted"  # a run ended by the interrupt decides nothing
    verdict = {"failed": "killed", "passed": "survived", "timeout": "timeout",
               "interrupted": "interrupted", "refusal-swap": "refusal-swap"}[status]
    return Outcome(mutant, verdict, seconds, tail if verdict == "killed" else detail)


# A dropped ``raise`` whose call still ends in an exception every time the tests reach it has
# only swapped one refusal for another (the arithmetic library's own, or the next guard's):
# "raise X" → "raise Y" between two refusals is not an unsound edit, so it is not a mutant.
# That is a fact about the run, not the text, so it is observed: the surviving mutant runs
# once more with the dropped ``raise`` replaced by a marker and its function wrapped by a
# probe that records whether a call which passed the marker then returned normally.
_PROBE = "_symcheck_mutation_probe"
#: folders the tests read besides symcheck/ and tests/ (examples/: the checkpoints the numeric and
#: CLI tests load; without it the evidence and cli modules' clean runs fail, "not measured")
_TREE_EXTRAS = ("proofs", "docs", "examples")
_PROBE_SOURCE = '''"""Records, for the mutation check, whether a dropped raise was passed and then returned."""
import functools
import os
import threading

_calls = threading.local()


def _log(event):
    with open(os.environ["SYMCHECK_MUTATION_PROBE"], "a") as out:
        out.write(event + "\\n")


def reached():
    stack = getattr(_calls, "stack", None)
    if stack:
        stack[-1] = True
    _log("reached")


def probe(function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        stack = _calls.__dict__.setdefault("stack", [])
        stack.append(False)
        try:
            result = function(*args, **kwargs)
        finally:
            passed = stack.pop()
        if passed:  # only on a normal return: an exception skips this line
            _log("returned")
        return result
    return wrapper


# the realistic family's shared caches: one process-wide store per mutated memo
SHARED = {}


def shared_cache(dropped):
    """A cache keyed on every argument but ``dropped``: calls that differ only there share an entry."""
    import inspect

    def decorate(function):
        signature = inspect.signature(function)
        store = {}

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            key = tuple((k, v) for k, v in bound.arguments.items() if k != dropped)
            try:
                return store[key]
            except KeyError:
                pass
            except TypeError:  # an unhashable argument: lru_cache would refuse it too
                return function(*args, **kwargs)
            value = store[key] = function(*args, **kwargs)
            return value

        wrapper.cache_clear = store.clear
        wrapper.cache_info = lambda: None
        return wrapper
    return decorate
'''


def probe_source(mutant: Mutant, source: str) -> str:
    """The mutant with its dropped ``raise`` marked and its enclosing function probed."""
    marked = dataclasses.replace(mutant, replacement=f"__import__({_PROBE!r}).reached()").apply(source)
    lines = marked.splitlines(keepends=True)
    definition = lines[mutant.function_line - 1]
    indent = definition[:len(definition) - len(definition.lstrip())]
    lines.insert(mutant.function_line - 1, f"{indent}@__import__({_PROBE!r}).probe\n")
    return "".join(lines)


def _refusal_swap(root: Path, target: Path, original: str, mutant: Mutant, files: Sequence[str],
                  timeout: float) -> tuple[str, str]:
    """("refusal-swap", why) when every call that skipped the raise still raised; else ("passed", why)."""
    log = root / "probe.log"
    log.unlink(missing_ok=True)
    target.write_text(probe_source(mutant, original))
    status, _, _ = _pytest(root, files, timeout, {"SYMCHECK_MUTATION_PROBE": str(log)})
    events = set(log.read_text().split()) if log.exists() else set()
    log.unlink(missing_ok=True)
    if status != "passed":
        return "passed", f"the probe run did not pass ({status}): counted as a survivor"
    if "returned" in events:
        return "passed", "a call went past the dropped raise and returned normally"
    if "reached" not in events:
        return "passed", "the tests never reach this raise"
    return "refusal-swap", "every call that went past the dropped raise still ended in an exception"


# --------------------------------------------------------------------------- the command


def _fail(message: str) -> None:
    """Bad input: one line on stderr, exit status 2 (as argparse does for usage errors)."""
    print(f"Error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _module_name(text: str) -> str:
    by_path = {path: name for name, path in PATHS.items()}
    for path, name in by_path.items():  # symcheck/kernel/evaluate.py is kernel_evaluate
        if text.endswith(".py") and (text == path or text.endswith("/" + path)):
            return name
    name = Path(text).stem if text.endswith(".py") else text.split(".")[-1]
    if name not in CORE:
        _fail(f"{text!r} is not a module of the soundness core ({', '.join(CORE)})")
    return name


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--module", action="append", default=[],
                        help="a core module to mutate (repeatable; default: all of them)")
    parser.add_argument("--id", action="append", default=[], dest="ids",
                        help="run only this mutant id (repeatable; see --list)")
    parser.add_argument("--survivors-of", metavar="REPORT", default=None,
                        help="run again the survivors of an earlier --json report, found by their change "
                             "(robust to lines moving since)")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--operators", choices=("old", "new", "all"), default="old",
                        help="the operator family: old (the core's operators, default), new (the "
                             "realistic slips of REALISTIC_OPERATORS, on every deciding module) or all")
    parser.add_argument("--max", type=int, default=None,
                        help="run at most this many mutants of each family, a seeded sample (the old "
                             "family uniform over its mutants, the new one stratified by operator)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the --max sample")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds per mutant (default: 4 × the module's clean run, at least 120)")
    parser.add_argument("--tests", action="append", default=[],
                        help="run these test files instead of the module's table entry (repeatable)")
    parser.add_argument("--commit", default=None,
                        help="mutate and test this commit's tree (git archive), not the working tree: "
                             "in a checkout others are editing, their unfinished edits stay out")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument("--fail-under", type=float, default=None,
                        help="exit 1 when the score (percent) is below this")
    args = parser.parse_args(argv)
    if args.jobs < 1 or (args.max is not None and args.max < 1):
        parser.error("--jobs and --max must be at least 1")

    global COMMIT
    if args.commit is not None:
        found = subprocess.run(["git", "rev-parse", "--verify", f"{args.commit}^{{commit}}"], cwd=ROOT, check=False,
                               capture_output=True, text=True)
        if found.returncode != 0:
            _fail(f"--commit {args.commit}: not a commit of this repository")
        COMMIT = found.stdout.strip()
        _limit_names.cache_clear()
    families = FAMILIES if args.operators == "all" else (args.operators,)
    modules = [_module_name(m) for m in args.module] or \
        list(dict.fromkeys(name for f in families for name in FAMILY_MODULES[f]))
    again: dict[tuple[str, str], list[int]] = {}
    if args.survivors_of:
        try:
            earlier = json.loads(Path(args.survivors_of).read_text())
            by_path = {f"symcheck/{path}": name for name, path in PATHS.items()}
            for s in earlier["survivors"]:
                path, line = s["where"].rsplit(":", 1)
                # by the path, not the file name: language/definedness.py is the module "domain"
                module = by_path.get(path, Path(path).stem)
                again.setdefault((module, s["change"]), []).append(int(line))
        except (OSError, ValueError, KeyError, TypeError) as err:
            _fail(f"cannot read the survivors of {args.survivors_of}: {err}")
        modules = list(dict.fromkeys(m for m, _ in again if m in CORE))
    if args.ids:
        modules = list(dict.fromkeys(_module_name(i.split(":")[0]) for i in args.ids))
    if args.survivors_of or args.ids:
        families = FAMILIES  # a survivor or an id names its own family
    mutants = [m for name in modules
               for m in mutants_of(name, package_source(PATHS[name]))
               if m.family in families and name in FAMILY_MODULES[m.family]]
    if again:  # the same change on the same text: the one nearest the line the report named
        chosen: dict[tuple[str, int], Mutant] = {}
        for m in mutants:
            for line in again.get((m.module, m.change), ()):
                best = chosen.get((m.change, line))
                if best is None or abs(m.line - line) < abs(best.line - line):
                    chosen[(m.change, line)] = m
        picked = {id(m) for m in chosen.values()}
        mutants = [m for m in mutants if id(m) in picked]
    if args.ids:
        wanted = set(args.ids)
        mutants = [m for m in mutants if m.id in wanted]
        missing = wanted - {m.id for m in mutants}
        if missing:
            _fail(f"no such mutant: {', '.join(sorted(missing))} (ids follow the current source; see --list)")
    if args.max is not None:
        mutants = sample(mutants, args.max, args.seed)

    if args.list:
        if args.json:
            print(json.dumps([asdict(m) for m in mutants], indent=1, ensure_ascii=False))
        else:
            for m in mutants:
                print(f"{m.id:32} symcheck/{PATHS[m.module]}:{m.line}  {m.change}")
            print(f"{len(mutants)} mutants")
        return 0

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # a kill ends like Ctrl-C: children stopped, copies removed

    signal.signal(signal.SIGTERM, stop)
    sandbox = Sandbox(args.jobs)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    outcomes: list[Outcome] = []
    broken_baseline: dict[str, str] = {}
    try:
        timeouts: dict[str, float] = {}

        # modules sharing their test files (the kernel's, the group's, the emitter's) get one clean
        # run of those files with all their doctests: if it passes, each module's own run passes
        shared: dict[tuple[str, ...], list[str]] = {}
        for name in dict.fromkeys(m.module for m in mutants):
            shared.setdefault(tuple(test_files(name, args.tests, sandbox.first)[:-1]), []).append(name)

        def clean_run(item: tuple[tuple[str, ...], list[str]]) -> tuple[list[str], str, float, str]:
            files, names = item
            root = sandbox.free.get()
            try:
                return (names, *_pytest(root, [*files, *(f"symcheck/{PATHS[n]}" for n in names)], 1800))
            finally:
                sandbox.free.put(root)

        # a clean run of each module's tests first: one that fails unmutated cannot be measured
        for names, status, seconds, tail in pool.map(clean_run, shared.items()):
            _progress(f"clean run of {', '.join(names)}: {status} in {seconds:.0f}s")
            for name in names:
                if status != "passed":
                    broken_baseline[name] = tail
                timeouts[name] = args.timeout or max(120.0, 4 * seconds)
        outcomes += [Outcome(m, "equivalent", 0.0, EQUIVALENT[table_key(m)])
                     for m in mutants if table_key(m) in EQUIVALENT]
        outcomes += [Outcome(m, "sound", 0.0, SOUND_EITHER_WAY[table_key(m)])
                     for m in mutants if table_key(m) in SOUND_EITHER_WAY]
        runnable = [m for m in mutants if m.module not in broken_baseline
                    and table_key(m) not in EQUIVALENT and table_key(m) not in SOUND_EITHER_WAY]
        futures = [pool.submit(run_mutant, sandbox, m, test_files(m.module, args.tests, sandbox.first),
                               timeouts[m.module]) for m in runnable]
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            outcome = future.result()
            outcomes.append(outcome)
            _progress(f"[{done}/{len(runnable)}] {outcome.status:8} {outcome.seconds:5.0f}s "
                      f"{outcome.mutant.id}  {outcome.mutant.change}")
    except KeyboardInterrupt:
        _STOPPING.set()  # no new run starts; the running ones are ended
        pool.shutdown(wait=False, cancel_futures=True)
        with _LOCK:
            for process in list(_RUNNING):
                _kill(process)
        _progress("interrupted: the report covers the mutants that finished")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        sandbox.close()
    outcomes = [o for o in outcomes if o.status != "interrupted"]

    order = {m.id: i for i, m in enumerate(mutants)}
    outcomes.sort(key=lambda o: order[o.mutant.id])
    report = _report(outcomes, broken_baseline)
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
    else:
        _print_report(report)
    if args.fail_under is not None and any(f["score"] is None or f["score"] < args.fail_under
                                           for f in report["families"].values()):
        return 1  # each family measured must reach the target on its own
    return 0


#: occurrences a table entry must not cover: the same printed edit at another place on its line,
#: where the entry's proof does not hold. Each runs as an ordinary mutant (why, for each).
NOT_COVERED: dict[tuple[str, str], str] = {
    ("balls", "`0` → `1`, in `if lo >= 0 or hi <= 0: # monotone on each side of 0` (occurrence 2 on the line)"):
        "`hi <= 1` holds for every end's sign, so a wide ball across 0 would take cosh from its two ends "
        "and miss cosh(0) = 1 (killed by test_ball_signs_and_powers.py)",
}


def table_key(m: Mutant) -> tuple[str, str]:
    """A mutant's key in EQUIVALENT and SOUND_EITHER_WAY: its change without the occurrence number,
    so that an entry covers the same edit wherever it falls on its line (its proof says why),
    except at the places NOT_COVERED lists, whose keys are their whole change (in no table)."""
    if (m.module, m.change) in NOT_COVERED:
        return m.module, m.change
    return m.module, m.change.split(" (occurrence ")[0]


def sample(mutants: list[Mutant], size: int, seed: int) -> list[Mutant]:
    """At most ``size`` mutants of each family, in their original order. The old family is drawn
    uniformly (as it always was: the same seed draws the same old sample). The new family is
    drawn stratified by operator: each operator gets an equal share (what one operator cannot
    fill goes to the others), so the many wrong-variable and swapped-argument mutants do not
    crowd out the few shared caches and allow-lists."""
    old = [i for i, m in enumerate(mutants) if m.family == "old"]
    new = [i for i, m in enumerate(mutants) if m.family == "new"]
    chosen: set[int] = set(old)
    if len(old) > size:
        chosen = {old[i] for i in random.Random(seed).sample(range(len(old)), size)}
    if len(new) <= size:
        chosen |= set(new)
    else:
        rng = random.Random(seed)
        by_operator: dict[str, list[int]] = {}
        for i in new:
            by_operator.setdefault(mutants[i].operator, []).append(i)
        pools = {op: rng.sample(ids, len(ids)) for op, ids in sorted(by_operator.items())}
        taken = 0
        while taken < size:  # round robin over the operators, each in its shuffled order
            for op in sorted(pools):
                if pools[op] and taken < size:
                    chosen.add(pools[op].pop())
                    taken += 1
    return [m for i, m in enumerate(mutants) if i in chosen]


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


_STATUSES = ("killed", "survived", "timeout", "equivalent", "sound", "refusal-swap")


def _report(outcomes: list[Outcome], broken_baseline: dict[str, str]) -> dict:
    """Counts and survivors. Equivalent mutants, mutants sound either way and refusal swaps are
    no unsound edit: they are listed, and kept out of the score's denominator."""
    count = {s: sum(o.status == s for o in outcomes) for s in _STATUSES}
    score = _score(count)

    def rows(status: str) -> list[dict]:
        return [{"id": o.mutant.id, "where": f"symcheck/{PATHS[o.mutant.module]}:{o.mutant.line}",
                 "change": o.mutant.change, "family": o.mutant.family,
                 **({"why": o.detail} if o.detail else {})}
                for o in outcomes if o.status == status]

    return {
        "mutants": len(outcomes),
        **{s.replace("-", "_"): n for s, n in count.items()},
        "score": score,
        "survivors": rows("survived"),
        "equivalents": rows("equivalent"),
        "sound_either_way": rows("sound"),
        "refusal_swaps": rows("refusal-swap"),
        "modules": {name: {s: sum(o.status == s and o.mutant.module == name for o in outcomes)
                           for s in _STATUSES}
                    for name in dict.fromkeys(o.mutant.module for o in outcomes)},
        "families": {f: {**{s.replace("-", "_"): n for s, n in c.items()}, "mutants": sum(c.values()),
                         "score": _score(c)}
                     for f in FAMILIES
                     for c in [{s: sum(o.status == s and o.mutant.family == f for o in outcomes) for s in _STATUSES}]
                     if sum(c.values())},
        "not_measured": broken_baseline,
    }


def _score(count: dict[str, int]) -> float | None:
    decided = count["killed"] + count["survived"] + count["timeout"]
    return None if not decided else round(100 * (count["killed"] + count["timeout"]) / decided, 1)


def _print_report(report: dict) -> None:
    print(f"mutants: {report['mutants']}  killed: {report['killed']}  survived: {report['survived']}  "
          f"timed out: {report['timeout']}  equivalent: {report['equivalent']}  "
          f"sound either way: {report['sound']}  refusal swaps: {report['refusal_swap']}  score: "
          + ("n/a" if report["score"] is None else f"{report['score']}%"))
    for name, counts in report.get("families", {}).items():
        label = "old operators" if name == "old" else "new (realistic) operators"
        print(f"  {label:26} mutants {counts['mutants']:3}  killed {counts['killed']:3}  survived "
              f"{counts['survived']:3}  timed out {counts['timeout']:3}  score "
              + ("n/a" if counts["score"] is None else f"{counts['score']}%"))
    for name, counts in report["modules"].items():
        print(f"  {name:12} killed {counts['killed']:3}  survived {counts['survived']:3}  "
              f"timed out {counts['timeout']:3}  equivalent {counts['equivalent']:3}  "
              f"sound {counts['sound']:3}  refusal swaps {counts['refusal-swap']:3}")
    for name, tail in report["not_measured"].items():
        print(f"not measured: {name} (its tests fail without any mutant: {tail})")
    for title, key in (("survivors", "survivors"), ("equivalent (not counted)", "equivalents"),
                       ("sound either way (not counted)", "sound_either_way"),
                       ("refusal swaps (not counted)", "refusal_swaps")):
        if report[key]:
            print(f"{title}:")
            for s in report[key]:
                why = f"  — {s['why']}" if "why" in s else ""
                print(f"  {s['where']:30} {s['change']}   [{s['id']}]{why}")


if __name__ == "__main__":
    sys.exit(main())
