"""The rows file of a ``patience simulate`` run: rows written as CSV or JSON Lines, the
``FILE.partial`` that holds them while the run goes on (its first line, the run header, records
the run's parameters and the versions of the code), resuming a killed run from it, and the
final file written atomically.

Layer 4, below the command line (:mod:`patience_core.cli.simulate_cmd`), over
:mod:`patience_core.simulate`. See ``docs/simulate.md``, "Output" and "Resuming".
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import attrs

from patience_core import __version__
from patience_core.engine import counted, shown
from patience_core.errors import PatienceError
from patience_core.files import move_aside
from patience_core.simulate._batch import COLUMNS, SimRow

#: Output formats by file extension.
FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def set_aside(partial: Path) -> Path:
    """Rename ``partial`` to ``NAME.<date>-<time>.old`` in its folder (``-2``, ``-3``... added
    when that name is taken, so rows set aside in the same second are never overwritten).

    :returns: the new path.
    :raises PatienceError: when the file cannot be renamed.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return move_aside(partial, lambda serial: f"{partial.name}.{stamp}{serial}.old")


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
                text = json.dumps(value)
                text = text if len(text) <= 40 else text[:37] + "..."
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
            f"cannot write {path!r}: it links to {real!r}, in a directory that does not exist"
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
    plain file would take its place), when the user may not write it (it is read-only for
    them), or may not write in its directory (where the rows are written first).

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
        how = f"it links to {target!r}, {what}" if linked else f"it is {what}"
        raise PatienceError(f"cannot write {path!r}: {how}, not a file")
    directory = os.path.dirname(target) or "."
    if _read_only_file_system(directory):
        where = f"it links to {target!r}, which is" if linked else "it is"
        raise PatienceError(f"cannot write {path!r}: {where} on a read-only file system")
    if mode is not None and not os.access(target, os.W_OK):
        how = (
            f"it links to {target!r}, which you have no permission to write"
            if linked
            else "you have no permission to write it"
        )
        raise PatienceError(f"cannot write {path!r}: {how}")
    if not os.access(directory, os.W_OK):
        raise PatienceError(
            f"cannot write {path!r}: you have no permission to write in its directory {directory!r}"
        )
    return target


def _read_only_file_system(directory: str) -> bool:
    """Whether ``directory`` is on a file system mounted read-only (``False`` where that cannot
    be told: no ``os.statvfs``, or the directory is not there)."""
    try:
        return bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except (AttributeError, OSError):
        return False


def partial_path(path: str) -> Path:
    """Where a run writing ``path`` keeps its rows until it ends: ``path + ".partial"``."""
    return Path(path + ".partial")


def check_partial(partial: Path) -> None:
    """Refuse a ``FILE.partial`` that is there but is not a plain file (a folder, a symbolic
    link, a device...): it holds no rows of a run, and is not this run's to rename or write.

    :raises PatienceError: one line naming it and what it is.
    """
    if not os.path.lexists(partial):
        return
    if partial.is_symlink():
        what = "a symbolic link"
    elif partial.is_dir():
        what = "a folder"
    elif not partial.is_file():
        what = "not a plain file"
    else:
        return
    raise PatienceError(
        f"{partial} is {what}, not the rows of a simulate run: move it away, or choose "
        "another --output"
    )


def run_versions(host: Any, game: str, strategy: str) -> dict[str, str]:
    """The versions of the code that makes a run's rows, by distribution name: patience-core,
    the plugin of ``game`` and the plugin of ``strategy`` (``"?"`` for one the host does not
    know). A partial file made under other versions is not resumed.

    :param host: the loaded :class:`~patience_core.plugins.PluginHost`.
    :raises PatienceError: for an unknown game or strategy.
    """
    wanted = {"patience-core", host.games.provider(game), host.strategies.provider(strategy)}
    versions = {"patience-core": __version__}
    for record in host.records:
        if record.distribution in wanted:
            versions.setdefault(record.distribution, record.version)
    return {name: versions.get(name, "?") for name in sorted(wanted)}


def run_header(params: dict[str, Any], kind: str) -> str:
    """The first line of a partial file: the run's parameters, as one JSON object (after ``# ``
    in CSV files, under ``"patience_simulate"`` in JSON Lines files)."""
    text = json.dumps(params, sort_keys=True)
    if kind == "csv":
        return f"# patience simulate {text}\n"
    return json.dumps({"patience_simulate": params}, sort_keys=True) + "\n"


