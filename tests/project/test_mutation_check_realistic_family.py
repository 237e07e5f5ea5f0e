"""The realistic operator family of the mutation check (issue 23): each operator generates the
slip it names, stays out of the places the old family's rules exclude, and leaves the old
family's mutants exactly as they were."""
from __future__ import annotations

import importlib.util

import pytest

from support import ROOT


@pytest.fixture(scope="module")
def check(mutation_check):
    return mutation_check


def _new(check, source: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for m in check.mutants_of("regions", source):
        if m.family == "new":
            found.setdefault(m.operator, []).append(m.change.split(", in `")[0])
    return found


SOURCE = '''import functools
import sympy
from sympy import Rational, S
ALLOWED = ("exp", "sin")
ODD = ("sin", "tan")
def f(xs, n, lower, upper):
    total = 0
    for i in range(n):
        total = total + xs[i] * xs[0]
    half = Rational(1, 2) + S.Half
    return g(lower, upper) if "exp" in ALLOWED else total - half
@functools.lru_cache(maxsize=8)
def cached(expr, var):
    return expr
def h(q):
    memo = {}
    return memo.get(q, ODD[1]) if q in ODD else None
'''


def test_each_realistic_operator_generates_its_slip(check) -> None:
    found = _new(check, SOURCE)
    assert "`range(n)` → `range(n - 1)`" in found["bound"] and "`range(n)` → `range(1, n)`" in found["bound"]
    assert "`xs[i]` → `xs[i + 1]`" in found["index"] and "`xs[0]` → `xs[-1]`" in found["index"]
    assert "`ODD[1]` → `ODD[0]`" in found["index"]
    assert any(c.startswith("`g(lower, upper)`: arguments 1 and 2 swapped") for c in found["swap-args"])
    assert "`xs[i] * xs[0]` → `xs[i]`" in found["drop-factor"]
    assert "`total + xs[i] * xs[0]` → `total`" in found["drop-term"]
    assert "`Rational(1, 2)` → `(1) / (2)`" in found["float-const"] and "`S.Half` → `0.5`" in found["float-const"]
    assert any("keyed without `var`" in c for c in found["shared-cache"])
    assert any("keyed without `expr`" in c for c in found["shared-cache"])
    assert "the memo `memo` shared by every call" in found["shared-cache"]
    assert "`ALLOWED` gets the extra entry `asin`" in found["allow-list"]   # a list of functions
    assert "`ODD` gets the extra entry `asin`" in found["allow-list"]
    assert any(c.startswith("`lower` → ") for c in found["wrong-var"])


@pytest.mark.slow
def test_a_table_read_only_by_written_out_keys_is_no_allow_list(check) -> None:
    """numeric/checks.py's ``_DEFAULTS`` (sizes by name, read as ``_DEFAULTS["d"]``) got an
    extra key in the seed-101 sample: no input picks which entry is read, so no extra entry is
    ever asked for. A lookup by a computed key or an ``in`` test still makes an allow-list."""
    table = 'DEFAULTS = {"d": 256, "m": 1024}\nNAMES = ("exp", "log")\n'
    by_constant = table + 'def f(d):\n    return DEFAULTS["d"] if d is None else DEFAULTS.get("m")\n'
    assert "allow-list" not in _new(check, by_constant)
    by_name = table + 'def f(name):\n    return DEFAULTS[name]\n'
    assert any(c.startswith("`DEFAULTS` gets") for c in _new(check, by_name)["allow-list"])
    by_get = table + 'def f(name):\n    return DEFAULTS.get(name, 0)\n'
    assert any(c.startswith("`DEFAULTS` gets") for c in _new(check, by_get)["allow-list"])
    tested = table + 'def f(name):\n    return name in NAMES\n'
    assert "`NAMES` gets the extra entry `asin`" in _new(check, tested)["allow-list"]
    real = (ROOT / "symcheck" / "numeric" / "checks.py").read_text()
    assert not any(m.operator == "allow-list" and "_DEFAULTS" in m.change
                   for m in check.mutants_of("numeric_checks", real))


def test_the_new_family_keeps_the_old_rules(check) -> None:
    source = ("MAX_CASES = 40\n"
              "def describe(xs):\n    return xs[0] + xs[1]\n"
              "def f(xs, todo, prec):\n"
              "    if len(todo) + len(xs) > MAX_CASES:\n        raise ValueError('too many')\n"
              "    with workprec(prec * 2 + 10):\n        return xs[0]\n")
    changes = [c for cs in _new(check, source).values() for c in cs]
    assert not any("len(todo) + len(xs)" in c for c in changes)   # arithmetic on a named limit
    assert not any("prec * 2" in c for c in changes)              # a precision
    assert changes.count("`xs[0]` → `xs[-1]`") == 1               # in f, not in describe (display)


def test_the_shared_cache_probe_shares_entries_across_the_dropped_argument(check, tmp_path) -> None:
    (tmp_path / "probe_copy.py").write_text(check._PROBE_SOURCE)
    spec = importlib.util.spec_from_file_location("probe_copy", tmp_path / "probe_copy.py")
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)

    @probe.shared_cache("var")
    def f(expr, var):
        return (expr, var)

    assert f(1, "x") == (1, "x") and f(1, "y") == (1, "x") and f(2, "y") == (2, "y")


