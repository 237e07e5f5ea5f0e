"""The only place that builds LaTeX: result fragments and standalone documents."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .results import CheckResult

_PREAMBLE = r"""\documentclass{article}
\usepackage{amsmath,amssymb}
\usepackage[margin=2cm]{geometry}
\begin{document}
"""


def escape_text(text: str) -> str:
    """Plain text for a LaTeX text context (justifications contain σ, α, ⇒ …)."""
    replacements = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                    "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\^{}",
                    "σ": r"$\sigma$", "α": r"$\alpha$", "⇒": r"$\Rightarrow$", "⇐": r"$\Leftarrow$",
                    "⇔": r"$\Leftrightarrow$", "≠": r"$\neq$", "≈": r"$\approx$", "→": r"$\to$",
                    "·": r"$\cdot$", "−": "-", "∈": r"$\in$", "≡": r"$\equiv$", "≤": r"$\le$",
                    "≥": r"$\ge$"}
    return "".join(replacements.get(ch, ch) for ch in text)


def result_fragment(result: "CheckResult", notebook: bool = False) -> str:
    """The statement, each step with its status and justification, and the verdict."""
    lines = [rf"\paragraph{{{escape_text(result.title)}: \textbf{{{result.verdict.value}}}}}",
             r"\begin{enumerate}"]
    for step in result.steps:
        lines.append(rf"\item \textbf{{{escape_text(step.title)}}} [{step.status}]: "
                     rf"$\displaystyle {step.latex}$"
                     + (rf"\\ \emph{{{escape_text(step.justification)}}}" if step.justification else ""))
    lines.append(r"\end{enumerate}")
    if result.note:
        lines.append(rf"\noindent Note: {escape_text(result.note)}")
    body = "\n".join(lines)
    if notebook:  # Jupyter's MathJax renders math, not text-mode LaTeX: keep the steps as math
        rows = [rf"\text{{{step.title}}} & {step.latex} & \text{{{step.status}}}" for step in result.steps]
        return (rf"$$\begin{{array}}{{lll}} \multicolumn{{3}}{{l}}{{\textbf{{{result.verdict.value}}}}}\\ "
                + r"\\ ".join(rows) + r"\end{array}$$")
    return body


def document(body: str) -> str:
    return _PREAMBLE + body + "\n\\end{document}\n"
