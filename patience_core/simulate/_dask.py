"""Dask: chunks of deals played on a ``dask.distributed`` cluster, for runs that outgrow one
machine.

Layer 4. :class:`DaskPool` connects to a running scheduler (``tcp://HOST:PORT``) or starts a
:class:`~distributed.LocalCluster` (``local:N``), checks that every worker plays the run's game
and strategy with the driver's versions, and :meth:`DaskPool.chunks` sends chunks of deals
(:func:`~patience_core.simulate.play_chunk`) as tasks, yielding their rows as they complete.
Dask reschedules the chunks of a worker that is lost. Dask is an optional extra
(``pip install 'patience-core[dask]'``). See ``docs/scale.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import re
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from patience_core.errors import PatienceError, shown
from patience_core.simulate._batch import Chunk, play_chunk, worker_versions
from patience_core.simulate._env import seconds_from_env
from patience_core.simulate._pool import deaf_and_safe
from patience_core.simulate._rows import SimRow

__all__ = [
    "DASK_NEEDS",
    "DASK_TIMEOUT_ENV",
    "MAX_LOCAL_WORKERS",
    "DaskPool",
    "SchedulerLost",
    "check_scheduler",
    "dask_available",
    "dask_timeout",
]

#: What ``--scheduler`` says without Dask installed.
DASK_NEEDS = "--scheduler needs Dask: pip install 'patience-core[dask]'"
#: The variable giving the seconds to wait for a scheduler to answer, and for its first worker
#: (default 20).
DASK_TIMEOUT_ENV = "PATIENCE_DASK_TIMEOUT"
#: Worker processes ``local:N`` may start at most.
MAX_LOCAL_WORKERS = 64
_LOCAL = re.compile(r"local:([0-9]+)")
_ADDRESS = re.compile(r"(tcp|tls|inproc|ws|wss)://[^\s/]+(:[0-9]+)?/?")


def _distributed() -> Any:
    """``dask.distributed``, imported here (an optional extra; typed ``Any`` for mypy without it).

    :raises PatienceError: :data:`DASK_NEEDS`, without Dask.
    """
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise PatienceError(DASK_NEEDS) from None


class SchedulerLost(PatienceError):
    """The connection to the Dask scheduler was lost during a run (the scheduler stopped, or
    the network failed): the rows stored stay, and the same command resumes."""


def dask_timeout() -> float:
    """The seconds to wait for a scheduler to answer and for its first worker:
    ``$PATIENCE_DASK_TIMEOUT``, else 20.

    :raises PatienceError: one line, for a value that is not a number of seconds > 0.
    """
    return seconds_from_env(DASK_TIMEOUT_ENV, 20.0)


def check_scheduler(scheduler: str) -> None:
    """Refuse a ``--scheduler`` value that is neither ``local:N`` (1 <= N <=
    :data:`MAX_LOCAL_WORKERS`) nor a scheduler's address (``tcp://HOST:PORT``).

    :raises PatienceError: one line.
    """
    local = _LOCAL.fullmatch(scheduler)
    if local:
        digits = local.group(1).lstrip("0")
        if not digits or len(digits) > 3 or int(digits) > MAX_LOCAL_WORKERS:
            raise PatienceError(
                f"--scheduler local:N takes 1 to {MAX_LOCAL_WORKERS} worker processes, "
                f"not {shown(local.group(1), 23)}"
            )
    elif not _ADDRESS.fullmatch(scheduler):
        raise PatienceError(
            f"--scheduler {shown(scheduler, 40)} is neither local:N (N worker processes here) "
            "nor a Dask scheduler's address such as tcp://10.0.0.5:8786"
        )


async def _identity(distributed: Any, address: str, wait: float) -> Any:
    """The scheduler's answer to ``identity``: whether something at ``address`` speaks Dask.
    Client() alone may wait forever on a server that never answers its handshake."""
    comm = await distributed.comm.connect(address, timeout=wait)
    try:
        await comm.write({"op": "identity"})
        return await comm.read()
    finally:
        comm.abort()


def _probe(distributed: Any, address: str, wait: float) -> None:
    """Check, within ``wait`` seconds in all, that a Dask scheduler answers at ``address``.

    :raises PatienceError: one line: no answer in time, refused, or not a Dask scheduler.
    """
    why = "it is not a Dask scheduler"
    try:
        # In a thread of its own: a notebook's thread already runs an event loop.
        probe = asyncio.wait_for(_identity(distributed, address, wait), wait)
        with ThreadPoolExecutor(1) as thread:
            answer = thread.submit(asyncio.run, probe).result()
    except (TimeoutError, OSError) as exc:
        why = f"no answer within {wait:g} s ({DASK_TIMEOUT_ENV})" + (f": {exc}" if str(exc) else "")
        answer = None
    except Exception:  # junk bytes fail anywhere in Dask's decoding
        answer = None
    if not (isinstance(answer, dict) and answer.get("type") == "Scheduler"):
        raise PatienceError(f"cannot use the Dask scheduler {address}: {why}")


class _Quiet:
    """Dask's loggers (and tornado's, which it uses) at CRITICAL while a pool is open: a lost
    scheduler or worker is said in one line by the run, not in pages of tracebacks."""

    def __init__(self) -> None:
        names = [
            name
            for name in logging.root.manager.loggerDict
            if name.split(".")[0] in ("distributed", "tornado")
        ]
        self._levels = {}
        for name in {"distributed", "tornado", *names}:
            logger = logging.getLogger(name)
            self._levels[name] = logger.level
            logger.setLevel(logging.CRITICAL)

    def restore(self) -> None:
        for name, level in self._levels.items():
            logging.getLogger(name).setLevel(level)
        self._levels = {}


def dask_available() -> None:
    """Check that Dask can be imported.

    :raises PatienceError: :data:`DASK_NEEDS`, without it.
    """
    _distributed()


class DaskPool:
    """A Dask client for one run (close it, or use it in a ``with``).

    :param scheduler: ``local:N`` (a local cluster of N single-threaded worker processes on
        127.0.0.1, its HTTP server on a free local port, quiet logs) or a scheduler's address.
    :raises PatienceError: one line: Dask not installed, a bad value, a scheduler that does not
        answer or has no worker.
    """

    def __init__(self, scheduler: str) -> None:
        check_scheduler(scheduler)
        distributed = _distributed()
        self.scheduler = scheduler
        self._cluster: Any = None
        self._client: Any = None
        local = _LOCAL.fullmatch(scheduler)
        self._wait = wait = dask_timeout()
        self._quiet = _Quiet()
        try:
            if not local:
                _probe(distributed, scheduler, wait)
            if local:
                # Its workers born deaf to Ctrl-C, as --jobs's: the driver stops them; and
                # without Dask's sampling profiler, which takes the GIL every 10 ms from the
                # deals (pure Python): up to a third of their speed on a busy machine.
                dask_config = importlib.import_module("dask").config
                no_profiler = {"distributed.worker.profile.enabled": False}
                with deaf_and_safe(), dask_config.set(no_profiler):
                    self._cluster = distributed.LocalCluster(
                        n_workers=int(local.group(1)),
                        threads_per_worker=1,  # a deal is pure Python: one thread a process
                        processes=True,
                        host="127.0.0.1",
                        # Dask's small HTTP server (health, and the dashboard when bokeh is there)
                        # on a free port of 127.0.0.1: never 8787, which another cluster may hold.
                        dashboard_address="127.0.0.1:0",
                        # Its workers' own logs too (a heartbeat to a scheduler closed by
                        # Ctrl-C is an ERROR there): the run says what went wrong in one line.
                        silence_logs=logging.CRITICAL,
                    )
                self._client = distributed.Client(self._cluster, timeout=wait)
            else:
                self._client = distributed.Client(scheduler, timeout=wait)
                self._client.wait_for_workers(1, timeout=wait)
            #: The workers' addresses when the run started.
            self.workers = sorted(self._client.scheduler_info()["workers"])
        except PatienceError:
            self.close()
            raise
        except (OSError, TimeoutError) as exc:
            self.close()
            raise PatienceError(
                f"cannot use the Dask scheduler {scheduler}: "
                f"{str(exc) or f'no answer within {wait:g} s ({DASK_TIMEOUT_ENV})'}"
            ) from None
        except Exception as exc:  # the Dask boundary: its errors are the scheduler's
            self.close()
            raise PatienceError(
                f"cannot use the Dask scheduler {scheduler}: {type(exc).__name__}: {exc}"
            ) from None

    @classmethod
    def checked(cls, scheduler: str, params: dict[str, Any]) -> DaskPool:
        """A pool connected to ``scheduler`` whose workers can play the run of ``params``
        (:meth:`Run.params <patience_core.simulate.Run.params>`: its game, strategy and
        versions), closed again on a refusal.

        :raises PatienceError: one line, when the scheduler cannot be used.
        """
        pool = cls(scheduler)
        try:
            pool.check_versions(params["game"], params["strategy"], params["versions"])
        except BaseException:
            pool.close()
            raise
        return pool

    def close(self) -> None:
        """Close the client, and the local cluster if this pool started one (safe twice)."""
        client, self._client = self._client, None
        try:
            if client is not None:
                # A scheduler already gone: nothing to close.
                with contextlib.suppress(Exception):
                    client.close(timeout=self._wait)
            if self._cluster is not None:
                cluster, self._cluster = self._cluster, None
                with contextlib.suppress(Exception):
                    cluster.close(timeout=self._wait)
        finally:
            self._quiet.restore()

    def __enter__(self) -> DaskPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def check_versions(self, game: str, strategy: str, versions: dict[str, str]) -> None:
        """Refuse, in one line naming the first difference, workers that cannot play ``game``
        with ``strategy`` or would make its rows with other versions than ``versions`` (the
        driver's).

        :raises PatienceError: as said.
        """
        client = self._client
        try:
            answers = client.sync(
                client._run, worker_versions, game, strategy, callback_timeout=self._wait
            )
        except (OSError, TimeoutError):
            raise PatienceError(
                f"cannot use the Dask scheduler {self.scheduler}: its workers did not answer "
                f"within {self._wait:g} s ({DASK_TIMEOUT_ENV})"
            ) from None
        except Exception as exc:  # the Dask boundary
            raise PatienceError(
                f"the Dask workers cannot run patience: {type(exc).__name__}: {exc}"
            ) from None
        for worker, theirs in sorted(answers.items()):
            if "error" in theirs:
                raise PatienceError(f"Dask worker {worker} cannot play the run: {theirs['error']}")
            for name in sorted(set(versions) | set(theirs)):
                mine, its = versions.get(name, "none"), theirs.get(name, "none")
                if mine != its:
                    raise PatienceError(
                        f"Dask worker {worker} has {name} {its}, this machine {mine}: install "
                        "the same versions everywhere"
                    )

    def chunks(self, chunks: Sequence[Chunk]) -> Iterator[tuple[int, list[SimRow]]]:
        """Send ``chunks`` as tasks and yield ``(index, rows)`` for each as it completes (any
        order). Closing the iterator, or an exception leaving it, cancels the tasks left.

        :raises PluginError: when a plugin's code fails on a worker.
        :raises SchedulerLost: when the connection to the scheduler is lost.
        :raises PatienceError: when Dask gives a chunk up (its workers died too often).
        """
        distributed = _distributed()
        token = uuid.uuid4().hex[:8]
        futures = {
            self._client.submit(play_chunk, chunk, key=f"patience-{token}-{index}", pure=False): (
                index
            )
            for index, chunk in enumerate(chunks)
        }
        try:
            for future in distributed.as_completed(futures):
                try:
                    rows, error = future.result()
                except distributed.client.FutureCancelledError:
                    if self._client.status != "running":
                        raise SchedulerLost(
                            f"lost the connection to the Dask scheduler {self.scheduler}"
                        ) from None
                    raise PatienceError("the Dask scheduler cancelled the run's tasks") from None
                except distributed.KilledWorker as exc:
                    raise PatienceError(
                        f"Dask gave up a chunk of deals: the workers playing it died too often "
                        f"({exc})"
                    ) from None
                except (OSError, TimeoutError, distributed.comm.CommClosedError):
                    raise SchedulerLost(
                        f"lost the connection to the Dask scheduler {self.scheduler}"
                    ) from None
                yield futures[future], rows
                if error is not None:
                    raise error
        finally:
            if self._client is not None and self._client.status == "running":
                with contextlib.suppress(Exception):
                    self._client.cancel(list(futures))
