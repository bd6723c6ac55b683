"""Simulation on the test kit's fake game: one row per deal, in deal order, the same in every
run, and the same with one process or two worker processes.

Worker processes load their plugins from the installed entry points in a fresh interpreter, so
the fake game, which a test host holds without one, is not there. The tests of ``--jobs 2``
therefore install it for the test: a distribution's metadata (``patience-fake``, declaring
the kit's plugin in the ``patience`` entry-point group) in a temporary folder put first on the
import path, which spawned workers inherit.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.engine import DealNumber
from patience_core.plugins import PluginHost
from patience_core.simulate import RESULTS, BatchSpec, SimRow, run_batch
from patience_core.testing import FAKE_PLUGIN, CliResult

N = 12


def rows(
    host: PluginHost, strategy: str, jobs: int = 1, options: dict[str, str] | None = None
) -> list[SimRow]:
    spec = BatchSpec.of("fake", strategy, options)
    return list(run_batch(host, spec, DealNumber(1), N, jobs, chunk_size=3))


@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_one_row_per_deal_in_deal_order(patience_host: PluginHost, strategy: str) -> None:
    found = rows(patience_host, strategy)
    assert [row.deal for row in found] == [str(n) for n in range(1, N + 1)]
    for row in found:
        assert row.game == "fake" and row.strategy == strategy
        assert row.options == "empty-piles=none"
        assert row.result in RESULTS and 0 <= row.score <= row.max_score == 12
    assert [row.key() for row in rows(patience_host, strategy)] == [row.key() for row in found]


def test_the_option_is_in_the_rows(patience_host: PluginHost) -> None:
    found = rows(patience_host, "greedy", options={"empty-piles": "any"})
    assert {row.options for row in found} == {"empty-piles=any"}


def test_one_worker_s_worth_of_deals_is_played_in_this_process(patience_host: PluginHost) -> None:
    # --jobs 2 with a single chunk: no worker is started, so the host's fake game plays.
    spec = BatchSpec.of("fake", "greedy")
    one = list(run_batch(patience_host, spec, DealNumber(1), N, jobs=1))
    two = list(run_batch(patience_host, spec, DealNumber(1), N, jobs=2, chunk_size=N))
    assert [row.key() for row in two] == [row.key() for row in one]


@pytest.fixture
def fake_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake game installed as a distribution for this test (see the module docstring)."""
    site = tmp_path / "site"
    info = site / "patience_fake-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: patience-fake\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[patience]\nfake = {FAKE_PLUGIN}\n")
    monkeypatch.syspath_prepend(str(site))


@pytest.fixture
def patience_extra_plugins(fake_installed: None) -> list[str]:
    """Here the fake game comes installed (``fake_installed``), not as an extra plugin."""
    return []


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_two_worker_processes_give_the_same_rows(patience_host: PluginHost, strategy: str) -> None:
    assert patience_host.games.provider("fake") == "patience-fake"
    one = rows(patience_host, strategy, jobs=1)
    two = rows(patience_host, strategy, jobs=2)
    assert [row.key() for row in two] == [row.key() for row in one]


def csv_rows(result: CliResult) -> list[list[str]]:
    assert result.code == 0, result.err
    table = list(csv.reader(io.StringIO(result.out)))
    seconds = table[0].index("seconds")
    return [row[:seconds] + row[seconds + 1 :] for row in table]


@pytest.mark.slow
def test_the_command_gives_the_same_rows_for_any_jobs(
    patience_cli: Callable[..., CliResult], tmp_path: Path
) -> None:
    args = ("simulate", "fake", "-n", str(N), "--strategy", "greedy", "-O", "-")
    # a store each: the second run would otherwise take the first one's rows
    one = csv_rows(patience_cli(*args, "--jobs", "1", "--store", str(tmp_path / "1.db")))
    two = csv_rows(patience_cli(*args, "--jobs", "2", "--store", str(tmp_path / "2.db")))
    assert len(one) == N + 1 and two == one
