"""The play clock: the seconds a game has been played, pauses left out.

The clock counts active time only. A full-screen front end pauses it when the app loses focus
or is suspended; the line player cannot tell a player thinking from one who walked away, so it
counts the wall time between its own prompts, at most :data:`LINE_CAP_SECONDS` per command
(docs/play.md, "The line player"). The total is saved with the game (the save's ``elapsed``)
and goes on from there when the game is resumed.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["LINE_CAP_SECONDS", "PlayClock"]

#: The most seconds the line player counts for one command (the wall time between prompts).
LINE_CAP_SECONDS = 60.0


class PlayClock:
    """Active seconds of play, resumable and pausable.

    :param elapsed: seconds already played (from the save), >= 0.
    :param running: start counting at once.
    :param now: the monotonic clock in seconds (tests pass their own).
    """

    def __init__(
        self,
        elapsed: float = 0.0,
        *,
        running: bool = True,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._now = now
        self._elapsed = max(0.0, float(elapsed))
        self._since: float | None = now() if running else None

    @property
    def running(self) -> bool:
        """Whether the clock counts now."""
        return self._since is not None

    @property
    def seconds(self) -> float:
        """The active seconds played, the running stretch included."""
        if self._since is None:
            return self._elapsed
        return self._elapsed + max(0.0, self._now() - self._since)

    def pause(self, cap: float | None = None) -> None:
        """Stop counting (nothing happens when paused already).

        :param cap: count at most this many seconds of the stretch that ends here.
        """
        if self._since is None:
            return
        stretch = max(0.0, self._now() - self._since)
        self._elapsed += stretch if cap is None else min(stretch, cap)
        self._since = None

    def resume(self) -> None:
        """Count again (nothing happens when running already)."""
        if self._since is None:
            self._since = self._now()

    def lap(self, cap: float = LINE_CAP_SECONDS) -> None:
        """End the stretch since the last lap, counting at most ``cap`` seconds of it, and
        go on counting (the line player calls it at each prompt)."""
        running = self.running
        self.pause(cap)
        if running:
            self.resume()

    def reset(self, elapsed: float = 0.0) -> None:
        """Start again from ``elapsed`` seconds, running (a new deal)."""
        self._elapsed = max(0.0, float(elapsed))
        self._since = self._now()

    def text(self) -> str:
        """The time for a status line: ``"4:07"`` or ``"1:02:09"``."""
        total = int(self.seconds)
        hours, rest = divmod(total, 3600)
        minutes, seconds = divmod(rest, 60)
        return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
