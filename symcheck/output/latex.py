"""LaTeX documents, fragments for ``\\input``, and notebook renderings (with
:mod:`symcheck.output.formula_latex`, the only modules that write LaTeX).

Every renderer takes an immutable result and returns text; nothing here computes mathematics.
Documents are deterministic (no timings, no dates), pure ASCII, and need only ``amsmath`` and
``amssymb``: a fragment can be ``\\input`` into any paper that loads those two packages.

* prose that came from the library or the user goes through :func:`escape_text`, which makes
  every LaTeX special character literal and turns σ, ⇒, ᵀ … into their math-mode forms;
* formulas are either the statements of proof steps (``Step.formula``, printed by
  :mod:`symcheck.output.formula_latex`) or SymPy expressions printed by :func:`math`, which
  writes Hadamard products as ``\\odot`` as the paper does;
* activation names are upright operators, ``\\operatorname{silu}``; a user's own activation
  or unit form is shown as the formula it parses to, never as the text that was typed.

Jupyter: ``_repr_latex_`` gives a MathJax ``$$\\begin{array}…$$`` (MathJax typesets math, not
text-mode LaTeX), and ``_repr_html_`` (:func:`html`) a table whose formulas MathJax typesets.

>>> print(escape_text("σ(a)·b ≠ σ(b)·a for 50% of x_j"))
$\\sigma$(a)$\\cdot$b $\\neq$ $\\sigma$(b)$\\cdot$a for 50\\% of x\\_j
>>> A, B = sympy.MatrixSymbol("A", 2, 2), sympy.MatrixSymbol("B", 2, 2)
>>> print(math(sympy.HadamardProduct(A, B)))
A \\odot B
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sympy
from sympy.printing.latex import LatexPrinter

from symcheck.core.rendering import find, renderer
from symcheck.core.results import Step
from symcheck.core.verdict import Verdict
from symcheck.engine.check_result import CheckResult
from symcheck.language.activations import Activation
from symcheck.language.transformations import (
    Domain,
    StructuralKind,
    Transformation,
    TransformationKind,
    names,
    scale_symbol,
)
from symcheck.language.unit_forms import Form
from symcheck.numeric.model_report import VERDICTS as _MODEL_VERDICTS
from symcheck.numeric.model_report import ModelReport
from symcheck.output.prose_formulas import FUNCTIONS, formula_spans
from symcheck.paper.auditing import Audit, AuditRow
from symcheck.paper.derivations import Derivation, DerivationStatus, StepKind
from symcheck.paper.targets import Catalogue, PaperResult

PACKAGES = ("amsmath", "amssymb")

_PREAMBLE = r"""\documentclass[11pt]{article}
\usepackage{amsmath,amssymb}
\usepackage[margin=2cm]{geometry}
\allowdisplaybreaks
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.5ex}
"""


# ---- text ---------------------------------------------------------------------------------------

#: LaTeX's special characters, and ASCII that OT1 fonts print as something else (< > |)
_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
            "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", '"': "''"}
#: characters written in math mode (each becomes its own $…$)
_MATH = {
    "σ": r"\sigma", "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\varepsilon",
    "λ": r"\lambda", "μ": r"\mu", "ν": r"\nu", "ω": r"\omega", "π": r"\pi", "τ": r"\tau", "φ": r"\varphi",
    "θ": r"\theta",
    "Σ": r"\Sigma", "Π": r"\Pi", "Δ": r"\Delta",
    "⇒": r"\Rightarrow", "⇐": r"\Leftarrow", "⇔": r"\Leftrightarrow", "→": r"\to", "←": r"\leftarrow",
    "↦": r"\mapsto", "≠": r"\neq", "≈": r"\approx", "≡": r"\equiv", "≤": r"\le", "≥": r"\ge",
    "·": r"\cdot", "×": r"\times", "±": r"\pm", "∓": r"\mp", "∈": r"\in", "∉": r"\notin",
    "⊂": r"\subset", "⊆": r"\subseteq", "∪": r"\cup", "∩": r"\cap", "∀": r"\forall", "∃": r"\exists",
    "∞": r"\infty", "√": r"\surd", "⊙": r"\odot", "⊗": r"\otimes", "⊕": r"\oplus", "∘": r"\circ",
    "ℝ": r"\mathbb{R}", "𝐐": r"\mathbf{Q}", "𝐊": r"\mathbf{K}", "′": r"\prime", "∑": r"\sum",
    "−": "-", "°": r"^\circ", "∂": r"\partial", "∇": r"\nabla", "⟨": r"\langle", "⟩": r"\rangle",
}
#: characters written in text mode
_TEXT = {"…": r"\dots{}", "–": "--", "—": "---", "§": r"\S{}", "‘": "`", "’": "'", "“": "``",
         "”": "''", "\u00a0": " "}
_SUPERSCRIPT = {"ᵀ": r"\top", "⁻": "-", "⁺": "+", "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4",
                "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9", "ⁿ": "n", "ᵖ": "p"}
_SUBSCRIPT = {"₀": "0", "₁": "1", "₂": "2", "₃": "3", "₄": "4", "₅": "5", "₆": "6", "₇": "7",
              "₈": "8", "₉": "9", "ⱼ": "j", "ᵢ": "i", "₋": "-", "₊": "+"}
_ACCENTS = {"\u0302": r"\hat", "\u0303": r"\tilde", "\u0304": r"\bar", "\u0307": r"\dot"}


def escape_text(text: str) -> str:
    """``text`` as LaTeX for a text context: pure ASCII, every special character literal.

    Runs of superscript (ᵀ, ⁻¹) or subscript (₁) characters become one ``$^{…}$`` / ``$_{…}$``,
    a combining accent its ``\\hat{…}``; any other character outside ASCII that has no
    mapping is decomposed to ASCII where Unicode allows, else shown as ``[U+hex code]``.
    """
    out: list[str] = []
    chars = list(str(text))
    i = 0
    while i < len(chars):
        ch = chars[i]
        if i + 1 < len(chars) and chars[i + 1] in _ACCENTS:  # x̂ -> \hat{x}
            base = _MATH.get(ch) or (ch if ch.isascii() and ch.isalnum() else None)
            out.append(f"${_ACCENTS[chars[i + 1]]}{{{base}}}$" if base else _char(ch))
            i += 2
            continue
        for table, mark in ((_SUPERSCRIPT, "^"), (_SUBSCRIPT, "_")):
            if ch in table:
                run = []
                while i < len(chars) and chars[i] in table:
                    run.append(table[chars[i]])
                    i += 1
                out.append(f"${mark}{{{' '.join(run)}}}$")
                break
        else:
            out.append(_char(ch))
            i += 1
    return "".join(out)


def _char(ch: str) -> str:
    if ch in _SPECIAL:
        return _SPECIAL[ch]
    if ch.isascii():
        return ch if ch.isprintable() or ch == "\n" else " "
    if ch in _MATH:
        return f"${_MATH[ch]}$"
    if ch in _TEXT:
        return _TEXT[ch]
    if unicodedata.category(ch).startswith("M"):  # a stray combining mark
        return ""
    folded = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
    if folded and folded.isprintable():
        return "".join(_SPECIAL.get(c, c) for c in folded)
    return f"[U+{ord(ch):04X}]"


#: a word written with subscripts or superscripts, as the library's prose writes math: q_j,
#: Q_jK_jᵀ, k_{js}, R^{d×d}, xᵀ, A⁻¹
_SUP_CHARS = "".join(_SUPERSCRIPT)
_GROUP = rf"(?:_(?:\{{[^{{}}\s]{{1,12}}\}}|[A-Za-z0-9])|\^\{{[^{{}}\s]{{1,12}}\}}|[{_SUP_CHARS}]+)"
_MATH_WORD = re.compile(rf"(?<![A-Za-z0-9_\\])[A-Za-zΣ0-9']*(?:{_GROUP}[A-Za-zΣ0-9']*)+"
                        r"|(?<![A-Za-z0-9_])R(?![A-Za-z0-9_])")
_WORD_PART = re.compile(rf"({_GROUP})")
#: characters allowed inside a subscript or superscript group, besides letters and digits
_GROUP_CHARS = set("+-,.=()' ") | {"×", "≤", "≥", "·", "−", "∈"}


def _math_word(word: str) -> str | None:
    r"""One word of prose as math (no delimiters), or None when it does not read as math.

    Plain segments between the groups must be short (``xQ``, ``K``): ``leaky_relu`` is a name.
    """
    if word == "R":
        return r"\mathbb{R}"
    parts = _WORD_PART.split(word)
    plain = parts[0::2]
    if any(len(p.replace("'", "")) > 2 for p in plain) or not any(plain[:1]):
        return None
    out = []
    for index, part in enumerate(parts):
        if index % 2 == 0:
            out.append(r"\mathbb{R}" if part == "R" and index + 1 < len(parts) and parts[index + 1][0] in "^"
                       + _SUP_CHARS else "".join(_MATH.get(c, c) for c in part))
            continue
        if part[0] in _SUP_CHARS:
            out.append("^{" + " ".join(_SUPERSCRIPT[c] for c in part) + "}")
            continue
        inner = part[2:-1] if part[1] == "{" else part[1:]
        if any(not (c.isascii() and c.isalnum()) and c not in _GROUP_CHARS for c in inner):
            return None
        out.append(part[0] + "{" + " ".join(_MATH.get(c, c) if c in _MATH else c for c in inner) + "}")
    return "".join(out)


def prose(text: str) -> str:
    r"""Library prose as LaTeX: :func:`escape_text`, except that the formulas the library writes
    in its prose (σ(a) = σ(1)·a, c = |a|^1, (k, v) → (βk, v/β), a > 0, z ∈ R, K = W1; found by
    :mod:`symcheck.output.prose_formulas`) and words written the way the library writes math
    (``q_j``, ``Q_jK_jᵀ``, ``R^{d×d}``) are typeset as math.

    Only for text the library wrote; text from users goes through :func:`escape_text` alone.

    >>> print(prose("rows k_j of K, Q_g ∈ R^{d×d}; leaky_relu"))
    rows $k_{j}$ of K, $Q_{g} \in \mathbb{R}^{d \times d}$; leaky\_relu
    >>> print(prose("Case a > 0, z ∈ R: keys K = W1"))
    Case $a > 0$, $z \in \mathbb{R}$: keys $K = W_{1}$
    >>> print(prose("so σ(a) = σ(1)·a, and c = |a|^1"))
    so $\sigma(a) = \sigma(1) \cdot a$, and $c = |a|^{1}$
    """
    text = str(text)
    out, last = [], 0
    for start, end in formula_spans(text):
        formula = _formula(text[start:end])
        if formula is None:
            continue
        out.append(_words(text[last:start]))
        out.append(f"${formula}$")
        last = end
    out.append(_words(text[last:]))
    return "".join(out)


_FORMULA_TOKEN = re.compile(r"(?P<group>[_^])(?:\{(?P<braced>[^{}]*)\}"
                            r"|(?P<bare>(?<=_)[A-Za-z0-9α-ω]|(?<=\^)(?:[−-]?\d+|[A-Za-zα-ω])))"
                            r"|(?P<sup>[" + "".join(_SUPERSCRIPT) + r"]+)|(?P<sub>[" + "".join(_SUBSCRIPT) + r"]+)"
                            r"|(?P<function>\b(?:" + "|".join(sorted(FUNCTIONS)) + r")(?=\())"
                            r"|(?P<indexed>(?<![A-Za-z0-9])[A-Za-z](?=\d))(?P<index>\d+)"
                            r"|(?P<reals>(?<![A-Za-z])R(?![A-Za-z0-9]))|(?P<char>.)", re.DOTALL)
_OPERATOR_NAMES = {"sqrt": r"\operatorname{sqrt}", "sign": r"\operatorname{sign}", "erf": r"\operatorname{erf}"}


def _formula(span: str) -> str | None:
    r"""One formula of prose as math (no delimiters): ``σ(1)·a`` → ``\sigma(1) \cdot a``; None
    when it holds a character with no math spelling (it stays prose)."""
    out: list[str] = []
    for m in _FORMULA_TOKEN.finditer(span):
        if m["group"]:
            inner = _formula(m["braced"] if m["braced"] is not None else m["bare"])
            if inner is None:
                return None
            piece = f"{m['group']}{{{inner}}}"
        elif m["sup"] or m["sub"]:
            table, mark = (_SUPERSCRIPT, "^") if m["sup"] else (_SUBSCRIPT, "_")
            piece = mark + "{" + " ".join(table[c] for c in m["sup"] or m["sub"]) + "}"
        elif m["function"]:
            piece = _OPERATOR_NAMES.get(m["function"], "\\" + m["function"])
        elif m["indexed"]:
            piece = f"{m['indexed']}_{{{m['index']}}}"
        elif m["reals"]:
            piece = r"\mathbb{R}"
        else:
            ch = m["char"]
            if ch in "·×⊙→↦∈≠≤≥":  # binary: spaced as LaTeX spaces them
                piece = f" {_MATH[ch]} " if not (out and out[-1].endswith(" ")) else f"{_MATH[ch]} "
            elif ch in "{}":
                piece = "\\" + ch
            elif ch in "Σ∑" and span[m.end():m.end() + 1] in (" ", "_"):  # Σ p_k·s^k is a sum
                piece = r"\sum"
            elif ch in ("′", "'"):
                piece = "'"
            elif ch in _MATH:
                piece = _MATH[ch]
            elif ch.isascii() and ch not in _SPECIAL or ch in "<>|{}^_":
                piece = ch
            else:
                return None
        if out and re.search(r"\\[A-Za-z]+$", out[-1]) and piece[:1].isalnum():
            out.append(" ")
        out.append(piece)
    return re.sub(r" {2,}", " ", "".join(out)).replace(" )", ")").strip()


def _words(text: str) -> str:
    """Prose without relations: math words as math, the rest escaped."""
    out, last = [], 0
    for match in _MATH_WORD.finditer(str(text)):
        converted = _math_word(match.group())
        if converted is None:
            continue
        out.append(escape_text(text[last:match.start()]))
        out.append(f"${converted}$")
        last = match.end()
    out.append(escape_text(text[last:]))
    return "".join(out)


# ---- formulas -----------------------------------------------------------------------------------

class _Printer(LatexPrinter):
    """SymPy's printer with the paper's notation: ⊙ for Hadamard products (SymPy writes ∘)."""

    def _print_HadamardProduct(self, expr: sympy.HadamardProduct) -> str:
        return r" \odot ".join(self.parenthesize(arg, 1000) if isinstance(arg, sympy.MatAdd)
                               else self._print(arg) for arg in expr.args)


def math(expr: Any) -> str:
    """A SymPy expression as LaTeX math (no delimiters), in the paper's notation."""
    return _Printer().doprint(expr)


