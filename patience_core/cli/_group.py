"""The ``patience`` click group: built-in commands imported when used, plugins' commands added
when asked for, and the plugin host of a run.

Layer 5 (command line).
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Iterator
from typing import Any

import click

from patience_core import __version__
from patience_core.cli._terminal import quit_quietly

__all__ = ["COMMANDS", "STARTED", "LazyGroup", "cli", "get_host"]

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
    "runs": (
        "patience_core.cli.runs_cmd",
        "runs",
        "The simulate runs kept in the run store; export or delete one.",
    ),
    "plugins": ("patience_core.cli.plugins_cmd", "plugins", "List the plugins and their status."),
    "stats": (
        "patience_core.cli.stats_cmd",
        "stats",
        "Statistics of the games played: won, win rate, streaks, times.",
    ),
    "history": (
        "patience_core.cli.history_cmd",
        "history",
        "The last games played, with the command to play each deal again.",
    ),
    "variant": (
        "patience_core.cli.variant_cmd",
        "variant",
        "Check a variant file: a game declared in TOML.",
    ),
    "new-plugin": (
        "patience_core.cli.new_plugin_cmd",
        "new_plugin",
        "Create a new game plugin from the template.",
    ),
}


def get_host(ctx: click.Context, quiet: bool = False) -> Any:
    """The loaded :class:`~patience_core.plugins.PluginHost` of this run (``ctx.obj``).

    Built on first use; a test may pass its own through ``CliRunner.invoke(..., obj=host)``.
    Broken plugins are reported once on stderr (never with ``quiet``: a command reporting one
    file of its own, such as ``variant check``).
    """
    root = ctx.find_root()
    if root.obj is None:
        from patience_core.plugins import PluginHost

        root.obj = PluginHost()
    host = root.obj
    if not getattr(host, "_reported", False):
        host.load()
        for line in () if quiet else host.problems:
            click.echo(f"patience: warning: {line}", err=True)
        host._reported = True
    return host


@contextlib.contextmanager
def _past_click() -> Iterator[None]:
    """Let Ctrl-C reach :func:`main` as :class:`click.Abort`, and end a broken pipe here: click's
    own handlers would print an empty line before :func:`main`'s message, or exit 1."""
    try:
        yield
    except KeyboardInterrupt as exc:
        raise click.exceptions.Abort() from exc
    except BrokenPipeError:
        quit_quietly()


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
