"""Plain-text rendering of SymPy expressions for people: σ, α and · instead of sigma, alpha, *."""
from __future__ import annotations

import re

import sympy

_WORDS = {"sigma": "σ", "alpha": "α", "beta": "β"}
_WORD = re.compile(r"\b(sigma|alpha|beta)\b")
_TIMES = re.compile(r"(?<!\*)\*(?!\*)")


def text(expr: object) -> str:
    """``b*sigma(a*alpha)/alpha`` → ``b·σ(a·α)/α`` (powers stay ``**``, as users type them)."""
    printed = sympy.sstr(expr)
    return _TIMES.sub("·", _WORD.sub(lambda m: _WORDS[m.group(1)], printed))
