"""Hints backed by search, and the dead check of ``play``.

Layer 4, over :mod:`patience_core.solve`. Shared by ``patience hint``, the ``hint`` command of
``patience play``, ``patience solve --honest`` and the players of ``patience simulate --strategy
solver|honest`` (:mod:`patience_core.solve._players`). See docs/solver.md.

Two information modes (issue 4; RULES.md Part A, "Hints are honest"):

* **thoughtful**: every card is known, as research solvers assume. The hint is the first move of a
  winning line ("wins in 41 moves"); a position with no winning line is reported as such, with
  the last position of the game's history from which a line still won.
* **honest** (the default whenever a card is face down): only what a player sees. The face-down
  cards are dealt at random into the face-down places many times (which cards are unseen is
  known; where they lie is not), each arrangement is solved after each legal move, and the move
  that wins in most arrangements is the hint ("wins in 83% of the possible stock orders"). The
  arrangements are drawn from a seed made of the *visible* position only, and from the unseen
  cards in a fixed order, so the hint is a function of what the player sees: two positions that
  look the same get the same hint. With nothing face down, honest is thoughtful.

The hints themselves come in stages from :func:`patience_core.solve.hint_stream`
(:mod:`patience_core.solve._stream`); this module holds what they are made of: :class:`Hint`,
the wording, and the searches that remember what they found.
"""

from __future__ import annotations

import time
from collections.abc import MutableMapping, Sequence

import attrs

from patience_core.games import Game, GameSearch
from patience_core.model import Move, PileKind, Position
from patience_core.solve._depthfirst import Budget, Solution, Verdict
from patience_core.solve._honest import has_hidden
from patience_core.solve._solver import solve

__all__ = [
    "DEAD_CHECK_NODES",
    "DEAD_CHECK_SECONDS",
    "GUESS",
    "HINT_CAP_SECONDS",
    "HINT_SECONDS",
    "HONEST",
    "NO_LINE_REMAINS",
    "THOUGHTFUL",
    "Hint",
    "Known",
    "dead_check",
    "default_mode",
    "hidden_wording",
    "last_winnable",
    "remember_line",
]

THOUGHTFUL = "thoughtful"
HONEST = "honest"

#: The default time of one hint, in seconds (the answer must come within 2 s).
HINT_SECONDS = 1.5
#: The safety cap, in seconds, of a hint whose budget in positions decides (``patience hint``
#: and the line player's ``hint`` without ``--seconds``): generous, so that the answer depends
#: on the position and the budget alone, not on the machine's load.
HINT_CAP_SECONDS = 10.0
#: The default budget of ``play``'s dead check after each move.
DEAD_CHECK_SECONDS = 0.3
DEAD_CHECK_NODES = 30_000

#: Known search results by position: ``play`` keeps one per game, so positions proved winnable
#: (or dead) once are not searched again.
Known = MutableMapping[Position, Solution]


# -- what the player sees -----------------------------------------------------------------------


def default_mode(position: Position) -> str:
    """:data:`HONEST` when a card is face down (RULES.md Part A), else :data:`THOUGHTFUL`."""
    return HONEST if has_hidden(position) else THOUGHTFUL


def hidden_wording(game: Game, position: Position) -> str:
    """How the unseen part of ``position`` is named in a hint: ``"stock orders"`` when only the
    stock is face down, ``"arrangements of the face-down cards"`` when only other piles are,
    ``"arrangements of the unseen cards"`` for both."""
    kinds = {
        game.piles[i].kind is PileKind.STOCK
        for i, pile in enumerate(position.piles)
        if any(not card.face_up for card in pile)
    }
    if kinds == {True}:
        return "stock orders"
    if kinds == {False}:
        return "arrangements of the face-down cards"
    return "arrangements of the unseen cards"


# -- hints --------------------------------------------------------------------------------------


