"""``complete`` claims: every pair (a, c) of the symmetry group of σ is one of the listed members.

G = {(a, c) : a ≠ 0, σ(a·z) = c·σ(z) for every real z}. The certificate lists members of G
(member certificates, each re-checked here in full, with the claim's σ and z ranging over R)
and gives, for a > 0 and for a < 0, one argument that every (a, c) ∈ G with a of that sign is
a listed member (docs/certificates.md, "Completeness"). What every argument rests on:

* **c is unique and not 0**: σ(z₀) ≠ 0 (re-proved at the rational z₀), so σ(a·z₀) = c·σ(z₀)
  gives c; and c = 0 would make σ(a·z) = 0 for every z, σ ≡ 0.
* ``family`` — a listed member whose a ranges over a domain holding the whole half-line: by
  uniqueness of c, G on that half-line is the family.
* ``taylor`` — germs of σ at 0: σ(t^q) = g₊(t) and σ(−t^q) = g₋(t) for 0 < t < r (zero
  proofs of the kernel's own, of expressions it builds), g₊ and g₋ analytic on (−ρ, ρ)
  (:func:`analytic_on`). With b = |a|^(1/q) > 0, comparing the j-th derivatives at t = 0 of
  σ(a·z) = c·σ(z) at z = ±t^q gives, d±ⱼ the j-th derivative of g± at 0:
  a > 0: bʲ·d₊ⱼ = c·d₊ⱼ and bʲ·d₋ⱼ = c·d₋ⱼ; a < 0: bʲ·d₋ⱼ = c·d₊ⱼ and bʲ·d₊ⱼ = c·d₋ⱼ.
  Two orders with a non-zero coefficient leave b = 1; a coefficient 0 on one side only, or
  d₋ⱼ² ≠ d₊ⱼ², leaves no a < 0 (c = 0 or b = 0 would follow); d₋ⱼ = εⱼ·d₊ⱼ (ε = ±1) gives
  c = εⱼ·bʲ, two such orders j < k give b^(k−j) = εⱼ·εₖ. When σ is one analytic germ around 0
  (``two_sided``), d₋ⱼ = (−1)ʲ·d₊ⱼ is the chain rule. The orders used are named; each
  coefficient is the kernel's own derivative, signed by ``point`` or found exactly 0.
* ``breaks`` — σ = Fᵢ on each open interval between the listed cuts (zero proofs), each Fᵢ
  analytic there; at one cut p ≠ 0 a derivative of the two neighbouring pieces, each analytic
  around p, differs (certified). So the set N of points where σ is not analytic is finite
  off 0 with a point p ≠ 0; σ(a·z) = c·σ(z), c ≠ 0, gives a·N = N, so |a| = 1.

* ``log-periodic`` (a > 0) — σ(±e^t) = e^(mt)·Σ (α cos(ωt + φ) + β sin(ωt + φ)) with one harmonic
  apart from the others: a = e^(jπ/ω), and the j in G are nZ (lower powers refuted).
* ``log-derivative`` (a > 0) — σ = F ≠ 0 analytic on a half-line with H = z·F′/F strictly
  monotone: H(a·z) = H(z) leaves a = 1.
* ``reflection``, ``frequencies``, ``signs`` (a < 0) — a member (−1, u); the other half-line's
  form has no exponential of the chosen harmonic; or σ has one strict sign (or is 0) on one
  half-line and changes sign (or is not 0) on the other.

``taylor`` and ``breaks`` leave the candidate a = ±1; each candidate must be a listed pair or
``refuted`` for every c: σ(a₀z₁)·σ(z₂) − σ(a₀z₂)·σ(z₁) ≠ 0 at rationals z₁, z₂ (a member
would make both products c·σ(z₁)·σ(z₂)).
"""
from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any

from symcheck.kernel.derivative import derivative
from symcheck.kernel.evaluate import Unknown, exact, exactly_zero
from symcheck.kernel.normal import normalised
from symcheck.kernel.points import (
    INF,
    NEG_INF,
    compare,
    parse_number,
    parse_point,
    rational_point,
)
from symcheck.kernel.signs import prove_sign
from symcheck.kernel.tree import (
    NOT_PROVED_ANALYTIC,
    Node,
    free_vars,
    parse_expr,
    show,
    substitute,
    to_json,
    walk,
)
from symcheck.kernel.verdict import Reject

