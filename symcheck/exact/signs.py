"""Signs of closed-form real numbers, decided with a proof, and numbers put into branches.

Every decision a case split rests on comes down to the sign of an exact number: a cut point
against an interval's end, a branch condition at a point. :func:`exact_sign` answers with a
proof or not at all: 0 only when an equivalence-preserving rewrite reduces the number to 0,
±1 only with a certificate from ball arithmetic (:func:`~symcheck.exact.evaluate.certify_nonzero`).
SymPy's own numeric comparisons (``is_positive`` on a number, a relational evaluated with
``evalf``) are never the answer: with catastrophic cancellation they are wrong.

:func:`at_point` puts a number into an expression with branches (``σ(1)`` for a piecewise σ)
and chooses each branch by those certified signs, where SymPy's substitution would decide
``2·log(1 + e^-2000) <= 0`` with ``evalf`` and take the wrong branch.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

import sympy
from sympy import S

from symcheck.core.errors import Undecided
from symcheck.core.printing import text
from symcheck.exact.evaluate import certify_nonzero
from symcheck.exact.zero_proof import generator_identity_safe, proved_zero

__all__ = ["Undecided", "exact_sign", "certified_order", "at_point", "at_values", "nonsmooth_to_piecewise",
           "substitute", "evaluation_is_identity", "EXACT_SIGN_BITS"]

#: the most bits spent on the sign of one closed-form number (e^-2000 needs about 2900)
EXACT_SIGN_BITS = 8192
#: nonsmooth primitives that are rewritten to Piecewise before their branches are chosen
_NONSMOOTH = (sympy.Abs, sympy.Max, sympy.Min, sympy.sign, sympy.Heaviside)




def exact_sign(value: sympy.Expr) -> int:
    """The sign of a closed-form real number: 0 only when proved, else certified non-zero.

    Zero needs an exact proof (:func:`~symcheck.exact.zero_proof.proved_zero`: a rational
    function of independent atoms with zero numerator, or a radical number pinned to 0 by its
    resultant polynomial); a non-zero sign needs a certificate from the enclosures of
    :func:`~symcheck.exact.evaluate.certify_nonzero`. SymPy's ``is_zero``, ``simplify(x) == 0``
    and ``nsimplify`` are never asked: at low precision they call ``log(1 + e^-30) −
    log(1 + 2e^-30)`` zero. Anything else is Undecided.

    >>> exact_sign(sympy.log(1 + sympy.exp(-30)) - sympy.log(1 + 2*sympy.exp(-30)))
    -1
    >>> exact_sign(sympy.exp(-60) - sympy.exp(-30)**2)
    0
    """
    value = sympy.sympify(value)
    if value.is_Rational or value.is_Float:  # exact: a Float is its binary value
        return int(bool(value > 0)) - int(bool(value < 0))
    if not value.is_number:
        raise Undecided(f"{text(value)} is not a number")
    # a quick enclosure first: the generator identity expands polynomials in the atoms, which
    # can blow up (several exp(10^-k) over one base) where 256 bits settle the sign at once
    certificate = certify_nonzero(value, {}, max_prec=256)
    if certificate is not None:
        return certificate.sign
    if generator_identity_safe(value):  # exact: most zeros are structural
        return 0
    certificate = certify_nonzero(value, {}, max_prec=EXACT_SIGN_BITS)
    if certificate is not None:
        return certificate.sign
    if proved_zero(value):
        return 0
    raise Undecided(f"cannot decide the sign of {text(value)}")


def certified_order(x: sympy.Expr, y: sympy.Expr) -> int:
    """The sign of x − y (±oo allowed at the ends), certified; Undecided otherwise."""
    if x == y:
        return 0
    if x.is_Rational and y.is_Rational:
        return 1 if x > y else -1
    if x is S.NegativeInfinity or y is S.Infinity:
        return -1
    if x is S.Infinity or y is S.NegativeInfinity:
        return 1
    if isinstance(x, sympy.CRootOf) or isinstance(y, sympy.CRootOf):
        return _order_roots(x, y)
    return exact_sign(x - y)


def _root_interval(r: sympy.CRootOf, eps: sympy.Rational) -> tuple[sympy.Rational, sympy.Rational]:
    """A closed rational interval that contains the real root r (exact isolation, width ≤ eps)."""
    intervals = sympy.Poly(r.poly.as_expr(), r.poly.gen).intervals(eps=eps, sqf=True)
    if not r.is_real or r.index >= len(intervals):
        raise Undecided(f"{text(r)} is not a real root")
    a, b = intervals[r.index]  # real roots are indexed in increasing order
    return sympy.Rational(a), sympy.Rational(b)


def _order_roots(x: sympy.Expr, y: sympy.Expr) -> int:
    """Compare through exact isolating intervals, refined until they separate the two."""
    if isinstance(x, sympy.CRootOf) and isinstance(y, sympy.CRootOf) and x.poly == y.poly:
        i, j = int(x.index), int(y.index)
        return (i > j) - (i < j)
    for digits in (10, 30, 100, 300):
        eps = sympy.Rational(1, 10**digits)
        xa, xb = _root_interval(x, eps) if isinstance(x, sympy.CRootOf) else (x, x)
        ya, yb = _root_interval(y, eps) if isinstance(y, sympy.CRootOf) else (y, y)
        try:
            if certified_order(xa, yb) > 0:
                return 1
            if certified_order(xb, ya) < 0:
                return -1
        except Undecided:
            continue
    raise Undecided(f"cannot order {text(x)} and {text(y)} exactly")



@functools.lru_cache(maxsize=512)  # keyed by the whole expression: each point of one σ reuses it
def nonsmooth_to_piecewise(expr: sympy.Expr) -> sympy.Expr:
    """Abs, Max, Min, sign and Heaviside as Piecewise, also inside conditions.

    Written out here, each Piecewise and condition built unevaluated: SymPy's own
    ``rewrite(Piecewise)`` evaluates the result, which decides a condition on a number by its
    low-precision guess (``Max(z, z + P)`` became ``z + P`` and ``Abs(P)`` became ``P`` for
    P ≈ −2.7e-40). The conditions are left for certified signs to decide.
    """
    def walk(node: sympy.Basic, depth: int = 0) -> sympy.Basic:
        if not node.args or not node.has(*_NONSMOOTH):
            return node
        if depth > 20:  # a subclass whose own Piecewise rewrite brings back a nonsmooth node
            raise Undecided("nonsmooth functions nested too deeply to rewrite")
        if isinstance(node, sympy.Piecewise):  # conditions lifted, never SymPy's ITE rewrite
            return sympy.Piecewise(*((walk(value), _lifted(walk(cond))) for value, cond in node.args),
                                   evaluate=False)
        args = [walk(arg) for arg in node.args]
        if isinstance(node, _NONSMOOTH):
            # built from the rewritten arguments unevaluated: SymPy's Max(C, Piecewise(…))
            # would compare C with the Piecewise (by evalf, or fail: "not comparable")
            rewritten = _as_piecewise(node.func(*args, evaluate=False))
            return walk(rewritten, depth + 1) if rewritten.has(*_NONSMOOTH) else rewritten
        if args == list(node.args):
            return node
        if isinstance(node, (sympy.And, sympy.Or)):  # pure logic on decided parts, nothing else
            return (_conjunction if isinstance(node, sympy.And) else _disjunction)(args)
        if isinstance(node, sympy.Not):
            return _negated(args[0])
        if isinstance(node, (sympy.core.relational.Relational, sympy.logic.boolalg.BooleanFunction)):
            with sympy.evaluate(False):  # a condition: decided later by certified signs only
                return node.func(*args)
        return node.func(*args)

    try:
        return walk(expr)
    except RecursionError:
        raise Undecided("nonsmooth functions nested too deeply to rewrite") from None


def _as_piecewise(e: sympy.Expr) -> sympy.Expr:
    """One nonsmooth node as a Piecewise whose conditions are not evaluated."""
    def pw(*pairs: tuple[object, object]) -> sympy.Expr:
        # a condition holding a Piecewise (Min(6, Max(0, z + 3)) compares with Max's Piecewise)
        # is lifted here: SymPy's ExprCondPair would rewrite it as an ITE through as_set and
        # solve_univariate_inequality, deciding signs of numbers by evalf (Min(P, Max(0, z))
        # came out 0 for z ≤ 0 with P ≈ −2.7e-40)
        return sympy.Piecewise(*((value, _lifted(cond)) for value, cond in pairs), evaluate=False)

    def rel(kind: Callable[..., sympy.Basic], x: sympy.Expr, y: object) -> sympy.Basic:
        return kind(x, y, evaluate=False)

    if type(e) not in _NONSMOOTH:  # a subclass with a rewrite of its own
        return e.rewrite(sympy.Piecewise)
    x = e.args[0]
    if isinstance(e, sympy.Abs):
        return pw((x, rel(sympy.GreaterThan, x, 0)), (sympy.Mul(-1, x, evaluate=False), True))
    if isinstance(e, sympy.sign):
        return pw((1, rel(sympy.StrictGreaterThan, x, 0)), (-1, rel(sympy.StrictLessThan, x, 0)), (0, True))
    if isinstance(e, sympy.Heaviside):
        at_zero = e.args[1]  # SymPy (≥ 1.9) always stores H(0), 1/2 unless given
        return pw((0, rel(sympy.StrictLessThan, x, 0)), (at_zero, rel(sympy.Eq, x, 0)), (1, True))
    # Max (Min): the first argument at least (at most) every later one, in order
    kind = sympy.GreaterThan if isinstance(e, sympy.Max) else sympy.LessThan
    args = e.args
    pairs = [(a, sympy.And(*(rel(kind, a, b) for b in args[i + 1:]), evaluate=False))
             for i, a in enumerate(args[:-1])]
    return pw(*pairs, (args[-1], True))


def _lifted(cond: sympy.Basic) -> sympy.Basic:
    """``cond`` with every Piecewise inside a relation taken out by cases, exactly:
    R(…P…) with P = Piecewise((e₁, c₁), (e₂, c₂), …) is Or over i of (¬c₁ ∧ … ∧ ¬c_{i−1} ∧ c_i ∧ R(…e_i…)).
    Everything is built unevaluated, so no relation is decided on the way."""
    if not isinstance(cond, sympy.Basic) or not cond.has(sympy.Piecewise):
        return cond
    with sympy.evaluate(False):
        if isinstance(cond, (sympy.And, sympy.Or)):
            combine = _conjunction if isinstance(cond, sympy.And) else _disjunction
            return combine([_lifted(arg) for arg in cond.args])
        if isinstance(cond, sympy.Not):
            return _negated(_lifted(cond.args[0]))
        if isinstance(cond, sympy.ITE):
            return sympy.ITE(*(_lifted(arg) for arg in cond.args), evaluate=False)
        inner = next((node for node in sympy.preorder_traversal(cond) if isinstance(node, sympy.Piecewise)), None)
        if inner is None or not isinstance(cond, sympy.core.relational.Relational):
            return cond
        cases: list[tuple[sympy.Basic, sympy.Basic]] = []
        earlier: list[sympy.Basic] = []
        for value, condition in inner.args:
            condition = _lifted(condition)
            here = [*(_negated(c) for c in earlier), condition, _lifted(_decided(cond.xreplace({inner: value})))]
            cases.append(_conjunction(here))
            earlier.append(condition)
        return _disjunction(cases)


def _decided(relation: sympy.Basic) -> sympy.Basic:
    """A relation between numbers as True or False when an Arb enclosure of the difference
    excludes 0 (or it is rational); kept as written otherwise, for the case split. Only the
    enclosure: an exact zero proof here could expand without bound, outside any budget."""
    if type(relation) in _RELATIONS and not relation.free_symbols:
        difference = relation.lhs - relation.rhs
        if difference.is_Rational:
            sign = int(sympy.sign(difference))
        else:
            certificate = certify_nonzero(difference, {})
            if certificate is None:
                return relation
            sign = certificate.sign
        return sympy.true if _RELATIONS[type(relation)](sign) else sympy.false
    return relation


def _negated(cond: sympy.Basic) -> sympy.Basic:
    if cond is S.true or cond is S.false:
        return sympy.false if cond is S.true else sympy.true
    return sympy.Not(cond, evaluate=False)


def _conjunction(parts: list[sympy.Basic]) -> sympy.Basic:
    """And by pure logic only (True dropped, False absorbing), the rest unevaluated."""
    if any(p is S.false for p in parts):
        return sympy.false
    kept = [p for p in parts if p is not S.true]
    return kept[0] if len(kept) == 1 else sympy.And(*kept, evaluate=False) if kept else sympy.true


def _disjunction(parts: list[sympy.Basic]) -> sympy.Basic:
    if any(p is S.true for p in parts):
        return sympy.true
    kept = [p for p in parts if p is not S.false]
    return kept[0] if len(kept) == 1 else sympy.Or(*kept, evaluate=False) if kept else sympy.false


#: functions whose automatic evaluation at a number only applies identities (exact values at
#: rational multiples of π, periodicity, parity read from the written coefficient): SymPy's
#: evaluation is kept for them. Not here, and so kept as written: ``log`` (a negative argument
#: becomes iπ + log(−x) by SymPy's guess of its sign), roots (√(x·y) is split by the guessed
#: signs of the factors, √(x²) becomes ±x), ``atan`` (atan(tan(x)) compares x with ±π/2 by
#: evalf: it crashed inside SymPy 10⁻³⁰⁰ above π/2), and every nonsmooth or branching function.
_IDENTITY_EVALUATED = (sympy.exp, sympy.sin, sympy.cos, sympy.tan, sympy.tanh, sympy.sinh, sympy.cosh,
                       sympy.asinh, sympy.erf, sympy.erfc, sympy.CRootOf)


def evaluation_is_identity(expr: sympy.Basic) -> bool:
    """Does SymPy's automatic evaluation of ``expr`` (at any numbers) apply identities only?"""
    return all(node.is_Atom or _node_evaluation_is_identity(node) for node in sympy.preorder_traversal(expr))