def _operator(name: str) -> str:
    r"""A catalogue name as an upright operator: ``leaky_relu`` → ``\operatorname{leaky\_relu}``."""
    return rf"\operatorname{{{escape_text(name)}}}"


def _activation_symbol(act: Activation) -> str:
    """σ's name in formulas: an operator for a catalogue activation, σ for the user's own."""
    return _operator(act.name) if act.builtin else r"\sigma"


def _activation_definition(act: Activation) -> str:
    r"""``\operatorname{silu}(z) = \frac{z}{1 + e^{-z}}`` (math, no delimiters)."""
    return rf"{_activation_symbol(act)}(z) = {math(act.expr)}"


def _sigma_is(act: Activation) -> str:
    """``\\sigma = \\operatorname{silu}``, or ``\\sigma(z) = …`` for the user's own σ (math)."""
    return rf"\sigma = {_activation_symbol(act)}" if act.builtin else _activation_definition(act)


# ---- unit forms, layers and transformations ----------------------------------------------------

_FORM_UNIT = {"gated": r"\sigma(a)\, b", "rank1": r"\sigma(a\, b)", "sigma(b)": r"\sigma(b)"}
_FORM_LAYER = {"gated": "gated", "rank1": "rank1", "sigma(b)": "mlp"}
#: each kind's map as math (its names are in :data:`symcheck.language.transformations.NAMES`)
_MAP: dict[str, str] = {
    TransformationKind.EXCHANGE: r"(q, k) \mapsto (k, q)",
    TransformationKind.INVERSE_SCALING: r"(q, k) \mapsto (\alpha q,\ k/\alpha)",
    TransformationKind.KEY_VALUE_RESCALING: r"(k, v) \mapsto (\beta k,\ v/\beta)",
    TransformationKind.QUERY_VALUE_RESCALING: r"(q, v) \mapsto (\alpha q,\ v/\alpha^{p})",
    StructuralKind.PERMUTATION: r"\text{units reordered}",
    StructuralKind.GAUGE: r"(Q_j, K_j) \mapsto (Q_j A,\ K_j A^{-\top})",
}


