"""Batches: a strategy over a range of deals, in this process or in worker processes.

Layer 4. :func:`run_batch` plays deals ``first .. first+n-1`` (:func:`run_deals`: any deals of one
numbering scheme) with :func:`~patience_core.simulate.play_deal`, in this process or in ``jobs``
worker processes (:func:`~patience_core.simulate.ordered_items`), and yields the rows in deal
order.

Determinism: a deal's row depends only on the game, its options, the strategy, the deal number and
the move cap, never on the process, ``--jobs``, chunking or ``PYTHONHASHSEED``. The strategy's
seed is :func:`~patience_core.simulate.strategy_seed` of the deal and the strategy name. Only
``seconds`` varies.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence

import attrs

from patience_core.engine import DealNumber, counted
from patience_core.errors import BadDeal, PatienceError
from patience_core.games import Game, StrategyFactory
from patience_core.plugins import PluginHost
from patience_core.simulate._play import play_deal, plugin_failure
from patience_core.simulate._rows import DEFAULT_MAX_MOVES, SimRow
from patience_core.simulate._workers import ordered_items

__all__ = [
    "BatchSpec",
    "chunk_size_for",
    "deal_range",
    "prepare",
    "run_batch",
    "run_deals",
    "workers_for",
]


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
    if not host.strategies.takes_budget(spec.strategy):
        if spec.seconds is None and spec.nodes is None:
            return game, factory
        raise PatienceError(
            f"strategy {spec.strategy!r} takes no search budget (--budget, --nodes)"
        )
    # A budgeted (solver-based) player searches with the game's registered search object.
    budgeted: StrategyFactory = functools.partial(
        factory,
        seconds=spec.seconds,  # type: ignore[call-arg]
        nodes=spec.nodes,
        search=host.search(game),
    )
    return game, budgeted


def _play_one(setup: _Setup, spec: BatchSpec, deal: DealNumber) -> SimRow:
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
        yield _play_one(setup, spec, DealNumber(number, scheme))


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
        row = _play_one(setup, spec, deal)
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
