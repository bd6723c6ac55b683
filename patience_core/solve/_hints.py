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

Every search here is bounded in nodes and in seconds; :func:`hint` answers in about ``seconds``
(default :data:`HINT_SECONDS`).
"""

from __future__ import annotations

import collections
import math
import time
from collections.abc import Callable, Iterator, MutableMapping, Sequence

import attrs

from patience_core.engine import counted
from patience_core.games import Game, GameSearch
from patience_core.model import Move, PileKind, Position
from patience_core.solve._depthfirst import Budget, Solution, Verdict
from patience_core.solve._honest import has_hidden, honest_stats, visible_seed
from patience_core.solve._solver import solve

__all__ = [
    "DEAD_CHECK_NODES",
    "DEAD_CHECK_SECONDS",
    "HINT_FIRST_SECONDS",
    "HINT_SECONDS",
    "HONEST",
    "THOUGHTFUL",
    "Hint",
    "dead_check",
    "default_mode",
    "has_hidden",
    "hidden_wording",
    "hint",
    "hint_stream",
    "honest_stats",
    "visible_seed",
]

THOUGHTFUL = "thoughtful"
HONEST = "honest"

#: The default time of one hint, in seconds (the answer must come within 2 s).
HINT_SECONDS = 1.5
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
        move, given at once).
    :param length: for ``won``, the moves of the winning line, this one included.
    :param wins: for ``sampled``, the arrangements the move wins.
    :param samples: for ``sampled``, the arrangements tried.
    :param last_winnable: for ``dead``, K when the last winnable position of the history was
        before move K (1-based), else ``None`` (not found in the time, or none).
    :param undo: for ``dead`` with ``last_winnable``: the moves to take back to reach it.
    :param seconds: wall-clock seconds spent.
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
    final: bool = True
    stage: str = "final"

    def as_dict(self) -> dict[str, object]:
        """The hint as JSON-ready values (the move as its text)."""
        data = attrs.asdict(self)
        data["move"] = self.text or None
        del data["text"]
        data["seconds"] = round(self.seconds, 3)
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
        _remember_line(game, position, solution, known)
    return solution


def _remember_line(game: Game, position: Position, solution: Solution, known: Known) -> None:
    moves = solution.moves
    here = position
    for index, move in enumerate(moves[:-1]):
        here = game.play(here, move)
        if here in known:
            break
        rest = moves[index + 1 :]
        known[here] = Solution(Verdict.WON, rest, 0, 0.0)


def _last_winnable(
    game: Game,
    history: Sequence[Position],
    deadline: float,
    known: Known | None,
    search: GameSearch | None,
) -> tuple[int | None, bool]:
    """Search the history back, newest first: ``(index, complete)`` where ``history[index]`` is
    the newest winnable position (``None`` when none is), ``complete`` False when time ran out
    or a search was undecided first."""
    for index in range(len(history) - 1, -1, -1):
        left = deadline - time.perf_counter()
        if left <= 0:
            return None, False
        budget = Budget(seconds=left, wall_seconds=left)
        solution = _cached_solve(game, history[index], budget, known, search)
        if solution.verdict is Verdict.WON:
            return index, True
        if solution.verdict is Verdict.UNKNOWN:
            return None, False
    return None, True


#: What an honest hint adds in a position play's dead check has proved lost.
_NO_LINE_REMAINS = "no winning line remains here (proved with every card known)"

#: The reason given for a move no search decided.
_GUESS = "no winning line was found within the search budget; the solver's best guess"


def _honest_hint(
    game: Game,
    position: Position,
    mode: str,
    seconds: float,
    nodes: int | None,
    samples: int,
    started: float,
    history: Sequence[Position] = (),
    search: GameSearch | None = None,
) -> Hint:
    stats = honest_stats(game, position, samples, seconds, nodes, search)
    best = stats[0]
    if not best.wins and history:
        # A guess never leads back to a position of this game (following guesses must not go
        # round in circles), unless every move does.
        visited = set(history)
        best = next((s for s in stats if game.play(position, s.move) not in visited), best)
    text = game.move_text(position, best.move)
    elapsed = time.perf_counter() - started
    if best.wins:
        if has_hidden(position):
            share = math.floor(100 * best.share + 0.5)
            reason = (
                f"wins in {share}% of the possible {hidden_wording(game, position)} "
                f"({best.wins} of {best.samples} sampled)"
            )
        else:
            reason = "a winning line follows it"
        return Hint(best.move, text, reason, mode, "sampled", None, best.wins, best.samples, None,
                    None, elapsed)  # fmt: skip
    if best.unknown:
        reason = _GUESS
        verdict = "unknown"
    else:
        what = hidden_wording(game, position) if has_hidden(position) else "lines"
        reason = f"no move won in the {best.samples} sampled {what}"
        verdict = "sampled"
    return Hint(best.move, text, reason, mode, verdict, None, 0, best.samples, None, None, elapsed)


#: The first answer of :func:`hint_stream` comes within this many wall-clock seconds.
HINT_FIRST_SECONDS = 0.3


def hint_stream(
    game: Game,
    position: Position,
    history: Sequence[Position] = (),
    mode: str | None = None,
    seconds: float = HINT_SECONDS,
    nodes: int | None = None,
    samples: int = 24,
    known: Known | None = None,
    search: GameSearch | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Iterator[Hint]:
    """Successive hints for one position, each better founded than the one before; the last
    one yielded is the final answer (``Hint.final``). See :func:`hint` for the arguments.

    :param cancel: called between stages; when it returns True the stream stops.
    """
    yield _hint_once(game, position, history, mode, seconds, nodes, samples, known, search)


def hint(
    game: Game,
    position: Position,
    history: Sequence[Position] = (),
    mode: str | None = None,
    seconds: float = HINT_SECONDS,
    nodes: int | None = None,
    samples: int = 24,
    known: Known | None = None,
    search: GameSearch | None = None,
) -> Hint:
    """The final answer of :func:`hint_stream`."""
    answers = hint_stream(game, position, history, mode, seconds, nodes, samples, known, search)
    return collections.deque(answers, maxlen=1)[0]


def _hint_once(
    game: Game,
    position: Position,
    history: Sequence[Position] = (),
    mode: str | None = None,
    seconds: float = HINT_SECONDS,
    nodes: int | None = None,
    samples: int = 24,
    known: Known | None = None,
    search: GameSearch | None = None,
) -> Hint:
    """The best move in ``position`` and why.

    Thoughtful: the first move of a winning line ("wins in N moves"), so following thoughtful
    hints never turns a winnable position into a lost one. When the search proves that no line
    wins, the history is searched back, newest first, for the last winnable position ("no line
    wins from here: the last winnable position was before move K"). When the search is
    undecided in the time, each legal move is searched in the time left: the first that wins,
    else the first (in the game's move order) not proved lost, never one proved lost while
    another is not. Honest: :func:`honest_stats`; with nothing face down it is thoughtful. A move
    that wins in no sample (a guess) is never one that leads back to a position of ``history``,
    unless every move does.

    :param history: the positions before ``position``, the deal first: ``history[i]`` is the
        position after ``i`` moves (``play``'s session positions without the current one).
    :param mode: :data:`THOUGHTFUL`, :data:`HONEST`, or ``None`` for :func:`default_mode`.
    :param seconds: the time of the whole hint, about (searches check the clock every 1024
        positions).
    :param nodes: a node budget per search, for answers that do not depend on the machine.
    :param samples: honest arrangements at most.
    :param known: search results to reuse and to add to (see :func:`dead_check`).
    :param search: the game's search object, for every search and the move order (default:
        the generic ``GameSearch(game)``).
    :raises ValueError: for an unknown mode.
    """
    started = time.perf_counter()
    mode = default_mode(position) if mode is None else mode
    if mode not in (THOUGHTFUL, HONEST):
        raise ValueError(f"unknown hint mode {mode!r}")
    if game.is_won(position):
        return Hint(None, "", "the game is won", mode, "over")
    legal = game.legal_moves(position)
    if not legal:
        return Hint(None, "", "no moves left: the game is lost", mode, "over")
    if mode == HONEST and has_hidden(position):
        if len(legal) == 1:
            found = Hint(legal[0], game.move_text(position, legal[0]), "the only legal move",
                         mode, "only", seconds=time.perf_counter() - started)  # fmt: skip
        else:
            found = _honest_hint(
                game, position, mode, seconds, nodes, samples, started, history, search
            )
        proved = None if known is None else known.get(position)
        if proved is not None and proved.verdict is Verdict.DEAD:
            # play has told the player so (its dead check): the share must not read as hope.
            found = attrs.evolve(found, reason=f"{found.reason}; but {_NO_LINE_REMAINS}")
        return found
    deadline = started + seconds
    budget = Budget(
        nodes=nodes if nodes is not None else Budget().nodes,
        seconds=0.6 * seconds,
        wall_seconds=0.6 * seconds,
    )
    solution = _cached_solve(game, position, budget, known, search)
    if solution.verdict is Verdict.WON and solution.moves:
        if known is not None:
            _remember_line(game, position, solution, known)
        return _won_hint(game, position, solution.moves[0], len(solution.moves), mode, started)
    if solution.verdict is Verdict.UNKNOWN:
        left = max(deadline - time.perf_counter(), 0.05)
        tried = _each_move(game, position, left, nodes, search or GameSearch(game))
        move, after = tried[-1]
        if after.verdict is Verdict.WON:
            return _won_hint(game, position, move, len(after.moves) + 1, mode, started)
        moves = [m for m, s in tried if s.verdict is Verdict.UNKNOWN]
        lost = len(tried) - len(moves)
        if moves:
            visited = set(history)
            move = next((m for m in moves if game.play(position, m) not in visited), moves[0])
            reason = _GUESS
            if lost:
                reason += f" ({counted(lost, 'other move')} proved lost)"
            return Hint(move, game.move_text(position, move), reason, mode, "unknown",
                        seconds=time.perf_counter() - started)  # fmt: skip
        # Every move is proved lost: so is this position.
    index, complete = _last_winnable(game, history, deadline, known, search)
    reason = "no line wins from here"
    last = undo = None
    if index is not None:
        last, undo = index + 1, len(history) - index
        reason += f": the last winnable position was before move {last} (undo {undo})"
    elif complete and history:
        reason += ", nor from the deal: it cannot be won"
    elif complete:
        reason += ": this deal cannot be won"
    else:
        reason += "; the last winnable position was not found in the time"
    return Hint(None, "", reason, mode, "dead", last_winnable=last, undo=undo,
                seconds=time.perf_counter() - started)  # fmt: skip


def _won_hint(
    game: Game, position: Position, move: Move, count: int, mode: str, started: float
) -> Hint:
    """The hint for ``move``, the first of a winning line of ``count`` moves."""
    reason = f"wins in {counted(count, 'move')}"
    return Hint(move, game.move_text(position, move), reason, mode, "won", count,
                seconds=time.perf_counter() - started)  # fmt: skip


def _each_move(
    game: Game, position: Position, seconds: float, nodes: int | None, search: GameSearch
) -> list[tuple[Move, Solution]]:
    """Each legal move of ``position`` in the game's move order, with the full-information
    search of the position after it, a share of ``seconds`` (wall-clock) each; the list ends
    at the first move whose search is won."""
    legal = search.order_moves(position, game.legal_moves(position))
    each = max(seconds / len(legal), 0.01)
    budget = Budget(
        nodes=nodes if nodes is not None else Budget().nodes, seconds=each, wall_seconds=each
    )
    tried: list[tuple[Move, Solution]] = []
    for move in legal:
        tried.append((move, solve(game, game.play(position, move), budget, search)))
        if tried[-1][1].verdict is Verdict.WON:
            break
    return tried
