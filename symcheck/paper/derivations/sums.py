"""Equality of scalar expressions with finite sums: bound indices renamed to canonical names,
and a normal form of finite sums reached by sound rewrites only.

Two expressions are equal here only when their difference reduces to exactly 0; a rewrite that
does not apply leaves the expression as it is, so a gap can leave two equal sums unequal
("unknown"), never the reverse.
"""
from __future__ import annotations

import sympy
from sympy import S
from sympy.matrices.expressions.matexpr import MatrixElement

#: the index symbols of the hand-written sums: bound i (input coordinate), j (unit), s (rank);
#: free t (row) and l (column) of a generic entry
INDEX_I, INDEX_J, INDEX_L, INDEX_S, INDEX_T = sympy.symbols("i j l s t", integer=True)


def _role(variable: sympy.Symbol, body: sympy.Expr) -> str:
    """Where a summation index occurs (which matrix, which slot): its name-free identity."""
    slots = sorted(f"{sympy.sstr(element.args[0])}.{k}" for element in body.atoms(MatrixElement, sympy.Indexed)
                   for k, index in enumerate(element.args[1:]) if index == variable)
    return ",".join(slots)


def _canonical(expr: sympy.Expr, depth: int = 0) -> sympy.Expr:
    """α-rename bound summation indices so that equal sums are equal expressions.

    Sound because it is only ever a renaming: nested sums are merged (Σ_i Σ_j = Σ_{i,j}),
    limits with constant bounds are sorted (finite sums commute), and each index gets a name
    made of its depth, its position and its role -- unique along any chain of nested scopes,
    so no free symbol or outer index is captured.
    """
    if isinstance(expr, sympy.Sum):
        body, limits = expr.function, list(expr.limits)
        # Σ_i (Σ_j f) = Σ_{i,j} f, unless an inner index shadows an outer one
        while isinstance(body, sympy.Sum) and not {v for v, *_ in body.limits} & {v for v, *_ in limits}:
            limits = list(body.limits) + limits
            body = body.function
        body = _canonical(body, depth + 1)
        bound = {limit[0] for limit in limits}
        if len(bound) < len(limits):  # a repeated index: leave this level as it is
            return sympy.Sum(body, *limits)
        roles = {limit[0]: _role(limit[0], body) for limit in limits}
        if not any(bound & (lo.free_symbols | hi.free_symbols) for _, lo, hi in limits):
            limits.sort(key=lambda lim: (roles[lim[0]], sympy.sstr(lim[1]), sympy.sstr(lim[2])))
        renamed = {lim[0]: sympy.Symbol(f"_{depth}_{k}[{roles[lim[0]]}]", integer=True)
                   for k, lim in enumerate(limits)}
        return sympy.Sum(body.xreplace(renamed), *((renamed[v], lo, hi) for v, lo, hi in limits))
    if not expr.args or isinstance(expr, sympy.MatrixSymbol):
        return expr
    return expr.func(*(_canonical(a, depth) if isinstance(a, sympy.Basic) else a for a in expr.args))


def scalars_equal(lhs: sympy.Expr, rhs: sympy.Expr) -> bool:
    """Is ``lhs - rhs`` exactly 0, up to renaming of summation indices and sound rewrites of finite sums?"""
    lhs, rhs = sympy.sympify(lhs), sympy.sympify(rhs)
    difference = _canonical(lhs) - _canonical(rhs)
    if difference == 0 or sympy.expand(difference) == 0:
        return True
    if not (lhs.has(sympy.Sum) or rhs.has(sympy.Sum)):
        return False
    difference = _canonical(_sum_normal(lhs)) - _canonical(_sum_normal(rhs))
    return difference == 0 or sympy.expand(difference) == 0

# ---- finite sums in a normal form ---------------------------------------------------------------
# Every rewrite below is an identity of finite sums that holds for every value of the symbolic
# bounds (with d, m, e, r ≥ 1): linearity, Σ_i f · Σ_t g = Σ_{i,t} f g with fresh indices, a sum
# over one value written out, c ∈ [0, ab) read as c = bJ + S with J ∈ [0, a), S ∈ [0, b) (a
# bijection), and floor, Mod and Kronecker deltas reduced only where the ranges of the indices
# they hold force the value. A rewrite that does not apply leaves the expression as it is, so
# the worst a gap can do is leave two equal sums unequal ("unknown"), never the reverse.


