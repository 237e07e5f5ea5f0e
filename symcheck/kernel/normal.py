"""The normal form: an expression as a quotient N/D of polynomials with rational coefficients
(FLINT's fmpq_mpoly) in generators — the variables and the atoms (every function
application, constant, piecewise, and power with a non-integer exponent, each an opaque
indeterminate named by its canonical form).

Invariant: at every point where the expression is defined, D ≠ 0 there and the value is N/D
with each generator replaced by its value. So N = 0 as a polynomial proves the expression 0
wherever it is defined, whatever relations hold between the atoms.

One relation is used, by :meth:`Form.pythagoras` only: sin(u)² + cos(u)² = 1, for a pair of
generators sin(u), cos(u) with the same argument (up to canon). N is reduced modulo these
binomials (sin(u)² → 1 − cos(u)²); the reduced polynomial has the value of N at every real
point where both atoms are defined, so a reduced N equal to 0 still proves the expression 0.
(The binomials of different pairs have coprime leading monomials sin(u)², so they form a
Gröbner basis and the reduction is 0 exactly when N lies in their ideal; only the first
direction is needed for soundness.)
"""
from __future__ import annotations

from flint import fmpq, fmpq_mpoly_ctx

from symcheck.kernel.tree import Node
from symcheck.kernel.verdict import Reject

MAX_TERMS = 20_000
MAX_EXPONENT = 256


def canon(node: Node):
    """A key equal for trees equal up to the order and nesting of add and mul arguments."""
    head = node[0]
    if head in ("add", "mul"):
        flat: list[Node] = []
        for a in node[1:]:
            c = canon(a)
            flat.extend(c[1:] if c[0] == head else [c])
        return (head, *sorted(flat, key=repr))
    if head == "piecewise":
        return ("piecewise", *((canon(v), canon(c)) for v, c in node[1:]))
    if head in ("int", "rat", "var", "const", "true", "false"):
        return node
    return (head, *(canon(a) for a in node[1:]))


def _algebraic(node: Node) -> bool:
    return node[0] in ("int", "rat", "add", "mul") or (node[0] == "pow" and node[2][0] == "int")


def generators(node: Node, found: dict | None = None) -> dict:
    """Canonical key → tree, for every variable and atom in algebraic position."""
    found = {} if found is None else found
    if node[0] == "var" or not _algebraic(node):
        found.setdefault(canon(node), node)
    elif node[0] == "pow":
        generators(node[1], found)
    elif node[0] in ("add", "mul"):
        for a in node[1:]:
            generators(a, found)
    return found


def inverted_bases(node: Node, found: set | None = None) -> set:
    """The canonical keys of the bases of negative integer powers in algebraic position (each is
    non-zero wherever the expression is defined)."""
    found = set() if found is None else found
    if node[0] == "pow" and node[2][0] == "int":
        if node[2][1] < 0:
            found.add(canon(node[1]))
        inverted_bases(node[1], found)
    elif node[0] in ("add", "mul"):
        for a in node[1:]:
            inverted_bases(a, found)
    return found


class Form:
    """Evaluates trees to (N, D) over one fixed set of generators."""

    def __init__(self, *trees: Node) -> None:
        keys: dict = {}
        for t in trees:
            generators(t, keys)
        self.index = {k: i for i, k in enumerate(sorted(keys, key=repr))}
        self.ctx = fmpq_mpoly_ctx.get(tuple(f"g{i}" for i in range(max(1, len(self.index)))), "lex")
        self.gens = self.ctx.gens()

    def pythagoras(self, p):
        """p reduced modulo sin(u)² + cos(u)² − 1 for every pair of generators sin(u), cos(u):
        each sin(u)^k becomes sin(u)^(k mod 2)·(1 − cos(u)²)^(k div 2)."""
        pairs = [(i, self.index[("cos", *k[1:])]) for k, i in self.index.items()
                 if k[0] == "sin" and ("cos", *k[1:]) in self.index]
        if not pairs or p.is_zero():
            return p
        out = self._const(0)
        for exps, coeff in p.terms():
            exps = list(exps)
            factor = self._const(coeff)
            for s, c in pairs:
                k, exps[s] = divmod(exps[s], 2)
                if k:
                    factor = self._check(factor * (1 - self.gens[c] ** 2) ** k)
            out = self._check(out + factor * self.ctx.from_dict({tuple(exps): 1}))
        return out

    def _const(self, value):
        return self.ctx.constant(value)

    def _check(self, p):
        if len(p) > MAX_TERMS:
            raise Reject(f"the normal form has more than {MAX_TERMS} terms")
        return p

    def of(self, node: Node):
        head = node[0]
        if head == "int":
            return self._const(node[1]), self._const(1)
        if head == "rat":
            return self._const(fmpq(node[1], node[2])), self._const(1)
        if not _algebraic(node):
            return self.gens[self.index[canon(node)]], self._const(1)
        if head in ("add", "mul"):
            n, d = self.of(node[1])
            for a in node[2:]:
                n2, d2 = self.of(a)
                if head == "add":
                    n, d = (n * d2 + n2 * d, d * d2) if d != d2 else (n + n2, d)
                else:
                    n, d = n * n2, d * d2
                n, d = self._reduce(self._check(n), self._check(d))
            return n, d
        k = node[2][1]
        if abs(k) > MAX_EXPONENT:
            raise Reject(f"an integer power beyond {MAX_EXPONENT} in the normal form")
        n, d = self.of(node[1])
        if k < 0:
            if n.is_zero():
                raise Reject("a negative power of an expression whose normal form is 0")
            n, d, k = d, n, -k
        return self._check(n ** k), self._check(d ** k)

    @staticmethod
    def _reduce(n, d):
        if d.is_constant():
            return n, d
        g = n.gcd(d)
        if g.is_constant():
            return n, d
        return n / g, d / g


def _poly_tree(p, gens: list[Node]) -> Node:
    """The tree of a polynomial of the form's generators: a sum of monomials."""
    terms: list[Node] = []
    for exps, coeff in p.terms():
        c = fmpq(coeff)
        # not strict: a form with no generator still has one (unused) ring variable, so exps is longer
        powers = [g if e == 1 else ("pow", g, ("int", int(e))) for g, e in zip(gens, exps, strict=False) if e]
        number: Node = ("int", int(c.p)) if c.q == 1 else ("rat", int(c.p), int(c.q))
        factors = powers if c == 1 and powers else [number, *powers]
        terms.append(factors[0] if len(factors) == 1 else ("mul", *factors))
    if not terms:
        return ("int", 0)
    return terms[0] if len(terms) == 1 else ("add", *terms)


def normalised(node: Node) -> Node:
    """``node`` rewritten as its normal form N·D⁻¹, expanded over its generators.

    Equal to ``node`` at every point where ``node`` is defined (the invariant of :class:`Form`),
    possibly defined at more points: used where only values on an open set on which ``node``
    is defined matter (the derivatives at 0 of an analytic germ), so that repeated derivatives
    stay polynomials in the atoms instead of trees growing exponentially with the order."""
    form = Form(node)
    n, d = form.of(node)
    found = generators(node)
    gens = [found[key] for key in sorted(form.index, key=form.index.__getitem__)]
    if d.is_constant():
        return _poly_tree(n * (1 / fmpq(d.leading_coefficient())), gens)
    return ("mul", _poly_tree(n, gens), ("pow", _poly_tree(d, gens), ("int", -1)))