def test_sampling_draws_each_family_apart_and_the_new_one_by_operator(check) -> None:
    def make(i, op):
        return check.Mutant(f"regions:{i}:{op}-1", "regions", i, op, f"c{i}", (i, 0), (i, 1), "pass")

    mutants = [make(i, "compare") for i in range(50)] + [make(100 + i, "wrong-var") for i in range(50)] + \
        [make(200 + i, "allow-list") for i in range(3)]
    picked = check.sample(mutants, 10, 7)
    assert sum(m.family == "old" for m in picked) == 10
    new = [m.operator for m in picked if m.family == "new"]
    assert len(new) == 10 and new.count("allow-list") == 3          # the rare operator is not crowded out
    assert [m.id for m in check.sample(mutants, 10, 7)] == [m.id for m in picked]   # seeded


def test_the_report_scores_each_family_apart(check) -> None:
    old = check.Mutant("regions:1:compare-1", "regions", 1, "compare", "c", (1, 0), (1, 1), "pass")
    new = check.Mutant("regions:2:index-1", "regions", 2, "index", "c", (2, 0), (2, 1), "pass")
    outcomes = [check.Outcome(old, "killed", 0), check.Outcome(old, "survived", 0),
                check.Outcome(new, "killed", 0), check.Outcome(new, "killed", 0), check.Outcome(new, "equivalent", 0)]
    report = check._report(outcomes, {})
    assert report["families"]["old"]["score"] == 50.0 and report["families"]["new"]["score"] == 100.0
    assert report["families"]["new"]["equivalent"] == 1


def test_every_deciding_module_has_a_path_and_tests(check) -> None:
    for name in check.CORE:
        assert (ROOT / "symcheck" / check.PATHS[name]).is_file(), name
        assert all(check.test_path(f) for f in check.CORE[name]), name
    assert {"group", "group_maximality", "parsing", "numeric_checks", "cli", "kernel_check",
            "kernel_gate", "certificate_emit", "zero_proof"} <= set(check.FAMILY_MODULES["new"])
    assert not set(check.DECIDING) & set(check.FAMILY_MODULES["old"])


def test_a_commit_is_mutated_and_tested_as_committed(check, monkeypatch) -> None:
    """--commit: the sources mutated and the copies tested are the commit's (git archive), so an
    unfinished edit in the shared checkout is neither mutated nor tested."""
    import subprocess
    committed = subprocess.run(["git", "show", "HEAD:symcheck/cli.py"], cwd=ROOT, check=True,
                               capture_output=True, text=True).stdout
    monkeypatch.setattr(check, "COMMIT", "HEAD")
    assert check.package_source("cli.py") == committed
    sandbox = check.Sandbox(1)
    try:
        root = sandbox.free.get()
        assert (root / "symcheck" / "cli.py").read_text() == committed
        assert (root / "tests" / "conftest.py").exists() and (root / f"{check._PROBE}.py").exists()
    finally:
        sandbox.close()


def test_a_table_of_proposed_points_is_not_mutated(check) -> None:
    """``_CHANGE_GRID`` (group_maximality) only proposes where σ changes sign: each sign is
    certified at its point and proved again by the kernel, so its mutants are no unsound edit
    (seed 303: a float grid point and a shorter range survived). Other module tables still are."""
    source = ("import sympy\n_CHANGE_GRID = tuple(sympy.Rational(j, 8) for j in range(1, 81))\n"
              "_OTHER = tuple(sympy.Rational(j, 8) for j in range(1, 81))\n")
    changes = [m.change for m in check.mutants_of("regions", source) if m.family == "new"]
    assert changes and all("_OTHER = " in c for c in changes)


def test_the_same_edit_twice_on_a_line_names_each_mutant_apart(check) -> None:
    """`omega * _T` → `_T` in both the cos and the sin of one line (seed 303): --survivors-of
    finds a mutant by its change, so the two changes must differ."""
    source = "import sympy\ndef f(a, b, w, t):\n    return a * sympy.cos(w * t) + b * sympy.sin(w * t)\n"
    changes = [m.change for m in check.mutants_of("regions", source) if m.family == "new"]
    assert len(changes) == len(set(changes))
    dropped = [c for c in changes if c.startswith("`w * t` → `t`")]
    assert len(dropped) == 2 and dropped[1].endswith("(occurrence 2 on the line)")
