"""The kernel's own table of identities, and the instance matcher.

A rule ``lhs = rhs`` holds at every real point where its side conditions hold, and there
both sides are defined at the same points (so a rewrite in either direction keeps the value
wherever the expression before it is defined). Pattern variables are strings: ``"x"`` matches
any expression, ``"#n"`` only an ``["int", n]``. In an ``add``/``mul`` pattern with two
arguments the second matches the remaining arguments of a longer sum or product
(``["add", x, y]`` against ``a + b + c`` binds x = a, y = b + c).
"""
from __future__ import annotations

from dataclasses import dataclass

from symcheck.kernel.tree import Node

I = lambda n: ("int", n)  # noqa: E731
NEG = lambda x: ("mul", I(-1), x)  # noqa: E731


def _quotient(num: Node, den: Node) -> Node:
    return ("mul", num, ("pow", den, I(-1)))


#: a rule side: a tree whose leaves may be pattern variables, or a bare pattern variable ("x")
Pattern = tuple | str

_E2X = ("exp", ("mul", I(2), "x"))
_PI = ("const", "pi")


@dataclass(frozen=True)
class Rule:
    name: str
    lhs: Pattern
    rhs: Pattern
    #: (pattern variable, sign claim) that must hold on the whole piece
    conditions: tuple[tuple[str, str], ...] = ()

    @property
    def reversible(self) -> bool:
        """Right to left needs every variable of the left side bound by the right side."""
        return pattern_vars(self.lhs) <= pattern_vars(self.rhs)


