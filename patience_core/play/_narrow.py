"""Fitting the line player's output to the terminal's width (docs/play.md, "The line player").

A board wider than the terminal is cut at a column of blanks into blocks shown one under the
other (Diamond Mine's 13 columns at 60 columns: t1..t7, then t8..t13), never inside a card; a
board that has no such column says the width it needs. Status, help and hint lines wrap
between words, never inside one. Colour codes take no width.
"""

from __future__ import annotations

import os
import re
import sys
import textwrap

__all__ = ["fit_board", "fit_text", "line_width"]

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: The narrowest width the line player fits its output to (columns).
MIN_WIDTH = 20


def line_width() -> int | None:
    """The terminal's width in columns (``COLUMNS`` when set, else asked of the terminal), or
    ``None`` (no limit) when the output is not a terminal, so that piped transcripts are the
    same everywhere."""
    try:
        if not sys.stdout.isatty():
            return None
        columns = os.environ.get("COLUMNS", "").strip()
        if columns.isdigit() and int(columns) > 0:
            return max(MIN_WIDTH, int(columns))
        return max(MIN_WIDTH, os.get_terminal_size(sys.stdout.fileno()).columns)
    except (AttributeError, ValueError, OSError):
        return None


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
                longest = max(_visible(line) for line in lines)
                return [
                    f"The board needs a terminal {longest} columns wide (this one has {width})."
                ]
            out += fitted
            part = []
        out.append(line)
    return out[:-1]


def _fit_part(lines: list[str], width: int) -> list[str] | None:
    """One part of a board cut into blocks of at most ``width`` columns, or ``None``."""
    if all(_visible(line) <= width for line in lines):
        return lines
    rows = [_cells(line) for line in lines]
    longest = max(len(row) for row in rows)

    def blank(k: int) -> bool:
        return all(k >= len(row) or _ANSI.sub("", row[k]) == " " for row in rows)

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
    return out


def fit_text(text: str, width: int | None) -> list[str]:
    """``text`` fitted to ``width`` columns: cut between its parts (separated by two spaces or
    more, as on the status line), else between words; a word longer than the line is kept
    whole. One line when it fits or there is no width."""
    if width is None or _visible(text) <= width:
        return [text]
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
