"""symcheck.output.flow: a paragraph of words and formulas wraps between them, never inside a
formula, and loses nothing (generated paragraphs at every width)."""
from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table

from symcheck.output.flow import Flow, formula, words

_WORD = st.text(alphabet="abcxyz", min_size=1, max_size=7)
_FORMULA = st.lists(st.sampled_from(["a", "=", "−2", "σ(z)", "+", "max(0, z)", "α", "≠", "1/2"]),
                    min_size=1, max_size=6).map(" ".join)


def _printed(renderable, width: int) -> list[str]:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text().splitlines()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(_WORD.map(lambda w: ("w", w)), _FORMULA.map(lambda f: ("f", f))), min_size=1, max_size=12),
       st.integers(8, 60))
def test_a_formula_is_never_split_and_nothing_is_lost(parts, width: int) -> None:
    pieces = [formula(text) if kind == "f" else words(text) for kind, text in parts]
    lines = _printed(Flow(*[p for piece in pieces for p in (piece, words(" "))]), width)
    for kind, text in parts:  # a formula that fits the width is on one line, whole
        if kind == "f" and len(text) <= width:
            assert any(text in line for line in lines), (text, lines)
    assert all(len(line) <= width for line in lines)
    assert "".join("".join(lines).split()) == "".join(text.replace(" ", "") for _, text in parts)


def test_rich_would_split_the_formula_where_flow_does_not() -> None:
    """The case the layout exists for: at this width rich's own wrapping splits ``α = −2``."""
    sentence = "witness a = −1, b = 1, α = −2"
    assert not any("α = −2" in line for line in _printed(sentence, 26))
    flow = Flow(words("witness "), formula("a = −1"), words(", "), formula("b = 1"), words(", "), formula("α = −2"))
    assert any("α = −2" in line for line in _printed(flow, 26))


def test_a_newline_in_words_starts_a_line_and_the_measure_is_the_widest_formula() -> None:
    flow = Flow(formula("r(z) = −z + max(0, z)"), words("\nthe condition above"))
    assert flow.plain == "r(z) = −z + max(0, z)\nthe condition above"
    table = Table("statement")
    table.add_row(flow)
    console = Console(width=100, file=io.StringIO())
    from rich.measure import Measurement
    measured = Measurement.get(console, console.options, flow)
    assert measured.minimum == len("r(z) = −z + max(0, z)") and measured.maximum == len("r(z) = −z + max(0, z)")


def test_a_formula_wider_than_the_line_is_folded_not_cropped() -> None:
    long = " + ".join(f"x{i}" for i in range(20))
    lines = _printed(Flow(formula(long)), 30)
    assert "".join("".join(lines).split()) == long.replace(" ", "")