Limits = tuple[tuple[sympy.Symbol, sympy.Expr, sympy.Expr], ...]
Ranges = dict[sympy.Symbol, tuple[sympy.Expr, sympy.Expr]]
#: a sum over at most this many values is written out term by term
_WRITE_OUT = 8


def _sum_normal(expr: sympy.Expr, ranges: Ranges | None = None) -> sympy.Expr:
    """``expr`` as Σ of terms ``c · Σ_{limits} monomial``, sums pulled out of products."""
    ranges = ranges or {}
    return sympy.Add(*(coefficient * (sympy.Sum(body, *limits) if limits else body)
                       for coefficient, limits, body in _collect(_terms(expr, ranges))))


def _collect(terms: list[tuple[Limits, sympy.Expr]]) -> list[tuple[sympy.Expr, Limits, sympy.Expr]]:
    out = []
    for limits, body in terms:
        coefficient, rest = body.as_coeff_Mul()
        out.append((coefficient, limits, rest))
    return out


def _terms(expr: sympy.Expr, ranges: Ranges) -> list[tuple[Limits, sympy.Expr]]:
    """The terms Σ_{limits} body of ``expr``; no body contains a sum outside a function's argument."""
    if isinstance(expr, sympy.Add):
        return [t for a in expr.args for t in _terms(a, ranges)]
    if isinstance(expr, sympy.Mul):
        out: list[tuple[Limits, sympy.Expr]] = [((), S.One)]
        for factor in expr.args:
            out = [(l1 + l2, b1 * b2) for l1, b1 in out for l2, b2 in _terms(factor, ranges)]
        return out
    if isinstance(expr, sympy.Pow) and expr.exp.is_Integer and 1 < expr.exp <= _WRITE_OUT and expr.base.has(sympy.Sum):
        return _terms(sympy.Mul(*([expr.base] * int(expr.exp)), evaluate=False), ranges)
    if isinstance(expr, sympy.Sum):
        # fresh indices: nothing outside can be captured when sums merge or factors move in
        fresh = {v: sympy.Dummy(str(v), integer=True) for v, _, _ in expr.limits}
        limits = tuple((fresh[v], lo.xreplace(fresh), hi.xreplace(fresh)) for v, lo, hi in expr.limits)
        inner = {**ranges, **{v: (lo, hi) for v, lo, hi in limits}}
        out = []
        for sub_limits, body in _terms(expr.function.xreplace(fresh), inner):
            out.extend(_simplify_term(sub_limits + limits, body, ranges))
        return out
    if expr.args and expr.has(sympy.Sum, sympy.floor, sympy.Mod, sympy.KroneckerDelta):
        return [((), _reduce_index(expr.func(*(_sum_normal(a, ranges) if isinstance(a, sympy.Expr) else a
                                               for a in expr.args)), ranges))]
    return [((), expr)]


def _simplify_term(limits: Limits, body: sympy.Expr, outer: Ranges) -> list[tuple[Limits, sympy.Expr]]:
    """Write out short sums, split block indices, apply deltas; then reduce floor/Mod/δ in the body."""
    for k, (v, lo, hi) in enumerate(limits):
        rest = limits[:k] + limits[k + 1:]
        count = sympy.simplify(hi - lo + 1)
        if count.is_Integer and 0 <= count <= _WRITE_OUT:  # Σ over `count` values
            out = []
            for value in range(int(count)):
                point = {v: lo + value}
                shifted = tuple((w, a.xreplace(point), b.xreplace(point)) for w, a, b in rest)
                out.extend(_simplify_term(shifted, body.xreplace(point), outer))
            return out
        split = _block_split(v, lo, hi, body)
        if split is not None:
            (J, S_, block), point = split, {v: split[2] * split[0] + split[1]}
            new = rest + ((S_, S.Zero, block - 1), (J, S.Zero, sympy.simplify((hi + 1) / block) - 1))
            return _simplify_term(new, body.xreplace(point), outer)
    ranges = {**outer, **{v: (lo, hi) for v, lo, hi in limits}}
    body = _reduce_index(body, ranges)
    for k, (v, _lo, _hi) in enumerate(limits):
        partner = _delta_partner(v, body, ranges)
        if partner is not None and all(v not in (a.free_symbols | b.free_symbols) for _, a, b in limits):
            point = {v: partner}
            body = _reduce_index(body.xreplace(point).replace(
                lambda e: isinstance(e, sympy.KroneckerDelta) and e.args[0] == e.args[1], lambda e: S.One), ranges)
            return _simplify_term(limits[:k] + limits[k + 1:], body, outer)
    return [(limits, body)]


