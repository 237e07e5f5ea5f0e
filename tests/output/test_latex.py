"""`symcheck latex`: every kind of document compiles with pdflatex, says what it should, shows no
SymPy internals, escapes text, and is the same every time it is generated."""
from __future__ import annotations

import dataclasses
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.cli import target_result
from symcheck.output import latex
from symcheck.output.documents import latex_document
from symcheck.paper.targets import PAPER

from support import invoke_cli, quick_few

PDFLATEX = shutil.which("pdflatex")
needs_pdflatex = pytest.mark.skipif(
    PDFLATEX is None, reason="pdflatex is not installed (Debian: apt-get install texlive-latex-base)")

#: every kind of generated document: derivations, checks that hold and break (a piecewise proof,
#: a custom form, a custom activation, an inconclusive one), an audit, the catalogue, everything
DOCUMENTS = {
    **{f"derivation-{name}": name for name in sc.DERIVATIONS},
    "exchange-broken": "exchange --act silu",
    "exchange-holds": "exchange --act silu --form rank1",
    "scaling-holds-piecewise": "scaling --act relu --alpha positive",
    "scaling-broken": "scaling --act gelu --alpha positive",
    "scaling-odd": "scaling --act tanh --alpha -1",
    "custom-form-holds-by-cases": "scaling --act relu --form 'sigma(a)*sigma(b)'",
    "custom-form-broken": "scaling --act relu --form 'Piecewise((a, a*b < 1), (b, True))'",
    "custom-activation": "scaling --act 'Piecewise((2*z, z > 0), (z/2, True))' --alpha any",
    "inconclusive": "exchange --act mish --timeout 0.01",
    "audit": "audit --act relu",
    "all": "all",
}
#: what SymPy prints for its objects: never in output meant for people
REPRS = re.compile(r"Symbol\(|MatMul\(|MatAdd\(|HadamardProduct\(|Piecewise\(\(|(?<![\\A-Za-z])sigma\(|"
                   r"\bMul\(|\bAdd\(|\bPow\(|Function\(|MatrixSymbol\(|ElementwiseApplyFunction|Lambda\(|"
                   r"Integer\(|Rational\(|Float\(|ImmutableMatrix|<function|object at 0x")


def compile_pdf(tmp_path: Path, text: str, name: str = "doc") -> Path:
    source = tmp_path / f"{name}.tex"
    source.write_text(text, encoding="ascii")
    done = subprocess.run([PDFLATEX, "-halt-on-error", "-interaction=nonstopmode", "-no-shell-escape",
                           source.name], cwd=tmp_path, capture_output=True, text=True, errors="replace",
                          timeout=300)
    errors = [line for line in done.stdout.splitlines() if line.startswith("!")]
    assert done.returncode == 0, f"pdflatex failed on {name}: {errors}\n{done.stdout[-3000:]}"
    pdf = tmp_path / f"{name}.pdf"
    assert pdf.exists() and pdf.stat().st_size > 1000
    return pdf


# ---- compilation --------------------------------------------------------------------------------

@needs_pdflatex
@pytest.mark.parametrize("kind", DOCUMENTS)
@pytest.mark.slow
def test_every_kind_of_document_compiles(tmp_path: Path, kind: str) -> None:
    compile_pdf(tmp_path, latex_document(target_result(DOCUMENTS[kind])), kind)


@needs_pdflatex
def test_a_proof_through_u_equals_ab_compiles_and_shows_the_change_of_variables(tmp_path: Path) -> None:
    from symcheck.engine.symmetries import check
    from symcheck.language.transformations import Transformation, domain
    result = check("hardtanh", Transformation("key-value-rescaling", domain(-1)), "rank1")
    body = latex.fragment(result)
    assert r"\textbf{Change of variables}" in body and "u = a b" in body and not REPRS.search(body)
    compile_pdf(tmp_path, latex.document(body), "product")


