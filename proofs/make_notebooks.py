"""Write the notebooks in proofs/ (outputs stripped) and the LaTeX the tool generates for each result.

    python proofs/make_notebooks.py           # rewrite every .ipynb and .tex in proofs/
    python proofs/make_notebooks.py --check   # exit 1, naming the stale files, if any differ

The notebooks are generated, not edited by hand, so they stay consistent with each other and
with the library; each imports symcheck and asserts what it shows. The .tex files are exactly
``symcheck latex NAME`` for the result NAME (see ``symcheck.output.documents.PAPER``).
"""
from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the checkout's symcheck, installed or not
REGENERATE = "python proofs/make_notebooks.py"

IMPORTS = """\
import sympy
import symcheck as sc
from symcheck import SIGMA, Sizes, input_row


def same(lhs, rhs):
    \"\"\"Exactly equal: the entrywise difference expands to 0 (σ left opaque where it is SIGMA).\"\"\"
    return (sympy.Matrix(lhs) - sympy.Matrix(rhs)).applyfunc(sympy.expand).is_zero_matrix"""


def tex_cell(name: str) -> str:
    return f"""\
from pathlib import Path

tex = sc.latex_document("{name}")   # exactly what `symcheck latex {name}` writes
assert tex == Path("{name}.tex").read_text(encoding="ascii"), "{name}.tex is stale: run {REGENERATE}"
print(*tex.splitlines()[7:12], sep="\\n")"""


def derivation_cells(name: str, markdown: str, extra: str = "") -> list[tuple[str, str]]:
    """Show the derivation, then assert that every step is verified (plus ``extra`` assertions)."""
    return [(markdown, f"""\
derivation = sc.derive("{name}")
derivation"""), ("", """\
assert derivation.verified, derivation
assert all(step.status == "verified" for step in derivation.steps)
# every step passed its exact check at explicit sizes, with σ opaque
assert all(any(c.kind == "explicit" and c.status == "verified" for c in step.checks) for step in derivation.steps)"""
                    + extra)]


# ---- one notebook per result: (title, introduction, [(markdown, code), …]) ----------------------

NOTEBOOKS: dict[str, tuple[str, str, list[tuple[str, str]]]] = {}

NOTEBOOKS["absorb"] = (
    "Query absorption",
    "An MLP with one global query matrix $Q_g \\in \\mathbb{R}^{d\\times d}$, "
    "$\\sigma((xQ_g)K^\\top)V$, is the standard MLP $\\sigma(xK'^\\top)V$ with keys $K' = KQ_g^\\top$: "
    "a global query is absorbed into the keys, so it adds nothing.",
    derivation_cells("absorb", "The derivation, every step checked by matrix-expression algebra with "
                     "symbolic dimensions and by exact expansion with symbolic entries at explicit sizes "
                     "(σ left opaque).") + [
     ("An independent check at one size: the query-MLP and the MLP with $K' = KQ_g^\\top$ give the same "
      "output row, entry for entry, for every σ.", """\
sizes = Sizes(d=3, m=2, e=2)
query_mlp, mlp = sc.formulation("query-mlp"), sc.formulation("mlp")
p = query_mlp.parameters(sizes)
lhs = query_mlp.explicit(None, sizes)
rhs = mlp.explicit(None, sizes, K=p["K"] * p["Q_g"].T, V=p["V"])
assert same(lhs, rhs)
sc.Math(lhs[0, 0])   # MathML: it renders in an HTML export with no script""")])

NOTEBOOKS["rank1"] = (
    "The rank-1 reduction",
    "Full bilinear attention $\\sum_j \\sigma(xQ_jK_j^\\top x^\\top)\\,v_j$ with rank-1 factors "
    "$Q_jK_j^\\top = q_j^\\top k_j$ is $\\sigma((xQ^\\top) \\odot (xK^\\top))V$: the query and the key are "
    "both computed from $x$, and σ acts on their product.",
    derivation_cells("rank1", "The derivation, every step machine-checked.") + [
     ("An independent check: bilinear attention with $r = 1$, $Q_j = q_j^\\top$, $K_j = k_j^\\top$ is the "
      "rank-1 layer, for every σ; its LaTeX writes the Hadamard product as $\\odot$.", """\
sizes = Sizes(d=2, m=3, e=1, r=1)
rank1, bilinear = sc.formulation("rank1"), sc.formulation("bilinear")
p = rank1.parameters(sizes)
units = {f"Q_{j}": p["Q"][j - 1, :].T for j in range(1, sizes.m + 1)}
units |= {f"K_{j}": p["K"][j - 1, :].T for j in range(1, sizes.m + 1)}
assert same(bilinear.explicit(None, sizes, V=p["V"], **units), rank1.explicit(None, sizes))
assert r"\\odot" in derivation.to_latex()
rank1""")])

