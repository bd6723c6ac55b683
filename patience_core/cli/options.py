"""Parameter types and options shared by several commands."""

from __future__ import annotations

import errno
import math
import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import click

from patience_core.engine import DealNumber, SchemeNotTaken, shown
from patience_core.errors import BadDeal, BadOption, BadSave, PatienceError
from patience_core.games import (
    Game,
    cannot_read,
    json_object,
    read_position,
    read_position_text,
    recorded_options,
)
from patience_core.model import Position
from patience_core.play import (
    SAVE_FORMAT,
    default_save_path,
    load_session,
    read_save,
    restore_session,
)
from patience_core.plugins import PluginHost
from patience_core.solve import HONEST, THOUGHTFUL

F = TypeVar("F", bound=Callable[..., Any])


class DealType(click.ParamType):  # type: ignore[type-arg,unused-ignore]
    """A deal number: ``N`` (0..2**32-1) or ``ms:N`` (1..2**31-1); reports bad input with a
    one-line usage error, and a scheme the command's GAME does not take as that game's
    refusal (exit 1)."""

    name = "deal"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, DealNumber):
            return value
        try:
            return DealNumber.parse(value)
        except ValueError as exc:
            problem = exc
        # A game that takes no ``ms`` numbers says so whatever the number, out of range too,
        # as for a number in range (``ms:5``): exit 1.
        name, schemes = _game_schemes(ctx)
        if schemes is not None:
            try:
                DealNumber.parse(value, schemes, name)
            except SchemeNotTaken as exc:
                raise BadDeal(str(exc)) from None
            except ValueError:
                pass  # the number's own fault, said below
        self.fail(str(problem), param, ctx)


def _game_schemes(ctx: click.Context | None) -> tuple[str, tuple[str, ...] | None]:
    """The command's GAME (an eager argument: read before the options) and the deal schemes it
    takes; ``None`` for the schemes when there is no GAME or it is unknown (the command says
    so)."""
    name = None if ctx is None else ctx.params.get("game")
    if ctx is None or not isinstance(name, str):
        return "", None
    from patience_core.cli._group import get_host

    try:
        return name, get_host(ctx).game_class(name).deal_schemes
    except PatienceError:
        return name, None


DEAL = DealType()


#: Digits (leading zeros aside) a whole number on the command line may have: a longer one is
#: refused as out of range in a short line, before Python is asked to read it (it reads no more
#: than 4,300 digits, and click's message would repeat them all).
MAX_DIGITS = 30
#: The longest text of a number on the command line that a message repeats whole; longer text
#: is shown by its first 20 characters and "...".
SHOWN_TEXT = 40


def shown_text(text: str) -> str:
    """``text`` the user gave, quoted for a message: whole up to :data:`SHOWN_TEXT` characters,
    else its first 20 and ``...`` (control characters as ``?``)."""
    return shown(text, SHOWN_TEXT if len(text.strip()) <= SHOWN_TEXT else 23)


def number_problem(text: str) -> str | None:
    """What is wrong with ``text``, given on the command line for a number, that no parameter
    type should repeat whole or hand to Python: a whole number of more than :data:`MAX_DIGITS`
    digits (``a number of 5000 digits is out of range``), or text longer than
    :data:`SHOWN_TEXT` characters that is not one (``'xxxxxxxxxxxxxxxxxxxx...' is not a
    number``), or text Python would read as a number but a user may not mean as one: digits
    other than 0-9 (``１２``, ``٣``) or ``_`` between them (``1_000``); ``None`` for anything
    else, for the parameter type to read."""
    core = text.strip()
    if not core.isascii() or "_" in core:
        return f"{shown_text(text)} is not a number (digits 0-9 only, no '_')"
    digits = core[1:] if core[:1] in ("+", "-") else core
    if digits.isascii() and digits.isdigit():
        significant = len(digits.lstrip("0"))
        return (
            f"a number of {significant} digits is out of range"
            if significant > MAX_DIGITS
            else None
        )
    if len(core) > SHOWN_TEXT:
        try:
            float(core)
        except ValueError:
            return f"{shown_text(text)} is not a number"
        return f"{shown_text(text)} is too long for a number ({SHOWN_TEXT} characters at most)"
    return None


