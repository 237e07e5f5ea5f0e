"""Verdicts on activations that hold a constant below the resolution of SymPy's evalf (issue 26).

A tiny constant C (``tiny_constants``: log(1+x) − x + x²/2, log(1+x) − log(1+2x), e^x − 1 − x,
√(1+x) − 1 − x/2 at x = e^-k, 10^-k, 2^-k, negated, and sums of them) is placed where its sign
changes a verdict: branch conditions (``z + C > 0``, ``z**3 + z + C > 0``, ``Eq(C, 0)``,
``Eq(z, C)``, ``C > 0``), ``Abs(C)``, ``Max(z, z + C)``, ``Min``, ``sign(C)``, ``Heaviside(C)``,
coefficients, cut points, offsets; then every check that can see it is run — exchange, inverse
scaling for several α domains, custom unit forms, audit rows, the command line, and the
definedness check (``log(z**2 + C)``, ``sqrt(C + z**2)``).

The TRUE verdict of each case is derived from the construction (``Position.truth``: gated
exchange holds iff σ(z) = σ(1)·z for every z; inverse scaling for α > 0 iff σ is positively
homogeneous; for α = −1 iff σ is odd) with the sign of C computed by mpmath at high precision,
never by SymPy. Every answer must be the true verdict or ``inconclusive`` — never the opposite,
never an exception — and a ``broken`` verdict's witness must break the statement when the
statement is evaluated by mpmath from the construction at high precision (two precisions).
"""
from __future__ import annotations

import json

import mpmath
import pytest
import sympy
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.core.errors import DomainError, SymcheckError
from symcheck.language.symbols import Z

from support import invoke_cli
from support.tiny_constants import (
    D_TEXT,
    DEFINEDNESS,
    FAMILIES,
    P_TEXT,
    POSITIONS,
    POSITIONS_BY_NAME,
    D,
    Definedness,
    P,
    Position,
    Tiny,
    mp_rational,
    tiny,
    tiny_constants,
    witness_breaks,
)

# verdicts, not the machine's load; slow: among the heaviest files measured, left out of the quick run
pytestmark = [pytest.mark.usefixtures("generous_parse_budget"), pytest.mark.slow]

TIMEOUT = 10
#: each example runs whole checks: no shrinking (the failure message names the whole case anyway)
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    phases=NO_SHRINK)
FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    phases=NO_SHRINK)

FAST = [p for p in POSITIONS if not p.slow]
SLOW = [p for p in POSITIONS if p.slow]
#: |C| down to 10^-1500: within reach of Arb at 8192 bits, so a fixed engine can be decisive
CONSTANTS = tiny_constants(max_digits=1500)



def run(what: str, text: str, form: str, domain: str | None):
    """The check, with an exception reported as what it is: a refusal of a valid activation, or a crash."""
    try:
        if what == "exchange":
            return sc.check_exchange(text, form=form, timeout=TIMEOUT)
        return sc.check_inverse_scaling(text, alpha=domain, form=form, timeout=TIMEOUT)
    except SymcheckError as err:
        pytest.fail(f"a valid activation was refused: {type(err).__name__}: {err}\n  σ = {text}")
    except Exception as err:  # noqa: BLE001 -- the point: no input may crash a check
        pytest.fail(f"crash: {type(err).__name__}: {err}\n  σ = {text}")


def with_alpha(point: dict, domain: str | None) -> dict:
    """A witness of a check at one number α = domain names no α: add it."""
    point = dict(point)
    if domain not in (None, "positive", "negative", "any") and "alpha" not in point:
        point["alpha"] = sympy.Rational(domain)
    return point


def witness_of(result, domain: str | None) -> dict:
    return with_alpha(dict(result.witness), domain)


def assert_sound(position: Position, c: Tiny, what: str, form: str, domain: str | None, truth: str,
                 verdict: str, witness: dict | None, where: str) -> None:
    case = f"{where}: σ = {position.text(c)}\n  C = {c}\n  true verdict {truth}"
    assert verdict in (truth, "inconclusive"), f"{case}, symcheck says {verdict} (witness {witness})"
    if verdict == "broken":
        assert witness, f"{case}: broken without a witness"
        transformation = "exchange" if what == "exchange" else "inverse-scaling"
        assert witness_breaks(position, c, form, transformation, witness), (
            f"{case}: the witness {witness} does not break the statement (mpmath at high precision)")


