"""The solver and the hints, on the test kit's fake game (which has no search helpers: the
generic search alone decides its deals at once)."""

from __future__ import annotations

import pytest

from patience_core.engine import DealNumber, GRand
from patience_core.model import Position
from patience_core.solve import (
    HONEST,
    THOUGHTFUL,
    Budget,
    Verdict,
    face_down_places,
    hint,
    sample_hidden,
    solve,
    visible_view,
)
from patience_core.testing import FakeGame

GAME = FakeGame()
#: Positions at most for a search: far more than any fake deal needs, and the verdict depends
#: on no clock.
NODES = 20_000
WON_DEAL, DEAD_DEAL = 2, 0


def verdict(deal: int, game: FakeGame = GAME) -> Verdict:
    return solve(game, game.deal(DealNumber(deal)), Budget(nodes=NODES, seconds=60)).verdict


def test_a_won_deal_comes_with_a_line_that_replays_to_the_win() -> None:
    start = GAME.deal(DealNumber(WON_DEAL))
    solution = solve(GAME, start, Budget(nodes=NODES, seconds=60))
    assert solution.verdict is Verdict.WON and solution.moves
    position = start
    for move in solution.moves:
        assert not GAME.is_won(position)
        position = GAME.apply(position, move)  # raises IllegalMove for a bad line
    assert GAME.is_won(position) and GAME.score(position) == GAME.max_score


def test_a_dead_deal_is_proved_dead() -> None:
    solution = solve(GAME, GAME.deal(DealNumber(DEAD_DEAL)), Budget(nodes=NODES, seconds=60))
    assert solution.verdict is Verdict.DEAD and solution.moves == ()


def test_a_tiny_budget_leaves_the_verdict_unknown() -> None:
    solution = solve(GAME, GAME.deal(DealNumber(DEAD_DEAL)), Budget(nodes=1))
    assert solution.verdict is Verdict.UNKNOWN and solution.moves == ()


def test_low_deals_hold_both_verdicts_and_the_option_changes_them() -> None:
    verdicts = [verdict(n) for n in range(10)]
    assert Verdict.WON in verdicts and Verdict.DEAD in verdicts
    assert Verdict.UNKNOWN not in verdicts
    # An empty pile that takes any card makes deal 0 winnable.
    assert verdict(DEAD_DEAL, FakeGame({"empty-piles": "any"})) is Verdict.WON


def test_the_solver_does_not_change_its_position() -> None:
    start = GAME.deal(DealNumber(WON_DEAL))
    solve(GAME, start, Budget(nodes=NODES))
    assert start == GAME.deal(DealNumber(WON_DEAL))


def test_following_thoughtful_hints_wins() -> None:
    position = GAME.deal(DealNumber(WON_DEAL))
    history: list[Position] = []
    for _ in range(40):
        if GAME.is_won(position):
            break
        found = hint(GAME, position, history, mode=THOUGHTFUL, seconds=60, nodes=NODES)
        assert found.verdict == "won" and found.move in GAME.legal_moves(position)
        assert found.text == GAME.move_text(position, found.move)
        history.append(position)
        position = GAME.apply(position, found.move)
    assert GAME.is_won(position)
    assert hint(GAME, position, mode=THOUGHTFUL).verdict == "over"


def test_a_thoughtful_hint_in_a_dead_deal_says_it_cannot_be_won() -> None:
    found = hint(GAME, GAME.deal(DealNumber(DEAD_DEAL)), mode=THOUGHTFUL, seconds=60, nodes=NODES)
    assert found.move is None and found.verdict == "dead"
    assert found.sentence() == "No line wins from here: this deal cannot be won."


def honest(position: Position) -> tuple[str, str, str, int | None]:
    found = hint(GAME, position, mode=HONEST, seconds=60, nodes=500, samples=8)
    assert found.move in GAME.legal_moves(position)
    return found.text, found.reason, found.verdict, found.wins


@pytest.mark.parametrize("deal", [DEAD_DEAL, 3])
def test_an_honest_hint_never_looks_at_the_face_down_cards(deal: int) -> None:
    # Positions that differ only in where the face-down cards lie get the same honest hint.
    position = GAME.deal(DealNumber(deal))
    assert len(face_down_places(position)) >= 2 and len(GAME.legal_moves(position)) > 1
    expected = honest(position)
    twins = {sample_hidden(position, GRand(seed)) for seed in range(4)} - {position}
    assert twins and all(visible_view(twin) == visible_view(position) for twin in twins)
    for twin in twins:
        assert honest(twin) == expected


def test_an_honest_hint_hopes_where_only_the_hidden_cards_make_a_deal_dead() -> None:
    # Deal 0 is dead with every card known, but a player who sees only the face-up cards
    # cannot know it: some arrangements of the unseen cards win.
    _text, reason, verdict_, wins = honest(GAME.deal(DealNumber(DEAD_DEAL)))
    assert verdict_ == "sampled" and wins
    assert "of the possible arrangements of the unseen cards" in reason