def _refuse_odd_text(
    kind: click.ParamType[Any, Any],
    value: Any,
    param: click.Parameter | None,
    ctx: click.Context | None,
) -> None:
    """Refuse ``value`` for a number type ``kind`` in one short line when :func:`number_problem`
    finds fault with its text: a number of 5000 digits is out of range, never repeated whole
    nor handed to Python (which refuses it with advice about its own limits), and digits
    Python reads but a user may not mean (``1_000``, ``１２``) are not a number.

    :raises click.BadParameter: (``kind.fail``) then.
    """
    if isinstance(value, str):
        problem = number_problem(value)
        if problem:
            kind.fail(problem, param, ctx)


class WholeNumberType(click.IntRange):
    """A whole number from ``min`` to ``max`` (``None``: no bound), as :class:`click.IntRange`
    reads it, with every refusal one short line (:func:`_refuse_odd_text`)."""

    name = "integer"

    def __init__(self, min: int | None = None, max: int | None = None) -> None:
        super().__init__(min=min, max=max)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        _refuse_odd_text(self, value, param, ctx)
        return super().convert(value, param, ctx)


#: A count of 1 or more (``--nodes``).
COUNT = WholeNumberType(min=1)


class SecondsType(click.FloatRange):
    """A search budget in seconds: a finite number from ``min`` (0.01) to ``max`` (none)
    (``nan`` and ``inf`` are refused as usage errors, exit status 2, like any other bad option
    value; text of more than 30 digits or 40 characters too, in a short line:
    :func:`number_problem`)."""

    #: Click's messages say "'x' is not a valid number of seconds." (the options that take
    #: it give ``metavar="SECONDS"`` for the help).
    name = "number of seconds"

    def __init__(self, min: float = 0.01, max: float | None = None) -> None:
        super().__init__(min=min, max=max)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        _refuse_odd_text(self, value, param, ctx)
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(
                f"the budget must be a finite number of seconds, not {shown_text(str(value))}",
                param,
                ctx,
            )
        return number


#: The ``--budget`` of ``solve`` and ``simulate``.
SECONDS = SecondsType()


def random_deal() -> DealNumber:
    """A random deal number (0..2**32-1) for when the user gives none."""
    return DealNumber(secrets.randbelow(2**32))


option_flag = click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="A game option (see `patience rules GAME`); repeatable.",
)


def chosen_mode(thoughtful: bool, honest: bool) -> str | None:
    """The information mode the flags ``--thoughtful`` and ``--honest`` chose (``"thoughtful"``,
    ``"honest"``, or ``None`` for neither). Two boolean flags rather than click's flag values of
    one parameter: with those, click keeps the last flag given and says nothing of the other.

    :raises click.UsageError: for both (they exclude each other).
    """
    if thoughtful and honest:
        raise click.UsageError("--thoughtful and --honest exclude each other")
    if thoughtful:
        return THOUGHTFUL
    return HONEST if honest else None


def from_option(text: str) -> Callable[[F], F]:
    """``--from FILE`` (``-`` for standard input), the position to start from, with ``text`` for
    its help. A :class:`click.Path` (for shell completion) that checks nothing: a file that
    cannot be read is told by :func:`position_from_file` in one line, exit status 1, as every
    bad file is."""
    return click.option(
        "--from",
        "from_file",
        type=click.Path(readable=False, allow_dash=True),
        metavar="FILE",
        help=text,
    )


def is_save_data(data: object) -> bool:
    """Whether a position file's JSON object (:func:`~patience_core.games.json_object`) looks
    like a saved game (the save format, or with ``moves`` and ``deal``) rather than a
    position."""
    return isinstance(data, dict) and (
        data.get("format") == SAVE_FORMAT or ("moves" in data and "deal" in data)
    )


