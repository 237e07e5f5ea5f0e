"""Spies on a numeric check's memory estimate: the parts it hands to ``require_memory``."""
from __future__ import annotations

from symcheck.numeric import checks, planner


def counted_parts(monkeypatch) -> list[dict[str, int]]:
    """The parts of each estimate the check hands to require_memory, by name, as it is made."""
    counted: list[dict[str, int]] = []
    original = planner.require_memory

    def spy(parts, working, available=None, advice=""):
        counted.append(dict(parts))
        return original(parts, working, available, advice)

    monkeypatch.setattr(checks, "require_memory", spy)
    return counted
