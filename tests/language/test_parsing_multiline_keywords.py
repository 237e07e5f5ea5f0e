"""A keyword-named parameter (SELU's ``lambda``) in a text of several lines.

The renaming finds each keyword token by (line, column) and turns it into an offset in the text
from the offsets at which the lines start: each line's start is the previous one's plus that
line's length. The text across lines must read exactly as the same text on one line.
"""
from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.language.parsing import parse_expression

LAM, Z = sympy.Symbol("lambda", real=True), sympy.Symbol("z", real=True)


@pytest.mark.parametrize("text", ["(z +\nlambda*z)", "(lambda*z +\n  lambda**2)", "(z\n+\nz**2\n- lambda)"])
def test_a_keyword_on_a_later_line_is_renamed_in_place(text):
    assert parse_expression(text, symbols=None).expr == parse_expression(" ".join(text.split()), symbols=None).expr


def test_the_value_across_lines():
    assert parse_expression("(lambda*z +\n  lambda**2)", symbols=None).expr == LAM * Z + LAM**2


@settings(max_examples=60, deadline=None)
@given(terms=st.lists(st.tuples(st.integers(-4, 4), st.sampled_from(["lambda", "class", "z", "def"]),
                                st.integers(1, 3)), min_size=2, max_size=5),
       breaks=st.lists(st.sampled_from([" ", "\n", "\n  ", " \n"]), min_size=4, max_size=4))
def test_a_text_across_lines_reads_as_on_one_line(terms, breaks):
    parts = [f"{c}*{w}**{k}" for c, w, k in terms]
    one_line = "(" + " + ".join(parts) + ")"
    several = "(" + "".join(p + ("" if i == len(parts) - 1 else breaks[i % len(breaks)] + "+ ")
                            for i, p in enumerate(parts)) + ")"
    want = sum(c * sympy.Symbol(w, real=True) ** k for c, w, k in terms)
    assert parse_expression(one_line, symbols=None).expr == want
    assert parse_expression(several, symbols=None).expr == want, several
