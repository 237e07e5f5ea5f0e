"""symcheck: sound symbolic verification of the symmetries of gated MLPs and bilinear attention."""
from importlib import import_module

from symcheck.language.activations import Activation, activation, catalogue
from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.errors import DomainError, EvaluationError, ParseError, SymcheckError, UnknownNameError
from symcheck.language.forms import Form, form
from symcheck.core.results import CheckResult, Step
from symcheck.engine.symmetries import check, check_exchange, check_inverse_scaling
from symcheck.language.transformations import Transformation, domain
from symcheck.core.verdict import Verdict

# Imported on first use (PEP 562): the CLI's main job should not pay for them.
_LAZY = {
    "Audit": "auditing", "audit": "auditing",
    "DERIVATIONS": "derivations", "Derivation": "derivations", "derive": "derivations",
    "FORMULATIONS": "formulations", "Formulation": "formulations", "Sizes": "formulations",
    "formulation": "formulations",
}

__all__ = [
    "Activation", "activation", "catalogue", "check_exchange", "check_inverse_scaling", "check",
    "Form", "form", "Transformation", "domain", "CheckResult", "Step", "Verdict", "DEFAULT_TIMEOUT",
    "SymcheckError", "ParseError", "DomainError", "UnknownNameError", "EvaluationError", *_LAZY,
]
__version__ = "0.1.0"


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'symcheck' has no attribute {name!r}")
