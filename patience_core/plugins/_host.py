"""The plugin host: finds game plugins through the ``patience`` entry-point group and loads them.

Layer 3. Loading is explicit (:meth:`PluginHost.load`, never at import) and happens in two phases,
so one broken plugin never takes the tool down:

1. read the entry-point metadata (cheap): name, distribution, version; sorted and de-duplicated;
   plugins named in ``PATIENCE_DISABLE_PLUGINS`` (or missing from ``PATIENCE_PLUGINS`` when that
   allow-list is set) are recorded as *blocked* and not imported;
2. import each plugin inside its own ``try``, register it with pluggy, check its hooks against the
   specifications, and call its registration hooks one plugin at a time. Any failure turns into a
   *broken* record naming the distribution and the error; the plugin's partial registrations are
   dropped.

Both variables hold comma-separated names; a name matches a plugin's entry-point name or its
distribution name (``escalator`` or ``patience-escalator``).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable, Mapping
from importlib import metadata
from typing import Any

import attrs
import pluggy
from packaging.specifiers import InvalidSpecifier, SpecifierSet

from patience_core import API_VERSION, __version__
from patience_core.errors import (
    CtrlCWatch,
    PatienceError,
    PluginError,
    UnknownGame,
    ctrl_c_watched,
    one_line,
)
from patience_core.games import (
    Game,
    GameRegistry,
    GameSearch,
    StrategyRegistry,
    check_answers,
    checked_piles,
    checked_position,
    shown_answer,
)
from patience_core.model import Card
from patience_core.plugins import hookspecs

__all__ = ["ENTRY_POINT_GROUP", "PluginHost", "PluginRecord"]

#: patience's own plugins, loaded by name like any plugin (pytest's "default plugins" pattern):
#: they sit above the host in the layers, since they register players built on the solver.
DEFAULT_PLUGINS = ("patience_core.plugins",)

#: The game plugins that ship with patience. They load before any other plugin, so their game
#: names cannot be taken over by an outside plugin.
SHIPPED = frozenset(
    {
        "patience-escalator",
        "patience-bristol",
        "patience-bakers-game",
        "patience-diamond-mine",
        "patience-spiderette",
    }
)

#: The entry-point group game plugins declare, e.g. ``[project.entry-points.patience]``.
ENTRY_POINT_GROUP = "patience"

LOADED = "loaded"
BROKEN = "broken"
BLOCKED = "blocked"
BUILTIN = "built-in"
INCOMPATIBLE = "incompatible"


def api_problem(plugin: object) -> str | None:
    """Why ``plugin`` cannot be used with this patience's plugin API, or ``None`` when it can.

    A plugin module may declare the API versions it works with as a version specifier string,
    ``PATIENCE_API = ">=1.0,<2"`` (see docs/plugin-api.md); a plugin that declares nothing is
    assumed compatible.
    """
    wanted = getattr(plugin, "PATIENCE_API", None)
    if wanted is None:
        return None
    if not isinstance(wanted, str):
        return "PATIENCE_API must be a version specifier string such as '>=1.0,<2'"
    try:
        spec = SpecifierSet(wanted)
    except InvalidSpecifier:
        return f"PATIENCE_API {wanted!r} is not a version specifier such as '>=1.0,<2'"
    if not spec.contains(API_VERSION, prereleases=True):
        return f"needs plugin API {wanted}; this patience-core provides API {API_VERSION}"
    return None


@attrs.frozen
class PluginRecord:
    """What the host knows of one plugin, for ``patience plugins``.

    :param name: the entry-point name (``"escalator"``), or ``"patience-core"`` for built-ins.
    :param distribution: the distribution that declares it (``"patience-escalator"``).
    :param version: that distribution's version.
    :param status: ``"loaded"``, ``"broken"``, ``"incompatible"`` (built for another plugin API
        version), ``"blocked"`` or ``"built-in"``.
    :param error: for a broken plugin, a one-line reason.
    :param games: the game names it registered.
    """

    name: str
    distribution: str
    version: str
    status: str
    error: str = ""
    games: tuple[str, ...] = ()


@attrs.frozen
class _Candidate:
    name: str
    distribution: str
    version: str
    entry_point: Any


def _names_from_env(value: str | None) -> set[str] | None:
    if value is None or not value.strip():
        return None  # unset or empty: no list
    return {part.strip() for part in value.split(",") if part.strip()}


def _check_answers(game: Game, provider: str) -> None:
    """Ask a new game for its piles, deal 1 and what every command asks of a position first
    (legal moves and their texts, score, won, lost, status), and check the kinds of the answers,
    so that a plugin returning something else is named at once instead of failing later inside
    patience.

    :raises PluginError: one line naming the plugin, the hook and the answer, when a hook raises
        (``deal failed (in layout): IndexError: ...``) or returns something of the wrong kind
        (a position whose number of piles is not that of ``piles``, a move naming a pile that
        does not exist, ...). A game that refuses deal 1 is not checked.
    """
    from patience_core.engine import DealNumber
    from patience_core.errors import BadDeal

    def ask(hook: str, *args: object) -> Any:
        """``game.<hook>(*args)`` (the property itself for ``piles``); a failure names it."""
        try:
            answer = getattr(game, hook)
            return answer(*args) if hook != "piles" else answer
        except (PatienceError, KeyboardInterrupt):
            raise
        except BaseException as exc:  # SystemExit and GeneratorExit too: the plugin's, not ours
            inner = _method_behind(exc, game)
            where = f" (in {inner})" if inner and inner != hook else ""
            raise PluginError(
                f"the {game.name} plugin ({provider}) is broken: {hook} failed{where}: "
                f"{_one_line(exc)}"
            ) from exc

    checked_piles(game, ask("piles"), provider)
    try:
        dealt = ask("deal", DealNumber(1))
    except BadDeal:
        return
    position = checked_position(game, "deal", dealt, provider)
    check_answers(game, position, provider, ask)


def _method_behind(exc: BaseException, game: Game) -> str | None:
    """The method of ``game`` that was running deepest in ``exc``'s traceback, when the hook
    patience called (the outermost) called it (``layout`` when ``deal`` called it and it
    failed), or ``None``."""
    names = []
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_locals.get("self") is game:
            names.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    return names[-1] if len(names) > 1 else None


class _RaisedByPlugin(Exception):
    """A ``KeyboardInterrupt`` a plugin raised itself while it loaded (no Ctrl-C came): its
    failure, reported as the ``KeyboardInterrupt`` it is (``__cause__``)."""


def _one_line(exc: BaseException) -> str:
    """``exc`` as one line (:func:`~patience_core.errors.one_line`); a :class:`PluginError`'s
    text alone, which is already a message about the plugin (e.g. from GameRegistry.add)."""
    if isinstance(exc, _RaisedByPlugin) and exc.__cause__ is not None:
        return one_line(exc.__cause__)
    if isinstance(exc, PluginError):
        text = str(exc).strip().splitlines()
        if text:
            return text[0]
    return one_line(exc)


class PluginHost:
    """Owns the pluggy plugin manager and the registries the plugins fill.

    :param entry_points: the entry points to consider; default: the installed ones in the
        ``patience`` group. Tests pass their own.
    :param environ: where ``PATIENCE_DISABLE_PLUGINS`` / ``PATIENCE_PLUGINS`` are read; default
        :data:`os.environ`.
    """

    def __init__(
        self,
        entry_points: Iterable[metadata.EntryPoint] | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
        self.pm.add_hookspecs(hookspecs)
        self._entry_points = entry_points
        self._environ = os.environ if environ is None else environ
        #: Game classes by name.
        self.games = GameRegistry()
        #: Strategies by name.
        self.strategies = StrategyRegistry()
        #: One record per plugin, built-ins first, then by distribution name.
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
        #: Plugins whose patience_card_text failed once: not asked again.
        self._card_text_broken: set[str] = set()
        #: Games (name, options) whose first answers :func:`_check_answers` found sound.
        self._answered: set[tuple[str, tuple[tuple[str, str], ...]]] = set()

    # -- discovery ----------------------------------------------------------------------------

    def _candidates(self) -> list[_Candidate]:
        """Phase 1: entry-point metadata only; nothing is imported."""
        if self._entry_points is None:
            found: Iterable[metadata.EntryPoint] = metadata.entry_points(group=ENTRY_POINT_GROUP)
        else:
            found = self._entry_points
        seen: set[tuple[str, str]] = set()
        result: list[_Candidate] = []
        for ep in found:
            dist = getattr(ep, "dist", None)
            dist_name = dist.metadata["Name"] if dist is not None else ep.name
            version = dist.version if dist is not None else "?"
            key = (dist_name, ep.name)
            if key in seen:
                continue
            seen.add(key)
            result.append(_Candidate(ep.name, dist_name, version, ep))
        # The games that ship with patience first, so an outside plugin can never take one of
        # their names; then the others by distribution name.
        result.sort(key=lambda c: (c.distribution not in SHIPPED, c.distribution.lower(), c.name))
        return result

    def load(self) -> PluginHost:
        """Discover and load the plugins and fill the registries. Calling it again does nothing.

        :returns: ``self``, for chaining.
        """
        if self._loaded:
            return self
        self._loaded = True
        for module_name in DEFAULT_PLUGINS:
            builtin = importlib.import_module(module_name)
            self.pm.register(builtin, name=module_name)
            self._register_all("patience-core", builtin)
        self.records.append(
            PluginRecord("patience-core", "patience-core", __version__, BUILTIN, "", ())
        )
        blocked = _names_from_env(self._environ.get("PATIENCE_DISABLE_PLUGINS")) or set()
        allowed = _names_from_env(self._environ.get("PATIENCE_PLUGINS"))
        candidates = self._candidates()
        known = {n for cand in candidates for n in (cand.name, cand.distribution)}
        for variable, names in (
            ("PATIENCE_PLUGINS", allowed),
            ("PATIENCE_DISABLE_PLUGINS", blocked),
        ):
            self._unmatched += [
                f"{variable} names {name!r}, which is no installed plugin"
                for name in sorted((names or set()) - known)
            ]
        with ctrl_c_watched() as self._ctrl_c:
            for cand in candidates:
                names = {cand.name, cand.distribution}
                if names & blocked or (allowed is not None and not names & allowed):
                    self.records.append(
                        PluginRecord(cand.name, cand.distribution, cand.version, BLOCKED)
                    )
                    continue
                self.records.append(self._load_one(cand))
        return self

    def _pressed(self, exc: KeyboardInterrupt) -> KeyboardInterrupt:
        """``exc`` when Ctrl-C was really pressed while plugins loaded; else the plugin raised
        it itself, and :class:`_RaisedByPlugin` is raised instead, to be reported as the
        plugin's failure like any other exception."""
        if self._ctrl_c.pressed:
            return exc
        raise _RaisedByPlugin(exc) from exc

    def _load_one(self, cand: _Candidate) -> PluginRecord:
        """Phase 2 for one plugin: import, register, check, call its registration hooks."""
        # Plugin code runs in each step below (its module, a module __getattr__, its hooks): any
        # exception it raises, SystemExit and GeneratorExit too, makes the plugin broken, never
        # ends patience. Only Ctrl-C (KeyboardInterrupt) goes on: the user may have pressed it.
        try:
            try:
                plugin = cand.entry_point.load()
                problem = api_problem(plugin)
            except KeyboardInterrupt as exc:
                raise self._pressed(exc) from None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # any import failure is the plugin's, not ours
            return PluginRecord(cand.name, cand.distribution, cand.version, BROKEN, _one_line(exc))
        if problem:
            return PluginRecord(cand.name, cand.distribution, cand.version, INCOMPATIBLE, problem)
        try:
            self.pm.register(plugin, name=cand.distribution)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # pluggy.PluginValidationError, ValueError on a duplicate
            return PluginRecord(cand.name, cand.distribution, cand.version, BROKEN, _one_line(exc))
        unknown = [
            caller.name for caller in self.pm.get_hookcallers(plugin) or [] if not caller.has_spec()
        ]
        if unknown:
            self.pm.unregister(plugin)
            return PluginRecord(
                cand.name,
                cand.distribution,
                cand.version,
                BROKEN,
                f"implements unknown hook(s): {', '.join(sorted(unknown))}",
            )
        before = set(self.games.names())
        try:
            try:
                self._register_all(cand.distribution, plugin)
            except KeyboardInterrupt as exc:
                raise self._pressed(exc) from None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            # Nothing of a plugin that failed half way stays registered.
            self.pm.unregister(plugin)
            self.games.remove_provider(cand.distribution)
            self.strategies.remove_provider(cand.distribution)
            return PluginRecord(cand.name, cand.distribution, cand.version, BROKEN, _one_line(exc))
        games = tuple(sorted(set(self.games.names()) - before))
        return PluginRecord(cand.name, cand.distribution, cand.version, LOADED, "", games)

    def _register_all(self, distribution: str, plugin: object) -> None:
        """Call one plugin's registration hooks (not the others')."""
        self.games.current_plugin = distribution
        self.strategies.current_plugin = distribution
        for hook_name, kwargs in (
            ("patience_register_games", {"registry": self.games}),
            ("patience_register_strategies", {"registry": self.strategies}),
        ):
            caller = getattr(self.pm.hook, hook_name)
            for impl in caller.get_hookimpls():
                if impl.plugin is plugin:
                    impl.function(*[kwargs[arg] for arg in impl.argnames])

    # -- use ----------------------------------------------------------------------------------

    @property
    def problems(self) -> list[str]:
        """One line per broken plugin, and per name in ``PATIENCE_PLUGINS`` or
        ``PATIENCE_DISABLE_PLUGINS`` that no installed plugin has (a misspelt name), for
        stderr."""
        return [
            f"plugin {r.distribution} ({r.name}) is {r.status} and was skipped: {r.error}"
            for r in self.records
            if r.status in (BROKEN, INCOMPATIBLE)
        ] + self._unmatched

    def game_class(self, name: str) -> type[Game]:
        """The game class registered as ``name``.

        :raises UnknownGame: when no plugin provides ``name``; when the plugin of that name
            (entry point ``name`` or distribution ``patience-name``) was skipped as broken,
            incompatible or blocked, the message says so instead of only listing the known games.
        """
        try:
            return self.load().games.get(name)
        except UnknownGame as exc:
            wanted = name.strip().lower()
            for record in self.records:
                if record.status in (BROKEN, INCOMPATIBLE, BLOCKED) and wanted in (
                    record.name.lower(),
                    record.distribution.lower().removeprefix("patience-"),
                ):
                    why = (
                        "by PATIENCE_DISABLE_PLUGINS or PATIENCE_PLUGINS"
                        if record.status == BLOCKED
                        else "and was skipped (see `patience plugins`)"
                    )
                    raise UnknownGame(
                        f"unknown game {name!r}: its plugin {record.distribution} is "
                        f"{record.status} {why}"
                    ) from exc
            raise

    def game(self, name: str, options: Mapping[str, str] | None = None) -> Game:
        """A :class:`Game` instance of game ``name`` with ``options``.

        :raises UnknownGame: when no plugin provides ``name`` (:meth:`game_class`).
        :raises BadOption: for invalid options.
        """
        cls = self.game_class(name)
        try:
            game = cls(options)
        except (PatienceError, KeyboardInterrupt):
            raise
        except BaseException as exc:  # SystemExit too: the plugin's, not a reason to stop
            raise PatienceError(
                f"game {name!r} from {self.games.provider(name)} failed to start: {_one_line(exc)}"
            ) from exc
        checked = (game.name, tuple(sorted(game.option_values.items())))
        if checked not in self._answered:
            _check_answers(game, self.games.provider(game.name))
            self._answered.add(checked)
        return game

    def search(self, game: Game) -> GameSearch:
        """The solver's search object for ``game``: the :class:`GameSearch` class its plugin
        registered beside it (``registry.add(Game, search=...)``), or the generic one.

        :raises PatienceError: when the plugin's search class fails to start.
        """
        cls = self.load().games.search(game.name)
        try:
            return cls(game)
        except (PatienceError, KeyboardInterrupt):
            raise
        except BaseException as exc:  # the plugin's failure, reported as such
            raise PatienceError(
                f"the search of game {game.name!r} failed to start: {_one_line(exc)}"
            ) from exc

    def version_of(self, game_name: str) -> str:
        """The version of the distribution that provides ``game_name`` ("?" when unknown)."""
        provider = self.games.provider(game_name)
        for record in self.records:
            if record.distribution == provider:
                return record.version
        return "?"

    def add_commands(self, group: Any) -> list[str]:
        """Call ``patience_register_commands`` plugin by plugin.

        :returns: one problem line per plugin whose hook failed.
        """
        problems = []
        for impl in self.pm.hook.patience_register_commands.get_hookimpls():
            try:
                impl.function(group)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # SystemExit too: the plugin's, not a reason to stop
                self.command_problems[impl.plugin_name] = _one_line(exc)
                problems.append(
                    f"plugin {impl.plugin_name} failed to add commands: {_one_line(exc)}"
                )
        return problems

    def card_text(self, card: Card, unicode: bool) -> str | None:
        """Ask plugins to draw ``card`` (the last registered first, as pluggy does); ``None``
        when none does. A plugin whose hook fails or answers with something other than a text
        is named in a warning (once per run) and asked no more."""
        for impl in reversed(self.pm.hook.patience_card_text.get_hookimpls()):
            if impl.plugin_name in self._card_text_broken:
                continue
            try:
                text = impl.function(card=card, unicode=unicode)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # SystemExit too: the plugin's, not a reason to stop
                problem = f"failed ({_one_line(exc)})"
            else:
                if text is None:
                    continue
                if isinstance(text, str):
                    return text
                problem = f"returned {shown_answer(text)}, not a text"
            self._card_text_broken.add(impl.plugin_name)
            print(
                f"patience: warning: the patience_card_text hook of {impl.plugin_name} "
                f"{problem}; cards are drawn without it",
                file=sys.stderr,
            )
        return None
