"""The derivative of a tree in one variable, by the textbook rules (for the monotone argument).

Only what the monotone sign argument needs: a variable exponent b^e by b^e·(e'·log b + e·b'/b)
(the kernel's b^e with a variable e is defined only for b > 0, where that holds); a piecewise
or an absolute value has no derivative here (:class:`Unknown`), and that argument then fails.
"""
from __future__ import annotations

from symcheck.kernel.evaluate import Unknown
from symcheck.kernel.tree import Node, free_vars

ZERO, ONE = ("int", 0), ("int", 1)


def _mul(*xs: Node) -> Node:
    return ("mul", *xs)


def _pow(x: Node, n: int) -> Node:
    return ("pow", x, ("int", n))


def derivative(node: Node, v: str) -> Node:
    head = node[0]
    if v not in free_vars(node):
        return ZERO
    if head == "var":
        return ONE
    if head == "add":
        return ("add", *(derivative(a, v) for a in node[1:]))
    if head == "mul":
        args = node[1:]
        return ("add", *(_mul(*args[:i], derivative(a, v), *args[i + 1:]) for i, a in enumerate(args)))
    if head == "pow":
        base, e = node[1], node[2]
        if v in free_vars(e):  # b^e is defined only for b > 0 there: (b^e)' = b^e·(e'·log b + e·b'/b)
            return _mul(node, ("add", _mul(derivative(e, v), ("log", base)),
                               _mul(e, derivative(base, v), _pow(base, -1))))
        lowered = ("int", e[1] - 1) if e[0] == "int" else ("add", e, ("int", -1))
        return _mul(e, ("pow", base, lowered), derivative(base, v))
    if head not in ("exp", "log", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asinh", "atan", "erf", "erfc"):
        raise Unknown(f"no derivative of {head!r}")
    u = node[1]
    du = derivative(u, v)
    outer = {
        "exp": node,
        "log": _pow(u, -1),
        "sin": ("cos", u),
        "cos": _mul(("int", -1), ("sin", u)),
        "tan": ("add", ONE, _pow(("tan", u), 2)),
        "sinh": ("cosh", u),
        "cosh": ("sinh", u),
        "tanh": ("add", ONE, _mul(("int", -1), _pow(("tanh", u), 2))),
        "asinh": ("pow", ("add", _pow(u, 2), ONE), ("rat", -1, 2)),
        "atan": _pow(("add", ONE, _pow(u, 2)), -1),
        "erf": _mul(("int", 2), ("pow", ("const", "pi"), ("rat", -1, 2)), ("exp", _mul(("int", -1), _pow(u, 2)))),
        "erfc": _mul(("int", -2), ("pow", ("const", "pi"), ("rat", -1, 2)), ("exp", _mul(("int", -1), _pow(u, 2)))),
    }[head]
    return _mul(outer, du)
