"""``check(certificate) -> KernelVerdict``: re-prove a certificate (docs/certificates.md).

The claim is read first (an expression, or σ(a·z) − c·σ(z) built here from σ, a and c), then
either the witness of a ``nonzero`` claim is re-evaluated, or the proof of a ``zero`` claim is
walked: every split must partition its variable's range, every piece either lies outside the
variable's domain or carries a chain of steps — branch choices proved by certified signs, rule
instances from :mod:`symcheck.kernel.rules` with their side conditions proved, ring
rewrites — ending in an expression whose normal form's numerator is the zero polynomial. The
first obligation that fails rejects the certificate, with where and why.
"""
from __future__ import annotations

from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from symcheck.kernel.evaluate import exact, exactly_zero
from symcheck.kernel.normal import Form, canon, generators, inverted_bases
from symcheck.kernel.points import INF, NEG_INF, compare, parse_point, poly_sign_at
from symcheck.kernel.probe import powers_defined, probe_box
from symcheck.kernel.rules import RULES, instantiate, match
from symcheck.kernel.signs import CLAIMS, as_poly, prove_sign
from symcheck.kernel.tree import (
    Node,
    free_vars,
    get,
    parse_expr,
    replace,
    show,
    substitute,
)
from symcheck.kernel.verdict import KernelVerdict, Reject

SCHEMA = "symcheck.certificate/1"
MAX_OBLIGATIONS = 100_000
MAX_PROBES = 16  #: probes of one nonzero-region claim
WHOLE_LINE = ("open", NEG_INF, INF)

#: the sign of l − r that makes a relation true (first) or false (second) everywhere
_RELATION_SIGNS = {"gt": ("pos", "nonpos"), "ge": ("nonneg", "neg"), "lt": ("neg", "nonneg"),
                   "le": ("nonpos", "pos"), "eq": ("zero", "nonzero"), "ne": ("nonzero", "zero")}
#: the facts that imply a claim
_IMPLIED_BY = {"pos": {"pos"}, "neg": {"neg"}, "zero": {"zero"}, "nonneg": {"nonneg", "pos", "zero"},
               "nonpos": {"nonpos", "neg", "zero"}, "nonzero": {"nonzero", "pos", "neg"}}


def check(certificate: Any) -> KernelVerdict:
    """Accepted only when every obligation is re-proved; never raises on malformed input."""
    checker = Checker()
    try:
        checker.run(certificate)
    except Reject as why:
        return KernelVerdict(False, str(why), why.where)
    except RecursionError:
        return KernelVerdict(False, "the certificate is nested too deeply", ".".join(checker.path))
    except Exception as err:  # malformed input that slipped past a shape check: still a rejection
        return KernelVerdict(False, f"malformed certificate ({type(err).__name__}: {err})", ".".join(checker.path))
    return KernelVerdict(True, checked=checker.count)


BUNDLE_SCHEMA = "symcheck.certificate-bundle/1"


def check_document(document: Any) -> KernelVerdict:
    """One certificate, or a bundle ``{"schema": BUNDLE_SCHEMA, "certificates": [{"what", "certificate"}]}``
    (a symmetry group's members): a bundle is accepted only when every certificate in it is."""
    if not (isinstance(document, dict) and document.get("schema") == BUNDLE_SCHEMA):
        return check(document)
    entries = document.get("certificates")
    if not isinstance(entries, list) or not entries:
        return KernelVerdict(False, "a bundle needs a non-empty list 'certificates'", "certificates")
    total = 0
    for i, entry in enumerate(entries):
        inner = entry.get("certificate") if isinstance(entry, dict) else None
        verdict = check(inner)
        if not verdict.accepted:
            what = entry.get("what", "") if isinstance(entry, dict) else ""
            where = f"certificates[{i}]" + (f" ({what})" if isinstance(what, str) and what else "")
            return KernelVerdict(False, verdict.reason, where + (f".{verdict.where}" if verdict.where else ""))
        total += verdict.checked
    return KernelVerdict(True, checked=total)


