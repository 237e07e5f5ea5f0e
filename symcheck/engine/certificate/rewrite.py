"""One leaf of a certificate: the chain of kernel steps that takes the claim's expression to
something whose normal form is 0 on one piece of the case split (docs/certificates.md, "Leaves").

The emitter does not replay SymPy's ``simplify``. On a piece (each variable an open region or a
point) it

1. replaces every variable sitting at a rational point by that rational (``subst``);
2. writes every argument of an atom — a function's argument, a non-integer power's base, a
   piecewise's values, a condition's ``l − r`` — as one canonical polynomial over its own
   generators (``ring``), innermost first, so that atoms equal as functions become one
   generator of the normal form; an odd or even function of an argument whose leading
   coefficient is negative is turned around (``f_odd``/``f_even``), and exp of a sum or of an
   integer multiple is split (``exp_add``, ``exp_int``), ``log(exp u)`` = u and the like;
3. if that is not yet 0: takes every branch, innermost first (``branch``, each condition's
   truth on the whole piece proved the way the kernel will prove it), and normalises again;
4. if still not 0: rewrites tanh, sinh, cosh through exp, erfc as 1 − erf and |x| by the sign
   of x on the piece, and normalises again.

It ends with the kernel's ``normal-form``. Where a condition (or an |x|) has no one truth on the
piece it raises :class:`NeedSplit` with the points to cut at (the roots of a polynomial in one
variable, or 0 for a variable whose sign a product needs), and where nothing applies
:class:`Stuck` with the reason. Untrusted: the kernel re-checks every step.
"""
from __future__ import annotations

from fractions import Fraction
from math import gcd
from typing import Any

from symcheck.engine.certificate.points import roots_inside
from symcheck.engine.certificate.tree import MINUS_ONE, ONE, ZERO, neg, number
from symcheck.kernel.check import Checker, ends_at_zero_or_infinity
from symcheck.kernel.evaluate import exact
from symcheck.kernel.normal import Form, canon, generators, inverted_bases
from symcheck.kernel.points import INF, NEG_INF, compare, rational_point
from symcheck.kernel.rules import RULES, instantiate, match
from symcheck.kernel.signs import as_poly, prove_sign
from symcheck.kernel.tree import (
    FUNCTIONS,
    RELATIONS,
    Node,
    free_vars,
    get,
    replace,
    substitute,
)
from symcheck.kernel.verdict import Reject

__all__ = ["Leaf", "NeedAlternatives", "NeedChange", "NeedSplit", "Stuck", "canonical", "zero_numerator"]

ODD = ("sin", "tan", "sinh", "tanh", "asinh", "atan", "erf", "asin", "atanh")
EVEN = ("cos", "cosh", "abs")
#: the arguments tried, in order, when the emitter decides a sign (the cheap ones first)
CHEAP = ("structure", "roots", "point")
BOUNDED = ("enclosure", "monotone")
#: f(g(x)) = x and the like, always defined, by the kernel rule named (acosh(cosh x) = |x| apart)
_INVERSES = {("atanh", "tanh"): ("atanh_tanh",), ("asin", "tanh"): ("atan_sinh", "rl")}
#: most normalisation rounds of one node (a rewrite that loops is a bug, not a proof)
MAX_ROUNDS = 64
MAX_STEPS = 4000
#: exp(n·m) becomes exp(m)^n only for |n| up to this (the normal form allows powers to 256)
MAX_EXP_MULTIPLE = 32
#: sin(c·m), cos(c·m) are expanded for c up to this; log n is factored for n up to this
MAX_TRIG_MULTIPLE = 8
MAX_FACTORED = 10 ** 12
PI = ("const", "pi")
_ZERO_POINT = rational_point(Fraction(0))


class NeedSplit(Exception):
    """The piece must be cut along ``var`` at ``points`` (point JSON, increasing, strictly inside)."""

    def __init__(self, var: str, points: list, why: str) -> None:
        super().__init__(why)
        self.var, self.points = var, points


class NeedChange(Exception):
    """A condition in ``var`` and others is one in u = factor·var: change variables (the factor is
    a polynomial in the other variables of strict ``sign`` on the piece)."""

    def __init__(self, var: str, factor: Node, sign: int) -> None:
        super().__init__(f"change of variables u = {factor}·{var}")
        self.var, self.factor, self.sign = var, factor, sign


class NeedAlternatives(Exception):
    """The piecewise at ``path`` has a condition no finite cut decides (sin(e^z) > 0 on a
    half-line): the piece keeps the branches ``take``, each proved as its own expression."""

    def __init__(self, path: tuple, take: list[int], steps: list, exprs: list[Node]) -> None:
        super().__init__(f"alternatives {take} at {path}")
        self.path, self.take, self.steps, self.exprs = path, take, steps, exprs


class Stuck(Exception):
    """No rewrite of the emitter's reaches 0 on this piece; ``str`` says what is left."""


# --------------------------------------------------------------------------- polynomials


