"""``patience deal GAME [--deal N | --from FILE] [--format text|json|NAME]``: the layout of a deal.

``--format`` picks the output: ``text`` (the board, the default), ``json`` (docs/cli.md, "Position
JSON"; ``--json`` is the same) or a text format the game declares in
:attr:`~patience_core.games.Game.formats` (e.g. ``fcs``, Freecell Solver's board text, for Baker's
Game). ``--from FILE`` shows a position read from a file instead of a deal: position JSON (a file
starting with ``{``), else each text format the game can read, in the game's order.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from patience_core.cli import get_host
from patience_core.cli.options import DEAL, option_flag, random_deal
from patience_core.engine import DealNumber
from patience_core.errors import BadSave
from patience_core.games import (
    POSITION_FORMAT,
    POSITION_VERSION,
    Game,
    parse_options,
    position_from_dict,
    position_to_dict,
)
from patience_core.model import Position
from patience_core.play import (
    SAVE_FORMAT,
    CardStyle,
    board_text,
    load_session,
    make_painter,
    whole_number,
)
from patience_core.plugins import PluginHost

__all__ = [
    "deal",
    "file_options",
    "game_for_position",
    "is_save_data",
    "json_object",
    "position_from_file",
    "read_position",
    "read_position_file",
    "read_position_text",
]

_CORE_FORMATS = ("text", "json")


def _parse_json(text: str) -> dict[str, Any]:
    """``text`` parsed as a JSON object. :raises BadSave: one line, when it is not one."""
    try:
        data = json.loads(text, parse_int=whole_number)
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
        of ``game``.
    """
    if text.lstrip().startswith("{"):
        if not isinstance(data, dict):
            data = _parse_json(text)
        if data.get("format", POSITION_FORMAT) != POSITION_FORMAT:
            raise BadSave(f"format {data.get('format')!r} is not {POSITION_FORMAT!r}")
        if data.get("version", POSITION_VERSION) != POSITION_VERSION:
            raise BadSave(
                f"position JSON version {data.get('version')!r} is not supported "
                f"(this patience reads version {POSITION_VERSION})"
            )
        if data.get("game") not in (None, game.name):
            raise BadSave(f"position is of game {data.get('game')!r}, not {game.name}")
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


#: The largest position file read, in bytes: a position is a few kilobytes at most.
MAX_POSITION_BYTES = 1_000_000


