"""A search object whose forced moves never stop: the solver stops with a one-line plugin error
instead of searching past its budget for ever, and the conformance kit names the cycle."""

from __future__ import annotations

import pytest

from patience_core.engine import DealNumber
from patience_core.errors import PluginError
from patience_core.games import GameSearch, PositionSpace
from patience_core.model import Move, MoveKind, PileKind, Position
from patience_core.testing import FakeGame
from patience_core.testing._search_checks import _forced_chain


class Shuttle(GameSearch):
    """Declares as forced a one-card move between two tableau piles: a move the next forced
    move undoes, so the chain never ends (an unsound search object)."""

    def forced_move(self, position: Position) -> Move | None:
        tableau = set(self.game.pile_indices(PileKind.TABLEAU))
        for move in self.game.legal_moves(position):
            if (
                move.kind is MoveKind.TRANSFER
                and move.source in tableau
                and move.target in tableau
                and move.count == 1
            ):
                return move
        return None


def shuttling_position(game: FakeGame) -> Position:
    """A position of deal 0 where a one-card move between two tableau piles can go back."""
    position = game.deal(DealNumber(0))
    frontier, seen = [position], {position}
    while frontier:
        here = frontier.pop(0)
        for move in game.legal_moves(here):
            there = game.play(here, move)
            if any(game.play(there, back) == here for back in game.legal_moves(there)) and (
                Shuttle(game).forced_move(here) is not None
            ):
                return here
            if there not in seen:
                seen.add(there)
                frontier.append(there)
    raise AssertionError("deal 0 has no position where a card can go back and forth")


def test_a_forced_move_that_cycles_stops_the_search_with_a_plugin_error() -> None:
    game = FakeGame({"empty-piles": "any"})
    position = shuttling_position(game)
    with pytest.raises(PluginError, match=r"^the fake search's forced_move never stops"):
        PositionSpace(Shuttle(game), position)


def test_the_kit_names_a_forced_move_that_cycles() -> None:
    game = FakeGame({"empty-piles": "any"})
    position = shuttling_position(game)
    with pytest.raises(AssertionError, match=r"deal 0: forced_move cycles: after \d+ forced"):
        _forced_chain(game, Shuttle(game), position, "deal 0")
