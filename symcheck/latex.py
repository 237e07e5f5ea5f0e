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


def audit_fragment(audit, notebook: bool = False) -> str:
    """The audit as a tabular (a MathJax array in notebooks, which cannot typeset tabular)."""
    import sympy
    rows = []
    for r in audit.rows:
        p = "" if r.degree is None else f"${sympy.latex(r.degree)}$"
        cells = [r.form, r.transformation, r.domain or "", r.verdict.value, p, r.basis]
        rows.append(cells)
    if notebook:
        body = r" \\ ".join(" & ".join(rf"\text{{{escape_text(c) if not c.startswith('$') else c.strip('$')}}}"
                                          if not c.startswith("$") else c.strip("$") for c in cells)
                             for cells in rows)
        return rf"$$\begin{{array}}{{llllll}} {body} \end{{array}}$$"
    lines = [rf"\paragraph{{Symmetry audit, {escape_text('σ')} = {escape_text(audit.activation)}}}",
             r"\begin{tabular}{llllll}", r"form & transformation & domain & verdict & $p$ & basis \\ \hline"]
    lines += [" & ".join(c if c.startswith("$") else escape_text(c) for c in cells) + r" \\" for cells in rows]
    lines.append(r"\end{tabular}")
    return "\n".join(lines)


# ---- derivations --------------------------------------------------------------------------------

if TYPE_CHECKING:
    from .derivations import Derivation

#: characters of derivation texts beyond escape_text's, as LaTeX (the body stays ASCII)
_MORE_TEXT = {"ᵀ": r"$^\top$", "⊙": r"$\odot$", "⊗": r"$\otimes$", "↦": r"$\mapsto$",
              "Σ": r"$\Sigma$", "𝐐": r"$\mathbf{Q}$", "𝐊": r"$\mathbf{K}$", "…": r"\dots{}",
              "×": r"$\times$", "–": "--", "—": "---", "′": "'", "β": r"$\beta$", "⊂": r"$\subset$",
              "\u0302": ""}


def _derivation_text(text: str) -> str:
    """escape_text, plus the matrix notation derivations use (x̂ becomes \\hat{x})."""
    out: list[str] = []
    for index, ch in enumerate(text):
        if index + 1 < len(text) and text[index + 1] == "\u0302":
            out.append(rf"$\hat{{{ch}}}$")
        elif ch in _MORE_TEXT:
            out.append(_MORE_TEXT[ch])
        else:
            out.append(escape_text(ch))
    return "".join(out)


def derivation_fragment(derivation: "Derivation", notebook: bool = False) -> str:
    """The statement, then each step: its formula, status, justification and the checks run."""
    status = derivation.status
    if notebook:  # MathJax renders math only: formulas and statuses, no prose
        rows = [rf"{n}. & {step.latex} & \text{{{step.status}}}" for n, step in enumerate(derivation.steps, 1)]
        return (rf"$$\begin{{array}}{{rll}} \multicolumn{{3}}{{l}}{{\textbf{{{derivation.name}}}:\ "
                rf"{derivation.statement_latex}\quad \text{{{status}}}}}\\ " + r"\\ ".join(rows) + r"\end{array}$$")
    lines = [rf"\paragraph{{{_derivation_text(derivation.name)}: {_derivation_text(derivation.title)} "
             rf"--- \textbf{{{status}}}}}",
             rf"\[ {derivation.statement_latex} \]" if derivation.statement_latex else
             _derivation_text(derivation.statement),
             r"\begin{enumerate}"]
    for step in derivation.steps:
        tag = " (definition)" if step.kind == "definition" else ""
        lines.append(rf"\item $\displaystyle {step.latex}$ \hfill [{step.status}{tag}]\\")
        lines.append(rf"\emph{{{_derivation_text(step.justification)}}}\\")
        checks = r"\\ ".join(rf"{_derivation_text(r.kind)} [{r.status}]: {_derivation_text(r.detail)}"
                             for r in step.checks)
        lines.append(rf"{{\small {checks}}}")
    lines.append(r"\end{enumerate}")
    return "\n".join(lines)
