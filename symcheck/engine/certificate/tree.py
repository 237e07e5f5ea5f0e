"""SymPy expressions → the kernel's expression trees (docs/certificates.md, "Expressions").

This translation is the one part of the emitter whose correctness the kernel cannot re-check:
it states the claim. So it is structural and small — every SymPy node becomes the kernel node
of the same meaning, nothing is simplified on the way:

* numbers: Integer → ``int``, Rational → ``rat``, π → ``const pi``, e → ``exp(1)``; a Float,
  another constant or a complex number is refused (:class:`Unsupported`);
* Add, Mul, Pow (integer, rational or any exponent), and exp log sin cos tan sinh cosh tanh
  asinh atan erf erfc Abs acos asin atanh acosh floor ceiling gamma loggamma LambertW, each as
  the kernel function of the same meaning (the ``kernel`` head of :mod:`symcheck.core.functions`);
  frac and Mod by their definitions u − floor(u) and u − c·floor(u/c);
* the branching functions as a ``piecewise``: Max(x₁, …, xₙ) takes xᵢ when xᵢ ≥ xⱼ for every
  later j (the first maximum), Min dually, sign and Heaviside by the sign of their argument;
* a relation ``l rel r`` as ``[rel, l − r, 0]`` (``l − r`` built as ``add(l, mul(-1, r))``):
  the same truth, and the form the kernel's ``ring`` step can rewrite (the sign of l − r is
  what the kernel decides anyway);
* σ(u) of the opaque :data:`~symcheck.language.symbols.SIGMA`, when σ's own tree is given: σ's
  tree with the variable z replaced by u's tree (a substitution of trees, no SymPy evaluation).
"""
from __future__ import annotations

from typing import Any

import sympy
from sympy.core.function import AppliedUndef

from symcheck.core.functions import FUNCTIONS as TABLE
from symcheck.core.functions import rewritten
from symcheck.kernel.tree import Node, substitute, to_json

__all__ = ["Unsupported", "tree", "condition", "difference", "sigma_tree", "to_json", "ZERO", "ONE", "MINUS_ONE"]

ZERO, ONE, MINUS_ONE = ("int", 0), ("int", 1), ("int", -1)

# every function of the table (symcheck.core.functions) with a kernel head of the same meaning
# every parsed function's class is a SymPy class; the issubclass test says so to the type checker
_FUNCTIONS: dict[type[sympy.Basic], str] = {f.cls: f.kernel for f in TABLE if f.cls is not None
                                            and issubclass(f.cls, sympy.Basic) and f.kernel is not None}
_RELATIONS = {sympy.StrictGreaterThan: "gt", sympy.GreaterThan: "ge", sympy.StrictLessThan: "lt",
              sympy.LessThan: "le", sympy.Eq: "eq", sympy.Ne: "ne"}


class Unsupported(ValueError):
    """The expression has a part schema 1 cannot state (a Float, an unknown function, I, …)."""


def number(x: sympy.Rational | int) -> Node:
    x = sympy.Rational(x)
    return ("int", int(x.p)) if x.q == 1 else ("rat", int(x.p), int(x.q))


def neg(x: Node) -> Node:
    return ("mul", MINUS_ONE, x)


def difference(left: Node, right: Node) -> Node:
    """left − right, as the kernel writes it (no subtraction node)."""
    if right == ZERO:
        return left
    return ("add", left, neg(right))


def sigma_tree(sigma_expr: sympy.Expr, z: sympy.Symbol) -> Node:
    """σ's tree in the variable ``z`` (renamed ``"z"`` in the tree)."""
    return tree(sigma_expr.xreplace({z: sympy.Symbol("z", real=True)}) if z.name != "z" else sigma_expr)


