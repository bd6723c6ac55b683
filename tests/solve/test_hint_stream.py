"""Hints in stages (hint_stream) on the test kit's fake game: a quick first answer from a small
budget, proofs before the win finder, shares over enough arrangements, expected scores when
nothing wins, no circles, and a stream that stops when asked."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from patience_core.engine import DealNumber
from patience_core.games import GameSearch
from patience_core.model import Move, Position
from patience_core.solve import (
    HONEST,
    QUICK_NODES,
    THOUGHTFUL,
    Budget,
    DepthFirst,
    HonestBudget,
    Solution,
    Verdict,
    expected_scores,
    hint,
    hint_stream,
    honest_stats,
    play_honestly,
    playout_score,
    solve,
)
from patience_core.solve._honest import MoveStats
from patience_core.solve._verdicts import honest_final, honest_hint
from patience_core.testing import FakeGame

GAME = FakeGame()
NODES = 20_000
WON_DEAL, DEAD_DEAL = 2, 0


def deal(number: int) -> Position:
    return GAME.deal(DealNumber(number))


def test_hint_is_the_last_answer_of_the_stream_and_only_the_last_is_final() -> None:
    for number in range(6):
        for mode in (THOUGHTFUL, HONEST):
            answers = list(hint_stream(GAME, deal(number), mode=mode, seconds=60, nodes=500))
            assert answers and answers[-1].final and answers[-1].stage == "final"
            assert not any(answer.final for answer in answers[:-1])
            again = hint(GAME, deal(number), mode=mode, seconds=60, nodes=500)
            assert (again.move, again.reason, again.verdict) == (
                answers[-1].move,
                answers[-1].reason,
                answers[-1].verdict,
            )


def test_the_first_answer_is_a_legal_move_from_a_small_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before the first answer the stream searches at most QUICK_NODES positions."""
    budgets: list[int] = []
    run = DepthFirst.run

    def counted(self: DepthFirst, budget: Budget) -> Solution:
        budgets.append(budget.nodes)
        return run(self, budget)

    monkeypatch.setattr(DepthFirst, "run", counted)
    for number in range(8):
        stream = hint_stream(GAME, deal(number), mode=THOUGHTFUL, seconds=60, nodes=NODES)
        budgets.clear()
        first = next(stream)
        assert sum(budgets) <= QUICK_NODES
        assert first.final or first.move in GAME.legal_moves(deal(number))
        assert first.as_dict()["stage"] in ("quick", "final", "refined")


class _NoWinFinder(GameSearch):
    """A search object whose win finder must not run before the exhaustive proof."""

    def find_win(self, position: Position, nodes: int, seconds: float) -> tuple[None, int]:
        raise AssertionError("the win finder ran before the proof")


def test_a_position_proved_dead_in_a_fifth_of_the_budget_is_never_unknown() -> None:
    start = deal(DEAD_DEAL)
    proof = solve(GAME, start, Budget(nodes=NODES))
    assert proof.verdict is Verdict.DEAD
    nodes = proof.nodes * 5 + 1  # the proof fits in the share before the win finder
    found = hint(GAME, start, mode=THOUGHTFUL, seconds=60, nodes=nodes, search=_NoWinFinder(GAME))
    assert found.verdict == "dead" and found.final


def test_an_honest_share_needs_four_arrangements() -> None:
    position = deal(3)
    legal = GAME.legal_moves(position)
    stats = [MoveStats(m, wins=int(i == 0), unknown=0, samples=2) for i, m in enumerate(legal)]
    found = honest_hint(GAME, GameSearch(GAME), position, stats, HONEST, set(), 0.0, True)
    assert found.verdict == "too-few" and found.samples == 2
    assert found.reason == "not enough time to judge (2 arrangements)"
    stats = [MoveStats(m, wins=int(i == 0), unknown=0, samples=4) for i, m in enumerate(legal)]
    found = honest_hint(GAME, GameSearch(GAME), position, stats, HONEST, set(), 0.0, True)
    assert found.verdict == "sampled" and "(1 of 4 sampled)" in found.reason


