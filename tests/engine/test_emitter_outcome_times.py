"""The seconds a checked outcome reports (``--json`` prints them): each is a duration, at least 0
and at most the time the call took, for an accepted certificate and for one the kernel rejects."""
import copy
import time

from symcheck.engine.certificate.emit import (
    Certificate,
    Rejection,
    RejectionStage,
    certify_statement,
    checked_outcome,
)
from symcheck.language.transformations import Transformation


def _accepted_certificate() -> dict:
    outcome = certify_statement("z", Transformation("exchange"), "gated")
    assert isinstance(outcome, Certificate), str(outcome)
    return outcome.data


def _timed(cert: dict | None, run_kernel: bool = True):
    started = time.perf_counter()
    outcome = checked_outcome(cert, started, run_kernel, "no proof")
    return outcome, time.perf_counter() - started


def test_an_accepted_certificate_reports_durations():
    outcome, elapsed = _timed(_accepted_certificate())
    assert isinstance(outcome, Certificate)
    assert 0 <= outcome.emit_seconds <= elapsed
    assert 0 <= outcome.check_seconds <= elapsed
    assert outcome.emit_seconds + outcome.check_seconds <= elapsed


def test_a_certificate_the_kernel_rejects_reports_durations():
    cert = copy.deepcopy(_accepted_certificate())
    cert["claim"] = {"tampered": True}
    outcome, elapsed = _timed(cert)
    assert isinstance(outcome, Rejection) and outcome.stage is RejectionStage.KERNEL
    assert outcome.data is cert
    assert 0 <= outcome.emit_seconds <= elapsed
    assert 0 <= outcome.check_seconds <= elapsed


def test_no_certificate_and_an_unchecked_one_report_emit_time_only():
    outcome, elapsed = _timed(None)
    assert isinstance(outcome, Rejection) and outcome.stage is RejectionStage.EMIT
    assert outcome.reason == "no proof" and 0 <= outcome.emit_seconds <= elapsed
    outcome, elapsed = _timed(_accepted_certificate(), run_kernel=False)
    assert isinstance(outcome, Certificate) and outcome.checked == 0 and outcome.check_seconds == 0
    assert 0 <= outcome.emit_seconds <= elapsed
