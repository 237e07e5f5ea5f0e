"""The layer forms: explicit components agree with the matrix expressions; the GLU family; PyTorch."""
from __future__ import annotations

import pytest
import sympy

import symcheck.language.layer_formulations as F
from symcheck.core.errors import UnknownNameError
from symcheck.language.activations import activation
from symcheck.language.layer_formulations import FORMULATIONS, Sizes, formulation
from symcheck.language.symbols import SIGMA, A, B
from symcheck.language.unit_forms import form

from support import quick_few

SIZES = [Sizes(1, 1, 1, 1), Sizes(2, 1, 2, 2), Sizes(2, 3, 1, 1), Sizes(3, 2, 2, 2), Sizes(2, 2, 1, 3)]


def _same(lhs: sympy.Matrix, rhs: sympy.Matrix) -> bool:
    return lhs.shape == rhs.shape and (lhs - rhs).applyfunc(sympy.expand).is_zero_matrix


def _symbols(name: str, rows: int, cols: int) -> sympy.Matrix:
    return sympy.Matrix(sympy.MatrixSymbol(name, rows, cols).as_explicit())


def _overrides(name: str, sz: Sizes) -> dict[str, sympy.Matrix]:
    """Parameters made of the matrix expression's own entries (Q[j, i], Qs[i, s], M[i, j], …)."""
    d, m, e, r = sz.d, sz.m, sz.e, sz.r
    base = {"x": _symbols("x", 1, d), "V": _symbols("V", m, e)}
    if name in ("mlp", "query-mlp"):
        return {**base, "K": _symbols("K", m, d), **({"Q_g": _symbols("Q_g", d, d)} if name == "query-mlp" else {})}
    if name == "rank-r":
        Qs, Ks = _symbols("Qs", d, m * r), _symbols("Ks", d, m * r)
        return {**base, **{f"Q_{j + 1}": Qs[:, j * r:(j + 1) * r] for j in range(m)},
                **{f"K_{j + 1}": Ks[:, j * r:(j + 1) * r] for j in range(m)}}
    if name == "bilinear":  # column j of M is vec(M_j) row-major; Q_j = M_j, K_j = I realise it
        M = _symbols("M", d * d, m)
        return {**base, **{f"Q_{j + 1}": M[:, j].reshape(d, d) for j in range(m)},
                **{f"K_{j + 1}": sympy.eye(d) for j in range(m)}}
    return {**base, "Q": _symbols("Q", m, d), "K": _symbols("K", m, d)}


@pytest.mark.parametrize("name", list(FORMULATIONS))
@pytest.mark.parametrize("sz", quick_few(SIZES, SIZES[:2]), ids=str)
def test_explicit_agrees_with_the_matrix_expression_made_explicit(name: str, sz: Sizes) -> None:
    f = formulation(name)
    if name == "bilinear":
        sz = Sizes(sz.d, sz.m, sz.e, sz.d)  # Q_j = M_j needs r = d
    concrete = f.expression(SIGMA).subs(sz.substitution()).as_explicit()
    expected = sympy.Matrix(concrete).replace(SIGMA, lambda u: f.sigma()(u)) if f.activation else sympy.Matrix(concrete)
    assert _same(f.explicit(None, sz, **_overrides(name, sz)), expected)


@pytest.mark.parametrize("name", list(FORMULATIONS))
@pytest.mark.parametrize("sz", SIZES, ids=str)
def test_expression_explicit_binds_the_symbolic_parameters(name: str, sz: Sizes) -> None:
    f = formulation(name)
    assert _same(f.explicit(None, sz), f.expression_explicit(None, sz))


def test_matrix_expressions_have_symbolic_dimensions() -> None:
    for f in FORMULATIONS.values():
        expr = f.expression()
        assert isinstance(expr, sympy.MatrixExpr)
        assert expr.shape == (1, F.E)
    assert all(formulation("rank-r").expression().has(dim) for dim in F.DIMS)


@pytest.mark.parametrize("name, act", [("glu", "sigmoid"), ("bilinear-glu", "identity"), ("reglu", "relu"),
                                       ("geglu", "gelu"), ("swiglu", "silu")])
def test_glu_family_is_gated_with_its_activation(name: str, act: str) -> None:
    f = formulation(name)
    assert (f.base, f.activation, f.form) == ("gated", act, "gated")
    assert f.sigma() == activation(act)
    sz = Sizes(2, 2, 1)
    assert _same(f.explicit(None, sz), formulation("gated").explicit(activation(act), sz))
    x, q, k, v = (sympy.Symbol(n, real=True) for n in ("x_1", "q_{1,1}", "k_{1,1}", "v_{1,1}"))
    assert sympy.simplify(f.explicit(None, Sizes(1, 1))[0] - activation(act)(q * x) * k * x * v) == 0