MAX_ORDER = 64
ZERO, ONE, MINUS = ("int", 0), ("int", 1), ("int", -1)
T, Z = ("var", "t"), ("var", "z")
ORIGIN = rational_point(Fraction(0))
HALVES = {"pos": 1, "neg": -1}


def _obj(x: Any, what: str) -> dict:
    if not isinstance(x, dict):
        raise Reject(f"{what} must be a JSON object")
    return x


def _rational(x: Any, what: str) -> Fraction:
    try:
        return parse_number(x)
    except Reject as why:
        raise Reject(f"{what}: {why}") from None


class Completeness:
    """Re-prove a ``complete`` certificate. ``check`` is the kernel's check (for the embedded
    certificates), ``at`` its context manager naming where a rejection happened."""

    def __init__(self, check: Callable[[Any], Any], at: Callable[[str], Any], schema: str) -> None:
        self.check, self.at, self.schema = check, at, schema
        self.members: list[tuple[Node, dict]] = []  # (a, domains) of every member
        self.refuted: list[Node] = []

    def run(self, cert: dict) -> None:
        with self.at("claim"):
            sigma = parse_expr(_obj(cert.get("claim"), "the claim").get("sigma"))
            if free_vars(sigma) - {"z"}:
                raise Reject("σ must be in the variable z alone")
        self.sigma = sigma
        with self.at("nonzero"):
            self.nonzero(_obj(cert.get("nonzero"), "the point where σ ≠ 0"))
        for i, entry in enumerate(cert.get("members") or []):
            with self.at(f"members[{i}]"):
                self.member(_obj(entry, "a member").get("certificate"))
        for i, entry in enumerate(cert.get("refuted") or []):
            with self.at(f"refuted[{i}]"):
                self.refute(_obj(entry, "a refutation"))
        halves = _obj(cert.get("halves"), "halves")
        if set(halves) != set(HALVES):
            raise Reject("halves needs exactly 'pos' and 'neg'", "halves")
        for name, s in HALVES.items():
            with self.at(f"halves.{name}"):
                self.half(s, _obj(halves[name], "a half's argument"), cert)

    # ------------------------------------------------------------ members, refutations

    def at_point(self, x: Node) -> Node:
        return substitute(self.sigma, "z", x)

    def nonzero(self, obj: dict) -> None:
        z0 = _rational(obj.get("point"), "the point")
        if obj.get("sign") not in ("pos", "neg"):
            raise Reject("the sign at the point is 'pos' or 'neg'")
        prove_sign(self.at_point(_number(z0)), obj["sign"], {}, by="point")

    def member(self, inner: Any) -> None:
        verdict = self.check(inner)
        if not verdict.accepted:
            raise Reject(f"{verdict.reason} (at certificate.{verdict.where})")
        claim = inner["claim"]
        if claim.get("kind") != "zero" or "member" not in claim:
            raise Reject("a listed member is a certificate of a zero claim stated as a member")
        if parse_expr(claim["member"]["sigma"]) != self.sigma:
            raise Reject("a listed member is about a different σ")
        if claim.get("vars", {}).get("z") != []:
            raise Reject("a listed member must hold for every real z (domain [])")
        a = parse_expr(claim["member"]["a"])
        domains = {v: [_region(r) for r in claim["vars"][v]] for v in free_vars(a)}
        self.members.append((a, domains))

    def refute(self, obj: dict) -> None:
        a0 = parse_expr(obj.get("a"))
        at = obj.get("at")
        if free_vars(a0) or not isinstance(at, list) or len(at) != 2:
            raise Reject("a refutation gives a constant a and two rational points 'at'")
        z1, z2 = (_number(_rational(x, "a point")) for x in at)
        if obj.get("sign") not in ("pos", "neg"):
            raise Reject("a refutation claims the sign 'pos' or 'neg'")
        det = ("add", ("mul", self.at_point(("mul", a0, z1)), self.at_point(z2)),
               ("mul", MINUS, self.at_point(("mul", a0, z2)), self.at_point(z1)))
        prove_sign(det, obj["sign"], {}, by="point")
        self.refuted.append(a0)

    def settled(self, a0: int) -> None:
        """The candidate a = a0 is a listed pair or refuted for every c; a = 1 is the identity
        (1, 1), in every G (and c is unique)."""
        if a0 == 1:
            return
        for a, _ in self.members + [(r, {}) for r in self.refuted]:
            if not free_vars(a) and exact(a, {}) == a0:
                return
        raise Reject(f"the candidate a = {a0} is neither a listed member nor refuted")

    # ------------------------------------------------------------ the halves

    def half(self, s: int, arg: dict, cert: dict) -> None:
        by = arg.get("by")
        if by == "family":
            if not any(_covers(domains[a[1]], s) for a, domains in self.members if a[0] == "var"):
                raise Reject("no listed family member ranges over the whole half-line")
            return
        if by == "taylor":
            with self.at(".germ"):
                candidates = self.taylor(s, _obj(cert.get("germ"), "the germ"))
        elif by == "breaks":
            with self.at(".breaks"):
                self.breaks(_obj(cert.get("breaks"), "the break points"))
            candidates = [s]
        elif by == "log-derivative" and s == 1:
            with self.at(".log_derivative"):
                self.log_derivative(_obj(cert.get("log_derivative"), "the log-derivative"))
            candidates = [1]
        elif by == "log-periodic" and s == 1:
            with self.at(".log_periodic"):
                self.log_periodic(_obj(cert.get("log_periodic"), "the log-periodic form"))
            return
        elif by == "frequencies" and s == -1:
            with self.at(".frequencies"):
                self.frequencies(_obj(cert.get("frequencies"), "the other half-line's form"))
            return
        elif by == "signs" and s == -1:
            with self.at(".signs"):
                self.signs(_obj(cert.get("signs"), "the signs on the half-lines"))
            return
        elif by == "reflection" and s == -1:
            if not any(not free_vars(a) and exact(a, {}) == -1 for a, _ in self.members):
                raise Reject("a reflection needs the listed member a = -1")
            return  # (a, c) ∈ G, a < 0: (−a, c/u) ∈ G by (−1, u) ∈ G, and a > 0 was shown above
        else:
            raise Reject("a half's argument is 'family', 'taylor', 'breaks', 'log-periodic' or 'log-derivative' "
                         f"(a > 0), 'reflection', 'frequencies' or 'signs' (a < 0), got {show(by, 30)}")
        for a0 in candidates:
            self.settled(a0)

    def zero_on(self, expr: Node, var: str, region: list | None, proof: Any, what: str) -> None:
        """``expr`` = 0 on the region (R when None), by the kernel's check of a zero claim it states."""
        domains = {var: [region] if region else []} if var else {}
        verdict = self.check({"schema": self.schema, "claim": {"kind": "zero", "expr": to_json(expr),
                                                                "vars": domains}, "proof": proof})
        if not verdict.accepted:
            raise Reject(f"{what}: {verdict.reason} (at {verdict.where or 'the top'})")

    # ------------------------------------------------------------ Taylor coefficients at 0

    def taylor(self, s: int, germ: dict) -> list[int]:
        if not hasattr(self, "rows"):
            self.rows = self.germ_rows(germ)
        return taylor_bound(s, self.rows)

    def germ_rows(self, germ: dict) -> list[tuple]:
        qo, two_sided = germ.get("q", 1), germ.get("two_sided") is True
        if type(qo) is not int or not 1 <= qo <= 16 or (two_sided and qo != 1):
            raise Reject("q is an integer from 1 to 16 (1 when two_sided)")
        r, rho = _rational(germ.get("r"), "r"), _rational(germ.get("rho"), "rho")
        if r <= 0 or rho <= 0:
            raise Reject("r and rho must be positive")
        power = T if qo == 1 else ("pow", T, ("int", qo))
        sides = [("plus", power)] + ([] if two_sided else [("minus", ("mul", MINUS, power))])
        germs = {}
        for name, arg in sides:
            with self.at(f".{name}"):
                side = _obj(germ.get(name), f"the germ {name}")
                g = parse_expr(side.get("expr"))
                if free_vars(g) - {"t"}:
                    raise Reject("a germ is in the variable t alone")
                start = _number(-r) if two_sided else ZERO
                self.zero_on(("add", self.at_point(arg), ("mul", MINUS, g)), "t",
                             ["open", to_json(start), to_json(_number(r))], side.get("proof"),
                             "σ is not the germ near 0")
                analytic_on(g, {"t": ("open", parse_point(to_json(_number(-rho))),
                                      parse_point(to_json(_number(rho))))})
                germs[name] = g
        orders = germ.get("orders")
        if not isinstance(orders, list) or not orders or len(orders) > 8 or len(set(map(repr, orders))) != len(orders) \
                or any(type(j) is not int or not 0 <= j <= MAX_ORDER for j in orders):
            raise Reject(f"orders: one to 8 distinct integers from 0 to {MAX_ORDER}")
        return [coefficient_row(germs["plus"], germs.get("minus"), j) for j in sorted(orders)]

    # ------------------------------------------------------------ the log-periodic form

    def log_periodic(self, obj: dict) -> None:
        """σ(side·e^t) = e^(mt)·(Σ over the harmonics of α cos(ωt + φ) + β sin(ωt + φ)) for every
        real t; the chosen harmonic has ω ≠ 0, α² + β² > 0, and |ω| differs from every other
        harmonic's |ω|. For a = e^s in G (a > 0 maps each half-line onto itself) the translation
        by s maps the chosen harmonic's span {cos(ωt + φ), sin(ωt + φ)} onto itself by the rotation
        by ωs, and the other harmonics' spans (other frequencies, linearly independent) onto
        themselves; so it is a multiple of (α, β): sin ωs = 0, a = e^(jπ/ω), j ∈ Z. Those j form a
        subgroup nZ of Z (G is a group, c unique); e^(kπ/ω) refuted for 0 < k < n and ω·log B = ±nπ
        for B a listed member's a leave exactly a = B^(±j), what B generates."""
        m, w, al, be = (parse_expr(obj.get(k)) for k in ("m", "omega", "alpha", "beta"))
        phase = parse_expr(obj["phase"]) if "phase" in obj else ZERO
        harmonics: list[tuple[Node, ...]] = [(w, phase, al, be)]
        others = obj.get("others", [])
        if not isinstance(others, list) or len(others) > 8:
            raise Reject("others: a list of at most 8 harmonics")
        for h in others:
            h = _obj(h, "a harmonic")
            harmonics.append(tuple(parse_expr(h[k]) if k in h else ZERO for k in ("omega", "phase", "alpha", "beta")))
        if any(free_vars(x) for h in harmonics for x in h) or free_vars(m):
            raise Reject("m and every omega, phase, alpha and beta are constants")
        side = obj.get("side", 1)
        if side not in (1, -1):
            raise Reject("side is 1 (z = e^t) or -1 (z = -e^t)")
        claimed = ("mul", ("exp", ("mul", m, T)), ("add", *_waves(harmonics)))
        at = ("exp", T) if side == 1 else ("mul", MINUS, ("exp", T))
        self.zero_on(("add", self.at_point(at), ("mul", MINUS, claimed)), "t", None, obj.get("proof"),
                     "σ(side·e^t) is not the claimed form")
        prove_sign(w, "nonzero", {}, by="point")
        prove_sign(("add", ("pow", al, ("int", 2)), ("pow", be, ("int", 2))), "pos", {}, by="point")
        for wi, *_ in harmonics[1:]:  # another frequency: |ω_i| ≠ |ω|
            _apart(wi, w)
        self.chosen = (side, m, w)
        base = parse_expr(obj.get("base"))
        sign, n = obj.get("sign"), obj.get("power", 1)
        if free_vars(base) or sign not in (1, -1):
            raise Reject("the base is a constant and sign is 1 or -1")
        if type(n) is not int or not 1 <= n <= 16:
            raise Reject("power is an integer from 1 to 16")
        if not any(a == base for a, _ in self.members):
            raise Reject("the base is not a listed member's a")
        prove_sign(base, "pos", {}, by="point")
        self.zero_on(("add", ("mul", w, ("log", base)), ("mul", ("int", -sign * n), ("const", "pi"))), "", None,
                     obj.get("base_proof"), "ω·log B is not ±n·π")
        refuted = obj.get("powers_refuted", [])
        if not isinstance(refuted, list) or len(refuted) != n - 1:
            raise Reject("powers_refuted: one refutation for each power e^(kπ/ω), 0 < k < power")
        for k, entry in enumerate(refuted, start=1):
            with self.at(f".powers_refuted[{k - 1}]"):
                entry = _obj(entry, "a refutation")
                a_k = ("exp", ("mul", ("int", k), ("const", "pi"), ("pow", w, MINUS)))
                self.refute({"a": to_json(a_k), "at": entry.get("at"), "sign": entry.get("sign")})

    def frequencies(self, obj: dict) -> None:
        """The other half-line: σ(−side·e^t) = e^(m′t)·Σ (α′ cos(ω′t + φ′) + β′ sin(ω′t + φ′)) for
        every real t, with m′ ≠ m or every |ω′| ≠ |ω| (the log-periodic argument's chosen harmonic).
        An a = −e^s in G would give σ(−side·e^(t+s)) = c·σ(side·e^t): the left side is a combination
        of the exponentials e^((m′ ± iω′)t) (a translation keeps each), the right one has
        e^((m + iω)t) with the coefficient c·(α − iβ)·e^(iφ)/2 ≠ 0 and no other term of that
        exponent; exponentials of distinct exponents are linearly independent: no a < 0 is in G."""
        if not hasattr(self, "chosen"):
            raise Reject("the frequencies argument needs the log-periodic argument for a > 0")
        side, m, w = self.chosen
        m2 = parse_expr(obj.get("m"))
        harmonics = obj.get("harmonics")
        if not isinstance(harmonics, list) or not 1 <= len(harmonics) <= 9:
            raise Reject("harmonics: a list of one to 9 harmonics")
        parsed = []
        for h in harmonics:
            h = _obj(h, "a harmonic")
            parsed.append(tuple(parse_expr(h[k]) if k in h else ZERO for k in ("omega", "phase", "alpha", "beta")))
        if free_vars(m2) or any(free_vars(x) for h in parsed for x in h):
            raise Reject("m and every omega, phase, alpha and beta are constants")
        claimed = ("mul", ("exp", ("mul", m2, T)), ("add", *_waves(parsed)))
        at = ("exp", T) if side == -1 else ("mul", MINUS, ("exp", T))
        self.zero_on(("add", self.at_point(at), ("mul", MINUS, claimed)), "t", None, obj.get("proof"),
                     "σ on the other half-line is not the claimed form")
        try:
            prove_sign(("add", m2, ("mul", MINUS, m)), "nonzero", {}, by="point")
        except Reject:
            for wi, *_ in parsed:
                _apart(wi, w)

    # ------------------------------------------------------------ the log-derivative on a half-line

    def log_derivative(self, obj: dict) -> None:
        """σ = F on the open half-line of ``side``, F analytic and of one strict sign there, and
        z·F′(z) = H(z)·F(z) there (F′ the kernel's derivative) with H analytic and H′ of one strict
        sign. An a > 0 in G maps the half-line onto itself: σ(a·z) = c·σ(z) there, differentiated,
        a·σ′(a·z) = c·σ′(z); divided by it, H(a·z) = H(z) for every z of the half-line. H is strictly
        monotone, so a·z = z: a = 1 is the only candidate."""
        side = obj.get("side")
        if side not in (1, -1):
            raise Reject("side is 1 or -1")
        raw, box = half_line(side)
        with self.at(".piece"):
            f = self.piece_on(_obj(obj.get("piece"), "the piece"), raw)
            analytic_on(f, box)
            if obj.get("sign") not in ("pos", "neg"):
                raise Reject("the sign of the piece is 'pos' or 'neg'")
            prove_sign(f, obj["sign"], box)
        with self.at(".h"):
            h_obj = _obj(obj.get("h"), "H")
            h = parse_expr(h_obj.get("expr"))
            if free_vars(h) - {"z"}:
                raise Reject("H is in the variable z alone")
            self.zero_on(("add", ("mul", Z, nth_derivative(f, 1, "z")), ("mul", MINUS, h, f)), "z", raw,
                         h_obj.get("proof"), "z·F′ is not H·F on the half-line")
            analytic_on(h, box)
            if obj.get("slope") not in ("pos", "neg"):
                raise Reject("the slope of H is 'pos' or 'neg'")
            prove_sign(nth_derivative(h, 1, "z"), obj["slope"], box)

    def piece_on(self, piece: dict, raw: list) -> Node:
        f = parse_expr(piece.get("expr"))
        if free_vars(f) - {"z"}:
            raise Reject("the piece is in the variable z alone")
        self.zero_on(("add", self.sigma, ("mul", MINUS, f)), "z", raw, piece.get("proof"),
                     "σ is not the piece on the half-line")
        return f

    # ------------------------------------------------------------ one strict sign on a half-line

    def signs(self, obj: dict) -> None:
        """σ = F on the half-line of ``side`` with F of one strict sign there (proved on the open
        half-line), and σ(z₁) > 0 > σ(z₂) at rationals z₁, z₂ on the other half-line. An a < 0 with
        c ≠ 0 would give σ(a·z₁) = c·σ(z₁) and σ(a·z₂) = c·σ(z₂) of opposite signs, both on the
        half-line of ``side``: no a < 0 is in G. With the sign 'zero', F is 0 (σ ≡ 0 on the
        half-line) and σ(z₁) ≠ 0 at one rational z₁ on the other: σ(a·z₁) = 0 = c·σ(z₁) would
        make c = 0."""
        side = obj.get("side")
        if side not in (1, -1):
            raise Reject("side is 1 or -1")
        raw, box = half_line(side)
        sign = obj.get("sign")
        if sign not in ("pos", "neg", "zero"):
            raise Reject("the sign on the half-line is 'pos', 'neg' or 'zero'")
        with self.at(".piece"):
            f = self.piece_on(_obj(obj.get("piece"), "the piece"), raw)
            if sign == "zero":
                if f != ZERO:
                    raise Reject("with the sign 'zero' the piece is 0")
            else:
                prove_sign(f, sign, box)
        at = obj.get("change")
        wanted = ("nonzero",) if sign == "zero" else ("pos", "neg")
        if not isinstance(at, list) or len(at) != len(wanted):
            raise Reject("change: two rational points, σ > 0 at the first and σ < 0 at the second "
                         "(one point where σ ≠ 0 with the sign 'zero')")
        for x, want in zip(at, wanted, strict=True):
            zi = _rational(x, "a point of the change")
            if zi == 0 or (zi > 0) == (side == 1):
                raise Reject("the points must be on the other half-line")
            prove_sign(self.at_point(_number(zi)), want, {}, by="point")

    # ------------------------------------------------------------ break points

    def breaks(self, obj: dict) -> None:
        if getattr(self, "breaks_done", False):
            return
        cuts = [parse_point(p, infinite=False) for p in obj.get("cuts") or []]
        pieces = obj.get("pieces")
        if not cuts or not isinstance(pieces, list) or len(pieces) != len(cuts) + 1:
            raise Reject("break points need the cuts and one piece per open interval between them")
        for i in range(1, len(cuts)):
            if compare(cuts[i - 1], cuts[i]) >= 0:
                raise Reject("the cuts must increase")
        ends = [NEG_INF, *cuts, INF]
        raw = [NEG_INF, *obj["cuts"], INF]
        exprs = []
        for i, piece in enumerate(pieces):
            with self.at(f".pieces[{i}]"):
                piece = _obj(piece, "a piece")
                f = parse_expr(piece.get("expr"))
                if free_vars(f) - {"z"}:
                    raise Reject("a piece is in the variable z alone")
                self.zero_on(("add", self.sigma, ("mul", MINUS, f)), "z", ["open", raw[i], raw[i + 1]],
                             piece.get("proof"), "σ is not the piece on its interval")
                analytic_on(f, {"z": ("open", ends[i], ends[i + 1])})
                exprs.append(f)
        jump = _obj(obj.get("jump"), "the jump")
        k, j = jump.get("cut"), jump.get("order")
        if type(k) is not int or not 0 <= k < len(cuts) or type(j) is not int or not 0 <= j <= MAX_ORDER:
            raise Reject("the jump names a cut (index) and a derivative order")
        p = cuts[k]
        with self.at(".jump"):
            if compare(p, ORIGIN) == 0:
                raise Reject("the jump must be at a cut other than 0")
            lo, hi = (parse_point(to_json(_number(_rational(x, "an end")))) for x in jump.get("around") or [])
            if not (compare(lo, p) < 0 < compare(hi, p)):
                raise Reject("'around' must hold the cut strictly inside")
            box = {"z": ("open", lo, hi)}
            left, right = exprs[k], exprs[k + 1]
            analytic_on(left, box)
            analytic_on(right, box)
            gap = ("add", nth_derivative(right, j, "z"), ("mul", MINUS, nth_derivative(left, j, "z")))
            prove_sign(gap, "nonzero", {"z": ("point", p)}, by="point")
        self.breaks_done = True