@needs_pdflatex
def test_fragments_input_into_a_paper_that_loads_only_amsmath_and_amssymb(tmp_path: Path) -> None:
    names = []
    for index, target in enumerate(["rank1", "scaling --act relu", "exchange --act silu --form rank1",
                                    "audit --act identity", "scaling"]):
        (tmp_path / f"part{index}.tex").write_text(latex_document(target_result(target), fragment=True),
                                                   encoding="ascii")
        names.append(rf"\input{{part{index}}}")
    paper = ("\\documentclass{article}\n\\usepackage{amsmath,amssymb}\n\\begin{document}\n"
             + "\n".join(names) + "\n\\end{document}\n")
    compile_pdf(tmp_path, paper, "paper")


HOSTILE = ["\\input{/etc/passwd}", "#1 $x$ 100% & {unbalanced", "}", "~^_\\\\ <a|b> \"quoted\"",
           "\\end{document}", "σ(a)·b ≠ σ(b)·a ⇒ α ∈ R^{d×d}, Q_jK_jᵀ, A⁻¹, x̂, 𝐐⊙𝐊, ∞ …",
           "emoji 🙂 and CJK 漢字 and ﬁ ligature", "Ω\u200b\u0007\ttab", "q_{js}^{", "R^{\\x}"]


def _random_text(seed: int, count: int = 400) -> str:
    rng = random.Random(seed)
    blocks = [(0x20, 0x7E), (0xA0, 0x24F), (0x370, 0x3FF), (0x2000, 0x22FF), (0x1D400, 0x1D7FF)]
    return "".join(chr(rng.randint(*rng.choice(blocks))) for _ in range(count))


@needs_pdflatex
def test_escaped_text_compiles_whatever_it_contains(tmp_path: Path) -> None:
    texts = HOSTILE + [_random_text(seed) for seed in range(5)]
    body = "\n\n".join(rf"\paragraph{{{latex.escape_text(t)}}} {latex.prose(t)} \emph{{{latex.escape_text(t)}}}"
                       for t in texts)
    compile_pdf(tmp_path, latex.document(body, title="hostile {text} #1 %"), "hostile")


# ---- escaping -----------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.text())
def test_escape_text_is_ascii_and_leaves_no_special_character_active(text: str) -> None:
    for escaped in (latex.escape_text(text), latex.prose(text)):
        assert escaped.isascii()
        # remove what the escaper writes on purpose; nothing active may remain
        rest = re.sub(r"\\[A-Za-z]+\{\}|\\[&%$#_{}]|\$[^$]*\$|\\[A-Za-z]+", "", escaped)
        assert not set(rest) & set("\\&%$#_{}~^"), (text, escaped, rest)


def test_escape_text_examples() -> None:
    assert latex.escape_text("50% & $5 #1 a_b {c}") == r"50\% \& \$5 \#1 a\_b \{c\}"
    assert latex.escape_text("\\input{x}") == r"\textbackslash{}input\{x\}"
    assert latex.escape_text("Q_jK_jᵀ A⁻¹") == r"Q\_jK\_j$^{\top}$ A$^{- 1}$"
    assert latex.escape_text("x̂") == r"$\hat{x}$"
    assert latex.escape_text("漢") == "[U+6F22]"
    assert latex.prose("keys k_j, W ∈ R^{d×d}; leaky_relu") == \
        r"keys $k_{j}$, $W \in \mathbb{R}^{d \times d}$; leaky\_relu"


def test_user_text_appears_only_as_the_formula_it_parses_to() -> None:
    text = latex_document(target_result("scaling --act 'Max(z, z/5)' --form 'sigma(a)*sigma(b)' --alpha any"))
    assert "Max(z" not in text and "sigma(a)*sigma(b)" not in text
    assert r"\sigma(z) = \max\left(\frac{z}{5}, z\right)" in text
    assert r"u(a, b) = \sigma{\left(a \right)} \sigma{\left(b \right)}" in text


