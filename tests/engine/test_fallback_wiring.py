"""An inconclusive symbolic check gets a certified witness from the numeric fallback, or
honest evidence — never a verdict from sampling alone."""
from __future__ import annotations

import sympy

import symcheck as sc
from symcheck.engine import zero
from symcheck.engine.zero import Evidence
from symcheck.language.transformations import Transformation, domain


def _blind_engine(monkeypatch) -> None:
    """The symbolic engine neither proves anything nor finds its own witnesses."""
    monkeypatch.setattr(zero, "_METHODS", ())
    monkeypatch.setattr(zero, "_search", lambda *args, **kwargs: (None, Evidence()))


def test_fallback_turns_inconclusive_into_a_certified_witness(monkeypatch) -> None:
    _blind_engine(monkeypatch)
    result = sc.check_exchange("silu")
    assert result.verdict.value == "broken"
    assert "fallback" in result.evidence
    a, b = (sympy.Rational(result.witness[k]) for k in ("a", "b"))
    s = sc.activation("silu")
    assert (s(b) * a - s(a) * b).evalf(50) != 0


def test_true_identity_stays_inconclusive_with_evidence(monkeypatch) -> None:
    _blind_engine(monkeypatch)
    result = sc.check_exchange("z*(sin(z)**2 + cos(z)**2)")
    assert result.verdict.value == "inconclusive" and result.witness is None
    assert result.evidence["fallback"]["points"] > 0


def test_plane_path_falls_back_too(monkeypatch) -> None:
    from symcheck.engine import plane
    monkeypatch.setattr(zero, "_METHODS", ())
    monkeypatch.setattr(plane._Searcher, "_search", lambda self, points: None)
    result = sc.check("silu", Transformation("key-value-rescaling", domain("positive")), "rank1")
    assert result.verdict.value == "broken" and sympy.Rational(result.witness["beta"]) > 0
    assert "fallback" in result.evidence
