"""Saved games: the versioned JSON format, where saves live, writing them atomically, and the
lock that keeps one window per save (reading them: :mod:`patience_core.play._loading`).

Layer 4. A saved game is the deal and the moves, not the position: loading replays the moves from
the deal (:meth:`patience_core.play.Session.replay`), so a save can never hold a position the
rules could not reach. The format (``docs/play.md``, "Saved games")::

    {
      "format": "patience-save", "version": 1,
      "game": "escalator", "plugin_version": "0.1.0",
      "deal": "17", "options": {},
      "moves": ["deal", "p22 w", ...],      # canonical move text, first move first
      "redo": ["p7 w"],                      # undone moves still redoable, next one first
      "finished": null,                      # "won", "lost" or null (in progress)
      "saved_at": "2025-01-31T12:00:00+00:00",
      "elapsed": 312.5,                      # optional: seconds played (the play clock)
      "stats_id": "...",                     # optional: the game's row in the statistics
      "variant": {"family": "golf", "title": "My Golf",
                  "parameters": {"wrap": true, ...}}  # optional: a variant file's rules
    }

The three optional fields came after version 1 was first written: a save without them reads as
0 seconds played, no statistics row and the game's rules as installed, so older saves still
load. ``variant`` is written for a game read from a variant file (its family and every
parameter's value, :func:`patience_core.families.variant_record`): editing the file never
changes a game in progress, which goes on with the rules it was started with.

Writing goes through :func:`patience_core.files.atomic_writer` (a temporary file in the same
folder, flushed, ``fsync``-ed and renamed over the save), so a crash leaves either the old save or
the new one, never a partial file. Only :mod:`json` is used: no pickle, no eval.

Saves live in ``<data dir>/saves/<game>.json``; the data dir is ``$PATIENCE_DATA_DIR`` when set,
else platformdirs' ``user_data_dir("patience")``.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from patience_core.engine import DealNumber
from patience_core.errors import BadSave, PatienceError
from patience_core.families import variant_record
from patience_core.files import WriterLock, data_dir, move_aside, write_json_atomic
from patience_core.games import MAX_POSITION_BYTES, Game, shown_path
from patience_core.play._session import MAX_MOVES, Session

__all__ = [
    "MAX_MOVES",
    "MAX_SAVE_BYTES",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "GameFactory",
    "SaveLock",
    "SavedGame",
    "archive_save",
    "default_save_path",
    "save_session",
    "session_to_dict",
]

SAVE_FORMAT = "patience-save"
SAVE_VERSION = 1
#: The environment variable that overrides the data directory.
#: Files larger than this (bytes) are refused unread: the one limit of a file read as a save
#: or a position (:data:`patience_core.games.MAX_POSITION_BYTES`).
MAX_SAVE_BYTES = MAX_POSITION_BYTES
#: The ``plugin_version`` earlier patience wrote for a game without one (a data-folder variant
#: file): read as "" (none), which patience writes now.
OLD_NO_VERSION = "?"
#: The longest string accepted in a save (move text, option, version, date).
_MAX_TEXT = 200
_GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
_KEYS = frozenset(
    {
        "format",
        "version",
        "game",
        "plugin_version",
        "deal",
        "options",
        "moves",
        "redo",
        "finished",
        "saved_at",
    }
)

#: Fields a save may leave out (older saves have none of them).
_OPTIONAL_KEYS = frozenset({"elapsed", "stats_id", "variant"})

#: Makes a game from its name and options (e.g. ``PluginHost.game``); raises a PatienceError.
GameFactory = Callable[[str, Mapping[str, str]], Game]


@attrs.frozen
class SavedGame:
    """The checked contents of a save file, before the moves are replayed.

    :param game: the game's name.
    :param plugin_version: the version of the plugin that wrote the save.
    :param deal: the deal number.
    :param options: option name to value.
    :param moves: canonical move texts, first move first.
    :param redo: undone moves, the next one to redo first.
    :param finished: ``"won"``, ``"lost"`` or ``None``.
    :param saved_at: when the save was written (ISO 8601 text).
    :param elapsed: seconds played (the play clock); 0 for a save without the field.
    :param stats_id: the game's row in the statistics, or ``None``.
    :param variant: the rules of a variant-file game when it was started
        (:func:`patience_core.families.variant_record`), or ``None``.
    """

    game: str
    plugin_version: str
    deal: DealNumber
    options: dict[str, str]
    moves: tuple[str, ...]
    redo: tuple[str, ...]
    finished: str | None
    saved_at: str
    elapsed: float = 0.0
    stats_id: str | None = None
    variant: Mapping[str, Any] | None = None


# -- locations --------------------------------------------------------------------------------


def default_save_path(game_name: str, environ: Mapping[str, str] | None = None) -> Path:
    """Where the saved game of ``game_name`` lives: ``<data dir>/saves/<game>.json``.

    :raises BadSave: for a name that cannot be a file name (games are named ``[a-z0-9-]``).
    """
    if not _GAME_NAME.match(game_name):
        raise BadSave(f"game name {game_name!r} cannot name a save file")
    return data_dir(environ) / "saves" / f"{game_name}.json"


# -- writing ----------------------------------------------------------------------------------


def session_to_dict(
    session: Session,
    plugin_version: str,
    saved_at: dt.datetime | None = None,
    *,
    elapsed: float = 0.0,
    stats_id: str | None = None,
) -> dict[str, Any]:
    """The JSON-ready dict of ``session`` (see the module docstring for the shape).

    :param saved_at: default: now, in UTC.
    :param elapsed: seconds played, written when above 0.
    :param stats_id: the statistics row, written when given.
    """
    when = saved_at if saved_at is not None else dt.datetime.now(dt.UTC)
    data: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "game": session.game.name,
        "plugin_version": plugin_version,
        "deal": str(session.deal),
        "options": session.options,
        "moves": session.move_texts,
        "redo": session.redo_texts,
        "finished": _finished(session),
        "saved_at": when.isoformat(timespec="seconds"),
    }
    if elapsed > 0:
        data["elapsed"] = round(elapsed, 1)
    if stats_id is not None:
        data["stats_id"] = stats_id
    variant = variant_record(session.game)
    if variant is not None:
        data["variant"] = variant
    return data


def _finished(session: Session) -> str | None:
    """``session.finished``, or ``None`` (in progress) when the game's plugin fails to tell (with
    any exception, ``SystemExit`` too; only Ctrl-C goes on): the moves are saved all the same,
    so a broken plugin never costs a game in progress."""
    try:
        return session.finished
    except KeyboardInterrupt:
        raise
    except BaseException:
        return None


def save_session(
    path: Path,
    session: Session,
    plugin_version: str,
    *,
    elapsed: float = 0.0,
    stats_id: str | None = None,
) -> None:
    """Save ``session`` to ``path`` atomically (see :func:`write_json_atomic`), creating the
    folder when needed.

    :param elapsed: seconds played (the play clock).
    :param stats_id: the game's row in the statistics.

    :raises PatienceError: with one line when the file cannot be written.
    """
    data = session_to_dict(session, plugin_version, elapsed=elapsed, stats_id=stats_id)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json_atomic(path, data, new_mode=0o600)  # a new save is private, as before
    except OSError as exc:
        raise PatienceError(f"cannot save the game to {path}: {exc.strerror or exc}") from None


def archive_save(path: Path, label: str = "") -> Path:
    """Move the save at ``path`` aside to a new, timestamped name in the same folder, e.g.
    ``escalator-20250131-120000.json`` (``label`` goes before the suffix:
    ``escalator-20250131-120000-corrupt.json``). Never overwrites a file.

    :returns: the new path.
    :raises PatienceError: when the file cannot be renamed.
    """
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    extra = f"-{label}" if label else ""
    return move_aside(path, lambda serial: f"{path.stem}-{stamp}{serial}{extra}{path.suffix}")


# -- one game, one window -------------------------------------------------------------------------


class SaveLock(WriterLock):
    """The lock ``patience play`` holds on its save while a game is open, so two windows never
    play (and save) the same game at once (see :class:`~patience_core.files.WriterLock`: a
    ``filelock`` lock in the data folder's ``locks/``, its file removed on release).

    :param path: the save (or any other file patience writes).
    :param busy: the one-line message when another process holds the lock; default: the one
        for a game open in another window.
    """

    def __init__(self, path: Path, busy: str | None = None) -> None:
        real = Path(os.path.realpath(path))
        super().__init__(
            path,
            busy
            or (
                f"the game in {shown_path(real)} is open in another patience window; "
                "finish or quit it there first"
            ),
        )
