"""Spiderette's solver hooks keep the future: the key sorts only columns no deal can reach, and
the quick win test agrees with the rules' "score 48"."""

from __future__ import annotations

from patience_spiderette import Spiderette
from patience_spiderette.game import COLUMNS, STOCK

from patience_core.api import DealNumber, Position
from patience_core.testing import check_random_walk


def swapped(position: Position, a: int, b: int) -> Position:
    piles = list(position.piles)
    piles[COLUMNS[a]], piles[COLUMNS[b]] = piles[COLUMNS[b]], piles[COLUMNS[a]]
    return Position(tuple(piles))


def with_stock(position: Position, size: int) -> Position:
    piles = list(position.piles)
    piles[STOCK] = position[STOCK][:size]
    return Position(tuple(piles))


def test_columns_are_interchangeable_only_where_no_deal_reaches() -> None:
    game = Spiderette()
    position = game.deal(DealNumber(3))
    for stock in (24, 10):
        full = with_stock(position, stock)
        assert game.solver_key(swapped(full, 0, 6)) != game.solver_key(full)
        assert game.solver_key(swapped(full, 4, 6)) != game.solver_key(full)
    last = with_stock(position, 3)
    assert game.solver_key(swapped(last, 3, 6)) == game.solver_key(last)
    assert game.solver_key(swapped(last, 0, 6)) != game.solver_key(last)
    empty = with_stock(position, 0)
    assert game.solver_key(swapped(empty, 0, 6)) == game.solver_key(empty)


def test_the_quick_win_test_is_a_score_of_48() -> None:
    game = Spiderette()
    for deal in range(1, 30):
        position = check_random_walk(game, deal, seed=deal, steps=60)
        assert game.is_won(position) == (game.score(position) == game.max_score)


def test_moves_are_reordered_never_dropped() -> None:
    game = Spiderette()
    position = game.deal(DealNumber(1))
    for _ in range(30):
        moves = game.legal_moves(position)
        if not moves:
            break
        ordered = game.order_moves(position, moves)
        assert sorted(map(repr, ordered)) == sorted(map(repr, moves))
        position = game.play(position, ordered[0])
