"""The game registry: the games the installed plugins provide, by name.

Layer 3. The plugin host passes one :class:`GameRegistry` to every plugin's
``patience_register_games`` hook (:mod:`patience_core.plugins.hookspecs`).
"""

from __future__ import annotations

import difflib
import pkgutil
from collections.abc import Iterator

import attrs

from patience_core.errors import PluginError, UnknownGame, shown
from patience_core.games._declaration import declaration_problem
from patience_core.games._game import Game
from patience_core.games._search import GameSearch

__all__ = ["LISTED_GAMES", "GameRegistry", "distribution_of"]

#: Up to this many installed games, an unknown game's message lists them all; with more, it
#: names the closest and ``patience list`` (a one-line message stays short).
LISTED_GAMES = 10


@attrs.define
class GameRegistry:
    """The games the installed plugins provide, by name. Passed to ``patience_register_games``.

    A plugin calls :meth:`add` once per game class. A game name belongs to the plugin named
    after it (:attr:`owners`: ``escalator`` to ``patience-escalator``), else to the first plugin
    that registers it (plugins load in the order docs/plugin-api.md gives): another claim is
    refused with a :class:`PluginError` naming both distributions, and a plugin that registers
    one name twice is refused too (it is broken, not a rival).
    """

    _games: dict[str, type[Game]] = attrs.field(factory=dict)
    _providers: dict[str, str] = attrs.field(factory=dict)
    _searches: dict[str, type[GameSearch] | str] = attrs.field(factory=dict)
    #: The distribution whose hook is running now; the plugin host sets it.
    current_plugin: str = "patience-core"
    #: Game names kept for the distribution named after them, whatever the load order
    #: (``{"escalator": "patience-escalator"}``); the plugin host sets it.
    owners: dict[str, str] = attrs.field(factory=dict)

    def add(self, game: type[Game], search: type[GameSearch] | str | None = None) -> None:
        """Register ``game`` (a :class:`Game` subclass) under ``game.name``.

        :param search: the game's search helpers for the solver: a
            :class:`~patience_core.games.GameSearch` subclass, or its import path
            (``"patience_bristol.search:BristolSearch"``), imported only when a command
            searches, so that commands that do not (``patience list``) start faster; default:
            the game's family search (``search_class``, for a game of a family) or the
            generic :class:`~patience_core.games.GameSearch`, which needs the rules alone.
        :raises PluginError: when ``game`` is not a Game subclass or ``search`` not a GameSearch
            subclass, the declaration is wrong (:func:`declaration_problem`: a class attribute
            missing or of the wrong kind, an abstract method not implemented), or the name is
            already taken (by this plugin too: a game registered twice).
        """
        if not (isinstance(game, type) and issubclass(game, Game)):
            raise PluginError(f"{self.current_plugin}: {shown(game)} is not a patience Game class")
        problem = declaration_problem(game)
        family_problem = getattr(game, "declaration_problem", None)
        if not problem and family_problem is not None:
            problem = family_problem()  # a family's parameter values
        if problem:
            raise PluginError(f"game class {game.__name__}: {problem}")
        if not (
            search is None
            or isinstance(search, str)
            or (isinstance(search, type) and issubclass(search, GameSearch))
        ):
            raise PluginError(
                f"game class {game.__name__}: its search is {shown(search)}, not a GameSearch "
                "class or its import path"
            )
        name = game.name
        if name in self._games and self._providers[name] == self.current_plugin:
            raise PluginError(f"it registers the game {name!r} twice")
        keeper = self._providers.get(name) or self.owners.get(name, self.current_plugin)
        if keeper != self.current_plugin:
            raise PluginError(
                f"game {name!r} is provided by both {keeper} and {self.current_plugin}; "
                f"keeping {keeper}"
            )
        self._games[name] = game
        self._providers[name] = self.current_plugin
        search = search or getattr(game, "search_class", None)
        if search is not None:
            self._searches[name] = search

    def search(self, name: str) -> type[GameSearch]:
        """The search class registered beside game ``name`` (imported now when it was given by
        its import path); :class:`GameSearch` (the generic one) for a game registered without
        one, or a name not registered.

        :raises PluginError: when an import path names no GameSearch class.
        """
        found = self._searches.get(name, GameSearch)
        if isinstance(found, str):
            cls = pkgutil.resolve_name(found)
            if not (isinstance(cls, type) and issubclass(cls, GameSearch)):
                raise PluginError(
                    f"the search of game {name!r} ({self._providers[name]}), {found}, is "
                    f"{shown(cls)}, not a GameSearch class"
                )
            self._searches[name] = found = cls
        return found

    def get(self, name: str) -> type[Game]:
        """The game class registered as ``name`` (case does not matter: names are lower case).

        :raises UnknownGame: naming the known games, or, when more than :data:`LISTED_GAMES` are
            installed, the closest names and ``patience list`` (the message stays one short line).
        """
        game = self._games.get(name) or self._games.get(name.strip().lower())
        if game is None:
            names = sorted(self._games)
            if len(names) <= LISTED_GAMES:
                known = f"known games: {', '.join(names) or 'none installed'}"
            else:
                close = difflib.get_close_matches(name.strip().lower(), names, n=3)
                known = f"{len(names)} games installed; `patience list` names them"
                if close:
                    known = f"did you mean {' or '.join(close)}? {known}"
            raise UnknownGame(f"unknown game {shown(name, 23)} ({known})")
        return game

    def remove_provider(self, distribution: str) -> list[str]:
        """Unregister every game ``distribution`` registered (a plugin that failed half way).

        :returns: the names removed, sorted.
        """
        names = sorted(n for n, d in self._providers.items() if d == distribution)
        for name in names:
            del self._games[name]
            del self._providers[name]
            self._searches.pop(name, None)
        return names

    def provider(self, name: str) -> str:
        """The distribution that registered game ``name``."""
        return self._providers[name]

    def names(self) -> list[str]:
        """Every registered game name, sorted."""
        return sorted(self._games)

    def __iter__(self) -> Iterator[type[Game]]:
        return iter(self._games[name] for name in self.names())

    def __contains__(self, name: object) -> bool:
        return name in self._games

    def __len__(self) -> int:
        return len(self._games)


def distribution_of(game: Game) -> str:
    """The installed distribution whose package holds ``game``'s class (for messages), or the
    package's name when no distribution claims it."""
    from importlib import metadata

    top = type(game).__module__.split(".")[0]
    try:
        owners = metadata.packages_distributions().get(top)
    except Exception:
        owners = None
    return owners[0] if owners else top