NOTEBOOKS["mlp"] = (
    "The MLP as a special case",
    "The standard MLP $\\sigma(xW_1^\\top)W_2 = \\sum_j \\sigma(x\\cdot k_j)\\,v_j$ is a key-value memory. "
    "It is bilinear attention with the query factor made static: replacing $xQ_j$ by a constant $c_j$ "
    "gives $\\sigma(xW^\\top)V$, and every MLP arises this way (the bias trick).",
    derivation_cells("mlp", "The derivation; the step that makes the query static is a definition (it "
                     "changes the model), checked to be the expression claimed.", """
assert [step.kind for step in derivation.steps].count("definition") == 1""") + [
     ("An independent check: the MLP layer is the memory $\\sum_j \\sigma(x\\cdot k_j)\\,v_j$, written out "
      "unit by unit.", """\
sizes = Sizes(d=2, m=3, e=2)
mlp = sc.formulation("mlp")
p, x = mlp.parameters(sizes), input_row(sizes.d)
memory = sympy.zeros(1, sizes.e)
for j in range(sizes.m):
    memory += SIGMA((x * p["K"][j, :].T)[0, 0]) * p["V"][j, :]
assert same(mlp.explicit(None, sizes), memory)
sc.Math(memory)""")])

NOTEBOOKS["gated"] = (
    "The gated form",
    "The conventional gated MLP $(\\sigma(xQ^\\top) \\odot (xK^\\top))V$ (the GLU family: SwiGLU, GEGLU, "
    "ReGLU …) is the rank-1 form $\\sigma((xQ^\\top) \\odot (xK^\\top))V$ with σ moved from the product "
    "onto the query factor, $\\sigma(a_jb_j) \\mapsto \\sigma(a_j)\\,b_j$. That is a change of model, "
    "stated as a definition: the two layers agree only when σ is linear.",
    derivation_cells("gated", "The derivation, every step machine-checked.", """
assert [step.kind for step in derivation.steps] == ["identity", "identity", "definition", "identity"]""") + [
     ("The GLU family are instances of the gated form.", """\
swiglu = sc.formulation("swiglu")
assert swiglu.base == "gated" and swiglu.activation == "silu"   # LLaMA's MLP is the gated form"""),
     ("With σ = silu the two units differ: at $a = 1$, $b = 2$ the rank-1 unit is $\\sigma(2)$ and the "
      "gated one $2\\sigma(1)$, certified different by interval arithmetic. With a linear σ the two layers "
      "are the same.", """\
silu = sc.activation("silu")
certificate = sc.certify_nonzero(silu(2) - 2 * silu(1), {})
assert certificate is not None and certificate.sign == 1

identity, sizes = sc.activation("identity"), Sizes(d=2, m=2, e=1)
assert same(sc.formulation("rank1").explicit(identity, sizes), sc.formulation("gated").explicit(identity, sizes))
certificate.decimal()""")])

