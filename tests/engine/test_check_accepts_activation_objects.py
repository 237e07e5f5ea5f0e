"""The checks take an activation as a catalogue name, an expression, or an ``Activation`` already
parsed (what a notebook passes on): the object is used as it is, and the result is the one the
same activation gets from its text — for exchange and scaling, catalogue and own activations."""
from __future__ import annotations

import pytest

from symcheck.engine import symmetries
from symcheck.language.activations import activation
from symcheck.language.transformations import Transformation, domain


@pytest.mark.parametrize("spec", ["silu", "relu", "z*tanh(z)", "Max(z, z/4)"])
@pytest.mark.parametrize("t", [Transformation("exchange"), Transformation("inverse-scaling", domain("positive"))],
                         ids=lambda t: str(t.name))
def test_an_activation_object_is_checked_like_its_text(spec, t) -> None:
    parsed = activation(spec)
    from_object = symmetries.check(parsed, t, "gated")
    from_text = symmetries.check(spec, t, "gated")
    assert from_object.verdict is from_text.verdict
    assert from_object.witness == from_text.witness
