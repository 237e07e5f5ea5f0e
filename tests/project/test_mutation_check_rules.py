"""The mutation check generates unsound edits only, by its documented rules.

Each rule is tested on a small source: what it leaves alone, and that the same edit outside
its scope is still generated (a rule that swallowed real decisions would inflate the score).
The EQUIVALENT and SOUND_EITHER_WAY tables are checked against the core as it is now: an entry
that no longer matches a generated mutant would silently stop excluding anything.
"""
from __future__ import annotations

import pytest

from support import ROOT


@pytest.fixture(scope="module")
def check(mutation_check):
    return mutation_check


def _changes(check, source: str) -> list[str]:
    # the change without the ", in `line`" a report adds for the reader
    return [m.change.split(", in `")[0] for m in check.mutants_of("regions", source) if m.family == "old"]


def test_a_module_level_limit_is_not_mutated_but_a_table_of_decisions_is(check) -> None:
    source = ("MAX_DEPTH = 40\n"
              "_SIGN_TEST = {'gt': lambda s: s > 0}\n"
              "def f(depth):\n"
              "    if depth >= MAX_DEPTH:\n"
              "        raise ValueError('too deep')\n"
              "    return depth > 0\n")
    changes = _changes(check, source)
    assert not any("40" in c for c in changes)
    assert "`s > 0` → `s >= 0`" in changes           # the decision table is mutated
    assert not any("MAX_DEPTH`" in c and "→" in c for c in changes)
    assert not any("raise ValueError" in c for c in changes)  # the limit's own raise
    assert "`depth > 0` → `depth >= 0`" in changes     # an ordinary comparison still is


def test_a_symbol_with_a_capital_name_is_not_a_limit(check) -> None:
    changes = _changes(check, "def f(Z):\n    return Z > 0\n")
    assert "`Z > 0` → `Z >= 0`" in changes


def test_precisions_are_not_mutated(check) -> None:
    source = ("def f(x, digits):\n"
              "    for prec in (64, 256):\n"
              "        y = x.evalf(30)\n"
              "        with arb_precision(4 * digits + 64):\n"
              "            if y > 0:\n"
              "                return prec\n")
    changes = _changes(check, source)
    assert not any(c.startswith(("`64`", "`256`", "`30`", "`4`")) for c in changes)
    assert "`y > 0` → `y >= 0`" in changes


def test_ranking_display_and_proposals_are_not_mutated(check) -> None:
    source = ("def _order_key(r):\n    return r.lower > 0\n"
              "def _candidates(r):\n    return [q for q in r if q > 0]\n"
              "def f(xs, known):\n"
              "    ys = sorted(xs, key=lambda x: x > 0)\n"
              "    note = ', '.join(text(s) for s in known if s.sign is None)\n"
              "    return [x for x in ys if x > 1]\n")
    changes = _changes(check, source)
    assert "`x > 1` → `x >= 1`" in changes
    assert not any("r.lower" in c or "q > 0" in c or "x > 0" in c or "s.sign" in c for c in changes)


@pytest.mark.parametrize("table", ["EQUIVALENT", "SOUND_EITHER_WAY", "NOT_COVERED"])
@pytest.mark.slow
def test_every_table_entry_names_a_mutant_of_the_core(check, table) -> None:
    entries = getattr(check, table)
    generated = {(m.module, m.change)
                 for name in {module for module, _ in entries}
                 for m in check.mutants_of(name, (ROOT / "symcheck" / check.PATHS[name]).read_text())}
    assert set(entries) <= generated
    assert not set(check.EQUIVALENT) & set(check.SOUND_EITHER_WAY)


def test_a_place_not_covered_is_run_though_its_line_has_an_entry(check) -> None:
    """A table entry covers its edit at every place on the line, except where NOT_COVERED says the
    proof does not hold there: that mutant keeps its own key, in neither table."""
    (module, change), = [k for k in check.NOT_COVERED if k[0] == "balls"]
    mutant = check.Mutant("balls:382:number-2", module, 382, "number", change, (382, 0), (382, 1), "1")
    bare = (module, change.split(" (occurrence ")[0])
    assert bare in check.SOUND_EITHER_WAY  # the line's entry, for its first place
    assert check.table_key(mutant) == (module, change)
    assert check.table_key(mutant) not in check.SOUND_EITHER_WAY and check.table_key(mutant) not in check.EQUIVALENT