def _unit(form: Form | str) -> str:
    """The unit u(a, b) as math: a built-in form by its name, a custom form as it parsed."""
    name = form if isinstance(form, str) else form.name
    if name in _FORM_UNIT:
        return _FORM_UNIT[name]
    return math(form.expr) if isinstance(form, Form) and form.expr is not None else r"u(a, b)"


def _form_phrase(form: Form | str) -> str:
    """'the gated form' / 'the unit $u(a, b) = …$' (text)."""
    name = form if isinstance(form, str) else form.name
    if name in ("gated", "rank1"):
        return f"the {name} form"
    return rf"the unit $u(a, b) = {_unit(form)}$"


def _scale(t: Transformation) -> str:
    """``\alpha > 0`` for where a transformation's scale ranges, or '' (math)."""
    return "" if t.domain is None else t.domain.latex(t.scale)


def _domain(kind: TransformationKind | StructuralKind, domain: Domain | None) -> str:
    r"""``\alpha > 0`` (``\beta`` for key-value rescaling) for an audit row's scale, or '' (math)."""
    if domain is None:
        return ""
    return domain.latex(scale_symbol(kind))


def _symmetry_map(symmetry: str) -> str:
    return _MAP.get(symmetry, "")


def _heading(level: int, text: str) -> str:
    """An unnumbered heading, listed in a table of contents (sections and subsections)."""
    kind = f"{'sub' * level}section"
    listed = rf"\addcontentsline{{toc}}{{{kind}}}{{{text}}}" if level < 2 else ""
    return rf"\{kind}*{{{text}}}{listed}"


def _status(status: str) -> str:
    return rf"\textnormal{{[\textit{{{escape_text(status)}}}]}}"


