"""The proof steps a decision is written as: what was decided, for a reader and for the JSON.

Nothing here decides anything: the deciders (:mod:`symcheck.engine.symmetries`, the group's members in
:mod:`symcheck.engine.group.members`) reach a verdict, and these functions state it step by step — the
statement, a one-variable decision's cases (:func:`piece_steps`), a two-variable decision's change of
variables, cases and cover (:func:`case_steps`), a witness's point and the certificate's enclosure.
"""
from __future__ import annotations

from collections.abc import Mapping

import sympy
from sympy import S

from symcheck.core.formula import (
    And,
    Apply,
    Aside,
    BigUnion,
    Both,
    Cartesian,
    Difference,
    FiniteSet,
    ForAll,
    Formula,
    Given,
    Interval,
    Numeral,
    Product,
    Qualified,
    Rel,
    Relation,
    SetUnion,
    Term,
    Terms,
    Text,
)
from symcheck.core.printing import text
from symcheck.core.results import Status, Step
from symcheck.core.verdict import Verdict
from symcheck.engine.plane import PlaneDecision
from symcheck.engine.zero import PieceStatus, ZeroDecision
from symcheck.exact.evaluate import Certificate
from symcheck.language.symbols import A, B, Z
from symcheck.language.transformations import Transformation

__all__ = ["LEFT_MINUS_RIGHT", "R_OF_Z", "and_zero", "approximately", "case_steps", "decimal",
           "describe_certificate", "enclosure", "piece_steps", "point_formula", "statement_step"]

#: the residual r, the difference D and the reduced difference G, as functions in formulas
R, D, G = sympy.symbols("r D G")
R_OF_Z = Apply(R, (Z,))
#: the certified quantity, left side minus right side
LEFT_MINUS_RIGHT = Difference(Text("left"), Text("right"))


def statement_step(lhs: sympy.Expr, rhs: sympy.Expr, t: Transformation) -> Step:
    scope = "a, b ∈ R" + (f", {t.domain.describe(t.scale_text)}" if t.domain else "")
    where = (Relation(Rel.IN, Terms((A, B)), S.Reals),) + ((t.domain.formula(t.scale),) if t.domain else ())
    return Step("Statement", f"for all {scope}: {text(lhs)} = {text(rhs)}",
                ForAll(where, Relation(Rel.EQ, lhs, rhs)),
                f"{t.describe()} applied to a = x·q, b = x·k", Status.GIVEN)


def describe_certificate(certificate: Certificate | None) -> str:
    if certificate is None:
        return "not certified"
    if certificate.exact:
        return f"exactly {certificate.lower}"
    return f"in [{certificate.lower}, {certificate.upper}] by ball arithmetic (Arb) at {certificate.prec} bits"


def enclosure(certificate: Certificate) -> Formula:
    """Where the certified value lies: the exact value, or its ball as a closed interval."""
    if certificate.exact:
        return FiniteSet((Numeral(str(certificate.lower)),))
    return Interval(Numeral(str(certificate.lower)), Numeral(str(certificate.upper)), closed=True)


def point_formula(values: Mapping[sympy.Symbol, sympy.Expr]) -> Terms:
    """A point as its coordinates: a = 1, b = 2."""
    return Terms(tuple(Relation(Rel.EQ, s, v) for s, v in values.items()))


def approximately(statement: Formula, decimal: str | None) -> Formula:
    return statement if decimal is None else Relation(Rel.APPROX, statement, Numeral(decimal))


def and_zero(statement: Formula, shown: bool) -> Formula:
    """``statement = 0`` when the proof reduced the expression to 0 (shown), else ``statement``."""
    return Relation(Rel.EQ, statement, S.Zero) if shown else statement


def decimal(value: sympy.Expr) -> str:
    return text(value.evalf(20)) if value.is_number else text(value)


def piece_steps(decision: ZeroDecision) -> list[Step]:
    steps = []
    for piece in decision.pieces:
        region = piece.region.describe()
        proved = piece.status is PieceStatus.PROVED
        claim = "r = 0" if proved else "r = ?"
        shown = f"r(z) = {text(piece.expr)}" + ("" if piece.expr == 0 else f"; {claim}")
        steps.append(Step(f"Case {region}", shown,
                          Given(piece.region.formula(Z), and_zero(Relation(Rel.EQ, R_OF_Z, piece.expr),
                                                                    proved and piece.expr != 0)),
                          piece.method or {PieceStatus.TIMEOUT: "the time budget ran out",
                                           PieceStatus.UNKNOWN: "neither proved zero nor certified non-zero"}
                          .get(piece.status, ""), piece.status.step, case=True))
    if decision.verdict is Verdict.HOLDS and len(decision.pieces) > 1:
        complete = ("; every root of a branch condition is a cut point (" + "; ".join(decision.cut_proofs) + ")"
                    if decision.cut_proofs else "")
        steps.append(Step("Cover", "the cases cover all of R", Relation(Rel.EQ, BigUnion(), S.Reals),
                          "open intervals between the cut points, and the cut points themselves" + complete,
                          Status.VERIFIED))
    return steps


