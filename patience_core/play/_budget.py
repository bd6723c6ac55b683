"""The dead check's budget: ``$PATIENCE_DEAD_CHECK`` seconds at a terminal, a node budget
without a time limit for piped commands (the same transcript on every machine)."""

from __future__ import annotations

import os
import re

from patience_core.errors import PatienceError, shown
from patience_core.solve import DEAD_CHECK_NODES

__all__ = ["DEAD_CHECK_DEFAULT", "DEAD_CHECK_ENV", "DEAD_CHECK_PIPED_NODES"]
__all__ += ["dead_check_budget", "dead_check_seconds"]

_PLAIN_NUMBER = re.compile(r"^[+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?$|^[0-9]+\.$")


def _not_plain_number(text: str) -> bool:
    """Whether ``text`` is anything but a plain decimal number (``nan``, ``1_0``, ``0x1``)."""
    return not _PLAIN_NUMBER.match(text)


#: The environment variable that sets the dead check's seconds (0 turns it off).
DEAD_CHECK_ENV = "PATIENCE_DEAD_CHECK"
#: The dead check's default seconds.
DEAD_CHECK_DEFAULT = 0.3
#: The dead check's node budget when the commands come from a pipe: no time limit, so a piped
#: transcript is the same on every machine, and small, so piped games stay fast.
DEAD_CHECK_PIPED_NODES = 3_000


def dead_check_seconds(enabled: bool = True, environ: dict[str, str] | None = None) -> float:
    """The dead check's time per position when it is on: 0 when ``enabled`` is false, else
    ``$PATIENCE_DEAD_CHECK`` seconds (0 turns it off for good), else
    :data:`DEAD_CHECK_DEFAULT`.

    :raises PatienceError: for a value that is not a number >= 0.
    """
    if not enabled:
        return 0.0
    text = (os.environ if environ is None else environ).get(DEAD_CHECK_ENV, "").strip()
    if not text:
        return DEAD_CHECK_DEFAULT
    try:
        value = -1.0 if _not_plain_number(text) else float(text)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise PatienceError(
            f"{DEAD_CHECK_ENV} must be a number of seconds >= 0, not {shown(text, 23)}"
        )
    return value


def dead_check_budget(
    interactive: bool, environ: dict[str, str] | None = None
) -> tuple[float, int]:
    """The dead check's ``(seconds, nodes)`` per position: :func:`dead_check_seconds` and
    :data:`DEAD_CHECK_NODES` at a terminal; for piped commands, unless
    ``$PATIENCE_DEAD_CHECK`` is set, no time limit and :data:`DEAD_CHECK_PIPED_NODES`.

    :raises PatienceError: for a ``$PATIENCE_DEAD_CHECK`` that is not a number >= 0.
    """
    env = os.environ if environ is None else environ
    seconds = dead_check_seconds(True, dict(env))
    if not interactive and not env.get(DEAD_CHECK_ENV, "").strip():
        return (3600.0 if seconds > 0 else 0.0), DEAD_CHECK_PIPED_NODES
    return seconds, DEAD_CHECK_NODES