def test_a_share_from_playouts_needs_four_arrangements_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The searches judged 5 arrangements, but the playouts got through only 2 before the
    deadline and won 1: no share from 2 arrangements ("not enough time to judge")."""
    from patience_core.solve import _verdicts

    position = deal(3)
    legal = GAME.legal_moves(position)
    undecided = [MoveStats(m, wins=0, unknown=5, samples=5) for m in legal]

    def two_played(*args: object, **kwargs: object) -> tuple[dict[Move, float], int]:
        won = kwargs.get("wins", args[-1] if len(args) > 7 else None)
        assert isinstance(won, dict)
        won[legal[0]] = 1
        return {m: 0.0 for m in legal}, 2

    monkeypatch.setattr(_verdicts, "expected_scores", two_played)
    found = honest_final(GAME, GameSearch(GAME), position, undecided, HONEST, set(), 0.0, 9e9)
    assert found.verdict == "too-few" and found.samples == 2
    assert found.reason == "not enough time to judge (2 arrangements)"


def test_with_no_arrangement_won_the_move_of_best_expected_score_is_named() -> None:
    position = deal(6)  # no arrangement of it is won after any move
    search = GameSearch(GAME)
    legal = GAME.legal_moves(position)
    assert len(legal) > 1
    stats = [MoveStats(m, wins=0, unknown=0, samples=5) for m in legal]
    scores, done = expected_scores(search, position, legal, 5)
    assert done >= 1
    found = honest_final(GAME, search, position, stats, HONEST, set(), 0.0, float("inf"))
    assert found.verdict == "score" and found.final and found.move is not None
    assert found.score == max(scores.values())
    assert found.reason.startswith("no arrangement won; best expected score ")
    assert found.reason.endswith(f" of {GAME.max_score} (5 arrangements)")


def test_an_expected_score_at_the_maximum_is_never_given_without_a_win() -> None:
    """The playouts play the arrangements the shares judged; a playout that wins one the
    search left undecided makes a share of wins, not "no arrangement won"."""
    search = GameSearch(GAME)
    for number in range(12):
        position = deal(number)
        legal = GAME.legal_moves(position)
        if len(legal) < 2:
            continue
        undecided = [MoveStats(m, wins=0, unknown=5, samples=5) for m in legal]
        found = honest_final(GAME, search, position, undecided, HONEST, set(), 0.0, float("inf"))
        if found.verdict == "score":
            assert found.score is not None and found.score < GAME.max_score
        else:
            assert found.verdict == "sampled" and found.wins and "sampled)" in found.reason
        judged = honest_stats(GAME, position, 5, 60, nodes=NODES)
        if not any(entry.wins for entry in judged):
            won: dict[Move, int] = {}
            expected_scores(search, position, legal, 5, wins=won)
            assert not won


def test_expected_scores_depend_only_on_what_the_player_sees() -> None:
    from patience_core.engine import GRand
    from patience_core.solve import sample_hidden, visible_view

    position = deal(3)
    legal = GAME.legal_moves(position)
    twin = sample_hidden(position, GRand(7))
    assert visible_view(twin) == visible_view(position)
    search = GameSearch(GAME)
    assert expected_scores(search, position, legal, 4) == expected_scores(search, twin, legal, 4)
    assert 0 <= playout_score(search, position, 10) <= GAME.max_score


def _seen_keys(positions: Sequence[Position]) -> set[object]:
    return {GameSearch(GAME).key(p) for p in positions}


@pytest.mark.parametrize("mode", [THOUGHTFUL, HONEST])
def test_no_hint_leads_back_to_an_earlier_position_unless_every_move_does(mode: str) -> None:
    for number in range(10):
        position = deal(number)
        history: list[Position] = []
        for _ in range(12):
            legal = GAME.legal_moves(position)
            if not legal:
                break
            found = hint(GAME, position, history, mode, 60, nodes=300, samples=6)
            if found.move is None:
                break
            seen = _seen_keys([*history, position])
            back = [m for m in legal if GameSearch(GAME).key(GAME.play(position, m)) in seen]
            if len(back) < len(legal):
                assert found.move not in back
            history.append(position)
            position = GAME.play(position, found.move)


def test_a_cancelled_stream_stops() -> None:
    calls: list[int] = []

    def cancel() -> bool:
        calls.append(1)
        return True

    answers = list(hint_stream(GAME, deal(3), mode=HONEST, seconds=60, cancel=cancel))
    assert calls and len(answers) <= 1


def test_the_honest_player_never_enters_a_position_it_has_seen() -> None:
    search = GameSearch(GAME)
    for number in range(6):
        position = deal(number)
        played = play_honestly(GAME, position, HonestBudget(samples=4, nodes=200))
        seen = {search.key(position)}
        for move in played.moves:
            position = GAME.play(position, move)
            assert search.key(position) not in seen
            seen.add(search.key(position))


def test_honest_stats_are_the_last_round_of_honest_rounds() -> None:
    from patience_core.solve import honest_rounds

    position = deal(3)
    rounds = list(honest_rounds(GAME, position, samples=8, seconds=60))
    assert rounds and rounds[-1][1] and not any(last for _stats, last in rounds[:-1])
    assert rounds[-1][0] == honest_stats(GAME, position, samples=8, seconds=60)


def test_an_undecided_honest_answer_says_within_the_budget_only_when_final() -> None:
    """Before the final answer the search goes on: "found yet", not "within the budget"."""
    position = deal(3)
    stats = [MoveStats(m, wins=0, unknown=4, samples=4) for m in GAME.legal_moves(position)]
    search = GameSearch(GAME)
    going = honest_hint(GAME, search, position, stats, HONEST, set(), 0.0, False)
    assert going.reason.startswith("no winning line found yet; the solver's best guess so far (")
    final = honest_hint(GAME, search, position, stats, HONEST, set(), 0.0, True)
    assert final.reason.startswith("no winning line was found within the search budget; ")
