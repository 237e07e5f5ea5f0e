#!/usr/bin/env python3
"""Mutation check of symcheck's soundness core: do the tests notice a realistic unsound edit?

Each mutant is one small change of the kind that turns a sound decision into a wrong proof
(``>`` read as ``>=`` at a cut point, an ``and`` read as ``or``, a dropped ``raise``, a
skipped ``append`` of a cut point, ``lower`` used for ``upper``, an "undecided" ``None``
returned as an answer ...). A mutant is *killed* when the tests that exercise its module
fail (or time out) with it in place; it *survives* when they stay green. The score is
killed / (killed + survived), timeouts counted as killed.

    python3 scripts/mutation_check.py                      # the whole core, 2 jobs
    python3 scripts/mutation_check.py --module regions --list
    python3 scripts/mutation_check.py --module zero --max 20 --json
    python3 scripts/mutation_check.py --id regions:324:compare-1 --tests tests/test_mutants_regions.py
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
    "roots": ("test_mutants_roots.py", "test_mutants_regions.py", "test_roots.py", "test_regions.py", "test_split_soundness.py", "test_symmetries.py"),
    "signs": ("test_mutants_signs.py", "test_roots.py", "test_regions.py", "test_split_soundness.py", "test_symmetries.py"),
    "regions": ("test_mutants_regions.py", "test_regions.py", "test_split_soundness.py", "test_roots.py", "test_symmetries.py"),
    "zero": ("test_mutants_zero.py", "test_fallback_wiring.py", "test_split_soundness.py", "test_regions.py", "test_symmetries.py"),
    "plane": ("test_mutants_plane.py", "test_plane.py", "test_fallback_wiring.py"),
    "evaluate": ("test_mutants_evaluate.py", "test_evaluate.py", "test_arb_enclose_range.py", "test_intervals.py"),
    "balls": ("test_mutants_evaluate.py", "test_arb_enclose_range.py", "test_evaluate.py", "test_intervals.py"),
    "intervals": ("test_mutants_intervals.py", "test_intervals.py", "test_arb_enclose_range.py"),
    "symmetries": ("test_mutants_symmetries.py", "test_symmetries.py", "test_guard.py", "test_custom_forms.py"),
    "theorems": ("test_mutants_symmetries.py", "test_symmetries.py"),
    "domain": ("test_mutants_domain.py", "test_domain.py"),
    "guard": ("test_mutants_guard.py", "test_guard.py"),
    "fallback": ("test_mutants_fallback.py", "test_fallback.py", "test_fallback_wiring.py"),
    "smt": ("test_mutants_smt.py", "test_smt.py"),
    "homogeneity": ("test_mutants_homogeneity.py", "test_homogeneity.py", "test_audit_certified.py"),
}

#: where each module of the core lives in the package (a path names the module's layer)
PATHS: dict[str, str] = {
    "roots": "exact/roots.py", "signs": "exact/signs.py", "regions": "exact/regions.py",
    "evaluate": "exact/evaluate.py", "balls": "exact/balls.py", "intervals": "exact/intervals.py",
    "zero": "engine/zero.py", "plane": "engine/plane.py", "symmetries": "engine/symmetries.py",
    "theorems": "engine/theorems.py", "guard": "engine/guard.py", "fallback": "engine/fallback.py",
    "smt": "engine/smt.py", "homogeneity": "engine/homogeneity.py", "domain": "language/definedness.py",
}

# Functions that only render text (descriptions, LaTeX, reprs): a change there cannot make a
# verdict wrong, so they are not mutated.
SKIP_FUNCTIONS = re.compile(r"^(describe|latex|_render|_interval_text|to_dict|to_latex|"
                            r"__repr__|__str__|_repr_\w+|decimal|explain\w*|_text\w*|"
                            r"_describe|_interval_latex|_decimal|_range_latex|summary|truncate|"
                            r"_failure_message|substitution_text|_statement)$")

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
        self.found: list[tuple[ast.AST, str, str, str]] = []
        self.function: list[ast.AST] = []

    # context ------------------------------------------------------------------------------
    def _skipped(self) -> bool:
        return any(SKIP_FUNCTIONS.match(f.name) for f in self.function
                   if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)))

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.function.append(node)
        # annotations and default values are not behaviour worth mutating here
        for stmt in node.body:
            self.visit(stmt)
        self.function.pop()

    visit_FunctionDef = _visit_function
    visit_AsyncFunctionDef = _visit_function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for stmt in node.body:  # not the decorators: `frozen=True` is no decision
            self.visit(stmt)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        return  # f-strings are messages; their positions are unreliable in 3.11 too

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)

    def visit_Assign(self, node: ast.Assign) -> None:
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        if "__all__" in names:
            return
        # a module-level bound such as MAX_DEPTH = 40: its constants are worth mutating
        if not self.function and names and all(n.isupper() for n in names):
            for const in _numbers_in(node.value):
                self._number(const)
        self.generic_visit(node)

    def add(self, node: ast.AST, operator: str, change: str, replacement: str) -> None:
        if not self._skipped():
            self.found.append((node, operator, change, replacement))

    def seg(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.source, node) or ast.unparse(node)

    # operators ----------------------------------------------------------------------------
    def visit_Compare(self, node: ast.Compare) -> None:
        for i, op in enumerate(node.ops):
            swaps: list[ast.cmpop] = []
            if type(op) in _FLIP_COMPARE:
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
        if isinstance(node.op, (ast.Add, ast.Sub)) and (_offset_like(node.left) or _offset_like(node.right)):
            mutated = copy.deepcopy(node)
            mutated.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
            self.add(node, "plus-minus", f"`{self.seg(node)}` → `{ast.unparse(mutated)}`",
                     f"({ast.unparse(mutated)})")
        for side in (node.left, node.right):
            if _is_number(side):
                self._number(side)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, bool):
            self.add(node, "bool", f"`{node.value}` → `{not node.value}`", repr(not node.value))

    def _number(self, node: ast.Constant) -> None:
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

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load) and node.attr in ("lower", "upper"):
            mutated = copy.deepcopy(node)
            mutated.attr = _SWAP_NAMES[node.attr]
            self.add(node, "lower-upper", f"`{self.seg(node)}` → `{ast.unparse(mutated)}`",
                     f"({ast.unparse(mutated)})")
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

    def visit_Raise(self, node: ast.Raise) -> None:
        self.add(node, "drop-raise", f"`{_short(self.seg(node))}` → `pass`", "pass")

    def visit_Continue(self, node: ast.Continue) -> None:
        self.add(node, "drop-continue", "`continue` → `pass`", "pass")

    def visit_Break(self, node: ast.Break) -> None:
        self.add(node, "drop-break", "`break` → `pass`", "pass")

    def visit_Expr(self, node: ast.Expr) -> None:
        call = node.value
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr in _COLLECTORS):
            self.add(node, "drop-append", f"`{_short(self.seg(node))}` → `pass`", "pass")
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self.visit(node.value)  # indices are not bounds: `x[0]` → `x[1]` is not a soundness edit


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
    """Every mutant of one module's source, in order of position; each parses and differs."""
    tree = ast.parse(source)
    collector = _Collector(source)
    collector.visit(tree)
    reference = ast.dump(tree)
    seen: set[str] = set()
    out: list[Mutant] = []
    ordinal: dict[tuple[int, str], int] = {}
    for node, operator, change, replacement in sorted(
            collector.found, key=lambda f: (f[0].lineno, f[0].col_offset, f[1], f[2])):
        key = (node.lineno, operator)
        ordinal[key] = ordinal.get(key, 0) + 1
        mutant = Mutant(f"{module}:{node.lineno}:{operator}-{ordinal[key]}", module, node.lineno,
                        operator, change, (node.lineno, node.col_offset),
                        (node.end_lineno, node.end_col_offset), replacement)
        text = mutant.apply(source)
        try:
            dumped = ast.dump(ast.parse(text))
        except SyntaxError:
            continue
        if dumped == reference or dumped in seen:
            continue
        seen.add(dumped)
        before = source.splitlines()[node.lineno - 1].strip()
        after = text.splitlines()[node.lineno - 1].strip()
        out.append(dataclasses.replace(mutant, change=f"{change}, in `{_short(before, 90)}`"
                                       if before != after else change))
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
            ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.pyc")
            shutil.copytree(ROOT / "symcheck", root / "symcheck", ignore=ignore)
            shutil.copytree(ROOT / "tests", root / "tests", ignore=ignore)
            for extra in ("proofs", "docs"):
                if (ROOT / extra).is_dir():
                    shutil.copytree(ROOT / extra, root / extra, ignore=ignore)
            for name in ("pyproject.toml", "README.md"):
                shutil.copy2(ROOT / name, root / name)
            self.free.put(root)

    def close(self) -> None:
        self._tmp.cleanup()