def polynomial_over_generators(node: Node):
    """(generators, normal form, numerator, denominator) of ``node``, or None when the kernel's
    normal form refuses it."""
    gens = generators(node)
    form = Form(node)
    try:
        n, d = form.of(node)
    except Reject:
        return None
    return gens, form, n, d


def canonical(node: Node, also_inverted: frozenset = frozenset()) -> Node | None:
    """``node`` as the canonical tree of its polynomial over its generators (terms in the
    normal form's order, coefficients first), or None when it is not one. A negative power of a
    generator is kept (a Laurent polynomial) when the node itself inverts that generator, or
    the generator's key is in ``also_inverted`` (proved non-zero on the piece by the caller):
    the kernel's ``ring`` step accepts exactly those."""
    found = polynomial_over_generators(node)
    if found is None:
        return None
    gens, form, n, d = found
    if len(d) != 1:
        return None
    keys = sorted(form.index, key=form.index.get)
    ((d_exps, d_coeff),) = d.terms()
    inverted = inverted_bases(node) | also_inverted
    # strict=False: a ring with no generators still has one variable (a longer exponent tuple)
    if any(e and k not in inverted for k, e in zip(keys, d_exps, strict=False)):
        return None
    scale = Fraction(int(d_coeff.p), int(d_coeff.q))
    trees = [gens[k] for k in keys]
    terms = []
    for exps, coeff in n.terms():
        c = Fraction(int(coeff.p), int(coeff.q)) / scale
        factors = [t if e == 1 else ("pow", t, ("int", int(e))) for t, e in
                   zip(trees, (a - b for a, b in zip(exps, d_exps, strict=True)), strict=False) if e]
        terms.append(scaled_product(c, factors))
    if not terms:
        return ZERO
    return terms[0] if len(terms) == 1 else ("add", *terms)


def _polynomial_tree(p, trees: list[Node]) -> Node | None:
    """The canonical tree of a polynomial of the normal form's generators (None if it is 0)."""
    terms = []
    for exps, coeff in p.terms():
        factors = [t if e == 1 else ("pow", t, ("int", int(e))) for t, e in zip(trees, exps, strict=False) if e]
        terms.append(scaled_product(Fraction(int(coeff.p), int(coeff.q)), factors))
    if not terms:
        return None
    return terms[0] if len(terms) == 1 else ("add", *terms)


def scaled_product(c: Fraction, factors: list[Node]) -> Node:
    """The kernel term c·f₁·f₂·…, written without a factor 1 and without a product of one."""
    if not factors:
        return number(c)
    if c == 1:
        return factors[0] if len(factors) == 1 else ("mul", *factors)
    return ("mul", number(c), *factors)


def _leading(node: Node) -> Fraction:
    """The coefficient of a canonical tree's first term."""
    first = node[1] if node[0] == "add" else node
    if first[0] in ("int", "rat"):
        return Fraction(first[1], 1 if first[0] == "int" else first[2])
    if first[0] == "mul" and first[1][0] in ("int", "rat"):
        c = first[1]
        return Fraction(c[1], 1 if c[0] == "int" else c[2])
    return Fraction(1)


def _is_fraction(node: Node) -> bool:
    return node[0] == "mul" and len(node) == 3 and node[2][0] == "pow" and node[2][2] == MINUS_ONE


def zero_numerator(node: Node) -> bool:
    """The kernel's ``normal-form`` end: the numerator, reduced by sin² + cos² = 1, is the zero
    polynomial."""
    try:
        form = Form(node)
        return form.pythagoras(form.of(node)[0]).is_zero()
    except Reject:
        return False


# --------------------------------------------------------------------------- the leaf


def _children(node: Node) -> list[tuple]:
    """Relative paths of the sub-expressions and sub-conditions a rewrite may reach."""
    head = node[0]
    if head in ("int", "rat", "var", "const", "true", "false"):
        return []
    if head == "piecewise":
        return [(i, j) for i in range(1, len(node)) for j in (0, 1)]
    if head == "pow" and node[2][0] == "int":
        return [(1,)]  # an integer exponent is never rewritten
    return [(i,) for i in range(1, len(node))]


def _argument_positions(node: Node) -> list[tuple]:
    """Where an argument sits inside an atom (or a condition): canonicalised as a polynomial."""
    head = node[0]
    if head in FUNCTIONS:
        return [(1,)]
    if head == "pow" and node[2][0] != "int":
        return [(1,), (2,)]
    if head in RELATIONS and node[2] == ZERO:
        return [(1,)]
    if head == "piecewise":
        return [(i, 0) for i in range(1, len(node))]
    return []