def region_from(obj: Any) -> tuple:
    """``["open", lo, hi]`` (lo < hi, checked) or ``["point", p]``."""
    if isinstance(obj, list) and len(obj) == 3 and obj[0] == "open":
        lo, hi = parse_point(obj[1]), parse_point(obj[2])
        if lo == INF or hi == NEG_INF or compare(lo, hi) >= 0:
            raise Reject(f"an open region needs lower < upper: {show(obj, 80)}")
        return ("open", lo, hi)
    if isinstance(obj, list) and len(obj) == 2 and obj[0] == "point":
        return ("point", parse_point(obj[1], infinite=False))
    raise Reject(f"a region is ['open', lo, hi] or ['point', p]: {show(obj, 80)}")


def disjoint(a: tuple, b: tuple) -> bool:
    """Two parsed regions (see :func:`region_from`) share no point."""
    if a[0] == "point" and b[0] == "point":
        return compare(a[1], b[1]) != 0
    if a[0] == "point":
        a, b = b, a
    if b[0] == "point":
        return compare(b[1], a[1]) <= 0 or compare(b[1], a[2]) >= 0
    return compare(a[2], b[1]) <= 0 or compare(b[2], a[1]) <= 0


ZERO = parse_point(["int", 0])


def _negated(end: Any) -> Any:
    return {INF: NEG_INF, NEG_INF: INF}.get(end, end) if isinstance(end, str) else end  # 0 stays 0


def ends_at_zero_or_infinity(region: tuple) -> bool:
    """Its ends are −∞, 0 or ∞: its image under b ↦ P·b depends only on the sign of P."""
    ends = region[1:] if region[0] == "open" else region[1:2]
    return all(e in (INF, NEG_INF) or compare(e, ZERO) == 0 for e in ends)


def _polynomial(node: Node) -> bool:
    """Built from numbers and variables by sums, products and natural powers: defined everywhere."""
    head = node[0]
    if head in ("int", "rat", "var"):
        return True
    if head in ("add", "mul"):
        return all(_polynomial(a) for a in node[1:])
    return head == "pow" and node[2][0] == "int" and node[2][1] >= 0 and _polynomial(node[1])


def _dict(obj: Any, what: str) -> dict:
    if not isinstance(obj, dict):
        raise Reject(f"{what} must be a JSON object")
    return obj


def _list(obj: Any, what: str) -> list:
    if not isinstance(obj, list):
        raise Reject(f"{what} must be a JSON list")
    return obj


