"""The hint cases found by outside testers (cases/2026-12-hints-cases.md), with the shipped games:
a share from one arrangement, "unknown" where a proof is cheap, circles, "no move won"."""

from __future__ import annotations

import re

import pytest

from patience_core.engine import DealNumber
from patience_core.games import Game, GameSearch
from patience_core.model import Position
from patience_core.plugins import PluginHost
from patience_core.solve import (
    HINT_NODES,
    HONEST,
    HONEST_MIN_SAMPLES,
    THOUGHTFUL,
    Budget,
    HonestBudget,
    Verdict,
    hint,
    hint_stream,
    play_honestly,
    solve,
)
from patience_core.testing import search_for

#: Long enough that no answer below depends on the machine's speed (budgets are in positions).
SLOW = 600.0

#: Case 1: Diamond Mine deal 1 after these 33 moves.
DIAMOND_MINE_MOVES = (
    "t5 f, t11 t7, t7 t12, t10 t2, t13 t4, t3 t5, t5 t11 2, t5 t11, t5 t4, t11 t2 4, t12 t2 2, "
    "t3 t8, t2 t3 4, t3 t4 5, t3 f, t8 t2, t4 t3 8, t2 t5 5, t3 t2 8, t2 t6 9, t1 t3, t1 t9, "
    "t1 f, t5 t1 5, t1 t10 6, t11 t9, t6 t1 10, t9 t5 3, t3 t9, t9 t3 2, t5 t9 3, t9 t3 4, t9 f"
)


@pytest.fixture(scope="module")
def host() -> PluginHost:
    host = PluginHost()
    host.load()
    return host


def played(game: Game, deal: str, moves: str) -> tuple[Position, list[Position]]:
    """The position after ``moves`` (comma-separated play notation) from ``deal``, and the
    positions before it."""
    position = game.deal(DealNumber.parse(deal))
    history: list[Position] = []
    for text in filter(None, (part.strip() for part in moves.split(","))):
        history.append(position)
        position = game.apply(position, game.parse_move(position, text))
    return position, history


@pytest.fixture(scope="module")
def diamond_mine(host: PluginHost) -> tuple[Game, GameSearch, Position, list[Position]]:
    game: Game = host.game("diamond-mine", {})
    position, history = played(game, "1", DIAMOND_MINE_MOVES)
    return game, search_for(game), position, history


def test_case1_a_share_is_never_given_over_fewer_than_four_arrangements(
    diamond_mine: tuple[Game, GameSearch, Position, list[Position]],
) -> None:
    game, search, position, history = diamond_mine
    # The clock cuts the sampling short (as on a loaded machine): "100% (1 of 1 sampled)" then
    # said more than it knew.
    for seconds in (0.05, 0.3):
        for found in hint_stream(game, position, history, HONEST, seconds, search=search):
            if found.verdict == "sampled":
                assert found.samples is not None and found.samples >= HONEST_MIN_SAMPLES
            if found.verdict == "too-few":
                assert found.samples is not None and found.samples < HONEST_MIN_SAMPLES
                assert re.fullmatch(r"not enough time to judge \(\d+ arrangements?\)", found.reason)
            if found.final:
                assert found.move in game.legal_moves(position)


def test_case1_every_honest_answer_says_how_many_arrangements_it_judged(
    diamond_mine: tuple[Game, GameSearch, Position, list[Position]],
) -> None:
    game, search, position, history = diamond_mine
    found = hint(game, position, history, HONEST, SLOW, nodes=150, samples=6, search=search)
    assert found.final and found.samples == 6
    assert found.verdict in ("sampled", "score", "unknown")
    assert re.search(r"\((\d+ of )?6 (sampled|arrangements)", found.reason)


def test_case2_a_deal_the_solver_proves_dead_cheaply_is_never_unknown(host: PluginHost) -> None:
    """Baker's Game ms:830910836 (default options): ``patience solve`` proves it dead in about
    9,300 positions; the hint once said "unknown" after 2-3 s."""
    game: Game = host.game("bakers-game", {})
    search = search_for(game)
    start = game.deal(DealNumber.parse("ms:830910836"))
    proof = solve(game, start, Budget(nodes=HINT_NODES, seconds=SLOW), search)
    assert proof.verdict is Verdict.DEAD and proof.nodes < HINT_NODES // 5
    for mode in (None, HONEST, THOUGHTFUL):  # nothing is face down: honest is thoughtful
        answers = list(hint_stream(game, start, mode=mode, seconds=SLOW, search=search))
        assert answers[-1].final and answers[-1].verdict == "dead"
        assert answers[-1].sentence() == "No line wins from here: this deal cannot be won."
        assert all(answer.verdict != "unknown" or not answer.final for answer in answers)


def test_case3_following_spiderette_hints_never_goes_back_to_an_earlier_position(
    host: PluginHost,
) -> None:
    """Spiderette deal 3 followed by thoughtful hints once undid its own earlier moves, and from
    move 36 moved a two-card run back and forth (t1 t3 2, t3 t1 2, ...): no position may repeat
    unless its move was the only legal one; where every move leads back the hint says so."""
    game: Game = host.game("spiderette", {})
    search = search_for(game)
    position = game.deal(DealNumber(3))
    history: list[Position] = []
    entered = {position}
    for _ in range(50):
        legal = game.legal_moves(position)
        if not legal or game.is_won(position):
            break
        found = hint(game, position, history, THOUGHTFUL, SLOW, nodes=3_000, search=search)
        if found.move is None:
            assert found.verdict in ("dead", "stuck")
            break
        after = game.play(position, found.move)
        assert after not in entered or len(legal) == 1
        entered.add(after)
        history.append(position)
        position = after


def test_case3_the_honest_player_never_goes_back_to_an_earlier_position(host: PluginHost) -> None:
    """Diamond Mine deal 5, honest player with 300-position searches: the position after move
    40 once equalled the one after move 32."""
    game: Game = host.game("diamond-mine", {})
    search = search_for(game)
    position = game.deal(DealNumber(5))
    played = play_honestly(game, position, HonestBudget(nodes=300), search=search)
    entered = {position}
    for move in played.moves:
        forced = len(game.legal_moves(position)) == 1
        position = game.play(position, move)
        assert position not in entered or forced
        entered.add(position)


def test_case4_with_no_arrangement_won_moves_are_ranked_by_expected_score(
    host: PluginHost,
) -> None:
    """Diamond Mine honest hints mostly said "no move won in the N sampled arrangements"."""
    game: Game = host.game("diamond-mine", {})
    search = search_for(game)
    position = game.deal(DealNumber(2))  # no sampled arrangement is won after any move
    found = hint(game, position, (), HONEST, SLOW, nodes=150, samples=6, search=search)
    if found.verdict == "score":
        assert found.move in game.legal_moves(position) and found.score is not None
        assert re.fullmatch(
            r"no arrangement won( within the search budget)?; best expected score \d+ of 100 "
            r"\(6 arrangements\)",
            found.reason,
        )
    else:
        assert found.verdict == "sampled" and found.wins
    assert not found.reason.startswith("no move won")
