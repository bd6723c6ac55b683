"""The full-screen player's own use of a job-control signal."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType

__all__ = ["before_stop"]


def before_stop(call: Callable[[], None]) -> None:
    """Run ``call`` when the process is stopped from outside (SIGTSTP: the shell's job control,
    ``kill -TSTP``), before the handler already in place (Textual's driver, which restores the
    terminal and stops the process) runs. Textual publishes no suspend signal for it, so the
    clock is stopped here (docs/play.md, "The full-screen player").

    Does nothing off the main thread, where no signal handler can be set, and when no handler is
    in place (a headless app): nothing then stops the process.
    """
    stop = getattr(signal, "SIGTSTP", None)
    if stop is None or threading.current_thread() is not threading.main_thread():
        return
    driver_handler = signal.getsignal(stop)
    if not callable(driver_handler):
        return

    def stopped(number: int, frame: FrameType | None) -> None:
        call()
        driver_handler(number, frame)

    signal.signal(stop, stopped)
