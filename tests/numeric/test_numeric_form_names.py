"""The numeric checks take exactly three forms, gated, rank1 and bilinear: any other name — the
module's own names, other words — is refused as an unknown numeric form, never run as one."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.core.errors import UnknownNameError
from symcheck.numeric import checks

FORMS = {"gated", "rank1", "bilinear"}
NEARBY = sorted({n for n in (*vars(checks), *checks.__all__) if n.isidentifier()} - FORMS)


def refused(name: str) -> bool:
    try:
        checks.prepare("exchange", act="relu", form=name, d=4, m=4, tokens=4)
    except UnknownNameError:
        return True
    return False


def test_the_modules_own_names_are_not_numeric_forms() -> None:
    assert NEARBY and [n for n in NEARBY if not refused(n)] == []


@settings(max_examples=40, deadline=None)
@given(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True))
def test_no_other_name_is_a_numeric_form(name: str) -> None:
    assert name in FORMS or refused(name)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_the_three_forms_are_taken(form: str) -> None:
    extra = {"r": 2} if form == "bilinear" else {}
    assert checks.prepare("exchange", act="relu", form=form, d=4, m=4, tokens=4, **extra).form == form
