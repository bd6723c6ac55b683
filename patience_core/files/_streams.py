"""Standard streams whose reader is gone."""

from __future__ import annotations

import contextlib
import os
from typing import IO

__all__ = ["silence_output"]


def silence_output(*streams: IO[str]) -> None:
    """Point ``streams`` (standard output, standard error) at ``os.devnull``: their reader is
    gone (a closed pipe, a closed terminal, a full disk), and Python's flush of them at exit
    would fail again (the Python documentation's "Note on SIGPIPE"), turning the exit status
    into 120. A stream without a file descriptor is left as it is."""
    with contextlib.suppress(OSError, ValueError):  # not a file (a test's capture), closed
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in streams:
            os.dup2(devnull, stream.fileno())
