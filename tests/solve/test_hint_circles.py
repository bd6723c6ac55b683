"""No circles over several moves, on the test kit's fake game: a position where every move leads
back is "stuck" (no move named), a move after which every move leads back comes last, and
following hints or the honest player never repeats a position unless the move was forced (or,
for the honest player with nothing face down, every move on was proved dead)."""

from __future__ import annotations

import random

import pytest

from patience_core.engine import DealNumber
from patience_core.games import Game, GameSearch
from patience_core.model import Position
from patience_core.solve import (
    HONEST,
    THOUGHTFUL,
    HonestBudget,
    HonestPlayer,
    Verdict,
    dead_check,
    hint,
    hint_stream,
    play_honestly,
)
from patience_core.solve._circles import (
    STUCK,
    STUCK_DEAD,
    avoiding_circles,
    is_stuck,
    is_trap,
    seen_positions,
)
from patience_core.testing import FakeGame, check_no_repeat

GAMES = [FakeGame(), FakeGame({"empty-piles": "any"})]


def _start(game: Game, number: int) -> Position:
    """A position with several legal moves: the deal, or a few random moves into it."""
    position = game.deal(DealNumber(number))
    rand = random.Random(number)
    for _ in range(rand.randrange(4)):
        legal = game.legal_moves(position)
        if len(legal) < 2:
            break
        position = game.play(position, rand.choice(legal))
    return position


def _branching(game: Game) -> Position:
    return next(p for p in (_start(game, n) for n in range(40)) if len(game.legal_moves(p)) > 1)


@pytest.mark.parametrize("mode", [THOUGHTFUL, HONEST])
def test_a_position_whose_every_move_leads_back_is_stuck(mode: str) -> None:
    game = GAMES[1]
    search = GameSearch(game)
    position = _branching(game)
    legal = game.legal_moves(position)
    history = [game.play(position, move) for move in legal]
    assert is_stuck(search, position, legal, seen_positions(game, [*history, position]))
    answers = list(hint_stream(game, position, history, mode, 60, nodes=500, samples=4))
    assert len(answers) == 1
    assert answers[0].move is None and answers[0].verdict == "stuck" and answers[0].final
    assert answers[0].reason == STUCK
    assert "cannot progress" in answers[0].sentence()


def test_a_single_legal_move_is_never_stuck() -> None:
    game = GAMES[0]
    search = GameSearch(game)
    position = _branching(game)
    move = game.legal_moves(position)[0]
    seen = seen_positions(game, [game.play(position, move), position])
    assert not is_stuck(search, position, [move], seen)


def test_a_move_after_which_every_move_leads_back_comes_last() -> None:
    game = GAMES[1]
    search = GameSearch(game)
    position = _branching(game)
    legal = game.legal_moves(position)
    first = legal[0]
    child = game.play(position, first)
    # Every move of the first move's result leads to a position seen: a trap.
    seen = seen_positions(game, [position, *(game.play(child, m) for m in game.legal_moves(child))])
    if game.is_won(child) or not game.legal_moves(child):
        pytest.skip("the first move ends the game")
    assert is_trap(search, child, seen)
    ordered = avoiding_circles(search, position, legal, seen)
    kept = [m for m in legal if game.play(position, m) not in seen]
    if len(kept) > 1 and first in kept:
        assert ordered[-1] == first


@pytest.mark.parametrize("mode", [THOUGHTFUL, HONEST])
@pytest.mark.parametrize("game", GAMES, ids=["none", "any"])
def test_following_hints_never_repeats_a_position_unless_forced(mode: str, game: Game) -> None:
    for number in range(5):
        position = _start(game, number)
        history: list[Position] = []
        entered = {position}
        for _ in range(12):
            legal = game.legal_moves(position)
            if not legal or game.is_won(position):
                break
            found = hint(game, position, history, mode, 60, nodes=300, samples=4)
            if found.move is None:
                assert found.verdict in ("dead", "stuck", "over")
                break
            history.append(position)
            position = game.play(position, found.move)
            assert position not in entered or len(legal) == 1
            entered.add(position)


@pytest.mark.parametrize("game", GAMES, ids=["none", "any"])
def test_the_honest_player_never_repeats_a_position_unless_forced(game: Game) -> None:
    budget = HonestBudget(samples=4, nodes=200, dead_nodes=2_000, playout=400)
    search = GameSearch(game)
    for number in range(2):
        position = _start(game, number)
        played = play_honestly(game, position, budget, max_moves=60)
        # A repeat only by a forced move or, with nothing face down, every other move dead.
        check_no_repeat(search, position, played.moves, budget.dead_nodes)


def test_the_honest_player_resigns_when_every_move_leads_back() -> None:
    game = GAMES[1]
    position = _branching(game)
    legal = game.legal_moves(position)
    player = HonestPlayer(game, budget=HonestBudget(samples=4, nodes=200, play_on=False))
    player._seen.update(game.play(position, move) for move in legal)
    assert player.choose(position, legal) is None
    assert player.outcome in ("stopped", "dead")


class _Sorted(GameSearch):
    """A search object whose key sorts each pile's cards (as Diamond Mine's suit-blind, sorted
    key does): it merges positions that differ, so no circle may be judged by it."""

    def key(self, position: Position) -> object:
        return tuple(tuple(sorted(pile, key=str)) for pile in position.piles)


def _shuffled(position: Position) -> Position | None:
    """``position`` with its first pile of two different cards reversed: another position of
    the same sorted key (``None`` when it has no such pile)."""
    for index, pile in enumerate(position.piles):
        if len(set(pile)) > 1:
            return position.replace([(index, pile[::-1])])
    return None


@pytest.mark.parametrize("mode", [THOUGHTFUL, HONEST])
def test_positions_sharing_a_search_key_are_not_a_return(mode: str) -> None:
    """Every move leads to a board never seen, each sharing the sorted key of a position of
    the history: no move leads back, the position is not stuck, a move is named."""
    game = GAMES[1]
    search = _Sorted(game)
    position = _branching(game)
    legal = game.legal_moves(position)
    history = [_shuffled(game.play(position, move)) for move in legal]
    assert all(h is not None for h in history)
    seen = seen_positions(game, [*[h for h in history if h is not None], position])
    children = [game.play(position, move) for move in legal]
    assert all(search.key(child) in {search.key(h) for h in seen} for child in children)
    assert not is_stuck(search, position, legal, seen)
    assert avoiding_circles(search, position, legal, seen) != []
    past = [h for h in history if h is not None]
    first = next(hint_stream(game, position, past, mode, 60, nodes=500, samples=4, search=search))
    assert first.verdict != "stuck" and first.move in legal


def test_a_stuck_position_proved_dead_is_said_to_be_dead() -> None:
    """Every move leads back; where the position is proved dead the hint says dead, else
    stuck; either way it tells the player what can be done."""
    said = set()
    for number in range(12):
        game = GAMES[0]
        position = game.deal(DealNumber(number))
        legal = game.legal_moves(position)
        if len(legal) < 2:
            continue
        history = [game.play(position, move) for move in legal]
        found = hint(game, position, history, THOUGHTFUL, 60, nodes=500)
        dead = dead_check(game, position).verdict is Verdict.DEAD
        assert found.move is None
        assert (found.verdict, found.reason) == (("dead", STUCK_DEAD) if dead else ("stuck", STUCK))
        assert "undo moves or start a new deal" in found.reason
        said.add(found.verdict)
    assert said == {"dead", "stuck"}