class Checker:
    """One certificate's walk: the path to the obligation being proved (for a rejection's
    ``where``), the obligations counted, and the domains and facts in scope."""

    def __init__(self) -> None:
        self.path: list[str] = []
        self.count = 0
        self.domains: dict[str, list[tuple]] = {}
        self.facts: set = set()
        self.declared: set = set()
        self.goal = "zero"  #: what a leaf's end shows: 0 (a zero claim) or a strict sign (nonzero-region)

    @contextmanager
    def at(self, label: str):
        self.path.append(label)
        try:
            yield
        except Reject as why:
            if not why.where:
                why.where = "".join(self.path).lstrip(".")
            raise
        finally:
            self.path.pop()

    def tick(self) -> None:
        self.count += 1
        if self.count > MAX_OBLIGATIONS:
            raise Reject(f"more than {MAX_OBLIGATIONS} obligations")

    # ---------------------------------------------------------------- the claim

    def run(self, cert: Any) -> None:
        cert = _dict(cert, "a certificate")
        if cert.get("schema") != SCHEMA:
            raise Reject(f"schema must be {SCHEMA!r}, got {show(cert.get('schema'), 40)}")
        if isinstance(cert.get("claim"), dict) and cert["claim"].get("kind") == "complete":
            from symcheck.kernel.complete import (
                Completeness,  # it re-checks embedded certificates with check
            )
            Completeness(check, self.at, SCHEMA).run(cert)
            return
        with self.at("claim"):
            claim = _dict(cert.get("claim"), "the claim")
            expr = self.claimed_expression(claim)
            self.read_domains(claim, expr)
            kind = claim.get("kind")
        if kind == "zero":
            with self.at("proof"):
                # a variable whose domain is one region ranges over it; a union starts from R
                box = {v: d[0] if len(d) == 1 else WHOLE_LINE for v, d in self.domains.items()}
                self.node(_dict(cert.get("proof"), "the proof"), box, expr)
        elif kind == "nonzero":
            with self.at("witness"):
                self.witness(_dict(cert.get("witness"), "the witness"), expr)
        elif kind == "nonzero-region":
            with self.at("claim"):
                params = set(claim["params"]) if isinstance(claim.get("params"), dict) else set()
                probes = _list(claim["probes"], "probes") if "probes" in claim else [claim.get("probe")]
                if not probes or len(probes) > MAX_PROBES or ("probes" in claim and "probe" in claim):
                    raise Reject(f"a nonzero-region claim has one 'probe' or a list 'probes' of 1 to {MAX_PROBES}")
                exprs = []
                for probe in probes:
                    at_probe, box = probe_box({**claim, "probe": probe}, self.domains, params, expr, region_from,
                                              lambda r, d: not disjoint(r, d), prove_sign)
                    with self.at(".power_base"):
                        self.tick()
                        powers_defined(at_probe, box, prove_sign)
                    exprs.append(at_probe)
            self.goal = "nonzero"  # every leaf ends in a strict sign, never in a zero
            with self.at("proof"):
                proof = _dict(cert.get("proof"), "the proof")
                if "probes" in claim:
                    self.cover(proof, box, exprs)
                else:
                    self.node(proof, box, exprs[0])
        else:
            raise Reject("claim kind must be 'zero', 'nonzero', 'nonzero-region' or 'complete', "
                         f"got {show(kind, 40)}", "claim")

    def claimed_expression(self, claim: dict) -> Node:
        if "member" in claim:
            with self.at(".member"):
                member = _dict(claim["member"], "a member claim")
                sigma = parse_expr(member.get("sigma"))
                a, c = parse_expr(member.get("a")), parse_expr(member.get("c"))
                params = set(claim.get("params") or ()) if isinstance(claim.get("params"), dict) else set()
                if free_vars(sigma) - {"z"} - params or "z" in free_vars(a) | free_vars(c):
                    raise Reject("σ must be in the variable z (and the declared parameters) alone, "
                                 "and a and c free of z")
                built = ("add", substitute(sigma, "z", ("mul", a, ("var", "z"))), ("mul", ("int", -1), c, sigma))
                if "expr" in claim and parse_expr(claim["expr"]) != built:
                    raise Reject("expr is not σ(a·z) − c·σ(z) built from the member's σ, a and c")
                return built
        with self.at(".expr"):
            return parse_expr(claim.get("expr"))

    def read_domains(self, claim: dict, expr: Node) -> None:
        with self.at(".vars"):
            given = _dict(claim.get("vars", {}), "vars")
            for name, regions in given.items():
                if not isinstance(name, str) or not name.isidentifier():
                    raise Reject(f"a variable name must be an identifier: {show(name, 40)}")
                self.domains[name] = [region_from(r) for r in _list(regions, f"the domain of {name}")] \
                    or [WHOLE_LINE]
                self.declared.add(name)
            missing = free_vars(expr) - self.domains.keys()
            if missing:
                raise Reject(f"variables without a declared domain: {sorted(missing)}")
        if "params" in claim:
            with self.at(".params"):
                self.read_params(claim["params"], given)

    def read_params(self, params: Any, given: dict) -> None:
        """The declared parameters of a family (variable → the user's name): each a variable of
        ``vars`` with its range written out (not defaulted), never the activation's variable z."""
        for name, shown in _dict(params, "params").items():
            if name == "z":
                raise Reject("z is the activation's variable, not a parameter")
            if name not in given or not given[name]:
                raise Reject(f"the parameter {show(name, 40)} needs its declared range in vars")
            if not isinstance(shown, str):
                raise Reject(f"the parameter {show(name, 40)} needs its user's name as a string")

    def witness(self, witness: dict, expr: Node) -> None:
        point = _dict(witness.get("point"), "the witness point")
        claim = witness.get("sign")
        if claim not in ("pos", "neg"):
            raise Reject("a witness claims the sign 'pos' or 'neg'")
        box = {}
        for v in self.domains:
            if v not in point:
                raise Reject(f"the witness gives no value for {v}")
            region = ("point", parse_point(point[v], infinite=False))
            if not any(not disjoint(region, d) for d in self.domains[v]):
                raise Reject(f"the witness value of {v} is outside its domain")
            box[v] = region
        self.tick()
        prove_sign(expr, claim, box, by="point")

    # ---------------------------------------------------------------- splits

    def node(self, obj: dict, box: dict, expr: Node) -> None:
        if "var" in obj:
            self.split(obj, box, expr)
        elif "change" in obj:
            with self.at(".change"):
                box, expr = self.change(_dict(obj["change"], "a change of variables"), box, expr)
            with self.at(".proof"):
                self.node(_dict(obj.get("proof"), "the proof after a change of variables"), box, expr)
        elif "steps" in obj or "end" in obj or "alternatives" in obj:
            self.leaf(obj, box, expr)
        else:
            raise Reject("a proof node is a split (with 'var'), a change of variables (with 'change') or a "
                         "leaf (with 'steps' and 'end' or 'alternatives')")

    def change(self, change: dict, box: dict, expr: Node) -> tuple[dict, Node]:
        """u = P·b: b is replaced by u·P^(−1), P a polynomial in the other variables with one strict
        sign on the box, and b's region (ends in −∞, 0, ∞) by its image, the same kind of region
        for every value of the others. For fixed others, b ↦ P·b is a bijection of b's region onto
        u's, and the new expression at (others, P·b) is the old one at (others, b)."""
        b, u, factor = change.get("var"), change.get("to"), parse_expr(change.get("factor"))
        if b not in box or not isinstance(b, str) or not ends_at_zero_or_infinity(box[b]):
            raise Reject(f"{show(b, 40)} is not a variable of the piece whose region ends at −∞, 0 or ∞")
        if not isinstance(u, str) or not u.isidentifier() or u in box or u in self.declared:
            raise Reject(f"the new variable {show(u, 40)} must be a fresh identifier")
        if not _polynomial(factor) or not free_vars(factor) <= box.keys() - {b}:
            raise Reject("the factor must be a polynomial in the piece's other variables")
        for claim in ("pos", "neg"):
            try:  # not self.sign: the facts of an earlier leaf are about another piece
                self.tick()
                prove_sign(factor, claim, box)
                break
            except Reject:
                continue
        else:
            raise Reject(f"the factor {show(factor, 60)} has no proved strict sign on the piece")
        region = box[b]
        if claim == "neg" and region[0] == "open":
            region = ("open", _negated(region[2]), _negated(region[1]))
        self.domains[u] = [WHOLE_LINE]
        new_box = {v: r for v, r in box.items() if v != b}
        new_box[u] = region
        return new_box, substitute(expr, b, ("mul", ("var", u), ("pow", factor, ("int", -1))))

    def split(self, obj: dict, box: dict, expr: Node) -> None:
        v = obj["var"]
        if v not in self.domains:
            raise Reject(f"split on an undeclared variable {show(v, 40)}")
        whole = box[v]
        if whole[0] != "open":
            raise Reject(f"{v} is already a point here: nothing to split")
        pieces = _list(obj.get("pieces"), "pieces")
        regions = []
        for i, piece in enumerate(pieces):
            with self.at(f".pieces[{i}]"):
                regions.append(region_from(_dict(piece, "a piece").get("region")))
        self.covers(regions, whole, v)
        for i, (piece, region) in enumerate(zip(pieces, regions, strict=True)):
            with self.at(f".pieces[{i}]"):
                self.tick()
                if piece.get("outside") is True:
                    if not all(disjoint(region, d) for d in self.domains[v]):
                        raise Reject(f"a piece marked outside meets the domain of {v}")
                    continue
                self.node(piece, {**box, v: region}, expr)

    def cover(self, obj: dict, box: dict, exprs: list[Node]) -> None:
        """Several probes: a split of one parameter's region whose every piece names the probe
        (an index) its proof is about. Each parameter value lies in one piece, where that probe
        is a counterexample."""
        v = obj.get("var")
        if v not in box or not isinstance(v, str) or box[v][0] != "open":
            raise Reject("a proof with several probes is a split of a parameter's open region")
        pieces = _list(obj.get("pieces"), "pieces")
        regions = []
        for i, piece in enumerate(pieces):
            with self.at(f".pieces[{i}]"):
                regions.append(region_from(_dict(piece, "a piece").get("region")))
        self.covers(regions, box[v], v)
        for i, (piece, region) in enumerate(zip(pieces, regions, strict=True)):
            with self.at(f".pieces[{i}]"):
                k = piece.get("probe")
                if type(k) is not int or not 0 <= k < len(exprs):
                    raise Reject(f"each piece names its probe by an index below {len(exprs)}")
                self.tick()
                self.node(piece, {**box, v: region}, exprs[k])

    def covers(self, regions: list, whole: tuple, v: str) -> None:
        """Open, point, open, …, open: consecutive ends equal, from whole's lower to its upper."""
        kinds = [r[0] for r in regions]
        if len(regions) % 2 == 0 or kinds != ["open", "point"] * (len(regions) // 2) + ["open"]:
            raise Reject(f"the pieces of {v} must alternate open, point, …, open ({len(regions)} given): "
                         "a piece is missing or out of order")
        if compare(regions[0][1], whole[1]) != 0 or compare(regions[-1][2], whole[2]) != 0:
            raise Reject(f"the pieces of {v} do not start and end where its range does")
        for j in range(1, len(regions), 2):
            p = regions[j][1]
            if compare(regions[j - 1][2], p) != 0 or compare(regions[j + 1][1], p) != 0:
                with self.at(f".pieces[{j}]"):
                    raise Reject(f"the pieces of {v} leave a gap or overlap at this point")

    # ---------------------------------------------------------------- leaves

    def leaf(self, obj: dict, box: dict, expr: Node) -> None:
        self.facts = set()
        for i, fact in enumerate(_list(obj.get("facts", []), "facts")):
            with self.at(f".facts[{i}]"):
                fact = _dict(fact, "a fact")
                g = parse_expr(fact.get("of"))
                self.tick()
                prove_sign(g, fact.get("sign"), box, fact.get("by"))
                self.facts.add((canon(g), fact["sign"]))
        current = expr
        for i, step in enumerate(_list(obj.get("steps", []), "steps")):
            with self.at(f".steps[{i}]"):
                self.tick()
                current = self.step(_dict(step, "a step"), current, box)
        if "alternatives" in obj:
            with self.at(".alternatives"):
                self.alternatives(_dict(obj["alternatives"], "alternatives"), current, box)
            return
        with self.at(".end"):
            self.end(obj.get("end"), current, box)

    def alternatives(self, alt: dict, current: Node, box: dict) -> None:
        """The piecewise at ``at`` takes one of the branches ``take`` on the piece: every other
        branch up to the last one taken has a condition proved false, the last one's is proved
        true. Each proof is of the expression with the piecewise replaced by that branch's value
        (a node: a leaf, a split, …), on the same piece: at each point the expression equals one
        of them."""
        path: Any = alt.get("at")  # the certificate's JSON: get() below rejects all but a list of indices
        take = _list(alt.get("take"), "take")
        proofs = _list(alt.get("proofs"), "proofs")
        sub = get(current, path)
        if sub[0] != "piecewise":
            raise Reject(f"alternatives need a piecewise, found {show(sub, 60)}")
        if not take or any(type(k) is not int for k in take) or take != sorted(set(take)) \
                or not 0 <= take[0] or take[-1] >= len(sub) - 1 or len(proofs) != len(take):
            raise Reject("take must list increasing branch indices, one proof for each")
        for i in range(take[-1] + 1):
            if i in take and i != take[-1]:
                continue
            with self.at(f".condition[{i}]"):
                self.truth(sub[i + 1][1], i == take[-1], box)
        for j, (k, proof) in enumerate(zip(take, proofs, strict=True)):
            with self.at(f".proofs[{j}]"):
                self.tick()
                self.node(_dict(proof, "a proof"), box, replace(current, path, sub[k + 1][0]))

    def end(self, how: Any, current: Node, box: dict) -> None:
        if self.goal == "nonzero":
            # the last expression has a strict sign at every point of the piece where it is defined
            end = _dict(how, "the end of a nonzero-region leaf ({'sign': 'pos' | 'neg' | 'nonzero', 'by': …})")
            if end.get("sign") not in ("pos", "neg", "nonzero"):
                raise Reject("a nonzero-region leaf ends in the sign 'pos', 'neg' or 'nonzero'")
            self.tick()
            prove_sign(current, end["sign"], box, end.get("by"))
        elif how == "normal-form":
            form = Form(current)
            numerator = form.pythagoras(form.of(current)[0])
            if not numerator.is_zero():
                raise Reject(f"the normal form's numerator is not 0 ({len(numerator)} terms) for "
                             f"{show(current, 100)}")
        elif how == "exact-value":
            values = {v: box[v][1].rational for v in free_vars(current)
                      if box[v][0] == "point" and box[v][1].rational is not None}
            if values.keys() != free_vars(current):
                if self.algebraic_zero(current, box):
                    return
                raise Reject("an exact value needs every variable at a rational point, or one variable at "
                             "an algebraic point and a polynomial in it with rational coefficients")
            if exactly_zero(current, values):
                return
            raise Reject(f"the value at the point is not exactly 0: {show(current, 100)}")
        else:
            raise Reject(f"end must be 'normal-form' or 'exact-value', got {show(how, 40)}")

    @staticmethod
    def algebraic_zero(current: Node, box: dict) -> bool:
        """A polynomial with rational coefficients in the one variable, which sits at a real
        algebraic point: 0 there exactly when it shares a root with the point's polynomial
        inside the point's isolating interval (FLINT's gcd and an exact root count)."""
        names = free_vars(current)
        if len(names) != 1:
            return False
        (v,) = names
        if box[v][0] != "point":
            return False
        poly = as_poly(current, v)
        return poly is not None and poly_sign_at(poly, box[v][1]) == 0

    def step(self, step: dict, before: Node, box: dict) -> Node:
        name, path = step.get("rule"), step.get("at", [])
        after = parse_expr(step.get("after"))
        sub = get(before, path)
        parent = before
        for i in path[:-1]:
            parent = parent[i]
        if path and parent[0] == "pow" and path[-1] == 2 and sub[0] == "int":
            raise Reject("an integer exponent is not rewritten (it would change where the power is defined)")
        if name == "branch":
            new = self.branch(step.get("take"), sub, box)
        elif name == "ring":
            new = get(after, path)
            self.ring(sub, new, box)
        elif name == "subst":
            if sub[0] != "var" or box[sub[1]][0] != "point" or box[sub[1]][1].rational is None:
                raise Reject("subst replaces a variable that sits at a rational point")
            x: Fraction = box[sub[1]][1].rational
            new = ("int", x.numerator) if x.denominator == 1 else ("rat", x.numerator, x.denominator)
        elif name in RULES:
            new = self.rule(RULES[name], step.get("dir", "lr"), sub, box)
        else:
            raise Reject(f"unknown rule {show(name, 40)}; the kernel's rules: branch, ring, subst, "
                         + ", ".join(sorted(RULES)))
        expected = replace(before, path, new)
        if expected != after:
            raise Reject(f"'after' is not the result of {name} at {path}: expected {show(new, 100)} there")
        return after

    def rule(self, rule, direction: Any, sub: Node, box: dict) -> Node:
        if direction not in ("lr", "rl"):
            raise Reject("dir must be 'lr' or 'rl'")
        if direction == "rl" and not rule.reversible:
            raise Reject(f"{rule.name} cannot be used right to left")
        source, target = (rule.lhs, rule.rhs) if direction == "lr" else (rule.rhs, rule.lhs)
        binding: dict = {}
        if not match(source, sub, binding):
            raise Reject(f"{show(sub, 80)} is not an instance of {rule.name}'s "
                         f"{'left' if direction == 'lr' else 'right'} side {show(source, 80)}")
        for var, claim in rule.conditions:
            with self.at(f".side[{var}]"):
                self.sign(binding[var], claim, box)
        return instantiate(target, binding)

    def ring(self, old: Node, new: Node, box: dict) -> None:
        """Equal as rational functions of the generators, with no new generator; a negative power
        (outside atoms) only of a rational constant ≠ 0 or of a base proved non-zero on the whole
        piece, in old and new alike. So both are defined at the same points of the piece, and
        there N/D of each has D ≠ 0 and the same value."""
        for base in inverted_bases(old) | inverted_bases(new):
            if free_vars(base) or exact(base, {}) is None:
                try:
                    self.sign(base, "nonzero", box)
                except Reject as why:
                    raise Reject("ring rewrites polynomials only, and negative powers of bases proved non-zero "
                                 f"on the piece: {why}") from None
            elif exact(base, {}) == 0:
                raise Reject("ring rewrites polynomials only: a negative power of 0")
        if not generators(new).keys() <= generators(old).keys():
            raise Reject("a ring rewrite may not introduce a variable or atom")
        form = Form(old, new)
        (n1, d1), (n2, d2) = form.of(old), form.of(new)
        if not (n1 * d2 - n2 * d1).is_zero():
            raise Reject(f"{show(old, 60)} and {show(new, 60)} differ as polynomials")

    def branch(self, take: Any, sub: Node, box: dict) -> Node:
        if sub[0] != "piecewise":
            raise Reject(f"branch needs a piecewise, found {show(sub, 60)}")
        if type(take) is not int or not 0 <= take < len(sub) - 1:
            raise Reject(f"take must index one of the {len(sub) - 1} branches")
        for i in range(take + 1):
            with self.at(f".condition[{i}]"):
                self.truth(sub[i + 1][1], i == take, box)
        return sub[take + 1][0]

    def truth(self, cond: Node, want: bool, box: dict) -> None:
        """The condition has truth value ``want`` at every point of the box."""
        head = cond[0]
        if head in _RELATION_SIGNS:
            l, r = cond[1], cond[2]
            g = l if r == ("int", 0) else ("add", l, ("mul", ("int", -1), r))
            self.sign(g, _RELATION_SIGNS[head][0 if want else 1], box)
        elif head in ("true", "false"):
            if (head == "true") != want:
                raise Reject(f"the condition {head} is not {want}")
        elif head == "not":
            self.truth(cond[1], not want, box)
        elif (head == "and") == want:  # every part must have the wanted truth
            for part in cond[1:]:
                self.truth(part, want, box)
        else:  # one part with the wanted truth everywhere settles it
            reasons = []
            for part in cond[1:]:
                try:
                    return self.truth(part, want, box)
                except Reject as why:
                    reasons.append(str(why))
            raise Reject(f"no part of the {head} is {want} on the whole piece: " + " | ".join(reasons))

    def sign(self, g: Node, claim: str, box: dict) -> None:
        self.tick()
        if claim in CLAIMS and any((canon(g), c) in self.facts for c in _IMPLIED_BY[claim]):
            return
        prove_sign(g, claim, box)
