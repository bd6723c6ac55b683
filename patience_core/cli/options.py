"""Parameter types and options shared by several commands."""

from __future__ import annotations

import math
import secrets
from typing import Any

import click

from patience_core.engine.deal import DealNumber
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
