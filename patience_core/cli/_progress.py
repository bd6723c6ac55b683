"""A one-line progress bar on a terminal, for ``patience simulate``.

Layer 5 (command line). Unlike click's, it fits the terminal's width (parts dropped, the bar
shortened, so a redraw never wraps), sends no cursor codes (only a carriage return, which a
``TERM=dumb`` terminal has too), and leaves the line to the Ctrl-C message, which starts on a
line of its own with no empty line before it (docs/cli.md).
"""

from __future__ import annotations

import shutil
import time
from types import TracebackType
from typing import IO

from patience_core.cli._terminal import _echoes_control_characters

__all__ = ["ProgressLine"]

#: Seconds between redraws at most (the last one is always drawn).
_EVERY = 0.1
#: The bar's width at most and at least, in characters (less room: no bar).
_BAR_MOST, _BAR_LEAST = 36, 8


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600:02d}:{whole // 60 % 60:02d}:{whole % 60:02d}"


class ProgressLine:
    """``label [####----]  done/total  pct%  eta`` on ``file``, redrawn in place; use it in a
    ``with``.

    :param total: the steps of the whole, >= 1.
    :param label: the text before the bar.
    :param file: the terminal (standard error).
    :param show_eta: show the time left, estimated from the time per step so far.
    :param width: the terminal's columns (``None``: asked at every redraw, for a resize).
    """

    def __init__(
        self,
        total: int,
        label: str,
        file: IO[str],
        show_eta: bool = True,
        width: int | None = None,
    ) -> None:
        self.total, self.label, self.file = max(1, total), label, file
        self.show_eta, self.width = show_eta, width
        self.done = 0
        self._started = time.monotonic()
        self._drawn_at = -_EVERY
        self._shown = ""

    def line(self, columns: int) -> str:
        """The line as it fits in ``columns`` (one column is kept free: a terminal may wrap on
        writing its last one)."""
        room = max(0, columns - 1)
        count = f"{self.done}/{self.total}"
        pct = f"{100 * self.done // self.total}%"
        eta = ""
        if self.show_eta and 0 < self.done < self.total:
            left = (time.monotonic() - self._started) / self.done * (self.total - self.done)
            eta = _clock(left)
        # The parts, most wanted first; the bar takes what is left, within its limits.
        for parts in ([self.label, count, pct, eta], [count, pct, eta], [count, pct], [count],
                      [pct]):  # fmt: skip
            text = "  ".join(part for part in parts if part)
            spare = room - len(text) - 3  # "[" "]" and a space
            if spare >= _BAR_LEAST:
                bar_width = min(_BAR_MOST, spare)
                filled = bar_width * self.done // self.total
                bar = f"[{'#' * filled}{'-' * (bar_width - filled)}]"
                head, _, tail = text.partition(count)
                return f"{head}{bar} {count}{tail}"
            if len(text) <= room:
                return text
        return ""  # no room for a figure: an empty line, never one that wraps

    def _draw(self, final: bool = False) -> None:
        now = time.monotonic()
        if not final and now - self._drawn_at < _EVERY:
            return
        self._drawn_at = now
        columns = self.width or shutil.get_terminal_size().columns
        text = self.line(columns)
        # Spaces over what a longer line left; then back to the line's start.
        self.file.write("\r" + text + " " * max(0, len(self._shown) - len(text)))
        self.file.flush()
        self._shown = text

    def update(self, steps: int = 1) -> None:
        """``steps`` more done; the line is redrawn (at most every tenth of a second)."""
        self.done = min(self.total, self.done + steps)
        self._draw(self.done == self.total)

    def __enter__(self) -> ProgressLine:
        self._draw(final=True)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is None:
            self._draw(final=True)
        elif issubclass(kind, KeyboardInterrupt) and _echoes_control_characters(self.file):
            # The terminal showed ^C after the line: the interrupted command's message ends
            # that line itself, so a newline here would leave an empty one.
            return
        self.file.write("\n")
        self.file.flush()
