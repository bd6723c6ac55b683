"""The plugin host: finds game plugins through the ``patience`` entry-point group and loads them.

Layer 3. Loading is explicit (:meth:`PluginHost.load`, never at import) and happens in two phases,
so one broken plugin never takes the tool down:

1. read the entry-point metadata (cheap): name, distribution, version; sorted and de-duplicated
   (:func:`~patience_core.plugins._records.candidates`); plugins named in
   ``PATIENCE_DISABLE_PLUGINS`` (or missing from ``PATIENCE_PLUGINS`` when that allow-list is
   set) are recorded as *blocked* and not imported
   (:func:`~patience_core.plugins._selection.select`);
2. import each plugin inside its own ``try``, register it with a pluggy plugin manager of its
   own (pluggy checks its hooks against the specifications) and call its registration hooks
   through it, so that every registration and failure is the plugin's own; then register it
   with the host's manager too (for the hooks called across plugins, ``patience_card_text``).
   Any failure turns into a *broken* record naming the distribution and the error; the
   plugin's partial registrations are dropped.

Once loaded, plugin code is trusted: what a game answers is not checked while it is played (the
conformance kit, :mod:`patience_core.testing`, checks it); a plugin that raises while a command
runs is named in one line by the command line (:func:`patience_core.errors.plugin_behind`).

Both variables hold comma-separated names; a name matches a plugin's entry-point name or its
distribution name (``escalator`` or ``patience-escalator``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from importlib import metadata
from typing import Any, TypeVar

import pluggy

from patience_core import __version__
from patience_core.errors import (
    CtrlCWatch,
    PluginError,
    UnknownGame,
    ctrl_c_watched,
    one_line,
    shown,
)
from patience_core.families import POLICIES, Family
from patience_core.games import Game, GameRegistry, GameSearch, StrategyRegistry
from patience_core.model import Card
from patience_core.plugins import _builtins, hookspecs
from patience_core.plugins._records import (
    BROKEN,
    BUILTIN,
    ENTRY_POINT_GROUP,
    INCOMPATIBLE,
    LOADED,
    Candidate,
    PluginRecord,
    api_problem,
    left_out_record,
    own_game_names,
    why_left_out,
)
from patience_core.plugins._selection import select
from patience_core.plugins._variants import (
    VARIANT_FILE,
    load_variant_files,
    load_variant_package,
)

__all__ = ["CORE", "PluginHost"]

#: The distribution name of patience's own plugin (:mod:`patience_core.plugins._builtins`).
CORE = "patience-core"

_T = TypeVar("_T")


class _RaisedByPlugin(Exception):
    """A ``KeyboardInterrupt`` a plugin raised itself while it loaded (no Ctrl-C came): its
    failure, reported as the ``KeyboardInterrupt`` it is (``__cause__``)."""


class _Given:
    """A plugin object given to :class:`PluginHost` directly, in the shape of an entry point."""

    dist = None

    def __init__(self, name: str, plugin: object) -> None:
        self.name = name
        self._plugin = plugin

    def load(self) -> object:
        return self._plugin


def _manager() -> pluggy.PluginManager:
    """A pluggy plugin manager of patience's hooks."""
    pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
    pm.add_hookspecs(hookspecs)
    return pm


def _reason(exc: BaseException) -> str:
    """Why a plugin failed to load, as one line: a :class:`PluginError`'s text alone (already a
    message about the plugin, e.g. from :meth:`GameRegistry.add`), else
    :func:`~patience_core.errors.one_line`."""
    if isinstance(exc, _RaisedByPlugin) and exc.__cause__ is not None:
        exc = exc.__cause__
    if isinstance(exc, PluginError):
        return one_line(exc).removeprefix("PluginError: ")
    return one_line(exc)


