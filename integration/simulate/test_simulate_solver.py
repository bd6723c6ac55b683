"""``patience simulate --strategy solver|honest``, and resuming a killed simulation."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.engine import DealNumber
from patience_core.plugins import PluginHost
from patience_core.simulate import (
    COLUMNS,
    BatchSpec,
    Summary,
    play_deal,
    prepare,
    run_batch,
    wilson_interval,
)
from patience_core.testing import CliResult

Run = Callable[..., CliResult]


def rows_of(path: Path) -> list[list[str]]:
    with path.open(newline="") as stream:
        return [row[:-1] for row in csv.reader(stream)]  # every column but seconds


def test_solver_strategy_counts_won_dead_and_unknown_apart(run_patience: Run) -> None:
    result = run_patience(
        "simulate", "escalator", "-s", "14", "-n", "4", "--strategy", "solver",
        "--nodes", "400000",
        "-O", "-", "--json",
    )  # fmt: skip
    assert result.code == 0, result.err
    rows = list(csv.DictReader(result.out.splitlines()))
    results = {row["deal"]: row["result"] for row in rows}
    assert results == {"14": "won", "15": "dead", "16": "dead", "17": "won"}
    assert set(results.values()) <= {"won", "dead"}
    for row in rows:
        if row["result"] == "won":
            assert row["score"] == "28" and int(row["moves"]) > 0
        else:
            assert row["moves"] == "0"
    summary = json.loads(result.err)
    wins = sum(r == "won" for r in results.values())
    assert summary["wins"] == wins == 2 and summary["dead"] == 2
    assert summary["unknown"] == 0 and summary["decided"] == 4
    assert (summary["ci_decided_low"], summary["ci_decided_high"]) == pytest.approx(
        wilson_interval(2, 4)
    )


def test_unknown_deals_are_left_out_of_the_decided_interval(run_patience: Run) -> None:
    result = run_patience(
        "simulate", "escalator", "-n", "3", "-s", "16", "--strategy", "solver", "--nodes", "1",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert "dead 0   unknown 3" in result.out
    assert "decided" not in result.out  # nothing decided: no interval over decided deals


def test_summary_decided_interval() -> None:
    summary = Summary("g", "solver", 10)
    for result in ("won", "dead", "unknown", "won", "dead", "dead"):
        summary.games += 1
        summary.wins += result == "won"
        summary.dead += result == "dead"
        summary.unknown += result == "unknown"
    assert summary.decided == 5
    assert summary.interval_decided == wilson_interval(2, 5)
    assert summary.as_dict()["win_rate_decided"] == pytest.approx(0.4)


def test_honest_strategy_rows_do_not_depend_on_jobs() -> None:
    host = PluginHost()
    spec = BatchSpec.of("escalator", "honest", nodes=400)
    one = [r.key() for r in run_batch(host, spec, DealNumber(16), 2, jobs=1)]
    two = [r.key() for r in run_batch(host, spec, DealNumber(16), 2, jobs=2, chunk_size=1)]
    assert one == two
    assert {key[COLUMNS.index("result")] for key in one} <= {"won", "lost", "dead", "stopped"}


def test_honest_strategy_ends_a_proved_dead_deal_as_dead() -> None:
    host = PluginHost()
    spec = BatchSpec.of("escalator", "honest", nodes=400)
    game, factory = prepare(host, spec)
    row = play_deal(game, factory, DealNumber(4), "honest")
    assert row.result == "dead"


def test_a_budget_for_a_strategy_without_search_is_refused(run_patience: Run) -> None:
    result = run_patience("simulate", "escalator", "-n", "2", "--budget", "1")
    assert result.code == 1
    assert "takes no search budget" in result.err and len(result.err.splitlines()) == 1


#: Runs `patience simulate` in a fresh process with an extra strategy, "killer": random play
#: that kills its own process (SIGKILL) when it reaches the deal named by KILL_AT, if set.
SCRIPT = textwrap.dedent(
    """
    import os, signal, sys
    from patience_core.cli import cli
    from patience_core.plugins import PluginHost
    from patience_core.simulate import strategy_seed
    from patience_core.engine import DealNumber
    from patience_core.games import RandomStrategy

    kill_at = os.environ.get("KILL_AT")
    doomed = strategy_seed(DealNumber(int(kill_at)), "killer") if kill_at else None

    def killer(game, seed):
        if seed == doomed:
            os.kill(os.getpid(), signal.SIGKILL)
        return RandomStrategy(game, seed)

    host = PluginHost()
    host.load()
    host.strategies.add("killer", killer)
    cli.main(args=sys.argv[1:], prog_name="patience", obj=host, standalone_mode=False)
    """
)


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_a_killed_run_resumes_and_gives_the_rows_of_an_uninterrupted_run(
    tmp_path: Path, suffix: str
) -> None:
    script = tmp_path / "run.py"
    script.write_text(SCRIPT)
    args = ["simulate", "bristol", "-n", "40", "--strategy", "killer", "--max-moves", "300"]
    whole = tmp_path / f"whole{suffix}"
    out = tmp_path / f"resumed{suffix}"

    def run(target: Path, kill_at: str | None, *more: str) -> subprocess.CompletedProcess[str]:
        env = {"KILL_AT": kill_at} if kill_at else {}
        return subprocess.run(
            [sys.executable, str(script), *args, "-O", str(target), *more],
            capture_output=True,
            text=True,
            env={**os.environ, **env},
            check=False,
        )

    assert run(whole, None, "--store", str(tmp_path / "whole.db")).returncode == 0
    killed = run(out, "25")
    assert killed.returncode == -signal.SIGKILL
    assert not out.exists()
    resumed = run(out, None)
    assert resumed.returncode == 0, resumed.stderr
    # The rows committed before the kill (by batches, every half second) are not played again.
    kept = re.findall(r"(\d+) of 40 deals already played", resumed.stderr)
    assert not kept or 0 < int(kept[0]) <= 24
    if suffix == ".csv":
        assert rows_of(out) == rows_of(whole)
    else:
        strip = [
            {k: v for k, v in json.loads(line).items() if k != "seconds"}
            for line in out.read_text().splitlines()
        ]
        expect = [
            {k: v for k, v in json.loads(line).items() if k != "seconds"}
            for line in whole.read_text().splitlines()
        ]
        assert strip == expect and len(strip) == 40


def test_an_old_partial_file_is_told_in_one_line_and_left_alone(
    run_patience: Run, tmp_path: Path
) -> None:
    """Runs no longer keep their rows in FILE.partial: one found beside the output is named
    (not read, not removed), and the run goes on."""
    out = tmp_path / "rows.csv"
    partial = Path(f"{out}.partial")
    partial.write_text('# patience simulate {"game": "bristol"}\nrubbish\n')
    result = run_patience("simulate", "escalator", "-n", "3", "-O", str(out))
    assert result.code == 0 and "Resuming" not in result.err
    assert result.err == (
        f"{partial} is left from an older patience, which kept a run's rows there; runs are "
        "now kept in the run store (docs/simulate.md): it is not read, remove it when you no "
        "longer need it\n"
    )
    assert len(rows_of(out)) == 4 and partial.read_text().endswith("rubbish\n")


def test_runs_with_other_parameters_are_stored_beside_each_other(run_patience: Run) -> None:
    from patience_core.simulate import RunStore

    for n in ("3", "4", "3"):
        assert run_patience("simulate", "escalator", "-n", n).code == 0
    with RunStore() as store:
        assert [(run.params["deals"], run.rows) for run in store.runs()] == [(3, 3), (4, 4)]
