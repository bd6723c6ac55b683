"""Position files: the position of a game read from a file or a text, for every front end
(``patience deal --from``, ``patience solve --from``) and for notebooks.

Layer 4. A position file holds position JSON (``docs/cli.md``, "Position JSON": what
``patience deal GAME --json --all-cards`` writes) or a text format the game reads
(:attr:`~patience_core.games.Game.formats`, e.g. Freecell Solver's board text for Baker's Game).
Saved games (``patience play``) are read by :func:`patience_core.play.load_session` instead.

Example::

    from patience_core.games import read_position_file
    position = read_position_file(game, "deal-17.json")  # BadSave, in one line, if it is not
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from patience_core.errors import BadSave, shown
from patience_core.games._formats import POSITION_FORMAT, POSITION_VERSION, position_from_dict
from patience_core.games._game import Game
from patience_core.model import Position

__all__ = [
    "LONGEST_PATH",
    "MAX_POSITION_BYTES",
    "cannot_read",
    "decode_text",
    "file_options",
    "json_object",
    "read_failure",
    "read_file_bytes",
    "read_position",
    "read_position_file",
    "read_position_text",
    "recorded_options",
    "shown_path",
]

#: The most characters of a path shown whole in a message; a longer one is cut with ``...``
#: (docs/cli.md, "Messages": a 3,000-character path never makes a 3,000-character line).
LONGEST_PATH = 160


def shown_path(path: str | os.PathLike[str], quote: bool = False) -> str:
    """``path`` as a message shows a path patience found rather than one the user typed (the
    folder of a file, a link's target): through :func:`~patience_core.errors.shown`, whole up
    to :data:`LONGEST_PATH` characters.

    :param quote: quoted as ``repr`` quotes it (the style of ``simulate``'s messages).
    """
    return shown(os.fspath(path), LONGEST_PATH, quote=quote)


def read_failure(path: str | os.PathLike[str], exc: OSError | None = None) -> str:
    """The ``REASON`` of ``cannot read FILE: REASON`` (docs/cli.md), the one rule of every
    command that reads a file: for a file that is not there, whether its folder is missing
    (``the folder /tmp/typo does not exist``, ``... is not a folder``) or only the file
    (``No such file or directory``); else the error's own text.

    :param exc: the error met in reading ``path``; ``None``: the file is known to be missing.
    """
    if exc is None or isinstance(exc, (FileNotFoundError, NotADirectoryError)):
        folder = Path(path).parent
        if not folder.is_dir():
            what = "is not a folder" if folder.exists() else "does not exist"
            return f"the folder {shown_path(folder)} {what}"
        if exc is None:
            return os.strerror(errno.ENOENT)
    assert exc is not None
    return str(exc.strerror or exc)


def cannot_read(path: str | os.PathLike[str], why: OSError | str | None = None) -> BadSave:
    """The error of a file patience cannot read, in the one line of every command (docs/cli.md):
    ``cannot read FILE: REASON``.

    :param why: the error met (its REASON is :func:`read_failure`'s), ``None`` for a missing
        file, or the REASON itself (``not UTF-8 text``, ``not a regular file``).
    :returns: the :class:`~patience_core.errors.BadSave` to raise.
    """
    reason = why if isinstance(why, str) else read_failure(path, why)
    return BadSave(f"cannot read {os.fspath(path)}: {reason}")


def read_file_bytes(path: str | os.PathLike[str], limit: int, regular_only: bool = False) -> bytes:
    """At most ``limit + 1`` bytes of the file at ``path`` (one more than ``limit`` tells the
    caller the file is too large, without reading an endless one such as ``/dev/zero``).

    :param limit: the most bytes the caller takes, in bytes.
    :param regular_only: refuse anything but a regular file (a save: not a device or a pipe,
        which ``--from`` does read).
    :raises BadSave: :func:`cannot_read` for a file that cannot be read (missing, a folder, no
        permission, a name too long, links in a loop, not a regular file).
    """
    try:
        if regular_only:
            mode = os.stat(path).st_mode
            if stat.S_ISDIR(mode):
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
            if not stat.S_ISREG(mode):
                raise cannot_read(path, "not a regular file")
        with open(path, "rb") as handle:
            return handle.read(limit + 1)
    except OSError as exc:
        raise cannot_read(path, exc) from None


def decode_text(path: str | os.PathLike[str], data: bytes) -> str:
    """``data``, read from ``path``, as text: UTF-8, a byte order mark (some editors add one)
    skipped.

    :raises BadSave: :func:`cannot_read` (``not UTF-8 text``) when it is not UTF-8.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise cannot_read(path, "not UTF-8 text") from None


#: The largest file read as a position or a saved game, in bytes (10 MiB): the one limit for
#: both, since ``--from`` reads a save too. A position is a few kilobytes, a save of
#: :data:`~patience_core.play.MAX_MOVES` moves well under it.
MAX_POSITION_BYTES = 10 * 1024 * 1024
#: Digits a whole number of a position file may have at most (no field comes near; Python
#: itself refuses more than 4,300, in words of its own).
_MAX_DIGITS = 100


def _whole_number(text: str) -> int:
    """A JSON whole number (``json.loads``'s ``parse_int``); :raises ValueError: in our words
    beyond :data:`_MAX_DIGITS` digits."""
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise ValueError(f"a number with too many digits ({len(text.lstrip('-'))})")
    return int(text)


def _parse_json(text: str) -> dict[str, Any]:
    """``text`` parsed as a JSON object. :raises BadSave: one line, when it is not one."""
    try:
        data = json.loads(text, parse_int=_whole_number)
    except json.JSONDecodeError as exc:
        raise BadSave(f"not valid JSON: {exc.msg} (line {exc.lineno})") from None
    except RecursionError:
        raise BadSave("not a position (nested too deeply)") from None
    except ValueError as exc:
        raise BadSave(f"not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise BadSave("position JSON must be an object")
    return data


def json_object(text: str) -> dict[str, Any] | None:
    """``text`` (a file read by :func:`read_position_text`) parsed as a JSON object, or
    ``None`` when it is not one (another format of the game, or bad JSON: reading it as a
    position then says what is wrong)."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        return _parse_json(text)
    except BadSave:
        return None


def read_position(game: Game, text: str, data: object = None) -> Position:
    """The position of ``game`` a text describes: position JSON when it starts with ``{``,
    otherwise the first of the game's readable :attr:`~patience_core.games.Game.formats` that
    reads it. The result passes :meth:`Game.check_position`.

    :param data: the text already parsed as a JSON object (:func:`json_object`), if it was; it
        is then not parsed again.
    :raises BadSave: with a one-line message when nothing reads the text or it is not a position
        of ``game`` (position JSON written without ``--all-cards`` included, when a card of it
        is face down: a position needs every card).
    """
    if text.lstrip().startswith("{"):
        if not isinstance(data, dict):
            data = _parse_json(text)
        if data.get("format", POSITION_FORMAT) != POSITION_FORMAT:
            raise BadSave(f"format {shown(data.get('format'))} is not {POSITION_FORMAT!r}")
        if data.get("version", POSITION_VERSION) != POSITION_VERSION:
            raise BadSave(
                f"position JSON version {shown(data.get('version'))} is not supported "
                f"(this patience reads version {POSITION_VERSION})"
            )
        if data.get("game") not in (None, game.name):
            raise BadSave(f"position is of game {shown(data.get('game'))}, not {game.name}")
        position = position_from_dict(game, data)
        game.check_position(position)
        return position
    readers = [f for f in game.formats if f.read is not None]
    if not readers:
        names = ", ".join(f.name for f in game.formats)
        extra = f"; its formats ({names}) cannot be read" if names else ""
        raise BadSave(f"not position JSON, and {game.name} reads no other position format{extra}")
    first: BadSave | None = None
    for fmt in readers:
        assert fmt.read is not None
        try:
            return fmt.read(game, text)
        except BadSave as exc:
            first = first or exc
    assert first is not None
    raise first


def read_position_text(path: str) -> str:
    """The text of the position file at ``path`` (``-`` for standard input), read with a size
    cap of :data:`MAX_POSITION_BYTES`, so a huge or endless input (``/dev/zero``) is refused
    quickly instead of filling memory.

    :raises BadSave: naming the file, for a file that cannot be read (a folder, no permission:
        ``cannot read FILE: ...``), is too large or is not UTF-8 text.
    """
    if path == "-":
        if sys.stdin is None or sys.stdin.closed:
            raise BadSave("cannot read standard input: it is closed")
        try:
            data = sys.stdin.buffer.read(MAX_POSITION_BYTES + 1)
        except OSError as exc:
            raise cannot_read(path, exc) from None
    else:
        data = read_file_bytes(path, MAX_POSITION_BYTES)
    if len(data) > MAX_POSITION_BYTES:
        raise BadSave(f"{path} is larger than {MAX_POSITION_BYTES:,} bytes: not a position file")
    return decode_text(path, data)


def file_options(data: object, path: str = "-") -> dict[str, str] | None:
    """The ``options`` a position JSON object (:func:`json_object`) records, or ``None`` (not
    JSON, or none recorded).

    :raises BadSave: naming ``path``, when ``options`` is there but is not an object of option
        names to text values (``{"empty-columns": 1}``, ``null``, a list): taking the game's
        defaults instead would solve another game than the file's.
    """
    if not isinstance(data, dict) or "options" not in data:
        return None
    options = data["options"]
    if isinstance(options, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in options.items()
    ):
        stripped = {key.strip(): value.strip() for key, value in options.items()}
        if len(stripped) < len(options):
            twice = next(k for k in stripped if sum(n.strip() == k for n in options) > 1)
            raise BadSave(f"{path}: option {shown(twice)} given twice")
        return stripped
    raise BadSave(f"{path}: 'options' must be an object of option names to text values")


def recorded_options(data: object, game_name: str, path: str = "-") -> dict[str, str] | None:
    """The options a position JSON object (:func:`json_object`) records for the game
    ``game_name`` (its canonical name): :func:`file_options`, or ``None`` for a file of another
    game, whose options are not tried on this one (reading the position then says whose it is).

    :raises BadSave: as :func:`file_options`.
    """
    of_game = data.get("game", game_name) if isinstance(data, dict) else game_name
    return file_options(data, path) if of_game == game_name else None


def read_position_file(game: Game, path: str) -> Position:
    """:func:`read_position` of the file at ``path`` (``-`` for standard input), for ``game``
    with the options it already has (the file's recorded options are not applied: see
    :func:`recorded_options`).

    :raises BadSave: naming the file, for a file that cannot be read or holds no position.
    """
    text = read_position_text(path)
    try:
        return read_position(game, text)
    except BadSave as exc:
        raise BadSave(f"{path}: {exc}") from None
