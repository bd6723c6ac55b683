"""Honest analysis: what a player sees, and moves ranked over the arrangements of the unseen cards.

Layer 4, over :mod:`patience_core.solve`. **Honest** mode (issue 4; RULES.md Part A, "Hints are
honest") knows only what a player sees: which cards are unseen (every card not showing) but not
where they lie. :func:`honest_stats` deals the unseen cards at random into the face-down places
many times, solves each arrangement after each legal move, and ranks the moves by the share of
arrangements they win. The arrangements are drawn from a seed made of the visible position only,
starting from the unseen cards in a fixed order, so the answer is a function of what the player
sees: two positions that look the same get the same answer, in every process.
"""

from __future__ import annotations

import collections
import time
import zlib
from collections.abc import Callable, Iterator, Sequence

import attrs

from patience_core.engine import GRand
from patience_core.games import Game, GameSearch
from patience_core.model import Card, Move, Position
from patience_core.solve._depthfirst import Budget, Verdict
from patience_core.solve._solver import solve

__all__ = [
    "HONEST_FIRST_MIN_NODES",
    "HONEST_FIRST_NODES",
    "HONEST_MIN_NODES",
    "HONEST_MIN_SAMPLES",
    "HONEST_NODES",
    "MoveStats",
    "face_down_places",
    "has_hidden",
    "honest_rounds",
    "honest_stats",
    "sample_hidden",
    "visible_seed",
    "visible_view",
]

#: Default wall-clock seconds of one honest analysis (a hint must answer within 2 s).
HONEST_SECONDS = 1.5


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


@attrs.frozen
class MoveStats:
    """How one move fared over the sampled arrangements.

    :param move: the move.
    :param wins: arrangements in which a winning line follows the move.
    :param unknown: arrangements the budget could not decide.
    :param samples: arrangements tried.
    :param nodes: positions searched after the move, in every arrangement and every round of
        the analysis (those cut short by the clock too): the work the move's figures cost.
    """

    move: Move
    wins: int
    unknown: int
    samples: int
    nodes: int = 0

    @property
    def share(self) -> float:
        """Wins over samples, 0.0..1.0."""
        return self.wins / self.samples if self.samples else 0.0


def has_hidden(position: Position) -> bool:
    """Whether any card of ``position`` is face down."""
    return any(not card.face_up for pile in position.piles for card in pile)


#: The positions an honest analysis searches in all, shared out over samples and moves (sized
#: so that the slowest shipped game, about 10,000 positions per CPU second, answers well inside
#: the hint's 1.5 s: the clock cap is a safety net that an idle machine never reaches).
HONEST_NODES = 12_000
#: The fewest positions one search of an honest analysis gets.
HONEST_MIN_NODES = 150
#: The fewest arrangements sampled when the node budget is shared out (fewer arrangements, not
#: smaller searches, when there are many legal moves).
HONEST_MIN_SAMPLES = 4
#: The positions of the first round of an honest analysis, over
#: :data:`HONEST_MIN_SAMPLES` arrangements (a share or a ranking in the time on every game).
HONEST_FIRST_NODES = 1_600
#: The fewest positions one search of that first round gets.
HONEST_FIRST_MIN_NODES = 25
#: Rounds of an honest analysis at most after that first round, each with four times the
#: positions of the one before, while no win is found and some search is undecided (12,000
#: positions, then 48,000, 192,000, 768,000).
HONEST_ROUNDS = 4


def honest_stats(
    game: Game,
    position: Position,
    samples: int = 24,
    seconds: float = HONEST_SECONDS,
    nodes: int | None = None,
    search: GameSearch | None = None,
) -> list[MoveStats]:
    """Rank the legal moves by the share of sampled arrangements of the unseen cards they win.

    It never looks at the face-down cards' places (the sampling starts from
    :func:`visible_view` with :func:`visible_seed`), it checks the clock before every search
    (so it stops within about ``seconds``), and every search has a node budget, so the answer
    does not depend on the machine's speed or load as long as ``seconds`` is not reached. An
    arrangement is counted only when every move was tried on it, except the first: when time
    runs out during it, the moves not tried count as undecided.

    Without ``nodes``, and with cards face down, a first round judges
    :data:`HONEST_MIN_SAMPLES` arrangements with :data:`HONEST_FIRST_NODES` positions in all;
    then the analysis shares :data:`HONEST_NODES` positions out over the searches,
    and when that finds no win while some search was undecided it starts again with four times
    as many, up to :data:`HONEST_ROUNDS` rounds, while time is left. A round the clock cuts
    short counts only if it found a win over at least :data:`HONEST_MIN_SAMPLES` arrangements
    (else the round before it stands), so the answer depends on the machine only when the clock
    decides. (:func:`honest_rounds` gives each round's ranking as it comes.)

    :param samples: arrangements at most.
    :param seconds: wall-clock seconds at most (each search also stops at the CPU seconds left
        and checks its clock every 64 positions, so a little more).
    :param nodes: the node budget of each search, the same in one round only; by default
        shared out as above (at least :data:`HONEST_MIN_NODES` each).
    :param search: the game's search object, for every search and the move order (default:
        the generic ``GameSearch(game)``).
    :returns: one :class:`MoveStats` per legal move, best first (most wins, then fewest
        proved lost, then the game's move order); empty when there is no legal move. The sum
        of their ``nodes`` is every position the analysis searched.
    """
    rounds = honest_rounds(game, position, samples, seconds, nodes, search)
    last = collections.deque(rounds, maxlen=1)
    return last[0][0] if last else []


