"""The exceptions patience raises for bad input. Each carries a one-line, user-facing message.

The CLI turns every :class:`PatienceError` into that line on stderr and a non-zero exit code.
"""

from __future__ import annotations

import contextlib
import reprlib
import signal
from collections.abc import Iterator

__all__ = [
    "BadDeal",
    "BadMoveText",
    "BadOption",
    "BadSave",
    "IllegalMove",
    "PatienceError",
    "PluginError",
    "UnknownGame",
    "ctrl_c_ignored",
    "digits_of",
    "one_line",
    "plugin_behind",
    "shown",
]


class PatienceError(Exception):
    """Base class: a problem with the user's input, reported as one line."""


class UnknownGame(PatienceError):
    """No installed plugin provides a game of that name."""


class BadDeal(PatienceError):
    """A deal number that is malformed, out of range or not offered by the game."""


class BadOption(PatienceError):
    """An unknown game option or a value it does not take."""


class BadMoveText(PatienceError):
    """Move text that cannot be read (unknown pile or card name, garbled notation)."""


class IllegalMove(PatienceError):
    """A move the rules do not allow in the current position."""


class BadSave(PatienceError):
    """A saved game that is missing, corrupt, of another format version, or not a patience save."""


class PluginError(PatienceError):
    """A plugin that cannot be used (import error, broken hooks, duplicate game name)."""


#: The entry-point group of patience's plugins (as ``patience_core.plugins`` loads them).
PLUGIN_GROUP = "patience"

#: Top-level modules of patience-core and the libraries it runs on: never a plugin's code.
CORE_MODULES = ("patience_core", "click", "pluggy", "attrs", "__main__")


def plugin_behind(exc: BaseException) -> str | None:
    """The distribution whose code raised ``exc`` (the deepest frame of its traceback outside
    patience-core and the libraries it uses that belongs to an installed distribution), or
    ``None``. The command line names it as a broken plugin; ``patience simulate`` asks it in
    the process that played the deal, where the traceback still exists."""
    from importlib import metadata

    try:
        owners = metadata.packages_distributions()
    except Exception:
        return None
    found = None
    tb = exc.__traceback__
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        top = module.split(".")[0]
        if top and top not in CORE_MODULES:
            # Only a plugin (a distribution with a "patience" entry point) is blamed: a
            # library's exception (textual, rich, dask) is not a plugin's failure.
            plugins = [dist for dist in owners.get(top, ()) if _is_plugin(dist)]
            if plugins:
                found = plugins[0]
        tb = tb.tb_next
    return found


def _is_plugin(dist: str) -> bool:
    from importlib import metadata

    try:
        return bool(metadata.distribution(dist).entry_points.select(group=PLUGIN_GROUP))
    except Exception:
        return False


def digits_of(number: int) -> int:
    """How many decimal digits ``number`` has: exact up to about 3,900 digits, beyond that
    found without writing the number out (and one short at most). Python refuses to write a
    whole number of more than 4,300 digits, so a message about such a number (a count the user
    typed) gives its size instead."""
    bits = abs(number).bit_length()
    if bits <= 13_000:
        return len(str(abs(number)))
    return int((bits - 1) * 0.30102999566398120) + 1


def _cut(text: str, limit: int) -> str:
    """``text`` with control characters as ``?``, cut to ``limit`` characters with ``...``."""
    clean = "".join(ch if ch.isprintable() else "?" for ch in text[: limit + 1])
    return clean[: limit - 3] + "..." if len(clean) > limit else clean


class _Shown(reprlib.Repr):
    """:mod:`reprlib` bounds the repr of any value (containers, numbers, objects whose
    ``__repr__`` fails); text is cleaned and cut at its end, where the reader expects it."""

    def repr_str(self, x: str, level: int) -> str:
        return repr(_cut(x, self.maxstring))

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 4 * self.maxlong:  # Python will not write >4,300 digits at all
            return f"{'-' if x < 0 else ''}<a number of {digits_of(x):,} digits>"
        return super().repr_int(x, level)


def shown(value: object, limit: int = 40, quote: bool = True) -> str:
    """``value`` as a message echoes it (what the user typed, a path, a plugin's text): on one
    line (control characters as ``?``), at most about ``limit`` characters, cut with ``...``.

    The one helper for every echo of user or plugin text in a message (docs/cli.md, "Messages").

    :param value: text is stripped of surrounding spaces first; any other value is shown by a
        :mod:`reprlib` repr bounded to ``limit`` characters.
    :param limit: the most characters of the text kept, ``...`` included (quotes not counted).
    :param quote: ``False`` gives text without the quotes of its repr (for a text that is a
        message itself, e.g. an error's).
    :returns: e.g. ``'xxxxxxxxxxxxxxxxxxxx...'`` for 5,000 ``x`` and ``limit=23``.
    """
    if isinstance(value, str):
        text = _cut(value.strip(), limit)
        return repr(text) if quote else text
    repr_ = _Shown()
    repr_.maxstring = repr_.maxother = repr_.maxlong = limit
    repr_.maxlevel = 2
    return repr_.repr(value)


#: The most characters of an error's text :func:`one_line` keeps.
ONE_LINE_LIMIT = 200


def one_line(exc: BaseException) -> str:
    """``exc`` as a one-line message shows it: ``Type: the first line of its text``, or the type's
    name alone when it has no text (``GeneratorExit``, ``MemoryError``, a bare ``SystemExit``),
    never ``Type: `` with nothing after it. The text is cut by :func:`shown` to
    :data:`ONE_LINE_LIMIT` characters.
    """
    text = str(exc)
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    name = type(exc).__name__
    return f"{name}: {shown(first, ONE_LINE_LIMIT, quote=False)}" if first else name


@contextlib.contextmanager
def ctrl_c_ignored() -> Iterator[None]:
    """Ignore Ctrl-C (SIGINT) inside the block, then put the handler back: for work that ends
    a command already stopping on one, where a second one would print a traceback from
    wherever it landed. Outside the main thread it changes nothing."""
    try:
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        handler = None
    try:
        yield
    finally:
        if handler is not None:
            signal.signal(signal.SIGINT, handler)


class CtrlCWatch:
    """Whether Ctrl-C (SIGINT) really came while a block ran (:func:`ctrl_c_watched`): a
    ``KeyboardInterrupt`` raised by a plugin's own code (``raise KeyboardInterrupt`` in its
    module) is then told apart from the user's."""

    def __init__(self) -> None:
        #: True once SIGINT arrived, or when it cannot be told (Ctrl-C is then always believed).
        self.pressed = False


@contextlib.contextmanager
def ctrl_c_watched() -> Iterator[CtrlCWatch]:
    """A block in which SIGINT still raises ``KeyboardInterrupt`` but is also noted in the
    :class:`CtrlCWatch` it gives. Where Python's own handler is not in place (another one was
    set, or outside the main thread), nothing is changed and ``pressed`` is True from the start.
    """
    watch = CtrlCWatch()

    def noted(signum: int, frame: object) -> None:
        watch.pressed = True
        raise KeyboardInterrupt

    try:
        if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            raise ValueError("another handler")
        signal.signal(signal.SIGINT, noted)
    except ValueError:  # not the main thread, or not Python's handler
        watch.pressed = True
        yield watch
        return
    try:
        yield watch
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