class PluginHost:
    """Owns the pluggy plugin manager and the registries the plugins fill.

    :param entry_points: the entry points to consider; default: the installed ones in the
        ``patience`` group. Tests pass their own.
    :param environ: where ``PATIENCE_DISABLE_PLUGINS`` / ``PATIENCE_PLUGINS`` are read; default
        :data:`os.environ`.
    :param plugins: plugin objects (a module, or any object with hook functions) by
        distribution name, loaded like installed plugins but without an entry point (a test's
        fake game; version ``?``).
    """

    def __init__(
        self,
        entry_points: Iterable[metadata.EntryPoint] | None = None,
        environ: Mapping[str, str] | None = None,
        plugins: Mapping[str, object] | None = None,
    ) -> None:
        #: Every loaded plugin, for the hooks called across plugins.
        self.pm = _manager()
        #: Each loaded plugin alone in a manager of its own, by distribution, for the hooks
        #: called plugin by plugin (registration).
        self._own: dict[str, pluggy.PluginManager] = {}
        self._entry_points = entry_points
        self._given = [_Given(name, plugin) for name, plugin in (plugins or {}).items()]
        self._environ = os.environ if environ is None else environ
        #: Game classes by name.
        self.games = GameRegistry()
        #: Strategies by name.
        self.strategies = StrategyRegistry()
        #: One record per plugin, built-ins first, then in load order.
        self.records: list[PluginRecord] = []
        self._loaded = False
        #: Names in PATIENCE_PLUGINS / PATIENCE_DISABLE_PLUGINS that no plugin has, as
        #: lines for :attr:`problems`.
        self._unmatched: list[str] = []
        #: Whether Ctrl-C came while the plugins loaded (:meth:`load`).
        self._ctrl_c = CtrlCWatch()
        #: Why a plugin's patience_register_commands failed, by distribution (filled by
        #: :meth:`add_commands`).
        self.command_problems: dict[str, str] = {}
        #: The names of the commands each plugin added, by distribution (filled by
        #: :meth:`add_commands`).
        self.commands_of: dict[str, list[str]] = {}

    # -- loading ------------------------------------------------------------------------------

    def load(self) -> PluginHost:
        """Discover and load the plugins and fill the registries. Calling it again does nothing.

        :returns: ``self``, for chaining.
        """
        if self._loaded:
            return self
        self._loaded = True
        # The built-in policies only: a run's plugins register theirs afresh.
        POLICIES.reset()
        # patience's own players, registered through the same hooks as any plugin.
        self._register_policies(CORE, _builtins)
        self._register_games(CORE)
        self.records.append(PluginRecord(CORE, CORE, __version__, BUILTIN))
        chosen = select(self._entry_points, self._given, self._environ)
        self.records += chosen.blocked
        self._unmatched += chosen.unmatched
        self.games.owners = own_game_names([*chosen.plugins, *chosen.variant_packages])
        with ctrl_c_watched() as self._ctrl_c:
            # Every plugin's policies first, so that any game may name any plugin's deck.
            attached = [(cand, self._attach(cand)) for cand in chosen.plugins]
            self.records += [
                result if isinstance(result, PluginRecord) else self._fill(cand)
                for cand, result in attached
            ]
            self.records += [load_variant_package(c, self.games) for c in chosen.variant_packages]
            self.records += load_variant_files(chosen.folder, self.games, chosen.skipped_files)
        POLICIES.current_plugin = CORE  # what registers later (a test's own) is not a plugin's
        return self

    def _plugin_code(self, step: Callable[[], _T]) -> _T:
        """Run ``step`` (a plugin's code). A ``KeyboardInterrupt`` goes on when Ctrl-C was
        really pressed while plugins loaded; else the plugin raised it itself, and
        :class:`_RaisedByPlugin` is raised instead, to be reported as the plugin's failure."""
        try:
            return step()
        except KeyboardInterrupt as exc:
            if self._ctrl_c.pressed:
                raise
            raise _RaisedByPlugin(exc) from exc

    def _attach(self, cand: Candidate) -> PluginRecord | None:
        """Phase 2 for one plugin, first half: import it, register it, call its policies hook.

        :returns: ``None`` when it is attached, else its broken or incompatible record.
        """
        # Plugin code runs in each step below (its module, a module __getattr__, its hooks): any
        # exception it raises, SystemExit and GeneratorExit too, makes the plugin broken, never
        # ends patience. Only Ctrl-C (KeyboardInterrupt) goes on: the user may have pressed it.
        try:
            plugin = self._plugin_code(cand.entry_point.load)
            problem = self._plugin_code(lambda: api_problem(plugin))
            if problem:
                return PluginRecord(
                    cand.name, cand.distribution, cand.version, INCOMPATIBLE, problem
                )
            self._plugin_code(lambda: self._register_policies(cand.distribution, plugin))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # the plugin's failure, whatever it raised
            return PluginRecord(cand.name, cand.distribution, cand.version, BROKEN, _reason(exc))
        return None

    def _fill(self, cand: Candidate) -> PluginRecord:
        """Phase 2 for one attached plugin, second half: its games and strategies."""
        before, status, error = set(self.games.names()), LOADED, ""
        try:
            self._plugin_code(lambda: self._register_games(cand.distribution))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # the plugin's failure, whatever it raised
            status, error = BROKEN, _reason(exc)
        games = tuple(sorted(set(self.games.names()) - before)) if status == LOADED else ()
        return PluginRecord(cand.name, cand.distribution, cand.version, status, error, games)

    def _register_policies(self, distribution: str, plugin: object) -> None:
        """Register ``plugin`` and call its policies hook (not the others'); one that fails half
        way keeps nothing. :raises: pluggy's ``PluginValidationError`` (a hook's arguments),
        ``PluginError`` (an unknown hook, a name taken), ``ValueError`` (a second plugin of one
        distribution), whatever the plugin's hook raises."""
        own = _manager()
        own.register(plugin, name=distribution)
        unknown = sorted(c.name for c in own.get_hookcallers(plugin) or [] if not c.has_spec())
        if unknown:
            raise PluginError(f"implements unknown hook(s): {', '.join(unknown)}")
        self.pm.register(plugin, name=distribution)  # a second plugin of one name fails here
        self._own[distribution] = own
        POLICIES.current_plugin = distribution
        try:
            own.hook.patience_register_policies(registry=POLICIES)
        except BaseException:
            self._detach(distribution)
            raise

    def _register_games(self, distribution: str) -> None:
        """Call an attached plugin's game and strategy hooks; one that fails half way keeps
        nothing, its policies neither. :raises PluginError: for a game refused; and whatever the
        plugin's hooks raise."""
        own = self._own[distribution]
        self.games.current_plugin = distribution
        self.strategies.current_plugin = distribution
        try:
            own.hook.patience_register_games(registry=self.games)
            own.hook.patience_register_strategies(registry=self.strategies)
        except BaseException:
            self._detach(distribution)
            raise

    def _detach(self, distribution: str) -> None:
        """Forget a plugin that failed half way: its hooks and everything it registered."""
        plugin = self._own.pop(distribution).get_plugin(distribution)
        self.pm.unregister(plugin)
        POLICIES.remove_provider(distribution)
        self.games.remove_provider(distribution)
        self.strategies.remove_provider(distribution)

    @property
    def problems(self) -> list[str]:
        """One line per broken plugin, and per name in ``PATIENCE_PLUGINS`` or
        ``PATIENCE_DISABLE_PLUGINS`` that no installed plugin has (a misspelt name), for
        stderr."""
        return [
            f"variant file {r.distribution} is {r.status} and was skipped: {r.error}"
            if r.kind == VARIANT_FILE
            else f"plugin {r.distribution} ({r.name}) is {r.status} and was skipped: {r.error}"
            for r in self.records
            if r.status in (BROKEN, INCOMPATIBLE)
        ] + self._unmatched

    # -- use ----------------------------------------------------------------------------------

    def game_class(self, name: str) -> type[Game]:
        """The game class registered as ``name``.

        :raises UnknownGame: when no plugin provides ``name``; when the plugin of that name
            (entry point ``name`` or distribution ``patience-name``) was skipped as broken,
            incompatible or blocked, the message says so instead of only listing the known games.
        """
        try:
            return self.load().games.get(name)
        except UnknownGame as exc:
            record = left_out_record(self.records, name)
            if record is not None:
                why = why_left_out(record)
                raise UnknownGame(f"unknown game {shown(name, 23)}: {why}") from exc
            raise

    def saved_game(self, name: str, options: Mapping[str, str] | None = None) -> Game:
        """:meth:`game`, for a saved game of ``name`` being read (``score``, ``hint``,
        ``play --resume``): reading never changes a save, and a game not installed any more
        says so (the file named by the caller) rather than only that the name is unknown.

        :raises UnknownGame: ``'NAME' is not installed now (its variant file or plugin is
            gone); the save is kept``, or with why its plugin or variant file provides it no
            more (broken, incompatible, blocked) in the parentheses.
        :raises BadOption: for invalid options.
        """
        try:
            game_class = self.game_class(name)
        except UnknownGame as exc:
            record = left_out_record(self.records, name)
            why = why_left_out(record) if record else "its variant file or plugin is gone"
            raise UnknownGame(
                f"{shown(name, 23)} is not installed now ({why}); the save is kept"
            ) from exc
        return game_class(options)

    def game(self, name: str, options: Mapping[str, str] | None = None) -> Game:
        """A :class:`Game` instance of game ``name`` with ``options``.

        :raises UnknownGame: when no plugin provides ``name`` (:meth:`game_class`).
        :raises BadOption: for invalid options.
        """
        return self.game_class(name)(options)

    def search(self, game: Game) -> GameSearch:
        """The solver's search object for ``game``: the :class:`GameSearch` class its plugin
        registered beside it (``registry.add(Game, search=...)``), or the generic one; for a
        saved game going on with the rules it was started with (a variant file changed since:
        not the registered class), its family's search."""
        games = self.load().games
        registered = games.get(game.name) if game.name in games else None
        if isinstance(game, Family) and registered and not isinstance(game, registered):
            return game.search_class(game)
        return games.search(game.name)(game)

    def version_of(self, game_name: str) -> str:
        """The version of the distribution that provides ``game_name``; "" for a variant file
        of the data folder, which has none (what is shown then says so, never a placeholder)."""
        provider = self.games.provider(game_name)
        return next((r.version for r in self.records if r.distribution == provider), "")

    def add_commands(self, group: Any) -> list[str]:
        """Call ``patience_register_commands`` plugin by plugin (each through its own plugin
        manager, so that one failing plugin is named and the others' commands still come), and
        add the commands to ``group`` (a :class:`click.Group`); :attr:`commands_of` then tells
        which plugin added which command.

        :returns: one problem line per plugin whose hook failed.
        """
        import click

        problems = []
        for distribution, own in self._own.items():
            added = click.Group()
            try:
                own.hook.patience_register_commands(cli=added)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # SystemExit too: the plugin's, not a reason to stop
                self.command_problems[distribution] = _reason(exc)
                problems.append(f"plugin {distribution} failed to add commands: {_reason(exc)}")
                continue
            self.commands_of[distribution] = sorted(added.commands)
            for name, command in added.commands.items():
                group.add_command(command, name)
        return problems

    def card_text(self, card: Card, unicode: bool) -> str | None:
        """The plugins' drawing of ``card`` (``patience_card_text``: the last registered plugin
        first, the first text wins), or ``None`` when none draws it."""
        text: str | None = self.pm.hook.patience_card_text(card=card, unicode=unicode)
        return text