def header_params(partial: Path, kind: str) -> dict[str, Any] | None:
    """The run parameters recorded on the first line of ``partial`` (see :func:`run_header`),
    or ``None`` when it holds none that can be read."""
    try:
        with partial.open("rb") as stream:
            first = stream.readline(1 << 20).decode("utf-8")
        if kind == "csv":
            prefix = "# patience simulate "
            data = json.loads(first[len(prefix) :]) if first.startswith(prefix) else None
        else:
            data = json.loads(first).get("patience_simulate")
    except (OSError, ValueError, AttributeError):
        return None
    return data if isinstance(data, dict) else None


#: Bytes of a partial file read at most to tell whether it holds rows (a run header is short).
_HEADER_ONLY_LIMIT = 1 << 20


def holds_no_rows(partial: Path, kind: str) -> bool:
    """Whether ``partial`` holds nothing but a run header (:func:`run_header`, of any run) and,
    in a CSV file, the column names that follow it: what a run that ended before its first row
    leaves. Removing such a file loses nothing. ``False`` for anything more (a row, half a row,
    other lines), and for a file that cannot be read.
    """
    try:
        with partial.open("rb") as stream:
            data = stream.read(_HEADER_ONLY_LIMIT + 1)
    except OSError:
        return False
    if len(data) > _HEADER_ONLY_LIMIT or header_params(partial, kind) is None:
        return False
    rest = data.partition(b"\n")[2]
    if kind != "csv" or not rest:
        return rest == b""
    return rest == _csv_line(COLUMNS).encode()


def why_not_resumed(partial: Path, params: dict[str, Any], kind: str) -> str:
    """What ``partial``, whose run header is not this run's, holds, for the line saying it is
    set aside: ``rows made with other versions (patience-golf 0.1.0, now 0.2.0)`` when only the
    versions of the code differ (see :func:`run_versions`), otherwise ``rows of a run with
    other parameters or an older format``."""
    old = header_params(partial, kind)
    new = json.loads(json.dumps(params))
    if old is not None and isinstance(old.get("versions"), dict):
        was, now = old.pop("versions"), new.pop("versions", {})
        if old == new and was != now:
            changes = [
                f"{_plain(name)} {_version_text(was, name)}, now {_version_text(now, name)}"
                for name in sorted(set(was) | set(now))
                if was.get(name) != now.get(name)
            ]
            return f"rows made with other versions ({'; '.join(changes)})"
    return "rows of a run with other parameters or an older format"


#: A version or distribution name shown as it is (anything else is quoted, see :func:`_plain`).
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+!-]{0,59}")


def _plain(text: str) -> str:
    """``text`` (a name or version from a run header) as it may appear in a one-line message:
    as it is when it looks like one, otherwise quoted and cut (:func:`shown`)."""
    return text if _PLAIN.fullmatch(text) else shown(text)


def _version_text(versions: dict[str, Any], name: str) -> str:
    """The version of ``name`` in ``versions`` (from a run header) for a one-line message:
    ``not used`` when it has none, ``(no version recorded)`` for ``null``, a text as
    :func:`_plain` shows it, anything else as short JSON."""
    if name not in versions:
        return "not used"
    value = versions[name]
    if value is None:
        return "(no version recorded)"
    if isinstance(value, str):
        return _plain(value)
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


@attrs.frozen
class Resumed:
    """What a killed run left in ``FILE.partial`` for this run (:func:`resume_rows`).

    :param rows: the rows kept, in the file's order: whole lines, each a row this run could
        have written, one per deal at most.
    :param kept: the bytes of the file to keep: its run header (and CSV column names) and the
        lines of the rows kept.
    :param ours: the file's run header (and CSV column names) are this run's; when not, no row
        is kept.
    :param dropped: whole lines dropped because they could not be right (a half-written last
        line is not counted: it is expected after a kill).
    :param problem: why the first of them could not be right, e.g. ``the row of deal 3: score
        999 is outside 0..35``.
    """

    rows: list[SimRow]
    kept: bytes
    ours: bool
    dropped: int = 0
    problem: str = ""


