"""Close-match suggestions for unknown names (used by every lookup that can fail)."""
from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(name: str, known: Iterable[str], n: int = 3) -> tuple[str, ...]:
    return tuple(difflib.get_close_matches(name, list(known), n=n, cutoff=0.6))
