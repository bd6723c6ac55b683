"""``main``, the console script: runs the click group and turns every error into one line.

Layer 5 (command line). See :mod:`patience_core.cli` for the exit codes.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from typing import Any

import click

from patience_core.cli._group import COMMANDS, cli
from patience_core.cli._terminal import end_interrupted_line, quit_quietly

__all__ = ["main", "own_exit", "plugin_exit", "shortened", "show_traceback"]


def main(argv: list[str] | None = None, obj: Any = None) -> None:
    """Console-script entry point: run :data:`cli`, turning errors into one-line messages.

    :param obj: the :class:`~patience_core.plugins.PluginHost` to run with (:func:`get_host`),
        e.g. a test's host holding the test kit's fake game; by default one of the installed
        plugins.
    """
    from patience_core.errors import PatienceError, one_line, plugin_behind

    if sys.stdout is None:
        # Standard output closed (`patience list >&-`): whatever we printed would be lost.
        if sys.stderr is not None:
            click.echo("patience: error: standard output is closed", err=True)
        sys.exit(1)
    args = sys.argv[1:] if argv is None else argv
    try:
        cli.main(args=argv, prog_name="patience", standalone_mode=False, obj=obj)
    except (click.exceptions.Abort, KeyboardInterrupt):
        from patience_core.errors import ctrl_c_ignored  # loaded already: no time lost here

        with ctrl_c_ignored():  # a second Ctrl-C here would print a traceback
            end_interrupted_line()
            click.echo("patience: interrupted", err=True)
        sys.exit(130)
    except click.UsageError as exc:
        # One line, not click's three: the command, the problem, where to look.
        where = exc.ctx.command_path if exc.ctx is not None else _command_named(args)
        message = shortened(exc.format_message(), args)
        click.echo(f"{where}: error: {message} (see --help)", err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        click.echo(
            f"patience: error: {shortened(exc.format_message(), args, LONGEST_ECHO)}", err=True
        )
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except PatienceError as exc:
        message = shortened(str(exc), args, LONGEST_ECHO)
        if _current_folder_gone():
            # Relative paths are then read from nowhere: say why they are not found.
            message += " (the current folder no longer exists: cd to another one)"
        click.echo(f"patience: error: {message}", err=True)
        sys.exit(1)
    except BrokenPipeError:
        quit_quietly()
    except OSError as exc:
        # A file we were asked to read or write: a read-only folder, a full disk, ...
        where = f" {shortened(str(exc.filename), args, LONGEST_ECHO)}:" if exc.filename else ""
        reason = shortened(exc.strerror or str(exc), args, LONGEST_ECHO)
        if not exc.filename and _current_folder_gone():
            # A relative path was to be made whole (`-O rows.csv`, `--file x.json`).
            reason = "the current folder no longer exists (it was removed): cd to another one"
        with contextlib.suppress(OSError):
            click.echo(f"patience: error:{where} {reason}", err=True)
        # Output that could not be written must not fail again when Python flushes it at exit.
        from patience_core.files import silence_output  # only on this way out

        silence_output(sys.stdout)
        sys.exit(1)
    except BaseException as exc:  # Ctrl-C is handled above
        if own_exit(exc):
            raise  # patience's own exit status (or a plugin command's)
        if os.environ.get("PATIENCE_DEBUG"):
            # The traceback, and exit 1 as Python's own report of an uncaught error does; not
            # `raise`, which would end silently with a plugin's SystemExit status (even 0).
            show_traceback(exc)
            sys.exit(1)
        culprit = plugin_behind(exc)
        if culprit is not None:
            # A plugin's own code raised: a broken plugin, like one that fails to load.
            what, code = f"error: the plugin {culprit} failed", 1
        else:
            game = _game_behind(exc)
            what, code = f"internal error{f' (with {game})' if game else ''}", 70
            if game and isinstance(exc, TypeError) and str(exc).startswith("unhashable type"):
                # patience hashes only what games give it: positions and solver keys.
                what, code = (
                    f"error: {game} is broken: it gave a position or a solver_key that "
                    "cannot be hashed (piles must be tuples of cards, keys tuples, text or "
                    "numbers)",
                    1,
                )
        click.echo(
            f"patience: {what}: {shortened(one_line(exc), args, LONGEST_ECHO)} "
            "(set PATIENCE_DEBUG=1 for details)",
            err=True,
        )
        sys.exit(code)


def _current_folder_gone() -> bool:
    """Whether the folder this process runs in has been removed since it started."""
    try:
        os.getcwd()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def _command_named(args: list[str]) -> str:
    """``patience CMD`` for the command the arguments name first, else ``patience``: what a
    usage error says where click gives no context (an option's value missing at the end)."""
    for arg in args:
        if not arg.startswith("-"):
            known = arg in COMMANDS or arg in cli.commands  # plugin commands, once added
            return f"patience {arg}" if known else "patience"
    return "patience"


#: A number of more digits, or an argument of more characters, is cut short in a usage error.
_LONGEST = 40
#: An argument of more characters (a value, a path) is cut short in any other message: paths
#: of a usual length stay whole.
LONGEST_ECHO = 160
_LONG_NUMBER = re.compile(r"[0-9]{41,}")


def shortened(message: str, args: list[str] | tuple[str, ...] = (), longest: int = _LONGEST) -> str:
    """``message`` with the user's long text cut by :func:`~patience_core.errors.shown` to half
    of ``longest`` characters and ``...``: each of ``args`` (the command line's arguments: a
    value, a path, or the part of a path echoed) of more than ``longest`` characters, and
    every number of more than 40 digits, so that any command refuses a 5,000-character value in
    one short line. Parameter types that know better say more
    (:func:`~patience_core.cli.options.number_problem`).

    :param longest: 40 for click's usage errors (a value is quoted in them); the other messages
        pass :data:`LONGEST_ECHO`, since they echo paths.
    """
    from patience_core.errors import shown

    def cut(text: str, keep: int = 20) -> str:
        return shown(text, keep + 3, quote=False)

    texts = {t for a in args for t in (a, a.partition("=")[2]) if len(t) > longest}
    for text in sorted(texts, key=len, reverse=True):
        message = message.replace(text, cut(text, longest // 2))
    return _LONG_NUMBER.sub(lambda match: cut(match.group()), message)


def show_traceback(exc: BaseException) -> None:
    """Print the traceback of ``exc`` on stderr, as Python prints an uncaught error's (for
    ``PATIENCE_DEBUG=1``); a ``SystemExit`` too, which Python ends with in silence."""
    import traceback

    with contextlib.suppress(OSError, ValueError):
        traceback.print_exception(exc, file=sys.stderr)
        sys.stderr.flush()


def own_exit(exc: BaseException) -> bool:
    """Whether ``exc`` is an exit to let through as it is: a ``SystemExit`` of patience's own,
    or of a command a plugin added, not one raised by a plugin's code that patience called
    (:func:`plugin_exit`), which is a failing plugin."""
    return isinstance(exc, SystemExit) and plugin_exit(exc) is None


def plugin_exit(exc: SystemExit) -> str | None:
    """The distribution whose code raised ``exc`` (``sys.exit()`` in a game's method, a player, a
    hook), when patience called that code: a broken plugin, reported in one line like any
    failing plugin instead of ending patience silently with the plugin's exit status.

    :returns: ``None`` for patience's own exits, and for a command a plugin added (called by
        click) that exits with a status of its own.
    """
    from importlib import metadata

    from patience_core.errors import CORE_MODULES, plugin_behind

    culprit = plugin_behind(exc)
    if culprit is None:
        return None
    try:
        owners = metadata.packages_distributions()
    except Exception:
        return None
    caller = ""
    tb = exc.__traceback__
    while tb is not None:
        top = str(tb.tb_frame.f_globals.get("__name__", "")).split(".")[0]
        if top not in CORE_MODULES and owners.get(top):
            # The outermost plugin frame: who called it?
            return None if caller == "click" else culprit
        caller = top
        tb = tb.tb_next
    return culprit


def _game_behind(exc: BaseException) -> str | None:
    """The game the failing code was working on (a ``Game`` among the local variables of the
    traceback's frames, the deepest first), as "the GAME game of DISTRIBUTION", or ``None``.
    An error raised inside patience with a plugin's game in hand may come from an answer of
    the wrong kind the plugin gave, so the message names the plugin."""
    from patience_core.games import Game, distribution_of

    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        for value in frame.f_locals.values():
            if isinstance(value, Game):
                return f"the {value.name} game of {distribution_of(value)}"
    return None
