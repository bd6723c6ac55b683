"""simulate with a broken game plugin: a plugin that fails during a run is named in one line,
with the same message and exit code whatever --jobs and --strategy (its answers are trusted,
not checked: the conformance kit is where a plugin author learns that one is wrong).

The plugin is a real installed distribution (``patience-broken-golf``, a ``.dist-info`` folder on
``sys.path``), so the worker processes of ``--jobs 2`` load it too. Its game is Golf under the
name ``broken-golf``; the variable ``BROKEN_GOLF`` says how it breaks, only once four cards are
cleared (deal 1's first position, which the plugin host checks when the game starts, stays
sound).
"""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from patience_core.simulate import RunStore
from patience_core.testing import CliResult

PLUGIN = textwrap.dedent(
    '''
    """Golf that breaks as BROKEN_GOLF says, once four cards are cleared."""

    import os
    import signal
    import sys
    import time

    from patience_core import hookimpl
    from patience_golf.game import Golf

    PATIENCE_API = ">=1.0,<2"


    class Odd(Exception):
        """An exception that pickle cannot rebuild: its __init__ takes two arguments."""

        def __init__(self, a, b):
            super().__init__(f"odd {a} {b}")


    def _broken(position):
        return Golf.score(BrokenGolf(), position) >= 4


    class BrokenGolf(Golf):
        name = "broken-golf"
        title = "Broken Golf"

        def deal(self, deal):
            self.deal_number = deal.number
            if "slow-deal-2" in os.environ.get("BROKEN_GOLF", "").split(",") and deal.number == 2:
                time.sleep(3)
            log = os.environ.get("BROKEN_GOLF_LOG")
            if log:
                with open(log, "a") as out:
                    out.write(f"{deal.number}\\n")
            return super().deal(deal)

        def play(self, position, move):
            mode = os.environ.get("BROKEN_GOLF", "")
            if "killed-in-deal-4" in mode.split(",") and getattr(self, "deal_number", 0) == 4:
                os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
            if mode == "waits-in-deal-1" and getattr(self, "deal_number", 0) == 1:
                time.sleep(120)
            if mode == "raises-in-deal-5" and getattr(self, "deal_number", 0) == 5:
                raise RuntimeError("boom in deal 5")
            if _broken(position):
                if mode == "play-raises":
                    raise RuntimeError("boom in play")
                if mode == "play-odd":
                    raise Odd(1, 2)
                if mode == "play-exit":
                    sys.exit(3)
                if mode == "play-generator-exit":
                    raise GeneratorExit("closed")
                if mode == "play-memory":
                    raise MemoryError
                if mode == "play-interrupt":
                    raise KeyboardInterrupt
            return super().play(position, move)


    @hookimpl
    def patience_register_games(registry):
        registry.add(BrokenGolf)
    '''
)


