"""Where the library's prose writes a formula: σ(a) = σ(1)·a, c = |a|^1, (k, v) → (βk, v/β).

Proof steps explain themselves in Unicode prose (their JSON keeps it); a LaTeX renderer must
set the formulas inside that prose as math. This module only finds them: :func:`formula_spans`
returns the (start, end) of each one, by a small grammar of the notation the library uses —

    expr   := term (OP term)*                      OP: = ≠ < > ≤ ≥ ∈ + − - → ↦ (spaces around)
    term   := [−-·]? factor (JOIN? factor | ·)*     JOIN: · × / ⊙, or nothing (αa, 2σ(0), (αa)(b/α))
    factor := atom postfix*  [ "(" list ")" ]      application: σ(z), u(a_j, b_j), tanh(z)
    atom   := Greek | identifier of ≤ 2 letters (+ digits) | number | range 1..3
              | "(" list ")" | "{" list "}" | "|" expr "|"       (after Σ, factors join by a space)
    postfix:= superscripts ² ᵀ ⁻¹, subscripts ₁, ′, _j, _{js}, ^k, ^{…}
    list   := expr (", " expr)*

An English word never parses (identifiers are at most two letters and not a two-letter word),
and a span is kept only when it holds an operator, an application or a sub/superscript — a lone
letter stays prose. How a span is typeset is the renderer's business (output/latex.py).
"""

from __future__ import annotations

import re

GREEK = frozenset("αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΘΛΞΠΣΦΨΩ")
SUPERSCRIPTS = frozenset("ᵀ⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹ⁿᵖ")
SUBSCRIPTS = frozenset("₀₁₂₃₄₅₆₇₈₉ⱼᵢ₋₊")
FUNCTIONS = frozenset({"exp", "log", "tanh", "max", "min", "sqrt", "sin", "cos", "sign", "erf"})
#: two-letter English words, never identifiers
_WORDS = frozenset({"of", "to", "is", "if", "by", "at", "so", "in", "or", "as", "be", "no", "on", "an",
                    "it", "up", "we", "do", "me", "my", "us", "am", "he", "eg", "ie"})
_OPERATORS = ("=", "≠", "<", ">", "≤", "≥", "∈", "+", "−", "-", "→", "↦")
_JOINS = "·×/⊙"
_GROUP = re.compile(r"[_^]\{[^{}\s]{1,12}\}|_[A-Za-z0-9α-ω]|\^(?:[−-]?\d+|[A-Za-zα-ω])")
_LETTERS = re.compile(r"[A-Za-z]+")
_NUMBER = re.compile(r"\d+(?:\.\.\d+|\.\d+)?(?!\.\.)")
#: what makes a span a formula rather than a lone symbol
_MATHY = frozenset("=≠<>≤≥∈+−→↦·×/⊙(|{^_′") | SUPERSCRIPTS | SUBSCRIPTS


class _Parser:
    """Recursive descent over one string; each method returns the end of what it read, or -1."""

    def __init__(self, text: str) -> None:
        self.s = text

    def _at(self, i: int) -> str:
        return self.s[i] if i < len(self.s) else ""

    def postfix(self, i: int) -> int:
        while True:
            ch = self._at(i)
            if ch in SUPERSCRIPTS or ch in SUBSCRIPTS or ch == "′":
                i += 1
            elif ch == "'" and not self._at(i + 1).isalpha():  # σ's is a possessive
                i += 1
            elif (m := _GROUP.match(self.s, i)) is not None:
                i = m.end()
            else:
                return i

    def atom(self, i: int) -> tuple[int, bool]:
        """(end, applicable): whether a parenthesised argument may follow."""
        ch = self._at(i)
        if ch in GREEK:
            return i + 1, True
        if ch == "(":
            return self.enclosed(i, "(", ")"), True
        if ch == "|":
            return self.enclosed(i, "|", "|"), False
        if ch == "{":
            return self.enclosed(i, "{", "}"), False
        if (m := _NUMBER.match(self.s, i)) is not None:
            return m.end(), False
        if (m := _LETTERS.match(self.s, i)) is not None:
            word, end = m.group(), m.end()
            if word in FUNCTIONS and self._at(end) == "(":
                return end, True
            if len(word) <= 2 and word not in _WORDS:
                while self._at(end).isdigit():
                    end += 1
                return end, True
        return -1, False

    def enclosed(self, i: int, opening: str, closing: str) -> int:
        inner = self.expr(i + 1) if opening == "|" else self.sequence(i + 1)
        if inner < 0 and opening == "(" and self._at(i + 1) == ")":
            return -1
        return inner + 1 if inner > 0 and self._at(inner) == closing else -1

    def factor(self, i: int) -> int:
        end, applicable = self.atom(i)
        if end < 0:
            return -1
        end = self.postfix(end)
        while applicable and self._at(end) == "(" and (after := self.enclosed(end, "(", ")")) > 0:
            end = self.postfix(after)
        return end

    def _juxtaposed(self, i: int) -> bool:
        """A letter or digit right after a Greek letter, ")" or a subscript (αa, 2σ, c_jK) multiplies."""
        ch, before = self._at(i), self.s[i - 1]
        return ch.isalnum() and (not (before.isascii() and before.isalnum()) or ch.isalpha() and self.s[i - 2] == "_")

    def term(self, i: int) -> int:
        start = i + 1 if self._at(i) in "−-·" else i
        end = self.factor(start)
        if end < 0:
            return -1
        if self._at(start) in "Σ∑":  # a sum's terms follow it after a space: Σ p_k·s^k, Σ_s u_s w_s
            while self._at(end) == " " and (after := self.factor(end + 1)) > 0:
                end = after
        while True:
            ch = self._at(end)
            if ch in _JOINS:
                after = self.factor(end + 1)
                if after > 0:
                    end = after
                elif ch == "·" and self._at(end + 1) == ")":  # σ(a·): the function z ↦ σ(a·z)
                    return end + 1
                else:
                    return end
            elif ch in GREEK or ch in "(|" or self._juxtaposed(end):
                after = self.factor(end)
                if after < 0:
                    return end
                end = after
            else:
                return end

    def expr(self, i: int) -> int:
        end = self.term(i)
        while end > 0:
            for op in _OPERATORS:
                for gap in (f" {op} ", op):
                    if self.s.startswith(gap, end) and (after := self.term(end + len(gap))) > 0:
                        break
                else:
                    continue
                end = after
                break
            else:
                return end
        return end

    def sequence(self, i: int) -> int:
        end = self.expr(i)
        while end > 0 and self.s.startswith(", ", end) and (after := self.expr(end + 2)) > 0:
            end = after
        return end


def _boundary(text: str, i: int) -> bool:
    return i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_^'′\\{" or text[i - 1] in GREEK)


def formula_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of every formula written in ``text``, left to right, not overlapping.

    >>> t = "so σ(a) = σ(1)·a, and c = |a|^1 for every a"
    >>> [t[a:b] for a, b in formula_spans(t)]
    ['σ(a) = σ(1)·a', 'c = |a|^1']
    """
    parser, spans, i = _Parser(text), [], 0
    while i < len(text):
        end = parser.expr(i) if _boundary(text, i) else -1
        if end > i:
            span = text[i:end]
            while span.endswith(")") and span.count("(") < span.count(")"):  # the prose's own ")"
                span, end = span[:-1], end - 1
            mathy = any(c in _MATHY for c in span) or (len(span) > 1 and any(c in GREEK for c in span))
            if mathy and not text.startswith("..", end) and span.count("(") == span.count(")"):
                spans.append((i, end))
                i = end
                continue
        i += 1
    return spans
