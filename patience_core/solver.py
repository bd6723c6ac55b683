"""A generic solver for every game: depth-first search with a transposition table.

Layer 4. It works through the :class:`~patience_core.games.Game` interface only, so third-party
games are solved too. A game makes the search faster by overriding, all optional:

* :meth:`Game.solver_key`: a compact key, with interchangeable piles in canonical order;
* :meth:`Game.forced_move`: safe (dominance) moves taken without branching;
* :meth:`Game.order_moves`: the order moves are tried in;
* :meth:`Game.is_dead`: cheap proofs that a position cannot be won.

Verdicts (RULES.md Part A, "Won / lost / dead"): ``won`` with the full move list, ``dead`` only
when the whole search space was explored without a win (a proof), ``unknown`` when the budget ran
out first.

**Thoughtful** solving sees every card, as research solvers assume. **Honest** analysis
(:func:`honest_move_stats`) knows only what a player sees: it deals the unseen cards (the
face-down ones) at random into the face-down places many times, solves each arrangement, and
ranks moves by the share of arrangements they win.

Memory: the transposition table keeps at most ``Budget.table_size`` keys (default 2,000,000,
about 300-600 MB for the largest keys); when it is full it is cleared (the positions on the
current search path stay protected), which costs time, never correctness.
"""

from __future__ import annotations

import enum
import time
import zlib
from collections.abc import Hashable, Sequence

import attrs

from patience_core.engine.rng import GRand
from patience_core.games import Game
from patience_core.model import Card, Move, Position

__all__ = [
    "Budget",
    "MoveStats",
    "Solution",
    "Verdict",
    "face_down_places",
    "honest_move_stats",
    "sample_hidden",
    "solve",
    "visible_seed",
    "visible_view",
]


class Verdict(enum.Enum):
    """The outcome of a search."""

    #: A winning line was found (``Solution.moves``).
    WON = "won"
    #: Proved: no line wins.
    DEAD = "dead"
    #: The budget ran out before either was established.
    UNKNOWN = "unknown"


@attrs.frozen
class Budget:
    """Limits of one search.

    :param nodes: positions generated (moves played) at most.
    :param seconds: CPU seconds of this process (:func:`time.process_time`) at most; CPU time,
        not wall-clock time, so that a verdict does not depend on what else the machine runs.
    :param table_size: keys the transposition table holds at most before it is cleared.
    """

    nodes: int = 5_000_000
    seconds: float = 10.0
    table_size: int = 2_000_000


@attrs.frozen
class Solution:
    """The result of :func:`solve`.

    :param verdict: won, dead or unknown.
    :param moves: for ``won``, every move from the start position to the win (forced moves
        included), replayable with :meth:`Game.apply`; empty otherwise.
    :param nodes: positions generated.
    :param seconds: CPU seconds (:func:`time.process_time`) spent.
    """

    verdict: Verdict
    moves: tuple[Move, ...]
    nodes: int
    seconds: float


def solve(game: Game, position: Position, budget: Budget | None = None) -> Solution:
    """Search for a winning line from ``position`` with full information (thoughtful).

    A depth-first search: from each position it tries :meth:`Game.solver_moves` (by default every
    legal move, in :meth:`Game.order_moves` order) and skips any result whose
    :meth:`Game.solver_key` is in its table; after every move it plays the game's
    :meth:`Game.forced_move` chain without branching, and it drops positions
    :meth:`Game.is_dead` proves lost. ``dead`` is returned only when every reachable position has
    been searched, so it is a proof (given sound hooks).

    :param game: the game (its rules, and its optional search helpers).
    :param position: where to start; it is not modified.
    :param budget: node, time and memory limits (default :class:`Budget`).
    :returns: a :class:`Solution`; ``dead`` only when proved.
    """
    budget = budget or Budget()
    started = time.process_time()
    deadline = started + budget.seconds
    nodes = 0
    key = game.solver_key
    forced = game.forced_move
    play = game.play
    is_won = game.is_won
    moves_of = game.solver_moves
    table_size = max(budget.table_size, 1)
    max_nodes = budget.nodes

    has_forced = type(game).forced_move is not Game.forced_move
    is_dead = game.is_dead if type(game).is_dead is not Game.is_dead else None

    def expand(pos: Position) -> tuple[Position, list[Move]]:
        nonlocal nodes
        steps: list[Move] = []
        while not is_won(pos):
            move = forced(pos)
            if move is None:
                break
            pos = play(pos, move)
            nodes += 1
            steps.append(move)
        return pos, steps

    def result(verdict: Verdict, moves: Sequence[Move] = ()) -> Solution:
        return Solution(verdict, tuple(moves), nodes, time.process_time() - started)

    steps: list[Move] = []
    root = position
    if has_forced:
        root, steps = expand(position)
    if is_won(root):
        return result(Verdict.WON, steps)
    if game.is_dead(root):
        return result(Verdict.DEAD)
    seen: set[Hashable] = {key(root)}
    # The search path: positions, their move iterators, and the moves that led to each (the move
    # tried, then its forced moves); the root's entry holds its own forced moves.
    positions = [root]
    iterators = [iter(moves_of(root))]
    lines = [steps]
    next_check = min(nodes + 1024, max_nodes)
    while iterators:
        move = next(iterators[-1], None)
        if move is None:
            positions.pop()
            iterators.pop()
            lines.pop()
            continue
        child = play(positions[-1], move)
        nodes += 1
        line = [move]
        if has_forced:
            child, forced_steps = expand(child)
            line += forced_steps
        if is_won(child):
            return result(Verdict.WON, [m for steps in lines for m in steps] + line)
        if nodes >= next_check:
            # The node budget is exact; the clock is read every 1024 nodes.
            next_check = min(nodes + 1024, max_nodes)
            if nodes >= max_nodes or time.process_time() >= deadline:
                return result(Verdict.UNKNOWN)
        child_key = key(child)
        if child_key in seen:
            continue
        if len(seen) >= table_size:
            # Full: forget everything but the search path (which guards against cycles).
            seen.clear()
            seen.update(key(p) for p in positions)
        seen.add(child_key)
        if is_dead is not None and is_dead(child):
            continue
        positions.append(child)
        iterators.append(iter(moves_of(child)))
        lines.append(line)
    return result(Verdict.DEAD)


