"""The ``log-periodic`` argument of a ``complete`` certificate needs every other harmonic of the
form apart from the chosen one: |ω_i| ≠ |ω| for each ω_i of ``others``, the first included.

Hand-built: σ(z) = z, whose group G = {(a, a) : a ≠ 0} is a whole continuum. Written as
σ(e^t) = e^t·(cos(ωt) − cos(ωt) + cos(0·t)), ω = π/log 2, the "chosen harmonic" cos(ωt) is
cancelled by the first other harmonic, of the same frequency. Everything else in the certificate
is true and re-proved: the form itself (a zero proof), the members (2, 2) and (−1, −1), ω·log 2 = π.
Were the same-frequency harmonic let through, the argument would conclude that G ∩ {a > 0} is
{2^j}, and the certificate would claim G = ⟨(2, 2), (−1, −1)⟩ complete; but (3, 3) ∈ G (its
member certificate is accepted here too). The kernel must reject it at the apartness of ω_1 and ω.
"""
from __future__ import annotations

import copy

import pytest

from symcheck.kernel.check import check

from support.kernel_certificates import SCHEMA, Chain, I, Z, add, leaf, mul

T = ["var", "t"]
NF = {"steps": [], "end": "normal-form"}
OMEGA = mul(["const", "pi"], ["pow", ["log", I(2)], I(-1)])  # π / log 2: ω·log 2 = π


def member(a: int, c: int) -> dict:
    """The zero claim σ(a·z) − c·σ(z) = 0 for every real z (σ = z: a·z − c·z, a polynomial)."""
    return {"schema": SCHEMA, "claim": {"kind": "zero", "member": {"sigma": Z, "a": I(a), "c": I(c)},
                                        "vars": {"z": []}}, "proof": NF}


def waves(harmonics: list[tuple]) -> list:
    """α cos(ω t) and β sin(ω t) of each (ω, α, β), as docs/certificates.md writes the form."""
    out = []
    for w, al, be in harmonics:
        out += [mul(al, ["cos", mul(w, T)]), mul(be, ["sin", mul(w, T)])]
    return out


def form_proof(harmonics: list[tuple]) -> dict:
    """σ(e^t) − e^(1·t)·Σ waves = 0: cos(0·t) → cos(0) → 1 and e^(1·t) → e^t, then the normal form
    (the two harmonics of frequency ω cancel as polynomials in their atoms)."""
    expr = add(["exp", T], mul(I(-1), mul(["exp", mul(I(1), T)], add(*waves(harmonics)))))
    k = next(i for i, (w, _, _) in enumerate(harmonics) if w == I(0))
    cos_at = [2, 2, 2, 2 * k + 1, 2]
    chain = Chain(expr).step("ring", cos_at + [1], I(0)).step("cos_zero", cos_at, I(1), dir="lr")
    chain.step("ring", [2, 2, 1, 1], T)
    return leaf(chain)


def certificate(chosen: tuple[int, int], others: list[tuple]) -> dict:
    al, be = chosen
    harmonics = [(OMEGA, I(al), I(be)), *others]
    return {"schema": SCHEMA, "claim": {"kind": "complete", "sigma": Z},
            "nonzero": {"point": I(1), "sign": "pos"},
            "members": [{"certificate": member(2, 2)}, {"certificate": member(-1, -1)}],
            "halves": {"pos": {"by": "log-periodic"}, "neg": {"by": "reflection"}},
            "log_periodic": {"m": I(1), "omega": OMEGA, "alpha": I(al), "beta": I(be),
                             "others": [{"omega": w, "alpha": a, "beta": b} for w, a, b in others],
                             "side": 1, "proof": form_proof(harmonics), "base": I(2), "sign": 1, "power": 1,
                             "base_proof": NF, "powers_refuted": []}}


CHOSEN = [(1, 0), (0, 1), (2, -3)]


def cancelling(al: int, be: int) -> list[tuple]:
    """The chosen harmonic's negative first, then the constant 1 = cos(0·t)."""
    return [(OMEGA, I(-al), I(-be)), (I(0), I(1), I(0))]


@pytest.mark.parametrize("chosen", CHOSEN, ids=str)
def test_every_part_but_the_apartness_is_true(chosen) -> None:
    """The false certificate is false only there: its form, members and base are each accepted."""
    cert = certificate(chosen, cancelling(*chosen))
    lp = cert["log_periodic"]
    harmonics = [(OMEGA, I(chosen[0]), I(chosen[1])), *cancelling(*chosen)]
    form = add(["exp", T], mul(I(-1), mul(["exp", mul(I(1), T)], add(*waves(harmonics)))))
    assert check({"schema": SCHEMA, "claim": {"kind": "zero", "expr": form, "vars": {"t": []}},
                  "proof": lp["proof"]}).accepted
    base = add(mul(OMEGA, ["log", I(2)]), mul(I(-1), ["const", "pi"]))
    assert check({"schema": SCHEMA, "claim": {"kind": "zero", "expr": base, "vars": {}}, "proof": NF}).accepted
    for m in cert["members"]:
        assert check(m["certificate"]).accepted
    assert check(member(3, 3)).accepted  # (3, 3) ∈ G: not a power of 2, the claim of completeness is false


@pytest.mark.parametrize("chosen", CHOSEN, ids=str)
def test_a_first_other_harmonic_of_the_same_frequency_is_rejected(chosen) -> None:
    verdict = check(certificate(chosen, cancelling(*chosen)))
    assert not verdict.accepted
    assert "log_periodic" in verdict.where and "nonzero" in verdict.reason, verdict


@pytest.mark.parametrize("chosen", CHOSEN, ids=str)
def test_a_later_other_harmonic_of_the_same_frequency_is_rejected(chosen) -> None:
    cert = certificate(chosen, cancelling(*chosen)[::-1])
    verdict = check(cert)
    assert not verdict.accepted
    assert "log_periodic" in verdict.where and "nonzero" in verdict.reason, verdict


def test_the_form_edited_is_rejected_at_the_form() -> None:
    """Control: without the cancelling harmonic the form is false, and rejected there."""
    cert = certificate((1, 0), cancelling(1, 0))
    edited = copy.deepcopy(cert)
    edited["log_periodic"]["others"][0]["alpha"] = I(0)
    verdict = check(edited)
    assert not verdict.accepted and "form" in verdict.reason, verdict
