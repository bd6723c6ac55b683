"""Search spaces (patience_core.games): a game's own compact form for the depth-first search,
the check of the conformance kit, and the resumable search."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import ClassVar

import pytest
from test_solver import (
    POSITIONS,
    Canonical,
    Mini,
    brute_line,
    replays_to_win,
    winnable,
)

import patience_core.solve._solver as solver_module
from patience_core.games import GameSearch, PositionSpace
from patience_core.model import Move, Position
from patience_core.solve import Budget, DepthFirst, Verdict
from patience_core.solve._solver import _depth_first, solve
from patience_core.testing import check_search_space

#: A state of Mini's compact space: the ranks in each pile.
Ranks = tuple[tuple[int, ...], ...]


class MiniSpace:
    """Mini's rules on tuples of ranks (each rank is one card of Mini's deck)."""

    drop_cells: ClassVar[bool] = False

    def __init__(self, game: Mini, position: Position) -> None:
        self.game = game
        self.root: Ranks = tuple(tuple(int(card.rank) for card in pile) for pile in position)

    def start(self) -> tuple[Ranks, int]:
        return self.root, 0

    def children(self, state: Ranks) -> Iterator[tuple[tuple[int, int], Ranks, int]]:
        home = self.game.foundation
        if len(state[home]) == self.game.size:
            return
        for source, pile in enumerate(state):
            if source == home or not pile:
                continue
            rank = pile[-1]
            targets = [home] if rank == len(state[home]) + 1 else []
            targets += [
                t
                for t in range(home + 1, len(state))
                if t != source and (not state[t] or state[t][-1] == rank + 1)
            ]
            if not self.drop_cells:
                targets += [c for c in range(self.game.cells) if not state[c]]
            for target in targets:
                piles = list(state)
                piles[source] = pile[:-1]
                piles[target] = (*state[target], rank)
                yield (source, target), tuple(piles), 1

    def key(self, state: Ranks) -> Hashable:
        return state

    def is_won(self, state: Ranks) -> bool:
        return len(state[self.game.foundation]) == self.game.size

    def is_dead(self, state: Ranks) -> bool:
        return False

    def moves(self, steps: Sequence[tuple[int, int]]) -> list[Move]:
        return [Move.transfer(source, target) for source, target in steps]


class SpaceSearch(GameSearch):
    """A search object for Mini with its own search space."""

    game: Mini
    space: ClassVar[type[MiniSpace]] = MiniSpace

    def search_space(self, position: Position) -> MiniSpace:
        return self.space(self.game, position)


class NoCells(MiniSpace):
    """A broken space: it never offers a move into a free cell."""

    drop_cells = True


class BrokenSearch(SpaceSearch):
    space = NoCells


def test_a_game_space_gives_the_brute_force_verdicts_and_lines_that_replay() -> None:
    game = Mini()
    for position in POSITIONS:
        solution = solve(game, position, search=SpaceSearch(game))
        assert (solution.verdict is Verdict.WON) == winnable(game, position)
        if solution.verdict is Verdict.WON:
            assert replays_to_win(game, position, solution)


def test_the_conformance_check_passes_a_faithful_space() -> None:
    game = Mini()
    assert check_search_space(game, 1, 3, 40, SpaceSearch(game)) > 0


def test_the_conformance_check_catches_a_space_that_leaves_out_moves() -> None:
    game = Mini()
    with pytest.raises(AssertionError, match="no child for"):
        for seed in range(5):
            check_search_space(game, 1, seed, 40, BrokenSearch(game))


def test_a_space_that_leaves_out_moves_can_call_a_winnable_deal_dead() -> None:
    # Why the check matters: the solver trusts the space.
    game = Mini()
    broken = BrokenSearch(game)
    lies = [
        p
        for p in POSITIONS
        if winnable(game, p) and solve(game, p, search=broken).verdict is Verdict.DEAD
    ]
    assert lies


def test_the_position_space_plays_forced_moves_into_each_step() -> None:
    game = Mini()
    position = POSITIONS[0]
    space = PositionSpace(GameSearch(game), position)
    start, cost = space.start()
    assert (start, cost) == (position, 0)  # Mini has no forced moves
    steps = [step for step, _child, _cost in space.children(start)]
    assert all(len(step) == 1 for step in steps)
    assert space.moves(steps[:1]) == list(steps[0])


@pytest.mark.parametrize("nodes", [1, 7, 50])
def test_a_search_resumed_in_slices_reaches_the_same_verdict_and_line(nodes: int) -> None:
    game = Mini()
    for position in POSITIONS[:15]:
        whole = _depth_first(GameSearch(game), position, Budget())
        search = DepthFirst(PositionSpace(GameSearch(game), position))
        runs = 0
        while (part := search.run(Budget(nodes=nodes))).verdict is Verdict.UNKNOWN:
            runs += 1
            assert runs < 10_000
        assert (part.verdict, part.moves) == (whole.verdict, whole.moves)
        assert part.nodes == whole.nodes


class Empty(GameSearch):
    """A win finder that finds nothing (and costs nothing)."""

    calls: ClassVar[int] = 0

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[list[Move] | None, int]:
        Empty.calls += 1
        return None, 0


def test_the_search_after_the_win_finder_continues_the_first_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A tenth of these small budgets first, as of a large one, so that the finder is asked.
    monkeypatch.setattr(solver_module, "FIRST_MIN_NODES", 1)
    game = Mini()
    for position in POSITIONS:
        whole = _depth_first(Empty(game), position, Budget())
        if whole.nodes < 100:
            continue
        solution = solve(game, position, Budget(nodes=whole.nodes + 5), Empty(game))
        # Not started again from scratch: the node budget would not have been enough.
        assert solution.verdict is whole.verdict
        assert solution.moves == whole.moves
        assert solution.nodes == whole.nodes
    assert Empty.calls


def test_a_finished_search_answers_again_at_once() -> None:
    game = Mini()
    position = next(p for p in POSITIONS if brute_line(game, p) is not None)
    search = DepthFirst(PositionSpace(GameSearch(game), position))
    first = search.run(Budget())
    again = search.run(Budget(nodes=1))
    assert first.verdict is Verdict.WON
    assert (again.verdict, again.moves, again.nodes) == (first.verdict, first.moves, first.nodes)


class Boastful(MiniSpace):
    """A broken space: it calls a state won as soon as the foundation holds a card."""

    def is_won(self, state: Ranks) -> bool:
        return bool(state[self.game.foundation])


class BoastfulSearch(SpaceSearch):
    space = Boastful


def test_a_won_line_that_does_not_replay_is_never_reported() -> None:
    game = Mini()
    claims = 0
    for position in POSITIONS:
        claims += DepthFirst(Boastful(game, position)).run(Budget()).verdict is Verdict.WON
        solution = solve(game, position, search=BoastfulSearch(game))
        assert solution.verdict is not Verdict.WON or replays_to_win(game, position, solution)
        if not winnable(game, position):
            assert solution.verdict is not Verdict.WON
    assert claims > len(POSITIONS) // 2  # false claims aplenty; solve believes none of them


class Heights(MiniSpace):
    """A broken space: its key is the piles' heights only."""

    def key(self, state: Ranks) -> Hashable:
        return tuple(len(pile) for pile in state)


