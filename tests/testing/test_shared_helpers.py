"""The test kit's helpers shared by tests, on its fake game: ``random_walk`` gives a seeded walk
by the rules, ``check_no_repeat`` holds a line of play to the rule against circles."""

from __future__ import annotations

from itertools import pairwise

import pytest

from patience_core.engine import DealNumber
from patience_core.games import GameSearch
from patience_core.testing import FakeGame, check_no_repeat, random_walk


def test_a_random_walk_starts_at_the_deal_and_plays_legal_moves() -> None:
    game = FakeGame()
    for deal in range(1, 6):
        walked = random_walk(game, deal, 25)
        assert walked[0] == game.deal(DealNumber(deal))
        assert 1 <= len(walked) <= 26
        for before, after in pairwise(walked):
            assert after in [game.play(before, move) for move in game.legal_moves(before)]
        if len(walked) < 26:
            assert not game.legal_moves(walked[-1])


def test_a_random_walk_is_seeded_by_the_deal_unless_told() -> None:
    game = FakeGame({"empty-piles": "any"})
    assert random_walk(game, 4, 30) == random_walk(game, DealNumber(4), 30, seed=4)
    assert random_walk(game, 4, 0) == [game.deal(DealNumber(4))]
    seeds = {tuple(random_walk(game, 4, 30, seed=seed)) for seed in range(6)}
    assert len(seeds) > 1


def test_a_line_going_back_by_a_choice_breaks_the_rule_against_circles() -> None:
    game = FakeGame({"empty-piles": "any"})
    search = GameSearch(game)
    for position in random_walk(game, 1, 30):
        for move in game.legal_moves(position):
            after = game.play(position, move)
            back = [m for m in game.legal_moves(after) if game.play(after, m) == position]
            if back and len(game.legal_moves(after)) > 1:
                check_no_repeat(search, position, [move], 2_000)  # no repeat yet
                with pytest.raises(AssertionError):
                    check_no_repeat(search, position, [move, back[0]], 2_000)
                return
    pytest.fail("no move of the walk can be taken back")