RULES: dict[str, Rule] = {r.name: r for r in (
    Rule("exp_add", ("exp", ("add", "x", "y")), ("mul", ("exp", "x"), ("exp", "y"))),
    Rule("exp_int", ("exp", ("mul", "#n", "x")), ("pow", ("exp", "x"), "#n")),
    Rule("exp_zero", ("exp", I(0)), I(1)),
    Rule("log_one", ("log", I(1)), I(0)),
    Rule("log_exp", ("log", ("exp", "x")), "x"),
    Rule("exp_log", ("exp", ("log", "x")), "x", (("x", "pos"),)),
    Rule("log_mul", ("log", ("mul", "x", "y")), ("add", ("log", "x"), ("log", "y")), (("x", "pos"), ("y", "pos"))),
    Rule("log_pow", ("log", ("pow", "x", "e")), ("mul", "e", ("log", "x")), (("x", "pos"),)),
    Rule("pow_exp", ("pow", "x", "y"), ("exp", ("mul", "y", ("log", "x"))), (("x", "pos"),)),
    Rule("pow_mul", ("pow", ("mul", "x", "y"), "e"), ("mul", ("pow", "x", "e"), ("pow", "y", "e")),
         (("x", "pos"), ("y", "pos"))),
    Rule("pow_mul_nonneg", ("pow", ("mul", "x", "y"), "+r"), ("mul", ("pow", "x", "+r"), ("pow", "y", "+r")),
         (("x", "nonneg"), ("y", "nonneg"))),
    Rule("pow_zero", ("pow", I(0), "+r"), I(0)),
    Rule("pow_pow", ("pow", ("pow", "x", "a"), "b"), ("pow", "x", ("mul", "a", "b")), (("x", "pos"),)),
    Rule("sqrt_square", ("pow", ("pow", "x", I(2)), ("rat", 1, 2)), ("abs", "x")),
    Rule("square_sqrt", ("pow", ("pow", "x", ("rat", 1, 2)), I(2)), "x", (("x", "nonneg"),)),
    Rule("abs_nonneg", ("abs", "x"), "x", (("x", "nonneg"),)),
    Rule("abs_nonpos", ("abs", "x"), NEG("x"), (("x", "nonpos"),)),
    Rule("tanh_exp", ("tanh", "x"), _quotient(("add", _E2X, I(-1)), ("add", _E2X, I(1)))),
    Rule("sinh_exp", ("sinh", "x"), ("mul", ("rat", 1, 2), ("add", ("exp", "x"), NEG(("exp", NEG("x")))))),
    Rule("cosh_exp", ("cosh", "x"), ("mul", ("rat", 1, 2), ("add", ("exp", "x"), ("exp", NEG("x"))))),
    Rule("asinh_log", ("asinh", "x"), ("log", ("add", "x", ("pow", ("add", ("pow", "x", I(2)), I(1)), ("rat", 1, 2))))),
    Rule("asinh_sinh", ("asinh", ("sinh", "x")), "x"),
    Rule("sinh_asinh", ("sinh", ("asinh", "x")), "x"),
    Rule("tan_atan", ("tan", ("atan", "x")), "x"),
    Rule("atanh_tanh", ("atanh", ("tanh", "x")), "x"),
    Rule("acosh_cosh", ("acosh", ("cosh", "x")), ("abs", "x")),
    Rule("atan_sinh", ("atan", ("sinh", "x")), ("asin", ("tanh", "x"))),
    Rule("ceil_floor", ("ceil", "x"), NEG(("floor", NEG("x")))),
    Rule("erfc_erf", ("erfc", "x"), ("add", I(1), NEG(("erf", "x")))),
    Rule("sin_cos_square", ("add", ("pow", ("sin", "x"), I(2)), ("pow", ("cos", "x"), I(2))), I(1)),
    Rule("sin_add", ("sin", ("add", "x", "y")), ("add", ("mul", ("sin", "x"), ("cos", "y")),
                                                ("mul", ("cos", "x"), ("sin", "y")))),
    Rule("cos_add", ("cos", ("add", "x", "y")), ("add", ("mul", ("cos", "x"), ("cos", "y")),
                                                NEG(("mul", ("sin", "x"), ("sin", "y"))))),
    Rule("sin_pi", ("sin", ("mul", "#n", _PI)), I(0)),
    Rule("cos_pi", ("cos", ("mul", "#n", _PI)), ("pow", I(-1), "#n")),
    Rule("sin_zero", ("sin", I(0)), I(0)),
    Rule("cos_zero", ("cos", I(0)), I(1)),
    Rule("tan_sin_cos", ("tan", "x"), _quotient(("sin", "x"), ("cos", "x"))),
    *(Rule(f"{f}_odd", (f, NEG("x")), NEG((f, "x")))
      for f in ("sin", "tan", "sinh", "tanh", "asinh", "atan", "erf", "asin", "atanh")),
    *(Rule(f"{f}_even", (f, NEG("x")), (f, "x")) for f in ("cos", "cosh", "abs")),
)}


def _is_var(p) -> bool:
    return isinstance(p, str)


def match(pattern, node: Node, binding: dict) -> bool:
    """Extend ``binding`` so that ``pattern`` instantiated is ``node``; False if impossible."""
    if _is_var(pattern):
        if pattern.startswith("#") and node[0] != "int":
            return False
        if pattern.startswith("+") and not (node[0] == "rat" and node[1] > 0):
            return False
        if pattern in binding:
            return binding[pattern] == node
        binding[pattern] = node
        return True
    if pattern[0] != node[0]:
        return False
    if pattern[0] in ("int", "rat", "var", "const"):
        return pattern == node
    if pattern[0] in ("add", "mul") and len(pattern) == 3 and len(node) > 3:
        node = (node[0], node[1], (node[0], *node[2:]))
    if len(pattern) != len(node):
        return False
    return all(match(p, n, binding) for p, n in zip(pattern[1:], node[1:], strict=True))


def instantiate(pattern, binding: dict) -> Node:
    if _is_var(pattern):
        return binding[pattern]
    if pattern[0] in ("int", "rat", "var", "const"):
        return pattern
    return (pattern[0], *(instantiate(p, binding) for p in pattern[1:]))


def pattern_vars(pattern) -> set:
    if _is_var(pattern):
        return {pattern}
    if pattern[0] in ("int", "rat", "var", "const"):
        return set()
    return set().union(*(pattern_vars(p) for p in pattern[1:]))
