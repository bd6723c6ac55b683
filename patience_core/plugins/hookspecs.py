"""The hook specifications of patience: what a plugin may implement.

Hooks are grouped by what they extend. The registration hooks are called by the plugin host
(:mod:`patience_core.plugins`) once per plugin, as it loads (the commands hook when commands
are looked up); the drawing hook is called by the renderer per card. Plugins implement them with
``@patience_core.hookimpl``; the pluggy project name, the marker and the entry-point group are all
``patience``. Hooks change only by adding (new hooks, or new optional arguments).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    import click

    from patience_core.families import PolicyRegistry
    from patience_core.games import GameRegistry, StrategyRegistry
    from patience_core.model import Card

hookspec = pluggy.HookspecMarker("patience")


# -- cards, piles and decks (the families' building blocks) ---------------------------------


@hookspec
def patience_register_policies(registry: PolicyRegistry) -> None:
    """Register building blocks that game families and variant files name.

    Call ``registry.add(x)`` for each, where ``x`` is a
    :class:`~patience_core.families.BuildPolicy` (which card goes on which in a tableau pile),
    an :class:`~patience_core.families.EmptyPolicy` (what an empty tableau pile takes), a
    :class:`~patience_core.families.PileRule` (a pile kind: what a free cell or reserve holds),
    a :class:`~patience_core.families.Deck` (two decks, stripped decks), or a
    :class:`~patience_core.families.Family` subclass that sets ``family`` (a family of its own,
    which variant files may then name). Names are lower-case words joined by hyphens and unique
    per kind: a name another plugin (or patience) registered first is refused, naming both, and
    the plugin is skipped (``patience plugins`` says why).

    Called for every plugin before any plugin's games register, so that a game or variant file
    of one plugin may name another plugin's deck.

    :param registry: the :class:`~patience_core.families.PolicyRegistry` of this run
        (:data:`~patience_core.families.POLICIES`).
    :returns: nothing.

    Implemented by plugins that add decks, build rules, pile kinds or families.

    .. versionadded:: 1.1
    """


# -- games ------------------------------------------------------------------------------------


@hookspec
def patience_register_games(registry: GameRegistry) -> None:
    """Register the games a plugin provides.

    Call ``registry.add(GameClass)`` for each :class:`~patience_core.games.Game` subclass, with
    ``search=`` its :class:`~patience_core.games.GameSearch` class or that class's import path
    (``"pkg.search:MySearch"``, imported only when a command searches). A game name belongs to
    the distribution named ``patience-NAME``, else to the first plugin that registers it (load
    order: by distribution name); another claim is refused and reported, naming both
    distributions.

    :param registry: the :class:`~patience_core.games.GameRegistry` of this run.
    :returns: nothing.

    Implemented by every game plugin.

    .. versionadded:: 1.0
    """


# -- players ----------------------------------------------------------------------------------


@hookspec
def patience_register_strategies(registry: StrategyRegistry) -> None:
    """Register automatic players for ``patience simulate --strategy NAME``.

    Call ``registry.add(name, factory, help, budgeted=False)``; ``factory(game, seed)`` returns
    an object with a ``choose(position, legal_moves) -> Move | None`` method
    (:class:`~patience_core.games.Strategy`): ``None`` resigns, and the player may then say why
    in its ``outcome`` attribute (``"dead"`` or ``"unknown"``). A ``budgeted`` factory also takes
    the keyword arguments ``seconds``, ``nodes`` (a search budget, ``None`` for its default) and
    ``search`` (the game's search object). See docs/plugin-api.md.

    :param registry: the :class:`~patience_core.games.StrategyRegistry` of this run.
    :returns: nothing.

    Implemented by patience itself (``random``, ``greedy``) and by plugins that add players.

    .. versionadded:: 1.0
    """


# -- command line -----------------------------------------------------------------------------


@hookspec
def patience_register_commands(cli: click.Group) -> None:
    """Add commands to the ``patience`` command line.

    Call ``cli.add_command(command)`` with a :class:`click.Command`. Names of built-in commands
    cannot be replaced. Called when a command that is not built in runs, and by ``patience
    plugins``; ``patience --help`` loads no plugin and does not list these commands.

    :param cli: the top-level ``patience`` command group.
    :returns: nothing.

    Implemented by plugins that add tools (exporters, analysers).

    .. versionadded:: 1.0
    """


# -- cards and drawing ------------------------------------------------------------------------


@hookspec(firstresult=True)
def patience_card_text(card: Card, unicode: bool) -> str | None:
    """Draw one face-up card for the terminal, as exactly two visible characters.

    The first plugin to return a string wins; return ``None`` to leave the card to the default
    drawing (rank letter and suit symbol, e.g. ``T♥``, or ``Th`` when ``unicode`` is false). The
    renderer adds colour itself.

    :param card: the card to draw (always face up).
    :param unicode: whether the terminal can show non-ASCII characters.
    :returns: two visible characters, or ``None``.

    Implemented by plugins with decks or symbols of their own.

    .. versionadded:: 1.0
    """
