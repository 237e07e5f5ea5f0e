"""NumPy, PyTorch and JAX spellings (``np.tanh(z)``, ``torch.relu(z)``, ``F.silu(z)``) are still
refused — the parser reads no attribute — but the error says what to write (issue 25 item 6)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.core.errors import ParseError

from support import invoke_cli

CASES = [
    ("np.tanh(z)", "'np.tanh'; write tanh(z)"),
    ("numpy.exp(z)", "'numpy.exp'; write exp(z)"),
    ("torch.relu(z)", "'torch.relu'; write relu(z) (relu is a built-in name: --act relu)"),
    ("torch.nn.functional.gelu(z)", "'torch.nn.functional.gelu'; write gelu(z) (gelu is a built-in name: --act gelu)"),
    ("F.silu(z)", "'F.silu'; write silu(z) (silu is a built-in name: --act silu)"),
    ("jnp.tanh(z)", "'jnp.tanh'; write tanh(z)"),
    ("np.maximum(z, 0)", "'np.maximum'; write Max(z, 0)"),
    ("z*torch.sigmoid(2*z)", "'torch.sigmoid'; write sigmoid(2*z) (sigmoid is a built-in name: --act sigmoid)"),
    ("np.pi*z", "'np.pi'; write pi"),
]


@pytest.mark.parametrize("text, message", CASES)
def test_the_error_says_what_to_write(text: str, message: str) -> None:
    with pytest.raises(ParseError) as err:
        sc.activation(text)
    assert str(err.value) == f"attribute access is not allowed: {message}"


@pytest.mark.parametrize("text, message", CASES[:3])
def test_the_command_line_shows_it_in_one_line(text: str, message: str) -> None:
    code, out, err = invoke_cli("exchange", "--act", text)
    assert code == 2 and out == "" and err == f"Error: attribute access is not allowed: {message}\n"


@pytest.mark.parametrize("text, name", [("np.foo(z)", "foo"), ("z.real", "real"), ("torch.nn.foo(z)", "nn"),
                                        ("().__class__.__bases__[0].__subclasses__()", "__class__")])
def test_a_name_of_no_function_here_gets_no_suggestion(text: str, name: str) -> None:
    with pytest.raises(ParseError, match=f"^attribute access is not allowed: '{name}'$"):
        sc.activation(text)


_MODULES = st.sampled_from(["np", "numpy", "torch", "torch.nn.functional", "F", "jnp", "jax.numpy", "math"])
_OURS = st.sampled_from(["tanh", "exp", "sin", "erf", "relu", "silu", "gelu", "softplus", "sigmoid", "erfc"])
_ARGS = st.sampled_from(["z", "2*z", "z + 1", "-z", "z**2"])


@settings(max_examples=60, deadline=None)
@given(_MODULES, _OURS, _ARGS, st.sampled_from(["{}", "2*{}", "{} - z", "Max({}, 0)"]))
def test_any_library_spelling_of_a_name_of_ours(module: str, name: str, arg: str, around: str) -> None:
    text = around.format(f"{module}.{name}({arg})")
    with pytest.raises(ParseError) as err:
        sc.activation(text)
    assert f"attribute access is not allowed: '{module}.{name}'; write {name}({arg})" in str(err.value)
    sc.activation(around.format(f"{name}({arg})"))  # and what it says to write is accepted
