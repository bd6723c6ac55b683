"""The exceptions patience raises for bad input. Each carries a one-line, user-facing message.

The CLI turns every :class:`PatienceError` into that line on stderr and a non-zero exit code.
"""

from __future__ import annotations

__all__ = [
    "BadDeal",
    "BadMoveText",
    "BadOption",
    "BadSave",
    "IllegalMove",
    "PatienceError",
    "PluginError",
    "UnknownGame",
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