def _verdict(verdict: str) -> str:
    return rf"\textbf{{{escape_text(verdict)}}}"


def _assignment(values: Mapping[str, Any]) -> str:
    """``a = 2,\\ b = 1`` from a witness (names → exact values)."""
    return r",\ ".join(f"{math(sympy.Symbol(str(k)))} = {math(sympy.sympify(v))}" for k, v in values.items())


# ---- check results ------------------------------------------------------------------------------

def _steps(steps: Sequence[Step]) -> list[str]:
    """A numbered list: title and status, the formula displayed, the justification."""
    lines = [r"\begin{enumerate}"]
    for step in steps:
        lines.append(rf"\item \textbf{{{prose(step.title)}}} \hfill {_status(step.status)}")
        if step.latex:
            lines.append(rf"\[ {step.latex} \]")
        if step.justification:
            lines.append(rf"{{\raggedright\emph{{{prose(step.justification)}}}\par}}")
    lines.append(r"\end{enumerate}")
    return lines


def result_title(result: CheckResult) -> str:
    """'Exchange on the gated form, $\\sigma = \\operatorname{silu}$' (text)."""
    where = _scale(result.transformation)
    return (f"{names(result.symmetry).title}{f', ${where}$,' if where else ''} on "
            f"{_form_phrase(result.form)}, ${_sigma_is(result.activation)}$")


def _result_setting(result: CheckResult) -> list[str]:
    """Activation, formulation and transformation: what the statement is about."""
    from symcheck.language.layer_formulations import FORMULATIONS
    lines = [rf"\textbf{{Activation.}} ${_activation_definition(result.activation)}$."]
    unit = rf"$u(a, b) = {_unit(result.form)}$ with $a = x\cdot q_j$, $b = x\cdot k_j$"
    layer = FORMULATIONS.get(_FORM_LAYER.get(result.form.name, ""))
    if layer is not None:
        unit += rf": the {escape_text(layer.name)} layer ${layer.latex}$"
    lines.append(rf"\textbf{{Formulation.}} Unit {unit}.")
    where = _scale(result.transformation)
    lines.append(rf"\textbf{{Transformation.}} {names(result.symmetry).title} "
                 rf"${_symmetry_map(result.symmetry)}$" + (rf", for ${where}$" if where else "") + ".")
    return lines


def _conclusion(result: CheckResult) -> list[str]:
    verdict = result.verdict
    if verdict is Verdict.BROKEN and result.witness:
        return [rf"\textbf{{Witness.}} At ${_assignment(result.witness)}$ (exact values) the two sides "
                r"of the statement differ: the certificate above shows that left $-$ right is not 0, by "
                r"exact or interval arithmetic, and an independent evaluator agrees. The symmetry is "
                r"\textbf{broken}."]
    if verdict is Verdict.HOLDS:
        how = (f"the residual is 0 on each of the {result.cases} cases, and the cases cover the whole domain"
               if result.cases else "the steps above reduce the statement to an identity")
        return [rf"\textbf{{Proof.}} Every step is verified or given: {how}. "
                r"The symmetry \textbf{holds}. $\blacksquare$"]
    lines = [r"\textbf{Inconclusive.} Neither a proof nor a certified witness was found"
             + (rf": {prose(result.note)}" if result.note else "") + "."]
    points, largest = result.sampled
    if points:
        shown = r"\text{beyond float64's range}" if largest is None else math(sympy.Float(largest, 6))
        lines.append(rf"Numeric evidence (not a proof): {points} points, largest $|r| \approx {shown}$.")
    return lines


@renderer("latex", CheckResult)
def result_fragment(result: CheckResult, notebook: bool = False, level: int = 1) -> str:
    """The statement, the formulation, each step with justification and status, the witness or proof."""
    if notebook:  # Jupyter's MathJax renders math, not text-mode LaTeX: keep the steps as math
        rows = [rf"\text{{{_mathjax_text(step.title)}}} & {step.latex} & \text{{{step.status}}}"
                for step in result.steps]
        return (rf"$$\begin{{array}}{{lll}} \multicolumn{{3}}{{l}}{{\textbf{{{result.verdict.value}}}:\ "
                rf"{_sigma_is(result.activation)}}}\\ " + r"\\ ".join(rows) + r"\end{array}$$")
    lines = [_heading(level, f"{result_title(result)}: {_verdict(result.verdict.value)}"), ""]
    setting = _result_setting(result)
    lines += [line + r"\\" for line in setting[:-1]] + setting[-1:]
    lines += _steps(result.steps)
    if result.note and result.verdict is not Verdict.INCONCLUSIVE:
        lines.append(rf"\textbf{{Note.}} {prose(result.note)}")
        lines.append("")
    lines += _conclusion(result)
    return "\n".join(lines) + "\n"


# ---- derivations --------------------------------------------------------------------------------

#: the formulations each derivation relates, shown with its statement
DERIVATION_FORMULATIONS = {"absorb": ("query-mlp", "mlp"), "rank1": ("bilinear", "rank1"),
                           "mlp": ("mlp", "bilinear"), "gated": ("rank1", "gated"),
                           "rank-r": ("bilinear", "rank-r", "rank1")}


