"""The conformance kit on a game class declared in a test, before any plugin registers it.

A variant author tries a family declaration (or a game of their own) with the kit before
packaging it: the checks that load the game by name (entry-point discovery, other processes,
saved games, the command line) are skipped, every other check runs on the class itself.
"""

from __future__ import annotations

from typing import ClassVar

import pytest

from patience_core.games import Game, GameSearch
from patience_core.testing._conformance import GameConformance

__all__ = ["DeclaredConformance"]


class DeclaredConformance(GameConformance):
    """:class:`GameConformance` on ``declared``, a :class:`~patience_core.games.Game` subclass
    that no installed plugin registers. Set ``game`` to its name and ``declared`` to the class;
    its search object is the class's ``search_class`` (a family's) or the generic one::

        class TestEightOff(DeclaredConformance):
            game = "eight-off"
            declared = EightOff
    """

    declared: ClassVar[type[Game]]

    def make_game(self) -> Game:
        """A new instance of :attr:`declared`."""
        return self.declared()

    def make_search(self, game: Game) -> GameSearch:
        """The declared class's ``search_class`` (a family's search), else the generic one."""
        search_class: type[GameSearch] = getattr(self.declared, "search_class", GameSearch)
        return search_class(game)

    def test_discovered_through_entry_point(self) -> None:
        """Skipped: the class is declared in the test, not installed."""
        pytest.skip("declared in the test, not installed")

    test_same_in_every_process = test_discovered_through_entry_point
    test_save_load_round_trip = test_discovered_through_entry_point  # type: ignore[assignment]
    test_cli_deal = test_discovered_through_entry_point
    test_cli_play_scripted_and_resume = test_discovered_through_entry_point  # type: ignore[assignment]
    test_cli_simulate = test_discovered_through_entry_point
