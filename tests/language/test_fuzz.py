"""Hardening as a guarantee: the expression parser under random and mutated input.

Three properties, for the three entry points that read user text (an activation, a bare
expression, a custom unit form):

* it never executes code: ``eval``/``exec`` of a string, ``compile`` other than to an AST,
  ``os.system``, ``subprocess`` and imports of process/file modules all fail the test while
  the parser runs, and a marker file that spliced payloads would create never appears;
* it never raises anything but :class:`symcheck.core.errors.SymcheckError` (one line);
* it always returns: each example runs under a 30 s alarm that only detects hangs — it is not
  a speed threshold (the parser's own limits keep examples far below it).

Kept fast for CI: a modest number of examples, no deadline. Run with
``--hypothesis-show-statistics`` to see how inputs were accepted or refused.
"""
from __future__ import annotations

import builtins
import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

import symcheck as sc
from symcheck.core.budget import BudgetExceeded, alarm
from symcheck.core.errors import SymcheckError
from symcheck.language.activations import CATALOGUE
from symcheck.language.parsing import parse_expression
from symcheck.language.unit_forms import form

HANG_SECONDS = 30  # a hang detector only, never a speed threshold
MARKER = Path(tempfile.mkdtemp(prefix="symcheck-fuzz-")) / "pwned"
# SYMCHECK_FUZZ_EXAMPLES=5000 for a deep local run (it also prints the slowest parse per target)
EXAMPLES = int(os.environ.get("SYMCHECK_FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                print_blob=True)

# modules whose import while parsing would mean the input reached the file system or processes
FORBIDDEN_IMPORTS = {"os", "posix", "nt", "subprocess", "shutil", "socket", "pty", "ctypes", "runpy",
                     "pickle", "marshal", "importlib", "code", "codeop", "webbrowser", "urllib", "http"}

# SymPy modules that exec code they generate from their own templates, never from input
SYMPY_CODEGEN = {"sympy.polys.monomials"}

PAYLOADS = [
    f"__import__('os').system('touch {MARKER}')",
    f"open('{MARKER}', 'w')",
    f"exec(\"open('{MARKER}', 'w')\")",
    f"eval(\"__import__('os').system('touch {MARKER}')\")",
    "().__class__.__bases__[0].__subclasses__()",
    "z.__class__.__init__.__globals__",
    "lambda: 0",
    "globals()",
    "getattr(z, '__class__')",
    "[c for c in ().__class__.__mro__]",
    "(y := 1)",
    "f'{z}'",
]
TOKENS = ["__", ".", "**", "9**9", "9**9**9", "lambda", "lambda z: z", "(", ")", "[", "]", "{", "}",
          ",", "'", '"', "\\", "\n", "\t", ";", ":", ":=", "@", "%", "//", "<", ">=", "==", "!=",
          "&", "|", "~", "^", "not ", " and ", " or ", " if ", " else ", " for ", " in ", "*", "/",
          "-", "+", "e", "1e309", "1e-400", "10**300", "0x1f", "0b1", "1_0", "1j", "nan", "inf", "oo",
          "zoo", "I", "pi", "E", "True", "None", "z", "a", "b", "sigma", "sigma(", "Piecewise((",
          ", True))", "Max(", "Min(", "exp(", "log(", "sqrt(", "tan(", "Abs(", "Heaviside(",
          "sign(", "erf(", "relu(", "selu(", "(" * 40, ")" * 40, "-" * 60, "z" * 50, *PAYLOADS]
VALID = ["z", "z**2 - 3*z + 1", "Max(z, 0)", "Max(z, z/5)", "Min(Max(z, -1), 1)",
         "Piecewise((2*z, z > 0), (z/2, True))", "z*tanh(softplus(z))", "z*sigmoid(1.702*z)",
         "Abs(z)*sign(z)", "z*Heaviside(z)", "sqrt(z**2 + 1)", "log(1 + exp(z))", "z^3 + 1e-3*z",
         "Piecewise((z, (z > 1) & (z < 2)), (0, True))", "atan(z) + asinh(z)/2", "erfc(-z)/2"]
FORMS = ["sigma(a)*b", "sigma(a*b)", "sigma(a)*sigma(b)", "sigma(a)*b + sigma(b)*a", "a*sigma(b)",
         "sigma(a - b)**2", "Max(sigma(a), b)"]
SEEDS = [*VALID, *FORMS, *(formula for formula, _ in CATALOGUE.values())]
CHARS = st.characters(blacklist_categories=("Cs",))


def _parse_form(text: str) -> object:
    return form(text)


def _parse_bare(text: str) -> object:
    return parse_expression(text)


TARGETS = {"activation": sc.activation, "expression": _parse_bare, "form": _parse_form}


# --- the sandbox: anything that would run code fails the test -----------------------------------

class CodeExecuted(BaseException):
    """Raised by a trap; a BaseException so no ``except Exception`` in the parser can hide it."""


@contextmanager
def trapped():
    """Replace the ways to run code with traps for the duration of one parse."""
    real = {name: getattr(builtins, name) for name in ("eval", "exec", "compile", "__import__")}
    sprung: list[str] = []

    def trap(what: str):
        def sprung_trap(*args, **kwargs):
            sprung.append(what)
            raise CodeExecuted(what)
        return sprung_trap

    def no_string_eval(source, *args, **kwargs):
        if isinstance(source, (str, bytes)):
            sprung.append(f"eval({source!r:.60})")
            raise CodeExecuted("eval of a string")
        return real["eval"](source, *args, **kwargs)

    def no_string_exec(source, *args, **kwargs):
        # A lazy module import execs a compiled code object; SymPy's polynomial code builds
        # monomial helpers from its own template (sympy.polys.monomials.MonomialOps._build,
        # only numbered variables). Any other string exec fails.
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if isinstance(source, (str, bytes)) and caller not in SYMPY_CODEGEN:
            sprung.append(f"exec({source!r:.60}) from {caller}")
            raise CodeExecuted("exec of a string")
        return real["exec"](source, *args, **kwargs)

    def ast_only_compile(source, filename, mode, flags=0, *args, **kwargs):
        import ast
        from_file = isinstance(filename, str) and filename.endswith(".py") and os.path.isfile(filename)
        if not (flags & ast.PyCF_ONLY_AST) and not from_file:
            sprung.append(f"compile({source!r:.60})")
            raise CodeExecuted("compile to code")
        return real["compile"](source, filename, mode, flags, *args, **kwargs)

    def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name.partition(".")[0] in FORBIDDEN_IMPORTS:
            sprung.append(f"import {name}")
            raise CodeExecuted(f"import {name}")
        return real["__import__"](name, globals, locals, fromlist, level)

    saved_system, saved_popen = os.system, subprocess.Popen
    builtins.eval, builtins.exec = no_string_eval, no_string_exec
    builtins.compile, builtins.__import__ = ast_only_compile, guarded_import
    os.system, subprocess.Popen = trap("os.system"), trap("subprocess.Popen")
    try:
        yield sprung
    finally:
        for name, value in real.items():
            setattr(builtins, name, value)
        os.system, subprocess.Popen = saved_system, saved_popen


class Hang(BaseException):
    """The hang detector fired."""


def _warm_up() -> None:
    # SymPy imports some modules lazily on first use (sympy.physics.units runs sympify on its
    # own constant strings when imported); do that before the traps are set.
    for text in ["sqrt(z + 1)", "(z + 1)**(1/2)", "log(1 + z**2)", "tan(z)", "Piecewise((z, z > 0))",
                 "1/(z - 1)", "z**(1/3)", "Abs(z)**z", *(f for f, _ in CATALOGUE.values())]:
        for parse in TARGETS.values():
            try:
                parse(text)
            except SymcheckError:
                pass


_warm_up()
SLOWEST: dict[str, float] = {}
if "SYMCHECK_FUZZ_EXAMPLES" in os.environ:
    import atexit
    atexit.register(lambda: print("\nslowest parse per target (s):",
                                  {k: round(v, 3) for k, v in SLOWEST.items()}))


def _run(target: str, text: str) -> None:
    """Parse ``text``; fail on any escape from the guarantees."""
    started = time.perf_counter()
    outcome = "accepted"
    try:
        with alarm(HANG_SECONDS, Hang), trapped() as sprung:
            TARGETS[target](text)
    except SymcheckError as err:
        outcome = type(err).__name__
        message = str(err)
        assert message and "\n" not in message, f"not a one-line message: {message!r}"
    except CodeExecuted as err:
        pytest.fail(f"parsing {text!r} tried to run code: {err} ({sprung})")
    except (Hang, BudgetExceeded):
        pytest.fail(f"parsing {text!r} did not return within {HANG_SECONDS} s")
    except BaseException as err:  # noqa: BLE001 - the property is precisely "nothing else escapes"
        if isinstance(err, KeyboardInterrupt):
            raise
        pytest.fail(f"parsing {text!r} raised {type(err).__name__}: {err}")
    elapsed = time.perf_counter() - started
    SLOWEST[target] = max(SLOWEST.get(target, 0.0), elapsed)
    assert not MARKER.exists(), f"parsing {text!r} created the marker file"
    if currently_in_test_context():
        event(f"{target}: {outcome}")


# --- strategies ------------------------------------------------------------------------------

@st.composite
def mutated(draw, seeds=SEEDS) -> str:
    """A seed expression under 1-6 random edits: insert, delete, replace, splice, duplicate."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "splice", "splice", "duplicate"]))
        if kind == "insert":
            text = text[:at] + draw(CHARS) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
        elif kind == "replace":
            text = text[:at] + draw(st.sampled_from("z()+-*/^.,_ 0123456789<>=&|~[]{}'\"ab")) + text[at + 1:]
        elif kind == "splice":
            text = text[:at] + draw(st.sampled_from(TOKENS)) + text[at:]
        else:
            end = draw(st.integers(at, min(len(text), at + 40)))
            text = text[:end] + text[at:end] * draw(st.integers(1, 30)) + text[end:]
    return text


def _binary(pair) -> str:
    (left, op, right) = pair
    return f"({left}){op}({right})"


LEAVES = st.one_of(
    st.just("z"),
    st.integers(-10**6, 10**6).map(str),
    st.sampled_from(["0.5", "1e-3", "0.044715", "1.702", "1e300", "1e-300", "1e309", "10**300",
                     "123456789012345678901234567890", "pi", "E", "9**9", "2**(1/2)", "1/3"]),
)


def _extend(children):
    return st.one_of(
        st.tuples(children, st.sampled_from(["+", "-", "*", "/", "**", "^"]), children).map(_binary),
        st.tuples(children, st.sampled_from(["2", "3", "-1", "(1/2)", "(1/3)", "(-2/3)", "100",
                                             "101", "(101/2)", "(1/101)", "9**9", "z", "0.5"]))
        .map(lambda p: f"({p[0]})**{p[1]}"),
        st.tuples(st.sampled_from(["exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh",
                                   "tanh", "asinh", "atan", "erf", "erfc", "Abs", "sign",
                                   "Heaviside", "abs", *CATALOGUE]), children)
        .map(lambda p: f"{p[0]}({p[1]})"),
        st.tuples(st.sampled_from(["Max", "Min", "max", "min"]), st.lists(children, min_size=2, max_size=3))
        .map(lambda p: f"{p[0]}({', '.join(p[1])})"),
        st.tuples(children, st.sampled_from([">", "<", ">=", "<=", "=="]), children, children,
                  st.booleans())
        .map(lambda p: f"Piecewise(({p[2]}, ({p[0]}) {p[1]} 0), ({p[3]}, {p[4]}))"),
        children.map(lambda c: f"-({c})"),
    )


TREES = st.recursive(LEAVES, _extend, max_leaves=25)


# --- the properties ----------------------------------------------------------------------------

@FUZZ
@given(target=st.sampled_from(sorted(TARGETS)), text=st.text(CHARS, max_size=120))
def test_random_text(target: str, text: str) -> None:
    _run(target, text)


@FUZZ
@given(target=st.sampled_from(sorted(TARGETS)),
       text=st.text(st.sampled_from("z()+-*/^.,_ 0123456789eE<>=&|~[]'ab" + "".join(TOKENS[:12])),
                    max_size=80))
def test_random_text_from_the_expression_alphabet(target: str, text: str) -> None:
    _run(target, text)


@FUZZ
@given(target=st.sampled_from(sorted(TARGETS)), text=mutated())
def test_mutated_valid_expressions_and_catalogue_formulas(target: str, text: str) -> None:
    _run(target, text)


@FUZZ
@given(text=TREES)
@pytest.mark.slow
def test_random_well_formed_trees(text: str) -> None:
    _run("activation", text)


@FUZZ
@given(text=TREES.map(lambda t: t.replace("z", "sigma(a)", 1).replace("z", "b")))
def test_random_well_formed_forms(text: str) -> None:
    _run("form", text)


# ids without the temporary folder: the same on every run and in every pytest-xdist worker
@pytest.mark.parametrize("payload", PAYLOADS, ids=lambda payload: payload.replace(str(MARKER), "MARKER"))
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_payloads_are_refused_without_running(target: str, payload: str) -> None:
    with pytest.raises(SymcheckError):
        with trapped() as sprung:
            TARGETS[target](payload)
    assert not sprung and not MARKER.exists()


def test_the_traps_work() -> None:
    """The sandbox itself: a string eval, a code compile and a forbidden import are caught."""
    for attempt in (lambda: eval("1"), lambda: exec("x = 1"), lambda: compile("1", "<s>", "eval"),
                    lambda: __import__("subprocess")):
        with pytest.raises(CodeExecuted), trapped():
            attempt()


def test_limits_hold_at_their_edges() -> None:
    """The limits the README documents, exactly at and just past each edge."""
    from symcheck.language.parsing import LIMITS
    at_the_edge = ["z" * LIMITS.max_length, "(" * 30 + "z" + ")" * 30, "z" + "+z" * 99, "-" * 99 + "z",
                   "Max(" + ",".join(["z"] * 398) + ")", "1e300*z", "1e-300*z", "1" + "0" * 300,
                   "*".join(["1e300"] * 10), "z**100", "z**(1/100)", "((z**10)**10)**10"]
    past_the_edge = ["z" * (LIMITS.max_length + 1), "(" * 31 + "z" + ")" * 31, "z" + "+z" * 100,
                     "-" * 100 + "z", "Max(" + ",".join(["z"] * 399) + ")", "1e301*z", "1e-301*z",
                     "1" + "0" * 301, "*".join(["1e300"] * 11), "z**101", "z**(1/101)", "10**300",
                     "(((z**10)**10)**10)**2", "9**9**9"]
    for text in at_the_edge:
        _run("expression", text)
        parse_expression(text)
    for text in past_the_edge:
        with pytest.raises(SymcheckError):
            parse_expression(text)