def substitute(expr: sympy.Expr, values: Mapping[sympy.Symbol, sympy.Expr]) -> sympy.Expr:
    """``expr`` with ``values`` put in, rebuilt node by node: a node is evaluated by SymPy
    only where its automatic evaluation applies identities (sums, products, integer powers,
    exp, trigonometric and a few odd functions) or all its arguments are rationals (exact
    rational arithmetic: ``Max(-1, 1/2)``, ``Abs(-1/2)``); any other node is kept as written, so
    that no rewrite that reads SymPy's low-precision guess of the sign of a number
    (``√((c)²) → c``, ``log(c) → iπ + log(−c)``, ``Abs(c) → c``) changes it. Branches are not
    chosen here (:func:`at_values` does that with certified signs). A CRootOf is never entered:
    its polynomial may be written in the variable itself (SymPy's cache hands back an equal
    CRootOf made with another generator)."""
    values = {v: sympy.sympify(x) for v, x in values.items()}
    memo: dict[sympy.Basic, sympy.Basic] = {}

    def walk(node: sympy.Basic) -> sympy.Basic:
        if node in values:
            return values[node]
        if not node.args or isinstance(node, sympy.CRootOf) or not (node.free_symbols & values.keys()):
            return node
        if node not in memo:
            args = [walk(a) for a in node.args]
            if _node_evaluation_is_identity(node) or all(a.is_Rational for a in args):
                memo[node] = node.func(*args)
            else:
                with sympy.evaluate(False):
                    memo[node] = node.func(*args)
        return memo[node]

    return walk(sympy.sympify(expr))