NOTEBOOKS["exchange"] = (
    "The exchange theorem",
    "For the gated unit $g(a, b) = \\sigma(a)\\,b$ the exchange $(q, k) \\mapsto (k, q)$ is a symmetry if "
    "and only if $\\sigma(z) = \\sigma(1)\\,z$ for every real $z$ (put $b = 1$). Every nonlinear σ breaks it, "
    "an affine one included; for the rank-1 unit $\\sigma(a\\,b)$ it holds for every σ. A verdict "
    "`broken` comes with an exact witness certified by exact or interval arithmetic; `holds` with a proof.",
    [("", """\
result = sc.paper_result("exchange")
result"""),
     ("", """\
silu, affine, identity, rank1 = result.items
assert (silu.verdict.value, affine.verdict.value) == ("broken", "broken")
assert (identity.verdict.value, rank1.verdict.value) == ("holds", "holds")
assert all(value.is_Rational for value in silu.witness.values())
assert [s.status for s in silu.steps if s.title == "Certificate"] == ["certified"]
dict(silu.witness)"""),
     ("The witness, re-checked here: σ(a)·b − σ(b)·a at the exact point is certified non-zero.", """\
act, (a, b) = sc.activation("silu"), (silu.witness["a"], silu.witness["b"])
assert sc.certify_nonzero(act(a) * b - act(b) * a, {}) is not None"""),
     ("Over the whole catalogue, exchange holds on the gated unit for the identity alone.", """\
holding = [act.name for act in sc.catalogue() if sc.check_exchange(act).verdict.value == "holds"]
assert holding == ["identity"], holding
holding"""),
     ("The antisymmetric part $\\sigma(a)\\,b - \\sigma(b)\\,a$ for silu: it vanishes on the diagonal "
      "$a = b$ and on the axes (silu(0) = 0), and nowhere near all of the plane.", """\
import io
import numpy as np
from IPython.display import Image

a, b, d = sc.exchange_defect(sc.activation("silu"))
assert np.abs(np.diagonal(d)).max() == 0 and np.abs(d).max() > 1
buffer = io.BytesIO()
sc.exchange_figure("silu").savefig(buffer, format="png", dpi=72)
Image(buffer.getvalue())"""),
     ("The LaTeX in this folder is what the tool generates for this result.", tex_cell("exchange"))])

NOTEBOOKS["scaling"] = (
    "The inverse-scaling theorem",
    "For the gated unit the inverse scaling $(q, k) \\mapsto (\\alpha q, k/\\alpha)$ is a symmetry for every "
    "$\\alpha > 0$ if and only if σ is positively homogeneous of degree 1, for $\\alpha = -1$ if and only if "
    "σ is odd, and for every $\\alpha \\neq 0$ if and only if σ is linear. The rank-1 unit keeps it for every "
    "σ. ReLU's proof is a case split that covers all of $\\mathbb{R}$.",
    [("", """\
result = sc.paper_result("scaling")
result"""),
     ("", """\
relu, gelu, tanh, relu_any, rank1 = result.items
verdicts = [r.verdict.value for r in result.items]
assert verdicts == ["holds", "broken", "holds", "broken", "holds"], verdicts
cases = [s for s in relu.steps if s.title.startswith("Case")]
assert len(cases) >= 2 and all(s.status == "verified" for s in cases)   # a piecewise proof
assert [s.status for s in gelu.steps if s.title == "Certificate"] == ["certified"]
[s.title for s in relu.steps]"""),
     ("Over the catalogue: $\\alpha > 0$ keeps exactly the positively homogeneous activations, "
      "$\\alpha = -1$ exactly the odd ones, $\\alpha \\neq 0$ only the identity.", """\
def holding(alpha):
    return [a.name for a in sc.catalogue() if sc.check_inverse_scaling(a, alpha).verdict.value == "holds"]

assert holding("positive") == ["relu", "leaky_relu", "identity"]
assert holding(-1) == ["tanh", "softsign", "hardtanh", "tanhshrink", "softshrink", "hardshrink", "sin", "identity"]
assert holding("any") == ["identity"]"""),
     ("The scaling defect $\\sigma(\\alpha a)/\\alpha - \\sigma(a)$ for gelu: zero at $\\alpha = 1$ and at "
      "$a = 0$, not elsewhere.", """\
import io
import numpy as np
from IPython.display import Image

alphas, a, e = sc.scaling_defect(sc.activation("gelu"))
middle = a.shape[0] // 2
assert a[middle, 0] == 0 and np.abs(e[middle]).max() == 0 and np.nanmax(np.abs(e)) > 0.1
buffer = io.BytesIO()
sc.scaling_figure("gelu").savefig(buffer, format="png", dpi=72)
Image(buffer.getvalue())"""),
     ("The LaTeX in this folder is what the tool generates for this result.", tex_cell("scaling"))])

