"""The honest analysis and player on the test kit's fake game: a first round small enough for a
loaded machine, and playing on for points after a proof of dead that stops in time."""

from __future__ import annotations

import pytest

import patience_core.solve._honest as honest_module
from patience_core.engine import DealNumber
from patience_core.games import GameSearch
from patience_core.model import Position
from patience_core.solve import (
    HONEST_FIRST_MIN_NODES,
    HONEST_FIRST_NODES,
    HONEST_MIN_SAMPLES,
    Budget,
    HonestBudget,
    Solution,
    Verdict,
    has_hidden,
    honest_rounds,
    play_honestly,
    solve,
)
from patience_core.testing import FakeGame

GAME = FakeGame()


def test_the_first_honest_round_judges_four_arrangements_with_small_searches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    budgets: list[int] = []

    def recorded(game: FakeGame, position: Position, budget: Budget, search: object) -> Solution:
        budgets.append(budget.nodes)
        return solve(game, position, budget, search)  # type: ignore[arg-type]

    monkeypatch.setattr(honest_module, "solve", recorded)
    judged = 0
    for number in range(12):
        position = GAME.deal(DealNumber(number))
        legal = GAME.legal_moves(position)
        if not has_hidden(position) or len(legal) < 2:
            continue
        budgets.clear()
        rounds = honest_rounds(GAME, position, samples=24, seconds=60, search=GameSearch(GAME))
        first, _last = next(rounds)
        assert all(entry.samples == HONEST_MIN_SAMPLES for entry in first)
        assert len(budgets) == HONEST_MIN_SAMPLES * len(legal)
        each = max(HONEST_FIRST_MIN_NODES, HONEST_FIRST_NODES // (len(budgets)))
        assert set(budgets) == {each}
        judged += 1
    assert judged


@pytest.mark.parametrize("cap", [0, 1, 3])
def test_playing_on_for_points_after_a_proof_of_dead_stops_at_the_cap(cap: int) -> None:
    search = GameSearch(GAME)
    dead = [
        position
        for position in (GAME.deal(DealNumber(n)) for n in range(40))
        if solve(GAME, position, Budget(nodes=20_000), search).verdict is Verdict.DEAD
        and GAME.legal_moves(position)
    ]
    assert dead
    for position in dead:
        budget = HonestBudget(play_on_moves=cap)
        play = play_honestly(GAME, position, budget, search=search)
        assert play.outcome == "dead" and len(play.moves) <= cap
        before = GAME.score(position)
        after = position
        for move in play.moves:
            after = GAME.play(after, move)
        assert GAME.score(after) >= before
