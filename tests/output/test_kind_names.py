"""One table names every kind of map for every renderer (issue 24): each kind has its row, and the
LaTeX, HTML and rich audit tables and the check titles read that row, not a copy of their own."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from symcheck.core.verdict import Verdict
from symcheck.language.activations import activation
from symcheck.language.symbols import ALPHA, BETA
from symcheck.language.transformations import (
    NAMES,
    KindNames,
    StructuralKind,
    TransformationKind,
    domain,
    names,
    scale_symbol,
)
from symcheck.paper.auditing import Audit, AuditRow

KINDS = [*TransformationKind, *StructuralKind]


def test_every_kind_has_exactly_one_row() -> None:
    assert set(NAMES) == set(KINDS)
    assert all(names(kind) is NAMES[kind] for kind in KINDS)


def test_no_two_kinds_share_a_name() -> None:
    for field in ("title", "short"):
        values = [getattr(names(kind), field) for kind in KINDS]
        assert len(set(values)) == len(values), field


def test_a_kind_is_named_by_its_member_not_by_a_string_lookalike() -> None:
    with pytest.raises(KeyError):
        names("inverse scaling")  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", list(TransformationKind))
def test_the_scale_symbol_is_the_one_the_map_uses(kind: TransformationKind) -> None:
    from symcheck.language.transformations import KINDS as MAPS
    assert scale_symbol(kind) == (MAPS[kind][0] or ALPHA)
    assert (scale_symbol(kind) == BETA) == (kind is TransformationKind.KEY_VALUE_RESCALING)


def _audit(rows: list[tuple[TransformationKind | StructuralKind, str | None]]) -> Audit:
    return Audit(activation("relu"), tuple(
        AuditRow("gated", kind, None if where is None else domain(where), Verdict.HOLDS, ())
        for kind, where in rows))


def _rich(value: object) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(value)
    return console.export_text()


#: every renderer of an audit table: each must print the row's name from the table
RENDERERS = {"latex": Audit.to_latex, "notebook": Audit._repr_latex_, "html": Audit._repr_html_, "rich": _rich}


@pytest.mark.parametrize("fmt", list(RENDERERS))
@given(kind=st.sampled_from(KINDS), marker=st.sampled_from(["zq", "qz"]))
@settings(deadline=None)  # the first render loads its output module
def test_every_audit_renderer_reads_the_table(fmt: str, kind, marker: str) -> None:
    # a sentinel name in the table must reach the output: a renderer with its own copy would not
    original = NAMES[kind]
    NAMES[kind] = KindNames("Title" + marker, "cell" + marker, "col" + marker)
    try:
        rendered = RENDERERS[fmt](_audit([(kind, None)]))
    finally:
        NAMES[kind] = original
    assert "cell" + marker in rendered


@given(kind=st.sampled_from(KINDS))
def test_the_json_keeps_the_kinds_value(kind) -> None:
    row = _audit([(kind, None)]).to_dict()["rows"][0]
    assert json.loads(json.dumps(row))["transformation"] == kind.value
