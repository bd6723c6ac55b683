"""Parameter types and options shared by several commands."""

from __future__ import annotations

import math
import os
import secrets
from pathlib import Path
from typing import Any

import click

from patience_core.engine import DealNumber, shown
from patience_core.errors import PatienceError
from patience_core.solve import HONEST, THOUGHTFUL


class DealType(click.ParamType):  # type: ignore[type-arg,unused-ignore]
    """A deal number: ``N`` (0..2**32-1) or ``ms:N`` (1..2**31-1); reports bad input with a
    one-line usage error."""

    name = "deal"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, DealNumber):
            return value
        try:
            return DealNumber.parse(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


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
    ``"honest"``, or ``None`` for neither).

    :raises click.UsageError: for both (they exclude each other).
    """
    if thoughtful and honest:
        raise click.UsageError("--thoughtful and --honest exclude each other")
    if thoughtful:
        return THOUGHTFUL
    return HONEST if honest else None


def file_path(text: str, what: str, kind: str = "file") -> Path:
    """``text``, given as the path of a file, as a :class:`~pathlib.Path`; refused when it names
    a folder, by its form or because it is one.

    By its form: empty (the current folder), ``.``, ``..``, or ending in a path separator
    (``saves/``, ``saves/.``), whether or not such a folder exists. :class:`~pathlib.Path` drops
    a final separator, so ``saves/`` would otherwise be taken as a file named ``saves``.

    :param what: the option or argument, for the message (``--file``).
    :param kind: what it should name (``save file``).
    :raises PatienceError: one line: ``--file names a folder, not a save file: 'saves/'``.
    """
    path = Path(text)
    if os.path.basename(text) in ("", ".", "..") or path.is_dir():
        # An empty path is the current folder: say so.
        raise PatienceError(f"{what} names a folder, not a {kind}: {text or '.'!r}")
    return path
