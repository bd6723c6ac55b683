"""Parameter types and options shared by several commands."""

from __future__ import annotations

import math
import os
import secrets
from pathlib import Path
from typing import Any

import click

from patience_core.engine.deal import DealNumber
from patience_core.errors import PatienceError
from patience_core.hints import HONEST, THOUGHTFUL


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


class SecondsType(click.FloatRange):
    """A search budget in seconds: a finite number from ``min`` (0.01) to ``max`` (none)
    (``nan`` and ``inf`` are refused as usage errors, exit status 2, like any other bad option
    value)."""

    name = "seconds"

    def __init__(self, min: float = 0.01, max: float | None = None) -> None:
        super().__init__(min=min, max=max)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"the budget must be a finite number of seconds, not {value}", param, ctx)
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
