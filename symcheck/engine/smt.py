"""A second engine: the same ∀-statements decided independently by the SMT solver z3.

A check is trusted more when something that shares none of its decision code agrees with it.
For activations built from rational constants, the variable, ``+ · **`` (non-negative integer
powers), ``Max``, ``Min``, ``Abs``, ``sign``, ``Heaviside`` and ``Piecewise`` — piecewise
polynomials, which covers relu, leaky_relu, relu6, relu2, hardtanh, hardshrink, softshrink,
identity and user polynomials — the statement ``left = right`` of :meth:`Transformation.statement`
is a formula of real arithmetic that z3 decides: it is asked for a model of ``left ≠ right``
with a, b real and the scale in its domain (α ≠ 0 is asserted, so z3's ``b/α`` is real
division). ``unsat`` proves the statement; a model is converted to exact rationals and
re-evaluated by SymPy, and counts only if the two sides differ exactly there; ``unknown`` or
a timeout gives no verdict. Coverage is decided from the SymPy tree alone, never from
activation names; anything else (exp, erf, tanh, π, floats, division by the variable) is not
covered and gets no cross-check.

The cross-check is a :class:`~symcheck.engine.check_result.CrossCheck` with ``engine``,
``verdict`` (holds, broken, unknown, or unavailable when z3 is not installed), ``agrees``
(True, False, or None when one side has no verdict) and the evidence. z3 is imported only when a statement is covered.

>>> from symcheck.language.activations import activation
>>> covers(activation("relu").expr), covers(activation("silu").expr)
(True, False)
"""
from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import sympy
from sympy.core.relational import Relational
from sympy.logic.boolalg import And, BooleanFalse, BooleanTrue, Not, Or

from symcheck.core.verdict import CrossVerdict, Verdict
from symcheck.engine.check_result import CrossCheck
from symcheck.language.symbols import A, B, Z
from symcheck.language.transformations import DomainName

__all__ = ["SMT_SECONDS", "covers", "cross_check", "z3_available"]

SMT_SECONDS = 5.0  #: z3's own time limit per query (capped by what is left of the check's budget)
ENGINE = "z3"
_MODEL_DIGITS = 30  # an algebraic model value is replaced by a rational this close to it

_FUNCTIONS = (sympy.Max, sympy.Min, sympy.Abs, sympy.sign, sympy.Heaviside, sympy.Piecewise)
_RELATIONS = {sympy.StrictLessThan: "<", sympy.LessThan: "<=", sympy.StrictGreaterThan: ">",
              sympy.GreaterThan: ">=", sympy.Equality: "==", sympy.Unequality: "!="}


class _NotCovered(Exception):
    """The expression uses something outside piecewise-polynomial arithmetic over Q."""


# --- coverage: a walk over the SymPy tree ----------------------------------------------------

def covers(expr: sympy.Basic, variables: frozenset = frozenset({Z}),
           nonzero: frozenset = frozenset()) -> bool:
    """Whether ``expr`` is piecewise polynomial over Q in ``variables``.

    Negative integer powers are allowed only of a symbol in ``nonzero`` (the scale α or β,
    which the statement's domain keeps away from 0).
    """
    try:
        _walk(expr, variables, nonzero)
    except _NotCovered:
        return False
    return True


def _walk(e: sympy.Basic, variables: frozenset, nonzero: frozenset) -> None:
    stack = [e]
    while stack:
        node = stack.pop()
        if node.is_Rational or isinstance(node, (BooleanTrue, BooleanFalse)):
            continue
        if node.is_Symbol:
            if node not in variables:
                raise _NotCovered(f"the symbol {node}")
            continue
        if node.is_Pow:
            base, exponent = node.args
            if not exponent.is_Integer or (exponent.is_negative and base not in nonzero):
                raise _NotCovered(f"the power {node}")
            stack.append(base)
            continue
        if node.is_Add or node.is_Mul or isinstance(node, (*_FUNCTIONS, And, Or, Not)) \
                or type(node) in _RELATIONS:
            if isinstance(node, sympy.Heaviside) and not node.args[1].is_Rational:
                raise _NotCovered("Heaviside with a symbolic value at 0")
            if isinstance(node, sympy.Piecewise):
                stack.extend(x for pair in node.args for x in pair)
            else:
                stack.extend(node.args)
            continue
        raise _NotCovered(type(node).__name__)


# --- translation to z3 ------------------------------------------------------------------------