class HeightsSearch(SpaceSearch):
    space = Heights


class Stale(MiniSpace):
    """A broken space: a move into a free cell leaves the cell empty in the child."""

    def children(self, state: Ranks) -> Iterator[tuple[tuple[int, int], Ranks, int]]:
        for step, child, cost in super().children(state):
            if step[1] < self.game.cells:
                piles = list(child)
                piles[step[1]] = ()
                child = tuple(piles)
            yield step, child, cost


class StaleSearch(SpaceSearch):
    space = Stale


@pytest.mark.parametrize("search", [HeightsSearch, StaleSearch], ids=["key", "child"])
def test_the_conformance_check_catches_wrong_keys_and_wrong_children(
    search: type[SpaceSearch],
) -> None:
    game = Mini()
    with pytest.raises(AssertionError, match=r"another future|not the position it leads to"):
        for seed in range(10):
            check_search_space(game, 1, seed, 40, search(game))


class ForcedSpace(Canonical):
    """The canonical search (forced foundation moves) with the default space given as its
    own."""

    def search_space(self, position: Position) -> PositionSpace:
        return PositionSpace(self, position)


def test_the_conformance_check_passes_a_space_that_folds_forced_moves_into_steps() -> None:
    game = Mini()
    assert sum(check_search_space(game, 1, s, 40, ForcedSpace(game)) for s in range(5))


class Garbled(GameSearch):
    """A broken plugin: its search_space returns something that is not a search space."""

    def search_space(self, position: Position) -> object:  # type: ignore[override]
        return 42


def test_a_search_space_that_is_not_one_is_blamed_on_the_plugin() -> None:
    from patience_core.errors import PluginError

    with pytest.raises(PluginError, match="mini-freecell plugin is broken: its search_space"):
        solve(Mini(), POSITIONS[0], search=Garbled(Mini()))


class Ladder:
    """A space of the numbers 0..6 (6 wins): "up" adds one, and from 0 "jump" adds three. The
    depth-first search takes "up" first, so it climbs one by one."""

    def start(self) -> tuple[int, int]:
        return 0, 0

    def children(self, state: int) -> Iterator[tuple[str, int, int]]:
        yield "up", state + 1, 1
        if state == 0:
            yield "jump", 3, 1

    def key(self, state: int) -> Hashable:
        return state

    def is_won(self, state: int) -> bool:
        return state == 6

    def is_dead(self, state: int) -> bool:
        return False

    def moves(self, steps: Sequence[str]) -> list[Move]:
        return list(steps)  # type: ignore[arg-type]  # the steps stand for moves here


def test_a_won_line_takes_the_shortcuts_one_step_offers() -> None:
    """The search found 0-1-2-3-4-5-6; from 0 one step reaches 3, so the line is 0-3-4-5-6."""
    solution = DepthFirst(Ladder()).run(Budget())
    assert solution.verdict is Verdict.WON
    assert [str(move) for move in solution.moves] == ["jump", "up", "up", "up"]
