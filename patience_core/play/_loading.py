"""Reading saved games: every problem (missing, unreadable, too large, not JSON, wrong format or
version, wrong types, unknown game, moves that do not replay) is a
:class:`~patience_core.errors.BadSave` with a one-line message. Reading never writes, renames or
removes the file. A save is the deal and the moves: loading replays the moves from the deal
(:meth:`patience_core.play.Session.replay`), so a save can never hold a position the rules could
not reach.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from patience_core.engine import NOTATION_HELP, DealNumber
from patience_core.errors import BadDeal, BadSave, PatienceError
from patience_core.families import VariantError, same_rules, variant_from_record, variant_record
from patience_core.games import Game, decode_text, read_file_bytes
from patience_core.play._saves import (
    _GAME_NAME,
    _KEYS,
    _MAX_TEXT,
    _OPTIONAL_KEYS,
    MAX_SAVE_BYTES,
    OLD_NO_VERSION,
    SAVE_FORMAT,
    SAVE_VERSION,
    GameFactory,
    SavedGame,
)
from patience_core.play._session import FINISHED_LOST, FINISHED_WON, MAX_MOVES, Session

__all__ = ["MAX_DIGITS", "load_session", "read_save", "restore_session", "whole_number"]


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
    # The one rule of every command for a file that cannot be read (docs/cli.md).
    raw = read_file_bytes(path, MAX_SAVE_BYTES, regular_only=True)
    if len(raw) > MAX_SAVE_BYTES:
        try:
            size = f" ({path.stat().st_size} bytes)"
        except OSError:  # replaced meanwhile
            size = ""
        raise BadSave(f"{path} is too large to be a saved game{size}")
    return raw


def _text(data: Mapping[str, Any], key: str, where: Path, empty: bool = False) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not (value or empty) or len(value) > _MAX_TEXT:
        what = "a string" if empty else "a non-empty string"
        raise BadSave(f"{where}: {key!r} must be {what} of at most {_MAX_TEXT} chars")
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


def _short_text(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= _MAX_TEXT


def _is_variant_record(value: object) -> bool:
    """Whether ``value`` has the shape of a save's ``variant`` field (what the values mean is
    the family's to check, when the game is made)."""
    if not isinstance(value, dict) or set(value) != {"family", "title", "parameters"}:
        return False
    parameters = value["parameters"]
    return (
        _short_text(value["family"])
        and _short_text(value["title"])
        and isinstance(parameters, dict)
        and len(parameters) <= 100
        and all(
            _short_text(key) and (type(item) in (int, bool) or _short_text(item))
            for key, item in parameters.items()
        )
    )


def read_save(path: Path) -> SavedGame:
    """Read and check a save file, without replaying its moves (see :func:`restore_session`).

    :raises BadSave: one line saying what is wrong; the file is never changed.
    """
    raw = _read_bytes(path)
    if not raw.strip():
        raise BadSave(f"{path} is empty, not a saved game")
    text = decode_text(path, raw)
    try:
        data = json.loads(
            text,
            parse_constant=_reject_constant,
            parse_int=whole_number,
            object_pairs_hook=_no_duplicates,
        )
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
    unknown = sorted(set(data) - _KEYS - _OPTIONAL_KEYS)
    if unknown:
        raise BadSave(f"{path}: unknown field {unknown[0][:40]!r}")
    missing = sorted(_KEYS - set(data))
    if missing:
        raise BadSave(f"{path}: missing field {missing[0]!r}")
    game = _text(data, "game", path)
    if not _GAME_NAME.match(game):
        raise BadSave(f"{path}: {game[:40]!r} is not a game name")
    plugin_version = _text(data, "plugin_version", path, empty=True)  # "": none
    if plugin_version == OLD_NO_VERSION:
        plugin_version = ""  # a game without a version, as patience writes it now
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
    elapsed = data.get("elapsed", 0)
    if (
        not isinstance(elapsed, int | float)
        or isinstance(elapsed, bool)
        or not 0 <= elapsed < 10**9
    ):
        raise BadSave(f"{path}: 'elapsed' must be a number of seconds >= 0")
    stats_id = data.get("stats_id")
    if stats_id is not None and (not isinstance(stats_id, str) or len(stats_id) > _MAX_TEXT):
        raise BadSave(f"{path}: 'stats_id' must be text")
    variant = data.get("variant")
    if variant is not None and not _is_variant_record(variant):
        raise BadSave(
            f"{path}: 'variant' must be an object of a family, a title and parameter values"
        )
    return SavedGame(
        variant=variant,
        elapsed=float(elapsed),
        stats_id=stats_id,
        game=game,
        plugin_version=plugin_version,
        deal=deal,
        options=dict(options),
        moves=moves,
        redo=redo,
        finished=finished,
        saved_at=saved_at,
    )


def _saved_game(
    saved: SavedGame, make_game: GameFactory, label: str, say: Callable[[str], None] | None
) -> Game:
    """The game ``saved`` was started with: the installed one, or, for a variant file changed
    since, one made from the rules the save recorded (said by ``say``)."""
    try:
        game = make_game(saved.game, saved.options)
    except PatienceError as exc:
        raise BadSave(f"{label}cannot load the saved {saved.game} game: {exc}") from None
    if saved.variant is None or same_rules(saved.variant, variant_record(game)):
        return game
    try:
        recorded = variant_from_record(saved.game, saved.variant)(saved.options)
    except (VariantError, PatienceError) as exc:
        raise BadSave(
            f"{label}cannot resume the saved {saved.game} game: its variant has changed since "
            f"and the rules it was started with cannot be made ({exc})"
        ) from None
    if say is not None:
        say(
            f"Note: {saved.game!r} has changed since this game was saved; it goes on with the "
            "rules it was started with"
        )
    return recorded


def restore_session(
    saved: SavedGame,
    make_game: GameFactory,
    where: Path | str = "",
    say: Callable[[str], None] | None = None,
) -> Session:
    """Rebuild the session of ``saved`` by replaying its moves from the deal.

    A save of a variant-file game whose file has changed since (other rules, docs/families.md,
    "Variant files and saves") goes on with the rules the save recorded.

    :param make_game: makes the game from its name and options (``PluginHost.game``).
    :param where: the file name, for messages.
    :param say: prints the one-line note that a changed variant goes on with its saved rules
        (default: no note).
    :raises BadSave: for an unknown game, bad options or deal, a move that does not replay, a
        ``finished`` field that does not match the replayed position, or recorded rules that
        cannot be made any more (their family is gone).
    """
    label = f"{where}: " if str(where) else ""
    game = _saved_game(saved, make_game, label, say)
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


def load_session(
    path: Path, make_game: GameFactory, say: Callable[[str], None] | None = None
) -> tuple[SavedGame, Session]:
    """Read, check and replay the save at ``path`` (:func:`read_save`, :func:`restore_session`).

    :param say: as for :func:`restore_session`.
    :raises BadSave: one line saying what is wrong; the file is never changed.
    """
    saved = read_save(path)
    return saved, restore_session(saved, make_game, path, say)