@renderer("latex", Derivation)
def derivation_fragment(derivation: Derivation, notebook: bool = False, level: int = 1) -> str:
    """The statement, the formulations, then each step: formula, status, justification, checks run."""
    status = derivation.status
    if notebook:  # MathJax renders math only: formulas and statuses, no prose
        rows = [rf"{n}. & {step.latex} & \text{{{step.status}}}" for n, step in enumerate(derivation.steps, 1)]
        return (rf"$$\begin{{array}}{{rll}} \multicolumn{{3}}{{l}}{{\textbf{{{derivation.name}}}:\ "
                rf"{derivation.statement_latex}\quad \text{{{status}}}}}\\ " + r"\\ ".join(rows) + r"\end{array}$$")
    from symcheck.language.layer_formulations import FORMULATIONS
    lines = [_heading(level, rf"{prose(derivation.title)} ({escape_text(derivation.name)}): "
                             rf"{_verdict(status)}"), ""]
    if derivation.statement_latex:
        lines.append(rf"\textbf{{Statement.}} \[ {derivation.statement_latex} \]")
    else:
        lines.append(r"\textbf{Statement.} " + prose(derivation.statement))
    names = [n for n in DERIVATION_FORMULATIONS.get(derivation.name, ()) if n in FORMULATIONS]
    if names:
        lines.append(r"\textbf{Formulations.}")
        lines.append(r"\begin{itemize}")
        for name in names:
            f = FORMULATIONS[name]
            lines.append(rf"\item \textbf{{{escape_text(f.name)}}}, {prose(f.title)}: \[ {f.latex} \]")
        lines.append(r"\end{itemize}")
    lines.append(r"\textbf{Steps.} Each step is checked by the machine; a step is verified only when "
                 r"every check that applies shows the two sides equal.")
    lines.append(r"\begin{enumerate}")
    for step in derivation.steps:
        tag = " (definition)" if step.kind is StepKind.DEFINITION else ""
        lines.append(rf"\item \hfill {_status(step.status + tag)}")
        lines.append(rf"\[ {step.latex} \]")
        lines.append(rf"{{\raggedright\emph{{{prose(step.justification)}}}\par}}")
        lines.append(r"\begin{itemize}")
        for record in step.checks:
            lines.append(rf"\item {{\small \textbf{{{escape_text(record.name)}}} {_status(record.status)}: "
                         rf"{prose(record.detail)}}}")
        lines.append(r"\end{itemize}")
    lines.append(r"\end{enumerate}")
    if derivation.verified:
        lines.append(rf"\textbf{{Proof.}} All {len(derivation.steps)} steps are verified, so the statement "
                     r"holds for every $\sigma$. $\blacksquare$")
    else:
        open_steps = ", ".join(str(n) for n, s in enumerate(derivation.steps, 1) if not s.verified)
        small = ", ".join(str(n) for n, s in enumerate(derivation.steps, 1)
                          if s.status is DerivationStatus.EXPLICIT_ONLY)
        lines.append(rf"\textbf{{Not verified.}} Step(s) {open_steps} could not be verified"
                     + (rf" (step(s) {small} checked at explicit sizes only, not for every size)" if small else "")
                     + r"; the statement is not claimed.")
    return "\n".join(lines) + "\n"


# ---- the audit ----------------------------------------------------------------------------------

def _row_transformation(row: AuditRow) -> str:
    """'inverse scaling, $\\alpha > 0$' (text)."""
    kind = escape_text(names(row.transformation).short)
    where = _domain(row.transformation, row.domain)
    return f"{kind}, ${where}$" if where else kind


def _row_basis(row: AuditRow, notebook: bool = False) -> str:
    """The basis: a witness as exact math, the degree argument from its typed parts.

    Text mode writes math as ``$…$`` inside prose; a notebook's MathJax array cell is math
    with prose in ``\\text{…}``.
    """
    from symcheck.paper.auditing import Ground
    words: Callable[[str], str]
    if notebook:
        def words(s: str) -> str:
            return rf"\text{{{_mathjax_text(s)}}}"

        def formula(s: str) -> str:
            return s
    else:
        words = prose

        def formula(s: str) -> str:
            return f"${s}$"
    proof = words("witness ") + formula(_assignment(row.witness)) if row.witness else words(row.proof)
    if row.homogeneity is None:
        return proof
    if row.ground is Ground.NO_DEGREE and row.degree is not None:  # the pinned p, refuted
        return (words("no degree ") + formula("p") + words(" works: ") + proof + words(" refutes ")
                + formula(f"p = {math(row.degree)}") + words("; ")
                + _pin_text(row.homogeneity.pin, words, formula))
    degree = _degree_argument(row.homogeneity, words, formula)
    if row.ground is Ground.NO_DEGREE:
        return (words("no degree ") + formula("p") + words(" works: ") + degree
                + (words(" (") + proof + words(")") if row.witness else ""))
    return proof + words("; ") + degree


def _value(z: Any) -> str:
    return rf"\sigma({math(z)})"


def _pin_text(pin: Any, words: Any, formula: Any) -> str:
    """A :class:`symcheck.engine.homogeneity.Pin`: which certified ratio leaves one p."""
    from symcheck.engine.homogeneity import SCALE
    if pin.z == 0:
        return formula(r"\sigma(0) \neq 0") + words(" pins ") + formula("p = 0")
    named = "" if pin.p is None else f" = {math(pin.p)}"
    return (formula(rf"{_value(SCALE * pin.z)}/{_value(pin.z)} > 0") + words(" pins ")
            + formula(f"p{named}"))


def _degree_argument(decision: Any, words: Any, formula: Any) -> str:
    """The argument about every degree p (a :class:`symcheck.engine.homogeneity.Degree`)."""
    from symcheck.engine.homogeneity import SCALE, Conflict, OppositeSigns, Pinned, Vanishing, ZeroAndNonzero
    arg = decision.argument
    if isinstance(arg, OppositeSigns):
        return (formula(_value(arg.z)) + words(" and ") + formula(_value(SCALE * arg.z))
                + words(" have opposite signs, ") + formula("2^p > 0"))
    if isinstance(arg, ZeroAndNonzero):
        other = SCALE * arg.z if arg.zero_at == arg.z else arg.z
        return (formula(rf"{_value(arg.zero_at)} = 0 \neq {_value(other)}") + words(", ")
                + formula(r"2^p \neq 0"))
    if isinstance(arg, Conflict):
        return (_pin_text(arg.pin, words, formula) + words(", which fails at ")
                + formula(f"z = {math(arg.z)}"))
    if isinstance(arg, Pinned):
        return _pin_text(arg.pin, words, formula) + words(", every other sample agrees")
    if isinstance(arg, Vanishing):
        return formula(r"\sigma = 0") + words(" at every sampled point")
    return words(str(arg))


