"""The automatic players built on the solver: ``simulate --strategy solver|honest``.

Layer 4, over :mod:`patience_core.solve`. :class:`SolverPlayer` plays a thoughtful winning line;
:class:`HonestPlayer` and :func:`play_honestly` play by honest hints, as a careful player would.
See docs/solver.md.
"""

from __future__ import annotations

import collections
import math
import time
from collections.abc import Hashable, Sequence

import attrs

from patience_core.games import Game, GameSearch
from patience_core.model import Move, Position
from patience_core.solve._circles import (
    avoiding_circles,
    circle_form,
    is_trap,
    leads_back,
    only_way_on,
)
from patience_core.solve._depthfirst import Budget, Solution, Verdict
from patience_core.solve._hints import dead_check
from patience_core.solve._honest import MoveStats, has_hidden, honest_stats
from patience_core.solve._playout import PLAYOUT_NODES, expected_scores, progress
from patience_core.solve._solver import solve

__all__ = ["HonestBudget", "HonestPlay", "HonestPlayer", "SolverPlayer", "play_honestly"]


@attrs.frozen
class HonestBudget:
    """The search budget of one honest decision.

    :param samples: arrangements of the unseen cards at most.
    :param nodes: the node budget of each search (deterministic).
    :param seconds: a wall-clock cap on each of the decision's two parts (the dead check, the
        sampling); none by default, so the decisions do not depend on the machine's speed.
    :param dead_nodes: the node budget of the thoughtful dead check before each move.
    :param playout: moves played in all by the greedy playouts that rank the moves by expected
        final score when no sampled arrangement is won (:func:`expected_scores`).
    :param play_on: after a proof that the position is dead, play on for points (the move of
        best expected final score, while one is expected to raise the score) rather than
        resign at once.
    :param play_on_moves: moves played on for points at most, after the proof.
    :param play_on_playout: moves played in all by the playouts of one decision while playing
        on for points (a cheap ranking: the game is lost, only points are at stake).
    :param stall_moves: moves played at most without progress (no new best of
        :func:`~patience_core.solve._playout.progress`: score, cards turned up, empty piles)
        before the player gives up winning and, with ``play_on``, plays on for points as after
        a proof of dead, then resigns (``"stopped"``): a player who only moves cards about for
        that long has given up (without it a Diamond Mine game could wander for the whole
        move cap).
    """

    samples: int = 6
    nodes: int = 1_000
    seconds: float = math.inf
    dead_nodes: int = 20_000
    playout: int = PLAYOUT_NODES
    play_on: bool = True
    play_on_moves: int = 100
    play_on_playout: int = 400
    stall_moves: int = 100


#: How many times at most the honest player goes back to one seen position, when with nothing
#: face down every move on is proved dead (:meth:`HonestPlayer.choose`).
RETURNS = 8