# -- honest analysis ------------------------------------------------------------------------------


def visible_seed(position: Position) -> int:
    """A 32-bit seed made only of what a player sees: face-up cards by name, face-down cards as
    ``##`` (CRC-32 of that text; the same in every process, no ``hash()``)."""
    text = "|".join(
        " ".join(card.code if card.face_up else "##" for card in pile) for pile in position.piles
    )
    return zlib.crc32(text.encode()) & 0xFFFFFFFF


def face_down_places(position: Position) -> list[tuple[int, int]]:
    """``(pile index, card index)`` of every face-down card, pile by pile, bottom first."""
    return [
        (i, j)
        for i, pile in enumerate(position.piles)
        for j, card in enumerate(pile)
        if not card.face_up
    ]


def _placed(position: Position, places: list[tuple[int, int]], cards: list[Card]) -> Position:
    piles = [list(pile) for pile in position.piles]
    for (i, j), card in zip(places, cards, strict=True):
        piles[i][j] = card
    return Position(tuple(tuple(pile) for pile in piles))


def visible_view(position: Position) -> Position:
    """``position`` as the player knows it: the face-down cards put into the face-down places in
    a fixed order (by suit, then rank), so two positions that look the same give the same view."""
    places = face_down_places(position)
    if len(places) < 2:
        return position
    hidden = sorted((position[i][j] for i, j in places), key=lambda c: (c.suit, c.rank))
    return _placed(position, places, hidden)


def sample_hidden(position: Position, rand: GRand) -> Position:
    """One arrangement of the unseen cards consistent with what a player sees.

    The face-down cards' identities are unknown to the player, but which cards they are (as a
    set) is known: every card not showing. They are shuffled among the face-down places; face-up
    cards stay. The shuffle starts from the fixed order of :func:`visible_view`, never from the
    real arrangement, so for a given ``rand`` the sample does not depend on where the face-down
    cards really lie.

    :param rand: the generator the shuffle draws from.
    """
    places = face_down_places(position)
    if len(places) < 2:
        return position
    hidden = sorted((position[i][j] for i, j in places), key=lambda c: (c.suit, c.rank))
    for k in range(len(hidden) - 1, 0, -1):
        r = rand.int_range(0, k + 1)
        hidden[k], hidden[r] = hidden[r], hidden[k]
    return _placed(position, places, hidden)


def has_hidden_cards(position: Position) -> bool:
    """Whether any card of ``position`` is face down."""
    return any(not card.face_up for card in position.cards())


@attrs.frozen
class MoveStats:
    """How one move fared over the sampled arrangements.

    :param move: the move.
    :param wins: arrangements in which a winning line follows the move.
    :param unknown: arrangements the budget could not decide.
    :param samples: arrangements tried.
    """

    move: Move
    wins: int
    unknown: int
    samples: int

    @property
    def share(self) -> float:
        """Wins over samples, 0.0..1.0."""
        return self.wins / self.samples if self.samples else 0.0


def honest_move_stats(
    game: Game,
    position: Position,
    samples: int = 24,
    seconds: float = 1.5,
    seed: int | None = None,
) -> list[MoveStats]:
    """Rank the legal moves of ``position`` by the share of unseen-card arrangements they win.

    Every move is tried on the same arrangements. Each arrangement is searched with a small
    budget; the total time is about ``seconds`` (fewer arrangements are used when time runs out,
    at least one per move).

    :param samples: arrangements at most.
    :param seed: the sampling seed; by default derived from the visible position, so the same
        position gives the same answer in every process.
    :returns: one :class:`MoveStats` per legal move, best first (ties in the game's order).
    """
    legal = game.legal_moves(position)
    if not legal:
        return []
    rand = GRand((visible_seed(position) if seed is None else seed) & 0xFFFFFFFF)
    worlds = [sample_hidden(position, rand) for _ in range(samples)]
    per_solve = max(seconds / (len(worlds) * len(legal)), 0.005)
    deadline = time.perf_counter() + seconds
    wins = [0] * len(legal)
    unknown = [0] * len(legal)
    tried = 0
    for world in worlds:
        if tried and time.perf_counter() >= deadline:
            break
        tried += 1
        for index, move in enumerate(legal):
            solution = solve(game, game.play(world, move), Budget(seconds=per_solve))
            if solution.verdict is Verdict.WON:
                wins[index] += 1
            elif solution.verdict is Verdict.UNKNOWN:
                unknown[index] += 1
    stats = [MoveStats(m, wins[i], unknown[i], tried) for i, m in enumerate(legal)]
    order = {m: i for i, m in enumerate(game.order_moves(position, list(legal)))}
    return sorted(stats, key=lambda s: (-s.wins, s.unknown, order[s.move]))