def case_steps(decision: PlaneDecision, space) -> list[Step]:
    if decision.difference == 0:
        return [Step("Proof", "D = 0 as written", Relation(Rel.EQ, D, S.Zero),
                     "the two sides cancel exactly once σ is substituted", Status.VERIFIED)]
    steps = []
    product = decision.product
    if product is not None:
        x, y, u = (text(v) for v in (product.x, product.y, product.u))
        rest = [text(v) for v in space if v not in (product.x, product.y) and v in decision.difference.free_symbols]
        args = ", ".join([u, *rest])
        steps.append(Step(
            "Change of variables", f"D depends on {x} and {y} only through {u} = {x}·{y}: "
                                   f"D = G({args}) with G({args}) = {text(product.reduced)}",
            Given(Relation(Rel.EQ, product.u, Product((product.x, product.y))),
                  Relation(Rel.EQ, Apply(G, (product.u, *[w for w in space if text(w) in rest])), product.reduced)),
            f"with {y} = {u}/{x} SymPy's own evaluation, valid wherever {x} ≠ 0, removes {x} from D; "
            f"for each {x} ≠ 0, {u} = {x}·{y} takes every real value once as {y} does, so D = 0 for all "
            f"{x} ≠ 0 iff G = 0 for all {u}; the line {x} = 0 is a case of its own", Status.VERIFIED))
    for outcome in decision.cases:
        case = outcome.case
        proved = outcome.status is PieceStatus.PROVED
        head = G if product is not None and product.u in dict(case.regions) else D
        name = str(head)
        if outcome.expr is None:
            statement = f"the branches of {name} could not be chosen"
            shown_formula: Formula = Relation(Rel.EQ, head, Text("undecided"))
        else:
            assert outcome.sides is not None  # only the identically-0 D has none, returned above
            left, right = outcome.sides
            shown = "0" if outcome.expr == 0 else (f"{text(outcome.expr)} = 0" if proved
                                                    else f"{text(outcome.expr)}, not shown to be 0")
            statement = f"left = {text(left)}, right = {text(right)}; {name} = {shown}"
            shown_formula = Aside(and_zero(Relation(Rel.EQ, head, outcome.expr), proved and outcome.expr != 0),
                                  And((Relation(Rel.EQ, Text("left"), left), Relation(Rel.EQ, Text("right"), right))))
        steps.append(Step(f"Case {case.describe()}", statement, Given(case.formula(), shown_formula),
                          outcome.method, outcome.status.step, case=True))
    if decision.verdict is Verdict.HOLDS and product is not None:
        x, u = text(product.x), text(product.u)
        rest = [text(v) for v in space if v not in (product.x, product.y) and v in decision.difference.free_symbols]
        steps.append(Step(
            "Cover", f"the cases partition the range of {', '.join([u, *rest])} (for {x} ≠ 0) and the line {x} = 0",
            Given(BigUnion(Text("cases")),
                  Both(Qualified(Relation(Rel.IN, product.u, S.Reals), Relation(Rel.NE, product.x, S.Zero)),
                       Relation(Rel.EQ, product.x, S.Zero))), "each variable's range is cut into open intervals and "
            "their end points at the roots of a branch condition in that variable alone, or at 0 where its "
            "sign is needed; each open piece is the image of p > 0 under the substitution shown", Status.VERIFIED))
    elif decision.verdict is Verdict.HOLDS:
        split = [v for v in space if v in decision.difference.free_symbols]
        absent = [text(v) for v in space if v not in split]
        steps.append(Step(
            "Cover", (f"the {len(decision.cases)} cases partition" if len(decision.cases) > 1
                      else "the one case is") + f" the range of {', '.join(text(v) for v in split)}",
            Relation(Rel.EQ, BigUnion(Text("cases")), Cartesian(tuple(_range(space[v]) for v in split))),
            "each variable's range is cut into open intervals and their end points — at the "
            "roots of a branch condition in that variable alone, or at 0 where its sign is "
            "needed; a case is only ever replaced by the pieces of one of its intervals, and "
            "each open piece is the image of p > 0 under the substitution shown"
            + (f"; {', '.join(absent)} does not occur in D" if absent else ""), Status.VERIFIED))
    return steps


def _range(regions) -> SetUnion:
    """A variable's range as the union of its cases' points and open intervals."""
    parts: list[Term] = []
    for r in regions:
        if r.is_point:
            parts.append(FiniteSet((r.lower,)))
        elif r.lower == -S.Infinity and r.upper == S.Infinity:
            parts.append(S.Reals)
        else:
            parts.append(Interval(r.lower, r.upper, closed=False))
    return SetUnion(tuple(parts))
