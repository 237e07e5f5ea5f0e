"""symcheck: sound symbolic verification of the symmetries of gated MLPs and bilinear attention."""
from .activations import Activation, activation, catalogue
from .auditing import Audit, audit
from .budget import DEFAULT_TIMEOUT
from .derivations import DERIVATIONS, Derivation, derive
from .errors import DomainError, EvaluationError, ParseError, SymcheckError, UnknownNameError
from .forms import Form, form
from .formulations import FORMULATIONS, Formulation, Sizes, formulation
from .results import CheckResult, Step
from .symmetries import check, check_exchange, check_inverse_scaling
from .transformations import Transformation, domain
from .verdict import Verdict

__all__ = [
    "Activation", "activation", "catalogue", "check_exchange", "check_inverse_scaling", "check",
    "Form", "form", "Transformation", "domain", "Audit", "audit",
    "DERIVATIONS", "Derivation", "derive", "FORMULATIONS", "Formulation", "Sizes", "formulation",
    "CheckResult", "Step", "Verdict", "DEFAULT_TIMEOUT",
    "SymcheckError", "ParseError", "DomainError", "UnknownNameError", "EvaluationError",
]
__version__ = "0.1.0"