class Leaf:
    """The chain of steps on one piece; ``box`` maps each variable to a kernel region."""

    def __init__(self, expr: Node, box: dict[str, tuple]) -> None:
        self.expr = expr
        self.box = box
        self.multiples: dict = {}
        self.steps: list[dict[str, Any]] = []

    # ---------------------------------------------------------------- recording

    def _record(self, rule: str, path: tuple, new: Node, **extra: Any) -> None:
        if len(self.steps) >= MAX_STEPS:
            raise Stuck(f"more than {MAX_STEPS} steps on one piece")
        self.expr = replace(self.expr, list(path), new)
        self.steps.append({"rule": rule, "at": list(path), "after": self.expr, **extra})

    def ring(self, path: tuple, new: Node) -> bool:
        """A ``ring`` step, when the kernel will accept its negative powers: each base a rational
        constant ≠ 0 or proved non-zero on the piece."""
        old = get(self.expr, list(path))
        if old == new:
            return True
        for base in inverted_bases(old) | inverted_bases(new):
            value = exact(base, {}) if not free_vars(base) else None
            if value == 0 or (value is None and not self.sign(base, "nonzero")):
                return False
        self._record("ring", path, new)
        return True

    def rule(self, name: str, path: tuple, direction: str = "lr") -> bool:
        """Apply a rule of the kernel's table if it matches and its side conditions are proved."""
        rule = RULES[name]
        source, target = (rule.lhs, rule.rhs) if direction == "lr" else (rule.rhs, rule.lhs)
        binding: dict = {}
        if not match(source, get(self.expr, list(path)), binding):
            return False
        if not all(self.sign(binding[v], claim) for v, claim in rule.conditions):
            return False
        extra = {"dir": "rl"} if direction == "rl" else {}
        self._record(name, path, instantiate(target, binding), **extra)
        return True

    # ---------------------------------------------------------------- signs

    def sign(self, g: Node, claim: str) -> bool:
        """Whether the kernel can prove the claim for g on the whole piece (cheap arguments
        first; the bounded ones only on a bounded box)."""
        box = {v: self.box[v] for v in free_vars(g)}
        live = [v for v, r in box.items() if r[0] == "open"]
        bounded = all(r[0] == "point" or (r[1] != NEG_INF and r[2] != INF) for r in box.values())
        # a polynomial in one variable: Sturm's count decides, Arb would only bisect in vain
        decided_by_roots = len(box) == 1 and len(live) == 1 and as_poly(g, live[0]) is not None
        products = ("factors",) if g[0] == "mul" else ()
        for by in CHEAP + (BOUNDED if bounded and live and not decided_by_roots else ()) + products:
            try:
                prove_sign(g, claim, self.box, by)
                return True
            except Reject:
                continue
        return False

    def truth(self, cond: Node) -> bool | None:
        """The condition's one truth value on the piece, None when it has none provable here."""
        head = cond[0]
        if head in ("true", "false"):
            return head == "true"
        if head == "not":
            inner = self.truth(cond[1])
            return None if inner is None else not inner
        if head in ("and", "or"):
            values = [self.truth(c) for c in cond[1:]]
            decisive = head == "or"
            if decisive in values:
                return decisive
            return None if None in values else not decisive
        g = cond[1] if cond[2] == ZERO else ("add", cond[1], neg(cond[2]))
        when_true, when_false = _RELATION_SIGNS[head]
        if self.sign(g, when_true):
            return True
        if self.sign(g, when_false):
            return False
        return None

    def cut(self, g: Node, what: str) -> NeedSplit | NeedChange | Stuck:
        """Where to cut the piece so that g has one sign on each part."""
        if g[0] == "mul":  # a product with one factor that varies: that factor's sign
            varying = [f for f in g[1:] if any(self.box[v][0] == "open" for v in free_vars(f))]
            rest = [f for f in g[1:] if f is not varying[0]] if len(varying) == 1 else []
            if rest and self.sign(rest[0] if len(rest) == 1 else ("mul", *rest), "nonzero"):
                g = varying[0]
            elif len(varying) > 1:  # u·(θ − 1) with u < 0 on the piece: the sign of θ − 1 alone
                unsigned = [f for f in g[1:] if not self.sign(f, "nonzero")]
                if len(unsigned) == 1:
                    g = unsigned[0]
        live = sorted(v for v in free_vars(g) if self.box[v][0] == "open")
        if len(live) == 1:
            v = live[0]
            poly = as_poly(g, v)
            if poly is not None:
                lo, hi = self.box[v][1], self.box[v][2]
                points = roots_inside(poly, lo, hi)
                if points:
                    return NeedSplit(v, points, f"{what}: the roots of a polynomial in {v}")
                return Stuck(f"{what}: no sign proved, and no root inside to cut at")
            lo, hi = self.box[v][1], self.box[v][2]
            if (lo == NEG_INF or compare(lo, _ZERO_POINT) < 0) and (hi == INF or compare(_ZERO_POINT, hi) < 0):
                # not a rational polynomial (√2·z, z·log 2): the sign of v may settle it
                return NeedSplit(v, [["int", 0]], f"{what}: the sign of {v}")
            return Stuck(f"{what}: not a polynomial in {v}, so no proved cut points")
        for v in live:
            lo, hi = self.box[v][1], self.box[v][2]
            if (lo == NEG_INF or compare(lo, _ZERO_POINT) < 0) and (hi == INF or compare(_ZERO_POINT, hi) < 0):
                return NeedSplit(v, [["int", 0]], f"{what}: the sign of {v}")
        change = self._change(g, live)
        if change is not None:
            return change
        return Stuck(f"{what}: a condition in {', '.join(live)} that the signs of the variables do not decide")

    def _change(self, g: Node, live: list[str]) -> NeedChange | None:
        """A condition in two variables that is one in the product u = w·v alone: v = u·w^(−1)
        leaves g free of w (w of one strict sign on the piece, v's region ending at −∞, 0, ∞)."""
        for v in live:
            if not ends_at_zero_or_infinity(self.box[v]):
                continue
            for w in live:
                if w == v:
                    continue
                sign = 1 if self.sign(("var", w), "pos") else -1 if self.sign(("var", w), "neg") else 0
                if not sign:
                    continue
                changed = canonical(substitute(g, v, ("mul", ("var", "_u"), ("pow", ("var", w), ("int", -1)))))
                if changed is not None and w not in free_vars(changed) and "_u" in free_vars(changed):
                    return NeedChange(v, ("var", w), sign)
        return None

    def _undecided(self, cond: Node) -> Node | None:
        """The first relation of the condition with no truth on the piece."""
        head = cond[0]
        if head in ("true", "false"):
            return None
        if head in ("not", "and", "or"):
            for c in cond[1:]:
                found = self._undecided(c)
                if found is not None:
                    return found
            return None
        if self.truth(cond) is None:
            return cond[1] if cond[2] == ZERO else ("add", cond[1], neg(cond[2]))
        return None

    # ---------------------------------------------------------------- the stages

    def substitute_points(self) -> None:
        """``subst`` every occurrence of a variable sitting at a rational point."""
        fixed = {v for v, r in self.box.items() if r[0] == "point" and r[1].rational is not None}
        if not fixed:
            return
        for path in list(_var_paths(self.expr, fixed)):
            self._record("subst", path, number(self.box[get(self.expr, list(path))[1]][1].rational))

    def normalize(self, path: tuple = (), level: int = 0) -> None:
        """Canonical arguments below ``path``, innermost first, and the local rewrites of the
        level: 0 turns odd and even functions around, 1 adds the exp and log rules, 2 writes
        tanh, sinh, cosh through exp, erfc as 1 − erf and |x| by the sign of x."""
        node = get(self.expr, list(path))
        for rel in _children(node):
            self.normalize(path + rel, level)
        for _ in range(MAX_ROUNDS):
            node = get(self.expr, list(path))
            for rel in _argument_positions(node):
                argument = get(self.expr, list(path + rel))
                new = canonical(argument)
                if new is None:
                    new = self._laurent(argument)
                if new is not None:
                    self.ring(path + rel, new)
            if not self._local(path, level):
                return
            node = get(self.expr, list(path))
            for rel in _children(node):
                self.normalize(path + rel, level)
        raise Stuck(f"the rewrites of {node[0]} do not settle")

    def _laurent(self, node: Node) -> Node | None:
        """``node`` canonical as a Laurent polynomial whose denominator's generators are proved
        non-zero on the piece though ``node`` inverts another form of them: −(−z)^(−2) is
        −z^(−2) where z ≠ 0 (σ(−z) of e^(−1/z²)); or, with a denominator of several terms
        proved non-zero, as N·D⁻¹ with N and D canonical and D's first coefficient 1, so that
        −a/(1 − a) and a/(1 − a) are one atom's argument up to sign."""
        found = polynomial_over_generators(node)
        if found is None:
            return None
        if len(found[3]) != 1:
            return self._fraction(node)
        gens, form, _, d = found
        ((d_exps, _),) = d.terms()
        keys = sorted(form.index, key=form.index.get)
        wanted = [k for k, e in zip(keys, d_exps, strict=False) if e and k not in inverted_bases(node)]
        if not wanted or not all(self.sign(gens[k], "nonzero") for k in wanted):
            return None
        return canonical(node, frozenset(wanted))

    def _fraction(self, node: Node) -> Node | None:
        gens, form, n, d = polynomial_over_generators(node)
        keys = sorted(form.index, key=form.index.get)
        trees = [gens[k] for k in keys]
        lead = next(iter(d.terms()))[1]
        numer = _polynomial_tree(n * (1 / lead), trees)
        denom = _polynomial_tree(d * (1 / lead), trees)
        if numer is None or denom is None or not self.sign(denom, "nonzero"):
            return None
        return ("mul", numer, ("pow", denom, MINUS_ONE))

    def _local(self, path: tuple, level: int) -> bool:
        """One local rewrite at ``path``; True if the node changed."""
        node = get(self.expr, list(path))
        head = node[0]
        if head in ODD + EVEN:
            arg = node[1]
            if head == "abs" and level >= 2:
                if self.rule("abs_nonneg", path) or self.rule("abs_nonpos", path):
                    return True
                raise self.cut(arg, "the sign of an absolute value's argument")
            if level >= 2 and head in ("tanh", "sinh", "cosh"):
                return self.rule(f"{head}_exp", path)
            if level >= 1 and head == "sinh" and arg[0] == "asinh":
                return self.rule("sinh_asinh", path)
            if level >= 1 and head == "asinh" and arg[0] == "sinh":
                return self.rule("asinh_sinh", path)
            if level >= 1 and head == "tan" and arg[0] == "atan":
                return self.rule("tan_atan", path)
            if level >= 1 and (head, arg[0]) in _INVERSES:
                name, *direction = _INVERSES[head, arg[0]]
                return self.rule(name, path, *direction)
            lead = _leading(arg) if canonical(arg) == arg else None
            if lead is None and _is_fraction(arg) and self._laurent(arg) == arg:
                lead = _leading(arg[1])  # N·D⁻¹ with D's first coefficient 1: N's sign leads
            if lead is not None and lead < 0:
                flipped = canonical(neg(arg)) or self._laurent(neg(arg))
                if not self.ring(path + (1,), ("mul", MINUS_ONE, flipped)):
                    return False
                return self.rule(f"{head}_{'odd' if head in ODD else 'even'}", path)
            if level >= 3 and head in ("sin", "cos"):
                return self._trig(path)
            return False
        if head == "erfc" and level >= 2:
            return self.rule("erfc_erf", path)
        if head == "pow" and level >= 2 and node[2][0] == "rat" and node[2][1] > 0:
            if node[1] == ZERO:
                return self.rule("pow_zero", path)
            return self._split_product(path, "nonneg")
        if head == "pow" and level >= 2 and node[2][0] == "rat" and self.sign(node[1], "pos"):
            # x^(−r) = (x^r)^(−1) for x > 0 (pow_pow right to left), so x^r·x^(−r) cancels
            if not self.ring(path + (2,), ("mul", number(-_number(node[2])), MINUS_ONE)):
                return False
            return self.rule("pow_pow", path, "rl")
        if level < 1:
            return False
        if head == "acosh" and node[1][0] == "cosh":
            return self.rule("acosh_cosh", path)
        if head == "ceil":
            return self.rule("ceil_floor", path)
        if head == "log":
            arg = node[1]
            if arg == ONE:
                return self.rule("log_one", path)
            if arg[0] == "exp":
                return self.rule("log_exp", path)
            if arg[0] == "pow":
                return self.rule("log_pow", path)
            if arg[0] in ("int", "rat"):
                return self._log_of_number(path)
            if arg[0] == "add":
                return self._clear_denominators(path)
            return self._split_product(path, "pos")
        if head == "exp":
            return self._exp(path)
        return False

    # ---------------------------------------------------------------- products, logs, trig

    def _split_product(self, path: tuple, claim: str) -> bool:
        """log(k·f₁·…·fₙ) or (k·f₁·…·fₙ)^r with the factors of the canonical argument regrouped
        so that each has the sign ``claim`` (a factor of the other sign takes a −1), then
        split by log_mul or pow_mul_nonneg, all at once (a later canonical form would merge the
        factors again)."""
        arg = get(self.expr, list(path))[1]
        if arg[0] != "mul" or canonical(arg) != arg:
            return False
        coeff, factors = (_number(arg[1]), arg[2:]) if arg[1][0] in ("int", "rat") else (Fraction(1), arg[1:])
        parts = []
        for f in factors:
            if self.sign(f, claim):
                parts.append(f)
            elif self.sign(neg(f), claim) and canonical(neg(f)) is not None:
                parts.append(canonical(neg(f)))
                coeff = -coeff
            else:
                return False
        if coeff <= 0:
            return False
        parts = ([number(coeff)] if coeff != 1 else []) + parts
        if len(parts) < 2:
            return False
        if not self.ring(path + (1,), ("mul", *parts)):
            return False
        return self._apply_split(path)

    def _clear_denominators(self, path: tuple) -> bool:
        """log(N·D^(−1)) for a canonical Laurent polynomial argument (1 + e^(−z) written
        1 + exp(z)^(−1)): the argument regrouped as g₁^(−e₁)·…·N by a ring step, every factor
        proved positive, and split by log_mul and log_pow."""
        arg = get(self.expr, list(path))[1]
        inverted = inverted_bases(arg)
        if not inverted or canonical(arg) != arg:
            return False
        gens = generators(arg)
        lowest: dict = {}
        for term in arg[1:]:
            found = dict.fromkeys(inverted, 0)
            for f in (term[1:] if term[0] == "mul" else (term,)):
                if f[0] == "pow" and f[2][0] == "int" and canon(f[1]) in found:
                    found[canon(f[1])] += f[2][1]
                elif canon(f) in found:
                    found[canon(f)] += 1
            for k, e in found.items():
                lowest[k] = min(lowest.get(k, 0), e)
        factors = [("pow", gens[k], ("int", e)) for k, e in sorted(lowest.items(), key=repr) if e < 0]
        if not factors:
            return False
        rest = canonical(("mul", *(("pow", f[1], ("int", -f[2][1])) for f in factors), arg))
        if rest is None or inverted_bases(rest) or not all(self.sign(f, "pos") for f in (*factors, rest)):
            return False
        if not self.ring(path + (1,), ("mul", *factors, rest)):
            return False
        return self._apply_split(path)

    def _apply_split(self, path: tuple) -> bool:
        node = get(self.expr, list(path))
        if node[0] == "log":
            if node[1][0] == "pow":
                return self.rule("log_pow", path)
            if node[1][0] in ("int", "rat"):
                return self._log_of_number(path)
            if node[1][0] != "mul" or not self.rule("log_mul", path):
                return False
        elif node[0] != "pow" or node[1][0] != "mul" or not self.rule("pow_mul_nonneg", path):
            return False
        self._apply_split(path + (1,))
        self._apply_split(path + (2,))
        return True

    def _log_of_number(self, path: tuple) -> bool:
        """log of a positive rational as Σ eᵢ·log pᵢ over its prime factors."""
        value = _number(get(self.expr, list(path))[1])
        if value <= 0 or value == 1 or max(value.numerator, value.denominator) > MAX_FACTORED:
            return False
        import sympy
        powers = [(p, e) for p, e in sympy.factorint(value.numerator).items()] + \
                 [(p, -e) for p, e in sympy.factorint(value.denominator).items()]
        parts = [number(p) if e == 1 else ("pow", number(p), ("int", int(e))) for p, e in sorted(powers)]
        if parts == [get(self.expr, list(path))[1]]:
            return False  # a prime
        self._record("ring", path + (1,), parts[0] if len(parts) == 1 else ("mul", *parts))
        return self._apply_split(path)

    def _trig(self, path: tuple) -> bool:
        """sin and cos of 0, of n·π, of a sum with an n·π term (split off by sin_add/cos_add),
        and of an integer multiple c·m when another atom has a smaller multiple of m (c·m is
        written m' + (c − g)·m' by a ring step and split, g the gcd of the multiples)."""
        head, arg = get(self.expr, list(path))
        if arg == ZERO:
            return self.rule(f"{head}_zero", path)
        if _pi_multiple(arg) is not None:
            if not self.ring(path + (1,), ("mul", ("int", _pi_multiple(arg)), PI)):
                return False
            return self.rule(f"{head}_pi", path)
        if arg[0] == "add":
            multiples = [t for t in arg[1:] if _pi_multiple(t) is not None]
            if not multiples:
                return False
            i = next(i for i, t in enumerate(arg[1:]) if _pi_multiple(t) is not None)
            first = ("mul", ("int", _pi_multiple(arg[1 + i])), PI)
            rest = arg[1:1 + i] + arg[2 + i:]
            if not self.ring(path + (1,), ("add", first, rest[0] if len(rest) == 1 else ("add", *rest))):
                return False
            if not self.rule(f"{head}_add", path):
                return False
            for inner in ((1, 1), (2, 2, 1)) if head == "cos" else ((1, 1), (2, 1)):
                self._trig(path + inner)
            return True
        c, m = _multiple(arg)
        g = self.multiples.get(canon(m)) if m is not None else None
        if g is None or c.denominator != 1 or c <= g or c > MAX_TRIG_MULTIPLE:
            return False
        base = canonical(("mul", number(g), m))
        self._record("ring", path + (1,), ("add", base, canonical(("mul", number(c - g), m))))
        return self.rule(f"{head}_add", path)

    def collect_multiples(self) -> None:
        """For each m, the gcd of the integer multiples c with sin(c·m) or cos(c·m) in the expression."""
        self.multiples = {}
        for node in _atoms(self.expr):
            if node[0] in ("sin", "cos"):
                c, m = _multiple(node[1])
                if m is not None and c.denominator == 1 and c > 0:
                    key = canon(m)
                    self.multiples[key] = gcd(self.multiples.get(key, 0), int(c))

    def _exp(self, path: tuple) -> bool:
        arg = get(self.expr, list(path))[1]
        if arg == ZERO:
            return self.rule("exp_zero", path)
        if arg[0] == "log":
            return self.rule("exp_log", path)
        if arg[0] == "add":
            return self.rule("exp_add", path)
        if canonical(arg) != arg:
            return False
        c = _leading(arg)
        if c.denominator != 1 and c < 0 and arg[0] != "rat":
            # exp(−(p/q)·m) = exp((p/q)·m)^(−1), so it cancels against exp((p/q)·m)
            flipped = canonical(neg(arg))
            if flipped is None or not self.ring(path + (1,), ("mul", MINUS_ONE, flipped)):
                return False
            return self.rule("exp_int", path)
        if c == 1 or c.denominator != 1 or abs(c) > MAX_EXP_MULTIPLE:
            return False  # exp(c·m) with c = p/q stays an atom: p could be a huge power
        if arg[0] in ("int", "rat"):
            rest: Node = ONE
        else:
            factors: tuple[Node, ...] = arg[2:] if arg[0] == "mul" and arg[1][0] in ("int", "rat") else ()
            rest = factors[0] if len(factors) == 1 else ("mul", *factors)
        if not self.ring(path + (1,), ("mul", ("int", c.numerator), rest)):
            return False
        return self.rule("exp_int", path)

    def resolve_branches(self) -> None:
        """Take every branch, innermost first; NeedSplit where a condition has no one truth."""
        while True:
            path = _innermost_piecewise(self.expr)
            if path is None:
                return
            self.normalize(path)
            self._factor_conditions(path)
            node = get(self.expr, list(path))
            for k, (value, cond) in enumerate(node[1:]):
                truth = self.truth(cond)
                if truth is False:
                    continue
                if truth is True:
                    self._record("branch", path, value, take=k)
                    break
                g = self._undecided(cond)
                problem = self.cut(g, "a branch condition") if g is not None else \
                    Stuck("a branch condition has no truth value on the piece")
                if isinstance(problem, Stuck):
                    self._alternatives(path, problem)
                raise problem
            else:
                raise Stuck("no branch of a piecewise holds on the piece")

    def _alternatives(self, path: tuple, problem: Stuck) -> None:
        """No cut decides a condition: keep every branch not proved false up to the first one
        proved true (NeedAlternatives), or return when none is proved true."""
        node = get(self.expr, list(path))
        take = []
        for k, (_, cond) in enumerate(node[1:]):
            truth = self.truth(cond)
            if truth is False:
                continue
            take.append(k)
            if truth is True:
                exprs = [replace(self.expr, list(path), node[1 + i][0]) for i in take]
                raise NeedAlternatives(path, take, list(self.steps), exprs)

    def _factor_conditions(self, path: tuple) -> None:
        """A condition's l (with r = 0) whose coefficients, as a polynomial in the variables and
        the atoms that hold them, share one factor K free of variables (log(1 + e^-2000)·(z² − 4z
        + 5) expanded) is written K·P by a ring step, so K's sign is proved at its value (the
        ``factors`` argument) and P's by its roots."""
        node = get(self.expr, list(path))
        for k, (_, cond) in enumerate(node[1:]):
            for rel in _relation_paths(cond):
                at = path + (k + 1, 1) + rel
                relation = get(self.expr, list(at))
                factored = constant_factor(relation[1])
                if factored is None and relation[2] == ZERO and self._live(relation[1]) >= 2 \
                        and self.truth(relation) is None:
                    # a condition in two variables such as u − θ·u: u·(1 − θ), each factor signed alone
                    factored = _product_factor(relation[1])
                if factored is not None:
                    self.ring(at + (1,), factored)

    def _live(self, node: Node) -> int:
        """How many variables of the node range over an open region of the piece."""
        return sum(self.box[v][0] == "open" for v in free_vars(node) if v in self.box)

    def zero(self) -> bool:
        return zero_numerator(self.expr)

    def exact_zero(self) -> bool:
        """The kernel's ``exact-value`` end: 0 exactly at rational points, or a polynomial in
        one variable that is 0 at its algebraic point."""
        values = {v: r[1].rational for v, r in self.box.items() if r[0] == "point" and r[1].rational is not None}
        if not free_vars(self.expr) <= values.keys():
            return Checker.algebraic_zero(self.expr, self.box)
        try:
            return exact(self.expr, values) == 0
        except (ZeroDivisionError, ValueError, OverflowError):
            return False

    def build(self) -> str:
        """Run the stages until the normal form is 0; the ``end`` to use. NeedSplit or Stuck."""
        self.substitute_points()
        if self.zero():
            return "normal-form"
        for level in (0, 1):
            self.normalize(level=level)
            if self.zero():
                return "normal-form"
        self.resolve_branches()
        for level in (0, 1, 2, 3):
            if level == 3:
                self.collect_multiples()
            self.normalize(level=level)
            if self.zero():
                return "normal-form"
        if self.exact_zero():
            return "exact-value"
        raise Stuck("the normal form's numerator is not 0 after the emitter's rewrites")


