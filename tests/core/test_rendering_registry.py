"""The renderer registry: every name a renderer is registered under is a class that exists, and
a format loads only its own module (rich text does not import the LaTeX or HTML renderers)."""
from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from symcheck.core import rendering


@pytest.mark.parametrize("fmt", rendering.FORMATS)
def test_every_registered_name_is_a_class(fmt: str) -> None:
    for module in ("symcheck.output.render", "symcheck.output.latex", "symcheck.output.html"):
        importlib.import_module(module)
    assert rendering._REGISTRY[fmt], fmt
    for key in rendering._REGISTRY[fmt]:
        module, _, name = key.rpartition(".")
        cls = getattr(importlib.import_module(module), name, None)
        assert isinstance(cls, type), f"{fmt} renderer registered for {key}, which is not a class"
        assert rendering.find(fmt, cls) is rendering._REGISTRY[fmt][key]


def test_a_misspelt_registration_is_caught() -> None:
    rendering.renderer("rich", "symcheck.engine.check_result.NoSuchResult")(lambda value: value)
    try:
        with pytest.raises(AssertionError, match="not a class"):
            test_every_registered_name_is_a_class("rich")
    finally:
        del rendering._REGISTRY["rich"]["symcheck.engine.check_result.NoSuchResult"]


def test_rich_text_loads_only_the_rich_renderers() -> None:
    code = ("import io, sys; from rich.console import Console; import symcheck as sc; "
            "Console(file=io.StringIO()).print(sc.check_exchange('relu')); "
            "print(sorted(m for m in sys.modules if m.startswith('symcheck.output')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    # the rich renderers, their formula printer and line breaker, not the LaTeX or HTML ones
    assert out.strip() == ("['symcheck.output', 'symcheck.output.flow', 'symcheck.output.render', "
                           "'symcheck.output.text']")


def test_json_loads_only_the_formula_printer() -> None:
    # a check's JSON has a `latex` key per step: the small printer fills it, not the documents
    code = ("import json, sys; import symcheck as sc; json.dumps(sc.check_exchange('relu').to_dict()); "
            "print(sorted(m for m in sys.modules if m.startswith('symcheck.output')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['symcheck.output', 'symcheck.output.formula_latex']"
