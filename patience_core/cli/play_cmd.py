"""``patience play GAME``: play a game in the terminal, one command per line (docs/play.md).

Every change (a move, undo, redo, restart) is saved at once, atomically, so a killed process loses
nothing; ``--resume`` continues the saved game. Commands come from standard input, so a pipe can
script a whole game; end of input saves and exits 0. The game itself is played by
:func:`patience_core.play.play_game`; this module only reads the options.
"""

from __future__ import annotations

import os
import sys

import click

from patience_core.cli import end_interrupted_line, get_host, own_exit, show_traceback
from patience_core.cli.options import DEAL, file_path, number_problem, option_flag, random_deal
from patience_core.engine import DealNumber, shown
from patience_core.errors import PatienceError
from patience_core.games import parse_options, shown_path
from patience_core.play import PlayRequest, default_save_path, play_game, stdin_is_tty
from patience_core.solve import DEAD_CHECK_NODES

#: The environment variable that sets the dead check's seconds (0 turns it off).
DEAD_CHECK_ENV = "PATIENCE_DEAD_CHECK"
#: The dead check's default seconds.
DEAD_CHECK_DEFAULT = 0.3
#: The dead check's node budget when the commands come from a pipe: no time limit, so a piped
#: transcript is the same on every machine, and small, so piped games stay fast.
DEAD_CHECK_PIPED_NODES = 3_000


def dead_check_seconds(enabled: bool, environ: dict[str, str] | None = None) -> float:
    """The dead check's time per move: 0 when ``--no-dead-check`` is given, else
    ``$PATIENCE_DEAD_CHECK`` seconds (0 turns it off), else :data:`DEAD_CHECK_DEFAULT`.

    :raises PatienceError: for a value that is not a number >= 0.
    """
    if not enabled:
        return 0.0
    text = (os.environ if environ is None else environ).get(DEAD_CHECK_ENV, "").strip()
    if not text:
        return DEAD_CHECK_DEFAULT
    try:
        value = -1.0 if number_problem(text) else float(text)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise PatienceError(
            f"{DEAD_CHECK_ENV} must be a number of seconds >= 0, not {shown(text, 23)}"
        )
    return value


@click.command()
@click.argument("game")
@click.option(
    "--deal", "-d", "deal_number", type=DEAL, help="Deal number N (or ms:N); random if omitted."
)
@option_flag
@click.option(
    "--resume", "-r", is_flag=True, help="Continue the saved game of GAME (or of --file)."
)
@click.option(
    "--file",
    "-f",
    "file",
    # Not readable=True: a file that cannot be read is told in one line, exit 1 (docs/cli.md).
    type=click.Path(readable=False),
    help="The save file (default: <data dir>/saves/GAME.json; see docs/play.md).",
)
@click.option(
    "--dead-check/--no-dead-check",
    default=True,
    show_default=True,
    help="After each move, search briefly (0.3 s, or $PATIENCE_DEAD_CHECK seconds) and say "
    "when no winning line remains.",
)
@click.pass_context
def play(
    ctx: click.Context,
    game: str,
    deal_number: DealNumber | None,
    options: tuple[str, ...],
    resume: bool,
    file: str | None,
    dead_check: bool,
) -> None:
    """Play GAME in the terminal. Type moves (e.g. 9h, deal, t1 f, t3 t5 2) and commands (help,
    hint, undo, redo, restart, moves, board, save, quit), one per line. The game is saved after
    every move; --resume continues it. Without --deal a random deal is chosen and its number
    printed. 'hint' gives the best move and why (docs/solver.md)."""
    host = get_host(ctx)
    dead_seconds = dead_check_seconds(dead_check)
    host.game_class(game)  # UnknownGame (saying why a plugin is missing), before anything else
    path = (
        file_path(file, "--file", "save file", reading=resume)
        if file is not None
        else default_save_path(game)
    )
    explicit_file = file is not None
    try:
        folder_there = path.parent.is_dir()
    except OSError as exc:  # a name too long, ...
        raise PatienceError(f"cannot save the game to {path}: {exc.strerror or exc}") from None
    if explicit_file and not resume and not folder_there:
        # A typo in a path must not make folders (the default place is made when needed).
        what = "is not a folder" if path.parent.exists() else "does not exist"
        raise PatienceError(
            f"cannot save the game to {path}: the folder {shown_path(path.parent)} {what}"
        )
    if resume and (deal_number is not None or options):
        raise click.UsageError("--deal and --option cannot be used with --resume")
    dead_nodes = DEAD_CHECK_NODES
    if not stdin_is_tty() and not os.environ.get(DEAD_CHECK_ENV, "").strip():
        # Piped commands: a node budget and no time limit, the same transcript on every machine.
        dead_seconds = 3600.0 if dead_seconds > 0 else 0.0
        dead_nodes = DEAD_CHECK_PIPED_NODES
    number = None if resume else (deal_number if deal_number is not None else random_deal())
    request = PlayRequest(
        game=game,
        path=path,
        explicit_file=explicit_file,
        resume=resume,
        deal=number,
        deal_was_random=not resume and deal_number is None,
        options={} if resume else parse_options(options),
        dead_seconds=dead_seconds,
        dead_nodes=dead_nodes,
    )
    code = play_game(
        host,
        request,
        own_exit=own_exit,
        end_interrupted_line=end_interrupted_line,
        show_traceback=show_traceback,
        on_close=ctx.call_on_close,
    )
    if code:
        sys.exit(code)  # not ctx.exit: the exit code must survive standalone_mode=False