_RELATION_SIGNS = {"gt": ("pos", "nonpos"), "ge": ("nonneg", "neg"), "lt": ("neg", "nonneg"),
                   "le": ("nonpos", "pos"), "eq": ("zero", "nonzero"), "ne": ("nonzero", "zero")}


def _number(node: Node) -> Fraction:
    return Fraction(node[1], 1 if node[0] == "int" else node[2])


def _pi_multiple(term: Node) -> int | None:
    """n when the term is n·π for an integer n (π itself is 1·π)."""
    if term == PI:
        return 1
    if term[0] == "mul" and len(term) == 3 and term[1][0] == "int" and term[2] == PI:
        return term[1][1]
    return None


def _multiple(arg: Node) -> tuple[Fraction, Node | None]:
    """(c, m) with arg = c·m for a canonical single term arg; (0, None) otherwise."""
    if arg[0] in ("add", "int", "rat") or canonical(arg) != arg:
        return Fraction(0), None
    if arg[0] == "mul" and arg[1][0] in ("int", "rat"):
        rest = arg[2:]
        return _number(arg[1]), rest[0] if len(rest) == 1 else ("mul", *rest)
    return Fraction(1), arg


def _atoms(node: Node):
    yield node
    if node[0] not in ("int", "rat", "var", "const", "true", "false"):
        for rel in _children(node):
            yield from _atoms(get(node, list(rel)))


