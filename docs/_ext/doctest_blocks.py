"""A griffe extension for the API reference: docstring examples (``>>>`` lines and the output
after them) become fenced ``pycon`` blocks.

The docstrings keep plain doctest form, which ``pytest --doctest-modules`` runs; rendered as
Markdown, an output such as ``[0.0, 10000.0]`` would otherwise read as a link reference.
"""
from __future__ import annotations

from typing import Any

import griffe


def fence_examples(text: str) -> str:
    """Wrap each run of lines that starts at a ``>>>`` prompt, up to the next blank line, in a
    fenced block (indentation kept, so a block inside a section stays in it)."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.lstrip().startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_examples(obj.docstring.value)
