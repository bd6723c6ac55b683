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

import contextlib
import importlib
import os
import re
import sys
import time
from collections.abc import Iterator
from typing import Any

import click

from patience_core import __version__

__all__ = [
    "COMMANDS",
    "EXIT_BROKEN_PIPE",
    "STARTED",
    "LazyGroup",
    "cli",
    "end_interrupted_line",
    "get_host",
    "main",
    "own_exit",
    "plugin_exit",
    "shortened",
    "show_traceback",
]

#: The exit code when the reader of the output went away (a broken pipe): 128 + SIGPIPE (13),
#: what a shell reports for a program the signal ends, as 130 is 128 + SIGINT.
EXIT_BROKEN_PIPE = 141

#: When the command line began (:func:`time.perf_counter`), near the process's start: commands
#: that promise an answer within some seconds count their start-up in them.
STARTED = time.perf_counter()

#: Built-in commands: name -> (module, attribute, one-line help).
COMMANDS: dict[str, tuple[str, str, str]] = {
    "list": ("patience_core.cli.list_cmd", "list_games", "List the installed games."),
    "rules": ("patience_core.cli.rules_cmd", "rules", "Show the rules of a game."),
    "deal": ("patience_core.cli.deal_cmd", "deal", "Show the layout of a deal."),
    "play": ("patience_core.cli.play_cmd", "play", "Play a game in the terminal."),
    "score": ("patience_core.cli.score_cmd", "score", "Score a saved game."),
    "hint": (
        "patience_core.cli.hint_cmd",
        "hint_command",
        "The best move of a saved game, and why.",
    ),
    "solve": (
        "patience_core.cli.solve_cmd",
        "solve_command",
        "Solve a deal: the verdict and the winning moves.",
    ),
    "simulate": (
        "patience_core.cli.simulate_cmd",
        "simulate",
        "Play many deals automatically; win rate with a 95% interval.",
    ),
    "plugins": ("patience_core.cli.plugins_cmd", "plugins", "List the plugins and their status."),
    "new-plugin": (
        "patience_core.cli.new_plugin_cmd",
        "new_plugin",
        "Create a new game plugin from the template.",
    ),
}


def get_host(ctx: click.Context) -> Any:
    """The loaded :class:`~patience_core.plugins.PluginHost` of this run (``ctx.obj``).

    Built on first use; a test may pass its own through ``CliRunner.invoke(..., obj=host)``.
    Broken plugins are reported once on stderr.
    """
    root = ctx.find_root()
    if root.obj is None:
        from patience_core.plugins import PluginHost

        root.obj = PluginHost()
    host = root.obj
    if not getattr(host, "_reported", False):
        host.load()
        for line in host.problems:
            click.echo(f"patience: warning: {line}", err=True)
        host._reported = True
    return host


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


def _quit_quietly() -> None:
    """The reader of our output went away (``| head``): stop at once, print nothing, and exit
    with :data:`EXIT_BROKEN_PIPE` (the Python documentation's "Note on SIGPIPE": standard output
    goes to ``os.devnull``, so that Python's flush at exit does not fail again)."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(EXIT_BROKEN_PIPE)


@contextlib.contextmanager
def _past_click() -> Iterator[None]:
    """Let Ctrl-C reach :func:`main` as :class:`click.Abort`, and end a broken pipe here: click's
    own handlers would print an empty line before :func:`main`'s message, or exit 1."""
    try:
        yield
    except KeyboardInterrupt as exc:
        raise click.exceptions.Abort() from exc
    except BrokenPipeError:
        _quit_quietly()


