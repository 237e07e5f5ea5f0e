"""The homogeneity degree: a pin only from two certified values of one sign, "no p works" only
from a certified argument, and 2^p = ratio solved exactly (an integer only for powers of 2).
"""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.engine.homogeneity import _exactly_zero, _log2_rational, homogeneity_degree
from symcheck.language.activations import activation
from symcheck.language.symbols import Z

# σ → (the one candidate p, or None when every p is excluded; the kind of argument)
DEGREES = [
    ("relu", 1, "pinned"), ("identity", 1, "pinned"), ("3*z", 1, "pinned"), ("relu2", 2, "pinned"),
    ("Abs(z)**3", 3, "pinned"), ("Max(z, 0)*sqrt(Abs(z))", S(3) / 2, "pinned"),
    ("Piecewise((1, Eq(z, 0)), (0, True))", 0, "pinned"),   # σ(0) ≠ 0 pins p = 0
    # values that are not rational: p is named by SymPy, then checked by our own arithmetic
    ("pi*Max(z, 0)", 1, "pinned"), ("sqrt(2)*Abs(z)**3", 3, "pinned"), ("exp(1)*Max(z, 0)**2", 2, "pinned"),
    ("z*(3/2 - z)", None, "opposite-signs"),                # σ(1) = 1/2, σ(2) = −1
    ("Max(0, z - 1)", None, "zero-and-nonzero"),            # σ(1) = 0, σ(2) = 1
    ("z**3 + 1", None, "zero-and-nonzero"),                 # σ(−1) = 0, σ(−2) = −7
    ("silu", None, "conflict"), ("z*exp(-z**2)", None, "conflict"),
    ("Piecewise((z, z > 1), (2*z, True))", None, "conflict"),
]


@pytest.mark.parametrize(("act", "p", "kind"), DEGREES, ids=[d[0] for d in DEGREES])
def test_the_degree_is_pinned_or_every_p_excluded_by_the_right_argument(act, p, kind) -> None:
    degree = homogeneity_degree(activation(act))
    assert degree.kind == kind
    assert degree.excludes_every_p is (p is None)
    assert degree.p == p


def test_opposite_signs_are_refuted_where_they_occur() -> None:
    refutation = homogeneity_degree(activation("z*(3/2 - z)")).refutations[0]
    assert refutation.z == 1 and refutation.pin is None


@pytest.mark.parametrize(("ratio", "p"), [
    (S(1), 0), (S(2), 1), (S(8), 3), (S(1) / 2, -1), (S(1) / 4, -2), (S(1) / 1024, -10),
    (S(3), sympy.log(3) / sympy.log(2)), (S(3) / 4, sympy.log(S(3) / 4) / sympy.log(2)),
    (S(4) / 3, sympy.log(S(4) / 3) / sympy.log(2)), (S(6), sympy.log(6) / sympy.log(2)),
])
def test_two_to_the_p_equals_the_ratio_exactly(ratio, p) -> None:
    found = _log2_rational(ratio)
    assert found == p
    assert sympy.simplify(2**found - ratio) == 0


def test_an_enclosure_that_only_touches_zero_is_not_an_exact_zero() -> None:
    """|sin z − sin 1| at z = 1 + 2^-200 is about 2^-201, enclosed at 64 bits by [0, ε]."""
    value = sympy.Abs(sympy.sin(Z) - sympy.sin(1))
    assert not _exactly_zero(value, {Z: 1 + S(2)**-200})
    assert _exactly_zero(Z - 1, {Z: S.One})
    assert not _exactly_zero(Z - 1, {Z: S(2)})


def test_a_value_whose_double_is_undecided_pins_nothing() -> None:
    """σ(1) = 1 but σ is cos(e^-5000) − 1 elsewhere, whose sign no enclosure decides: σ(2)/σ(1)
    is not known to be positive, so z = 1 pins no p, and nothing else is decided."""
    degree = homogeneity_degree(activation("Piecewise((1, Eq(z, 1)), (cos(exp(-5000)) - 1, True))"))
    assert degree.kind == "undecided" and degree.pin is None and not degree.excludes_every_p
    assert str(degree) == ("no sample pins p or excludes every p (σ undecided at 0, -1/3, 1/3, -1/2, 1/2, "
                           "-2/3, 2/3, -5/7, 5/7, -1, -10/7, 10/7, -2, 2, -3, 3, -6, 6)")
    assert degree.refutations == ()