# ------------------------------------------------------------ helpers


def half_line(side: int) -> tuple[list, dict]:
    """The open half-line of ``side`` as region JSON and as a kernel box."""
    if side == -1:
        return ["open", "-inf", ["int", 0]], {"z": ("open", NEG_INF, ORIGIN)}
    return ["open", ["int", 0], "inf"], {"z": ("open", ORIGIN, INF)}


def _waves(harmonics: list) -> list:
    """α cos(ωt + φ) and β sin(ωt + φ) of each harmonic (ω, φ, α, β), the argument ω·t when φ is 0."""
    out = []
    for w, ph, al, be in harmonics:
        arg = ("add", ("mul", w, T), ph) if ph != ZERO else ("mul", w, T)
        out += [("mul", al, ("cos", arg)), ("mul", be, ("sin", arg))]
    return out


def _apart(w1: Node, w: Node) -> None:
    """|ω₁| ≠ |ω|: ω₁ − ω and ω₁ + ω certified non-zero."""
    prove_sign(("add", w1, ("mul", MINUS, w)), "nonzero", {}, by="point")
    prove_sign(("add", w1, w), "nonzero", {}, by="point")


def _number(x: Fraction) -> Node:
    return ("int", x.numerator) if x.denominator == 1 else ("rat", x.numerator, x.denominator)