@renderer("latex", Audit)
def audit_fragment(audit: Audit, notebook: bool = False, level: int = 1, details: bool = True) -> str:
    """The audit as a table (form, transformation, verdict, degree p, basis), then each row's proof."""
    if notebook:  # MathJax cannot typeset tabular: an array of math and \text cells
        rows = [" & ".join([rf"\text{{{_mathjax_text(r.form)}}}",
                            rf"\text{{{_mathjax_text(names(r.transformation).short)}}}"
                            + (rf"\ {_domain(r.transformation, r.domain)}" if r.domain else ""),
                            rf"\text{{{r.verdict.value}}}", "" if r.degree is None else math(r.degree),
                            _row_basis(r, notebook=True)]) for r in audit.rows]
        return (r"$$\begin{array}{lllll} \text{form} & \text{transformation} & \text{verdict} & p & "
                r"\text{basis} \\ \hline " + r" \\ ".join(rows) + r" \end{array}$$")
    lines = [_heading(level, rf"Symmetry audit, ${_sigma_is(audit.activation)}$"), "",
             rf"\textbf{{Activation.}} ${_activation_definition(audit.activation)}$.", "",
             r"Every transformation on every formulation where it makes sense. Unit-level rows are "
             r"decided by the checks of the engine (a proof by cases, or a certified exact witness); "
             r"rows marked ``every $\sigma$'' hold because the bilinear argument itself is invariant.",
             "", r"\begin{center}\small", r"\begin{tabular}{lllcp{0.34\linewidth}}",
             r"form & transformation & verdict & $p$ & basis \\ \hline"]
    previous = None
    for row in audit.rows:
        p = "" if row.degree is None else f"${math(row.degree)}$"
        if previous is not None and row.form != previous:
            lines.append(r"\hline")
        form = escape_text(row.form) if row.form != previous else ""
        previous = row.form
        lines.append(rf"{form} & {_row_transformation(row)} & {escape_text(row.verdict.value)} & {p} & "
                     rf"{_row_basis(row)} \\")
    lines += [r"\end{tabular}", r"\end{center}"]
    if details:
        lines.append(_heading(level + 1, "Proofs and witnesses, row by row"))
        for row in audit.rows:
            lines.append(rf"\paragraph{{{escape_text(row.form)}: {_row_transformation(row)} --- "
                         rf"{_verdict(row.verdict.value)}.}}")
            if row.unit:
                lines.append(rf"Unit $u(a, b) = {_unit(row.unit)}$.")
            lines += _steps(row.steps)
    return "\n".join(lines) + "\n"


# ---- the catalogue sweep and the paper's results (symcheck.output.documents) ---------------------------

def _column(t: Transformation, scale: bool = True) -> str:
    where = _scale(t) if scale else ""
    return escape_text(names(t.name).column) + (f" ${where}$" if where else "")


@renderer("latex", Catalogue)
def catalogue_fragment(catalogue: Any, notebook: bool = False, level: int = 1) -> str:
    """Every catalogue activation × the columns: a verdict table, then each verdict's basis."""
    columns = catalogue.columns
    if notebook:
        head = r"\text{activation} & " + " & ".join(
            rf"\text{{{_mathjax_text(names(t.name).short)}}}" + (rf"\ {_scale(t)}" if t.domain else "")
            for t in columns)
        rows = [rf"{_activation_symbol(results[0].activation)} & "
                + " & ".join(rf"\text{{{r.verdict.value}}}" for r in results) for _, results in catalogue.rows]
        return (rf"$$\begin{{array}}{{l{'c' * len(columns)}}} {head} \\ \hline "
                + r" \\ ".join(rows) + r" \end{array}$$")
    lines = [_heading(level, rf"The catalogue: symmetries of {_form_phrase(catalogue.form)} for every "
                             r"activation"), "",
             rf"Unit $u(a, b) = {_unit(catalogue.form)}$. Each entry is a check of the engine: "
             r"\textbf{holds} with a proof covering all of $\mathbb{R}$, \textbf{broken} with an exact "
             r"witness certified by exact or interval arithmetic.", "",
             r"\begin{center}\small", rf"\begin{{tabular}}{{l{'c' * len(columns)}}}",
             "activation & " + " & ".join(_column(t, scale=False) for t in columns) + r" \\",
             " & " + " & ".join(f"${_scale(t)}$" if t.domain else "" for t in columns) + r" \\ \hline"]
    for _, results in catalogue.rows:
        lines.append(rf"${_activation_symbol(results[0].activation)}$ & "
                     + " & ".join(escape_text(r.verdict.value) for r in results) + r" \\")
    lines += [r"\end{tabular}", r"\end{center}", r"\textbf{Definitions, witnesses and proofs.}",
              r"\begin{itemize}"]
    for _, results in catalogue.rows:
        parts = []
        for t, r in zip(columns, results, strict=True):
            basis = (rf"broken at ${_assignment(r.witness)}$" if r.verdict is Verdict.BROKEN and r.witness
                     else escape_text(r.verdict.value))
            if r.verdict is Verdict.HOLDS:
                basis += (f" (proof by {r.cases} cases)" if r.cases else
                          r" (for every $\sigma$)" if r.every_sigma else " (direct proof)")
            parts.append(f"{_column(t)}: {basis}")
        lines.append(rf"\item ${_activation_definition(results[0].activation)}$.\\ {'; '.join(parts)}.")
    lines.append(r"\end{itemize}")
    return "\n".join(lines) + "\n"


@renderer("latex", PaperResult)
def paper_fragment(result: Any, notebook: bool = False, level: int = 0) -> str:
    """One of the paper's results: its statement, then every check or derivation that shows it."""
    if notebook:
        return "\n".join(_fragment(item, notebook=True) for item in result.items)
    lines = [_heading(level, escape_text(result.title)), "", rf"\textbf{{Result.}} {result.statement}", ""]
    lines += [_fragment(item, level=level + 1) for item in result.items]
    return "\n".join(lines)


def _fragment(item: Any, notebook: bool = False, level: int = 1) -> str:
    fragment_of = find("latex", type(item))
    return fragment_of(item, notebook=notebook) if notebook else fragment_of(item, level=level)


def fragment(item: Any) -> str:
    """The body for ``\\input`` of any renderable result (check, derivation, audit, paper result)."""
    return _fragment(item, level=0 if isinstance(item, PaperResult) else 1)


def document(body: str, title: str | None = None, contents: bool = False) -> str:
    """A standalone article around ``body`` (amsmath, amssymb); no date, so it is reproducible.
    ``contents``: a table of contents after the title (a long document of several results)."""
    head = _PREAMBLE + r"\begin{document}" + "\n"
    if title:
        head += rf"\begin{{center}}\Large {escape_text(title)}\end{{center}}" + "\n"
    if contents:
        head += r"\tableofcontents" + "\n"
    return head + body.rstrip("\n") + "\n\\end{document}\n"


