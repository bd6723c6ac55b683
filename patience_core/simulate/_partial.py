"""The ``FILE.partial`` protocol of a run writing a rows file: rows go to ``FILE.partial`` as
they come; its first line, the run header, records the run's parameters and the versions of the
code; a run started again with the same parameters resumes from it; the finished rows replace
``FILE`` atomically.

Layer 4, under the run service (:mod:`patience_core.simulate._run`). See ``docs/simulate.md``,
"Output files are written whole, and long runs resume".
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import attrs

from patience_core import __version__
from patience_core.engine import shown
from patience_core.errors import PatienceError
from patience_core.files import move_aside
from patience_core.simulate._rowfiles import atomic_output, parse_row
from patience_core.simulate._rows import COLUMNS, SimRow

__all__ = [
    "Resumed",
    "check_partial",
    "finish",
    "header_params",
    "holds_no_rows",
    "partial_path",
    "resume_rows",
    "run_header",
    "run_versions",
    "set_aside",
    "why_not_resumed",
]

#: The column names, the second line of a CSV partial file (no name needs quotes).
_CSV_NAMES = ",".join(COLUMNS)


def set_aside(partial: Path) -> Path:
    """Rename ``partial`` to ``NAME.<date>-<time>.old`` in its folder (``-2``, ``-3``... added
    when that name is taken, so rows set aside in the same second are never overwritten).

    :returns: the new path.
    :raises PatienceError: when the file cannot be renamed.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return move_aside(partial, lambda serial: f"{partial.name}.{stamp}{serial}.old")


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
    return rest == (_CSV_NAMES + "\n").encode()


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
    return shown(json.dumps(value), quote=False)


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
        if complete[0].decode("utf-8", "replace") != _CSV_NAMES:
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