def honest_rounds(
    game: Game,
    position: Position,
    samples: int = 24,
    seconds: float = HONEST_SECONDS,
    nodes: int | None = None,
    search: GameSearch | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Iterator[tuple[list[MoveStats], bool]]:
    """The rounds of :func:`honest_stats` as they end: ``(ranking so far, last)``, where
    ``last`` is True on the ranking :func:`honest_stats` returns. Nothing is yielded when
    there is no legal move.

    :param cancel: asked before every search; when it returns True the round stops as if the
        clock had (the ranking so far is yielded as the last).
    """
    legal = game.legal_moves(position)
    if not legal:
        return
    if search is None:
        search = GameSearch(game)
    deadline = time.perf_counter() + seconds
    hidden = has_hidden(position)
    most = samples if hidden else 1
    if nodes is not None:
        stats = _round(search, position, legal, most, nodes, deadline, cancel)[0]
        yield _ranked(search, position, stats), True
        return
    shared = HONEST_NODES
    best: list[MoveStats] | None = None
    spent = [0] * len(legal)  # positions searched after each move, in every round
    if hidden:
        # A first round small enough for a loaded machine (about 2,000 positions a second):
        # the fewest arrangements a share needs, small searches; the rounds below replace it.
        count = min(most, HONEST_MIN_SAMPLES)
        each = max(HONEST_FIRST_MIN_NODES, HONEST_FIRST_NODES // (count * len(legal)))
        best, cut = _round(search, position, legal, count, each, deadline, cancel)
        spent = [entry.nodes for entry in best]
        last = cut or time.perf_counter() >= deadline
        yield _ranked(search, position, best), last
        if last:
            return
    while True:
        # A node budget shared out over the searches: the answer depends only on what the
        # player sees, not on the machine's speed or load; the clock is only a safety cap.
        count = min(most, max(HONEST_MIN_SAMPLES, shared // (len(legal) * HONEST_MIN_NODES)))
        each = max(HONEST_MIN_NODES, shared // (count * len(legal)))
        stats, cut = _round(search, position, legal, count, each, deadline, cancel)
        spent = [total + entry.nodes for total, entry in zip(spent, stats, strict=True)]
        won = any(entry.wins for entry in stats)
        # A round the clock cut short counts only with a win over enough arrangements: "100%
        # (1 of 1 sampled)" would say more than it knows, and would depend on the machine.
        enough = stats[0].samples >= HONEST_MIN_SAMPLES
        if best is None or (won and enough) or not cut:
            best = stats
        undecided = any(entry.unknown for entry in stats)
        shared *= 4
        last = (
            cut
            or won
            or not undecided
            or time.perf_counter() >= deadline
            or shared > HONEST_NODES * 4 ** (HONEST_ROUNDS - 1)
        )
        counted = [attrs.evolve(entry, nodes=n) for entry, n in zip(best, spent, strict=True)]
        yield _ranked(search, position, counted), last
        if last:
            return


def _round(
    search: GameSearch,
    position: Position,
    legal: Sequence[Move],
    count: int,
    nodes: int,
    deadline: float,
    cancel: Callable[[], bool] | None = None,
) -> tuple[list[MoveStats], bool]:
    """Every legal move searched in up to ``count`` sampled arrangements, ``nodes`` positions
    each: the statistics, and whether the clock cut the round short."""
    game = search.game
    view = visible_view(position)
    rand = GRand(visible_seed(position))
    hidden = has_hidden(position)
    wins = [0] * len(legal)
    unknown = [0] * len(legal)
    searched = [0] * len(legal)
    tried = 0
    cut = False
    for _ in range(count):
        world = sample_hidden(view, rand) if hidden else view
        world_wins = [0] * len(legal)
        world_unknown = [1] * len(legal)
        complete = True
        for index, move in enumerate(legal):
            left = deadline - time.perf_counter()
            if left <= 0 or (cancel is not None and cancel()):
                complete = False
                break
            budget = Budget(nodes=nodes, seconds=left, wall_seconds=left)
            solution = solve(game, game.play(world, move), budget, search)
            searched[index] += solution.nodes
            world_wins[index] = solution.verdict is Verdict.WON
            world_unknown[index] = solution.verdict is Verdict.UNKNOWN
        cut = cut or not complete
        if not complete and tried:
            break  # an arrangement counts only when every move was tried on it
        tried += 1
        for index in range(len(legal)):
            wins[index] += world_wins[index]
            unknown[index] += world_unknown[index]
        if not complete:
            break
    stats = [MoveStats(m, wins[i], unknown[i], tried, searched[i]) for i, m in enumerate(legal)]
    return stats, cut


def _ranked(search: GameSearch, position: Position, stats: list[MoveStats]) -> list[MoveStats]:
    """``stats`` best first: most wins, then fewest proved lost (an undecided search may yet
    win; a move lost in every sample must not come first), then the game's move order."""
    order = {m: i for i, m in enumerate(search.order_moves(position, [s.move for s in stats]))}
    return sorted(
        stats, key=lambda s: (-s.wins, s.samples - s.wins - s.unknown, order.get(s.move, 0))
    )