@attrs.frozen
class Hint:
    """One hint.

    :param move: the move to play, or ``None`` when there is none to advise (won, lost, dead).
    :param text: the move in the play notation (``""`` without a move).
    :param reason: one sentence saying why, e.g. ``"wins in 41 moves"``.
    :param mode: :data:`THOUGHTFUL` or :data:`HONEST`, as asked.
    :param verdict: ``"won"`` (a winning line follows the move), ``"dead"`` (proved: no line
        wins), ``"sampled"`` (an honest estimate), ``"unknown"`` (nothing decided in the time),
        ``"over"`` (the game is won or no move exists), ``"only"`` (honest: the only legal
        move, given at once), ``"too-few"`` (honest: fewer than 4 arrangements judged in the
        time), ``"score"`` (honest: no arrangement won; the move with the best expected final
        score), ``"stuck"`` (no move: every one of several legal moves leads back to a position
        seen in the game, or every one that does not is proved lost; a position proved dead
        is ``"dead"`` instead).
    :param length: for ``won``, the moves of the winning line, this one included.
    :param wins: for ``sampled``, the arrangements the move wins.
    :param samples: for every honest verdict but ``only``, the arrangements judged.
    :param last_winnable: for ``dead``, K when the last winnable position of the history was
        before move K (1-based), else ``None`` (not found in the time, or none).
    :param undo: for ``dead`` with ``last_winnable``: the moves to take back to reach it.
    :param seconds: wall-clock seconds spent.
    :param score: for ``score``, the best expected final score (:meth:`Game.score`).
    :param final: whether this is the last answer of :func:`hint_stream` (the best founded).
    :param stage: ``"quick"`` (the first, cheap answer), ``"refined"`` or ``"final"``.
    """

    move: Move | None
    text: str
    reason: str
    mode: str
    verdict: str
    length: int | None = None
    wins: int | None = None
    samples: int | None = None
    last_winnable: int | None = None
    undo: int | None = None
    seconds: float = 0.0
    score: float | None = None
    final: bool = True
    stage: str = "final"

    def as_dict(self) -> dict[str, object]:
        """The hint as JSON-ready values (the move as its text)."""
        data = attrs.asdict(self)
        data["move"] = self.text or None
        del data["text"]
        data["seconds"] = round(self.seconds, 3)
        if self.score is not None:
            data["score"] = round(self.score, 2)
        return data

    def sentence(self) -> str:
        """The hint for people: ``"t3 f1: wins in 41 moves."``, or the reason alone."""
        reason = self.reason[0].upper() + self.reason[1:]
        return f"{self.text}: {self.reason}." if self.move is not None else f"{reason}."


def _cached_solve(
    game: Game,
    position: Position,
    budget: Budget,
    known: Known | None,
    search: GameSearch | None = None,
) -> Solution:
    if known is not None:
        found = known.get(position)
        if found is not None:
            return found
    solution = solve(game, position, budget, search)
    if known is not None and solution.verdict is not Verdict.UNKNOWN:
        known[position] = solution
    return solution


def dead_check(
    game: Game,
    position: Position,
    seconds: float = DEAD_CHECK_SECONDS,
    nodes: int = DEAD_CHECK_NODES,
    known: Known | None = None,
    search: GameSearch | None = None,
) -> Solution:
    """A short thoughtful search of ``position`` (``play`` runs it after each move).

    A ``won`` result is remembered in ``known`` for the position and for every position along
    its winning line, so following a line costs nothing. ``dead`` is a proof.

    :param search: the game's search object (default: the generic ``GameSearch(game)``).
    """
    budget = Budget(nodes=nodes, seconds=seconds, wall_seconds=seconds)
    solution = _cached_solve(game, position, budget, known, search)
    if known is not None and solution.verdict is Verdict.WON:
        remember_line(game, position, solution, known)
    return solution


def remember_line(game: Game, position: Position, solution: Solution, known: Known) -> None:
    moves = solution.moves
    here = position
    for index, move in enumerate(moves[:-1]):
        here = game.play(here, move)
        if here in known:
            break
        rest = moves[index + 1 :]
        known[here] = Solution(Verdict.WON, rest, 0, 0.0)


def last_winnable(
    game: Game,
    history: Sequence[Position],
    deadline: float,
    known: Known | None,
    search: GameSearch | None,
    nodes: int = DEAD_CHECK_NODES,
) -> tuple[int | None, bool]:
    """Search the history back, newest first: ``(index, complete)`` where ``history[index]`` is
    the newest winnable position (``None`` when none is), ``complete`` False when time ran out
    or a search was undecided first.

    :param deadline: a :func:`time.perf_counter` time to stop at.
    :param nodes: positions of each search.
    """
    for index in range(len(history) - 1, -1, -1):
        left = deadline - time.perf_counter()
        if left <= 0:
            return None, False
        budget = Budget(nodes=nodes, seconds=left, wall_seconds=left)
        solution = _cached_solve(game, history[index], budget, known, search)
        if solution.verdict is Verdict.WON:
            return index, True
        if solution.verdict is Verdict.UNKNOWN:
            return None, False
    return None, True


#: What an honest hint adds in a position play's dead check has proved lost.
NO_LINE_REMAINS = "no winning line remains here (proved with every card known)"

#: The reason given for a move no search decided.
GUESS = "no winning line was found within the search budget; the solver's best guess"
