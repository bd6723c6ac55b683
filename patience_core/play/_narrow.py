"""Fitting the line player's output to the terminal's width (docs/play.md, "The line player").

A board wider than the terminal is cut at a column of blanks into blocks shown one under the
other (Diamond Mine's 13 columns at 60 columns: t1..t7, then t8..t13), never inside a card, each
block indented as the first; a board that cannot be cut narrow enough says the width it needs.
Every other line wraps between words, never inside one (a path or a command stays whole on its
own line when it is longer than the terminal); a table line (indented, its columns two spaces
apart or more) wraps its last column under itself. Colour codes take no width.
"""

from __future__ import annotations

import os
import re
import sys
import textwrap
from typing import IO

import click

__all__ = ["echo_fitted", "fit_board", "fit_text", "line_width"]

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: A table line: an indent, the first columns, two spaces or more, the last column.
_TABLE = re.compile(r"^( +\S.*?\S? {2,})(\S.*)$")


def line_width(stream: IO[str] | None = None) -> int | None:
    """The width in columns of the terminal ``stream`` (default: standard output) shows on
    (``COLUMNS`` when set, else asked of the terminal), or ``None`` (no limit) when it is not
    a terminal, so that piped transcripts are the same everywhere."""
    try:
        stream = sys.stdout if stream is None else stream
        if not stream.isatty():
            return None
        columns = os.environ.get("COLUMNS", "").strip()
        if columns.isdigit() and int(columns) > 0:
            return int(columns)
        return max(1, os.get_terminal_size(stream.fileno()).columns)
    except (AttributeError, ValueError, OSError):
        return None


def echo_fitted(text: str, err: bool = False) -> None:
    """Print ``text`` fitted to the width of the terminal it goes to (:func:`fit_text`);
    ``err``: on standard error (one line when that is not a terminal, for scripts)."""
    for line in fit_text(text, line_width(sys.stderr if err else sys.stdout)):
        click.echo(line, err=err)


def _cells(line: str) -> list[str]:
    """``line`` as its visible characters, each with the colour codes before it."""
    cells: list[str] = []
    pending = ""
    at = 0
    for match in _ANSI.finditer(line):
        for ch in line[at : match.start()]:
            cells.append(pending + ch)
            pending = ""
        pending += match.group()
        at = match.end()
    for ch in line[at:]:
        cells.append(pending + ch)
        pending = ""
    if pending and cells:
        cells[-1] += pending
    return cells


def _visible(line: str) -> int:
    return len(_ANSI.sub("", line))


def fit_board(lines: list[str], width: int | None) -> list[str]:
    """``lines`` (a board) fitted to ``width`` columns: unchanged when they fit; else each part
    of the board (the lines between empty lines) that is too wide is cut into blocks at
    columns blank on every one of its lines, shown one under the other; a part without such a
    column gives one line saying the width needed."""
    if width is None or all(_visible(line) <= width for line in lines):
        return lines
    out: list[str] = []
    part: list[str] = []
    for line in [*lines, ""]:
        if line.strip():
            part.append(line)
            continue
        if part:
            fitted = _fit_part(part, width)
            if fitted is None:
                needed = max(_least_width(p) for p in _parts(lines))
                return fit_text(
                    f"The board needs a terminal {needed} columns wide (this one has {width}).",
                    width,
                )
            out += fitted
            part = []
        out.append(line)
    return out[:-1]


def _parts(lines: list[str]) -> list[list[str]]:
    """The parts of a board: its lines between empty lines."""
    parts: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            parts[-1].append(line)
        elif parts[-1]:
            parts.append([])
    return [part for part in parts if part]


def _least_width(lines: list[str]) -> int:
    """The narrowest width ``lines`` can be cut to: its widest run of columns between blank
    columns, with the part's indent."""
    rows = [_ANSI.sub("", line) for line in lines]
    longest = max(len(row) for row in rows)
    blank = [all(k >= len(row) or row[k] == " " for row in rows) for k in range(longest)]
    lead = next((k for k, b in enumerate(blank) if not b), 0)
    widest = run = 0
    for is_blank in blank[lead:]:
        run = 0 if is_blank else run + 1
        widest = max(widest, run)
    return lead + widest


def _fit_part(lines: list[str], width: int) -> list[str] | None:
    """One part of a board cut into blocks of at most ``width`` columns, or ``None``."""
    if all(_visible(line) <= width for line in lines):
        return lines
    rows = [_cells(line) for line in lines]
    longest = max(len(row) for row in rows)

    def blank(k: int) -> bool:
        return all(k >= len(row) or _ANSI.sub("", row[k]) == " " for row in rows)

    # Blocks after the first keep its indent (" t8" under " t1", not "t8").
    wide = [row for row in rows if len(row) > width]
    lead = min(next((k for k, c in enumerate(row) if _ANSI.sub("", c) != " "), 0) for row in wide)
    out: list[str] = []
    start = 0
    while start < longest:
        cut = longest
        if longest - start > width:
            blanks = [k for k in range(start + 1, start + width + 1) if blank(k)]
            if not blanks:
                return None
            # Blocks of about the same width: 13 columns at 60 become 7 and 6, not 12 and 1.
            left = -(-(longest - start) // width)
            even = start + -(-(longest - start) // left)
            cut = next((k for k in blanks if k >= even), blanks[-1])
        if out:
            out.append("")
        block = ["".join(row[start:cut]).rstrip() for row in rows]
        while block and not block[-1]:
            block.pop()  # rows the block's columns do not reach
        out += block
        start = cut
        while start < longest and blank(start):
            start += 1
        start = max(cut, start - lead)
    return out


def fit_text(text: str, width: int | None) -> list[str]:
    """``text`` fitted to ``width`` columns: cut between its parts (separated by two spaces or
    more, as on the status line), else between words; a word longer than the line is kept
    whole. One line when it fits or there is no width."""
    if width is None or _visible(text) <= width:
        return [text]
    table = _TABLE.match(text)
    if table is not None and len(table.group(1)) < width // 2:
        # A row of a table (help, moves): its last column wraps under itself.
        head = table.group(1)
        body = textwrap.wrap(
            table.group(2),
            width - len(head),
            break_long_words=False,
            break_on_hyphens=False,
        )
        return [head + body[0], *(" " * len(head) + line for line in body[1:])]
    parts = re.split(r"(?<=\S) {2,}(?=\S)", text.strip())
    separator = "   "
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(separator) + len(part) <= width:
            lines[-1] += separator + part
        elif len(part) <= width:
            lines.append(part)
        else:
            lines += textwrap.wrap(part, width, break_long_words=False, break_on_hyphens=False) or [
                part
            ]
    return lines