def _var_paths(node: Node, names: set, path: tuple = ()):
    if node[0] == "var":
        if node[1] in names:
            yield path
        return
    for rel in _children(node):
        yield from _var_paths(get(node, list(rel)), names, path + rel)


def _relation_paths(cond: Node, path: tuple = ()):
    """Paths (relative to the condition) of its relations ``l rel 0``."""
    if cond[0] in RELATIONS:
        if cond[2] == ZERO:
            yield path
    elif cond[0] in ("and", "or", "not"):
        for i in range(1, len(cond)):
            yield from _relation_paths(cond[i], path + (i,))


def constant_factor(l: Node, groups_needed: int = 2) -> Node | None:
    """K·P when l is a polynomial whose coefficients in the variables (and the atoms holding
    them) are rational multiples of one polynomial K in variable-free atoms; None otherwise
    (and when P would have fewer than ``groups_needed`` terms)."""
    found = polynomial_over_generators(l)
    if found is None:
        return None
    gens, form, n, d = found
    if not d.is_constant() or n.is_zero():
        return None
    (_, d_coeff), = d.terms()
    scale = Fraction(int(d_coeff.p), int(d_coeff.q))
    keys = sorted(form.index, key=form.index.get)
    closed = [i for i, k in enumerate(keys) if not free_vars(gens[k])]
    if not closed or len(closed) == len(keys):
        return None
    groups: dict = {}
    for exps, coeff in n.terms():
        outer = tuple(int(e) for i, e in enumerate(exps) if i not in closed)
        inner = tuple(int(e) for i, e in enumerate(exps) if i in closed)
        groups.setdefault(outer, {})[inner] = Fraction(int(coeff.p), int(coeff.q))
    first = next(iter(groups.values()))
    if len(groups) < groups_needed or all(e == (0,) * len(closed) for e in first):
        return None
    (i0, c0), ratios = next(iter(first.items())), {}
    for outer, inner in groups.items():
        if inner.keys() != first.keys():
            return None
        r = inner[i0] / c0
        if any(inner[i] != r * first[i] for i in first):
            return None
        ratios[outer] = r / scale  # l = n/d, d a constant: K·P must be n divided by it
    trees = [gens[k] for k in keys]
    closed_trees = [trees[i] for i in closed]
    outer_trees = [t for i, t in enumerate(trees) if i not in closed]

    def power(t: Node, e: int) -> Node:
        return t if e == 1 else ("pow", t, ("int", e))

    k_terms = [scaled_product(c, [power(t, e) for t, e in zip(closed_trees, inner, strict=False) if e])
               for inner, c in first.items()]
    p_terms = [scaled_product(r, [power(t, e) for t, e in zip(outer_trees, outer, strict=False) if e])
               for outer, r in ratios.items()]
    k = k_terms[0] if len(k_terms) == 1 else ("add", *k_terms)
    p = p_terms[0] if len(p_terms) == 1 else ("add", *p_terms)
    return ("mul", k, p)


