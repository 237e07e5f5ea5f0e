"""Expression trees as JSON lists, parsed into tuples of the same shape, and validated.

An expression is ``["int", n]``, ``["rat", p, q]`` (q > 1, gcd 1), ``["var", name]``,
``["const", "pi"]``, ``["add", a, b, ...]``, ``["mul", a, b, ...]``, ``["pow", base, exp]``,
``[f, x]`` for f in :data:`FUNCTIONS`, or ``["piecewise", [value, cond], ...]`` (the first
condition that holds chooses; none holding is undefined). A condition is ``[rel, l, r]`` for
rel in :data:`RELATIONS`, ``["and", c, ...]``, ``["or", c, ...]``, ``["not", c]``,
``["true"]`` or ``["false"]``. A path is the list of indices into these lists (JSON's own).
"""
from __future__ import annotations

import json
from typing import Any

from symcheck.kernel.verdict import Reject

Node = tuple

FUNCTIONS = frozenset({"exp", "log", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asinh",
                       "atan", "erf", "erfc", "abs",
                       "acos", "asin", "atanh", "acosh", "floor", "ceil", "gamma", "lgamma", "lambertw"})
#: functions the kernel evaluates but never calls analytic: floor and ceil jump at the integers,
#: the others are analytic only inside domains it does not prove (|u| < 1, u > 1, u off the poles)
NOT_PROVED_ANALYTIC = frozenset({"acos", "asin", "atanh", "acosh", "floor", "ceil", "gamma", "lgamma",
                                 "lambertw"})
RELATIONS = frozenset({"gt", "ge", "lt", "le", "eq", "ne"})
CONSTANTS = frozenset({"pi"})
MAX_NODES = 50_000
MAX_DEPTH = 120
MAX_INT_BITS = 4096
MAX_NAME = 40


class _Budget:
    def __init__(self) -> None:
        self.nodes = 0

    def tick(self, depth: int) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise Reject(f"the tree has more than {MAX_NODES} nodes")
        if depth > MAX_DEPTH:
            raise Reject(f"the tree is nested deeper than {MAX_DEPTH}")


