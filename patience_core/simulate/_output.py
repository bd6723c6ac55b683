"""Rows files: simulation rows written as CSV, JSON Lines or Parquet to the output file a run
may replace, atomically (:func:`patience_core.files.atomic_writer`).

Layer 4. :class:`RowWriter` writes rows as :func:`row_line` gives them; :func:`check_output` says
whether a run may replace a file; :func:`write_rows` replaces it with every row of a run, taken
from the run store when the run ends. See ``docs/simulate.md``, "Output files".
"""

from __future__ import annotations

import contextlib
import csv
import importlib
import io
import json
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from patience_core.errors import PatienceError
from patience_core.files import atomic_writer, protected
from patience_core.games import shown_path
from patience_core.simulate._rows import COLUMNS, SimRow

__all__ = [
    "FORMATS",
    "PARQUET_NEEDS",
    "RowWriter",
    "atomic_output",
    "check_output",
    "not_empty",
    "output_target",
    "parquet_available",
    "row_line",
    "rows_format",
    "write_rows",
]

#: Output formats by file extension.
FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}


def not_empty(path: str, option: str) -> str:
    """``path`` as given for ``option`` (``--output``, ``--store``), refused when it is an empty
    name.

    :raises PatienceError: one line.
    """
    if not path:
        raise PatienceError(f"{option} is an empty name: give a file's name")
    return path


def _csv_line(fields: Iterable[object]) -> str:
    """``fields`` as one line of CSV, quoted where needed, ended by ``\\n``."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerow(fields)
    return text.getvalue()


def row_line(row: SimRow, kind: str) -> str:
    """The line, ``\\n`` included, that :class:`RowWriter` writes for ``row`` in a ``"csv"`` or
    ``"jsonl"`` file: CSV fields in the order of :data:`COLUMNS`, quoted only where CSV needs
    it, seconds with six decimals (``0.000809``); or one JSON object with the keys of
    :data:`COLUMNS` in that order, as :func:`json.dumps` writes it, seconds as a float.
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

    def __init__(self, stream: IO[str], kind: str, header: bool = True, flush: bool = True) -> None:
        self._stream = stream
        self._kind = kind
        self._flush = flush
        if kind == "csv" and header:
            stream.write(_csv_line(COLUMNS))

    def write(self, row: SimRow) -> None:
        """Write one row (and flush it, unless made with ``flush=False``: rows to stdout go out
        as they come)."""
        self._stream.write(row_line(row, self._kind))
        if self._flush:
            self._stream.flush()


def output_target(path: str) -> str:
    """The file a run with ``--output path`` writes: ``path``, or, when ``path`` is a symbolic
    link, the file it points to (written through, as saved games are: the link stays, its
    target gets the rows; the target may not exist yet).

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
def atomic_output(path: str, binary: bool = False) -> Iterator[IO[Any]]:
    """A stream whose contents replace ``path`` only when the block ends normally: the one
    atomic writer, :func:`patience_core.files.atomic_writer` (a temporary file in the same
    folder, renamed over ``path``; an interrupted or failed write leaves ``path`` as it was and
    removes the temporary file; an existing file keeps its permissions, a symbolic link is
    written through), with the run's own check of ``path`` before and after.

    :param binary: a bytes stream (Parquet) instead of a text one.
    :raises PatienceError: when ``path`` may not be replaced (:func:`check_output`: a named
        pipe, a device, a socket, a read-only file), before anything is written, and again at
        the end (it may have become one meanwhile): ``path`` is then left as it is.
    :raises OSError: when the file cannot be written or renamed (a full disk, an append-only
        or immutable file).
    """
    with atomic_writer(check_output(path), binary=binary) as stream:  # type: ignore[call-overload]
        yield stream
        check_output(path)


#: What to say when Parquet is asked for without pyarrow.
PARQUET_NEEDS = "Parquet output needs pyarrow: pip install 'patience-core[parquet]'"


def parquet_available() -> bool:
    """Whether pyarrow can be imported (``FILE.parquet`` outputs need it)."""
    try:
        importlib.import_module("pyarrow")
    except ImportError:
        return False
    return True


def write_rows(path: str, rows: Iterable[SimRow], kind: str) -> None:
    """Replace ``path`` with ``rows`` in the format ``kind`` (``"csv"``, ``"jsonl"`` or
    ``"parquet"``: one column per name of :data:`COLUMNS`, in that order), atomically
    (:func:`atomic_output`).

    :raises PatienceError: as :func:`atomic_output`; for Parquet without pyarrow.
    :raises OSError: as :func:`atomic_output`.
    """
    if kind != "parquet":
        with atomic_output(path) as stream:
            writer = RowWriter(stream, kind, flush=False)
            for row in rows:
                writer.write(row)
        return
    try:
        pa: Any = importlib.import_module("pyarrow")
        pq: Any = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise PatienceError(PARQUET_NEEDS) from None
    kinds = {"score": pa.int64(), "max_score": pa.int64(), "moves": pa.int64(),
             "seconds": pa.float64()}  # fmt: skip
    schema = pa.schema([(name, kinds.get(name, pa.string())) for name in COLUMNS])
    listed = list(rows)
    table = pa.table({name: [getattr(row, name) for row in listed] for name in COLUMNS}, schema)
    with atomic_output(path, binary=True) as stream:
        pq.write_table(table, stream)


def rows_format(path: str) -> str:
    """``"csv"``, ``"jsonl"`` or ``"parquet"`` for a rows file named ``path`` (by its extension,
    see :data:`~patience_core.simulate.FORMATS`), once it is sure that a run may write it.

    :raises PatienceError: one line, for another extension, Parquet without pyarrow, a
        directory that does not exist, or a file the run may not replace
        (:func:`~patience_core.simulate.check_output`).
    :raises FileNotFoundError: when ``path`` is relative and the current folder was removed.
    """
    target = Path(path)
    kind = FORMATS.get(target.suffix.lower())
    if kind is None:
        raise PatienceError(
            f"cannot tell the format of {path!r}: use a .csv, .jsonl or .parquet file name, "
            "or - for stdout"
        )
    if kind == "parquet" and not parquet_available():
        raise PatienceError(PARQUET_NEEDS)
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise PatienceError(
            f"cannot write {path!r}: directory {shown_path(parent, quote=True)} does not exist"
        )
    # A relative name is made whole now: a current folder that was removed (FileNotFoundError)
    # is told before any deal is played, not when the rows are written.
    os.path.abspath(path)
    check_output(path)
    return kind
