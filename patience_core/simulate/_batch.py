"""Batches: what a run plays (:class:`BatchSpec`), its deals, and the chunks of deals that a
worker (a local process or a Dask worker) plays.

Layer 4. :func:`play_chunk` is the one function every worker runs: it loads the installed
plugins once per process and plays a chunk of deals with
:func:`~patience_core.simulate.play_deal`. The pools that send it chunks are in
:mod:`~patience_core.simulate._pool` (local processes) and :mod:`~patience_core.simulate._dask`.

Determinism: a deal's row depends only on the game, its options, the strategy, the deal number and
the move cap, never on the process, ``--jobs``, chunking or ``PYTHONHASHSEED``. The strategy's
seed is :func:`~patience_core.simulate.strategy_seed` of the deal and the strategy name. Only
``seconds`` varies.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping

import attrs

from patience_core.engine import DealNumber, counted
from patience_core.errors import BadDeal, PatienceError
from patience_core.games import Game, StrategyFactory
from patience_core.plugins import PluginHost
from patience_core.simulate._play import play_deal, plugin_failure
from patience_core.simulate._rows import DEFAULT_MAX_MOVES, SimRow, run_versions

__all__ = [
    "BatchSpec",
    "Chunk",
    "chunk_size_for",
    "deal_range",
    "play_chunk",
    "play_one",
    "prepare",
    "worker_versions",
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


def play_one(setup: _Setup, spec: BatchSpec, deal: DealNumber) -> SimRow:
    """:func:`play_deal` of ``deal`` with a :func:`prepare`-d ``setup``, with an error of a
    plugin's own code turned into a :class:`PluginError` naming the plugin
    (:func:`plugin_failure`).

    :raises PluginError: as said.
    """
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


# -- what a worker runs ------------------------------------------------------------------------

#: The worker's setup, built on its first chunk (in the task, so that its errors reach the
#: driver as the task's).
_WORKER: dict[BatchSpec, _Setup] = {}

#: A chunk of deals for a worker: the spec, the deals' numbering scheme and their numbers.
Chunk = tuple[BatchSpec, str, tuple[int, ...]]


def play_chunk(chunk: Chunk) -> tuple[list[SimRow], PatienceError | None]:
    """Play the deals of ``chunk`` in a worker process (or any process), loading the installed
    plugins on the first chunk of a spec. A module-level function, so that pickling sends its
    name: the worker must have patience installed.

    :returns: one row per deal, in the chunk's order, up to a deal that failed, and that deal's
        error (``None`` when none failed): the rows before a failure are kept, as in one
        process.
    :raises UnknownGame, PatienceError: when this process has no plugin for the game or the
        strategy.
    """
    spec, scheme, numbers = chunk
    setup = _WORKER.get(spec)
    if setup is None:
        setup = prepare(PluginHost(), spec)
        _WORKER.clear()
        _WORKER[spec] = setup
    rows: list[SimRow] = []
    for number in numbers:
        try:
            rows.append(play_one(setup, spec, DealNumber(number, scheme)))
        except PatienceError as exc:  # a plugin failed (PluginError): sent with the rows before
            return rows, exc
    return rows, None


def worker_versions(game: str, strategy: str) -> dict[str, str]:
    """The versions of the code that makes ``game``'s rows with ``strategy`` in this process,
    by distribution name (patience-core, the game's plugin, the strategy's plugin), as the
    installed plugins give them; ``{"error": "..."}`` when this process cannot play them (no
    plugin for the game or the strategy). Run on every Dask worker before a run starts.
    """
    try:
        host = PluginHost().load()
        host.game(game)
        return run_versions(host, game, strategy)
    except PatienceError as exc:
        return {"error": str(exc)}


def chunk_size_for(n: int, jobs: int) -> int:
    """Deals per task: about eight tasks per worker (for balance) and at most 100 deals each."""
    return max(1, min(100, math.ceil(n / (jobs * 8))))


def workers_for(n: int, jobs: int, chunk_size: int | None = None) -> int:
    """Worker processes a batch starts for ``n`` deals and ``jobs`` asked for: never more than
    it has chunks (1 means the games are played in this process)."""
    if jobs == 1 or n < 1:
        return 1
    size = chunk_size or chunk_size_for(n, jobs)
    return min(jobs, math.ceil(n / size))
