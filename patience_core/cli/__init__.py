"""The ``patience`` command line: a thin click group over the layers below.

Layer 5. Each command lives in its own module and is imported only when it runs (click's "lazily
loading subcommands" pattern), so ``patience --help`` stays fast. Plugins add commands through the
``patience_register_commands`` hook.

Every :class:`~patience_core.errors.PatienceError` becomes one line on stderr and exit code 1,
as does an error raised in a plugin's code (``SystemExit`` too: :func:`plugin_exit`);
click's usage errors exit 2; an interrupted command exits 130 with the one line
``patience: interrupted``; output cut short by its reader (``patience list | head -1``) ends the
command quietly with exit code 141, as a process killed by ``SIGPIPE``. Unexpected errors print one
line too (set ``PATIENCE_DEBUG=1`` for the traceback, and exit code 1, a plugin's ``SystemExit``
included).
"""

from __future__ import annotations

from patience_core.cli._group import COMMANDS, STARTED, LazyGroup, cli, get_host
from patience_core.cli._main import main, own_exit, plugin_exit, shortened, show_traceback
from patience_core.cli._terminal import EXIT_BROKEN_PIPE, end_interrupted_line, is_terminal

__all__ = [
    "COMMANDS",
    "EXIT_BROKEN_PIPE",
    "STARTED",
    "LazyGroup",
    "cli",
    "end_interrupted_line",
    "get_host",
    "is_terminal",
    "main",
    "own_exit",
    "plugin_exit",
    "shortened",
    "show_traceback",
]