def test_llama_mlp_is_gated_with_q_gate_k_up_v_down_transposed() -> None:
    """down(silu(gate(x)) * up(x)) with torch.nn.Linear weights (y = x Wᵀ) is swiglu."""
    d, m, e = 3, 2, 2
    gate, up, down = _symbols("G", m, d), _symbols("U", m, d), _symbols("D", e, m)
    x = _symbols("x", 1, d)

    def silu(z):
        return z / (1 + sympy.exp(-z))  # written out, not taken from the catalogue

    def linear(weight, row):
        return row * weight.T

    llama = linear(down, linear(gate, x).applyfunc(silu).multiply_elementwise(linear(up, x)))
    ours = formulation("swiglu").explicit(None, Sizes(d, m, e), x=x, Q=gate, K=up, V=down.T)
    assert ours.shape == llama.shape == (1, e)
    assert all(sympy.simplify(a - b) == 0 for a, b in zip(ours, llama, strict=True))
    # and with σ left opaque, gated with the same weights has the same structure
    opaque = formulation("gated").explicit(SIGMA, Sizes(d, m, e), x=x, Q=gate, K=up, V=down.T)
    assert _same(opaque.replace(SIGMA, lambda u: silu(u)), llama)


def test_units_match_the_unit_forms() -> None:
    assert formulation("gated").unit(SIGMA, A, B) == form("gated")(SIGMA, A, B)
    assert formulation("rank1").unit(SIGMA, A, B) == form("rank1")(SIGMA, A, B)
    assert formulation("mlp").unit(SIGMA, A, B) == SIGMA(B)
    assert formulation("bilinear").unit is None and formulation("bilinear").form is None


def test_parameters_and_overrides() -> None:
    params = formulation("rank-r").parameters(Sizes(3, 2, 1, 2))
    assert sorted(params) == ["K_1", "K_2", "Q_1", "Q_2", "V"]
    assert params["Q_2"].shape == (3, 2) and str(params["Q_2"][2, 1]) == "q_{2,3,2}"
    assert formulation("query-mlp").parameters((2, 1))["Q_g"].shape == (2, 2)
    assert str(formulation("gated").parameters(Sizes(2, 2))["V"][1, 0]) == "v_{2,1}"
    with pytest.raises(UnknownNameError, match="did you mean 'Q'"):
        formulation("gated").explicit(SIGMA, Sizes(2, 2), q=sympy.zeros(2, 2))
    with pytest.raises(sympy.ShapeError, match="K must be 2×2"):
        formulation("gated").explicit(SIGMA, Sizes(2, 2), K=sympy.zeros(3, 2))
    with pytest.raises(ValueError):
        Sizes(0, 1)
    # mlp accepts the usual names W1, W2 for K, V
    W1 = sympy.Matrix([[1, 2]])
    assert _same(formulation("mlp").explicit(SIGMA, Sizes(2, 1), W1=W1),
                 formulation("mlp").explicit(SIGMA, Sizes(2, 1), K=W1))


def test_unknown_formulation_suggests_close_names() -> None:
    with pytest.raises(UnknownNameError) as err:
        formulation("swiglue")
    assert "swiglu" in err.value.suggestions
    assert formulation("SwiGLU").name == "swiglu" and formulation("rank_r").name == "rank-r"


def test_layer_level_transformations_are_easy_to_state() -> None:
    """What the API is for: swap Q and K on rank1, and a GL(r) gauge on rank-r, at explicit sizes."""
    sz = Sizes(2, 2, 1, 2)
    rank1, p = formulation("rank1"), formulation("rank1").parameters(sz)
    assert _same(rank1.explicit(SIGMA, sz, Q=p["K"], K=p["Q"]), rank1.explicit(SIGMA, sz))
    gated = formulation("gated")
    assert not _same(gated.explicit(SIGMA, sz, Q=p["K"], K=p["Q"]), gated.explicit(SIGMA, sz))
    rank_r, units = formulation("rank-r"), formulation("rank-r").parameters(sz)
    gauge = sympy.Matrix([[2, 1], [1, 1]])
    moved = {k: (v * gauge if k.startswith("Q_") else v * gauge.inv().T if k.startswith("K_") else v)
             for k, v in units.items()}
    assert _same(rank_r.explicit(SIGMA, sz, **moved), rank_r.explicit(SIGMA, sz))


def test_every_formulation_prints_and_has_latex() -> None:
    for f in FORMULATIONS.values():
        assert str(f).startswith(f.name + ": ")
        assert f._repr_latex_().startswith("$") and "Symbol(" not in f.latex
    assert r"\odot" in formulation("gated").latex and r"\odot" in formulation("rank1").latex
