"""The strategy registry and the built-in players (RandomStrategy, GreedyStrategy)."""

from __future__ import annotations

import types
from collections.abc import Sequence
from importlib import metadata
from typing import Any

import pytest

from patience_core import hookimpl
from patience_core.api import Card, Game, Move, PileKind, PileSpec, Position
from patience_core.engine import DealNumber
from patience_core.errors import PatienceError, PluginError
from patience_core.games import (
    GreedyStrategy,
    RandomStrategy,
    Strategy,
    StrategyRegistry,
)
from patience_core.plugins import PluginHost
from patience_core.simulate import LOST, STOPPED, WON, play_deal

ACE = Card.from_code("Ah")


class Toggle(Game):
    """One card that can only go back and forth between two piles: a loop and nothing else."""

    name = "toggle"
    title = "Toggle"
    max_score = 1
    rules = "Move the card."

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        return (PileSpec("t1", PileKind.TABLEAU), PileSpec("t2", PileKind.TABLEAU))

    def layout(self, cards: list[Card]) -> Position:
        return Position(((ACE,), ()))

    def legal_moves(self, position: Position) -> list[Move]:
        return [Move.transfer(0, 1)] if position[0] else [Move.transfer(1, 0)]

    def play(self, position: Position, move: Move) -> Position:
        assert move.target is not None
        return position.replace(((move.source, ()), (move.target, (ACE,))))

    def is_won(self, position: Position) -> bool:
        return False

    def score(self, position: Position) -> int:
        return 0


class Endless(Toggle):
    """Every move makes a new position (a longer pile) and nothing ever scores."""

    name = "endless"

    def legal_moves(self, position: Position) -> list[Move]:
        return [Move.transfer(1, 0)]

    def play(self, position: Position, move: Move) -> Position:
        return position.replace(((0, (*position[0], ACE)),))


class Ladder(Toggle):
    """Three moves in a row score one point each; the third wins. A distracting move scores 0."""

    name = "ladder"
    max_score = 3

    def layout(self, cards: list[Card]) -> Position:
        return Position(((), ()))

    def legal_moves(self, position: Position) -> list[Move]:
        if self.is_won(position):
            return []
        return [Move.transfer(0, 1), Move.transfer(1, 0)]

    def play(self, position: Position, move: Move) -> Position:
        if move.source == 1:  # the scoring move
            return position.replace(((1, (*position[1], ACE)),))
        return position.replace(((0, (*position[0], ACE)),))

    def is_won(self, position: Position) -> bool:
        return len(position[1]) >= 3

    def score(self, position: Position) -> int:
        return len(position[1])


# -- registry ---------------------------------------------------------------------------------


def test_registry_refuses_a_taken_name() -> None:
    registry = StrategyRegistry()
    registry.add("random", RandomStrategy, "random")
    with pytest.raises(PluginError, match="already registered"):
        registry.add("random", GreedyStrategy)


def test_registry_unknown_name_lists_the_known_ones() -> None:
    registry = StrategyRegistry()
    registry.add("zeta", RandomStrategy)
    registry.add("alpha", GreedyStrategy, "one line")
    assert registry.names() == ["alpha", "zeta"]
    assert registry.help("alpha") == "one line"
    with pytest.raises(PatienceError, match=r"unknown strategy 'beta' \(known: alpha, zeta\)"):
        registry.get("beta")


def test_builtins_are_registered_through_the_hook() -> None:
    host = PluginHost(entry_points=[]).load()
    assert host.strategies.names() == ["greedy", "honest", "random", "solver"]
    assert host.strategies.get("greedy") is GreedyStrategy
    assert host.strategies.takes_budget("solver") and not host.strategies.takes_budget("greedy")


class FirstMove:
    """A plugin's player: always the first legal move."""

    def __init__(self, game: Game, seed: int) -> None:
        self.seed = seed

    def choose(self, position: Position, legal: Sequence[Move]) -> Move:
        return legal[0]


class _Dist:
    def __init__(self, name: str) -> None:
        self.metadata = {"Name": name}
        self.version = "9.9"


class FakeEntryPoint:
    """Stands in for importlib.metadata.EntryPoint: name, dist, load()."""

    def __init__(self, name: str, dist: str, plugin: Any) -> None:
        self.name = name
        self.dist = _Dist(dist)
        self._plugin = plugin

    def load(self) -> Any:
        return self._plugin


def strategy_plugin() -> types.SimpleNamespace:
    @hookimpl
    def patience_register_strategies(registry: StrategyRegistry) -> None:
        registry.add("first-move", FirstMove, "always the first legal move")

    return types.SimpleNamespace(patience_register_strategies=patience_register_strategies)