# ---- Jupyter ------------------------------------------------------------------------------------

def _mathjax_text(text: str) -> str:
    """Text for ``\\text{…}`` inside MathJax: ASCII, with braces and backslashes removed."""
    plain = "".join(_PLAIN.get(ch, ch) for ch in str(text))
    return re.sub(r"[\\{}$&%#^_~]", " ", plain).encode("ascii", "replace").decode()


_PLAIN = {"σ": "sigma", "α": "alpha", "β": "beta", "·": "*", "≠": "!=", "≤": "<=", "≥": ">=",
          "−": "-", "…": "...", "ᵀ": "^T", "⊙": "(.)", "→": "->", "⇒": "=>", "⇔": "<=>", "∈": "in",
          "×": "x", "—": "--", "–": "-", "≈": "~"}


# ---- symmetry groups (symcheck.engine.group) ------------------------------------------------------

from symcheck.engine.group.formulations import FormulationSymmetries  # noqa: E402  (kept with its renderers)
from symcheck.engine.group.results import SymmetryGroup  # noqa: E402  (kept with its renderers)


def _group_heading(group: SymmetryGroup) -> str:
    return (rf"The symmetry group of ${_sigma_is(group.activation)}$: "
            + _verdict("complete" if group.complete else "partial"))


@renderer("latex", SymmetryGroup)
def group_fragment(group: SymmetryGroup, notebook: bool = False, level: int = 1) -> str:
    """The members with their proofs, the maximality argument, the inverse-scaling set."""
    if notebook:  # MathJax: the components and the argument as one array of math
        rows = [rf"\text{{member}} & {c.latex()} & \text{{proved}}" for c in group.components]
        rows += [rf"\text{{{_mathjax_text(s.title)}}} & {s.latex} & \text{{{s.status}}}" for s in group.maximality]
        state = "complete" if group.complete else "partial"
        return (rf"$$\begin{{array}}{{lll}} \multicolumn{{3}}{{l}}{{\textbf{{{state}}}:\ G_\sigma,\ "
                rf"{_sigma_is(group.activation)}}}\\ " + r"\\ ".join(rows) + r"\end{array}$$")
    lines = [_heading(level, _group_heading(group)), "",
             rf"\textbf{{Activation.}} ${_activation_definition(group.activation)}$.", "",
             r"\textbf{Group.} $G_\sigma = \{(a, c) : a \neq 0,\ \sigma(a z) = c\,\sigma(z)$ for every "
             r"real $z\}$, a group under $(a, c)(a', c') = (a a', c c')$.", "",
             r"\textbf{Members.} Each component is proved by the engine: $\sigma(a z) - c\,\sigma(z) = 0$ "
             r"for every $z$ and every $a$ of the component.", r"\begin{itemize}"]
    for component in group.components:
        lines.append(rf"\item ${component.latex()}$.")
        lines += _steps(component.steps)
    lines.append(r"\end{itemize}")
    lines.append(r"\textbf{Maximality.}" if group.complete else r"\textbf{What is known about the other pairs.}")
    lines += _steps(group.maximality)
    for excluded in group.excluded:
        lines.append(rf"Refuted: $(a, c) = ({math(excluded.a)}, {math(excluded.c)})$, certified at "
                     rf"${_assignment(excluded.witness)}$.")
        lines.append("")
    if group.complete:
        alphas = group.inverse_scaling_alphas()
        lines.append(rf"\textbf{{Inverse scaling.}} $\{{\alpha : (\alpha, \alpha) \in G_\sigma\}} = {math(alphas)}$.")
    if group.note:
        lines.append(rf"\textbf{{Note.}} {prose(group.note)}")
    return "\n".join(lines) + "\n"


@renderer("latex", FormulationSymmetries)
def formulation_symmetries_fragment(symmetries: FormulationSymmetries, notebook: bool = False,
                                    level: int = 1) -> str:
    """(q, k, v) -> (lambda q, mu k, nu v) on one unit: the condition and the families."""
    if notebook:
        return rf"$$\text{{{_mathjax_text(symmetries.form)}: }} {symmetries.condition_latex}$$"
    lines = [_heading(level, rf"Diagonal symmetries of the {escape_text(symmetries.form)} unit"), "",
             rf"$(q, k, v) \mapsto (\lambda q, \mu k, \nu v)$ is a symmetry iff ${symmetries.condition_latex}$.",
             r"\begin{itemize}"]
    lines += [rf"\item {prose(family)}" for family in symmetries.families()]
    lines.append(r"\end{itemize}")
    return "\n".join(lines) + "\n"


# ---- model reports (symcheck model DIR) ---------------------------------------------------------

_MODEL_COLUMNS = {"exchange": "exch.", "inverse-scaling-positive": r"$\alpha>0$",
                  "inverse-scaling-minus-one": r"$\alpha=-1$", "key-value-rescaling": "k--v"}


def _model_number(value: float | None) -> str:
    if value is None:
        return "n/a"
    if value == 0:
        return "$0$"
    mantissa, exponent = f"{value:.2e}".split("e")
    return rf"${mantissa} \cdot 10^{{{int(exponent)}}}$"


@renderer("latex", ModelReport)
def model_report_fragment(report: ModelReport, notebook: bool = False, level: int = 1) -> str:
    """One table row per layer: form, σ, sizes, the verdicts and the three measured figures."""
    if notebook:
        head = r"\text{layer} & \text{form} & \sigma & \text{exchange defect} & \text{rescaling} & \text{error}"
        rows = [rf"{r.index} & \text{{{_mathjax_text(r.form.name)}}} & \text{{{_mathjax_text(r.activation.name)}}}"
                + "".join(f" & {_model_number(v).strip('$')}" if v is not None else r" & \text{n/a}"
                          for v in (r.exchange_defect, r.rescaling_residual, r.relative_error))
                for r in report.layers]
        return r"$$\begin{array}{rlllll} " + head + r" \\ \hline " + r" \\ ".join(rows) + r" \end{array}$$"
    lines = [_heading(level, escape_text(f"{report.name} ({report.architecture.name}): MLP layers")), "",
             escape_text(f"{len(report.layers)} of {report.count} MLP layers on {report.inputs}. Each figure "
                         "is a relative change of the layer's output, ‖f′ − f‖ / ‖f‖: exchange swaps the "
                         "gate and up weights of every unit, rescaling doubles every key and halves its "
                         "value, and the error compares symcheck's evaluation with the block computed as "
                         "the framework writes it."), "",
             r"\begin{center}\small", r"\begin{tabular}{rlll" + "c" * len(_MODEL_VERDICTS) + "lll}",
             "layer & form & $\\sigma$ & $d, m$ & " + " & ".join(_MODEL_COLUMNS[k] for k in _MODEL_VERDICTS)
             + r" & exchange & rescaling & error \\ \hline"]
    for r in report.layers:
        verdicts = " & ".join("n/a" if (found := r.verdicts.get(k)) is None else escape_text(found.verdict.value)
                              for k in _MODEL_VERDICTS)
        lines.append(f"{r.index} & {escape_text(r.form.name)} & {escape_text(r.activation.name)} & "
                     f"{r.sizes.d}, {r.sizes.m} & {verdicts} & "
                     + " & ".join(_model_number(v) for v in (r.exchange_defect, r.rescaling_residual,
                                                             r.relative_error)) + r" \\")
    lines += [r"\end{tabular}", r"\end{center}"]
    return "\n".join(lines) + "\n"