def position_from_file(
    host: PluginHost, name: str, chosen: Mapping[str, str], path: str
) -> tuple[Game, Position, str]:
    """The game and position held by the file at ``path`` (``-`` for standard input), for
    ``--from``: a saved game's current position (:func:`~patience_core.play.load_session`),
    else position JSON or a text format of the game (:mod:`patience_core.games`, "position
    files"), with the options it records merged with the ``chosen`` ones.

    :param chosen: the options given with ``--option`` (refused for a saved game, which
        records its own).
    :returns: (the game with its options, the position, a label naming the file and, for a
        saved game, the move reached).
    :raises click.UsageError: for options given with a saved game, or disagreeing with the
        ones a position file records.
    :raises BadSave: naming the file, for a file that cannot be read, holds no position of
        ``name`` (a saved game of another game included) or records a bad option.
    :raises PatienceError: for an unknown game or a bad option value.
    """
    registered = host.game_class(name).name  # UnknownGame, saying why a plugin is missing
    text = read_position_text(path)
    data = json_object(text)
    if is_save_data(data):
        if path == "-":
            raise BadSave("a saved game cannot be read from standard input: give its file name")
        if chosen:
            raise click.UsageError("--option cannot be used with a saved game")
        _saved, session = load_session(Path(path), host.saved_game)
        if session.game.name != registered:
            raise BadSave(f"{path} holds a saved {session.game.name} game, not {name}")
        return session.game, session.position, f"{path} (after move {len(session.moves)})"
    recorded = recorded_options(data, registered, path)
    if recorded is not None and any(recorded.get(k, v) != v for k, v in chosen.items()):
        raise click.UsageError(
            f"--option disagrees with the options recorded in {path}: {recorded}"
        )
    try:
        game = host.game(name, {**(recorded or {}), **chosen})
    except BadOption as exc:
        if recorded:
            try:
                host.game(name, chosen)
            except BadOption:
                raise exc from None  # the options typed are bad themselves
            raise BadSave(f"{path}: {exc}") from None  # the options the file records are bad
        raise
    try:
        position = read_position(game, text, data)
    except BadSave as exc:
        raise BadSave(f"{path}: {exc}") from None
    return game, position, path


def file_path(text: str, what: str, kind: str = "file", reading: bool = False) -> Path:
    """``text``, given as the path of a file, as a :class:`~pathlib.Path`; refused when it names
    a folder, by its form or because it is one.

    By its form: empty (the current folder), ``.``, ``..``, or ending in a path separator
    (``saves/``, ``saves/.``), whether or not such a folder exists. :class:`~pathlib.Path` drops
    a final separator, so ``saves/`` would otherwise be taken as a file named ``saves``.

    :param what: the option or argument, for the message (``--file``).
    :param kind: what it should name (``save file``).
    :param reading: the file is to be read (``score``, ``hint``, ``play --resume``): an
        existing folder is then told by the one rule of a file that cannot be read
        (docs/cli.md), ``cannot read /tmp: Is a directory``, as ``--from`` tells it.
    :raises PatienceError: one line: ``--file names a folder, not a save file: 'saves/'``.
    :raises BadSave: with ``reading``, ``cannot read PATH: Is a directory``.
    """
    path = Path(text)
    try:
        is_folder = path.is_dir()
    except OSError as exc:  # a name too long, ...
        if reading:
            raise cannot_read(text, exc) from None
        raise
    if reading and is_folder:
        raise cannot_read(text or ".", IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR)))
    if os.path.basename(text) in ("", ".", "..") or is_folder:
        # An empty path is the current folder: say so.
        raise PatienceError(f"{what} names a folder, not a {kind}: {text or '.'!r}")
    return path


def refuse_save_of_missing_game(host: PluginHost, game: str, file: str | None) -> None:
    """For ``play GAME --resume`` of a game not installed now: when the save it would resume
    (``file``, else GAME's default save) is a save of GAME, say so in one line, as ``score``
    and ``hint`` say it (:meth:`PluginHost.saved_game`); else return, for the command to say
    the game is unknown.

    :raises BadSave: ``PATH: cannot load the saved GAME game: 'GAME' is not installed now
        (why); the save is kept``. The save is only read.
    """
    try:
        path = file_path(file, "--file", "save file") if file is not None else None
        path = path or default_save_path(game)
        saved = read_save(path)
    except (PatienceError, OSError):
        return  # no save of it there: an unknown game is all there is to say
    if saved.game == game:
        restore_session(saved, host.saved_game, path)  # raises, naming the save and the game