def _region(obj: Any) -> tuple:
    if obj == ["open", "-inf", "inf"]:
        return ("open", NEG_INF, INF)
    if isinstance(obj, list) and len(obj) == 3 and obj[0] == "open":
        return ("open", parse_point(obj[1]), parse_point(obj[2]))
    return ("point", parse_point(obj[1], infinite=False))


def _covers(domain: list, s: int) -> bool:
    """One region of the domain holds the whole half-line of sign s."""
    for r in domain or [("open", NEG_INF, INF)]:
        if r[0] != "open":
            continue
        if s == 1 and r[2] == INF and (r[1] == NEG_INF or compare(r[1], ORIGIN) <= 0):
            return True
        if s == -1 and r[1] == NEG_INF and (r[2] == INF or compare(r[2], ORIGIN) >= 0):
            return True
    return False


def analytic_on(g: Node, box: dict) -> None:
    """g is real-analytic on the open box: no piecewise or |x|; every log of a positive argument,
    every non-integer power of a positive base, every negative power of a non-zero base, every tan
    off its poles (signs proved on the whole box). Reject otherwise."""
    for node in walk(g):
        head = node[0]
        if head in ("piecewise", "abs") or head in NOT_PROVED_ANALYTIC:
            raise Reject(f"{head} is not analytic: {show(g, 60)}")
        if head == "log":
            prove_sign(node[1], "pos", box)
        elif head == "tan":
            prove_sign(("cos", node[1]), "nonzero", box)
        elif head == "pow" and node[2][0] == "int" and node[2][1] < 0:
            prove_sign(node[1], "nonzero", box)
        elif head == "pow" and node[2][0] != "int":
            prove_sign(node[1], "pos", box)