def _product_factor(l: Node) -> Node | None:
    """l as a product of its irreducible factors over the generators, when l is a polynomial
    (a constant denominator folded into the content) with at least two: u − θ·u is
    −1·(θ − 1)·u. None otherwise."""
    return factored(l, quotient=False)


def polynomial_tree(p, trees: list[Node]) -> Node:
    """The tree of a polynomial of the normal form, its generators' trees in index order."""
    terms = [scaled_product(Fraction(int(c.p), int(c.q)), [t if e == 1 else ("pow", t, ("int", int(e)))
                                                           for t, e in zip(trees, exps, strict=True) if e])
             for exps, c in p.terms()]
    if not terms:
        return ZERO
    return terms[0] if len(terms) == 1 else ("add", *terms)


def factored(g: Node, quotient: bool = True) -> Node | None:
    """g = N/D over the generators as content·(N's irreducible factors)·(D's)^(−1), each factor by
    FLINT's factorisation of the normal form. ``quotient=False``: only a polynomial (D a
    constant) with at least two factors. None when the normal form refuses g or it is 0."""
    found = polynomial_over_generators(g)
    if found is None:
        return None
    gens, form, n, d = found
    if n.is_zero() or (not quotient and not d.is_constant()):
        return None
    n_content, n_factors = n.factor()
    d_content, d_factors = d.factor()
    if not quotient and sum(int(e) for _, e in n_factors) < 2:
        return None
    trees = [gens[k] for k in sorted(form.index, key=form.index.get)]

    def tree_of(p) -> Node:
        return polynomial_tree(p, trees)

    content = Fraction(int(n_content.p), int(n_content.q)) / Fraction(int(d_content.p), int(d_content.q))
    parts = [number(content)]
    parts += [tree_of(p) if int(e) == 1 else ("pow", tree_of(p), ("int", int(e))) for p, e in n_factors]
    parts += [("pow", tree_of(p), ("int", -int(e))) for p, e in d_factors]
    return ("mul", *parts)


def _innermost_piecewise(node: Node, path: tuple = ()) -> tuple | None:
    for rel in _children(node):
        found = _innermost_piecewise(get(node, list(rel)), path + rel)
        if found is not None:
            return found
    return path if node[0] == "piecewise" else None

