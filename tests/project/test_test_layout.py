"""The tests mirror the package's layers: a test file sits in the folder of the layer it
specifies (tests/core … tests/output, tests/engine/group for the symmetry group, tests/cli for
the command line), whole-project checks in tests/project, the shared helpers in tests/support;
and every test file the documentation, the scripts and the package's comments name exists."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from support import ROOT

TESTS = ROOT / "tests"
PACKAGE = ROOT / "symcheck"
#: the package's layers (its subpackages), its command line, and the checks of the whole project
FOLDERS = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()} | {"cli", "project"}
#: a path to a test file or helper as the prose writes it (a placeholder such as tests/LAYER/test_X.py is no path)
NAMED_PATH = re.compile(r"(?<![\w/.])tests/[a-z0-9_/]+\.py\b")
NAMED_FILE = re.compile(r"(?<![\w/.])test_[a-z0-9_]+\.py\b")


def _test_files() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


def _misplaced(files: list[Path]) -> list[str]:
    """Test files outside a layer's folder, or in a subfolder with no subpackage of that name."""
    out = []
    for path in files:
        parts = path.relative_to(TESTS).parts[:-1]
        if not parts or parts[0] not in FOLDERS or (len(parts) > 1 and not PACKAGE.joinpath(*parts).is_dir()):
            out.append(str(path.relative_to(TESTS)))
    return out


def test_every_test_file_sits_in_the_folder_of_a_layer() -> None:
    files = _test_files()
    assert len(files) > 100
    assert not _misplaced(files), f"test files outside a layer's folder: {_misplaced(files)}"


@pytest.mark.parametrize("folder", [".", "numeric/group", "support", "misc"])
def test_the_placement_check_can_fail(folder: str) -> None:
    placed = Path(folder, "test_" + "x.py")  # in two pieces: whole, the name would read as a stale one below
    assert _misplaced([TESTS / placed]) == [str(placed)]


def test_no_two_test_files_share_a_name() -> None:
    """pytest's default import mode imports a test file under its bare name (its folder is no
    package): two files of one name in two folders fail the run at collection."""
    counts = Counter(path.name for path in _test_files())
    assert not {name for name, count in counts.items() if count > 1}


def test_only_the_helpers_are_a_package() -> None:
    """An __init__.py in a layer's folder would turn its files into modules of a package named
    after the folder (tests/core → a package ``core``); the helpers are one package, imported as
    ``support``."""
    inits = sorted(str(p.relative_to(TESTS)) for p in TESTS.rglob("__init__.py"))
    assert inits == ["support/__init__.py"]
    assert not [p.name for p in TESTS.glob("*.py") if p.name != "conftest.py"], "a helper outside tests/support"


def _texts() -> list[Path]:
    """Where test files are named: the pages, the scripts, the package's comments, the tests."""
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "mkdocs.yml", *sorted((ROOT / "docs").rglob("*.md")),
            *sorted((ROOT / "proofs").glob("*.md")), *sorted((ROOT / "scripts").glob("*.py")),
            *sorted((ROOT / "benchmarks").glob("*.py")), *sorted(PACKAGE.rglob("*.py")), *sorted(TESTS.rglob("*.py"))]


def test_every_test_file_named_exists() -> None:
    """A path (tests/engine/test_plane.py) names the file where it is; a bare name (as the mutation
    check's tables and docs/mutation.md write them) a file somewhere under tests/."""
    names = {path.name for path in TESTS.rglob("*.py")}
    stale = []
    for text in _texts():
        source = text.read_text(encoding="utf-8")
        where = text.relative_to(ROOT)
        stale += [f"{where}: {path}" for path in NAMED_PATH.findall(source) if not (ROOT / path).is_file()]
        stale += [f"{where}: {name}" for name in NAMED_FILE.findall(source) if name not in names]
    assert not stale, f"named but not there: {stale}"
