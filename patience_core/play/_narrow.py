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
    """``lines`` (a board) fitted to ``width`` columns: unchanged when they fit, else cut into
    blocks at columns blank on every line, else one line saying the width needed."""
    if width is None or all(_visible(line) <= width for line in lines):
        return lines
    rows = [_cells(line) for line in lines]
    out: list[str] = []
    start = 0
    longest = max(len(row) for row in rows)
    while start < longest:
        if longest - start <= width:
            cut = longest
        else:
            blanks = [
                k
                for k in range(start + 1, start + width + 1)
                if all(k >= len(row) or _ANSI.sub("", row[k]) == " " for row in rows)
            ]
            if not blanks:
                return [
                    f"The board needs a terminal {longest} columns wide (this one has {width})."
                ]
            cut = blanks[-1]
        if out:
            out.append("")
        for row in rows:
            out.append("".join(row[start:cut]).rstrip())
        start = cut
        while start < longest and all(
            start >= len(row) or _ANSI.sub("", row[start]) == " " for row in rows
        ):
            start += 1
    return out


def fit_text(text: str, width: int | None) -> list[str]:
    """``text`` wrapped to ``width`` columns between words (a word longer than the line is
    kept whole); a line of its own when it fits or there is no width."""
    if width is None or _visible(text) <= width:
        return [text]
    wrapped = textwrap.wrap(
        text,
        width,
        break_long_words=False,
        break_on_hyphens=False,
        subsequent_indent="  ",
    )
    return wrapped or [text]
