"""A paragraph of words and formulas for rich that wraps between them, never inside a formula.

Rich wraps text at any space, and a formula has spaces (``α = −2``, ``r(z) = −z + max(0, z)``):
at 80 columns it would split one as ``α`` / ``= −2``. Here a formula is one unbreakable piece, so
a line breaks only at the spaces of the words around it; a formula wider than the whole line is
the one thing folded (there is no other way to show it). Its measurement tells a table how narrow
its column may get (:class:`symcheck.output.render.Fitted` uses it).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

__all__ = ["Flow", "Piece", "formula", "words"]

_SPACES = re.compile(r"(\s+)")


@dataclass(frozen=True)
class Piece:
    """Text in one style; ``whole``: a formula, never broken across lines."""

    text: str
    style: str = ""
    whole: bool = False


def words(text: str, style: str = "") -> Piece:
    """Prose: it breaks at its spaces; a newline starts a new line."""
    return Piece(text, style)


def formula(text: str, style: str = "") -> Piece:
    """A formula: kept on one line."""
    return Piece(text, style, whole=True)


#: a token: the (text, style) segments between two breakable spaces
Token = list[tuple[str, str]]


def _paragraphs(pieces: Iterable[Piece]) -> list[list[Token]]:
    """The tokens of each line the pieces start (a newline in prose starts one)."""
    paragraphs: list[list[Token]] = [[]]
    token: Token = []

    def close() -> None:
        if token:
            paragraphs[-1].append(token.copy())
            token.clear()

    for piece in pieces:
        if piece.whole:
            token.append((piece.text, piece.style))
            continue
        for part in _SPACES.split(piece.text):
            if part.isspace():
                close()
                paragraphs.extend([] for _ in range(part.count("\n")))
            elif part:
                token.append((part, piece.style))
    close()
    return paragraphs


def _width(token: Token) -> int:
    return sum(cell_len(text) for text, _ in token)


class Flow:
    """Pieces laid out line by line, each line as full as it can be without breaking a formula."""

    def __init__(self, *pieces: Piece, style: str = "") -> None:
        self.paragraphs, self.style = _paragraphs(pieces), style

    def lines(self, width: int) -> list[Text]:
        """The lines at ``width`` columns (a formula wider than that stands alone on its line)."""
        out: list[Text] = []
        for paragraph in self.paragraphs:
            line, used = Text(style=self.style), 0
            for token in paragraph:
                size = _width(token)
                if used and used + 1 + size > width:
                    out.append(line)
                    line, used = Text(style=self.style), 0
                if used:
                    line.append(" ")
                    used += 1
                for text, style in token:
                    line.append(text, style)
                used += size
            out.append(line)
        return out

    @property
    def plain(self) -> str:
        """The text on unlimited lines (what a test compares)."""
        return "\n".join(line.plain for line in self.lines(10**9))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # every line fits but one holding a formula wider than the width: rich folds that one
        yield Text("\n", style=self.style, overflow="fold").join(self.lines(options.max_width))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest_token = max((_width(t) for p in self.paragraphs for t in p), default=0)
        widest_line = max((line.cell_len for line in self.lines(10**9)), default=0)
        return Measurement(widest_token, widest_line).clamp(max_width=options.max_width)