class _Translator:
    """SymPy → z3 real arithmetic, node by node, in a private z3 context."""

    def __init__(self, z3: Any, ctx: Any, variables: Mapping[sympy.Symbol, Any]) -> None:
        self.z3, self.ctx, self.variables = z3, ctx, variables
        self.fresh = 0
        self.memo: dict[sympy.Basic, Any] = {}

    def real(self, value: sympy.Rational) -> Any:
        return self.z3.RealVal(f"{value.p}/{value.q}", self.ctx)

    def term(self, e: sympy.Basic) -> Any:
        if e in self.memo:
            return self.memo[e]
        found = self._term(e)
        self.memo[e] = found
        return found

    def _term(self, e: sympy.Basic) -> Any:
        z3 = self.z3
        if e.is_Rational:
            return self.real(e)
        if e.is_Symbol:
            return self.variables[e]
        if e.is_Add:
            return z3.Sum([self.term(x) for x in e.args])
        if e.is_Mul:
            return z3.Product([self.term(x) for x in e.args])
        if e.is_Pow:
            base, n = self.term(e.args[0]), int(e.args[1])
            power = self._power(base, abs(n))
            return power if n >= 0 else self.real(sympy.Integer(1)) / power  # base ≠ 0 is asserted
        if isinstance(e, (sympy.Max, sympy.Min)):
            args = [self.term(x) for x in e.args]
            best = args[0]
            for x in args[1:]:
                best = z3.If(x > best, x, best) if isinstance(e, sympy.Max) else z3.If(x < best, x, best)
            return best
        if isinstance(e, sympy.Abs):
            x = self.term(e.args[0])
            return z3.If(x >= 0, x, -x)
        if isinstance(e, sympy.sign):
            x = self.term(e.args[0])
            return z3.If(x > 0, self.real(sympy.Integer(1)),
                         z3.If(x < 0, self.real(sympy.Integer(-1)), self.real(sympy.Integer(0))))
        if isinstance(e, sympy.Heaviside):
            x = self.term(e.args[0])
            at_zero = e.args[1]  # SymPy stores H(0) as the second argument (1/2 unless given)
            return z3.If(x > 0, self.real(sympy.Integer(1)),
                         z3.If(x < 0, self.real(sympy.Integer(0)), self.real(at_zero)))
        if isinstance(e, sympy.Piecewise):
            return self._piecewise(e)
        raise _NotCovered(type(e).__name__)

    def _power(self, base: Any, n: int) -> Any:
        # Repeated products keep the terms polynomial for nlsat (z3's ** is treated as opaque
        # for some tactics).
        if n == 0:
            return self.real(sympy.Integer(1))
        result = base
        for _ in range(n - 1):
            result = result * base
        return result

    def _piecewise(self, e: sympy.Piecewise) -> Any:
        z3 = self.z3
        value, condition = e.args[-1]
        if condition is sympy.true:
            result = self.term(value)
        else:
            # No branch applies: SymPy's value is undefined there. An unconstrained value keeps
            # an unsat answer sound whatever happens outside the branches; a model that uses it
            # fails the exact re-check.
            self.fresh += 1
            result = z3.If(self.condition(condition), self.term(value),
                           z3.Real(f"undefined!{self.fresh}", self.ctx))
        for value, condition in reversed(e.args[:-1]):
            result = z3.If(self.condition(condition), self.term(value), result)
        return result

    def condition(self, c: sympy.Basic) -> Any:
        z3 = self.z3
        if c is sympy.true or c is sympy.false:
            return z3.BoolVal(bool(c), self.ctx)
        if isinstance(c, And):
            return z3.And([self.condition(x) for x in c.args])
        if isinstance(c, Or):
            return z3.Or([self.condition(x) for x in c.args])
        if isinstance(c, Not):
            return z3.Not(self.condition(c.args[0]))
        if isinstance(c, Relational) and type(c) in _RELATIONS:
            left, right = self.term(c.lhs), self.term(c.rhs)
            return {"<": lambda: left < right, "<=": lambda: left <= right, ">": lambda: left > right,
                    ">=": lambda: left >= right, "==": lambda: left == right,
                    "!=": lambda: left != right}[_RELATIONS[type(c)]]()
        raise _NotCovered(type(c).__name__)


# --- the decision -----------------------------------------------------------------------------

def z3_available() -> bool:
    try:
        import z3  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass(frozen=True)
class _Decision:
    verdict: CrossVerdict
    model: dict[sympy.Symbol, sympy.Rational] | None = None
    reason: str = ""


