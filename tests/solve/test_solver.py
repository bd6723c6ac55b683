"""The generic solver on small made-up games: won lines replay, ``dead`` only when a brute-force
search agrees, ``unknown`` when the budget is tiny, the table cap, and search objects."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any, ClassVar

import pytest

import patience_core.solve._solver as solver_module
from patience_core.api import (
    Card,
    Game,
    GameSearch,
    Move,
    PileKind,
    PileSpec,
    Position,
    time_is_up,
)
from patience_core.engine import search_limits
from patience_core.solve import CLOCK_EVERY, Budget, DepthFirst, Solution, Verdict, honest_stats
from patience_core.solve._solver import _cpu_for_wall, solve, space_for


class Mini(Game):
    """A tiny FreeCell: ``cells`` free cells, one foundation built up from the Ace in any suit,
    ``columns`` columns built down in any suit (an empty column takes any card), one card moves
    at a time. The deck is Ace..``size`` alternating clubs and hearts."""

    name = "mini-freecell"
    title = "Mini FreeCell"
    rules = "Build the foundation up from the Ace."
    cells: ClassVar[int] = 2
    columns: ClassVar[int] = 2
    size: ClassVar[int] = 9

    @property
    def max_score(self) -> int:  # type: ignore[override]
        return self.size

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        return (
            *(PileSpec(f"c{k + 1}", PileKind.FREE_CELL) for k in range(self.cells)),
            PileSpec("f1", PileKind.FOUNDATION),
            *(PileSpec(f"t{k + 1}", PileKind.TABLEAU) for k in range(self.columns)),
        )

    @property
    def foundation(self) -> int:
        return self.cells

    def new_deck(self) -> tuple[Card, ...]:
        return tuple(Card.of(rank, 2 * (rank % 2)) for rank in range(1, self.size + 1))

    def layout(self, cards: list[Card]) -> Position:
        columns = [tuple(cards[k :: self.columns]) for k in range(self.columns)]
        return Position(((),) * (self.cells + 1) + tuple(columns))

    def legal_moves(self, position: Position) -> list[Move]:
        if self.is_won(position):
            return []
        home = self.foundation
        moves = []
        sources = [i for i in range(len(position)) if i != home and position[i]]
        for source in sources:
            card = position[source][-1]
            if card.rank == len(position[home]) + 1:
                moves.append(Move.transfer(source, home))
            for target in range(home + 1, len(position)):
                pile = position[target]
                if target != source and (not pile or pile[-1].rank == card.rank + 1):
                    moves.append(Move.transfer(source, target))
            moves += [Move.transfer(source, c) for c in range(self.cells) if not position[c]]
        return moves

    def play(self, position: Position, move: Move) -> Position:
        assert move.target is not None
        source, target = move.source, move.target
        moved = (*position[target], position[source][-1])
        return position.replace(((source, position[source][:-1]), (target, moved)))

    def is_won(self, position: Position) -> bool:
        return len(position[self.foundation]) == self.size

    def score(self, position: Position) -> int:
        return len(position[self.foundation])


class Canonical(GameSearch):
    """A search object for Mini: a key with cells and columns in canonical order, and the
    foundation move of the lowest card as a forced move (always safe: nothing builds on it)."""

    game: Mini

    def key(self, position: Position) -> Hashable:
        def text(pile: tuple[Card, ...]) -> str:
            return ",".join(card.code for card in pile)

        game = self.game
        cells = sorted(text(position[c]) for c in range(game.cells))
        columns = sorted(text(position[t]) for t in range(game.foundation + 1, len(position)))
        return (len(position[game.foundation]), tuple(cells), tuple(columns))

    def forced_move(self, position: Position) -> Move | None:
        game = self.game
        return next((m for m in game.legal_moves(position) if m.target == game.foundation), None)


def shuffled(game: Mini, seed: int) -> Position:
    cards = list(game.new_deck())
    random.Random(seed).shuffle(cards)
    return game.layout(cards)


def winnable(game: Game, position: Position) -> bool:
    """Brute force: every reachable position, no hooks."""
    seen = {position}
    stack = [position]
    while stack:
        here = stack.pop()
        if game.is_won(here):
            return True
        for move in game.legal_moves(here):
            after = game.play(here, move)
            if after not in seen:
                seen.add(after)
                stack.append(after)
    return False


def replays_to_win(game: Game, position: Position, solution: Solution) -> bool:
    for move in solution.moves:
        position = game.apply(position, move)
    return game.is_won(position)


POSITIONS = [shuffled(Mini(), seed) for seed in range(40)]


def test_the_sample_has_won_and_dead_deals() -> None:
    truths = [winnable(Mini(), p) for p in POSITIONS]
    assert 5 <= sum(truths) <= 35


@pytest.mark.parametrize("search", [GameSearch, Canonical], ids=["plain", "hooks"])
def test_verdicts_match_brute_force_and_won_lines_replay(search: type[GameSearch]) -> None:
    game = Mini()
    for position in POSITIONS:
        truth = winnable(Mini(), position)
        solution = solve(game, position, search=search(game))
        assert solution.verdict is (Verdict.WON if truth else Verdict.DEAD)
        if truth:
            assert replays_to_win(Mini(), position, solution)
        else:
            assert solution.moves == ()
        assert solution.nodes > 0


def test_a_small_table_never_gives_a_false_verdict() -> None:
    game = Mini()
    decided = 0
    for position in POSITIONS[:15]:
        solution = solve(game, position, Budget(nodes=100_000, table_size=64))
        truth = Verdict.WON if winnable(game, position) else Verdict.DEAD
        assert solution.verdict in (truth, Verdict.UNKNOWN)
        decided += solution.verdict is truth
    assert decided >= 10


class Counted:
    """A solver key that counts how many of its kind are alive."""

    alive: ClassVar[int] = 0
    most: ClassVar[int] = 0

    def __init__(self, position: Position) -> None:
        self.position = position
        Counted.alive += 1
        Counted.most = max(Counted.most, Counted.alive)

    def __del__(self) -> None:
        Counted.alive -= 1

    def __hash__(self) -> int:
        return hash(self.position)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counted) and other.position == self.position


class CountedKey(GameSearch):
    def key(self, position: Position) -> Hashable:
        return Counted(position)


class _Deepest(list[Any]):
    """A list that remembers the most items it held (the search path's depth)."""

    most = 0

    def append(self, item: Any) -> None:
        super().append(item)
        self.most = max(self.most, len(self))


def test_the_table_never_holds_more_keys_than_its_size_off_the_search_path() -> None:
    game = Mini()
    position = next(p for p in (shuffled(game, s) for s in range(50)) if not winnable(game, p))
    full = solve(game, position, search=CountedKey(game))
    assert full.verdict is Verdict.DEAD
    Counted.alive = Counted.most = 0
    search = DepthFirst(space_for(CountedKey(game), position))
    search._states = path = _Deepest()
    capped = search.run(Budget(table_size=50))
    assert capped.verdict is Verdict.DEAD
    # The table (its cap, and the search path, which it always keeps), plus the child key in
    # hand and the key being compared.
    assert path.most > 1
    assert Counted.most <= 50 + path.most + 2
    assert capped.nodes > full.nodes  # forgetting costs time


def test_a_full_table_is_refilled_with_the_path_without_computing_its_keys_again() -> None:
    """The path can be millions of states deep (Spiderette): computing its keys again at every
    clearing once overran a 120 s budget by 50 s."""
    game = Mini()
    search = CountedKey(game)
    position = next(p for p in (shuffled(game, s) for s in range(50)) if not winnable(game, p))
    made = 0
    key = search.key

    def counting_key(position: Position) -> Hashable:
        nonlocal made
        made += 1
        return key(position)

    search.key = counting_key  # type: ignore[method-assign]
    capped = solve(game, position, Budget(table_size=5), search)
    assert capped.verdict is Verdict.DEAD
    assert made == capped.nodes + 1  # one key a position generated, and the start's


def test_a_tiny_node_budget_gives_unknown() -> None:
    game = Mini()
    position = next(p for p in (shuffled(game, s) for s in range(50)) if not winnable(game, p))
    assert solve(game, position, search=CountedKey(game)).nodes > 20
    solution = solve(game, position, Budget(nodes=20), CountedKey(game))
    assert solution.verdict is Verdict.UNKNOWN
    assert solution.moves == ()
    assert solution.nodes == 20


class Bigger(Mini):
    size = 13
    columns = 3


def test_no_time_gives_unknown() -> None:
    game = Bigger()
    position = max((shuffled(game, s) for s in range(8)), key=lambda p: solve(game, p).nodes)
    assert solve(game, position).nodes > CLOCK_EVERY  # the clocks are read every CLOCK_EVERY
    assert solve(game, position, Budget(seconds=0.0)).verdict is Verdict.UNKNOWN


def test_no_wall_clock_time_gives_unknown() -> None:
    game = Bigger()
    position = max((shuffled(game, s) for s in range(8)), key=lambda p: solve(game, p).nodes)
    assert solve(game, position, Budget(wall_seconds=60.0)).verdict is not Verdict.UNKNOWN
    assert solve(game, position, Budget(wall_seconds=0.0)).verdict is Verdict.UNKNOWN


def test_a_won_start_is_won_with_no_moves() -> None:
    game = Mini()
    won = Position(((), (), game.new_deck(), (), ()))
    assert game.is_won(won)
    solution = solve(game, won)
    assert solution.verdict is Verdict.WON
    assert solution.moves == ()


class Three(Mini):
    size = 3


def test_forced_moves_are_in_the_line() -> None:
    game = Three()
    ace, two, three = game.new_deck()
    # The Ace is on top of t2 and goes home by force; then the Two on t1, then the Three.
    position = Position(((), (), (), (three, two), (ace,)))
    solution = solve(game, position, search=Canonical(game))
    assert solution.verdict is Verdict.WON
    assert solution.moves == (
        Move.transfer(4, 2),
        Move.transfer(3, 2),
        Move.transfer(3, 2),
    )
    assert replays_to_win(game, position, solution)
    assert solution.nodes == 3


class Pruned(GameSearch):
    """A search object whose dead-end proof is a lie: it calls everything but the start
    dead."""

    def is_dead(self, position: Position) -> bool:
        return True


def test_is_dead_prunes_children_only() -> None:
    game = Mini()
    position = next(p for p in POSITIONS if winnable(game, p) and not game.is_won(p))
    solution = solve(game, position, search=Pruned(game))
    # With every child declared dead, only a win within one move can be found.
    one_move = any(game.is_won(game.play(position, m)) for m in game.legal_moves(position))
    assert solution.verdict is (Verdict.WON if one_move else Verdict.DEAD)


def test_honest_stats_without_hidden_cards_follow_the_solver() -> None:
    game = Mini()
    position = next(p for p in POSITIONS if winnable(game, p))
    stats = honest_stats(game, position, samples=2, seconds=60.0)
    assert {s.move for s in stats} == set(game.legal_moves(position))
    for s in stats:
        truth = winnable(game, game.play(position, s.move))
        assert s.wins == (s.samples if truth else 0)
    assert stats[0].wins == stats[0].samples


def test_samples_do_not_depend_on_where_the_hidden_cards_really_lie() -> None:
    from patience_core.engine import DealNumber, GRand
    from patience_core.solve import face_down_places, sample_hidden, visible_seed
    from patience_core.testing import FakeGame

    position = FakeGame().deal(DealNumber(5))
    places = face_down_places(position)
    assert len(places) == 6 + 1 + 2  # the stock, and all but the top card of each column
    # The same look, another truth: swap two face-down cards.
    piles = [list(pile) for pile in position.piles]
    (a, b), (c, d) = places[0], places[-1]
    piles[a][b], piles[c][d] = piles[c][d], piles[a][b]
    other = Position(tuple(tuple(p) for p in piles))
    assert other != position
    assert visible_seed(other) == visible_seed(position)
    for seed in (1, 2, 3):
        assert sample_hidden(position, GRand(seed)) == sample_hidden(other, GRand(seed))


def brute_line(game: Game, position: Position) -> list[Move] | None:
    """A winning line by breadth-first search, no hooks (``None`` when there is none)."""
    parents: dict[Position, tuple[Position, Move] | None] = {position: None}
    queue = [position]
    for here in queue:
        if game.is_won(here):
            line: list[Move] = []
            step = parents[here]
            while step is not None:
                here, move = step
                line.append(move)
                step = parents[here]
            return line[::-1]
        for move in game.legal_moves(here):
            after = game.play(here, move)
            if after not in parents:
                parents[after] = (here, move)
                queue.append(after)
    return None


class Finder(GameSearch):
    """A win finder that knows the answer (by brute force) and counts its calls."""

    calls: ClassVar[list[int]] = []

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[list[Move] | None, int]:
        self.calls.append(nodes)
        return brute_line(self.game, position), 7


class Liar(GameSearch):
    """A win finder that always offers a line that does not win (one legal move)."""

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[list[Move] | None, int]:
        return self.game.legal_moves(position)[:1], 1


def test_the_default_search_has_no_win_finder() -> None:
    assert GameSearch(Mini()).find_win(POSITIONS[0], 100, 1.0) == (None, 0)


@pytest.fixture
def tenth_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first depth-first stage gets a tenth of even a tiny budget, as of a large one: the
    stages can then be seen on Mini's small positions."""
    monkeypatch.setattr(solver_module, "FIRST_MIN_NODES", 1)


@pytest.mark.usefixtures("tenth_first")
def test_a_win_finder_line_is_used_once_the_first_search_gives_up() -> None:
    game = Mini()
    finder = Finder(game)
    position = next(
        p for p in POSITIONS if winnable(game, p) and solve(game, p, search=finder).nodes > 40
    )
    Finder.calls.clear()
    # A tenth of 40 nodes is too little for the depth-first search; the finder answers.
    solution = solve(game, position, Budget(nodes=40), finder)
    assert Finder.calls == [40 - 4]
    assert solution.verdict is Verdict.WON
    assert list(solution.moves) == brute_line(game, position)
    assert solution.nodes == 4 + 7
    assert replays_to_win(game, position, solution)


def test_a_wrong_win_finder_line_is_never_reported() -> None:
    game = Mini()
    liar = Liar(game)
    for position in POSITIONS:
        plain = solve(game, position)
        for budget in (Budget(), Budget(nodes=40)):
            solution = solve(game, position, budget, liar)
            assert solution.verdict in (plain.verdict, Verdict.UNKNOWN)
            if solution.verdict is Verdict.WON:
                assert replays_to_win(game, position, solution)
        assert solve(game, position, search=liar).verdict is plain.verdict


@pytest.mark.usefixtures("tenth_first")
def test_verdicts_with_a_win_finder_agree_with_brute_force() -> None:
    game = Mini()
    finder = Finder(game)
    for position in POSITIONS:
        solution = solve(game, position, Budget(nodes=40), finder)
        assert solution.verdict is not Verdict.UNKNOWN or not winnable(game, position)
        if solution.verdict is Verdict.WON:
            assert replays_to_win(game, position, solution)
        won = solve(game, position, search=finder).verdict is Verdict.WON
        assert won == winnable(game, position)


class Wanderer(GameSearch):
    """A win finder whose line wanders: before each move of the shortest line it moves a card
    away and straight back, where it can."""

    padded: ClassVar[list[int]] = []

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[list[Move] | None, int]:
        game = self.game
        line = brute_line(game, position)
        if line is None:
            return None, 7
        out: list[Move] = []
        for move in line:
            out += there_and_back(game, position)
            out.append(move)
            position = game.play(position, move)
        self.padded.append(len(out) - len(line))
        return out, 7


def there_and_back(game: Game, position: Position) -> list[Move]:
    """Two moves that lead from ``position`` back to it, or none."""
    for move in game.legal_moves(position):
        after = game.play(position, move)
        for back in game.legal_moves(after):
            if game.play(after, back) == position:
                return [move, back]
    return []


@pytest.mark.usefixtures("tenth_first")
def test_a_win_finder_line_loses_its_loops() -> None:
    game = Mini()
    Wanderer.padded.clear()
    won = 0
    for position in POSITIONS:
        solution = solve(game, position, Budget(nodes=40), Wanderer(game))
        if solution.verdict is Verdict.WON and Wanderer.padded and Wanderer.padded[0] > 0:
            # Every detour came back to where it started: exactly the shortest line is left.
            assert list(solution.moves) == brute_line(game, position)
            won += 1
        Wanderer.padded.clear()
    assert won >= 3


def test_a_small_budget_goes_to_the_depth_first_search_whole() -> None:
    """Under FIRST_MIN_NODES positions the depth-first search gets them all before the win
    finder: its quick wins are not lost to a tenth of a few hundred (an honest hint's
    searches)."""
    game = Mini()
    finder = Finder(game)
    position = next(
        p for p in POSITIONS if winnable(game, p) and 4 < solve(game, p, search=finder).nodes < 40
    )
    Finder.calls.clear()
    solution = solve(game, position, Budget(nodes=40), finder)
    assert Finder.calls == []
    assert solution.verdict is Verdict.WON and replays_to_win(game, position, solution)
    assert solver_module.FIRST_MIN_NODES == 1_000


def test_a_node_budget_alone_sets_no_time_limit() -> None:
    assert Budget.asked() == Budget()
    assert Budget.asked(nodes=1000) == Budget(nodes=1000, seconds=math.inf)
    assert Budget.asked(2.5, 1000) == Budget(nodes=1000, seconds=2.5)
    assert Budget.asked(2.5) == Budget(seconds=2.5)


class Broken(Mini):
    """Mini whose move generation fails half way through a search."""

    def legal_moves(self, position: Position) -> list[Move]:
        raise RuntimeError("broken plugin")


@pytest.mark.parametrize("collecting", [True, False])
def test_the_garbage_collector_is_left_as_it_was(collecting: bool) -> None:
    import gc

    was = gc.isenabled()
    try:
        (gc.enable if collecting else gc.disable)()
        solve(Mini(), POSITIONS[0])
        assert gc.isenabled() is collecting
        with pytest.raises(RuntimeError, match="broken plugin"):
            solve(Broken(), POSITIONS[0])
        assert gc.isenabled() is collecting
    finally:
        (gc.enable if was else gc.disable)()


class Watcher(GameSearch):
    """A search object whose is_dead records what :func:`time_is_up` says while the solver
    runs."""

    seen: ClassVar[list[bool]] = []

    def is_dead(self, position: Position) -> bool:
        self.seen.append(time_is_up())
        return False


@pytest.mark.parametrize(
    ("budget", "up"),
    [(Budget(), False), (Budget(seconds=0.0), True), (Budget(wall_seconds=0.0), True)],
)
def test_search_objects_learn_when_the_solvers_time_is_spent(budget: Budget, up: bool) -> None:
    Watcher.seen.clear()
    solve(Mini(), POSITIONS[0], budget, Watcher(Mini()))
    assert Watcher.seen and set(Watcher.seen) == {up}
    assert not time_is_up()  # outside a search there is no limit


def test_search_limits_nest_and_the_earlier_limit_wins() -> None:
    with search_limits(60.0, 60.0):
        assert not time_is_up()
        with search_limits(0.0, 60.0):
            assert time_is_up()
        with search_limits(60.0, 0.0):
            assert time_is_up()
        assert not time_is_up()
    with search_limits(0.0, 0.0), search_limits(60.0, 60.0):
        assert time_is_up()


def test_a_wall_cap_becomes_cpu_seconds_at_the_share_the_search_had() -> None:
    # Half the CPU so far: a second of wall time fits half a CPU second.
    assert _cpu_for_wall(1.0, cpu_used=0.5, wall_used=1.0) == pytest.approx(0.5)
    # Not measurable yet, or no cap: the wall seconds themselves.
    assert _cpu_for_wall(1.0, cpu_used=0.001, wall_used=0.01) == 1.0
    assert _cpu_for_wall(float("inf"), cpu_used=0.5, wall_used=1.0) == float("inf")
    # A share above one (clock noise) counts as one; a tiny share as a tenth.
    assert _cpu_for_wall(1.0, cpu_used=2.0, wall_used=1.0) == 1.0
    assert _cpu_for_wall(1.0, cpu_used=0.0, wall_used=1.0) == pytest.approx(0.1)