# ---- layer groups (symcheck layer-group) --------------------------------------------------------

from symcheck.engine.group.layer import LayerGroup  # noqa: E402  (kept with its renderer)


@renderer("latex", LayerGroup)
def layer_group_fragment(group: LayerGroup, notebook: bool = False, level: int = 1) -> str:
    """The generators, the proof step by step, and what the group does not cover."""
    state = "complete" if group.complete else "partial"
    if notebook:
        rows = [rf"\text{{{_mathjax_text(s.title)}}} & {s.latex} & \text{{{s.status}}}" for s in group.proof]
        return (rf"$$\begin{{array}}{{lll}} \multicolumn{{3}}{{l}}{{\textbf{{{state}}}:\ \text{{{group.form} layer}},\ "
                rf"{_sigma_is(group.activation)}}}\\ " + r"\\ ".join(rows) + r"\end{array}$$")
    lines = [_heading(level, rf"Weight symmetries of the {escape_text(group.form)} layer, "
                             rf"${_sigma_is(group.activation)}$: " + _verdict(state)), "",
             rf"\textbf{{Activation.}} ${_activation_definition(group.activation)}$.", "",
             rf"\textbf{{Unit.}} {prose(group.unit)}.", "", r"\textbf{Members.}", r"\begin{itemize}"]
    lines += [rf"\item {prose(family)}" for family in group.families()]
    lines += [r"\end{itemize}", r"\textbf{Proof.}"]
    lines += _steps(group.proof)
    lines += [r"\textbf{Not covered.}", r"\begin{itemize}"]
    lines += [rf"\item {prose(item)}" for item in group.not_covered]
    lines.append(r"\end{itemize}")
    return "\n".join(lines) + "\n"


# ---- checkpoints moved, compared, made canonical (transform, equiv, canonical) -----------------

from symcheck.numeric.canonical import CanonicalReport  # noqa: E402  (kept with its renderers)
from symcheck.numeric.equiv import EquivReport  # noqa: E402
from symcheck.numeric.transform import TransformReport  # noqa: E402


def _checkpoint_fragment(title: str, lines: Sequence[str], table: tuple, notebook: bool, level: int,
                         wide: int | None = None) -> str:
    """A heading, the report's lines, then its table (``wide``: the column that wraps)."""
    head, rows = table
    if notebook:
        cells = [r" & ".join(rf"\text{{{_mathjax_text(c)}}}" for c in row) for row in (head, *rows)]
        return r"$$\begin{array}{" + "l" * len(head) + "} " + r" \\ ".join(cells) + r" \end{array}$$"
    spec = "".join(r"p{7cm}" if i == wide else "l" for i in range(len(head)))
    out = [_heading(level, escape_text(title)), ""]
    out += [escape_text(line) + r"\\" for line in lines]
    out += ["", r"\begin{center}\small", rf"\begin{{tabular}}{{{spec}}}",
            " & ".join(rf"\textbf{{{escape_text(h)}}}" for h in head) + r" \\ \hline"]
    out += [" & ".join(escape_text(c) for c in row) + r" \\" for row in rows]
    out += [r"\end{tabular}", r"\end{center}"]
    return "\n".join(out) + "\n"


@renderer("latex", TransformReport)
def transform_report_fragment(report: TransformReport, notebook: bool = False, level: int = 1) -> str:
    """The output, its groups and the rounding, then one row per layer: the element applied."""
    lines = [f"{report.output}: {report.architecture}, {len(report.layers)} MLP layers from {report.source}; "
             f"inputs: {report.inputs}."]
    lines += [f"σ = {g.activation.name}, {g.form}: gate a with {g.gate_values()}." for g in report.groups]
    lines.append("rounding: the largest relative change ‖f′(x) − f(x)‖/‖f(x)‖ of a layer's output over the input "
                 "rows, in float64.")
    return _checkpoint_fragment(f"Transformed checkpoint {report.output}", lines, report.table(), notebook, level)


@renderer("latex", EquivReport)
def equiv_report_fragment(report: EquivReport, notebook: bool = False, level: int = 1) -> str:
    """The models' verdict, then one row per layer: its verdict, the residual and why."""
    lines = [f"{report.first} vs {report.second} ({report.architecture}): {report.verdict}; inputs: {report.inputs}.",
             "residual: the largest entry of |B − g·A| in units of the dtype's rounding of g·A."]
    return _checkpoint_fragment(f"Equivalence: {report.verdict}", lines, report.table(), notebook, level, wide=3)


@renderer("latex", CanonicalReport)
def canonical_report_fragment(report: CanonicalReport, notebook: bool = False, level: int = 1) -> str:
    """The output, the normal form's rules, then one row per layer: what changed."""
    lines = [f"{report.output}: {report.architecture}, {len(report.layers)} MLP layers of {report.source} in "
             f"canonical form; inputs: {report.inputs}."]
    lines += [f"σ = {g.activation.name}, {g.form}: {rule}." for g, rules in zip(report.groups, report.rules,
                                                                              strict=True) for rule in rules]
    return _checkpoint_fragment(f"Canonical checkpoint {report.output}", lines, report.table(), notebook, level)
