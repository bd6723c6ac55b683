"""Batch simulation: automatic players over ranges of deals, for win rates and score statistics.

Layer 4. :func:`play_deal` plays one deal with one strategy to the end and returns a
:class:`SimRow`; :func:`run_batch` plays deals ``first .. first+n-1``, in this process or in
``jobs`` worker processes, and yields the rows in deal order; :class:`Summary` adds them up (win
rate with a Wilson 95% interval, mean and best score, speed).

Determinism: a deal's row depends only on the game, its options, the strategy, the deal number and
the move cap, never on the process, ``--jobs``, chunking or ``PYTHONHASHSEED``. The strategy's
seed is :func:`strategy_seed` of the deal and the strategy name. Only ``seconds`` varies.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any

import attrs

from patience_core.engine import DealNumber, counted, shown
from patience_core.errors import BadDeal, PatienceError, PluginError, one_line, plugin_behind
from patience_core.games import (
    Game,
    StrategyFactory,
    checked_flag,
    checked_moves,
    checked_position,
    checked_score,
    wrong_answer,
)
from patience_core.plugins import PluginHost
from patience_core.simulate._workers import ordered_items

__all__ = [
    "COLUMNS",
    "DEAD",
    "DEFAULT_MAX_MOVES",
    "LOST",
    "RESULTS",
    "STOPPED",
    "UNKNOWN",
    "WON",
    "BatchSpec",
    "SimRow",
    "Summary",
    "deal_range",
    "options_text",
    "play_deal",
    "plugin_failure",
    "row_problem",
    "run_batch",
    "run_deals",
    "strategy_seed",
    "wilson_interval",
]

WON = "won"
LOST = "lost"
STOPPED = "stopped"
#: Proved unwinnable by the player's search (``solver``, ``honest``).
DEAD = "dead"
#: The player's search ran out of budget before deciding (``solver``).
UNKNOWN = "unknown"
#: Every result a row may hold.
RESULTS = (WON, LOST, STOPPED, DEAD, UNKNOWN)
#: The results each built-in strategy can never give (its rows that hold one were not written
#: by it): ``random`` and ``greedy`` search nothing, so they never prove or give up on a deal;
#: ``honest`` plays on until it wins, is lost, proves the deal dead or meets the move cap.
#: Plugin strategies may give any result.
NEVER_GIVEN = {"random": (DEAD, UNKNOWN), "greedy": (DEAD, UNKNOWN), "honest": (UNKNOWN,)}

#: The default move cap: a game still running after this many moves ends as ``stopped``. Every
#: built-in game finishes a random game well inside it or wanders forever (moving cards back and
#: forth); 2000 moves is about 10 to 40 times the length of a finished game of the five games.
DEFAULT_MAX_MOVES = 2000

#: The columns of a simulation row, in output order.
COLUMNS = (
    "game",
    "deal",
    "strategy",
    "options",
    "result",
    "score",
    "max_score",
    "moves",
    "seconds",
)

#: The two-sided 95% normal quantile, for :func:`wilson_interval`.
Z95 = 1.959963984540054


@attrs.frozen
class SimRow:
    """The result of one simulated game.

    :param game: the game's name (``"escalator"``).
    :param deal: the deal number as text (``str(DealNumber)``: ``"17"`` or ``"ms:17"``).
    :param strategy: the strategy's name.
    :param options: the game options in force, defaults included, as :func:`options_text` gives
        them (``"empty-columns=kings"``; ``""`` for a game without options).
    :param result: ``"won"``, ``"lost"`` (no legal move left), ``"stopped"`` (the move cap was
        reached, or the strategy resigned, without a result), or, for a strategy that resigns
        saying why, ``"dead"`` (it proved no line wins) or ``"unknown"`` (its search budget ran
        out).
    :param score: the score of the final position (0..max_score).
    :param max_score: the game's largest possible score.
    :param moves: the number of moves played.
    :param seconds: CPU seconds (``time.process_time``) spent dealing and playing this game in
        the process that played it; the only column that changes between runs.
    """

    game: str
    deal: str
    strategy: str
    options: str
    result: str
    score: int
    max_score: int
    moves: int
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        """The row as a dict with the keys of :data:`COLUMNS`, in that order."""
        return {name: getattr(self, name) for name in COLUMNS}

    def key(self) -> tuple[str, str, str, str, str, int, int, int]:
        """Every column but ``seconds``: what must agree between runs."""
        return (
            self.game,
            self.deal,
            self.strategy,
            self.options,
            self.result,
            self.score,
            self.max_score,
            self.moves,
        )


def options_text(values: Mapping[str, str]) -> str:
    """Game options as one text field: ``name=value`` pairs in name order joined by ``;``
    (``{"empty-columns": "kings"}`` gives ``"empty-columns=kings"``; no options give ``""``).

    :param values: option name to value, e.g. :attr:`Game.option_values
        <patience_core.games.Game.option_values>` (every option in force, defaults included).
    """
    return ";".join(f"{name}={value}" for name, value in sorted(values.items()))


def strategy_seed(deal: DealNumber, strategy: str) -> int:
    """The 32-bit seed given to the strategy for ``deal``: the first four bytes (big-endian) of
    BLAKE2b over ``"<strategy>\\0<str(deal)>"``. The same in every process and on every platform.
    """
    digest = hashlib.blake2b(f"{strategy}\0{deal}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big")


def play_deal(
    game: Game,
    factory: StrategyFactory,
    deal: DealNumber,
    strategy: str,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> SimRow:
    """Deal ``deal`` of ``game`` and let the strategy play it to the end.

    The game ends ``won`` when the game's win test holds, ``lost`` when no legal move is left,
    ``stopped`` when ``max_moves`` moves have been played without either, or when the strategy
    resigns (returns ``None``); a resigning strategy whose ``outcome`` attribute is ``"dead"`` or
    ``"unknown"`` ends the game with that result instead.

    Every answer taken from the game is checked as ``patience play`` checks it
    (:func:`~patience_core.games.checked_moves`, :func:`~patience_core.games.checked_score`,
    :func:`~patience_core.games.checked_flag`): the deal and each ``play`` give a position,
    ``legal_moves`` a list of moves, ``is_won`` (and ``is_lost`` at a dead end) True or False,
    ``score`` a whole number in 0..``max_score``, and ``max_score`` itself in a won position
    (the plugin API's rule). So a row never holds an answer the game may not give.

    :param factory: builds the player: ``factory(game, strategy_seed(deal, strategy))``.
    :param strategy: the strategy's name (for the row and the seed).
    :param max_moves: the move cap, >= 1.
    :raises BadDeal: when the game does not take ``deal``'s numbering scheme.
    :raises PatienceError: when the strategy returns a move that is not legal.
    :raises PluginError: when the factory makes something without a ``choose`` method, or the
        game answers with something it may not (one line naming its plugin).
    """
    start = time.process_time()
    position = checked_position(game, "deal", game.deal(deal))
    player = factory(game, strategy_seed(deal, strategy))
    if not callable(getattr(player, "choose", None)):
        raise PluginError(
            f"strategy {strategy!r} is broken: it made {type(player).__name__}, "
            "which has no choose(position, legal) method"
        )
    moves = 0
    result = STOPPED
    while True:
        if checked_flag(game, "is_won", game.is_won(position)):
            result = WON
            break
        legal = checked_moves(game, game.legal_moves(position))
        if not legal:
            checked_flag(game, "is_lost", game.is_lost(position))
            result = LOST
            break
        if moves >= max_moves:
            break
        move = player.choose(position, legal)
        if move is None:
            outcome = getattr(player, "outcome", STOPPED)
            result = outcome if outcome in (DEAD, UNKNOWN) else STOPPED
            break
        if move not in legal:
            raise PatienceError(
                f"strategy {strategy!r} chose an illegal move in deal {deal} of {game.name}"
            )
        position = checked_position(game, "play", game.play(position, move), whole=False)
        moves += 1
    score = checked_score(game, game.score(position))
    if result == WON and score != game.max_score:
        raise wrong_answer(
            game, "score", score, f"{game.max_score}, its max_score, in a won position"
        )
    return SimRow(
        game=game.name,
        deal=str(deal),
        strategy=strategy,
        options=options_text(game.option_values),
        result=result,
        score=score,
        max_score=game.max_score,
        moves=moves,
        seconds=round(time.process_time() - start, 6),
    )


def row_problem(
    row: SimRow,
    *,
    game: str,
    deals: Collection[str],
    strategy: str,
    options: str,
    max_score: int,
    max_moves: int,
) -> str | None:
    """What makes ``row`` one that :func:`play_deal` cannot have written for one of ``deals``
    (as text: ``"17"``, ``"ms:17"``) of ``game`` (its name, its options as
    :func:`options_text` gives them, its ``max_score``) with ``strategy`` and the move cap
    ``max_moves``, or ``None`` when nothing does: a column that names another game, a deal not
    among ``deals``, another strategy or other options; a result not in :data:`RESULTS`, or one
    the strategy never gives (:data:`NEVER_GIVEN`); a
    ``max_score`` not the game's; a score outside 0..``max_score``, or below it for a win;
    moves outside 0..``max_moves``; seconds that are not a CPU time (negative, infinite, NaN).

    :returns: one short phrase, e.g. ``"score 999 is outside 0..35"``.
    """
    if row.game != game:
        return f"game {shown(row.game)}, not {game!r}"
    if row.deal not in deals:
        return f"deal {shown(row.deal)} is not one of the run's deals"
    if row.strategy != strategy:
        return f"strategy {shown(row.strategy)}, not {strategy!r}"
    if row.options != options:
        return f"options {shown(row.options)}, not {options!r}"
    if row.result not in RESULTS:
        return f"result {shown(row.result)} is not one of {', '.join(RESULTS)}"
    if row.result in NEVER_GIVEN.get(strategy, ()):
        return f"result {row.result!r} is not one strategy {strategy!r} gives"
    if row.max_score != max_score:
        return f"max_score {row.max_score}, not {game}'s {max_score}"
    if not 0 <= row.score <= max_score:
        return f"score {row.score} is outside 0..{max_score}"
    if row.result == WON and row.score != max_score:
        return f"won with score {row.score}, not {max_score}"
    if not 0 <= row.moves <= max_moves:
        return f"moves {row.moves} is outside 0..{max_moves}"
    if not (math.isfinite(row.seconds) and row.seconds >= 0):
        return f"seconds {row.seconds} is not a CPU time"
    return None


def deal_range(first: DealNumber, n: int) -> list[DealNumber]:
    """The deals ``first, first+1, ..., first+n-1`` in ``first``'s scheme.

    :raises BadDeal: when ``n < 1`` or the last deal is past the scheme's range.
    """
    if n < 1:
        raise BadDeal(f"the number of deals must be at least 1, not {n}")
    try:
        DealNumber(first.number + n - 1, first.scheme)
    except ValueError as exc:
        raise BadDeal(f"{counted(n, 'deal')} from {first} run past the last deal: {exc}") from None
    return [DealNumber(first.number + i, first.scheme) for i in range(n)]


@attrs.frozen
class BatchSpec:
    """What every worker plays: picklable, so it can cross to spawned processes.

    :param game: the game's name.
    :param strategy: the strategy's name.
    :param options: the game options as sorted ``(name, value)`` pairs.
    :param max_moves: the move cap (see :func:`play_deal`).
    :param seconds: the search budget in seconds given to a strategy that takes one
        (:meth:`StrategyRegistry.add <patience_core.games.StrategyRegistry.add>`,
        ``budgeted``); ``None`` for the strategy's default.
    :param nodes: the search budget in positions, likewise.
    """

    game: str
    strategy: str
    options: tuple[tuple[str, str], ...] = ()
    max_moves: int = DEFAULT_MAX_MOVES
    seconds: float | None = None
    nodes: int | None = None

    @classmethod
    def of(
        cls,
        game: str,
        strategy: str,
        options: Mapping[str, str] | None = None,
        max_moves: int = DEFAULT_MAX_MOVES,
        seconds: float | None = None,
        nodes: int | None = None,
    ) -> BatchSpec:
        """Build a spec from an options mapping.

        :raises PatienceError: when ``max_moves < 1``, ``seconds <= 0`` or ``nodes < 1``.
        """
        if max_moves < 1:
            raise PatienceError(f"the move cap must be at least 1, not {max_moves}")
        if seconds is not None and not seconds > 0:
            raise PatienceError(f"the budget must be more than 0 seconds, not {seconds}")
        if nodes is not None and nodes < 1:
            raise PatienceError(f"the node budget must be at least 1, not {nodes}")
        options_ = tuple(sorted((options or {}).items()))
        return cls(game, strategy, options_, max_moves, seconds, nodes)


#: A player ready to go: the game instance and the strategy factory.
_Setup = tuple[Game, StrategyFactory]


def prepare(host: PluginHost, spec: BatchSpec) -> _Setup:
    """Look up ``spec``'s game and strategy in ``host`` (loading it if needed).

    :raises UnknownGame: for a game no plugin provides.
    :raises BadOption: for bad options.
    :raises PatienceError: for an unknown strategy, or a budget for a strategy that takes none.
    """
    host.load()
    game = host.game(spec.game, dict(spec.options))
    factory = host.strategies.get(spec.strategy)
    if spec.seconds is None and spec.nodes is None:
        return game, factory
    if not host.strategies.takes_budget(spec.strategy):
        raise PatienceError(
            f"strategy {spec.strategy!r} takes no search budget (--budget, --nodes)"
        )
    budgeted: StrategyFactory = functools.partial(
        factory,
        seconds=spec.seconds,  # type: ignore[call-arg]
        nodes=spec.nodes,
    )
    return game, budgeted


def _play(setup: _Setup, spec: BatchSpec, deal: DealNumber) -> SimRow:
    """:func:`play_deal`, with an error of a plugin's own code turned into a
    :class:`PluginError` naming the plugin (:func:`plugin_failure`)."""
    game, factory = setup
    try:
        return play_deal(game, factory, deal, spec.strategy, spec.max_moves)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit, GeneratorExit... from a plugin too
        error = plugin_failure(exc)
        if error is exc:
            raise
        raise error from exc


def plugin_failure(exc: BaseException) -> BaseException:
    """The error to report for ``exc``, raised while a deal was played: ``exc`` itself, or,
    when a plugin's own code raised it (:func:`~patience_core.errors.plugin_behind`: a game's
    method, a player a plugin registered; any exception but ``KeyboardInterrupt``, even
    ``SystemExit``), a :class:`PluginError` with the line the command line prints for such an
    error (``the plugin patience-golf failed: RuntimeError: boom (set PATIENCE_DEBUG=1 for
    details)``).

    The plugin can only be found while the traceback exists, in the process that played the
    deal: turned into that line there, the error gives the same message and exit code for any
    ``--jobs``. With ``PATIENCE_DEBUG`` set, ``exc`` is kept, for its traceback.
    """
    if isinstance(exc, PatienceError) or os.environ.get("PATIENCE_DEBUG"):
        return exc
    culprit = plugin_behind(exc)
    if culprit is None:
        return exc
    return PluginError(
        f"the plugin {culprit} failed: {one_line(exc)} (set PATIENCE_DEBUG=1 for details)"
    )


# -- worker processes -------------------------------------------------------------------------

#: The worker's setup, built on its first chunk (in the task, so that its errors reach the
#: parent as the task's).
_WORKER: dict[BatchSpec, _Setup] = {}


#: A worker's task: the spec, the deals' numbering scheme and their numbers.
_Task = tuple[BatchSpec, str, tuple[int, ...]]


def _worker_chunk(task: _Task) -> Iterator[SimRow]:
    """Play the deals of ``task`` in a worker process, one row after another (the rows before
    a failing deal are kept, as in one process)."""
    spec, scheme, numbers = task
    setup = _WORKER.get(spec)
    if setup is None:
        setup = prepare(PluginHost(), spec)
        _WORKER.clear()
        _WORKER[spec] = setup
    for number in numbers:
        yield _play(setup, spec, DealNumber(number, scheme))


def chunk_size_for(n: int, jobs: int) -> int:
    """Deals per task: about eight tasks per worker (for balance) and at most 100 deals each."""
    return max(1, min(100, math.ceil(n / (jobs * 8))))


def workers_for(n: int, jobs: int, chunk_size: int | None = None) -> int:
    """Worker processes :func:`run_batch` starts for ``n`` deals and ``jobs`` asked for: never
    more than it has tasks (1 means the games are played in this process)."""
    if jobs == 1 or n < 1:
        return 1
    size = chunk_size or chunk_size_for(n, jobs)
    return min(jobs, math.ceil(n / size))


def run_batch(
    host: PluginHost,
    spec: BatchSpec,
    first: DealNumber,
    n: int,
    jobs: int = 1,
    chunk_size: int | None = None,
    on_row: Callable[[SimRow], None] | None = None,
) -> Iterator[SimRow]:
    """Play deals ``first .. first+n-1`` and yield one :class:`SimRow` per deal, in deal order.

    With ``jobs == 1`` the games are played in this process with ``host``. With ``jobs > 1`` they
    are played in ``jobs`` worker processes started with the ``spawn`` method (safe on every
    platform and with threads); each worker loads its own :class:`PluginHost` from the installed
    entry points (and the ``PATIENCE_PLUGINS`` / ``PATIENCE_DISABLE_PLUGINS`` variables), so a game
    or strategy registered by hand in ``host`` is not available there. Deals go to workers in
    chunks of ``chunk_size`` (default :func:`chunk_size_for`, or one deal for a strategy that
    takes a search budget, so that a run stopped half way loses no more than the deals being
    played); results come back in order. When there would be only one worker (one chunk), the
    games are played in this process. The rows are the same for every ``jobs`` and
    ``chunk_size`` except the ``seconds`` column.

    The game, options and strategy are checked in this process before any work starts. Closing
    the iterator early (or an exception, e.g. ``KeyboardInterrupt``) stops the workers.

    :param on_row: called with each row as it is yielded (e.g. a progress bar).
    :raises UnknownGame, BadOption, BadDeal, PatienceError: for bad input, before any game.
    """
    return run_deals(host, spec, deal_range(first, n), jobs, chunk_size, on_row)


def run_deals(
    host: PluginHost,
    spec: BatchSpec,
    deals: Sequence[DealNumber],
    jobs: int = 1,
    chunk_size: int | None = None,
    on_row: Callable[[SimRow], None] | None = None,
    on_spare: Callable[[SimRow], None] | None = None,
) -> Iterator[SimRow]:
    """Play ``deals`` (any deals of one numbering scheme, e.g. the ones a resumed run still
    lacks) and yield one :class:`SimRow` per deal, in the order given; otherwise as
    :func:`run_batch`.

    :param on_spare: with workers, called with each row played but not yet yielded (it waits
        behind a deal still being played) when a Ctrl-C stops the run, before the
        ``KeyboardInterrupt`` goes on: rows out of deal order, for a file a resumed run reads
        (:func:`patience_core.simulate.ordered_items`, ``spare``).

    :raises UnknownGame, BadOption, BadDeal, PatienceError: for bad input, before any game.
    """
    if jobs < 1:
        raise PatienceError(f"jobs must be at least 1, not {jobs}")
    setup = prepare(host, spec)
    if not deals:
        return iter(())
    if len({deal.scheme for deal in deals}) > 1:
        raise BadDeal("the deals of one batch must all be numbered in one scheme")
    setup[0].deal(deals[0])  # the game refuses a scheme it does not take (BadDeal) here
    n = len(deals)
    if chunk_size is None and host.strategies.takes_budget(spec.strategy):
        chunk_size = 1  # seconds a deal: a killed run loses only the deals being played
    size = chunk_size or chunk_size_for(n, jobs)
    if workers_for(n, jobs, size) == 1:
        return _run_here(setup, spec, list(deals), on_row)
    scheme = deals[0].scheme
    tasks = [
        (spec, scheme, tuple(deal.number for deal in deals[start : start + size]))
        for start in range(0, n, size)
    ]
    return _run_pool(tasks, workers_for(n, jobs, size), on_row, on_spare)


def _run_here(
    setup: _Setup,
    spec: BatchSpec,
    deals: list[DealNumber],
    on_row: Callable[[SimRow], None] | None,
) -> Iterator[SimRow]:
    for deal in deals:
        row = _play(setup, spec, deal)
        if on_row is not None:
            on_row(row)
        yield row


def _run_pool(
    tasks: list[_Task],
    workers: int,
    on_row: Callable[[SimRow], None] | None,
    on_spare: Callable[[SimRow], None] | None = None,
) -> Iterator[SimRow]:
    def spare(_index: int, rows: list[SimRow]) -> None:
        if on_spare is not None:
            for row in rows:
                on_spare(row)

    for row in ordered_items(_worker_chunk, tasks, workers, spare):
        if on_row is not None:
            on_row(row)
        yield row


# -- summary ----------------------------------------------------------------------------------


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate of ``wins`` out of ``games`` (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and is sound for rates near 0 or 1 and
    for small samples (Wilson, 1927). With no games it is (0, 1); with no win its low end is
    exactly 0, with no loss its high end exactly 1.

    :raises ValueError: when ``games < 0`` or ``wins`` is outside ``0..games``.
    """
    if games < 0 or not 0 <= wins <= games:
        raise ValueError(f"need 0 <= wins <= games, got {wins} of {games}")
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    # Exactly 0 with no win and 1 with no loss (rounding would leave 1e-19 or 0.9999999999).
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