class HonestPlayer:
    """Plays as a careful player using honest hints (:func:`hint` in honest mode), move by move.

    Before each move it runs the thoughtful dead check, as ``play`` does; when the position is
    proved dead (RULES.md Part A: the player is told) its ``outcome`` is ``"dead"`` and, with
    ``HonestBudget.play_on``, it plays on for points: the move of best expected final score
    (:func:`expected_scores`), while that is above the score of the position; then it resigns.
    Otherwise it plays the move that wins most sampled arrangements, and when none wins, the
    move of best expected final score. It never enters a position it has seen in this game
    (compared by :meth:`GameSearch.key` of the real positions; it takes the best move that does
    not) unless the move is the only legal one, nor a position whose every move leads back
    (:func:`~patience_core.solve._circles.is_trap`), and resigns (``outcome = "stopped"``
    unless proved dead) when no move is left. With nothing face
    down it follows a winning line once one is found, and never picks a move whose result the
    dead check proves dead while another move's is not (when every move on is proved dead, it
    goes back to a seen position the check does not prove dead, at most :data:`RETURNS` times
    each); with cards face down, a move lost in every sampled arrangement comes after the
    undecided ones. After :attr:`HonestBudget.stall_moves` moves without progress, unless it
    is following a winning line, it plays on for points as after a proof of dead (with
    ``play_on``), then resigns (``"stopped"``).

    :param seed: unused (the player is deterministic); accepted for the factory signature.
    :param search: the game's search object (default: the generic ``GameSearch(game)``).
    """

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        *,
        budget: HonestBudget | None = None,
        seconds: float | None = None,
        nodes: int | None = None,
        search: GameSearch | None = None,
    ) -> None:
        base = budget or HonestBudget()
        if nodes is not None:
            base = attrs.evolve(base, nodes=nodes)
        if seconds is not None:
            base = attrs.evolve(base, seconds=seconds)
        self._game = game
        self._search = search or GameSearch(game)
        self._budget = base
        self._seen: set[Hashable] = set()
        self._known: dict[Position, Solution] = {}
        self._undecided: dict[Position, Solution] = {}  # see _dead_check
        self._returned: collections.Counter[Hashable] = collections.Counter()  # see _by_score
        self._played_on = 0
        self._best: tuple[int, ...] | None = None  # the most progress so far, and since when
        self._stalled = 0
        #: Why the player resigned: ``"dead"`` (proved) or ``"stopped"``.
        self.outcome = "stopped"
        #: Positions searched so far, by the dead checks and the honest analyses together.
        self.nodes = 0

    def choose(self, position: Position, legal: Sequence[Move]) -> Move | None:
        """The honest hint's move, or ``None`` (see the class description)."""
        game, budget, search = self._game, self._budget, self._search
        self._seen.add(circle_form(game, position))  # real positions: see _circles
        now = progress(game, position)
        if self._best is None or now > self._best:
            self._best, self._stalled = now, 0
        else:
            self._stalled += 1
        if self.outcome != "dead":
            check = self._dead_check(position)
            if check.verdict is Verdict.DEAD:
                self.outcome = "dead"
            elif check.verdict is Verdict.WON and not has_hidden(position) and check.moves:
                first = check.moves[0]
                if len(legal) == 1 or not leads_back(search, position, first, self._seen):
                    return first
        # No progress for that long: the player stops trying to win (a winning line found is
        # still followed, above) and, as after a proof of dead, plays on for points.
        if self.outcome == "dead" or self._stalled >= budget.stall_moves:
            return self._for_points(position, legal) if budget.play_on else None
        if len(legal) == 1:
            return legal[0]  # forced, even when it leads back
        only = only_way_on(search, position, legal, self._seen)
        if only is not None and has_hidden(position):
            return only  # the rest bring a foundation's card back to no purpose: no choice
        stats = honest_stats(game, position, budget.samples, budget.seconds, budget.nodes, search)
        self.nodes += sum(entry.nodes for entry in stats)
        # Never into a position seen (the real positions' keys); a move after which every move
        # would lead back is no way on either (issue 22, item 4).
        kept = avoiding_circles(search, position, [entry.move for entry in stats], self._seen)
        ahead = [
            entry
            for entry in stats
            if entry.move in kept
            and not leads_back(search, position, entry.move, self._seen)
            and not is_trap(search, game.play(position, entry.move), self._seen)
        ]
        if not ahead:
            return None  # stuck: resign rather than go round ("stopped", unless proved dead)
        if ahead[0].wins or (len(ahead) == 1 and has_hidden(position)):
            return ahead[0].move
        back = [entry.move for entry in stats if entry.unknown and entry not in ahead]
        return self._by_score(position, ahead, back)

    def _by_score(self, position: Position, ahead: list[MoveStats], back: list[Move]) -> Move:
        """No sampled arrangement won: the moves by expected final score, those lost in every
        arrangement last; with nothing face down, the first whose result the dead check does
        not prove dead (a proof in one sampled arrangement would prove nothing), and when each
        is proved dead, a move of ``back`` (undecided, but leading back to a position seen or
        into a trap) that is not, the positions gone back to least first (at most
        :data:`RETURNS` times each): going back is better than playing into a lost game."""
        game, budget, search = self._game, self._budget, self._search
        open_ = [entry.move for entry in ahead if entry.unknown]
        lost = [entry.move for entry in ahead if not entry.unknown]
        ordered = open_ or lost
        if len(ordered) > 1:
            samples = ahead[0].samples
            scores, done = expected_scores(search, position, ordered, samples, budget.playout)
            ordered = sorted(ordered, key=lambda m: -scores[m]) if done else ordered
        if has_hidden(position):
            return ordered[0]
        # The lost ones are proved dead already. Returns go first to the positions gone back
        # to least, at most RETURNS times each: the player cannot go round for ever between
        # positions whose ways on are all proved dead.
        times = {m: self._returned[game.play(position, m)] for m in back}
        returns = sorted((m for m in back if times[m] < RETURNS), key=lambda m: times[m])
        for move in [*(ordered if open_ else []), *returns]:
            child = game.play(position, move)
            check = self._dead_check(child)
            if check.verdict is not Verdict.DEAD:
                if move in returns:
                    self._returned[child] += 1
                return move
        return ordered[0]

    def _dead_check(self, position: Position) -> Solution:
        """The dead check of ``position`` (:attr:`HonestBudget.dead_nodes` positions), each
        position searched once: a decided answer is kept in the known table, an undecided one
        here (the search depends only on the position and the budget, so a second would be
        undecided too; a move's result is checked before the move, then as the position)."""
        found = self._undecided.get(position)
        if found is not None:
            return found
        budget = self._budget
        searched = position not in self._known  # else the check's answer is already known
        check = dead_check(
            self._game, position, budget.seconds, budget.dead_nodes, self._known, self._search
        )
        if searched:
            self.nodes += check.nodes
        if check.verdict is Verdict.UNKNOWN:
            self._undecided[position] = check
        return check

    def _for_points(self, position: Position, legal: Sequence[Move]) -> Move | None:
        """In a position proved dead: the move of best expected final score (a short playout
        budget, :attr:`HonestBudget.play_on_playout`), if that is above the position's score,
        the move loses no points at once and does not lead back, and fewer than
        :attr:`HonestBudget.play_on_moves` were played on; else ``None``."""
        game, search, budget = self._game, self._search, self._budget
        if self._played_on >= budget.play_on_moves:
            return None
        self._played_on += 1
        now = game.score(position)
        # Never a move that loses points at once: the short playouts are a rough guide only.
        ahead = [
            m
            for m in legal
            if circle_form(game, child := game.play(position, m)) not in self._seen
            and game.score(child) >= now
        ]
        if not ahead:
            return None
        ordered = search.order_moves(position, ahead)
        scores, done = expected_scores(
            search, position, ordered, budget.samples, budget.play_on_playout, min_steps=4
        )
        # Ties of the short playouts go to the move that scores at once (max keeps the first).
        move = max(ordered, key=lambda m: (scores[m], game.score(game.play(position, m))))
        return move if done and scores[move] > now else None