@pytest.fixture
def broken_golf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Install ``patience-broken-golf`` 0.1.0 in a folder put first on ``sys.path`` (the worker
    processes inherit it); returns the folder."""
    site = tmp_path / "site"
    (site / "broken_golf").mkdir(parents=True)
    (site / "broken_golf" / "__init__.py").write_text(PLUGIN)
    info = site / "patience_broken_golf-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: patience-broken-golf\nVersion: 0.1.0\n"
    )
    (info / "entry_points.txt").write_text("[patience]\nbroken-golf = broken_golf\n")
    (info / "top_level.txt").write_text("broken_golf\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delenv("PATIENCE_DEBUG", raising=False)
    yield site
    sys.modules.pop("broken_golf", None)


Run = Callable[..., CliResult]


def _rows(path: Path) -> list[dict[str, str]]:
    lines = [line for line in path.read_text().splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines))


def test_a_sound_game_still_simulates(broken_golf: Path, run_patience: Run, tmp_path: Path) -> None:
    target = tmp_path / "rows.csv"
    done = run_patience(
        "simulate", "broken-golf", "-n", "5", "--strategy", "greedy", "-O", str(target)
    )
    assert done.code == 0, done
    assert [row["deal"] for row in _rows(target)] == ["1", "2", "3", "4", "5"]


# -- the same failure, the same message, whatever --jobs and --strategy -----------------------


def _simulate(site: Path, mode: str, *args: str) -> tuple[int, str]:
    """``patience simulate broken-golf ARGS`` in a new process (a pool that waited for ever
    would stop at the timeout): its exit code and stderr."""
    env = dict(os.environ, BROKEN_GOLF=mode, PYTHONPATH=str(site))
    env.pop("PATIENCE_DEBUG", None)
    code = "import sys; from patience_core.cli import main; main(sys.argv[1:])"
    done = subprocess.run(
        [sys.executable, "-c", code, "simulate", "broken-golf", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    return done.returncode, done.stderr


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        (
            "play-raises",
            "patience: error: the plugin patience-broken-golf failed: RuntimeError: boom in "
            "play (set PATIENCE_DEBUG=1 for details)\n",
        ),
        (
            # pickle cannot rebuild it in the parent process: the pool used to wait for ever
            "play-odd",
            "patience: error: the plugin patience-broken-golf failed: Odd: odd 1 2 (set "
            "PATIENCE_DEBUG=1 for details)\n",
        ),
        (
            # sys.exit() in a worker used to end the worker, and the pool waited for ever
            "play-exit",
            "patience: error: the plugin patience-broken-golf failed: SystemExit: 3 (set "
            "PATIENCE_DEBUG=1 for details)\n",
        ),
        (
            # not an Exception either: it used to end the worker too
            "play-generator-exit",
            "patience: error: the plugin patience-broken-golf failed: GeneratorExit: closed "
            "(set PATIENCE_DEBUG=1 for details)\n",
        ),
        (
            # no text: the type alone, not "MemoryError:  ("
            "play-memory",
            "patience: error: the plugin patience-broken-golf failed: MemoryError (set "
            "PATIENCE_DEBUG=1 for details)\n",
        ),
    ],
)
def test_a_failing_plugin_gives_one_message_whatever_jobs_and_strategy(
    broken_golf: Path, tmp_path: Path, mode: str, message: str
) -> None:
    seen = set()
    for strategy in ("random", "greedy"):
        for jobs in ("1", "2"):
            target = tmp_path / f"{strategy}-{jobs}.csv"
            args = ["-n", "6", "--strategy", strategy, "-j", jobs, "-O", str(target)]
            code, err = _simulate(broken_golf, mode, *args)
            assert code == 1, (strategy, jobs, err)
            seen.add(err)
            assert not target.exists()
    assert seen == {message}


def test_debug_shows_the_traceback_of_a_failing_plugin(broken_golf: Path) -> None:
    env = dict(os.environ, BROKEN_GOLF="play-raises", PYTHONPATH=str(broken_golf))
    env["PATIENCE_DEBUG"] = "1"
    code = "import sys; from patience_core.cli import main; main(sys.argv[1:])"
    for jobs in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", code, "simulate", "broken-golf", "-n", "3", "-j", jobs],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 1
        assert "Traceback" in done.stderr and 'raise RuntimeError("boom in play")' in done.stderr


def _stored(*, store: Path | None = None) -> list[str]:
    """The deals with a row in the (one) run of the store, in deal order."""
    with RunStore(store) as opened:
        (run,) = opened.runs()
        return [row.deal for row in opened.rows(run.id)]


def _columns(path: Path) -> list[list[str]]:
    return [[v for k, v in row.items() if k != "seconds"] for row in _rows(path)]


def test_a_worker_that_keeps_dying_stops_the_run_in_one_line_and_the_rows_stored_resume(
    broken_golf: Path, tmp_path: Path
) -> None:
    """A worker killed in deal 4 every time (as the out-of-memory killer would): each death is
    told and the deals not stored are played again; the third in a row of deal 4 played alone
    stops the run in one line naming it, exit 1, no hang, deals 1-3 stored; the run resumed
    once the cause is gone gives the file an uninterrupted run gives."""
    target = tmp_path / "rows.csv"
    args = ["-n", "8", "--strategy", "greedy", "-j", "2", "-O", str(target)]
    code, err = _simulate(broken_golf, "killed-in-deal-4", *args)
    *notes, last = err.splitlines()
    assert code == 1 and notes, err
    assert {note.split(";")[0] for note in notes} == {
        "a worker process died (killed, or out of memory?)"
    }
    assert last == (
        "patience: error: worker processes died 3 times (killed, or out of memory?) in deal 4, "
        "played alone; the rows stored stay, and the same command plays the rest"
    )
    assert not target.exists()
    assert {"1", "2", "3"} <= set(_stored()) and "4" not in _stored()
    code, err = _simulate(broken_golf, "", *args)
    assert code == 0, err
    whole = tmp_path / "whole.csv"
    code, err = _simulate(broken_golf, "", *args[:-1], str(whole), "--store", str(tmp_path / "w"))
    assert code == 0, err
    assert _columns(target) == _columns(whole)
    assert len(_columns(whole)) == 8


def test_a_worker_killed_beside_a_slow_deal_names_the_deal_that_kills_it(
    broken_golf: Path, tmp_path: Path
) -> None:
    """Deal 2 is slow and deal 4 kills its worker every time: the slow deal, still in play
    (the oldest not stored) whenever the pool breaks, is not blamed; played alone after the
    first death, it is stored, and deal 4 played alone is the one the run stops on."""
    target = tmp_path / "rows.csv"
    args = ["-n", "8", "--strategy", "greedy", "-j", "2", "-O", str(target)]
    code, err = _simulate(broken_golf, "killed-in-deal-4,slow-deal-2", *args)
    assert code == 1, err
    assert err.splitlines()[-1].startswith(
        "patience: error: worker processes died 3 times (killed, or out of memory?) in deal 4,"
    ), err
    assert {"1", "2", "3"} <= set(_stored()) and "4" not in _stored()


def test_a_failing_deal_keeps_the_rows_before_it_whatever_jobs(
    broken_golf: Path, tmp_path: Path
) -> None:
    """Deal 5 fails; with 40 deals and two workers it is the middle deal of a chunk (4, 5,
    6): the row of deal 4 is kept as in one process, not lost with the chunk; with workers
    the rows of other chunks done by then are kept too."""
    kept = {}
    for jobs in ("1", "2"):
        target = tmp_path / f"rows-{jobs}.csv"
        store = tmp_path / f"{jobs}.db"
        args = ["-n", "40", "--strategy", "greedy", "-j", jobs, "-O", str(target)]
        code, err = _simulate(broken_golf, "raises-in-deal-5", *args, "--store", str(store))
        assert code == 1 and "boom in deal 5" in err, err
        kept[jobs] = _stored(store=store)
    assert kept["1"] == ["1", "2", "3", "4"]
    assert {"1", "2", "3", "4"} <= set(kept["2"]) and "5" not in kept["2"]


def test_an_interrupt_raised_by_a_plugin_is_an_interrupt_whatever_jobs(broken_golf: Path) -> None:
    for jobs in ("1", "2"):
        code, err = _simulate(broken_golf, "play-interrupt", "-n", "4", "-j", jobs)
        assert (code, err) == (130, "patience: interrupted\n"), jobs


def test_ctrl_c_keeps_the_rows_played_behind_a_slow_deal(broken_golf: Path, tmp_path: Path) -> None:
    """Deal 1 takes minutes; the other worker plays deals 4..40 meanwhile (its rows wait
    behind deal 1's chunk, 1-3). A Ctrl-C then keeps those 37 rows in the run store, and the
    resumed run plays only deals 1-3 and gives the file an uninterrupted run
    gives."""
    target = tmp_path / "rows.csv"
    log = tmp_path / "dealt.txt"
    args = ["-n", "40", "--strategy", "greedy", "-j", "2", "-O", str(target)]
    env = dict(os.environ, BROKEN_GOLF="waits-in-deal-1", BROKEN_GOLF_LOG=str(log))
    env["PYTHONPATH"] = str(broken_golf)
    env.pop("PATIENCE_DEBUG", None)
    code = "import sys; from patience_core.cli import main; main(sys.argv[1:])"
    run = subprocess.Popen(
        [sys.executable, "-c", code, "simulate", "broken-golf", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            dealt = log.read_text().split() if log.exists() else []
            if "40" in dealt:
                break
            time.sleep(0.05)
        assert "40" in dealt and "2" not in dealt, dealt
        time.sleep(2)  # deal 40's game (milliseconds) is over and its chunk sent back
        run.send_signal(signal.SIGINT)
        _out, err = run.communicate(timeout=60)
    finally:
        run.kill()
    assert (run.returncode, err) == (130, "patience: interrupted\n")
    assert _stored() == [str(deal) for deal in range(4, 41)]
    log.unlink()
    code_, err = _simulate(broken_golf, "", *args)
    assert code_ == 0, err
    assert "Resuming run" in err and "37 of 40 deals already played" in err
    whole = tmp_path / "whole.csv"
    code_, err = _simulate(broken_golf, "", *args[:-1], str(whole), "--store", str(tmp_path / "w"))
    assert code_ == 0, err
    assert _columns(target) == _columns(whole) and len(_columns(whole)) == 40