def host_with_extra_strategy() -> PluginHost:
    """The installed plugins plus one that registers the ``first-move`` strategy."""
    installed: list[Any] = list(metadata.entry_points(group="patience"))
    extra = FakeEntryPoint("first", "patience-first-move", strategy_plugin())
    return PluginHost(entry_points=[*installed, extra])  # type: ignore[list-item]


def test_a_plugin_strategy_is_registered_and_plays() -> None:
    host = host_with_extra_strategy().load()
    assert "first-move" in host.strategies.names()
    game = host.game("escalator")
    row = play_deal(game, host.strategies.get("first-move"), DealNumber(3), "first-move")
    assert row.strategy == "first-move"
    assert row.result == LOST  # Escalator always ends: the stock runs out


# -- random -----------------------------------------------------------------------------------


def escalator() -> Game:
    return PluginHost().load().game("escalator")


def choices(player: Strategy, game: Game, deal: int) -> list[Move]:
    position = game.deal(DealNumber(deal))
    made = []
    while legal := game.legal_moves(position):
        move = player.choose(position, legal)
        assert move is not None and move in legal
        made.append(move)
        position = game.play(position, move)
    return made


def test_random_is_determined_by_its_seed() -> None:
    game = escalator()
    first = choices(RandomStrategy(game, 12345), game, 7)
    assert first == choices(RandomStrategy(game, 12345), game, 7)
    others = [choices(RandomStrategy(game, seed), game, 7) for seed in range(1, 6)]
    assert any(moves != first for moves in others)


# -- greedy -----------------------------------------------------------------------------------


def test_greedy_resigns_when_every_move_goes_back() -> None:
    row = play_deal(Toggle(), GreedyStrategy, DealNumber(1), "greedy")
    assert (row.result, row.moves) == (STOPPED, 1)


def test_greedy_resigns_after_its_patience_runs_out() -> None:
    def patient(game: Game, seed: int) -> GreedyStrategy:
        return GreedyStrategy(game, seed, patience=5)

    row = play_deal(Endless(), patient, DealNumber(1), "greedy", max_moves=100)
    assert (row.result, row.moves) == (STOPPED, 5)


def test_greedy_takes_the_scoring_line_not_the_first_move() -> None:
    row = play_deal(Ladder(), GreedyStrategy, DealNumber(1), "greedy")
    assert (row.result, row.score, row.moves) == (WON, 3, 3)


def test_greedy_never_enters_a_position_twice() -> None:
    game = escalator()
    player = GreedyStrategy(game, 0)
    position = game.deal(DealNumber(5))
    visited = {position}
    while legal := game.legal_moves(position):
        move = player.choose(position, legal)
        if move is None:
            break
        position = game.play(position, move)
        assert position not in visited
        visited.add(position)


def test_greedy_wins_a_deal_random_loses() -> None:
    game = escalator()
    # Escalator deal 53 is one greedy wins (found with `patience simulate`); random loses it.
    assert play_deal(game, GreedyStrategy, DealNumber(53), "greedy").result == WON
    assert play_deal(game, RandomStrategy, DealNumber(53), "random").result == LOST


def test_greedy_scores_better_than_random_on_average() -> None:
    game = escalator()
    deals = [DealNumber(d) for d in range(1, 61)]
    greedy = sum(play_deal(game, GreedyStrategy, d, "greedy").score for d in deals)
    random = sum(play_deal(game, RandomStrategy, d, "random").score for d in deals)
    assert greedy > random * 1.2


def test_greedy_deals_only_when_no_card_can_be_played() -> None:
    game = escalator()
    player = GreedyStrategy(game, 0)
    position = game.deal(DealNumber(9))
    while legal := game.legal_moves(position):
        move = player.choose(position, legal)
        assert move is not None
        playable = [m for m in legal if m.kind.value != "deal"]
        if move.kind.value == "deal":
            assert not playable
        position = game.play(position, move)


@pytest.mark.parametrize("name", PluginHost().load().games.names())
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_built_in_players_play_every_installed_game(name: str, strategy: str) -> None:
    host = PluginHost().load()
    game = host.game(name)
    first = DealNumber(1, game.deal_schemes[0])
    row = play_deal(game, host.strategies.get(strategy), first, strategy, max_moves=150)
    assert row.result in (WON, LOST, STOPPED)
    assert 0 <= row.score <= game.max_score
    assert row.moves <= 150
    assert row.result != STOPPED or row.moves == 150 or strategy == "greedy"