class SolverPlayer:
    """Thoughtful winnability: solves the deal once with full information and plays the winning
    line; resigns with ``outcome`` ``"dead"`` (proved) or ``"unknown"`` (budget spent).

    :param seconds: the time budget of the solve in CPU seconds (default 10; none when only
        ``nodes`` is given, :meth:`Budget.asked`).
    :param nodes: the node budget of the solve (default the solver's); a node budget gives
        results that do not depend on the machine.
    :param search: the game's search object (default: the generic ``GameSearch(game)``).
    """

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        *,
        seconds: float | None = None,
        nodes: int | None = None,
        search: GameSearch | None = None,
    ) -> None:
        self._game = game
        self._search = search
        self._budget = Budget.asked(seconds, nodes)
        self._plan: list[Move] = []
        self._solved = False
        #: Why the player resigned: ``"dead"`` or ``"unknown"``.
        self.outcome = "unknown"
        #: The solve's result, once made.
        self.solution: Solution | None = None

    def choose(self, position: Position, legal: Sequence[Move]) -> Move | None:
        """The next move of the winning line, or ``None`` (dead or unknown)."""
        if not self._solved:
            self._solved = True
            self.solution = solve(self._game, position, self._budget, self._search)
            if self.solution.verdict is Verdict.WON:
                self._plan = list(self.solution.moves)
            else:
                self.outcome = self.solution.verdict.value
        if self._plan:
            return self._plan.pop(0)
        return None


@attrs.frozen
class HonestPlay:
    """A game played by honest hints (:func:`play_honestly`).

    :param outcome: ``"won"``, ``"lost"`` (no legal move), ``"dead"`` (proved) or ``"stopped"``
        (the player resigned, or the move cap was reached).
    :param moves: the moves played, first first.
    :param nodes: positions searched in all (every dead check and every sampled arrangement),
        as :attr:`Solution.nodes <patience_core.solve.Solution.nodes>` counts one search.
    :param seconds: CPU seconds (:func:`time.process_time`) the play took, as
        :attr:`Solution.seconds <patience_core.solve.Solution.seconds>` for one search.
    """

    outcome: str
    moves: tuple[Move, ...]
    nodes: int
    seconds: float


def play_honestly(
    game: Game,
    position: Position,
    budget: HonestBudget | None = None,
    max_moves: int = 2000,
    search: GameSearch | None = None,
) -> HonestPlay:
    """Play from ``position`` by honest hints (:class:`HonestPlayer`) to the end: won, lost (no
    legal move), proved dead, or stopped (the player resigned or ``max_moves`` were played).

    :param search: the game's search object (default: the generic ``GameSearch(game)``).
    """
    started = time.process_time()
    player = HonestPlayer(game, budget=budget, search=search)
    moves: list[Move] = []
    while True:
        if game.is_won(position):
            outcome = "won"
            break
        legal = game.legal_moves(position)
        if not legal:
            # Proved dead earlier, then played on for points: still dead.
            outcome = "dead" if player.outcome == "dead" else "lost"
            break
        if len(moves) >= max_moves:
            outcome = "stopped"
            break
        move = player.choose(position, legal)
        if move is None:
            outcome = player.outcome
            break
        position = game.play(position, move)
        moves.append(move)
    return HonestPlay(outcome, tuple(moves), player.nodes, time.process_time() - started)