NOTEBOOKS["rank-r"] = (
    "Rank r",
    "Bilinear attention is the low-rank family: $Q_jK_j^\\top = \\sum_{s\\le r} q_{js}^\\top k_{js}$, so "
    "$xQ_jK_j^\\top x^\\top = \\sum_s (x\\cdot q_{js})(x\\cdot k_{js})$. The rank-1 form is $r = 1$, and "
    "$r = d$ contains every bilinear form.",
    derivation_cells("rank-r", "The derivation, every step machine-checked.") + [
     ("An independent check at $r = 2$: the rank-r layer is bilinear attention, for every σ.", """\
sizes = Sizes(d=2, m=2, e=1, r=2)
rank_r, bilinear = sc.formulation("rank-r"), sc.formulation("bilinear")
assert same(rank_r.explicit(None, sizes), bilinear.explicit(None, sizes))
rank_r""")])

NOTEBOOKS["audit"] = (
    "The symmetry audit over the catalogue",
    "Every catalogue activation against exchange, inverse scaling (α > 0, α < 0, α = −1, α ≠ 0) and "
    "key-value rescaling on the gated unit, each verdict backed by a proof or a certified exact witness; "
    "then ReLU's full audit, every formulation against every transformation, and the full audit of "
    "every catalogue activation.",
    [("", """\
result = sc.paper_result("audit")
table, relu = result.items
table"""),
     ("", """\
def holding(symmetry, domain=None):
    return [name for name, _ in table.rows if table.verdict(name, symmetry, domain) == "holds"]

assert holding("exchange") == ["identity"]
assert holding("inverse-scaling", "positive") == ["relu", "leaky_relu", "identity"]
assert holding("inverse-scaling", "negative") == ["identity"]
assert holding("inverse-scaling", "-1") == ["tanh", "softsign", "hardtanh", "tanhshrink", "softshrink",
                                            "hardshrink", "sin", "identity"]
assert holding("inverse-scaling", "any") == ["identity"]
assert len(holding("key-value-rescaling", "positive")) == len(table.rows) == len(sc.catalogue())
for name, results in table.rows:   # nothing is left open, and every `broken` has an exact witness
    for r in results:
        assert r.verdict.value in ("holds", "broken"), (name, r.title)
        assert r.verdict.value == "holds" or all(v.is_Rational for v in r.witness.values())"""),
     ("ReLU's full audit: every formulation against every transformation.", """\
relu"""),
     ("", """\
assert all(r.verdict.value != "inconclusive" for r in relu.rows)
assert relu.row("gated", "exchange").verdict.value == "broken"
assert relu.row("rank1", "exchange").verdict.value == "holds"
assert relu.row("gated", "query-value-rescaling", "positive").degree == 1
assert relu.row("bilinear", "gauge").verdict.value == "holds"
relu.row("gated", "inverse-scaling", "positive").basis"""),
     ("The full audit of every catalogue activation: nothing is left inconclusive; the rank-1 unit "
      "keeps exchange and inverse scaling and the bilinear argument its gauge for every σ; the "
      "gated unit keeps key-value rescaling for every σ, and query-value rescaling only for the "
      "positively homogeneous activations, with their degree p.", """\
audits = {a.name: sc.audit(a.name) for a in sc.catalogue()}
assert all(r.verdict.value != "inconclusive" for audit in audits.values() for r in audit.rows)
for audit in audits.values():
    assert audit.row("rank1", "exchange").verdict.value == "holds"
    assert all(audit.row("rank1", "inverse-scaling", d).verdict.value == "holds"
               for d in ("positive", "negative", "-1", "any"))
    assert audit.row("gated", "key-value-rescaling", "positive").verdict.value == "holds"
    assert audit.row("bilinear", "exchange").verdict.value == "holds"
    assert audit.row("bilinear", "gauge").verdict.value == "holds"
    # a broken row has one certified rational witness, or (no degree p works) certified
    # points that each refute the degrees they exclude
    assert all(r.verdict.value == "holds"
               or (r.witness is not None and all(v.is_Rational for v in r.witness.values()))
               or (r.homogeneity is not None and r.homogeneity.refutations
                   and all(f.z.is_Rational for f in r.homogeneity.refutations))
               for r in audit.rows)
query_value = {name: audit.row("gated", "query-value-rescaling", "positive") for name, audit in audits.items()}
homogeneous = {name: row.degree for name, row in query_value.items() if row.verdict.value == "holds"}
assert homogeneous == {"relu": 1, "leaky_relu": 1, "relu2": 2, "identity": 1}
homogeneous"""),
     ("The LaTeX in this folder is what the tool generates for this result.", tex_cell("audit"))])