def tree(expr: Any, sigma: Node | None = None) -> Node:
    """The kernel tree (tuples) of a SymPy expression; σ(u) is σ's tree at u when given."""
    expr = sympy.sympify(expr)
    if expr.is_Integer or expr.is_Rational:
        return number(expr)
    if expr.is_Float:
        raise Unsupported(f"a floating-point number {expr} has no exact value to state")
    if expr is sympy.pi:
        return ("const", "pi")
    if expr is sympy.E:
        return ("exp", ONE)
    if isinstance(expr, sympy.Symbol):
        name = expr.name
        if not name.isidentifier() or len(name) > 40:
            raise Unsupported(f"the variable name {name!r} is not an identifier")
        return ("var", name)
    if isinstance(expr, sympy.Add):
        return ("add", *(tree(a, sigma) for a in expr.args))
    if isinstance(expr, sympy.Mul):
        return ("mul", *(tree(a, sigma) for a in expr.args))
    if isinstance(expr, sympy.Pow):
        base, e = expr.args
        return ("pow", tree(base, sigma), tree(e, sigma))
    for func, name in _FUNCTIONS.items():
        if isinstance(expr, func):
            if len(expr.args) != 1:
                raise Unsupported(f"{name} with {len(expr.args)} arguments")
            return (name, tree(expr.args[0], sigma))
    definition = rewritten(expr)  # frac(u) = u − floor(u), Mod(u, c) = u − c·floor(u/c)
    if definition is not None:
        return tree(definition, sigma)
    if isinstance(expr, sympy.Piecewise):
        return ("piecewise", *((tree(v, sigma), condition(c, sigma)) for v, c in expr.args))
    if isinstance(expr, (sympy.Max, sympy.Min)):
        return _extremum(expr, sigma)
    if isinstance(expr, sympy.sign):
        x = tree(expr.args[0], sigma)
        return ("piecewise", (ONE, ("gt", x, ZERO)), (MINUS_ONE, ("lt", x, ZERO)), (ZERO, ("true",)))
    if isinstance(expr, sympy.Heaviside):
        x = tree(expr.args[0], sigma)
        at_zero = tree(expr.args[1], sigma) if len(expr.args) > 1 else ("rat", 1, 2)
        return ("piecewise", (ONE, ("gt", x, ZERO)), (ZERO, ("lt", x, ZERO)), (at_zero, ("true",)))
    if isinstance(expr, AppliedUndef) and sigma is not None and expr.func.__name__ == "sigma" \
            and len(expr.args) == 1:
        return substitute(sigma, "z", tree(expr.args[0], sigma))
    raise Unsupported(f"{type(expr).__name__} has no form in certificate schema 1: {sympy.sstr(expr)[:80]}")


def _extremum(expr: sympy.Basic, sigma: Node | None) -> Node:
    xs = [tree(a, sigma) for a in expr.args]
    if len(xs) == 1:
        return xs[0]
    pairs = []
    for i, x in enumerate(xs[:-1]):
        # Max: xᵢ − xⱼ ≥ 0 for every later j; Min: xⱼ − xᵢ ≥ 0
        tests = [("ge", difference(x, y) if isinstance(expr, sympy.Max) else difference(y, x), ZERO)
                 for y in xs[i + 1:]]
        pairs.append((x, tests[0] if len(tests) == 1 else ("and", *tests)))
    pairs.append((xs[-1], ("true",)))
    return ("piecewise", *pairs)


def condition(cond: Any, sigma: Node | None = None) -> Node:
    """A SymPy condition as a kernel condition; ``l rel r`` becomes ``[rel, l − r, 0]``."""
    if cond is sympy.true or cond is True:
        return ("true",)
    if cond is sympy.false or cond is False:
        return ("false",)
    if type(cond) in _RELATIONS:
        return (_RELATIONS[type(cond)], difference(tree(cond.lhs, sigma), tree(cond.rhs, sigma)), ZERO)
    if isinstance(cond, sympy.And):
        return ("and", *(condition(c, sigma) for c in cond.args))
    if isinstance(cond, sympy.Or):
        return ("or", *(condition(c, sigma) for c in cond.args))
    if isinstance(cond, sympy.Not):
        return ("not", condition(cond.args[0], sigma))
    raise Unsupported(f"the condition {sympy.sstr(cond)[:80]} has no form in certificate schema 1")