@pytest.mark.parametrize(("expr", "z", "sign"), [
    (Z - 1, S(2), 1), (Z - 1, S.Zero, -1), (Z - 1, S.One, 0),
    (sympy.sqrt(2) * Z - 1, S(3) / 2, 1),                 # only an enclosure decides it
    (Z * (sympy.cos(sympy.exp(-5000)) - 1), S.One, None),   # negative, but no enclosure shows it
])
def test_a_certified_sign_is_decided_by_exact_arithmetic_or_an_enclosure(expr, z, sign) -> None:
    from symcheck.engine.homogeneity import certified_sign
    assert certified_sign(expr, {Z: z}) == sign


def test_a_branch_of_sigma_is_read_at_the_pin_with_real_symbols() -> None:
    """π·[z > 0]·z²: the values are not rational, so SymPy names p, and our arithmetic checks it
    on σ's own branches (built on real symbols, as σ's conditions need)."""
    degree = homogeneity_degree(activation("pi*Piecewise((z**2, z > 0), (0, True))"))
    assert degree.kind == "pinned" and degree.p == 2 and degree.pin.trusted is False


@pytest.mark.parametrize("told", [
    lambda e: e + 1,                   # a wrong degree: our arithmetic refutes 2^(p+1)·σ(1) = σ(2)
    lambda e: sympy.I,                 # not real
    lambda e: sympy.Symbol("q"),       # not a number
    "raises",
])
def test_a_degree_sympy_names_wrongly_is_not_taken(monkeypatch, told) -> None:
    """The pinned p is named by SymPy only where our own arithmetic does not refute it: a wrong,
    non-real or symbolic answer (or a failure) leaves p unnamed and untrusted."""
    from symcheck.engine import homogeneity
    real_simplify = sympy.simplify

    def lying(expr, *args, **kwargs):
        if told == "raises":
            raise ValueError("simplify failed")
        return told(real_simplify(expr, *args, **kwargs))

    monkeypatch.setattr(homogeneity.sympy, "simplify", lying)
    degree = homogeneity_degree(activation("pi*Max(z, 0)**2"))
    assert degree.kind == "pinned" and degree.p is None
    assert degree.pin.p is None and degree.pin.trusted is False
    assert degree.to_dict()["pin"]["trusted"] is False


def test_a_conflict_from_values_that_are_not_rational_names_no_pin_degree() -> None:
    """silu's pin and conflict rest on Arb enclosures: the pinned p is not named (it need not
    be), and nothing about it is trusted."""
    degree = homogeneity_degree(activation("silu"))
    assert degree.kind == "conflict" and degree.pin.p is None and degree.pin.trusted is False
    assert degree.to_dict()["pin"] == {"z": str(degree.pin.z), "p": None, "trusted": False}


def test_the_check_of_sympys_degree_reads_sigma_at_the_pin_itself() -> None:
    """σ(1) = 3π and σ(2) = 6π are point values (Eq branches) inside a window where σ is
    otherwise π·(z − 10/7); elsewhere σ's sign is undecided. SymPy names p = 1 from the ratio,
    and the check 2^p·σ(1) = σ(2) must evaluate σ at the points themselves (σ built on real
    symbols, whose Eq branches can hold), not on the window's expression (−3π/7 and 4π/7)."""
    sigma = activation("Piecewise((3*pi/2, Eq(z, 1/2)), (3*pi, Eq(z, 1)), (6*pi, Eq(z, 2)), "
                       "(pi*(z - 10/7), (z > 99/100) & (z < 201/100)), (cos(exp(-5000)) - 1, True))")
    degree = homogeneity_degree(sigma)
    assert degree.kind == "pinned" and degree.pin.z == 1 and degree.p == 1


def test_an_undecided_sample_carries_no_value_and_says_so(monkeypatch) -> None:
    """Where σ(z) is neither certified non-zero nor proved zero the sample has no sign and no
    value, and its words (shown in the proof and the JSON) say it was not decided."""
    from symcheck.engine import homogeneity

    monkeypatch.setattr(homogeneity, "certify_nonzero", lambda *args, **kwargs: None)
    monkeypatch.setattr(homogeneity, "_exactly_zero", lambda *args: False)
    degree = homogeneity_degree(activation("silu"))
    assert degree.samples and all((s.sign, s.exact, s.certificate) == (None, None, "not decided")
                                  for s in degree.samples)
    assert all(str(s).endswith(" not decided") for s in degree.samples)
    assert {row["certificate"] for row in degree.to_dict()["samples"]} == {"not decided"}
    assert "σ undecided at" in str(degree.to_dict())
