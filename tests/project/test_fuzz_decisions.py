"""No valid input ends in an internal error: random well-formed activations through the checks.

The parser's fuzz tests (test_fuzz.py) show that bad text is refused cleanly; these show that
text the parser *accepts* is decided cleanly: every exchange and scaling check of a random
valid activation — branch conditions with periodic and exponential terms, irrational break
points, algebraic and transcendental constants — exits 0 (or 2 if the activation is refused as
undefined somewhere on R), never 3. A failure inside SymPy may leave a decision open
(inconclusive), never crash it; only a bug in symcheck may reach the internal-error path.
"""
from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import invoke_cli

EXAMPLES = int(os.environ.get("SYMCHECK_DECISION_FUZZ_EXAMPLES", "20"))

ATOMS = ["z", "1", "2", "1/2", "sqrt(2)", "pi", "E", "sqrt(3)/2", "1 + sqrt(2)", "z**2", "z**3"]
UNARY = ["sin", "cos", "tanh", "exp", "atan", "erf", "asinh", "Abs", "sign"]
COMPARE = [">", ">=", "<", "<="]


@st.composite
def terms(draw, depth: int = 2) -> str:
    if depth == 0 or draw(st.booleans()):
        return draw(st.sampled_from(ATOMS))
    kind = draw(st.sampled_from(["unary", "binary", "max"]))
    if kind == "unary":
        return f"{draw(st.sampled_from(UNARY))}({draw(terms(depth - 1))})"
    if kind == "max":
        return f"{draw(st.sampled_from(['Max', 'Min']))}({draw(terms(depth - 1))}, {draw(terms(depth - 1))})"
    op = draw(st.sampled_from(["+", "-", "*"]))
    return f"({draw(terms(depth - 1))}) {op} ({draw(terms(depth - 1))})"


@st.composite
def activations(draw) -> str:
    body = draw(terms())
    if draw(st.booleans()):
        condition = f"{draw(terms(1))} {draw(st.sampled_from(COMPARE))} {draw(terms(1))}"
        body = f"Piecewise(({body}, {condition}), ({draw(terms(1))}, True))"
    return body


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(activations(), st.sampled_from([("exchange",), ("scaling", "--alpha", "positive"),
                                       ("scaling", "--alpha", "-1")]))
def test_valid_activations_never_exit_3(act: str, command: tuple[str, ...]) -> None:
    code, out, err = invoke_cli(*command, "--act", act, "--timeout", "4", "--json")
    assert code in (0, 2), f"symcheck {' '.join(command)} --act {act!r} exited {code}: {err}"
    if code == 0:
        result = json.loads(out)
        assert result["verdict"] in ("holds", "broken", "inconclusive")
        if result["verdict"] == "broken":
            assert result["witness"] is not None
    else:
        assert err.startswith("Error: ") and err.count("\n") == 1, err