def group_cells() -> list[tuple[str, str]]:
    """The symmetry group of every catalogue activation, derived, and the published ones asserted."""
    return [("", """\
groups = {g.activation.name: g for g in sc.paper_result("group").items}
assert list(groups) == [a.name for a in sc.catalogue()]
assert all(g.complete for g in groups.values()), [n for n, g in groups.items() if not g.complete]
{name: "; ".join(c.describe() for c in g.components) for name, g in groups.items()}"""),
     ("The groups worked out by hand in Godfrey et al. (NeurIPS 2022, *intertwiner groups*): ReLU and "
      "leaky ReLU allow every positive rescaling, tanh (and sin) a sign flip, GELU, SiLU and sigmoid "
      "nothing but the identity. Each is reproduced with a proof of every member and of maximality.", """\
published = {
    "identity": ["a ≠ 0, c = a"],
    "relu": ["a > 0, c = a"], "leaky_relu": ["a > 0, c = a"],
    "tanh": ["a ∈ {1, -1}, c = a"], "sin": ["a ∈ {1, -1}, c = a"],
    "gelu": ["a ∈ {1}, c = a"], "silu": ["a ∈ {1}, c = a"], "sigmoid": ["a ∈ {1}, c = a"],
}
for name, components in published.items():
    assert [c.describe() for c in groups[name].components] == components, name
# membership is three-valued and decided here: True with a proof, False with a certified witness
assert groups["relu"].contains(3, 3) is True and groups["relu"].contains(-1, -1) is False
assert groups["tanh"].contains(-1, -1) is True and groups["tanh"].contains(2, 2) is False
assert groups["gelu"].contains(1, 1) is True and groups["gelu"].contains(-1, -1) is False
groups["relu"]"""),
     ("The inverse scaling $(q, k) \\mapsto (\\alpha q, k/\\alpha)$ of the gated unit holds exactly for the "
      "$\\alpha$ with $(\\alpha, \\alpha) \\in G_\\sigma$.", """\
alphas = {name: g.inverse_scaling_text() for name, g in groups.items()}
assert [n for n, g in groups.items() if g.inverse_scaling("positive")] == ["relu", "leaky_relu", "identity"]
assert [n for n, g in groups.items() if g.inverse_scaling("-1")] == [
    "tanh", "softsign", "hardtanh", "tanhshrink", "softshrink", "hardshrink", "sin", "identity"]
alphas"""),
     ("Activations of one's own work the same way: $|z|$, $z^2$, $\\max(z, 0)^3$, $\\operatorname{sign} z$, "
      "$\\cos z$, $e^{-z^2}$, and the log-periodic $z\\cos(2\\pi\\log_2|z|)$, whose group is the discrete "
      "$\\{(a, (-1)^j a) : |a| = \\sqrt{2}^{\\,j}\\}$ (so $(\\alpha, \\alpha) \\in G$ exactly for "
      "$\\alpha = \\pm 2^k$).", """\
custom = {spec: sc.symmetry_group(spec) for spec in (
    "Abs(z)", "z**2", "Max(z, 0)**3", "sign(z)", "cos(z)", "exp(-z**2)",
    "Piecewise((z*cos(2*pi*log(Abs(z))/log(2)), Ne(z, 0)), (0, True))")}
assert all(g.complete for g in custom.values())
described = {spec: [c.describe() for c in g.components] for spec, g in custom.items()}
assert described["Abs(z)"] == ["a ≠ 0, c = Abs(a)"] and described["z**2"] == ["a ≠ 0, c = a**2"]
assert described["Max(z, 0)**3"] == ["a > 0, c = a**3"] and described["sign(z)"] == ["a ≠ 0, c = sign(a)"]
assert described["cos(z)"] == described["exp(-z**2)"] == ["a ∈ {1, -1}, c = 1"]
log_periodic = custom["Piecewise((z*cos(2*pi*log(Abs(z))/log(2)), Ne(z, 0)), (0, True))"]
assert log_periodic.inverse_scaling_text() == "α = ±2^n, n ∈ Z"
assert log_periodic.contains(sympy.sqrt(2), -sympy.sqrt(2)) is True
described"""),
     ("What the group means for each formulation: $(q, k, v) \\mapsto (\\lambda q, \\mu k, \\nu v)$ is a "
      "symmetry of the gated unit iff $(\\lambda, 1/(\\mu\\nu)) \\in G$, of the rank-1 unit iff "
      "$(\\lambda\\mu, 1/\\nu) \\in G$, of the MLP iff $(\\mu, 1/\\nu) \\in G$.", """\
relu = groups["relu"]
assert relu.formulation_symmetries("gated").holds(2, 3, sympy.Rational(1, 6)) is True
assert relu.formulation_symmetries("rank1").holds(-2, -1, sympy.Rational(1, 2)) is True
assert relu.formulation_symmetries("mlp").holds(1, -1, -1) is False
relu.formulation_symmetries("gated")"""),
     ("The LaTeX in this folder is what the tool generates for this result.", tex_cell("group"))]


