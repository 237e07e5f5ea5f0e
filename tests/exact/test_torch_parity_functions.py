"""PyTorch parity of the functions table (symcheck.core.functions): each function torch has,
vectorised by symcheck, against torch's own on points inside its domain, in float64."""
from __future__ import annotations

import numpy as np
import pytest
import sympy

from symcheck.core.functions import BY_NAME
from symcheck.exact.vectorize import vectorize

torch = pytest.importorskip("torch", reason="torch is not installed (CI installs the 'torch' extra)")

z = sympy.Symbol("z", real=True)
LINE = np.unique(np.concatenate([np.linspace(-20, 20, 801), [-1e6 - 0.5, -3.0, -1e-300, 0.0, 1e-300, 2.0, 1e6 + 0.25]]))
UNIT = np.unique(np.concatenate([np.linspace(-1, 1, 401), [-1 + 1e-12, -1e-300, 1e-300, 1 - 1e-12]]))
OPEN_UNIT = UNIT[np.abs(UNIT) < 1]
ABOVE_ONE = np.unique(np.concatenate([1 + np.logspace(-12, 6, 200), [1.0]]))
POSITIVE = np.logspace(-6, 2, 300)

#: name → (symcheck's expression, torch's function, points inside the domain)
CASES = {
    "acos": (sympy.acos(z), torch.acos, UNIT),
    "asin": (sympy.asin(z), torch.asin, UNIT),
    "atanh": (sympy.atanh(z), torch.atanh, OPEN_UNIT),
    "acosh": (sympy.acosh(z), torch.acosh, ABOVE_ONE),
    "floor": (sympy.floor(z), torch.floor, LINE),
    "ceiling": (sympy.ceiling(z), torch.ceil, LINE),
    "frac": (sympy.frac(z), lambda x: x - torch.floor(x), LINE),  # torch.frac truncates toward 0
    "Mod": (sympy.Mod(z, 3), lambda x: torch.remainder(x, 3.0), LINE),  # the sign of the divisor, as Mod
    "loggamma": (sympy.loggamma(z), torch.lgamma, POSITIVE),
    # torch has no gamma: exp(lgamma) where the argument is positive (gamma > 0 there)
    "gamma": (sympy.gamma(z), lambda x: torch.exp(torch.lgamma(x)), POSITIVE),
}
#: torch computes these from other functions and loses a few ulp more than SciPy/NumPy
RTOL = {"gamma": 1e-12, "loggamma": 1e-12, "acosh": 1e-14, "atanh": 1e-14}


def test_every_function_torch_has_is_compared():
    with_torch = {name for name, f in BY_NAME.items() if f.torch is not None}
    new = {"acos", "asin", "atanh", "acosh", "floor", "ceiling", "Mod", "loggamma"}
    assert new <= with_torch and new <= set(CASES)
    # torch has no gamma or W, and its frac truncates toward 0: compared through floor above
    assert BY_NAME["gamma"].torch is None and BY_NAME["LambertW"].torch is None and BY_NAME["frac"].torch is None


@pytest.mark.parametrize("name", sorted(CASES))
def test_numpy_matches_torch(name):
    expr, theirs_function, points = CASES[name]
    ours = vectorize(expr, (z,))(points)
    theirs = theirs_function(torch.from_numpy(points)).numpy()
    assert np.all(np.isfinite(ours))
    np.testing.assert_allclose(ours, theirs, rtol=RTOL.get(name, 1e-15), atol=1e-15)
