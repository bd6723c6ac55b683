"""Saved games: versioned JSON files, written atomically, read with full validation.

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
      "saved_at": "2025-01-31T12:00:00+00:00"
    }

Writing goes to a temporary file in the same folder, which is flushed, ``fsync``-ed and then
renamed over the save (``os.replace``), so a crash leaves either the old save or the new one, never
a partial file. Reading never writes, renames or removes the file; every problem (missing, too
large, not JSON, wrong format or version, wrong types, unknown game, moves that do not replay) is a
:class:`~patience_core.errors.BadSave` with a one-line message. Only :mod:`json` is used: no
pickle, no eval.

Saves live in ``<data dir>/saves/<game>.json``; the data dir is ``$PATIENCE_DATA_DIR`` when set,
else platformdirs' ``user_data_dir("patience")``.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from patience_core.engine import NOTATION_HELP, DealNumber
from patience_core.errors import BadDeal, BadSave, PatienceError
from patience_core.files import WriterLock, data_dir, move_aside, write_json_atomic
from patience_core.games import Game
from patience_core.play._session import FINISHED_LOST, FINISHED_WON, MAX_MOVES, Session

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
    "load_session",
    "read_save",
    "restore_session",
    "save_session",
    "session_to_dict",
]

SAVE_FORMAT = "patience-save"
SAVE_VERSION = 1
#: The environment variable that overrides the data directory.
#: Files larger than this (bytes) are refused unread.
MAX_SAVE_BYTES = 10 * 1024 * 1024
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
    """

    game: str
    plugin_version: str
    deal: DealNumber
    options: dict[str, str]
    moves: tuple[str, ...]
    redo: tuple[str, ...]
    finished: str | None
    saved_at: str


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
    session: Session, plugin_version: str, saved_at: dt.datetime | None = None
) -> dict[str, Any]:
    """The JSON-ready dict of ``session`` (see the module docstring for the shape).

    :param saved_at: default: now, in UTC.
    """
    when = saved_at if saved_at is not None else dt.datetime.now(dt.UTC)
    return {
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


def save_session(path: Path, session: Session, plugin_version: str) -> None:
    """Save ``session`` to ``path`` atomically (see :func:`write_json_atomic`), creating the
    folder when needed.

    :raises PatienceError: with one line when the file cannot be written.
    """
    data = session_to_dict(session, plugin_version)
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


# -- reading ----------------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


#: Digits a whole number of a save or position file may have at most (no deal number, move
#: count or card code comes near; Python itself refuses more than 4,300).
MAX_DIGITS = 100


def whole_number(text: str) -> int:
    """A JSON whole number of a file we read (``json.loads``'s ``parse_int``).

    :raises ValueError: "a number with too many digits" beyond :data:`MAX_DIGITS` digits, so
        that the message is ours and not Python's.
    """
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number with too many digits ({len(text.lstrip('-'))})")
    return int(text)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


def _read_bytes(path: Path) -> bytes:
    try:
        info = path.stat()
    except FileNotFoundError:
        raise BadSave(f"no saved game at {path}") from None
    except OSError as exc:
        raise BadSave(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise BadSave(f"{path} is not a regular file")
    if info.st_size > MAX_SAVE_BYTES:
        raise BadSave(f"{path} is too large to be a saved game ({info.st_size} bytes)")
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_SAVE_BYTES + 1)
    except OSError as exc:
        raise BadSave(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_SAVE_BYTES:
        raise BadSave(f"{path} is too large to be a saved game")
    return raw


def _text(data: Mapping[str, Any], key: str, where: Path) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value or len(value) > _MAX_TEXT:
        raise BadSave(f"{where}: {key!r} must be a non-empty string of at most {_MAX_TEXT} chars")
    return value


def _text_list(data: Mapping[str, Any], key: str, where: Path) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list):
        raise BadSave(f"{where}: {key!r} must be a list of move texts")
    if len(value) > MAX_MOVES:
        raise BadSave(f"{where}: {key!r} holds more than {MAX_MOVES} moves")
    for item in value:
        if isinstance(item, str) and len(item) > _MAX_TEXT:
            raise BadSave(f"{where}: {key!r} holds a move text longer than {_MAX_TEXT} characters")
        if not isinstance(item, str) or not item.strip():
            raise BadSave(f"{where}: {key!r} must be a list of move texts")
    return tuple(value)


def read_save(path: Path) -> SavedGame:
    """Read and check a save file, without replaying its moves (see :func:`restore_session`).

    :raises BadSave: one line saying what is wrong; the file is never changed.
    """
    raw = _read_bytes(path)
    if not raw.strip():
        raise BadSave(f"{path} is empty, not a saved game")
    try:
        data = json.loads(
            raw.decode("utf-8-sig"),  # a byte order mark (some editors add one) is skipped
            parse_constant=_reject_constant,
            parse_int=whole_number,
            object_pairs_hook=_no_duplicates,
        )
    except UnicodeDecodeError:
        raise BadSave(f"{path} is not a saved game (not UTF-8 text)") from None
    except RecursionError:
        raise BadSave(f"{path} is not a saved game (nested too deeply)") from None
    except ValueError as exc:  # json.JSONDecodeError, and our own refusals
        first = str(exc).splitlines()[0] if str(exc) else "bad JSON"
        raise BadSave(f"{path} is not a saved game (not valid JSON: {first})") from None
    if not isinstance(data, dict):
        raise BadSave(f"{path} is not a saved game (not a JSON object)")
    if data.get("format") != SAVE_FORMAT:
        raise BadSave(f"{path} is not a patience saved game (format is not {SAVE_FORMAT!r})")
    version = data.get("version")
    if version != SAVE_VERSION or not isinstance(version, int) or isinstance(version, bool):
        shown = repr(version)[:20]
        raise BadSave(
            f"{path} is a saved game of format version {shown}; "
            f"this patience reads version {SAVE_VERSION}"
        )
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise BadSave(f"{path}: unknown field {unknown[0][:40]!r}")
    missing = sorted(_KEYS - set(data))
    if missing:
        raise BadSave(f"{path}: missing field {missing[0]!r}")
    game = _text(data, "game", path)
    if not _GAME_NAME.match(game):
        raise BadSave(f"{path}: {game[:40]!r} is not a game name")
    plugin_version = _text(data, "plugin_version", path)
    try:
        deal = DealNumber.parse(_text(data, "deal", path))
    except ValueError as exc:
        raise BadSave(f"{path}: {exc}") from None
    options = data["options"]
    if not isinstance(options, dict) or len(options) > 100:
        raise BadSave(f"{path}: 'options' must be an object of option names to text values")
    for key, value in options.items():
        if not isinstance(value, str) or len(key) > _MAX_TEXT or len(value) > _MAX_TEXT:
            raise BadSave(f"{path}: 'options' must be an object of option names to text values")
    moves = _text_list(data, "moves", path)
    redo = _text_list(data, "redo", path)
    if len(moves) + len(redo) > MAX_MOVES:
        raise BadSave(f"{path}: more than {MAX_MOVES} moves")
    finished = data["finished"]
    if finished not in (None, FINISHED_WON, FINISHED_LOST):
        raise BadSave(f'{path}: \'finished\' must be "won", "lost" or null')
    saved_at = _text(data, "saved_at", path)
    try:
        dt.datetime.fromisoformat(saved_at)
    except ValueError:
        raise BadSave(f"{path}: 'saved_at' is not an ISO 8601 date and time") from None
    return SavedGame(
        game=game,
        plugin_version=plugin_version,
        deal=deal,
        options=dict(options),
        moves=moves,
        redo=redo,
        finished=finished,
        saved_at=saved_at,
    )


def restore_session(saved: SavedGame, make_game: GameFactory, where: Path | str = "") -> Session:
    """Rebuild the session of ``saved`` by replaying its moves from the deal.

    :param make_game: makes the game from its name and options (``PluginHost.game``).
    :param where: the file name, for messages.
    :raises BadSave: for an unknown game, bad options or deal, a move that does not replay, or a
        ``finished`` field that does not match the replayed position.
    """
    label = f"{where}: " if str(where) else ""
    try:
        game = make_game(saved.game, saved.options)
    except PatienceError as exc:
        raise BadSave(f"{label}cannot load the saved {saved.game} game: {exc}") from None
    try:
        session = Session.replay(game, saved.deal, saved.moves, saved.redo)
    except BadDeal as exc:
        raise BadSave(f"{label}{exc}") from None
    except PatienceError as exc:
        reason = str(exc).removesuffix(NOTATION_HELP)  # no player is typing here
        raise BadSave(f"{label}the saved moves do not replay: {reason}") from None
    except RecursionError:
        raise BadSave(f"{label}the saved moves do not replay") from None
    if session.finished != saved.finished:
        raise BadSave(
            f"{label}the save says the game is {saved.finished or 'in progress'}, "
            f"but its moves leave it {session.finished or 'in progress'}"
        )
    return session


def load_session(path: Path, make_game: GameFactory) -> tuple[SavedGame, Session]:
    """Read, check and replay the save at ``path`` (:func:`read_save`, :func:`restore_session`).

    :raises BadSave: one line saying what is wrong; the file is never changed.
    """
    saved = read_save(path)
    return saved, restore_session(saved, make_game, path)


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
                f"the game in {real} is open in another patience window; "
                "finish or quit it there first"
            ),
        )
