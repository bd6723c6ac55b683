"""The spider family's search on declarations beyond the standard policies: the compact space
offers every legal move (checked against the rules along random walks), the win finder's steps
are legal move by move, and its lines win, for a variant building in suit with Kings alone to
empty columns, one with an any-suit run policy, one removing complete suits at once, and Spider
of two decks."""

from __future__ import annotations

import pytest

from patience_core.engine import DealNumber
from patience_core.families import SpiderFamily, SpiderSearch
from patience_core.testing import check_search_space
from patience_core.testing import random_walk as walk


class KingsInSuit(SpiderFamily):
    name = "kings-in-suit"
    title = "Kings in Suit"
    deck = "standard"
    columns = 7
    face_down = "0 1 2 3 4 5 6"
    build = "alternate-colours"
    empty_column = "kings"


class LooseRuns(SpiderFamily):
    name = "loose-runs"
    title = "Loose Runs"
    deck = "standard"
    columns = 7
    face_down = "0 1 2 3 4 5 6"
    run = "any-suit"
    deal_onto_empty = True


class AutoSpiderette(SpiderFamily):
    name = "auto-spiderette"
    title = "Auto Spiderette"
    deck = "standard"
    columns = 7
    face_down = "0 1 2 3 4 5 6"
    suit_removal = "auto"


class Spider(SpiderFamily):
    name = "spider"
    title = "Spider"


GAMES = [KingsInSuit, LooseRuns, AutoSpiderette, Spider]


@pytest.mark.parametrize("declared", GAMES, ids=lambda g: g.name)
def test_the_compact_space_offers_every_legal_move(declared: type[SpiderFamily]) -> None:
    game = declared()
    search = SpiderSearch(game)
    for deal in range(1, 7):
        check_search_space(game, deal, deal, 120, search)


@pytest.mark.parametrize("declared", GAMES, ids=lambda g: g.name)
def test_every_finder_step_is_legal_move_by_move(declared: type[SpiderFamily]) -> None:
    game = declared()
    search = SpiderSearch(game)
    for deal in range(1, 6):
        for position in walk(game, deal, 80)[::8]:
            finder = search.finder(position)
            assert finder is not None
            for step in finder.moves(finder.root):
                after = position
                for move in finder.to_moves([step]):
                    after = game.apply(after, move)  # raises IllegalMove for an illegal one
                again = search.finder(after)
                assert again is not None
                assert finder.play(finder.root, step) == again.root
                assert finder.won(again.root) == game.is_won(after)


def test_the_finder_s_lines_win_with_suits_removed_at_once() -> None:
    game = AutoSpiderette()
    won = 0
    for deal in (5, 7):
        position = game.deal(DealNumber(deal))
        line, nodes = SpiderSearch(game).find_win(position, 200_000, 20.0)
        assert nodes > 0
        if line is not None:
            won += 1
            for move in line:
                position = game.apply(position, move)
            assert game.is_won(position)
    assert won == 2