def at_point(expr: sympy.Expr, var: sympy.Symbol, value: sympy.Expr) -> sympy.Expr:
    """``expr`` with ``var = value``; for a number, every branch chosen by a certified sign.

    A branch whose condition cannot be decided at the point is left as written (an
    unevaluated Piecewise at that number), for the case split to decide or keep open.

    >>> from symcheck.language.symbols import Z
    >>> at_point(sympy.Piecewise((1, 2*sympy.log(1 + sympy.exp(-2000)) * Z <= 0), (0, True)), Z, 1)
    0
    """
    return at_values(expr, {var: sympy.sympify(value)})


def at_values(expr: sympy.Expr, values: Mapping[sympy.Symbol, sympy.Expr]) -> sympy.Expr:
    """:func:`at_point` for several variables at once."""
    values = {v: sympy.sympify(x) for v, x in values.items()}
    if not all(x.is_number for x in values.values()):
        return expr.xreplace(values)
    if not expr.has(sympy.Piecewise, *_NONSMOOTH):
        return substitute(expr, values)
    return _chosen(nonsmooth_to_piecewise(expr), values)


def _chosen(expr: sympy.Basic, values: Mapping[sympy.Symbol, sympy.Expr]) -> sympy.Basic:
    if not expr.free_symbols & values.keys():
        return expr
    if not expr.has(sympy.Piecewise):
        return substitute(expr, values)
    if isinstance(expr, sympy.Piecewise):
        for branch, cond in expr.args:
            truth = _truth(cond, values)
            if truth is None:
                with sympy.evaluate(False):  # keep the undecided choice for a later proof
                    return expr.xreplace(values)
            if truth:
                return _chosen(branch, values)
        raise Undecided(f"no branch of {text(expr)} applies at {text(values)}")
    args = [_chosen(arg, values) for arg in expr.args]
    if _node_evaluation_is_identity(expr):
        return expr.func(*args)
    with sympy.evaluate(False):  # e.g. a root of a chosen branch: not rewritten by a guessed sign
        return expr.func(*args)