NOTEBOOKS["group"] = (
    "The symmetry groups of the catalogue",
    "For each activation σ, the group $G_\\sigma = \\{(a, c) : a \\neq 0,\\ \\sigma(az) = c\\,\\sigma(z)"
    "\\ \\forall z\\}$: every member comes with the engine's proof that $\\sigma(az) - c\\,\\sigma(z) \\equiv 0$, "
    "and maximality with a mechanical argument (values at a point, Taylor coefficients at 0, break "
    "points, the log-periodic form), each step shown.",
    group_cells())

NOTEBOOKS["weight-symmetries"] = (
    "Weight symmetries of MLP layers, proved and applied to a checkpoint",
    "The per-unit weight symmetries of a gated layer $\\sigma(q_j x + b_j)(k_j x + e_j) v_j$ and of a plain "
    "MLP, derived from $G_\\sigma$: permutations, the value path scaled by any $\\lambda \\neq 0$, the gate "
    "scaled by $a$ with the value path divided by $c$ for $(a, c) \\in G_\\sigma$. Then the SwiGLU layers of "
    "the shipped `examples/tiny-llama` moved along their group (`transform`), the move found again "
    "(`equiv`), an illegal move refused, and two copies brought to one canonical form (`canonical`).",
    [("", """\
groups = {(g.activation.name, g.form): g for g in sc.paper_result("weight-symmetries").items}
assert all(g.complete for g in groups.values())
assert groups["silu", "gated"].gate_values() == "a ∈ {1}" and groups["gelu_tanh", "mlp"].gate_values() == "a ∈ {1}"
assert groups["relu", "mlp"].gate_values() == "a > 0" and groups["tanh", "gated"].gate_values() == "a ∈ {1, -1}"
# membership is decided: True with a proof, False with G_σ's certified reason, never a guess
swiglu = groups["silu", "gated"]
assert swiglu.contains(gate=1, value=-3.5) is True    # any λ ≠ 0 on the value path
assert swiglu.contains(gate=2) is False               # no scale on SwiGLU's gate but a = 1
assert groups["relu", "mlp"].contains(gate=0.25) is True and groups["relu", "mlp"].contains(gate=-1) is False
swiglu"""),
     ("A random element of the group applied to the checkpoint: a permutation of the 172 units of every "
      "layer and value-path scales of both signs. Every scale is proved a member before anything is "
      "written; the report gives each layer's largest relative output change, the BF16 rounding.", """\
import tempfile
from pathlib import Path

import numpy as np

model = Path("..") / "examples" / "tiny-llama"
work = Path(tempfile.mkdtemp())
rng = np.random.default_rng(0)
P = rng.permutation(172)
np.save(work / "P.npy", P)
np.save(work / "lam.npy", rng.uniform(0.5, 2, 172) * rng.choice([-1.0, 1.0], 172))
moved = sc.transform(model, work / "moved", permute=work / "P.npy", scale_value=work / "lam.npy")
assert 0 < moved.rounding < 8 * 2.0**-8   # each weight rounded once to BF16
moved"""),
     ("`equiv` finds the element again: the permutation exactly, the scales to rounding.", """\
found = sc.equiv(model, work / "moved")
assert found.verdict == "equivalent"
assert all(layer.permutation == tuple(int(p) for p in P) for layer in found.layers)
found"""),
     ("A scale of SwiGLU's gate is no member: refused with $G_\\sigma$'s certified reason, nothing written.", """\
np.save(work / "two.npy", np.full(172, 2.0))
try:
    sc.transform(model, work / "bad", scale_gate=work / "two.npy")
    reason = None
except sc.SymcheckError as refused:
    reason = str(refused)
assert reason is not None and "is not in the layer group" in reason and "certified" in reason
assert not (work / "bad").exists()
print(reason)"""),
     ("The canonical forms of the model and of its moved copy are one model: comparing them finds the "
      "identity permutation and scales within rounding of 1.", """\
sc.canonical(model, work / "canonical-a")
second = sc.canonical(work / "moved", work / "canonical-b")
same = sc.equiv(work / "canonical-a", work / "canonical-b")
assert same.verdict == "equivalent"
assert all(layer.permutation == tuple(range(172)) for layer in same.layers)
assert all(max(abs(s - 1) for s in layer.value_scale) < 1e-2 for layer in same.layers)
second"""),
     ("The LaTeX in this folder is what the tool generates for this result.", tex_cell("weight-symmetries"))])