def resume_rows(
    partial: Path,
    header: str,
    kind: str,
    deals: Collection[str],
    problem: Callable[[SimRow], str | None],
) -> Resumed:
    """The rows a killed run left in ``partial``, when its run header is ``header``.

    A row is kept when it is a whole line that reads back as :class:`RowWriter` writes it
    (:func:`parse_row`), ``problem(row)`` finds nothing wrong with it (e.g.
    :func:`~patience_core.simulate.row_problem`), and no row of its deal came before; any other
    whole line is dropped. A file of an older format (other columns) is not this run's: its
    header (which records the columns) or its rows do not match.

    :param deals: the run's deals as text, to name a dropped row by its deal.
    """
    try:
        data = partial.read_bytes()
    except OSError:
        return Resumed([], b"", False)
    lines = data.split(b"\n")
    if (lines[0] + b"\n").decode("utf-8", "replace") != header:
        return Resumed([], b"", False)
    kept = [lines[0]]
    complete = lines[1:-1]  # the piece after the last newline is not a whole line
    first_row = 1
    if kind == "csv" and complete:
        if complete[0].decode("utf-8", "replace") != ",".join(COLUMNS):
            return Resumed([], b"", False)
        kept.append(complete[0])
        complete = complete[1:]
        first_row = 2
    rows: list[SimRow] = []
    seen: set[str] = set()
    dropped = 0
    first_problem = ""
    for number, raw in enumerate(complete, start=first_row + 1):
        where = f"line {number}"
        try:
            row = parse_row(raw.decode("utf-8"), kind)
        except UnicodeDecodeError:
            why: str | None = "not UTF-8 text"
        except ValueError as exc:
            why = str(exc)
        else:
            why = problem(row)
            if why is None and row.deal in seen:
                why = "a second row of that deal"
            if row.deal in deals:
                where = f"the row of deal {row.deal}"
        if why is None:
            rows.append(row)
            seen.add(row.deal)
            kept.append(raw)
        else:
            dropped += 1
            first_problem = first_problem or f"{where}: {why}"
    return Resumed(rows, b"".join(line + b"\n" for line in kept), True, dropped, first_problem)


@contextlib.contextmanager
def atomic_output(path: str) -> Iterator[IO[str]]:
    """A text stream whose contents replace ``path`` only when the block ends normally.

    Rows go to a hidden temporary file in the same directory, renamed over ``path`` at the end,
    so an interrupted or failed run never leaves a partial file in place of a good one (the
    temporary file is removed). A file that already exists at ``path`` is replaced and keeps its
    permissions; a new one gets the usual permissions (0666 less the umask). A symbolic link is
    written through (:func:`output_target`): its target is replaced, the link stays.

    :raises PatienceError: when ``path`` may not be replaced (:func:`check_output`: a named
        pipe, a device, a socket, a read-only file), before anything is written, and again at
        the end (it may have become one meanwhile): ``path`` is then left as it is.
    """
    target = Path(check_output(path))
    directory = target.parent if str(target.parent) else Path(".")
    fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as stream:
            yield stream
        target = Path(check_output(path))
        if target.exists():
            mode = target.stat().st_mode & 0o7777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def finish(partial: Path, output: str, kind: str, order: list[str] | None = None) -> None:
    """Write the finished rows to ``output`` (the partial file without its run header line,
    atomically) and remove the partial file.

    :param order: the run's deals as text, when the rows of the partial file are not all in
        that order (a resumed run played deals missing between rows it kept): they are written
        in that order. ``None``: as they are.
    :raises PatienceError: when ``output`` cannot be written or replaced (e.g. an append-only
        or immutable file, which no permission bit shows beforehand): one line naming it, the
        rows kept in ``partial`` for a run to resume.
    """
    with partial.open("r", encoding="utf-8", newline="\n") as source:
        source.readline()
        try:
            with atomic_output(output) as target:
                if kind == "csv":
                    target.write(source.readline())  # the column names
                if order is None:
                    for line in source:
                        target.write(line)
                else:
                    by_deal = {parse_row(line, kind).deal: line for line in source}
                    for deal in order:
                        target.write(by_deal[deal])
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise PatienceError(
                f"cannot write {output!r}: {reason}; the rows are kept in {partial}, and a "
                "run with the same options resumes from it"
            ) from None
    partial.unlink()