# ---- content ------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", DOCUMENTS)
@pytest.mark.slow
def test_no_sympy_internals_and_pure_ascii(kind: str) -> None:
    target = DOCUMENTS[kind]
    item = target_result(target)
    items = item if isinstance(item, tuple) else (item,)
    outputs = [latex_document(target_result(target)), latex_document(target_result(target), fragment=True)]
    outputs += [i._repr_latex_() for i in items] + [i._repr_html_() for i in items]
    for text in outputs:
        found = REPRS.search(text)
        assert found is None, (kind, text[max(0, found.start() - 80):found.end() + 80])
    for text in outputs[:2] + outputs[2:2 + len(items)]:
        assert text.isascii(), sorted({c for c in text if not c.isascii()})


def test_standalone_document_and_fragment() -> None:
    document = latex_document(target_result("exchange --act silu"))
    fragment = latex_document(target_result("exchange --act silu"), fragment=True)
    assert document.startswith("\\documentclass") and r"\usepackage{amsmath,amssymb}" in document
    assert document.rstrip().endswith(r"\end{document}")
    assert "\\documentclass" not in fragment and "\\begin{document}" not in fragment
    assert fragment.strip() in document


def test_a_broken_check_states_everything_and_its_witness() -> None:
    text = latex_document(target_result("exchange --act silu"))
    assert r"\operatorname{silu}(z) = \frac{z}{1 + e^{- z}}" in text          # the activation
    assert r"\big(\sigma(xQ^\top) \odot (xK^\top)\big) V" in text              # the formulation
    assert r"(q, k) \mapsto (k, q)" in text                                     # the transformation
    for title in ("Statement", "Reduction", "Residual", "Witness", "Certificate", "Re-check"):
        assert rf"\textbf{{{title}}}" in text
    assert r"[\textit{certified}]" in text and r"[\textit{verified}]" in text  # statuses
    assert r"\textbf{Witness.} At $a = 2,\ b = 1$" in text


def test_a_proof_by_cases_shows_every_case_and_the_cover() -> None:
    text = latex_document(target_result("scaling --act relu"))
    assert text.count(r"\textbf{Case ") == 3 and r"\textbf{Cover}" in text
    assert r"\textbf{Proof.}" in text and "3 cases" in text and r"\alpha > 0" in text


def test_derivations_show_statement_formulations_steps_and_checks() -> None:
    text = latex_document("rank1")
    assert r"\textbf{Statement.}" in text and r"\textbf{Formulations.}" in text
    assert r"\textbf{bilinear}" in text and r"\textbf{rank1}" in text
    assert text.count(r"\item \hfill") == len(sc.derive("rank1").steps)
    assert "exact expansion, symbolic entries" in text and r"\odot" in text and r"\circ" not in text


@pytest.mark.parametrize("name", quick_few(["rank1", "gated", "rank-r"], {"rank1", "gated"}))
def test_hadamard_products_print_as_odot(name: str) -> None:
    text = latex_document(name)
    assert r"\odot" in text and r"\circ" not in text


@pytest.mark.slow
def test_activation_names_are_upright_operators() -> None:
    text = latex_document("audit")
    for name in ("relu", "gelu", "tanh", r"leaky\_relu", r"gelu\_tanh"):
        assert rf"\operatorname{{{name}}}" in text
    assert latex.math(sc.activation("silu").expr) == r"\frac{z}{1 + e^{- z}}"


@pytest.mark.slow
def test_documents_have_no_timings() -> None:
    result = sc.check_exchange("silu")
    slow = dataclasses.replace(result, elapsed=123.456)
    assert latex.result_fragment(result) == latex.result_fragment(slow)
    derivation = sc.derive("absorb")
    assert latex.derivation_fragment(derivation) == latex.derivation_fragment(
        dataclasses.replace(derivation, elapsed=99.0))
    assert not re.search(r"\d+(\.\d+)?\s*(s|seconds)\b", latex_document("all"))


