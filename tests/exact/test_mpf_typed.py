"""symcheck.exact.mpf types mpmath's raw numbers for mypy only: at run time each name must be
mpmath's own object, so the certified interval arithmetic runs exactly mpmath's code."""
import inspect

import mpmath.libmp
import mpmath.libmp.libmpi
import pytest

from symcheck.exact import mpf

_RUNTIME = [n for n in mpf.__all__ if n not in ("MPF", "Interval")]


@pytest.mark.parametrize("name", _RUNTIME)
def test_each_name_is_mpmaths_own(name: str) -> None:
    source = mpmath.libmp.libmpi if name.startswith("mpi_") else mpmath.libmp
    assert getattr(mpf, name) is getattr(source, name)


def test_every_imported_name_is_exported() -> None:
    """A name imported for the run time but left out of __all__ (or the reverse) is a slip."""
    imported = {n for n, v in vars(mpf).items() if not n.startswith("_") and n not in ("annotations", "TYPE_CHECKING")
                and not inspect.ismodule(v) and n not in ("MPF", "Interval")}
    assert imported == set(_RUNTIME)