class LazyGroup(click.Group):
    """A click group that imports a built-in command's module only when it is used, and asks
    plugins for their commands only when a name is not built in (or for ``--help``)."""

    _plugins_added = False

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        """click's :meth:`~click.Command.make_context`, with Ctrl-C left to :func:`main` and a
        broken pipe ended quietly (``--help | head -1``)."""
        with _past_click():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the chosen command, with Ctrl-C left to :func:`main` and a broken pipe ended
        quietly."""
        with _past_click():
            return super().invoke(ctx)

    def _add_plugin_commands(self, ctx: click.Context) -> None:
        if self._plugins_added:
            return
        self._plugins_added = True
        host = get_host(ctx)
        group = click.Group()
        for line in host.add_commands(group):
            click.echo(f"patience: warning: {line}", err=True)
        for name, command in group.commands.items():
            if name not in COMMANDS and name not in self.commands:
                self.add_command(command, name)
            else:
                module = getattr(command.callback, "__module__", None)
                click.echo(
                    f"patience: warning: a plugin's command {name!r}"
                    f"{f' (from {module})' if module else ''} was not added: patience has a "
                    "command of that name",
                    err=True,
                )

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._add_plugin_commands(ctx)
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS:
            module_name, attr, _help = COMMANDS[cmd_name]
            command: click.Command = getattr(importlib.import_module(module_name), attr)
            return command
        if cmd_name not in self.commands:
            self._add_plugin_commands(ctx)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List commands with their one-line help without importing the built-in modules, nor
        the plugins: their commands are listed when a host is loaded already (``obj=``), and
        ``patience plugins`` lists them (loading every game plugin would cost ``--help`` its
        speed)."""
        if ctx.find_root().obj is not None:
            self._add_plugin_commands(ctx)
        rows = [(name, help_) for name, (_m, _a, help_) in COMMANDS.items()]
        for name, command in sorted(self.commands.items()):
            rows.append((name, command.get_short_help_str(60)))
        with formatter.section("Commands"):
            formatter.write_dl(sorted(rows))
        if ctx.find_root().obj is None:
            with formatter.section("Plugin commands"):
                formatter.write_text("Plugins may add commands: `patience plugins` lists them.")


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="patience")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Patience (solitaire) card games: play, deal, score and simulate.

    Every game is a plugin; `patience list` shows the installed ones.
    """


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
        click.echo(f"patience: error: {shortened(exc.format_message(), args)}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except PatienceError as exc:
        message = shortened(str(exc), args)
        if _current_folder_gone():
            # Relative paths are then read from nowhere: say why they are not found.
            message += " (the current folder no longer exists: cd to another one)"
        click.echo(f"patience: error: {message}", err=True)
        sys.exit(1)
    except BrokenPipeError:
        _quit_quietly()
    except OSError as exc:
        # A file we were asked to read or write: a read-only folder, a full disk, ...
        where = f" {shortened(str(exc.filename), args)}:" if exc.filename else ""
        reason = shortened(exc.strerror or str(exc), args)
        if not exc.filename and _current_folder_gone():
            # A relative path was to be made whole (`-O rows.csv`, `--file x.json`).
            reason = "the current folder no longer exists (it was removed): cd to another one"
        with contextlib.suppress(OSError):
            click.echo(f"patience: error:{where} {reason}", err=True)
        # Output that could not be written must not fail again when Python flushes it at exit.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
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
            f"patience: {what}: {shortened(one_line(exc), args)} (set PATIENCE_DEBUG=1 for "
            "details)",
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


#: A number of more digits, or an argument of more characters, is cut short in a message.
_LONGEST = 40
_LONG_NUMBER = re.compile(r"[0-9]{41,}")


def shortened(message: str, args: list[str] | tuple[str, ...] = ()) -> str:
    """``message`` with the user's long text cut by :func:`~patience_core.errors.shown` to its
    first 20 characters and ``...``: each of ``args`` (the command line's arguments: a value,
    a path, or the part of a path echoed) of more than 40 characters, and every number of more
    than 40 digits, so that any command refuses a 5,000-character value in one short line.
    Parameter types that know better say more (:func:`~patience_core.cli.options.number_problem`).
    """
    from patience_core.errors import shown

    def cut(text: str) -> str:
        return shown(text, 23, quote=False)

    texts = {t for a in args for t in (a, a.partition("=")[2]) if len(t) > _LONGEST}
    for text in sorted(texts, key=len, reverse=True):
        message = message.replace(text, cut(text))
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