def read_position_text(path: str) -> str:
    """The text of the position file at ``path`` (``-`` for standard input), read with a size
    cap of :data:`MAX_POSITION_BYTES`, so a huge or endless input (``/dev/zero``) is refused
    quickly instead of filling memory.

    :raises BadSave: naming the file, for a file that cannot be read, is too large or is not
        UTF-8 text.
    """
    try:
        if path == "-":
            if sys.stdin is None or sys.stdin.closed:
                raise BadSave("cannot read standard input: it is closed")
            data = sys.stdin.buffer.read(MAX_POSITION_BYTES + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(MAX_POSITION_BYTES + 1)
    except OSError as exc:
        raise BadSave(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_POSITION_BYTES:
        raise BadSave(f"{path} is larger than {MAX_POSITION_BYTES:,} bytes: not a position file")
    try:
        return data.decode("utf-8-sig")  # a byte order mark (some editors add one) is skipped
    except UnicodeDecodeError:
        raise BadSave(f"cannot read {path}: not UTF-8 text") from None


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
            raise BadSave(f"{path}: option {twice!r} given twice")
        return stripped
    raise BadSave(f"{path}: 'options' must be an object of option names to text values")


def game_for_position(
    host: PluginHost, name: str, chosen: Mapping[str, str], data: object, path: str
) -> Game:
    """The game ``name`` with the options a position file records (``data``, its position
    JSON object from :func:`json_object`, or ``None``), merged with the ``chosen`` ones
    (``--option``).

    :raises click.UsageError: when a chosen option disagrees with a recorded one.
    :raises PatienceError: for an unknown game or a bad option value (recorded or chosen).
    """
    merged = dict(chosen)
    this_game = host.games.get(name).name
    of_game = data.get("game", this_game) if isinstance(data, dict) else this_game
    # Options recorded for another game are not tried on this one (reading the position then
    # says whose it is).
    recorded = file_options(data, path) if of_game == this_game else None
    if recorded is not None:
        if any(recorded.get(k, v) != v for k, v in chosen.items()):
            raise click.UsageError(
                f"--option disagrees with the options recorded in {path}: {recorded}"
            )
        merged = {**recorded, **chosen}
    return host.game(name, merged)


def read_position_file(game: Game, path: str) -> Position:
    """:func:`read_position` of the file at ``path`` (``-`` for standard input).

    :raises BadSave: naming the file, for a file that cannot be read or holds no position.
    """
    text = read_position_text(path)
    try:
        return read_position(game, text)
    except BadSave as exc:
        raise BadSave(f"{path}: {exc}") from None


def is_save_data(data: object) -> bool:
    """Whether a position file's JSON object (:func:`json_object`) looks like a saved game (the
    save format, or with ``moves`` and ``deal``) rather than a position."""
    return isinstance(data, dict) and (
        data.get("format") == SAVE_FORMAT or ("moves" in data and "deal" in data)
    )


def position_from_file(
    host: PluginHost, name: str, chosen: Mapping[str, str], path: str
) -> tuple[Game, Position, str]:
    """The game and position held by the file at ``path`` (``-`` for standard input): a saved
    game's current position, position JSON, or a text format of the game.

    :param chosen: the options given with ``--option`` (refused for a saved game, which
        records its own).
    :returns: (the game with its options, the position, a label naming the file and, for a
        saved game, the move reached).
    :raises click.UsageError: for options given with a saved game, or disagreeing with the
        ones a position file records.
    :raises BadSave: naming the file, for a file that cannot be read or holds no position of
        ``name`` (a saved game of another game included).
    :raises PatienceError: for an unknown game or a bad option value.
    """
    text = read_position_text(path)
    data = json_object(text)
    if is_save_data(data):
        if path == "-":
            raise BadSave("a saved game cannot be read from standard input: give its file name")
        if chosen:
            raise click.UsageError("--option cannot be used with a saved game")
        _saved, session = load_session(Path(path), host.game)
        if session.game.name != host.games.get(name).name:
            raise BadSave(f"{path} holds a saved {session.game.name} game, not {name}")
        return session.game, session.position, f"{path} (after move {len(session.moves)})"
    game = game_for_position(host, name, chosen, data, path)
    try:
        position = read_position(game, text, data)
    except BadSave as exc:
        raise BadSave(f"{path}: {exc}") from None
    return game, position, path


@click.command()
@click.argument("game")
@click.option(
    "--deal", "-d", "deal_number", type=DEAL, help="Deal number N (or ms:N); random if omitted."
)
@click.option(
    "--from",
    "from_file",
    metavar="FILE",
    help="Show the position in FILE: a saved game (its current position), position JSON or a "
    "format of the game, e.g. fcs (- = stdin).",
)
@click.option(
    "--format",
    "-f",
    "output_format",
    metavar="[text|json|fcs]",
    help="Output: text (default), json, or a format of the game (fcs for Baker's Game).",
)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@option_flag
@click.pass_context
def deal(
    ctx: click.Context,
    game: str,
    deal_number: DealNumber | None,
    from_file: str | None,
    output_format: str | None,
    as_json: bool,
    options: tuple[str, ...],
) -> None:
    """Show the layout of a deal of GAME. Without --deal a random deal is chosen; its number is
    always printed so it can be replayed."""
    host = get_host(ctx)
    chosen = parse_options(options)
    if from_file is not None and deal_number is not None:
        raise click.UsageError("give --deal or --from, not both")
    if from_file is not None:
        the_game, position, where = position_from_file(host, game, chosen, from_file)
    else:
        the_game = host.game(game, chosen)
    fmt = (output_format if output_format is not None else ("json" if as_json else "text")).lower()
    if as_json and fmt != "json":
        raise click.UsageError("--json and --format disagree")
    if fmt not in _CORE_FORMATS and the_game.position_format(fmt) is None:
        names = ", ".join([*_CORE_FORMATS, *(f.name for f in the_game.formats)])
        raise click.BadParameter(
            f"{the_game.name} has no position format {fmt!r} (formats: {names})",
            param_hint="'--format'",
        )
    label: str | None
    if from_file is not None:
        label = None
        heading = f"{the_game.title}, position from {where}"
    else:
        number = deal_number if deal_number is not None else random_deal()
        position = the_game.deal(number)
        label = str(number)
        heading = f"{the_game.title}, deal {number}"
    if deal_number is None and from_file is None and fmt != "text":
        # The board text names the deal; machine formats do not, so say it on stderr.
        click.echo(f"{the_game.name} deal {label}", err=True)
    if fmt == "json":
        click.echo(json.dumps(position_to_dict(the_game, position, label), indent=2))
        return
    extra = the_game.position_format(fmt)
    if extra is not None:
        click.echo(extra.write(the_game, position), nl=False)
        return
    style = CardStyle.for_stream(sys.stdout)
    paint = make_painter(style, lambda c: host.card_text(c, style.unicode))
    click.echo(heading)
    click.echo(board_text(the_game, position, paint))
    status = the_game.status(position)
    if status:
        click.echo(status)
