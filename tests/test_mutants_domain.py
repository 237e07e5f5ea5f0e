"""Definedness reads a branch's region exactly: `2·z > 1` is z > 1/2, not z > 1; a case split
that fails or leaves a violation undecided proves nothing."""
from __future__ import annotations

import pytest
from sympy import S

from symcheck.core.errors import DomainError, Undecided
from symcheck.exact.regions import Piece, Region
from symcheck.language.parsing import parse_activation


@pytest.mark.parametrize(("text", "point"), [
    ("Piecewise((log(z - 1), 2*z > 1), (0, True))", "z = 1"),
    ("Piecewise((log(z - 1), z + 1 > 3/2), (0, True))", "z = 1"),
    ("Piecewise((sqrt(z - 2), -z < -1), (0, True))", None),
    ("Piecewise((1/(z - 1), z**2 > 0), (0, True))", "z = 1"),
])
def test_a_branch_defined_only_on_part_of_its_region_is_refused(text: str, point: str | None) -> None:
    with pytest.raises(DomainError) as info:
        parse_activation(text)
    if point is not None:
        assert point in str(info.value)


@pytest.mark.parametrize("text", [
    "Piecewise((log(z - 1), 2*z > 3), (0, True))",
    "Piecewise((log(z), z > 0), (0, True))",
    "Piecewise((sqrt(z - 2), z >= 2), (0, True))",
    "Piecewise((1/(z - 1), z < 1/2), (0, True))",
])
def test_a_branch_defined_on_its_whole_region_is_accepted(text: str) -> None:
    parse_activation(text)


@pytest.mark.parametrize("failure", [RuntimeError("a failure inside SymPy"), ValueError("another"),
                                     Undecided("a cut point that cannot be placed")])
@pytest.mark.parametrize("text", ["Piecewise((log(z - 1), 2*z > 1), (0, True))", "1/(z - 3)"])
def test_a_case_split_that_fails_proves_no_definedness(monkeypatch, failure, text) -> None:
    """The split raising is no proof: the point where σ is undefined is still found."""
    from symcheck.language import definedness

    def failing(*args, **kwargs):
        raise failure

    monkeypatch.setattr(definedness, "split", failing)
    with pytest.raises(DomainError):
        parse_activation(text)


def test_a_case_whose_violation_is_undecided_proves_no_definedness(monkeypatch) -> None:
    """A piece that may or may not violate the obligation (alternatives 0 and 1) is no proof."""
    from symcheck.language import definedness

    def undecided(*args, **kwargs):
        return [Piece(Region(-S.Infinity, S.Infinity), S.Zero, (S.Zero, S.One), ("a periodic condition",))]

    monkeypatch.setattr(definedness, "split", undecided)
    with pytest.raises(DomainError):
        parse_activation("1/(z - 3)")


def test_a_point_where_the_obligation_is_unknown_is_no_failure() -> None:
    """log(z² + c) with c = exp(ε) − 1 − ε > 0 (ε = e^-3000): SymPy cannot tell c's sign, so at
    z = 0 whether the argument is positive is unknown, not false. The activation is refused as
    unverified, never as failing at a point nothing confirmed."""
    import sympy
    from symcheck.core.errors import DomainError
    from symcheck.language.activations import activation
    c = "(exp(exp(-3000)) - 1 - exp(-3000))"
    assert sympy.sympify(c).is_positive is None
    with pytest.raises(DomainError, match="could not verify") as caught:
        activation(f"log(z**2 + {c})")
    assert caught.value.point is None