for _name in ("absorb", "rank1", "mlp", "gated", "rank-r"):
    NOTEBOOKS[_name][2].append(("The LaTeX in this folder is what the tool generates for this result.",
                                tex_cell(_name)))


_MATH = re.compile(r"\$([^$]+)\$")


def markdown(text: str) -> str:
    """The prose's $…$ formulas as MathML, which a browser lays out in an HTML export with no
    script and no network (MathJax, loaded from a CDN, leaves $…$ raw offline)."""
    from symcheck.output.mathml import from_latex
    return _MATH.sub(lambda m: from_latex(m.group(1)), text)


def notebook(name: str) -> nbformat.NotebookNode:
    """The notebook for one result, outputs stripped, with stable cell ids."""
    title, intro, cells = NOTEBOOKS[name]
    body = [new_markdown_cell(markdown(f"# {title}\n\n{intro}\n\nGenerated by `{REGENERATE}`; "
                                       f"the LaTeX for this result is `{name}.tex` (`symcheck latex {name}`).")),
            new_code_cell(IMPORTS)]
    for prose, code in cells:
        if prose:
            body.append(new_markdown_cell(markdown(prose)))
        body.append(new_code_cell(code))
    for index, cell in enumerate(body):
        cell["id"] = f"{name}-{index}"
    return new_notebook(cells=body, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"}})


def notebook_text(name: str) -> str:
    return nbformat.writes(notebook(name)) + "\n"


def expected(progress: Callable[[str], None] | None = None) -> dict[Path, str]:
    """Every generated file in proofs/ and its content: the notebooks and the LaTeX.
    ``progress`` is told a result's name after each of its computations (``targets.steps``)."""
    from symcheck.output.documents import latex_document
    from symcheck.paper.targets import PAPER, resolve
    files = {HERE / f"{name}.ipynb": notebook_text(name) for name in NOTEBOOKS}
    for name in PAPER:
        resolve(name, progress)  # computed here, once, so that the progress is told
        files[HERE / f"{name}.tex"] = latex_document(name)
    return files


def computed() -> dict[Path, str]:
    """:func:`expected`, with a progress bar on stderr when it is a terminal (about 2 minutes)."""
    from rich.console import Console
    from rich.progress import Progress

    from symcheck.paper.targets import steps
    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("the paper's results", total=steps("all"))
        return expected(lambda name: bar.update(task, advance=1, description=name))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report stale files instead of writing")
    args = parser.parse_args(argv)
    stale = []
    for path, text in computed().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path.name)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    verb = "stale" if args.check else "rewrote"
    print(f"{verb}: {', '.join(stale)}" if stale else "proofs/ is up to date")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