def _node_evaluation_is_identity(node: sympy.Basic) -> bool:
    return (node.is_Add or node.is_Mul or isinstance(node, _IDENTITY_EVALUATED)
            or (node.is_Pow and node.exp.is_Integer))


_RELATIONS: dict[type[sympy.Rel], Callable[[int], bool]] = {
    sympy.StrictGreaterThan: lambda s: s > 0, sympy.GreaterThan: lambda s: s >= 0,
    sympy.StrictLessThan: lambda s: s < 0, sympy.LessThan: lambda s: s <= 0,
    sympy.Eq: lambda s: s == 0, sympy.Ne: lambda s: s != 0,
}


def _truth(cond: sympy.Basic, values: Mapping[sympy.Symbol, sympy.Expr]) -> bool | None:
    if cond is S.true or cond is S.false:
        return bool(cond)
    if type(cond) in _RELATIONS:
        difference = _chosen(cond.lhs, values) - _chosen(cond.rhs, values)
        try:
            return _RELATIONS[type(cond)](exact_sign(difference))
        except Undecided:
            return None
    if isinstance(cond, (sympy.And, sympy.Or)):
        decisive = isinstance(cond, sympy.Or)
        truths = [_truth(arg, values) for arg in cond.args]
        return decisive if decisive in truths else None if None in truths else not decisive
    if isinstance(cond, sympy.Not):
        inner = _truth(cond.args[0], values)
        return None if inner is None else not inner
    if isinstance(cond, sympy.ITE):  # Min and Max rewrite to Piecewise with ITE conditions
        test = _truth(cond.args[0], values)
        if test is None:
            either = {_truth(cond.args[1], values), _truth(cond.args[2], values)}
            return either.pop() if len(either) == 1 else None
        return _truth(cond.args[1] if test else cond.args[2], values)
    return None
