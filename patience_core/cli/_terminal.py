"""The terminal around a command: ending the line a Ctrl-C left, a reader that went away.

Layer 5 (command line).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

__all__ = ["EXIT_BROKEN_PIPE", "end_interrupted_line", "is_terminal", "quit_quietly"]

#: The exit code when the reader of the output went away (a broken pipe): 128 + SIGPIPE (13),
#: what a shell reports for a program the signal ends, as 130 is 128 + SIGINT.
EXIT_BROKEN_PIPE = 141


def _echoes_control_characters(stream: Any) -> bool:
    """Whether ``stream`` is a terminal that shows a typed Ctrl-C as ``^C`` (``ECHOCTL``), which
    leaves the cursor after it, in the middle of a line."""
    try:
        import termios

        fd = stream.fileno()
        return os.isatty(fd) and bool(termios.tcgetattr(fd)[3] & termios.ECHOCTL)
    except Exception:  # no termios (Windows), no file descriptor, not a terminal
        return False


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is an open terminal (``False`` for ``None``: a closed standard stream)."""
    try:
        return stream is not None and bool(stream.isatty())
    except (ValueError, OSError):
        return False


def end_interrupted_line(mid_line: bool = False) -> None:
    """Before the one-line message of an interrupted command on stderr: end the line the cursor
    was left in, so the message starts on a line of its own, and print no empty line.

    :param mid_line: the command left standard output in the middle of a line (``play`` at its
        ``> `` prompt): that line is ended. Otherwise a line is ended on stderr only when it is a
        terminal that echoed the ``^C`` where the cursor was.
    """
    if mid_line:
        click.echo()
        if is_terminal(sys.stdout):
            return  # the terminal's line is ended too
    if _echoes_control_characters(sys.stderr):
        click.echo(err=True)


def quit_quietly() -> None:
    """The reader of our output went away (``| head``): stop at once, print nothing, and exit
    with :data:`EXIT_BROKEN_PIPE` (the Python documentation's "Note on SIGPIPE": standard output
    goes to ``os.devnull``, so that Python's flush at exit does not fail again)."""
    from patience_core.files import silence_output  # only on this way out: not at start-up

    silence_output(sys.stdout)
    sys.exit(EXIT_BROKEN_PIPE)