@attrs.define
class Summary:
    """Running totals of simulation rows. Feed rows with :meth:`add`.

    :param game: the game's name.
    :param strategy: the strategy's name.
    :param max_score: the game's largest possible score.
    """

    game: str
    strategy: str
    max_score: int
    games: int = 0
    wins: int = 0
    lost: int = 0
    stopped: int = 0
    dead: int = 0
    unknown: int = 0
    score_total: int = 0
    best_score: int = 0
    moves_total: int = 0
    cpu_seconds: float = 0.0
    first_deal: str = ""
    last_deal: str = ""

    def add(self, row: SimRow) -> None:
        """Count one row."""
        if not self.games:
            self.first_deal = row.deal
        self.last_deal = row.deal
        self.games += 1
        self.wins += row.result == WON
        self.lost += row.result == LOST
        self.stopped += row.result == STOPPED
        self.dead += row.result == DEAD
        self.unknown += row.result == UNKNOWN
        self.score_total += row.score
        self.best_score = max(self.best_score, row.score)
        self.moves_total += row.moves
        self.cpu_seconds += row.seconds

    @property
    def win_rate(self) -> float:
        """Wins per game, 0..1 (0 with no games)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def decided(self) -> int:
        """Games with a known outcome: every game but ``stopped`` and ``unknown`` ones."""
        return self.games - self.stopped - self.unknown

    @property
    def interval_decided(self) -> tuple[float, float]:
        """The Wilson 95% interval of wins over decided games (:attr:`decided`)."""
        return wilson_interval(self.wins, self.decided)

    @property
    def mean_score(self) -> float:
        """The mean final score (0 with no games)."""
        return self.score_total / self.games if self.games else 0.0

    @property
    def mean_moves(self) -> float:
        """The mean number of moves per game (0 with no games)."""
        return self.moves_total / self.games if self.games else 0.0

    def as_dict(
        self, wall_seconds: float | None = None, played: int | None = None
    ) -> dict[str, Any]:
        """Every figure as JSON-ready values. They count every row added, ``cpu_seconds`` too
        (the sum of the rows' ``seconds``). ``wall_seconds`` (the batch's elapsed time) adds the
        speed of this run: ``games_this_run`` (``played``, default every game; a resumed run
        played only the rest), ``wall_seconds``, and ``games_per_second`` over those games
        (``None`` when no game was played)."""
        low, high = self.interval
        data: dict[str, Any] = {
            "game": self.game,
            "strategy": self.strategy,
            "first_deal": self.first_deal,
            "last_deal": self.last_deal,
            "games": self.games,
            "wins": self.wins,
            "lost": self.lost,
            "stopped": self.stopped,
            "dead": self.dead,
            "unknown": self.unknown,
            "win_rate": self.win_rate,
            "ci_low": low,
            "ci_high": high,
            "decided": self.decided,
            "win_rate_decided": self.wins / self.decided if self.decided else 0.0,
            "ci_decided_low": self.interval_decided[0],
            "ci_decided_high": self.interval_decided[1],
            "confidence": 0.95,
            "mean_score": self.mean_score,
            "best_score": self.best_score,
            "max_score": self.max_score,
            "mean_moves": self.mean_moves,
            "cpu_seconds": round(self.cpu_seconds, 6),
        }
        if wall_seconds is not None:
            count = self.games if played is None else played
            data["games_this_run"] = count
            data["wall_seconds"] = round(wall_seconds, 6)
            data["games_per_second"] = count / wall_seconds if count and wall_seconds > 0 else None
        return data