_RUNNING: set[subprocess.Popen] = set()
_LOCK = threading.Lock()
_STOPPING = threading.Event()


def _pytest(root: Path, files: Sequence[str], timeout: float) -> tuple[str, float, str]:
    """Run the files with pytest in the copy at ``root``: (passed|failed|timeout, seconds, tail)."""
    env = dict(os.environ)
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


def test_files(module: str, override: Sequence[str] = (), root: Path = ROOT) -> list[str]:
    """The module's test files that exist in ``root`` (the copy the run uses), and its doctests."""
    names = override or [f"tests/{name}" for name in CORE[module]]
    files = [name for name in names if (root / name).exists()]
    # the module's own doctests run too (the suite runs them with --doctest-modules)
    return files + [f"symcheck/{PATHS[module]}"]


def run_mutant(sandbox: Sandbox, mutant: Mutant, files: Sequence[str], timeout: float) -> Outcome:
    root = sandbox.free.get()
    target = root / "symcheck" / PATHS[mutant.module]
    original = target.read_text()
    try:
        target.write_text(mutant.apply(original))
        status, seconds, tail = _pytest(root, files, timeout)
    finally:
        target.write_text(original)
        sandbox.free.put(root)
    if _STOPPING.is_set():
        status = "interrupted"  # a run ended by the interrupt decides nothing
    verdict = {"failed": "killed", "passed": "survived", "timeout": "timeout",
               "interrupted": "interrupted"}[status]
    return Outcome(mutant, verdict, seconds, tail if verdict == "killed" else "")


