"""The kernel's bundle (a symmetry group's members, `check-certificate` on a group's file): it is
accepted exactly when every certificate in it is, each one checked as itself, and a rejection
names the entry. Small certificates from scaling checks, so the kernel's test selection can run
it for every mutant (the catalogue groups in test_group_certificates.py take minutes)."""
from __future__ import annotations

import copy
import json
from functools import cache

import pytest

import symcheck as sc
from symcheck.kernel.check import BUNDLE_SCHEMA, check, check_document

from support import invoke_cli


@cache
def _certificates() -> tuple[dict, dict, dict]:
    return tuple(sc.check_inverse_scaling(act, alpha).certificate
                 for act, alpha in (("relu", "2"), ("relu", "positive"), ("silu", "minus-one")))


def _bundle() -> dict:
    whats = ("relu, a = 2", "relu, a > 0", "silu, a = -1 (a witness)")
    return {"schema": BUNDLE_SCHEMA,
            "certificates": [{"what": w, "certificate": copy.deepcopy(c)}
                             for w, c in zip(whats, _certificates(), strict=True)]}


def test_a_bundle_of_accepted_certificates_is_accepted_with_every_obligation_counted() -> None:
    each = [check(c) for c in _certificates()]
    assert all(v.accepted for v in each)
    verdict = check_document(_bundle())
    assert verdict.accepted, verdict.reason
    assert verdict.checked == sum(v.checked for v in each) > 0


@pytest.mark.parametrize("index", [0, 1, 2])
def test_one_certificate_edited_rejects_the_bundle_and_names_it(index: int) -> None:
    bundle = _bundle()
    bundle["certificates"][index]["certificate"]["schema"] = "symcheck.certificate/0"
    assert not check(bundle["certificates"][index]["certificate"]).accepted
    verdict = check_document(bundle)
    assert not verdict.accepted
    assert verdict.where.startswith(f"certificates[{index}] ({bundle['certificates'][index]['what']})")


@pytest.mark.parametrize("index", [0, 1])
def test_a_rejection_inside_a_bundle_names_the_entry_and_the_step(index: int) -> None:
    """The first failing step is named as the kernel names it for the certificate alone, after
    the entry: ``certificates[1] (relu, a > 0).proof.pieces[0].steps[0]``."""
    bundle = _bundle()
    edited = bundle["certificates"][index]["certificate"]
    edited["proof"]["pieces"][0]["steps"][0]["rule"] = "nonsense"
    alone = check(edited)
    assert not alone.accepted and alone.where == "proof.pieces[0].steps[0]"
    verdict = check_document(bundle)
    what = bundle["certificates"][index]["what"]
    assert (verdict.accepted, verdict.reason) == (False, alone.reason)
    assert verdict.where == f"certificates[{index}] ({what}).proof.pieces[0].steps[0]"


def test_check_certificate_reads_a_bundle_file(tmp_path) -> None:
    path = tmp_path / "group.json"
    path.write_text(json.dumps(_bundle()))
    assert invoke_cli("check-certificate", str(path))[0] == 0
    bundle = _bundle()
    bundle["certificates"][1]["certificate"]["claim"] = "nonsense"
    path.write_text(json.dumps(bundle))
    assert invoke_cli("check-certificate", str(path))[0] == 1
    assert check_document({"schema": BUNDLE_SCHEMA, "certificates": []}).accepted is False