def cross_check(sigma: Any, t: Any, unit: Any, verdict: Verdict, witness: Mapping[str, Any] | None,
                seconds: float = SMT_SECONDS) -> CrossCheck | None:
    """Decide ``t`` on ``unit`` for ``sigma`` with z3 and compare with the engine's answer.

    ``verdict`` and ``witness`` are the symbolic engine's (its verdict and its witness by
    variable name). Returns None when the statement is not covered; otherwise the cross-check
    mapping (see the module docstring). z3 never changes a verdict here: the caller decides
    what a disagreement means.
    """
    verdict = Verdict(verdict)  # the JSON string reads as the member (``is`` comparisons below)
    if not covers(sigma.expr):
        return None
    lhs, rhs = t.statement(unit, sigma)  # σ applied by the activation itself, not substitute_sigma
    scale = t.scale
    variables = frozenset({A, B} | ({scale} if scale is not None else set()))
    nonzero = frozenset({scale} if scale is not None else set())
    if not (covers(lhs, variables, nonzero) and covers(rhs, variables, nonzero)):
        return None
    started = time.perf_counter()
    base = CrossCheck(ENGINE, verdict, timeout_seconds=round(max(seconds, 0.0), 3))
    try:
        import z3
    except ImportError:
        return replace(base, verdict=CrossVerdict.UNAVAILABLE,
                       reason="z3-solver is not installed (pip install 'symcheck[smt]')")
    base = replace(base, version=z3.get_version_string())
    if seconds < 0.05:
        return replace(base, reason="the time budget ran out before the cross-check", elapsed_seconds=0.0)
    try:
        ctx = z3.Context()
        symbols = sorted(variables, key=str)
        reals = {s: z3.Real(s.name, ctx) for s in symbols}
        translate = _Translator(z3, ctx, reals)
        domain = _domain_constraint(z3, translate, t, reals)
        differ = translate.term(lhs) != translate.term(rhs)
        decision = _decide(z3, ctx, [domain, differ], reals, lhs, rhs, t, seconds)
        confirmed = None
        if verdict is Verdict.BROKEN and witness is not None:
            confirmed = _witness_confirmed(z3, ctx, [domain, differ], reals, witness, seconds)
    except (z3.Z3Exception, _NotCovered, RecursionError, MemoryError) as err:
        # the solver failing is no verdict, never a crash of the check it cross-checks
        return replace(base, reason=f"z3 failed: {type(err).__name__}: {' '.join(str(err).split())[:120]}",
                       elapsed_seconds=round(time.perf_counter() - started, 4))
    return replace(base, verdict=decision.verdict, agrees=_agrees(verdict, decision.verdict, confirmed),
                   model=None if decision.model is None else {s.name: str(v) for s, v in decision.model.items()},
                   witness_confirmed=confirmed, reason=decision.reason,
                   elapsed_seconds=round(time.perf_counter() - started, 4))


def _domain_constraint(z3: Any, translate: _Translator, t: Any, reals: Mapping) -> Any:
    if t.scale is None:
        return z3.BoolVal(True, translate.ctx)
    s, d = reals[t.scale], t.domain
    if d.value is not None:
        return s == translate.real(sympy.Rational(d.value))
    zero = translate.real(sympy.Integer(0))
    return {DomainName.POSITIVE: s > zero, DomainName.NEGATIVE: s < zero, DomainName.ANY: s != zero}[d.name]


def _decide(z3, ctx, constraints, reals, lhs, rhs, t, seconds) -> _Decision:
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", max(1, int(seconds * 1000)))
    solver.add(*constraints)
    answer = solver.check()
    if answer == z3.unsat:
        return _Decision(CrossVerdict.HOLDS, reason="unsat: no point of the domain where left ≠ right")
    if answer != z3.sat:
        return _Decision(CrossVerdict.UNKNOWN, reason=f"z3 gave no answer ({solver.reason_unknown()})")
    model = solver.model()
    point = {}
    for symbol, var in reals.items():
        value = _rational(z3, model.eval(var, model_completion=True))
        if value is None:
            return _Decision(CrossVerdict.UNKNOWN, reason=f"z3's model value of {symbol} is not a number")
        point[symbol] = value
    if t.scale is not None and not t.domain.contains(point[t.scale]):
        return _Decision(CrossVerdict.UNKNOWN, point, "z3's model (rounded to rationals) leaves the scale's domain")
    left, right = lhs.xreplace(point), rhs.xreplace(point)
    if not (left.is_Rational and right.is_Rational):
        return _Decision(CrossVerdict.UNKNOWN, point, "z3's model did not re-evaluate to exact rationals")
    if left == right:
        return _Decision(CrossVerdict.UNKNOWN, point,
                         "z3's model (rounded to rationals) is not a counterexample when re-evaluated exactly")
    return _Decision(CrossVerdict.BROKEN, point, f"model re-evaluated exactly: left = {left}, right = {right}")


def _witness_confirmed(z3, ctx, constraints, reals, witness, seconds) -> bool | None:
    """Does z3 also find left ≠ right (in the domain) at the engine's own witness?"""
    by_name = {s.name: v for s, v in reals.items()}
    fixes = []
    for name, value in witness.items():
        try:
            q = Fraction(str(value))
        except (ValueError, ZeroDivisionError):
            return None  # not an exact rational: nothing z3 can pin
        if name not in by_name:
            return None
        fixes.append(by_name[name] == z3.RealVal(f"{q.numerator}/{q.denominator}", ctx))
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", max(1, int(seconds * 1000)))
    solver.add(*constraints, *fixes)
    answer = solver.check()
    return True if answer == z3.sat else False if answer == z3.unsat else None


def _rational(z3: Any, value: Any) -> sympy.Rational | None:
    if z3.is_rational_value(value):
        return sympy.Rational(value.numerator_as_long(), value.denominator_as_long())
    if z3.is_algebraic_value(value):
        return _rational(z3, value.approx(_MODEL_DIGITS))
    return None


def _agrees(engine: Verdict, smt: CrossVerdict, confirmed: bool | None) -> bool | None:
    if engine == Verdict.HOLDS:
        return {CrossVerdict.HOLDS: True, CrossVerdict.BROKEN: False}.get(smt)
    if engine == Verdict.BROKEN:
        if smt == CrossVerdict.HOLDS or confirmed is False:
            return False
        return True if smt == CrossVerdict.BROKEN and confirmed else None
    return None