def _block_split(v: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr, body: sympy.Expr
                 ) -> tuple[sympy.Symbol, sympy.Symbol, sympy.Expr] | None:
    """c ∈ [0, ab) with floor(c/b) in the body: (J, S, b) for c = bJ + S."""
    if lo != 0:
        return None
    size = sympy.expand(hi + 1)
    for node in body.atoms(sympy.floor):
        numerator, denominator = sympy.fraction(sympy.together(node.args[0]))
        blocks = sympy.simplify(size / denominator)
        if numerator == v and denominator.is_integer and denominator.is_positive \
                and blocks.is_integer and blocks.is_positive and blocks != 1:
            return sympy.Dummy("J", integer=True), sympy.Dummy("S", integer=True), denominator
    return None


def _in_range(index: sympy.Expr, lo: sympy.Expr, hi: sympy.Expr, ranges: Ranges) -> bool:
    """Is ``lo ≤ index ≤ hi`` forced by the index's own range (the same bounds, or a number)?"""
    if index.is_Integer:
        return bool(sympy.simplify(index - lo).is_nonnegative and sympy.simplify(hi - index).is_nonnegative)
    own = ranges.get(index)
    return (own is not None and sympy.simplify(own[0] - lo) == 0 and sympy.simplify(own[1] - hi) == 0
            and _proper(lo, hi))


def _proper(lo: sympy.Expr, hi: sympy.Expr) -> bool:
    """lo ≤ hi + 1 for every value of the dimensions: an ordinary range, not a reversed sum."""
    return bool(sympy.simplify(hi - lo + 1).is_nonnegative)


def _reduce_index(expr: sympy.Expr, ranges: Ranges) -> sympy.Expr:
    """floor(J + S/b) = J and Mod(S, b) = S when S ∈ [0, b); δ over a range both sides lie in."""
    def floor_rule(node: sympy.floor) -> sympy.Expr:
        whole: list[sympy.Expr] = []
        part: list[sympy.Expr] = []
        for term in sympy.Add.make_args(sympy.expand(node.args[0])):
            (whole if term.is_integer else part).append(term)
        numerator, denominator = sympy.fraction(sympy.together(sympy.Add(*part)))
        if not part or (numerator.is_Symbol and denominator.is_positive
                        and _in_range(numerator, S.Zero, denominator - 1, ranges)):
            return sympy.Add(*whole)
        return node

    def mod_rule(node: sympy.Mod) -> sympy.Expr:
        value, modulus = node.args
        return value if modulus.is_positive and _in_range(value, S.Zero, modulus - 1, ranges) else node

    def delta_rule(node: sympy.KroneckerDelta) -> sympy.Expr:
        if len(node.args) == 3:
            lo, hi = node.args[2]
            if all(_in_range(a, lo, hi, ranges) for a in node.args[:2]):
                return sympy.KroneckerDelta(node.args[0], node.args[1])
        return node

    expr = expr.replace(lambda e: isinstance(e, sympy.floor), floor_rule)
    expr = expr.replace(lambda e: isinstance(e, sympy.Mod), mod_rule)
    return expr.replace(lambda e: isinstance(e, sympy.KroneckerDelta), delta_rule)


def _delta_partner(v: sympy.Symbol, body: sympy.Expr, ranges: Ranges) -> sympy.Expr | None:
    """The value a factor δ(v, a) of the body forces on v, when a lies in v's own range."""
    lo, hi = ranges[v]
    if not _proper(lo, hi):
        return None
    for factor in sympy.Mul.make_args(body):
        if isinstance(factor, sympy.KroneckerDelta) and len(factor.args) == 2 and v in factor.args:
            other = factor.args[1] if factor.args[0] == v else factor.args[0]
            if v not in other.free_symbols and _in_range(other, lo, hi, ranges):
                return other
    return None
