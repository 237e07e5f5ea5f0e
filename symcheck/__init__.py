"""symcheck: sound symbolic verification of the symmetries of gated MLPs and bilinear attention.

The package is layered (docs/theory.md §4); this root sits above every layer and re-exports the
API a notebook needs.
"""
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version

from symcheck.core import rendering

# Every name is imported on first use (PEP 562): importing the package (as `symcheck --help`
# does, the command line being a module of it) loads no SymPy; tests/cli/test_instant_cli.py checks.
_ERRORS = ("DomainError", "EvaluationError", "InsufficientMemoryError", "NumericError", "ParseError",
           "PlotError", "SymcheckError", "TargetError", "UnknownNameError", "WeightsError")
_LAZY = {
    "DEFAULT_TIMEOUT": "symcheck.core.budget", **dict.fromkeys(_ERRORS, "symcheck.core.errors"),
    "Status": "symcheck.core.results", "Step": "symcheck.core.results", "Verdict": "symcheck.core.verdict",
    "CheckResult": "symcheck.engine.check_result", "CrossCheck": "symcheck.engine.check_result",
    "check": "symcheck.engine.symmetries", "check_exchange": "symcheck.engine.symmetries",
    "check_inverse_scaling": "symcheck.engine.symmetries",
    "Activation": "symcheck.language.activations", "activation": "symcheck.language.activations",
    "catalogue": "symcheck.language.activations", "Form": "symcheck.language.unit_forms",
    "form": "symcheck.language.unit_forms", "Transformation": "symcheck.language.transformations",
    "domain": "symcheck.language.transformations",
    "Audit": "symcheck.paper.auditing", "audit": "symcheck.paper.auditing",
    "DERIVATIONS": "symcheck.paper.derivations", "Derivation": "symcheck.paper.derivations",
    "derive": "symcheck.paper.derivations",
    "FORMULATIONS": "symcheck.language.layer_formulations", "Formulation": "symcheck.language.layer_formulations",
    "Sizes": "symcheck.language.layer_formulations", "formulation": "symcheck.language.layer_formulations",
    "model_report": "symcheck.numeric.model_report", "ModelReport": "symcheck.numeric.model_report",
    "symmetry_group": "symcheck.engine.group.assemble", "SymmetryGroup": "symcheck.engine.group.results",
    "layer_group": "symcheck.engine.group.layer", "LayerGroup": "symcheck.engine.group.layer",
    "transform": "symcheck.numeric.transform", "equiv": "symcheck.numeric.equiv",
    "canonical": "symcheck.numeric.canonical", "InputRows": "symcheck.numeric.options",
    "Resources": "symcheck.numeric.options",
    # what the notebooks in proofs/ use: the paper's results, the tool's LaTeX, a certified
    # non-zero test, the explicit layers' symbols, the defect plots, MathML display
    "paper_result": "symcheck.paper.targets", "latex_document": "symcheck.output.documents",
    "certify_nonzero": "symcheck.exact.evaluate", "input_row": "symcheck.language.layer_formulations",
    "SIGMA": "symcheck.language.symbols", "Math": "symcheck.output.mathml",
    "exchange_defect": "symcheck.output.plots", "exchange_figure": "symcheck.output.plots",
    "scaling_defect": "symcheck.output.plots", "scaling_figure": "symcheck.output.plots",
}

__all__ = list(_LAZY)
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
           "latex": ("symcheck.output.formula_latex", "symcheck.output.latex", "symcheck.output.families"),
           "text": ("symcheck.output.text",)}


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


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
