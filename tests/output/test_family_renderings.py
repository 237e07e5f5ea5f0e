"""A family's renderings go through the shared printers (issue 25 items 1 and 3): its HTML has
MathML and no raw LaTeX for MathJax, its rich subtitle the one-line Unicode printer, not sstr."""

from __future__ import annotations

import pytest

import symcheck as sc
from symcheck.core.rendering import find

# region verdicts are decided under wall-clock limits: scaled to the machine's load in tests
pytestmark = pytest.mark.usefixtures("generous_region_budget")


@pytest.fixture(scope="module")
def family():
    return sc.check_exchange("z + beta*z**2", params={"beta": "beta"})


def test_family_html_is_mathml(family) -> None:
    html = find("html", type(family))(family)
    assert "$" not in html and "\\" not in html
    assert html.count("<math") >= 1 + len(family.regions)  # the quantifier and each region


def test_family_subtitle_is_pretty_text(family) -> None:
    panel = find("rich", type(family))(family)
    subtitle = str(panel.subtitle)
    assert "**" not in subtitle and "²" in subtitle