def _prune(node: Node) -> Node:
    """0·x → 0, x + 0 → x, 1·x → x (x defined wherever the derivative is: the germ is analytic)."""
    if node[0] not in ("add", "mul"):
        return node
    args = [_prune(a) for a in node[1:]]
    if node[0] == "mul":
        if ZERO in args:
            return ZERO
        args = [a for a in args if a != ONE] or [ONE]
    else:
        args = [a for a in args if a != ZERO] or [ZERO]
    return args[0] if len(args) == 1 else (node[0], *args)


def taylor_bound(s: int, rows: list[tuple]) -> list[int]:
    """The candidates a (of sign s) the Taylor rows (j, d₊ status, d₋ status, ε) leave; Reject if
    they leave a whole range (see the module's docstring for the relations)."""
    if s == 1:
        if len({j for j, dp, dm, _ in rows if "nonzero" in (dp, dm)}) < 2:
            raise Reject("fewer than two orders with a coefficient certified non-zero: no bound for a > 0")
        return [1]  # c = b^j = b^k with j ≠ k: b = 1
    laws = []
    for _j, dp, dm, eps in rows:
        if {dp, dm} == {"zero", "nonzero"} or (dp == dm == "nonzero" and eps == "differ"):
            return []  # c = 0, or b^j·d = 0, or c² ≠ b^(2j): no a < 0
        if dp == dm == "nonzero" and eps in (1, -1):
            laws.append(eps)
    if len(laws) < 2:
        raise Reject("the coefficients leave more than one a < 0 (fewer than two laws c = ±b^j)")
    return [] if laws[0] * laws[1] == -1 else [-1]  # b^(k−j) = ε_j·ε_k with b > 0


