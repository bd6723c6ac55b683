"""A won line before the solver returns it: the depth-first search's shortcuts (never longer,
still winning, exact where keys merge positions) and the replay by the rules (an illegal move or
a line that does not end won is refused, with or without the search object's moves)."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence

import pytest
from test_solver import POSITIONS, Canonical, Mini, replays_to_win

import patience_core.solve._depthfirst as depthfirst_module
from patience_core.games import GameSearch, PositionSpace
from patience_core.model import Move, Position
from patience_core.solve import Budget, DepthFirst, Solution, Verdict
from patience_core.solve._solver import _checked, _replayed, solve


class FirstCell(Canonical):
    """Canonical's key and forced move, and moves to try as a fast game's: legal moves, less a
    card into any but the first empty free cell (its result has a kept move's key)."""

    def moves_to_try(self, position: Position) -> list[Move]:
        game = self.game
        empty = [c for c in range(game.cells) if not position[c]]
        return [
            move
            for move in game.legal_moves(position)
            if move.target is None or move.target >= game.cells or move.target == empty[0]
        ]


def won_lines(search: type[GameSearch]) -> Iterator[tuple[Position, tuple[Move, ...]]]:
    game = Mini()
    for position in POSITIONS:
        solution = solve(game, position, search=search(game))
        if solution.verdict is Verdict.WON and solution.moves:
            yield position, solution.moves


def second_cell(game: Mini, position: Position) -> Move | None:
    """A legal move into the second free cell (one FirstCell leaves out), or None."""
    if position[0] or position[1]:
        return None
    return next((m for m in game.legal_moves(position) if m.target == 1), None)


@pytest.mark.parametrize("search", [None, GameSearch, FirstCell])
def test_a_line_with_an_illegal_move_is_refused(search: type[GameSearch] | None) -> None:
    game = Mini()
    refused = 0
    for position, line in won_lines(FirstCell):
        assert _replayed(game, position, line, search and search(game)) == line
        # Moving the first card of the line onto a foundation that does not take it.
        bad = Move.transfer(line[0].source, game.foundation)
        if bad not in game.legal_moves(position):
            lines = [(bad, *line), (*line[:2], bad, *line[2:])]
            for wrong in lines:
                assert _replayed(game, position, wrong, search and search(game)) is None
            refused += 1
    assert refused >= 5


@pytest.mark.parametrize("search", [None, GameSearch, FirstCell])
def test_a_line_that_does_not_end_won_is_refused(search: type[GameSearch] | None) -> None:
    game = Mini()
    for position, line in won_lines(FirstCell):
        assert _replayed(game, position, line[:-1], search and search(game)) is None
        unknown = _checked(game, position, Solution(Verdict.WON, line[:-1], 5, 0.0))
        assert (unknown.verdict, unknown.moves, unknown.nodes) == (Verdict.UNKNOWN, (), 5)
        assert unknown.seconds >= 0.0  # the replay's CPU time


def test_a_legal_move_the_search_leaves_out_is_accepted() -> None:
    """A win finder's line may put a card into the second empty free cell: legal by the rules,
    though not among the search object's moves."""
    game = Mini()
    search = FirstCell(game)
    accepted = 0
    for position in POSITIONS:
        move = second_cell(game, position)
        if move is None:
            continue
        after = game.play(position, move)
        solution = solve(game, after, search=search)
        if solution.verdict is not Verdict.WON:
            continue
        assert move not in search.moves_to_try(position)
        line = (move, *solution.moves)
        assert _replayed(game, position, line, search) == line
        accepted += 1
    assert accepted >= 3


def unshortened(monkeypatch: pytest.MonkeyPatch) -> None:
    def keep(
        space: object,
        states: object,
        keys: object,
        untried: object,
        steps: Sequence[object],
        *args: float,
    ) -> list[object]:
        return list(steps)

    monkeypatch.setattr(depthfirst_module, "_shortcut", keep)


@pytest.mark.parametrize("search", [GameSearch, Canonical, FirstCell])
def test_shortcuts_keep_the_line_winning_and_never_make_it_longer(
    search: type[GameSearch], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Straight from the depth-first search (before any replay could hide a wrong line): with
    Canonical's keys, positions with columns in another order share a key, and a shortcut to
    such a position would leave the rest of the line naming the wrong columns."""
    game = Mini()
    found = [
        DepthFirst(PositionSpace(search(game), position)).run(Budget()) for position in POSITIONS
    ]
    unshortened(monkeypatch)
    raw = [
        DepthFirst(PositionSpace(search(game), position)).run(Budget()) for position in POSITIONS
    ]
    shorter = 0
    for position, short, long in zip(POSITIONS, found, raw, strict=True):
        assert short.verdict is long.verdict
        if short.verdict is Verdict.WON:
            assert replays_to_win(game, position, short)
            assert len(short.moves) <= len(long.moves)
            shorter += len(short.moves) < len(long.moves)
    assert shorter >= 3


class Twins:
    """The numbers 0..6 (6 wins), "up" adds one; from 0, "twin" leads to "3'", which has 3's
    key (the same future) but whose step up is called "UP": a shortcut to it by the key alone
    would be followed by steps that do not apply there."""

    def start(self) -> tuple[object, int]:
        return 0, 0

    def children(self, state: object) -> Iterator[tuple[str, object, int]]:
        if state == "3'":
            yield "UP", 4, 1
            return
        assert isinstance(state, int)
        yield "up", state + 1, 1
        if state == 0:
            yield "twin", "3'", 1

    def key(self, state: object) -> Hashable:
        return 3 if state == "3'" else state

    def is_won(self, state: object) -> bool:
        return state == 6

    def is_dead(self, state: object) -> bool:
        return False

    def moves(self, steps: Sequence[str]) -> list[Move]:
        return list(steps)  # type: ignore[arg-type]  # the steps stand for moves here


def test_a_shortcut_goes_only_to_the_very_state_of_the_line() -> None:
    solution = DepthFirst(Twins()).run(Budget())
    assert solution.verdict is Verdict.WON
    assert [str(step) for step in solution.moves] == ["up"] * 6
