"""The checks of a game class's declaration, made once, when its plugin registers it.

Layer 3. :func:`declaration_problem` is asked by :meth:`GameRegistry.add
<patience_core.games.GameRegistry.add>`: a wrong class attribute makes the plugin broken when it
loads (``patience plugins`` names it), never a failure later in a command. What a game answers
while it is played is not checked: plugin code is trusted once loaded, and the conformance kit
(:mod:`patience_core.testing`) is where a plugin author learns an answer is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from patience_core.engine import AISLERIOT, MS
from patience_core.errors import shown
from patience_core.games._options import GameOption

if TYPE_CHECKING:
    from patience_core.games._game import Game, PositionFormat

__all__ = [
    "CORE_FORMATS",
    "DEAL_SCHEMES",
    "GAME_NAME",
    "GAME_NAME_LIMIT",
    "TITLE_LIMIT",
    "declaration_problem",
]

#: A game's name: lower-case letters and digits in words joined by single hyphens, as the command
#: line and saved games take it (``bakers-game``).
GAME_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
#: The longest game name (a saved game keeps at most this many characters).
GAME_NAME_LIMIT = 64
#: The longest game title: it is a cell of ``patience list``'s table, as wide as the longest
#: title, and a line of ``play`` (the shipped games' titles have 12 characters at most).
TITLE_LIMIT = 60
#: The deal numbering schemes a game may declare in ``deal_schemes``.
DEAL_SCHEMES = (AISLERIOT, MS)
#: Position format names the core keeps for itself (``patience deal --format``).
CORE_FORMATS = ("text", "json")
_WORD = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


def _option_problem(option: object) -> str | None:
    """What is wrong with one entry of ``options``, or ``None``."""
    if not isinstance(option, GameOption):
        return f"holds {shown(option)}, not a GameOption"
    if not _WORD.match(str(option.name)):
        return f"has an option named {shown(option.name)}, not a lower-case hyphenated word"
    if not isinstance(option.choices, tuple) or not option.choices:
        return f"option {option.name!r} has choices {shown(option.choices)}, not a tuple of texts"
    if option.default not in option.choices:
        return (
            f"option {option.name!r} has the default {shown(option.default)}, not one of its "
            "choices"
        )
    return None


def _format_problem(fmt: PositionFormat) -> str | None:
    """What is wrong with one entry of ``formats``, or ``None``."""
    if not _WORD.match(str(fmt.name)) or fmt.name in CORE_FORMATS:
        return (
            f"has a format named {shown(fmt.name)}, not a lower-case word other than text and json"
        )
    if not callable(fmt.write):
        return f"format {fmt.name!r} has write {shown(fmt.write)}, not a function"
    return None


def _entries_problem(
    game: type[Game], attribute: str, kind: type, problem_of: Callable[[Any], str | None]
) -> str | None:
    """What is wrong with a class attribute that is a tuple of named entries (``options``,
    ``formats``): not a tuple, an entry of another kind or that ``problem_of`` finds wrong, or
    a name used twice; ``None`` when nothing is."""
    entries = getattr(game, attribute)
    if not isinstance(entries, tuple):
        return f"{attribute} is {shown(entries)}, not a tuple of {kind.__name__}"
    for entry in entries:
        problem = (
            f"holds {shown(entry)}, not a {kind.__name__}"
            if not isinstance(entry, kind)
            else problem_of(entry)
        )
        if problem:
            return f"{attribute} {problem}"
    names = [entry.name for entry in entries]
    if len(set(names)) != len(names):
        return f"{attribute} declares a name twice"
    return None


def declaration_problem(game: type[Game]) -> str | None:
    """What is wrong with the declaration of game class ``game``, or ``None`` when nothing is.

    ``name``: lower-case letters and digits joined by single hyphens, at most
    :data:`GAME_NAME_LIMIT` characters; ``title``: one line of printable text of at most
    :data:`TITLE_LIMIT` characters (a cell of ``patience list``'s table); ``max_score``: a whole
    number of 1 or more; ``rules``: a text; ``options`` and ``formats``: tuples of
    :class:`GameOption` and :class:`PositionFormat`, no name twice; ``deal_schemes``: a tuple of
    :data:`DEAL_SCHEMES`; ``tableau_fan``: ``"down"`` or ``"right"``; and no abstract method left
    unimplemented.

    :param game: a :class:`Game` subclass.
    :returns: one line naming the attribute and what it holds, e.g. ``title is 42, not one line
        of text``.
    """
    from patience_core.games._game import PositionFormat

    name = getattr(game, "name", None)
    if not isinstance(name, str) or not GAME_NAME.match(name):
        return f"name is {shown(name)}, not lower-case letters, digits and hyphens (e.g. 'golf')"
    if len(name) > GAME_NAME_LIMIT:
        return f"name is {shown(name)}, of {len(name):,} characters, not {GAME_NAME_LIMIT} at most"
    title = getattr(game, "title", None)
    if not isinstance(title, str) or not title.strip() or not title.isprintable():
        return f"title is {shown(title)}, not one line of text"
    if len(title) > TITLE_LIMIT:
        return (
            f"title is {shown(title)}, of {len(title):,} characters, not {TITLE_LIMIT} at most "
            "(it is a cell of the `patience list` table)"
        )
    max_score = getattr(game, "max_score", None)
    if type(max_score) is not int or max_score < 1:
        return f"max_score is {shown(max_score)}, not a whole number of 1 or more"
    rules = getattr(game, "rules", None)
    if not isinstance(rules, str) or not rules.strip():
        return f"rules is {shown(rules)}, not a text"
    problem = _entries_problem(game, "options", GameOption, _option_problem)
    if problem:
        return problem
    schemes = game.deal_schemes
    if not isinstance(schemes, tuple) or not schemes or not set(schemes) <= set(DEAL_SCHEMES):
        return f"deal_schemes is {shown(schemes)}, not a tuple of 'aisleriot' and 'ms'"
    problem = _entries_problem(game, "formats", PositionFormat, _format_problem)
    if problem:
        return problem
    if game.tableau_fan not in ("down", "right"):
        return f"tableau_fan is {shown(game.tableau_fan)}, not 'down' or 'right'"
    missing = sorted(getattr(game, "__abstractmethods__", ()))
    if missing:
        return f"it does not implement {', '.join(missing)}"
    return None