def check_case(position: Position, c: Tiny, what: str, form: str = "gated", domain: str | None = None,
               truth: str | None = None) -> None:
    truth = truth or position.truth(what, domain, c.sign)
    result = run(what, position.text(c), form, domain)
    witness = witness_of(result, domain) if result.verdict.value == "broken" and result.witness else None
    assert_sound(position, c, what, form, domain, truth, result.verdict.value, witness,
                 f"{what} {form}" + (f" α {domain}" if domain else ""))


# --- the four examples of the issue, exactly as written there ------------------------------------

def _sigma_from(position: str) -> Position:
    return POSITIONS_BY_NAME[position]


ISSUE_EXAMPLES = [
    # (activation text, true verdict, the Position whose σ it is, the constant in that position)
    (f"Piecewise((z, z <= 0), (z, z + {D_TEXT} > 0), (z + z**2, True))", "broken", "condition z + C > 0", D),
    (f"Piecewise((z, z <= 0), (z, z + ({D_TEXT}) > 0), (z + z**2, True))", "broken", "condition z + C > 0", D),
    (f"z + z**2*(Abs({P_TEXT}) - ({P_TEXT}))", "broken", "coefficient Abs(C) - C", P),
    (f"Max(z, z + ({P_TEXT}))", "holds", "offset Max(z, z + C)", P),
]


@pytest.mark.parametrize("text, truth, position, c", ISSUE_EXAMPLES, ids=["D", "D-bracketed", "Abs-P", "Max-P"])
def test_issue_example(text: str, truth: str, position: str, c: Tiny) -> None:
    result = run("exchange", text, "gated", None)
    witness = dict(result.witness) if result.verdict.value == "broken" and result.witness else None
    assert_sound(_sigma_from(position), c, "exchange", "gated", None, truth, result.verdict.value, witness,
                 "issue 26 example")


# slow: root isolation of a cubic with an irrational constant term (about 15 s today)
def test_issue_example_cubic_condition() -> None:
    text = f"Piecewise((z, z < 0), (z, z**3 + z + pi*({P_TEXT}) > 0), (z + z**2, True))"
    result = run("exchange", text, "gated", None)
    verdict = result.verdict.value
    assert verdict in ("broken", "inconclusive"), f"{text}: true verdict broken (π·P < 0), symcheck says {verdict}"
    if verdict == "broken":
        a, b = (mp_rational(result.witness[k]) for k in ("a", "b"))
        with mpmath.workdps(300):
            pp = mpmath.pi * P.compute()

            def sigma(z):
                return z if z < 0 or z**3 + z + pp > 0 else z + z**2
            r = sigma(a) * b - sigma(b) * a
            assert abs(r) > mpmath.mpf(10) ** -250, f"witness {dict(result.witness)} does not break it"


@pytest.mark.parametrize("text, truth, position, c", ISSUE_EXAMPLES, ids=["D", "D-bracketed", "Abs-P", "Max-P"])
def test_issue_example_on_the_command_line(text: str, truth: str, position: str, c: Tiny) -> None:
    code, out, err = invoke_cli("exchange", "--act", text, "--json", "--timeout", str(TIMEOUT))
    assert code == 0, f"exit {code}: {err}"
    result = json.loads(out)
    witness = result["witness"]
    witness = {k: sympy.Rational(v) for k, v in witness.items()} if witness else None
    assert_sound(_sigma_from(position), c, "exchange", "gated", None, truth, result["verdict"], witness,
                 "symcheck exchange --json")


def test_issue_example_group_is_not_every_a() -> None:
    # σ = z + z²·(|P| − P) = z + 2|P|·z²: its group is {(1, 1)}; (2, 2) is not a member
    group = sc.symmetry_group(f"z + z**2*(Abs({P_TEXT}) - ({P_TEXT}))", timeout=TIMEOUT)
    assert group.contains(2, 2) is not True, str(group)
    assert group.contains(-1, -1) is not True, str(group)


# --- the activation a result carries is the user's, with its true values ---------------------------------