def show(obj: Any, limit: int = 120) -> str:
    """A short one-line rendering for reasons."""
    try:
        text = json.dumps(to_json(obj) if isinstance(obj, tuple) else obj, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = repr(obj)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _int(x: Any, what: str) -> int:
    if type(x) is not int:
        raise Reject(f"{what} must be a JSON integer, got {show(x, 40)}")
    if x.bit_length() > MAX_INT_BITS:
        raise Reject(f"{what} has more than {MAX_INT_BITS} bits")
    return x


def parse_expr(obj: Any, budget: _Budget | None = None, depth: int = 0) -> Node:
    """The validated tuple form of an expression, or Reject naming what is wrong."""
    budget = budget or _Budget()
    budget.tick(depth)
    if not isinstance(obj, list) or not obj or not isinstance(obj[0], str):
        raise Reject(f"an expression must be a list starting with its head, got {show(obj, 60)}")
    head, args = obj[0], obj[1:]

    def arity(n: int) -> None:
        if len(args) != n:
            raise Reject(f"{head!r} takes {n} argument(s), got {len(args)}: {show(obj, 60)}")

    if head == "int":
        arity(1)
        return ("int", _int(args[0], "an int"))
    if head == "rat":
        arity(2)
        p, q = _int(args[0], "a numerator"), _int(args[1], "a denominator")
        from math import gcd
        if q <= 1 or gcd(p, q) != 1:
            raise Reject(f"a rat must be in lowest terms with denominator > 1: {show(obj, 60)}")
        return ("rat", p, q)
    if head == "var":
        arity(1)
        if not isinstance(args[0], str) or not args[0].isidentifier() or len(args[0]) > MAX_NAME:
            raise Reject(f"a variable name must be an identifier: {show(obj, 60)}")
        return ("var", args[0])
    if head == "const":
        arity(1)
        if args[0] not in CONSTANTS:
            raise Reject(f"unknown constant {show(args[0], 40)}; known: {sorted(CONSTANTS)}")
        return ("const", args[0])
    if head in ("add", "mul"):
        if len(args) < 2:
            raise Reject(f"{head!r} needs at least 2 arguments: {show(obj, 60)}")
        return (head, *(parse_expr(a, budget, depth + 1) for a in args))
    if head == "pow":
        arity(2)
        return ("pow", parse_expr(args[0], budget, depth + 1), parse_expr(args[1], budget, depth + 1))
    if head in FUNCTIONS:
        arity(1)
        return (head, parse_expr(args[0], budget, depth + 1))
    if head == "piecewise":
        if not args:
            raise Reject("a piecewise needs at least one [value, condition] pair")
        pairs = []
        for pair in args:
            if not isinstance(pair, list) or len(pair) != 2:
                raise Reject(f"a piecewise branch must be [value, condition]: {show(pair, 60)}")
            pairs.append((parse_expr(pair[0], budget, depth + 2), parse_cond(pair[1], budget, depth + 2)))
        return ("piecewise", *pairs)
    raise Reject(f"unknown expression head {head!r}")


def parse_cond(obj: Any, budget: _Budget | None = None, depth: int = 0) -> Node:
    budget = budget or _Budget()
    budget.tick(depth)
    if not isinstance(obj, list) or not obj or not isinstance(obj[0], str):
        raise Reject(f"a condition must be a list starting with its head, got {show(obj, 60)}")
    head, args = obj[0], obj[1:]
    if head in RELATIONS and len(args) == 2:
        return (head, parse_expr(args[0], budget, depth + 1), parse_expr(args[1], budget, depth + 1))
    if head in ("and", "or") and len(args) >= 2:
        return (head, *(parse_cond(a, budget, depth + 1) for a in args))
    if head == "not" and len(args) == 1:
        return ("not", parse_cond(args[0], budget, depth + 1))
    if head in ("true", "false") and not args:
        return (head,)
    if head in RELATIONS | {"and", "or", "not", "true", "false"}:
        raise Reject(f"wrong number of arguments for condition {head!r}: {show(obj, 60)}")
    raise Reject(f"unknown condition head {head!r}")


def to_json(node: Any) -> Any:
    if isinstance(node, tuple):
        return [to_json(x) for x in node]
    return node


def children(node: Node) -> list[Node]:
    """Sub-expressions and sub-conditions (a piecewise's pairs flattened)."""
    if node[0] in ("int", "rat", "var", "const", "true", "false"):
        return []
    if node[0] == "piecewise":
        return [x for pair in node[1:] for x in pair]
    return list(node[1:])


def walk(node: Node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(children(n))


def free_vars(node: Node) -> set[str]:
    return {n[1] for n in walk(node) if n[0] == "var"}


def _index(node: Any, i: Any, path: list) -> Any:
    if type(i) is not int or not isinstance(node, tuple) or not 0 <= i < len(node) \
            or (i == 0 and (not node or isinstance(node[0], str))):
        raise Reject(f"path {path} does not lead to a sub-expression")
    return node[i]


def get(node: Node, path: Any) -> Node:
    if not isinstance(path, list):
        raise Reject(f"a path must be a list of indices, got {show(path, 40)}")
    for i in path:
        node = _index(node, i, path)
    if not isinstance(node, tuple) or not node or not isinstance(node[0], str):
        raise Reject(f"path {path} does not lead to an expression")
    return node


def replace(node: Node, path: list, new: Node) -> Node:
    if not path:
        return new
    i = path[0]
    return node[:i] + (replace(node[i], path[1:], new),) + node[i + 1:]


def substitute(node: Node, name: str, value: Node) -> Node:
    """``node`` with every ``["var", name]`` replaced by ``value``."""
    if node == ("var", name):
        return value
    if node[0] in ("int", "rat", "var", "const", "true", "false"):
        return node
    if node[0] == "piecewise":
        return ("piecewise", *((substitute(v, name, value), substitute(c, name, value)) for v, c in node[1:]))
    return (node[0], *(substitute(a, name, value) for a in node[1:]))
