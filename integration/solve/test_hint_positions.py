"""Hints over many positions of every shipped game (start, middle and late positions of seeded
random lines and of the solver's lines): the first answer is a legal move (or says that no line
wins, or that every move leads back), a thoughtful hint from a winnable position leads to a
winnable position, and no hint leads back to a position of the game unless it is the only
legal move."""

from __future__ import annotations

import itertools
import random

import pytest

from patience_core.engine import DealNumber
from patience_core.games import Game, GameSearch
from patience_core.model import Position
from patience_core.plugins import PluginHost
from patience_core.solve import THOUGHTFUL, Budget, Solution, Verdict, hint, hint_stream, solve
from patience_core.testing import search_for

GAMES = ("escalator", "bristol", "bakers-game", "diamond-mine", "spiderette", "golf")
#: Positions of each search: budgets in positions, so nothing depends on the machine's speed.
NODES = 20_000
#: The same for the two hundred positions of each game (smaller, so that the whole test
#: command stays within its ten minutes on two cores; the properties hold for any budget).
MANY_NODES = 3_000
SLOW = 600.0


@pytest.fixture(scope="module")
def host() -> PluginHost:
    host = PluginHost()
    host.load()
    return host


Case = tuple[Position, list[Position]]


def lines(
    game: Game, search: GameSearch, deals: range, depths: tuple[int, ...], nodes: int = NODES
) -> list[Case]:
    """Positions (with their history) at ``depths`` moves along a seeded random line and along
    the solver's line (when it finds one) of each deal."""
    cases: list[Case] = []
    for number in deals:
        start = game.deal(DealNumber(number))
        solved = solve(game, start, Budget(nodes=nodes, seconds=SLOW), search)
        rand = random.Random(number)
        for line in ("random", "solver"):
            if line == "solver" and not solved.moves:
                continue
            position, history = start, []
            for step in range(max(depths) + 1):
                if step in depths and game.legal_moves(position) and not game.is_won(position):
                    cases.append((position, list(history)))
                legal = game.legal_moves(position)
                if not legal or (line == "solver" and step >= len(solved.moves)):
                    break
                move = rand.choice(legal) if line == "random" else solved.moves[step]
                history.append(position)
                position = game.play(position, move)
    return cases


def check(
    game: Game,
    search: GameSearch,
    position: Position,
    history: list[Position],
    nodes: int = NODES,
) -> None:
    legal = game.legal_moves(position)
    # A position of the game (the engine may do better: it compares the search object's keys).
    seen = {*history, position}
    back = {m for m in legal if game.play(position, m) in seen}
    # The first answer: a legal move, or a proof that no move is worth naming.
    stream = hint_stream(game, position, history, seconds=SLOW, nodes=60, samples=4, search=search)
    first = next(stream)
    # "stuck": every one of several moves leads back (by the search object's keys).
    assert first.move in legal or (
        first.move is None and first.verdict in ("dead", "over", "stuck")
    )
    if first.verdict == "stuck":
        assert len(legal) > 1
    # Over two hundred positions, the first refinements only (the honest rounds that follow
    # raise their budgets, and Diamond Mine's would take minutes).
    answers = [first, *(stream if nodes == NODES else itertools.islice(stream, 2))]
    for answer in answers:
        if answer.move is not None and len(legal) > 1:
            assert answer.move not in back
    # Thoughtful: from a winnable position, to a winnable position.
    known: dict[Position, Solution] = {}
    found = hint(game, position, history, THOUGHTFUL, SLOW, nodes, known=known, search=search)
    if found.move is not None and len(legal) > 1:
        assert found.move not in back
    if found.move is None:
        return
    after = game.play(position, found.move)
    if found.verdict == "won" and after in known:  # the rest of the line the hint found
        for move in known[after].moves:
            after = game.apply(after, move)
        assert game.is_won(after)
    elif solve(game, position, Budget(nodes=nodes, seconds=SLOW), search).verdict is Verdict.WON:
        assert solve(game, after, Budget(nodes=nodes, seconds=SLOW), search).verdict is not (
            Verdict.DEAD
        )


@pytest.mark.parametrize("name", GAMES)
def test_hints_at_ten_positions_of_each_game(host: PluginHost, name: str) -> None:
    game: Game = host.game(name, {})
    search = search_for(game)
    cases = lines(game, search, range(1, 5), (0, 8, 20))
    assert len(cases) >= 8
    for position, history in cases[:10]:
        check(game, search, position, history)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_hints_at_two_hundred_positions_of_each_game(host: PluginHost, name: str) -> None:
    game: Game = host.game(name, {})
    search = search_for(game)
    cases = lines(game, search, range(1, 60), (0, 5, 15, 30, 60), MANY_NODES)
    assert len(cases) >= 100
    for position, history in cases[:200]:
        check(game, search, position, history, MANY_NODES)
