"""symcheck: sound symbolic verification of the symmetries of gated MLPs and bilinear attention.

The package is layered (docs/theory.md §4); this root sits above every layer and re-exports the
API a notebook needs.
"""
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version

from symcheck.core import rendering
from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.errors import (DomainError, EvaluationError, InsufficientMemoryError, NumericError,
                                  ParseError, PlotError, SymcheckError, TargetError, UnknownNameError,
                                  WeightsError)
from symcheck.core.results import Status, Step
from symcheck.core.verdict import Verdict
from symcheck.engine.check_result import CheckResult, CrossCheck
from symcheck.engine.symmetries import check, check_exchange, check_inverse_scaling
from symcheck.language.activations import Activation, activation, catalogue
from symcheck.language.unit_forms import Form, form
from symcheck.language.transformations import Transformation, domain

# Imported on first use (PEP 562): the CLI's main job should not pay for them.
_LAZY = {
    "Audit": "symcheck.paper.auditing", "audit": "symcheck.paper.auditing",
    "DERIVATIONS": "symcheck.paper.derivations", "Derivation": "symcheck.paper.derivations",
    "derive": "symcheck.paper.derivations",
    "FORMULATIONS": "symcheck.language.layer_formulations", "Formulation": "symcheck.language.layer_formulations",
    "Sizes": "symcheck.language.layer_formulations", "formulation": "symcheck.language.layer_formulations",
    "model_report": "symcheck.numeric.model_report", "ModelReport": "symcheck.numeric.model_report",
    "symmetry_group": "symcheck.engine.group", "SymmetryGroup": "symcheck.engine.group",
    "layer_group": "symcheck.engine.layer_group", "LayerGroup": "symcheck.engine.layer_group",
    # what the notebooks in proofs/ use: the paper's results, the tool's LaTeX, a certified
    # non-zero test, the explicit layers' symbols, the defect plots, MathML display
    "paper_result": "symcheck.paper.targets", "latex_document": "symcheck.output.documents",
    "certify_nonzero": "symcheck.exact.evaluate", "input_row": "symcheck.language.layer_formulations",
    "SIGMA": "symcheck.language.symbols", "Math": "symcheck.output.mathml",
    "exchange_defect": "symcheck.output.plots", "exchange_figure": "symcheck.output.plots",
    "scaling_defect": "symcheck.output.plots", "scaling_figure": "symcheck.output.plots",
}

__all__ = [
    "Activation", "activation", "catalogue", "check_exchange", "check_inverse_scaling", "check",
    "Form", "form", "Transformation", "domain", "CheckResult", "CrossCheck", "Step", "Status", "Verdict", "DEFAULT_TIMEOUT",
    "SymcheckError", "ParseError", "DomainError", "UnknownNameError", "EvaluationError", "NumericError",
    "WeightsError", "PlotError", "TargetError", "InsufficientMemoryError", *_LAZY,
]
try:
    __version__ = version("symcheck")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"


#: the renderers, one module per format, imported when a value is first rendered in that format
#: (the root may import every layer; deferring keeps JSON-only commands from paying for rich, and
#: rich text from paying for LaTeX)
#: a format's modules are tried in order: the formula printer alone fills a JSON ``latex`` key
_OUTPUT = {"rich": ("symcheck.output.render", "symcheck.output.families"),
           "html": ("symcheck.output.html", "symcheck.output.families"),
           "latex": ("symcheck.output.formula_latex", "symcheck.output.latex", "symcheck.output.families")}


def _loader(module: str):
    def load() -> None:
        import_module(module)  # registers that format's renderers on import
    return load


for _fmt, _modules in _OUTPUT.items():
    for _module in _modules:
        rendering.load_with(_loader(_module), _fmt)


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'symcheck' has no attribute {name!r}")
