"""``patience play GAME``: play a game in the terminal (docs/play.md): full screen when standard
input and output are a terminal (:func:`patience_core.tui.run_fullscreen`), else (or with
``--plain``) the line player, one command per line (:func:`patience_core.play.play_game`).

Every change (a move, undo, redo, restart) is saved at once, atomically, so a killed process loses
nothing; ``--resume`` continues the saved game. Piped commands script a whole game; the exit
status tells won, in progress, lost and a refused move apart. This module only reads the options.
"""

from __future__ import annotations

import secrets
import sys

import click

from patience_core.cli import end_interrupted_line, get_host, own_exit, show_traceback
from patience_core.cli.options import (
    DEAL,
    file_path,
    option_flag,
    random_deal,
    refuse_save_of_missing_game,
)
from patience_core.engine import DealNumber
from patience_core.errors import PatienceError, UnknownGame
from patience_core.games import parse_options, shown_path
from patience_core.play import (
    PlayRequest,
    dead_check_budget,
    default_save_path,
    play_game,
    stdin_is_tty,
)


def on_terminal() -> bool:
    """Whether standard input and output are both a terminal (the full-screen player's place)."""
    try:
        return stdin_is_tty() and sys.stdout.isatty()
    except (AttributeError, ValueError, OSError):  # a closed or missing stdout
        return False


@click.command()
@click.argument("game", is_eager=True)  # read first: --deal checks its schemes
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
    default=None,
    help="Say when a short search (0.3 s, or $PATIENCE_DEAD_CHECK seconds) proves no winning "
    "line remains. It knows the hidden cards, so by default it is on only in games that hide "
    "none (Baker's Game); 'dead on|off' toggles it while playing.",
)
@click.option("--winnable", is_flag=True, help="Play a random deal the solver proves winnable.")
@click.option("--plain", is_flag=True, help="The line player, even on a terminal.")
@click.pass_context
def play(
    ctx: click.Context,
    game: str,
    deal_number: DealNumber | None,
    options: tuple[str, ...],
    resume: bool,
    file: str | None,
    dead_check: bool | None,
    winnable: bool,
    plain: bool,
) -> None:
    """Play GAME in the terminal: full screen with keys and the mouse on a terminal, else (or
    with --plain) one move (e.g. 9h, deal, t1 f) or command (help, hint, undo, redo, restart,
    auto, moves, board, save, quit) per line. The game is saved after every move; --resume
    continues it. Without --deal a random deal is chosen and its number printed. Piped play
    exits 0 won, 3 in progress, 4 lost, 5 at a refused move (docs/play.md)."""
    host = get_host(ctx)
    dead_seconds, dead_nodes = dead_check_budget(interactive=stdin_is_tty())
    try:
        host.game_class(game)  # UnknownGame (saying why a plugin is missing), before anything
    except UnknownGame:
        if resume:  # a save of a game not installed now is said to be one, and kept
            refuse_save_of_missing_game(host, game, file)
        raise
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
    if resume and (deal_number is not None or options or winnable):
        raise click.UsageError("--deal, --option and --winnable cannot be used with --resume")
    if winnable and deal_number is not None:
        raise click.UsageError("--deal and --winnable cannot be used together")
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
        dead_check=dead_check,
        plain=plain,
        winnable=winnable,
        rng_seed=secrets.randbelow(2**32),
    )
    if not plain and on_terminal():
        from patience_core import tui  # lazily: `patience list` must not import textual

        # Textual draws on the process's stderr: with it redirected, the line player.
        if tui.can_run():
            code = tui.run_fullscreen(
                host, request, own_exit=own_exit, show_traceback=show_traceback
            )
            if code:
                sys.exit(code)
            return
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
