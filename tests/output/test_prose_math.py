"""Formulas in the library's prose are set as math in LaTeX (issue 25 item 5).

The proof steps' justifications are Unicode prose (σ(a) = σ(1)·a, c = |a|^1); before, the LaTeX
renderer set them as text with one-symbol islands ($\\sigma$(a) = $\\sigma$(1)$\\cdot$a). The
scanner below finds such text in a document; every paper result's rendering must have none.
"""

from __future__ import annotations

import re

import pytest

from symcheck.output.latex import escape_text, prose
from symcheck.output.prose_formulas import formula_spans

_MATH = re.compile(r"\\\[.*?\\\]|\\\(.*?\\\)|(?<!\\)\$\$.*?\$\$|(?<!\\)\$.*?(?<!\\)\$", re.S)
#: a math island holding one symbol: what escape_text makes of a σ, ·, ≠ or ² met in text
_LONE = re.compile(r"\$(?:\\[A-Za-z]+(?:\{[A-Za-z]\})?|[-+]|[\^_]\{[^{}$]*\})\$")
_GLUED = r"[A-Za-z0-9=/^]|\\textbar\{\}|\\textasciicircum\{\}|\\[{}]|\x00|\x01"
_PROSE_MATH = re.compile(rf"(?:{_GLUED}|\))\x01|\x01(?:{_GLUED}|\()"  # σ(, x·q, α^p, 2σ
                         rf"|[\w)\x00\x01] (?:=|\\textless\{{\}}|\\textgreater\{{\}}) [\w(\x00\x01]"  # a = x
                         r"|\\textasciicircum\{\}|\\textbar\{\}")  # |a|^1


def math_as_text(tex: str) -> list[str]:
    """Places where ``tex`` sets math as text: one-symbol islands glued to letters, digits or
    other math, and relations, powers or bars written in text."""
    found = []
    for line in tex.splitlines():
        text = _MATH.sub(lambda m: "\x01" if _LONE.fullmatch(m.group()) else "\x00", line)
        found += [line for _ in _PROSE_MATH.finditer(text)][:1]
    return found


JUSTIFICATIONS = [  # written by engine/ and paper/, each with its formula
    ("⇒: put b = 1, so σ(a) = σ(1)·a. ⇐: if σ(z) = σ(1)·z both sides equal σ(1)·a·b.",
     ["b = 1", "σ(a) = σ(1)·a", "σ(z) = σ(1)·z", "σ(1)·a·b"]),
    ("s₁·a^1 = c·s₁: c = -1·|a|^1 and s₂ ≠ 0", ["s₁·a^1 = c·s₁", "c = -1·|a|^1", "s₂ ≠ 0"]),
    ("inverse scaling (q, k) → (αq, k/α), every α > 0 applied to a = x·q, b = x·k",
     ["(q, k) → (αq, k/α)", "α > 0", "a = x·q", "b = x·k"]),
    ("(e.g. a·b = b·a, (αa)(b/α) = ab), so no property of σ is needed", ["a·b = b·a", "(αa)(b/α) = ab"]),
    ("if σ(αz) = α^p·σ(z) for every α > 0; σ's values", ["σ(αz) = α^p·σ(z)", "α > 0"]),
    ("σ₊(s) = Σ p_k·s^k for small s > 0", ["σ₊(s) = Σ p_k·s^k", "s > 0"]),
    ("associativity and (AB)ᵀ = BᵀAᵀ; a sum over units of u(a_j, b_j)", ["(AB)ᵀ = BᵀAᵀ", "u(a_j, b_j)"]),
    ("G_σ's members: a ∈ {1}, c = a (each proved)", ["G_σ", "a ∈ {1}", "c = a"]),
]


@pytest.mark.parametrize(("text", "formulas"), JUSTIFICATIONS)
def test_the_formulas_of_a_justification_are_found(text: str, formulas: list[str]) -> None:
    assert [text[a:b] for a, b in formula_spans(text)] == formulas


@pytest.mark.parametrize("text", ["a sum over units of the gate, if it is so", "rank-1 and 1..3 sizes",
                                  "the identity (each proved, its certificate accepted)", "σ's argument"])
def test_words_are_not_formulas(text: str) -> None:
    assert formula_spans(text) == []


@pytest.mark.parametrize(("text", "_"), JUSTIFICATIONS)
def test_the_scanner_catches_text_math_and_prose_leaves_none(text: str, _: list[str]) -> None:
    assert math_as_text(escape_text(text)), "the scanner must catch the old rendering"
    assert math_as_text(prose(text)) == []


def test_typeset_shapes() -> None:
    assert prose("so σ(a) = σ(1)·a") == r"so $\sigma(a) = \sigma(1) \cdot a$"
    assert prose("c = |a|^12 and k_{js}") == r"$c = |a|^{12}$ and $k_{js}$"
    assert prose("σ₊(s) = Σ p_k·s^k") == r"$\sigma_{+}(s) = \sum p_{k} \cdot s^{k}$"
    assert prose("weights c_jK_jᵀ") == r"weights $c_{j}K_{j}^{\top}$"
    assert prose("z ∈ R, a ∈ {1}") == r"$z \in \mathbb{R}$, $a \in \{1\}$"


@pytest.fixture(scope="module")
def paper_tex() -> str:
    """A representative part of `symcheck latex all`: derivations, checks, a group, the layer groups."""
    from symcheck.cli import target_result
    from symcheck.output.documents import latex_document
    from symcheck.paper.targets import resolve
    results = [resolve(name) for name in ("rank1", "gated", "absorb", "rank-r")]
    results += [target_result(t) for t in ("exchange --act relu", "scaling --act relu --alpha positive",
                                           "scaling --act identity --alpha negative", "group --act relu",
                                           "group --act tanh", "audit --act relu")]
    return latex_document(tuple(results))


@pytest.mark.slow
def test_no_math_is_set_as_text_in_paper_results(paper_tex: str) -> None:
    assert math_as_text(paper_tex) == []