def test_a_steps_text_is_not_mutated_but_its_status_and_the_decision_are(check) -> None:
    source = ("def f(ok, certificate, steps):\n"
              "    shown = 'a' if certificate is None else 'b'\n"
              "    why = 'x' if ok > 0 else 'y'\n"
              "    steps.append(Step('T', shown, 'L' if ok >= 1 else 'M', justification=str(ok < 2),\n"
              "                      status='failed' if ok > 3 else 'given', case=True))\n"
              "    if certificate is None:\n"
              "        return Decision(why)\n")
    changes = [c for c in _changes(check, source) if not c.endswith("→ `pass`")]  # not the dropped append
    assert not any("ok >= 1" in c or "ok < 2" in c for c in changes)      # text of the step
    assert "`ok > 3` → `ok >= 3`" in changes                              # its status
    assert "`True` → `False`" in changes                                  # its case flag
    assert "`ok > 0` → `ok >= 0`" in changes                              # why: also a Decision's note
    assert changes.count("`certificate is None` → `certificate is not None`") == 1  # the decision only


def test_a_continue_that_ends_the_loop_body_is_not_mutated(check) -> None:
    source = ("def f(xs, g):\n"
              "    for x in xs:\n"
              "        try:\n"
              "            g(x)\n"
              "        except ValueError:\n"
              "            continue\n"
              "    for x in xs:\n"
              "        if x:\n"
              "            continue\n"
              "        elif g(x):\n"
              "            continue\n"
              "    while xs:\n"
              "        if g(xs):\n"
              "            continue\n"
              "        xs.pop()\n")
    continues = [m for m in check.mutants_of("regions", source) if m.operator == "drop-continue"]
    assert [m.line for m in continues] == [14]  # the one with a statement after it


def test_the_refusal_probe_wraps_the_function_and_marks_the_raise(check) -> None:
    source = ("class A:\n"
              "    @staticmethod\n"
              "    def f(x):\n"
              "        if x < 0:\n"
              "            raise ValueError('negative')\n"
              "        return x\n")
    (mutant,) = [m for m in check.mutants_of("regions", source) if m.operator == "drop-raise"]
    probed = check.probe_source(mutant, source)
    lines = probed.splitlines()
    assert lines[2] == f"    @__import__({check._PROBE!r}).probe"   # innermost, below @staticmethod
    assert lines[3] == "    def f(x):"
    assert lines[5].strip() == f"__import__({check._PROBE!r}).reached()"
    compile(probed, "probe", "exec")


def test_the_score_leaves_equivalents_and_refusal_swaps_out(check) -> None:
    m = check.Mutant("regions:1:x-1", "regions", 1, "x", "c", (1, 0), (1, 1), "pass")
    outcomes = [check.Outcome(m, status, 0.0) for status in
                ("killed", "killed", "killed", "survived", "equivalent", "refusal-swap", "timeout", "sound")]
    report = check._report(outcomes, {})
    assert (report["killed"], report["survived"], report["timeout"]) == (3, 1, 1)
    assert (report["equivalent"], report["refusal_swap"], report["sound"]) == (1, 1, 1)
    assert report["score"] == 80.0  # (3 killed + 1 timeout) / 5


def test_a_formula_tree_is_display_but_the_same_names_from_sympy_are_not(check) -> None:
    source = ("from symcheck.core.formula import And, ForAll, Relation\n"
              "from symcheck.language.symbols import sigma_at\n"
              "import sympy\n"
              "def f(x, c):\n"
              "    shown = ForAll((x,), Relation(1, sigma_at(c * x), x > 0), trailing=True)\n"
              "    decided = sympy.And(x > 1, c >= 2)\n"
              "    return And((shown, x < 3)), decided\n")
    changes = _changes(check, source)
    assert not any("x > 0" in c or "x < 3" in c or "True" in c for c in changes)  # inside formulas
    assert "`x > 1` → `x >= 1`" in changes                                      # sympy.And decides
    assert "`c >= 2` → `c > 2`" in changes
