"""Rows files: simulation rows written and read as CSV or JSON Lines, and the output file that a
run may replace, written atomically (:func:`patience_core.files.atomic_writer`).

Layer 4. :class:`RowWriter` writes rows as :func:`row_line` gives them; :func:`parse_row` reads a
row back only when it is the very line patience writes. :func:`check_output` says whether a run
may replace a file; :func:`atomic_output` replaces it only when the rows are all written. The
``FILE.partial`` protocol is in :mod:`patience_core.simulate._partial`. See ``docs/simulate.md``,
"Output files are written whole, and long runs resume".
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import stat
from collections.abc import Iterable, Iterator
from typing import IO, Any

from patience_core.engine import counted, shown
from patience_core.errors import PatienceError
from patience_core.files import atomic_writer, protected
from patience_core.games import shown_path
from patience_core.simulate._rows import COLUMNS, SimRow

__all__ = [
    "FORMATS",
    "RowWriter",
    "atomic_output",
    "check_output",
    "output_target",
    "parse_row",
    "row_line",
]

#: Output formats by file extension.
FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def _csv_line(fields: Iterable[object]) -> str:
    """``fields`` as one line of CSV, quoted where needed, ended by ``\\n``."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerow(fields)
    return text.getvalue()


def row_line(row: SimRow, kind: str) -> str:
    """The line, ``\\n`` included, that :class:`RowWriter` writes for ``row`` in a ``"csv"`` or
    ``"jsonl"`` file: CSV fields in the order of :data:`COLUMNS`, quoted only where CSV needs
    it, seconds with six decimals (``0.000809``); or one JSON object with the keys of
    :data:`COLUMNS` in that order, as :func:`json.dumps` writes it, seconds as a float. A row
    read back is kept only when this gives its line again, byte for byte (:func:`parse_row`).
    """
    if kind == "csv":
        return _csv_line(
            [
                row.game,
                row.deal,
                row.strategy,
                row.options,
                row.result,
                row.score,
                row.max_score,
                row.moves,
                f"{row.seconds:.6f}",
            ]
        )
    return json.dumps({**row.as_dict(), "seconds": float(row.seconds)}) + "\n"


class RowWriter:
    """Writes rows as CSV (with a header line) or JSON Lines to an open text stream, each row
    as :func:`row_line` gives it."""

    def __init__(self, stream: IO[str], kind: str, header: bool = True) -> None:
        self._stream = stream
        self._kind = kind
        if kind == "csv" and header:
            stream.write(_csv_line(COLUMNS))

    def write(self, row: SimRow) -> None:
        """Write one row (and flush it, so a killed run keeps every row written)."""
        self._stream.write(row_line(row, self._kind))
        self._stream.flush()


