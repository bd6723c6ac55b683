"""The full-screen player and what happens outside it: a terminal that goes away and signals
noticed whatever the app is doing, and a Textual driver that does not hang on a terminal gone
(docs/play.md, "When the terminal goes away").

A terminal closed while a shell that ignores SIGHUP (``trap '' HUP``, some multiplexers) runs
the player sends the player no signal at all: the kernel tells only the session leader. From
then on reading the terminal answers end of file at once and writing it fails with EIO. Textual
8's Linux driver handles neither: its input thread reads end of file in a loop (all of a CPU,
and the app never hears of it), and its output thread dies on the first EIO, after which the
app's next writes fill that thread's queue and block the event loop for good, so that even
SIGTERM could no longer end the app.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any, TextIO, cast

from textual.driver import Driver

__all__ = [
    "forgiving_driver",
    "restore_terminal",
    "terminal_settings",
    "watch_outside",
]

# What Textual's driver writes when it leaves the screen (the keyboard protocol popped, the
# mouse and bracketed paste off, line wrap on, the main screen and the cursor back).
_RESTORE = (
    "\x1b[<u\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?2004l\x1b[?7h"
    "\x1b[?1004l\x1b[?1049l\x1b[?25h"
)

# poll() reports these whatever was asked: the terminal hung up, or the descriptor unusable.
_GONE = sum(getattr(select, name, 0) for name in ("POLLHUP", "POLLERR", "POLLNVAL"))


class _Unfailing:
    """The driver's output stream, whose writes cannot fail: once the terminal is gone, what
    is written goes nowhere (there is no one to show it to) instead of killing Textual's output
    thread, whose death would block every later write of the app.

    :param stream: the terminal's stream (Textual's ``sys.__stderr__``).
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        #: Whether a write or flush failed: the terminal is gone.
        self.failed = False

    def write(self, text: str) -> int:
        """Write ``text``, or drop it when the terminal is gone; answers its length."""
        if not self.failed:
            try:
                self._stream.write(text)
            except (OSError, ValueError):  # EIO, or a stream closed at exit
                self.failed = True
        return len(text)

    def flush(self) -> None:
        """Flush, unless the terminal is gone."""
        if not self.failed:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self.failed = True

    def fileno(self) -> int:
        """The terminal's file descriptor."""
        return self._stream.fileno()

    def isatty(self) -> bool:
        """Whether the stream is a terminal (as the stream says)."""
        return self._stream.isatty()


def terminal_settings(descriptor: int) -> list[Any] | None:
    """The settings of the terminal ``descriptor`` (``termios``), to restore them with
    :func:`restore_terminal`; ``None`` where there are none (not a terminal, Windows)."""
    try:
        import termios  # not on Windows

        return termios.tcgetattr(descriptor)
    except Exception:  # no termios, not a terminal, a terminal gone (termios.error)
        return None


def restore_terminal(descriptor: int, settings: list[Any] | None, screen: int) -> None:
    """Put back what the full-screen player changed in a terminal, for an end that cannot wait
    for Textual's driver to do it: the ``settings`` of :func:`terminal_settings` on
    ``descriptor``, and the main screen, the cursor, ... on ``screen``. Best effort: a terminal
    gone is left alone."""
    if settings is not None:
        try:
            import termios

            termios.tcsetattr(descriptor, termios.TCSANOW, settings)
        except Exception:  # a terminal gone (termios.error)
            pass
    with contextlib.suppress(OSError):
        os.write(screen, _RESTORE.encode())


def forgiving_driver(driver_class: type[Driver]) -> type[Driver]:
    """``driver_class`` whose output survives the terminal going away (see :class:`_Unfailing`).

    Textual offers no hook for its output stream, so the subclass wraps the driver's private
    ``_file`` (which Textual's Linux and Windows drivers hand to their output thread, the only
    user of it) just after the driver sets it; a driver without one is answered unchanged.
    """

    class ForgivingDriver(driver_class):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            stream = getattr(self, "_file", None)
            if stream is not None:
                # Only write, flush, fileno and isatty are used of it (Textual's WriterThread).
                self._file = cast(TextIO, _Unfailing(stream))

    ForgivingDriver.__name__ = ForgivingDriver.__qualname__ = f"Forgiving{driver_class.__name__}"
    return ForgivingDriver


@contextlib.contextmanager
def watch_outside(
    descriptors: tuple[int, ...], numbers: tuple[int, ...], told: Callable[[int], None]
) -> Iterator[None]:
    """Call ``told`` from a thread of its own with each signal of ``numbers`` received while the
    block runs, and with SIGHUP if the terminal of ``descriptors`` goes away (hangs up: its
    window closed, its pseudo-terminal's other end closed; then no more is told).

    A signal handler of Python's runs only when the main thread runs Python code, never while it
    is stuck in a call that does not return: the signals come here through the wakeup
    descriptor (:func:`signal.set_wakeup_fd`) instead, whichever thread the system gave them to.
    Their handlers must be set (to anything but the defaults) for them to be written there. The
    thread sleeps in ``poll`` meanwhile, asking nothing of the terminal, so input waiting to be
    read does not wake it. Does nothing off the main thread (no wakeup descriptor can be set
    there) or where ``poll`` is missing (Windows): the handlers alone end the app then.

    :param descriptors: the terminal's file descriptors (standard input and the screen's); those
        that are no terminal are not watched (a pipe's writer closing is no terminal gone).
    :param numbers: the signals to tell of; others are left to their handlers.
    :param told: what to do with a signal's number.
    """
    hang_up = getattr(signal, "SIGHUP", None)
    if not hasattr(select, "poll") or threading.current_thread() is not threading.main_thread():
        yield
        return
    terminals = [fd for fd in descriptors if os.isatty(fd)]
    received, wakeup = os.pipe()
    stop, stopper = os.pipe()
    os.set_blocking(wakeup, False)  # as set_wakeup_fd wants: a full pipe loses a byte, not all
    poller = select.poll()
    for descriptor in terminals:
        poller.register(descriptor, 0)
    poller.register(received, select.POLLIN)
    poller.register(stop, select.POLLIN)

    def watch() -> None:
        while True:
            ready = dict(poller.poll())
            if stop in ready:
                return
            if received in ready:
                for number in os.read(received, 512):
                    if number in numbers:
                        told(number)
            if hang_up is not None and any(ready.get(fd, 0) & _GONE for fd in terminals):
                told(hang_up)
                for fd in terminals:
                    poller.unregister(fd)  # gone for good: told once
                terminals.clear()

    previous = signal.set_wakeup_fd(wakeup, warn_on_full_buffer=False)
    watcher = threading.Thread(target=watch, name="patience-outside", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(previous)
        os.write(stopper, b"x")
        watcher.join()
        for descriptor in (received, wakeup, stop, stopper):
            os.close(descriptor)
