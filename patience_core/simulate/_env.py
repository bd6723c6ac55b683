"""Seconds given in an environment variable (``PATIENCE_STORE_TIMEOUT``,
``PATIENCE_DASK_TIMEOUT``), checked as what a user typed.

Layer 4.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping

from patience_core.errors import PatienceError, shown

__all__ = ["seconds_from_env"]

# A plain decimal number: no nan, inf, 0x1, 1_0, which float() would take.
_PLAIN_NUMBER = re.compile(r"[+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
#: The longest wait a variable may give: a day (more is a mistake, and SQLite's busy timeout
#: is held in milliseconds in a C int).
MAX_SECONDS = 86_400.0


def seconds_from_env(name: str, default: float, environ: Mapping[str, str] | None = None) -> float:
    """The seconds ``$name`` gives (a plain number > 0, at most a day), ``default`` when it is
    unset or empty.

    :raises PatienceError: one line naming the variable and what it takes, for anything else
        (``abc``, ``-1``, ``0``, ``nan``, ``inf``).
    """
    text = (os.environ if environ is None else environ).get(name, "").strip()
    if not text:
        return default
    value = float(text) if _PLAIN_NUMBER.fullmatch(text) else math.nan
    if not 0 < value <= MAX_SECONDS:
        raise PatienceError(
            f"{name} must be a number of seconds more than 0 and at most {MAX_SECONDS:g}, "
            f"not {shown(text, 23)}"
        )
    return value
