"""The save file of a game about to start: the command that resumes it, whether it may be
written, and keeping an unfinished game there from being lost (docs/play.md, "Saving and
resuming")."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path

from patience_core.engine import counted
from patience_core.errors import BadSave, PatienceError
from patience_core.files import check_writable
from patience_core.games import cannot_read, shown_path
from patience_core.play._loading import read_save, restore_session
from patience_core.play._saves import GameFactory, SavedGame, archive_save

__all__ = [
    "check_save_writable",
    "kept_line",
    "protect_existing",
    "resume_command",
    "version_note",
]


def resume_command(game: str, path: Path, explicit_file: bool) -> str:
    """The command that resumes the game of ``game`` saved at ``path`` (``--file`` only when the
    save is not at its default place)."""
    command = f"patience play {game} --resume"
    return f"{command} --file {shlex.quote(str(path))}" if explicit_file else command


def check_save_writable(path: Path) -> None:
    """Refuse, before the game starts, a save file the user may not read or write (a read-only
    file, a folder where no file can be made, something that is not a file): play would
    otherwise fail at the first move, or replace a file the user protected.

    :raises PatienceError: "cannot read PATH: REASON" for an existing file that cannot be read
        (the rule of every command, docs/cli.md), else "cannot save the game to PATH: REASON".
    """
    try:
        is_file = path.is_file()
    except OSError:  # a name too long, ...: check_writable says why
        is_file = False
    if is_file:
        try:
            with path.open("rb"):
                pass
        except OSError as exc:
            raise cannot_read(path, exc) from None
    if os.path.islink(path) and not os.path.exists(path):
        # A link whose target is not there yet: the game is saved through it (docs/play.md),
        # into the target's folder, which must exist (as `simulate -O` refuses it).
        target = os.path.realpath(path)
        if os.path.islink(target):
            raise PatienceError(
                f"cannot save the game to {path}: its symbolic links go round in a loop"
            )
        if not os.path.isdir(os.path.dirname(target)):
            raise PatienceError(
                f"cannot save the game to {path}: it links to {shown_path(target, quote=True)}, "
                "in a directory that does not exist"
            )
    try:
        check_writable(path)
    except OSError as exc:
        raise PatienceError(f"cannot save the game to {path}: {exc.strerror or exc}") from None


def protect_existing(
    path: Path, explicit_file: bool, make_game: GameFactory, say: Callable[[str], None]
) -> None:
    """Make sure starting a new game at ``path`` loses nothing.

    A finished save is replaced. With ``--file``, anything else there is refused. At the default
    location an unfinished or unreadable save is moved aside to a timestamped name.

    :param say: prints a line for the player (where an old save went).
    :raises PatienceError: when ``--file`` names a file that must not be overwritten.
    """
    if not path.exists():
        # Nothing there, or a link whose target is not there yet: the game is saved through it
        # (docs/play.md; :func:`check_save_writable` has refused one into a missing folder).
        return
    saved: SavedGame | None = None
    try:
        saved = read_save(path)
        finished = restore_session(saved, make_game, path).finished
    except BadSave:
        saved = None
    if saved is not None and (finished is not None or not (saved.moves or saved.redo)):
        return  # a finished game, or one with no move played: nothing to lose
    if explicit_file:
        if saved is not None:
            raise PatienceError(
                f"{path} holds a game in progress; continue it with --resume, "
                "or choose another --file"
            )
        raise PatienceError(f"{path} exists and is not a finished saved game; not overwriting it")
    if saved is None:
        moved = archive_save(path, "unreadable")
        say(f"The saved game at {path} could not be read; it was moved to {moved}.")
        return
    moved = archive_save(path)
    say(kept_line(saved.game, str(saved.deal), len(saved.moves), moved))


def kept_line(game: str, deal: str, moves: int, kept: Path) -> str:
    """The line that tells where an unfinished game of ``game`` (its name), deal ``deal``, with
    ``moves`` moves, was kept aside and how to resume it."""
    return (
        f"Your unfinished {game} game (deal {deal}, {counted(moves, 'move')}) was kept as "
        f"{kept}; resume it with: {resume_command(game, kept, explicit_file=True)}"
    )


def version_note(game: str, saved: str, now: str, provider: str) -> str | None:
    """The note said on resuming a save of ``game`` whose plugin version is not the one now,
    with what is known: a data-folder variant file has no version ("").

    :param saved: the version the save records ("": none).
    :param now: the version of what provides ``game`` now ("": none).
    :param provider: what provides ``game`` now: a distribution, or a variant file's path.
    :returns: the line, or ``None`` when there is nothing to say (the same, or neither has one).
    """
    if saved == now:
        return None
    if saved and now:
        return f"Note: saved with {game} plugin version {saved}; now {now}."
    if saved:
        return (
            f"Note: saved with {game} plugin version {saved}; "
            f"now {game} is the variant file {provider}."
        )
    return f"Note: saved with {game} of a variant file (no version); now {provider} {now}."
