"""``symcheck check-certificate FILE``: exit 0 accepted, 1 rejected (naming the failing step), 2 unreadable."""
from __future__ import annotations

import json

from symcheck.cli import main

from support.kernel_certificates import relu_scaling_positive


def run(path, *extra):
    try:
        main(["check-certificate", str(path), *extra])
    except SystemExit as done:
        return done.code or 0
    return 0


def test_accepted_rejected_unreadable(tmp_path, capsys):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(relu_scaling_positive()))
    assert run(good) == 0
    assert "accepted" in capsys.readouterr().out

    cert = relu_scaling_positive()
    cert["proof"]["pieces"][2]["steps"][0]["take"] = 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(cert))
    assert run(bad, "--json") == 1
    out = json.loads(capsys.readouterr().out)
    assert out["accepted"] is False and out["where"].startswith("proof.pieces[2].steps[0]")

    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert run(broken) == 2
    assert run(tmp_path / "missing.json") == 2
    assert "Error: cannot read the certificate" in capsys.readouterr().err
