"""A griffe extension for the API reference: docstring examples (``>>>`` lines and the output
after them) become fenced ``pycon`` blocks, and Sphinx roles (``:func:`x.f```) code spans.

The docstrings keep plain doctest form, which ``pytest --doctest-modules`` runs; rendered as
Markdown, an output such as ``[0.0, 10000.0]`` would otherwise read as a link reference, and a
role would show its markup.
"""
from __future__ import annotations

import re
from typing import Any

import griffe

#: :class:`~a.b.C` (shown as C), :mod:`a.b` (shown whole), and the other Python roles
ROLE = re.compile(r":(?:class|mod|func|meth|attr|data|exc|obj):`(~?)([^`]+)`")


def plain_roles(text: str) -> str:
    return ROLE.sub(lambda m: f"`{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}`", text)


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


class DocstringMarkdown(griffe.Extension):
    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_examples(plain_roles(obj.docstring.value))