#: The columns of a row that hold whole numbers.
_WHOLE = ("score", "max_score", "moves")
#: A whole number as the row writers write it.
_DIGITS = re.compile(r"0|[1-9][0-9]{0,99}")
#: Seconds as the CSV writer writes them (``0.000809``), or as a JSON number may read.
_SECONDS = re.compile(r"[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def parse_row(line: str, kind: str) -> SimRow:
    """One row of a CSV or JSON Lines file, read as strictly as :class:`RowWriter` writes it:
    the columns of :data:`COLUMNS`, texts as texts, whole numbers as digits (or JSON integers),
    and the line, once read, must be the very line :func:`row_line` writes for that row (no
    quotes patience would not write, no carriage return, seconds as ``0.000809`` in CSV, the
    spacing and key order of :func:`json.dumps` in JSON Lines...).

    :param line: one line of the file, with or without its final ``\\n``.
    :raises ValueError: with a short phrase saying why ``line`` is not such a row.
    """
    text = line[:-1] if line.endswith("\n") else line
    row = _read_row(text, kind)
    again = row_line(row, kind)
    if again != text + "\n":
        raise ValueError(_not_as_written(text, again, kind))
    return row


def _not_as_written(text: str, again: str, kind: str) -> str:
    """Why the line ``text``, read as a row, is not the line ``again`` patience writes for it."""
    if kind != "csv":
        return (
            "not written as patience writes a row (its spacing, key order, or the form of a "
            "number or a text)"
        )
    seconds, written = next(csv.reader([text]))[-1], again[:-1].rsplit(",", 1)[-1]
    if seconds != written:
        return f"seconds {shown(seconds)} is not written as patience writes them ({written!r})"
    if "\r" in text:
        return "a carriage return (\\r), which patience never writes"
    if '"' in text:
        return "a field in quotes where patience writes none"
    return "not written as patience writes a row"


def _read_row(line: str, kind: str) -> SimRow:
    """:func:`parse_row` but the last check (that ``line`` is what :func:`row_line` writes)."""
    if kind == "csv":
        try:
            cells = next(csv.reader([line]))
        except (csv.Error, StopIteration):
            raise ValueError("not a line of CSV") from None
        if len(cells) != len(COLUMNS):
            raise ValueError(f"{counted(len(cells), 'field')}, not {len(COLUMNS)}")
        data: dict[str, Any] = dict(zip(COLUMNS, cells, strict=True))
        for name in _WHOLE:
            if not _DIGITS.fullmatch(data[name]):
                raise ValueError(f"{name} {shown(data[name])} is not a whole number")
            data[name] = int(data[name])
        if not _SECONDS.fullmatch(data["seconds"]):
            raise ValueError(f"seconds {shown(data['seconds'])} is not a number of seconds")
        data["seconds"] = float(data["seconds"])
    else:
        try:
            data = json.loads(line)
        except ValueError:
            raise ValueError("not a line of JSON") from None
        if not isinstance(data, dict) or set(data) != set(COLUMNS):
            raise ValueError("not an object with the columns of a row")
        for name in COLUMNS:
            value = data[name]
            if name == "seconds":
                ok, kind_of = type(value) in (int, float), "number"
            elif name in _WHOLE:
                ok, kind_of = type(value) is int, "whole number"
            else:
                ok, kind_of = type(value) is str, "text"
            if not ok:
                text = shown(json.dumps(value), quote=False)
                raise ValueError(f"{name} {text} is not a {kind_of}")
    return SimRow(**{name: data[name] for name in COLUMNS})


def output_target(path: str) -> str:
    """The file a run with ``--output path`` writes: ``path``, or, when ``path`` is a symbolic
    link, the file it points to (written through, as saved games are: the link stays, its
    target gets the rows; the target may not exist yet). Its ``FILE.partial`` and its lock go
    with the target, so ``-O link.csv`` and ``-O target.csv`` resume the same rows.

    :raises PatienceError: when the link leads into a directory that does not exist, or round
        in a loop.
    """
    if not os.path.islink(path):
        return path
    real = os.path.realpath(path)
    if os.path.islink(real):
        raise PatienceError(f"cannot write {path!r}: its symbolic links go round in a loop")
    if not os.path.isdir(os.path.dirname(real)):
        raise PatienceError(
            f"cannot write {path!r}: it links to {shown_path(real, quote=True)}, in a directory "
            "that does not exist"
        )
    return real


#: What a path that is not a plain file is, by its :func:`stat.S_IFMT` type.
_NOT_FILES = {
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}


def check_output(path: str) -> str:
    """The file a run with ``--output path`` writes (:func:`output_target`), once it is sure
    that the run may replace it with its rows: refused when it is there but is not a plain file
    (a named pipe, a device such as ``/dev/null``, a socket: the rows would not go into it, a
    plain file would take its place), when it is :func:`patience_core.files.protected`
    (read-only for the user, or with no write bit at all, even for root), or when the user may
    not write in its directory (where the rows are written first).

    :raises PatienceError: one line, e.g. ``cannot write 'rows.csv': it is a named pipe, not a
        file``, or ``cannot write 'ln.csv': it links to '/data/rows.csv', which you have no
        permission to write``; and as :func:`output_target`.
    """
    target = output_target(path)
    linked = target != path
    try:
        mode: int | None = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise PatienceError(f"cannot write {path!r}: {exc.strerror or exc}") from None
    if mode is not None and not stat.S_ISREG(mode):
        what = _NOT_FILES.get(stat.S_IFMT(mode), "something other than a file")
        how = f"it links to {shown_path(target, quote=True)}, {what}" if linked else f"it is {what}"
        raise PatienceError(f"cannot write {path!r}: {how}, not a file")
    directory = os.path.dirname(target) or "."
    if _read_only_file_system(directory):
        where = f"it links to {shown_path(target, quote=True)}, which is" if linked else "it is"
        raise PatienceError(f"cannot write {path!r}: {where} on a read-only file system")
    if mode is not None and protected(target, mode):
        how = (
            f"it links to {shown_path(target, quote=True)}, which you have no permission to write"
            if linked
            else "you have no permission to write it"
        )
        raise PatienceError(f"cannot write {path!r}: {how}")
    if not os.access(directory, os.W_OK):
        raise PatienceError(
            f"cannot write {path!r}: you have no permission to write in its directory "
            f"{shown_path(directory, quote=True)}"
        )
    return target


def _read_only_file_system(directory: str) -> bool:
    """Whether ``directory`` is on a file system mounted read-only (``False`` where that cannot
    be told: no ``os.statvfs``, or the directory is not there)."""
    try:
        return bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except (AttributeError, OSError):
        return False


@contextlib.contextmanager
def atomic_output(path: str) -> Iterator[IO[str]]:
    """A text stream whose contents replace ``path`` only when the block ends normally: the one
    atomic writer, :func:`patience_core.files.atomic_writer` (a temporary file in the same
    folder, renamed over ``path``; an interrupted or failed run leaves ``path`` as it was and
    removes the temporary file; an existing file keeps its permissions, a symbolic link is
    written through), with the run's own check of ``path`` before and after.

    :raises PatienceError: when ``path`` may not be replaced (:func:`check_output`: a named
        pipe, a device, a socket, a read-only file), before anything is written, and again at
        the end (it may have become one meanwhile): ``path`` is then left as it is.
    :raises OSError: when the file cannot be written or renamed (a full disk, an append-only
        or immutable file).
    """
    with atomic_writer(check_output(path)) as stream:
        yield stream
        check_output(path)
