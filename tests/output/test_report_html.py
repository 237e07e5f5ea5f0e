"""`symcheck report --act A -o FILE`: one self-contained HTML page (no network, no script) with the
exchange and scaling proofs, the audit, the symmetry group and the plots inlined as SVG — and the
page as a browser lays it out: every formula a MathML box, no raw LaTeX in the visible text.

The browser tests drive Debian's chromium and chromium-driver with selenium (installed by
.ci/run); they are skipped, with the reason, where those are missing.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from symcheck.output.report_html import UNSAFE

from support import ROOT, invoke_cli

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def relu_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "relu.html"
    code, _, err = invoke_cli("report", "--act", "relu", "-o", str(path))
    assert code == 0, err
    return path


def test_the_page_stands_alone(relu_page: Path) -> None:
    text = relu_page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert UNSAFE.search(text) is None, UNSAFE.search(text)
    assert "\\(" not in text and "$$" not in text and "mfenced" not in text
    assert text.count("<svg") == 2 and "<?xml" not in text  # both plots, inlined


@pytest.mark.slow
def test_the_page_shows_every_result(relu_page: Path) -> None:
    text = relu_page.read_text(encoding="utf-8")
    for heading in ("Exchange", "Inverse scaling", "Audit", "Symmetry group", "Plots"):
        assert f"<h2>{heading}" in text, heading
    from symcheck.paper.report import activation_report
    expected = activation_report("relu")  # the verdicts shown are the library's
    summary = text[:text.index("<h2>")]
    shown = re.findall(r"<span class='(\w+)'>", summary)
    assert shown == [r.verdict.value for r in (expected.exchange, *expected.scaling)]
    group_row = summary[summary.index("symmetry group"):]
    assert group_row.count("<math>") == len(expected.group.components) >= 1
    assert text.count("<tr>") >= len(expected.audit.rows)


@pytest.mark.slow
def test_a_user_expression_and_no_plots(tmp_path: Path) -> None:
    path = tmp_path / "mine.html"
    code, _, err = invoke_cli("report", "--act", "Max(z, z/5)", "--no-plots", "-o", str(path))
    assert code == 0, err
    text = path.read_text(encoding="utf-8")
    assert "<svg" not in text and "<h2>Plots" not in text and "<math" in text


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    code, _, err = invoke_cli("report", "--act", "__import__('os')", "-o", str(tmp_path / "x.html"))
    assert code == 2 and err.startswith("Error: ") and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.html").exists()


# ---- in a browser --------------------------------------------------------------------------------

def _browser():
    """A headless Chromium driven by selenium, or a skip naming what is missing."""
    missing = [name for name, found in (("chromium", CHROMIUM), ("chromedriver (chromium-driver)", DRIVER))
               if not found]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("selenium")
    if missing:
        pytest.skip(f"no headless browser: {', '.join(missing)} not installed (.ci/run installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1100,800"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


#: per <math>: its namespace, how CSS lays it out, its box; and the page's visible text
_LAYOUT = """
const boxes = [...document.querySelectorAll('math')].map(m => {
  const r = m.getBoundingClientRect();
  return [m.namespaceURI, getComputedStyle(m).display, r.width, r.height];
});
const svgs = [...document.querySelectorAll('svg')].map(s => s.getBoundingClientRect().width);
const fractions = [...document.querySelectorAll('mfrac')].map(f =>
  [f.getBoundingClientRect().height, f.firstElementChild.getBoundingClientRect().height]);
return [boxes, svgs, fractions, document.body.innerText];
"""


@pytest.fixture(scope="module")
def browser():
    driver = _browser()
    yield driver
    driver.quit()


def test_every_formula_is_laid_out_as_math(browser, relu_page: Path) -> None:
    browser.get(relu_page.as_uri())
    boxes, svgs, fractions, visible = browser.execute_script(_LAYOUT)
    assert len(boxes) == relu_page.read_text(encoding="utf-8").count("<math")
    for namespace, display, width, height in boxes:
        assert namespace == "http://www.w3.org/1998/Math/MathML"
        assert display in ("math", "block math"), display  # laid out by the MathML engine
        assert width > 0 and height > 0
    # a fraction is stacked: taller than its numerator (not a line of run-on text)
    assert fractions and all(total > numerator for total, numerator in fractions)
    assert len(svgs) == 2 and all(width > 100 for width in svgs)
    for raw in ("\\(", "\\)", "$$", "\\frac", "\\sigma", "\\operatorname"):
        assert raw not in visible, raw


def test_the_readme_screenshot_is_made_this_way(browser, relu_page: Path, tmp_path: Path) -> None:
    """The README's picture of a report (docs/report.png) is this page in this browser."""
    shot = tmp_path / "report.png"
    browser.get(relu_page.as_uri())
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    assert (ROOT / "docs" / "report.png").exists()
    assert "docs/report.png" in (ROOT / "README.md").read_text(encoding="utf-8")


# ---- symcheck model DIR --html FILE ----------------------------------------------------------------

def test_a_model_report_is_one_page(tmp_path: Path) -> None:
    from support.model_checkpoints import write_model
    directory = tmp_path / "tiny-llama"
    write_model(directory, "llama", layers=3, d=6, m=10, dtype="BF16", shards=1)
    path = tmp_path / "model.html"
    code, out, err = invoke_cli("model", str(directory), "--tokens", "4", "--html", str(path))
    assert code == 0, err
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and UNSAFE.search(text) is None
    assert text.count("<tr>") == 3 + 1 and "<svg" in text  # one row per layer, the defects drawn
    assert "tiny-llama" in out  # the table still goes to the terminal