def coefficient_row(plus: Node, minus: Node | None, j: int) -> tuple:
    """(j, status of d₊ⱼ, status of d₋ⱼ, ε with d₋ⱼ = ε·d₊ⱼ, or "differ" when d₋ⱼ² ≠ d₊ⱼ²); with
    ``minus`` None the germ is two-sided and d₋ⱼ = (−1)ʲ·d₊ⱼ by the chain rule."""
    dp = _at_zero(nth_derivative(plus, j, normal=True))
    if minus is None:
        return (j, status(dp), status(dp), (-1) ** j)
    dm = _at_zero(nth_derivative(minus, j, normal=True))
    sp, sm = status(dp), status(dm)
    eps = None
    if sp == sm == "nonzero":
        for e in (1, -1):
            if exactly_zero(("add", dm, ("mul", ("int", -e), dp)), {}):
                return (j, sp, sm, e)
        try:
            prove_sign(("add", ("pow", dm, ("int", 2)), ("mul", MINUS, ("pow", dp, ("int", 2)))),
                       "nonzero", {}, by="point")
            eps = "differ"
        except Reject:
            pass
    return (j, sp, sm, eps)


def nth_derivative(g: Node, j: int, v: str = "t", normal: bool = False) -> Node:
    """The j-th derivative. With ``normal``, each derivative is replaced by its normal form
    (:func:`normalised`: the same values wherever it is defined), which keeps high orders
    polynomial in the atoms; only for values on an open set where g is analytic (the Taylor
    coefficients of a germ at 0), since the normal form may be defined at more points."""
    try:
        if normal:
            return _normal_derivative(g, j, v)
        for _ in range(j):
            g = _prune(derivative(g, v))
    except Unknown as why:
        raise Reject(f"no derivative: {why}") from None
    return g


@lru_cache(maxsize=1024)
def _normal_derivative(g: Node, j: int, v: str) -> Node:
    """The j-th derivative in normal form, each order from the one below (the rows of a Taylor
    argument ask for orders 0, 1, 2, …: each is one more derivative, not j of them)."""
    if j == 0:
        return g
    return normalised(_prune(derivative(_normal_derivative(g, j - 1, v), v)))


def _at_zero(g: Node) -> Node:
    return substitute(g, "t", ZERO)


def status(d: Node) -> str | None:
    """'nonzero' (certified by the point argument), 'zero' (exactly), or None."""
    if exactly_zero(d, {}):  # first: a 0 would climb the point argument's whole precision ladder
        return "zero"
    try:
        prove_sign(d, "nonzero", {}, by="point")
        return "nonzero"
    except Reject:
        return None