@SETTINGS
@given(st.sampled_from(POSITIONS), CONSTANTS)
def test_the_parsed_activation_has_the_true_values(position: Position, c: Tiny) -> None:
    # the parsed σ, evaluated by mpmath from its own tree (lambdify), at points on both sides of C
    text = position.text(c)
    try:
        sigma = sc.activation(text)
    except SymcheckError as err:
        pytest.fail(f"a valid activation was refused: {err}\n  σ = {text}")
    dps = c.dps + 20
    with mpmath.workdps(dps):
        cv = c.compute()
        f = sympy.lambdify([Z], sigma.expr, "mpmath")
        for z in (mpmath.mpf(0), cv / 2, -cv / 2, 2 * cv, -2 * cv, cv, mpmath.mpf(1) / 2, mpmath.mpf(-3)):
            true, got = position.sigma(z, cv), f(z)
            ok = bool(abs(got - true) <= abs(cv) * mpmath.mpf(10) ** -8 * (1 + abs(true)))
            assert ok, (f"σ = {text}\n  C = {c}\n  parsed as {sympy.sstr(sigma.expr)[:300]}\n"
                        f"  at z = {mpmath.nstr(z, 5)}: parsed σ = {mpmath.nstr(got, 10)}, "
                        f"true σ = {mpmath.nstr(true, 10)}")


# --- no honest refusal either: every position and family parses --------------------------------------

@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_position_parses_with_either_sign_of_every_family(family: str) -> None:
    # SymPy decides Max(z, z + C·z²), Abs(C·z² − z²), C·z² < 0 with the wrong sign of C; the
    # parser proves a value itself (or normalises C out of a relation) instead of refusing
    refused = []
    for base, k in (("e", 40), ("10", 30), ("2", 60), ("1e", 50)):
        for negate in (False, True):
            c = tiny(family, base, k, negate)
            for position in POSITIONS:
                try:
                    sc.activation(position.text(c))
                except SymcheckError as err:
                    refused.append(f"{position.text(c)}: {err}")
    assert not refused, "\n".join(refused[:5])


# --- generated cases ---------------------------------------------------------------------------------

@SETTINGS
@given(st.sampled_from(FAST), CONSTANTS)
def test_exchange_is_never_the_opposite_of_the_truth(position: Position, c: Tiny) -> None:
    check_case(position, c, "exchange")


@SETTINGS
@given(st.sampled_from(FAST), CONSTANTS, st.sampled_from(["positive", "negative", "-1", "any", "2", "1/2"]))
def test_inverse_scaling_is_never_the_opposite_of_the_truth(position: Position, c: Tiny, domain: str) -> None:
    check_case(position, c, "scaling", domain=domain)


#: (form, transformation, domain, truth from the position and the sign of C)
CUSTOM = [
    ("a*sigma(b)", "exchange", None, lambda p, s: p.truth("exchange", None, s)),
    ("sigma(a)*b + sigma(b)*a", "exchange", None, lambda p, s: "holds"),      # every σ
    ("rank1", "exchange", None, lambda p, s: "holds"),                        # σ(a·b) = σ(b·a)
    ("rank1", "scaling", "any", lambda p, s: "holds"),                        # σ(αa·b/α) = σ(a·b)
    ("sigma(a)*sigma(b)", "scaling", "positive", lambda p, s: p.truth("scaling", "positive", s)),
]


@SETTINGS
@given(st.sampled_from(FAST), CONSTANTS, st.sampled_from(CUSTOM))
def test_custom_and_rank1_forms_are_never_the_opposite_of_the_truth(position: Position, c: Tiny, custom) -> None:
    form, what, domain, truth = custom
    check_case(position, c, what, form=form, domain=domain, truth=truth(position, c.sign))


# slow: cubic branch conditions with an irrational tiny constant term (10-30 s per check today)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow], phases=NO_SHRINK)
@given(st.sampled_from(SLOW), tiny_constants(max_digits=300), st.sampled_from(["exchange", "positive", "-1"]))
def test_cubic_conditions_are_never_decided_the_wrong_way(position: Position, c: Tiny, what: str) -> None:
    if what == "exchange":
        check_case(position, c, "exchange")
    else:
        check_case(position, c, "scaling", domain=what)


# --- audit rows ----------------------------------------------------------------------------------------

