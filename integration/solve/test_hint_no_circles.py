"""No circles over several moves, with every shipped game: along random lines, a game played by
following hints (thoughtful and honest, small budgets) or by the honest player never repeats a
position unless the move was the only legal one (or, for the honest player with nothing face
down, every move on was proved dead)."""

from __future__ import annotations

import random

import pytest

from patience_core.engine import DealNumber
from patience_core.games import Game
from patience_core.model import Position
from patience_core.plugins import PluginHost
from patience_core.solve import HONEST, THOUGHTFUL, HonestBudget, hint, play_honestly
from patience_core.testing import check_no_repeat, search_for

GAMES = ("escalator", "bristol", "bakers-game", "diamond-mine", "spiderette", "golf")
#: The games whose honest hints or honest games take more than a few seconds here.
SLOWER = ("bristol", "diamond-mine")
#: Long enough that no answer below depends on the machine's speed (budgets are in positions).
SLOW = 600.0
#: The honest player's budget: small searches, so that a game takes seconds.
PLAYER = HonestBudget(samples=4, nodes=200, dead_nodes=2_000, playout=400, play_on_moves=20)
#: Moves of the honest player's game, by game (a few seconds each on a loaded machine).
PLAYER_MOVES = {"bristol": 15, "spiderette": 45}
#: Hints followed along each line, and the lines (deal numbers), by game, honest mode: fewer
#: where an honest hint takes a second.
HONEST_LINES = {"bristol": ((1,), 8), "diamond-mine": ((1,), 6)}


@pytest.fixture(scope="module")
def host() -> PluginHost:
    host = PluginHost()
    host.load()
    return host


def _random_line(game: Game, number: int, depth: int) -> tuple[Position, list[Position]]:
    """The position after up to ``depth`` seeded random moves of deal ``number``, and the
    positions before it."""
    position = game.deal(DealNumber(number))
    history: list[Position] = []
    rand = random.Random(number)
    for _ in range(depth):
        legal = game.legal_moves(position)
        if not legal or game.is_won(position):
            break
        history.append(position)
        position = game.play(position, rand.choice(legal))
    return position, history


def _marked(names: tuple[str, ...], *values: str) -> list[object]:
    """``names`` (each with ``values``) as parameters, those of :data:`SLOWER` marked slow."""
    return [
        pytest.param(n, *values, marks=[pytest.mark.slow] if n in SLOWER else [], id=f"{n}")
        for n in names
    ]


@pytest.mark.parametrize(
    ("name", "mode"),
    [pytest.param(n, THOUGHTFUL, id=f"{n}-thoughtful") for n in GAMES]
    + [
        pytest.param(n, HONEST, marks=[pytest.mark.slow] if n in SLOWER else [], id=f"{n}-honest")
        for n in GAMES
    ],
)
def test_following_hints_never_repeats_a_position_unless_forced(
    host: PluginHost, name: str, mode: str
) -> None:
    game: Game = host.game(name, {})
    search = search_for(game)
    nodes = 1_000 if mode == THOUGHTFUL else 100
    numbers, steps = HONEST_LINES.get(name, ((1, 2), 12)) if mode == HONEST else ((1, 2), 12)
    for number in numbers:
        position, history = _random_line(game, number, 10)
        entered = {*history, position}
        for _ in range(steps):
            legal = game.legal_moves(position)
            if not legal or game.is_won(position):
                break
            found = hint(game, position, history, mode, SLOW, nodes, samples=4, search=search)
            if found.move is None:
                assert found.verdict in ("dead", "stuck", "over")
                break
            after = game.play(position, found.move)
            assert after not in entered or len(legal) == 1, (name, number, found.text)
            entered.add(after)
            history.append(position)
            position = after


@pytest.mark.parametrize("name", _marked(GAMES))
def test_the_honest_player_never_repeats_a_position_unless_forced(
    host: PluginHost, name: str
) -> None:
    game: Game = host.game(name, {})
    search = search_for(game)
    position, _history = _random_line(game, 3, 6)
    played = play_honestly(
        game, position, PLAYER, max_moves=PLAYER_MOVES.get(name, 150), search=search
    )
    check_no_repeat(search, position, played.moves, PLAYER.dead_nodes)