# --------------------------------------------------------------------------- the command


def _fail(message: str) -> None:
    """Bad input: one line on stderr, exit status 2 (as argparse does for usage errors)."""
    print(f"Error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _module_name(text: str) -> str:
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
    parser.add_argument("--max", type=int, default=None,
                        help="run at most this many mutants, a seeded sample spread over the modules")
    parser.add_argument("--seed", type=int, default=0, help="seed of the --max sample")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds per mutant (default: 4 × the module's clean run, at least 120)")
    parser.add_argument("--tests", action="append", default=[],
                        help="run these test files instead of the module's table entry (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument("--fail-under", type=float, default=None,
                        help="exit 1 when the score (percent) is below this")
    args = parser.parse_args(argv)
    if args.jobs < 1 or (args.max is not None and args.max < 1):
        parser.error("--jobs and --max must be at least 1")

    modules = [_module_name(m) for m in args.module] or list(CORE)
    again: dict[tuple[str, str], list[int]] = {}
    if args.survivors_of:
        try:
            earlier = json.loads(Path(args.survivors_of).read_text())
            for s in earlier["survivors"]:
                module, line = s["where"].split("/")[-1].split(".py:")
                again.setdefault((module, s["change"]), []).append(int(line))
        except (OSError, ValueError, KeyError, TypeError) as err:
            _fail(f"cannot read the survivors of {args.survivors_of}: {err}")
        modules = list(dict.fromkeys(m for m, _ in again if m in CORE))
    if args.ids:
        modules = list(dict.fromkeys(_module_name(i.split(":")[0]) for i in args.ids))
    mutants = [m for name in modules
               for m in mutants_of(name, (ROOT / "symcheck" / PATHS[name]).read_text())]
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
    if args.max is not None and len(mutants) > args.max:
        chosen = set(random.Random(args.seed).sample(range(len(mutants)), args.max))
        mutants = [m for i, m in enumerate(mutants) if i in chosen]

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

        def clean_run(name: str) -> tuple[str, str, float, str]:
            root = sandbox.free.get()
            try:
                return (name, *_pytest(root, test_files(name, args.tests, root), 1800))
            finally:
                sandbox.free.put(root)

        # a clean run of each module's tests first: one that fails unmutated cannot be measured
        for name, status, seconds, tail in pool.map(clean_run, dict.fromkeys(m.module for m in mutants)):
            _progress(f"clean run of {name}: {status} in {seconds:.0f}s")
            if status != "passed":
                broken_baseline[name] = tail
            timeouts[name] = args.timeout or max(120.0, 4 * seconds)
        runnable = [m for m in mutants if m.module not in broken_baseline]
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
    if args.fail_under is not None and (report["score"] is None or report["score"] < args.fail_under):
        return 1
    return 0


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _report(outcomes: list[Outcome], broken_baseline: dict[str, str]) -> dict:
    count = {s: sum(o.status == s for o in outcomes) for s in ("killed", "survived", "timeout")}
    decided = count["killed"] + count["survived"] + count["timeout"]
    score = None if not decided else round(100 * (count["killed"] + count["timeout"]) / decided, 1)
    return {
        "mutants": len(outcomes),
        **count,
        "score": score,
        "survivors": [{"id": o.mutant.id, "where": f"symcheck/{PATHS[o.mutant.module]}:{o.mutant.line}",
                       "change": o.mutant.change} for o in outcomes if o.status == "survived"],
        "modules": {name: {s: sum(o.status == s and o.mutant.module == name for o in outcomes)
                           for s in ("killed", "survived", "timeout")}
                    for name in dict.fromkeys(o.mutant.module for o in outcomes)},
        "not_measured": broken_baseline,
    }


def _print_report(report: dict) -> None:
    print(f"mutants: {report['mutants']}  killed: {report['killed']}  survived: {report['survived']}  "
          f"timed out: {report['timeout']}  score: "
          + ("n/a" if report["score"] is None else f"{report['score']}%"))
    for name, counts in report["modules"].items():
        print(f"  {name:12} killed {counts['killed']:3}  survived {counts['survived']:3}  "
              f"timed out {counts['timeout']:3}")
    for name, tail in report["not_measured"].items():
        print(f"not measured: {name} (its tests fail without any mutant: {tail})")
    if report["survivors"]:
        print("survivors:")
        for s in report["survivors"]:
            print(f"  {s['where']:30} {s['change']}   [{s['id']}]")


if __name__ == "__main__":
    sys.exit(main())