#: (form, transformation, domain) -> (unit whose statement the row decides, truth)
AUDIT_ROWS = {
    ("gated", "exchange", None): ("gated", lambda p, s: p.truth("exchange", None, s)),
    ("gated", "inverse-scaling", "positive"): ("gated", lambda p, s: p.truth("scaling", "positive", s)),
    ("gated", "inverse-scaling", "negative"): ("gated", lambda p, s: p.truth("scaling", "negative", s)),
    ("gated", "inverse-scaling", "-1"): ("gated", lambda p, s: p.truth("scaling", "-1", s)),
    ("gated", "inverse-scaling", "any"): ("gated", lambda p, s: p.truth("scaling", "any", s)),
    ("gated", "key-value-rescaling", "positive"): ("gated", lambda p, s: "holds"),
    ("gated", "key-value-rescaling", "any"): ("gated", lambda p, s: "holds"),
    ("rank1", "exchange", None): ("rank1", lambda p, s: "holds"),
    ("rank1", "key-value-rescaling", "positive"): ("rank1", lambda p, s: p.truth("scaling", "positive", s)),
    ("rank1", "key-value-rescaling", "any"): ("rank1", lambda p, s: p.truth("scaling", "any", s)),
    ("mlp", "key-value-rescaling", "positive"): ("sigma(b)", lambda p, s: p.truth("scaling", "positive", s)),
    ("mlp", "key-value-rescaling", "any"): ("sigma(b)", lambda p, s: p.truth("scaling", "any", s)),
}


# slow-ish: an audit runs about 40 rows (1-3 s per activation today)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    phases=NO_SHRINK)
@given(st.sampled_from(FAST), tiny_constants(max_digits=800))
def test_audit_rows_are_never_the_opposite_of_the_truth(position: Position, c: Tiny) -> None:
    text = position.text(c)
    try:
        audit = sc.audit(text, timeout=TIMEOUT)
    except SymcheckError as err:
        pytest.fail(f"a valid activation was refused: {err}\n  σ = {text}")
    except Exception as err:  # noqa: BLE001
        pytest.fail(f"crash: {type(err).__name__}: {err}\n  σ = {text}")
    for (form, transformation, domain), (unit, truth) in AUDIT_ROWS.items():
        row = audit.row(form, transformation, domain)
        verdict, expected = row.verdict.value, truth(position, c.sign)
        case = f"audit row {form} {transformation} {domain}: σ = {text}\n  C = {c}\n  true verdict {expected}"
        assert verdict in (expected, "inconclusive"), f"{case}, the audit says {verdict} ({row.basis})"
        if verdict == "broken" and row.witness:
            point = dict(row.witness)
            assert witness_breaks(position, c, unit, transformation, point), (
                f"{case}: the witness {point} does not break the row's statement (mpmath)")


# --- the command line ------------------------------------------------------------------------------------

@FEW
@given(st.sampled_from(FAST), tiny_constants(max_digits=600),
       st.sampled_from([("exchange",), ("scaling", "--alpha", "positive"), ("scaling", "--alpha", "-1")]))
def test_the_command_line_is_never_the_opposite_of_the_truth(position: Position, c: Tiny, command) -> None:
    text = position.text(c)
    code, out, err = invoke_cli(*command, "--act", text, "--json", "--timeout", str(TIMEOUT))
    assert code == 0, f"symcheck {' '.join(command)} --act {text!r} exited {code}: {err}"
    result = json.loads(out)
    what, domain = ("exchange", None) if command[0] == "exchange" else ("scaling", command[2])
    witness = result["witness"]
    witness = {k: sympy.Rational(v) for k, v in witness.items()} if witness else None
    witness = with_alpha(witness, domain) if witness is not None else None
    assert_sound(position, c, what, "gated", domain, position.truth(what, domain, c.sign), result["verdict"],
                 witness, "symcheck " + " ".join(command))


# --- definedness ------------------------------------------------------------------------------------------

@SETTINGS
@given(st.sampled_from(DEFINEDNESS), CONSTANTS)
def test_definedness_follows_the_true_sign(case: Definedness, c: Tiny) -> None:
    text = case.text(c)
    defined = case.defined(c.sign)
    try:
        sc.activation(text)
    except DomainError as err:
        if err.point is None:  # "could not verify": undecided, an honest answer either way
            return
        assert not defined, f"{text} is defined on R (C = {c}) but was refused: {err}"
        point = sympy.sympify(err.point)
        if point.is_Rational:
            with mpmath.workdps(c.dps + 4 * len(str(point)) + 50):
                assert case.fails(mp_rational(point), c.compute()), (
                    f"{text} refused at z = {point}, where it is defined (C = {c})")
        return
    except SymcheckError as err:
        pytest.fail(f"{text}: {type(err).__name__}: {err}")
    assert defined, f"{text} is NOT defined on all of R (C = {c}) but was accepted"
