"""The files a model directory names, opened only when they are regular files.

A checkpoint directory is user input: ``config.json`` may be a link to ``/dev/zero`` (reading
it would grow without end), a FIFO (opening or reading it would wait for a writer for ever),
or a JSON text nested 200,000 deep or holding a 5,000-digit integer (Python's parser raises
RecursionError or ValueError). So a file is opened without blocking, checked to be a regular
file on the descriptor that is then read (no window between the check and the read), small
files are read with a cap on their size, and JSON is parsed with every failure a one-line
:class:`WeightsError`.

Links. The Hugging Face cache is made of links (``snapshots/<rev>/config.json`` points into
``blobs/``), so a link is followed by default, its target must be a regular file too, and the
caller is told where it led (:class:`Opened`), to say so in the report. ``follow_links=False``
refuses any link instead (``--refuse-links``).
"""
from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from symcheck.core.errors import WeightsError

__all__ = ["REFUSE_LINKS_HINT", "Opened", "open_regular", "parse_json", "read_json", "read_small"]

#: how the refusal of a link tells the user where it came from
REFUSE_LINKS_HINT = "links are refused (--refuse-links)"

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


@dataclass(frozen=True)
class Opened:
    """A regular file, open for reading: its size, and the file a link led to (None: no link)."""

    file: BinaryIO
    size: int
    target: Path | None


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _link_target(path: Path, follow_links: bool) -> Path | None:
    if not path.is_symlink():
        return None
    if not follow_links:
        raise WeightsError(f"{path}: a symbolic link (to {os.readlink(path)}); {REFUSE_LINKS_HINT}", path=path)
    try:
        return path.resolve(strict=True)
    except (OSError, RuntimeError) as err:  # RuntimeError: a loop of links (Python < 3.13)
        raise WeightsError(f"{path}: a symbolic link that leads to no file ({_first_line(err)})",
                           path=path) from None


def open_regular(path: str | Path, *, follow_links: bool = True) -> Opened:
    """``path`` opened for reading, if it (or the file its link leads to) is a regular file.

    Opened non-blocking, so that a FIFO answers at once instead of waiting for a writer; the
    check is made on the open descriptor (``fstat``), which is the one that is read.
    """
    path = Path(path)
    target = _link_target(path, follow_links)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise WeightsError(f"{path}: no such file", path=path) from None
    except OSError as err:
        raise WeightsError(f"{path}: cannot open ({err.strerror or err})", path=path) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            via = f" (the link leads to {target})" if target is not None else ""
            raise WeightsError(f"{path}: {_kind(info.st_mode)}{via}; expected a regular file", path=path)
        os.set_blocking(fd, True)
        return Opened(os.fdopen(fd, "rb"), info.st_size, target)
    except BaseException:
        os.close(fd)
        raise


def read_small(path: str | Path, cap: int, what: str, *, follow_links: bool = True) -> tuple[bytes, Path | None]:
    """The whole of a small regular file (at most ``cap`` bytes), and where its link led."""
    opened = open_regular(path, follow_links=follow_links)
    with opened.file as f:
        if opened.size > cap:
            raise WeightsError(f"{path}: {opened.size} bytes; {what} is expected to be at most {cap}",
                               path=Path(path))
        raw = f.read(opened.size + 1)  # read(n) allocates n bytes at once: ask for what is there
    if len(raw) > opened.size:  # grew since fstat
        raise WeightsError(f"{path}: grew while it was read", path=Path(path))
    return raw, opened.target


def parse_json(raw: bytes, where: str | Path, what: str) -> object:
    """JSON from UTF-8 bytes; any text Python's parser cannot take is the one-line error
    ``where: what (why)``:
    nesting deeper than the interpreter's recursion limit (RecursionError), an integer longer
    than Python's int-string limit (ValueError), invalid UTF-8, invalid JSON."""
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        why = "not UTF-8 text"
    except RecursionError:
        why = "nested too deeply"
    except ValueError as err:  # JSONDecodeError, and the int-string limit
        why = _first_line(err)
    raise WeightsError(f"{where}: {what} ({why})", path=Path(str(where)))


def read_json(path: str | Path, cap: int, what: str, *, follow_links: bool = True) -> tuple[object, Path | None]:
    """A small JSON file: its parsed value, and where its link led (None: no link)."""
    raw, target = read_small(path, cap, what, follow_links=follow_links)
    return parse_json(raw, path, "not a readable JSON file"), target


def _first_line(err: BaseException) -> str:
    return " ".join(str(err).split())[:100] or type(err).__name__
