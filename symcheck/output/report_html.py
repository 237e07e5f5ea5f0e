"""A self-contained HTML report: one file to share, opened by any browser with no network and
no script — formulas in MathML (:mod:`symcheck.output.mathml`), plots inlined as SVG, the style
in the page.

``activation_document`` is ``symcheck report --act A``; ``model_document`` is
``symcheck model DIR --html FILE``.
"""
from __future__ import annotations

import html as _html
import io
import re
from typing import Any

from symcheck.core.errors import PlotError
from symcheck.core.rendering import renderer
from symcheck.language.transformations import Transformation
from symcheck.numeric.model_report import ModelReport
from symcheck.output.html import activation_definition, html
from symcheck.output.mathml import element
from symcheck.paper.report import ActivationReport

__all__ = ["activation_document", "document", "model_document", "svg"]

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 64rem; margin: 2rem auto; padding: 0 1rem;
       line-height: 1.45; color: #1a1a1a; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8rem 0; }
caption { padding: 0.3rem 0; }
td, th { border-bottom: 1px solid #e4e4e4; padding: 0.25rem 0.6rem; vertical-align: top; }
math { font-size: 1.08em; }
.holds { color: #11772b; font-weight: bold; } .broken { color: #b3261e; font-weight: bold; }
.inconclusive { color: #8a6100; font-weight: bold; }
figure { margin: 1rem 0; } figure svg { max-width: 100%; height: auto; }
footer { margin-top: 3rem; color: #666; font-size: 0.9em; }
"""


def document(title: str, body: str) -> str:
    """A whole HTML page: the title, the style, the body; nothing loaded from elsewhere."""
    return (f"<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
            f"<title>{_html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n{body}\n"
            "<footer>Written by symcheck. 'holds' comes with a proof covering all of R, 'broken' with an "
            "exact witness certified by exact or interval arithmetic; anything else is 'inconclusive'."
            "</footer>\n</body>\n</html>\n")


def svg(figure: Any) -> str:
    """A matplotlib figure as an inline ``<svg>`` element (text drawn as paths: no fonts to load)."""
    import matplotlib
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "symcheck", "svg.fonttype": "path"}):
        figure.savefig(buffer, format="svg", metadata=dict.fromkeys(("Creator", "Date", "Format", "Type")))
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # the element alone: no XML declaration or doctype inside HTML


def _verdict(value: str) -> str:
    return f"<span class='{value}'>{value}</span>"


def _figures(report: ActivationReport, timeout: float) -> str:
    """The exchange and scaling defects as inline SVG, or why there are none."""
    try:
        from symcheck.language.transformations import DomainName
        from symcheck.output.plots import exchange_figure, scaling_figure
        drawn = [("The exchange defect σ(a)·b − σ(b)·a over (a, b)",
                  exchange_figure(report.activation, timeout=timeout)),
                 ("The inverse-scaling defect σ(αa)/α − σ(a) over (α, a), α > 0",
                  scaling_figure(report.activation, DomainName.POSITIVE, timeout=timeout))]
    except PlotError as err:
        return f"<p>No plots: {_html.escape(str(err))}</p>"
    return "\n".join(f"<figure>{svg(fig)}<figcaption>{_html.escape(caption)}</figcaption></figure>"
                     for caption, fig in drawn)


def _scale_domain(t: Transformation) -> str:
    if t.domain is None:  # never: a scaling is built with its domain (Transformation.__post_init__)
        raise ValueError(f"the {t.name} has no domain")
    return t.domain.describe()


def _summary(report: ActivationReport) -> str:
    rows = [("exchange (q, k) → (k, q)", report.exchange)]
    rows += [(f"inverse scaling (q, k) → (αq, k/α), {_scale_domain(r.transformation)}", r) for r in report.scaling]
    body = "".join(f"<tr><td>{_html.escape(label)}</td><td>{_verdict(r.verdict.value)}</td></tr>"
                   for label, r in rows)
    state = "complete" if report.group.complete else "partial"
    body += (f"<tr><td>symmetry group G<sub>σ</sub></td><td>{state}: "
             f"{'; '.join(element(c.formula()) for c in report.group.components)}</td></tr>")
    return f"<table><tr><th>on the gated unit σ(a)·b</th><th>verdict</th></tr>{body}</table>"


@renderer("html", ActivationReport)
def report_html(report: ActivationReport) -> str:
    """The report's sections (without the page around them)."""
    sections = [f"<h1>symcheck report: {_html.escape(report.activation.name)}</h1>",
                f"<p>{activation_definition(report.activation)}</p>", _summary(report),
                "<h2>Exchange</h2>", html(report.exchange), "<h2>Inverse scaling</h2>",
                *(html(r) for r in report.scaling), "<h2>Audit: every formulation, every transformation</h2>",
                html(report.audit), "<h2>Symmetry group</h2>", html(report.group)]
    return "\n".join(sections)


def activation_document(report: ActivationReport, *, timeout: float, plots: bool = True) -> str:
    """``symcheck report``: the report as one page, with the defect plots inlined as SVG."""
    body = report_html(report)
    if plots:
        body += "\n<h2>Plots</h2>\n" + _figures(report, timeout)
    return document(f"symcheck report: {report.activation.name}", body)


def model_document(report: ModelReport, *, plots: bool = True) -> str:
    """``symcheck model DIR --html FILE``: the layers' table, and the defects by layer as SVG."""
    body = f"<h1>symcheck model report: {_html.escape(report.name)}</h1>\n{html(report)}"
    if plots:
        try:
            from symcheck.output.model_plot import model_figure
            body += f"\n<figure>{svg(model_figure(report))}<figcaption>Defects by layer</figcaption></figure>"
        except PlotError as err:
            body += f"\n<p>No plot: {_html.escape(str(err))}</p>"
    return document(f"symcheck model report: {report.name}", body)


#: what a report must never contain: a script, or anything fetched from the network (an XML
#: namespace names a vocabulary and is never fetched)
UNSAFE = re.compile(r"<script|\bon\w+=|javascript:|<link\b|<iframe|<object|<embed|@import|\bsrc=|url\((?!#)|"
                    r"(?<!xmlns=\")(?<!xmlns:xlink=\")https?://", re.IGNORECASE)