@pytest.mark.slow
def test_every_paper_result_is_a_target_and_all_holds_them_in_order() -> None:
    text = latex_document("all")
    positions = [text.index(latex.fragment(target_result(name)).splitlines()[0]) for name in PAPER]
    assert positions == sorted(positions)


# ---- Jupyter ------------------------------------------------------------------------------------

@pytest.mark.parametrize("target", ["exchange --act silu", "absorb", "audit --act identity", "catalogue",
                                    "exchange"])
@pytest.mark.slow
def test_notebook_renderings(target: str) -> None:
    item = target_result(target)
    assert item._repr_latex_().startswith("$$")
    html = item._repr_html_()
    assert "<table>" in html and "<math>" in html  # MathML: laid out with no script, no network
    assert "\\(" not in html and "<script" not in html


def test_html_escapes_what_it_shows() -> None:
    html = sc.check_inverse_scaling("relu")._repr_html_()
    assert "z &lt; 0" in html and "z < 0" not in html


# ---- the command ---------------------------------------------------------------------------------

def test_cli_writes_a_file_or_prints(tmp_path: Path) -> None:
    out = tmp_path / "x.tex"
    code, stdout, err = invoke_cli("latex", "scaling", "--act", "tanh", "--alpha", "-1", "-o", str(out))
    assert code == 0 and not stdout and str(out) in err
    assert out.read_text() == latex_document(target_result("scaling --act tanh --alpha -1"))
    code, stdout, _ = invoke_cli("latex", "scaling --act tanh --alpha=-1", "--fragment")
    assert code == 0
    assert stdout == latex_document(target_result(["scaling", "--act", "tanh", "--alpha", "-1"]), fragment=True)


@pytest.mark.parametrize("args, message", [
    (("latex", "frobnicate"), "unknown target 'frobnicate'"),
    (("latex", "rank2"), "did you mean 'rank1'"),
    (("latex", "exchange", "--act"), "the exchange target: Option '--act' requires an argument"),
    (("latex", "exchange", "--act", "silu", "--alpha", "1"), "the exchange target: No such option '--alpha'"),
    (("latex", "exchange", "--act", "silu", "--json"), "--json and --expect have no meaning"),
    (("latex", "scaling", "--act", "relu", "--form", "sigma(c)"), "Error:"),
    (("latex", "audit", "--act", "log(z)"), "Error:"),
    (("latex", "absorb", "extra"), "takes no options"),
    (("latex", "exchange", "--act", "silu", "--timeout", "nan"), "between 0.01 and 86400 seconds"),
    (("latex", "exchange --act 'silu"), "cannot read the target"),
    (("latex",), "Missing argument"),
])
def test_cli_errors_are_one_line(args: tuple[str, ...], message: str) -> None:
    code, out, err = invoke_cli(*args)
    assert code == 2 and not out and err.startswith("Error:") and err.count("\n") == 1, err
    assert message in err


def test_inconclusive_evidence_counts_the_fallback_and_never_prints_none() -> None:
    """The LaTeX reads the same evidence as the text: the decider's and the fallback's points,
    and a largest |r| beyond float64 said in words (JSON carries it as null)."""
    import symcheck as sc
    from symcheck.core.verdict import Verdict
    from symcheck.engine.check_result import CheckResult
    from symcheck.language.transformations import Transformation
    from symcheck.language.unit_forms import form
    result = CheckResult(Transformation("exchange"), form("gated"), sc.activation("silu"),
                         Verdict.INCONCLUSIVE, None, (),
                         evidence={"points": 3, "largest": 0.5, "fallback": {"points": 7, "largest": None}})
    assert result.sampled == (10, None)
    text = latex.fragment(result)
    assert "10 points" in text and "beyond float64" in text and "None" not in text
    finite = CheckResult(Transformation("exchange"), form("gated"), sc.activation("silu"),
                         Verdict.INCONCLUSIVE, None, (), evidence={"points": 4, "largest": 0.25})
    assert "4 points" in latex.fragment(finite) and "0.25" in latex.fragment(finite)
