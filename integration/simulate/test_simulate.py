"""Batch simulation: rows, determinism across --jobs and processes, the interval, the command."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shlex
import subprocess
import sys
import types
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from click.testing import CliRunner

from patience_core import hookimpl
from patience_core.api import Game, Move, Position
from patience_core.cli import cli, main
from patience_core.engine import DealNumber
from patience_core.errors import BadDeal, PatienceError
from patience_core.games import GreedyStrategy, RandomStrategy, StrategyRegistry
from patience_core.plugins import PluginHost
from patience_core.simulate import (
    COLUMNS,
    LOST,
    STOPPED,
    WON,
    BatchSpec,
    RunStore,
    SimRow,
    Summary,
    deal_range,
    options_text,
    play_deal,
    run_batch,
    strategy_seed,
    wilson_interval,
    workers_for,
)


@pytest.fixture(scope="module")
def host() -> PluginHost:
    return PluginHost().load()


def keys(rows: Sequence[SimRow]) -> list[tuple[object, ...]]:
    return [row.key() for row in rows]


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the console entry point in-process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as stop:
        main(args)
        raise SystemExit(0)
    out, err = capsys.readouterr()
    code = stop.value.code
    return (code if isinstance(code, int) else 1), out, err


# -- the interval -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (0, 10, 0.0, 0.27754),  # upper bound z²/(n+z²)
        (10, 10, 0.72246, 1.0),
        (5, 10, 0.23659, 0.76341),
        (1, 1, 0.20654, 1.0),
        (81, 263, 0.25529, 0.36621),
        (500, 1000, 0.46907, 0.53093),
    ],
)
def test_wilson_interval_known_values(wins: int, games: int, low: float, high: float) -> None:
    got = wilson_interval(wins, games)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(3, 100)
    assert 0 < low < 0.03 < high < 1
    for games in (5, 297, 300, 1001):  # 300 left 8.7e-19 at the low end before
        assert wilson_interval(0, games)[0] == 0.0
        assert wilson_interval(games, games)[1] == 1.0
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    with pytest.raises(ValueError):
        wilson_interval(-1, 10)


# -- one deal ---------------------------------------------------------------------------------


def test_strategy_seed_is_fixed_and_depends_on_deal_and_strategy() -> None:
    assert strategy_seed(DealNumber(1), "random") == 2781457478
    assert strategy_seed(DealNumber(1), "greedy") == 3080700769
    assert strategy_seed(DealNumber(617, "ms"), "random") == 2167032143
    assert strategy_seed(DealNumber(2), "random") != strategy_seed(DealNumber(1), "random")


def test_play_deal_results(host: PluginHost) -> None:
    game = host.game("escalator")
    lost = play_deal(game, RandomStrategy, DealNumber(1), "random")
    assert (lost.result, lost.game, lost.deal, lost.max_score) == (LOST, "escalator", "1", 28)
    assert lost.score < 28 and lost.moves > 24 and lost.seconds >= 0
    won = play_deal(game, GreedyStrategy, DealNumber(53), "greedy")
    assert (won.result, won.score) == (WON, 28)
    capped = play_deal(game, RandomStrategy, DealNumber(1), "random", max_moves=3)
    assert (capped.result, capped.moves) == (STOPPED, 3)


def test_deal_range() -> None:
    assert [str(d) for d in deal_range(DealNumber(5, "ms"), 3)] == ["ms:5", "ms:6", "ms:7"]
    assert len(deal_range(DealNumber(2**32 - 2), 2)) == 2
    with pytest.raises(BadDeal, match="run past the last deal"):
        deal_range(DealNumber(2**32 - 2), 3)
    with pytest.raises(BadDeal):
        deal_range(DealNumber(1), 0)


# -- batches ----------------------------------------------------------------------------------


def test_rows_do_not_depend_on_jobs_or_chunks(host: PluginHost) -> None:
    for strategy in ("random", "greedy"):
        spec = BatchSpec.of("escalator", strategy)
        one = list(run_batch(host, spec, DealNumber(40), 25, jobs=1))
        two = list(run_batch(host, spec, DealNumber(40), 25, jobs=2, chunk_size=4))
        assert [row.deal for row in one] == [str(d) for d in range(40, 65)]
        assert keys(one) == keys(two)


def test_batch_checks_its_input_before_playing(host: PluginHost) -> None:
    with pytest.raises(PatienceError, match="unknown strategy 'nope'"):
        run_batch(host, BatchSpec.of("escalator", "nope"), DealNumber(1), 5)
    with pytest.raises(BadDeal, match="does not take ms deal numbers"):
        run_batch(host, BatchSpec.of("escalator", "random"), DealNumber(1, "ms"), 5)
    with pytest.raises(PatienceError, match="jobs must be at least 1"):
        run_batch(host, BatchSpec.of("escalator", "random"), DealNumber(1), 5, jobs=0)
    with pytest.raises(PatienceError, match="move cap"):
        BatchSpec.of("escalator", "random", max_moves=0)


def test_rows_are_the_same_in_processes_with_other_hash_seeds(tmp_path: Path) -> None:
    code = (
        "from patience_core.cli import main; "
        "main(['simulate', 'escalator', '-n', '12', '--first-deal', '100', "
        "'--strategy', 'greedy', '--output', '-'])"
    )
    outputs = []
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
        )
        assert done.returncode == 0, done.stderr
        rows = list(csv.DictReader(io.StringIO(done.stdout)))
        assert len(rows) == 12
        outputs.append([[row[c] for c in COLUMNS if c != "seconds"] for row in rows])
    assert outputs[0] == outputs[1]


def test_summary_adds_up() -> None:
    summary = Summary("escalator", "random", 28)
    for deal, result, score in (("1", WON, 28), ("2", LOST, 10), ("3", STOPPED, 3)):
        summary.add(SimRow("escalator", deal, "random", "", result, score, 28, 40, 0.5))
    data = summary.as_dict(wall_seconds=2.0)
    assert (data["games"], data["wins"], data["lost"], data["stopped"]) == (3, 1, 1, 1)
    assert data["win_rate"] == pytest.approx(1 / 3)
    assert (data["ci_low"], data["ci_high"]) == pytest.approx(wilson_interval(1, 3))
    assert data["mean_score"] == pytest.approx(41 / 3)
    assert (data["best_score"], data["max_score"]) == (28, 28)
    assert (data["first_deal"], data["last_deal"]) == ("1", "3")
    assert data["games_per_second"] == pytest.approx(1.5)


# -- the command ------------------------------------------------------------------------------


def test_csv_output_parses_with_the_columns(tmp_path: Path) -> None:
    target = tmp_path / "rows.csv"
    result = CliRunner().invoke(
        cli, ["simulate", "escalator", "-n", "6", "--first-deal", "50", "-O", str(target)]
    )
    assert result.exit_code == 0, result.output
    assert "95% CI" in result.output and "mean" in result.output
    with target.open(newline="") as stream:
        reader = csv.DictReader(stream)
        assert tuple(reader.fieldnames or ()) == COLUMNS
        rows = list(reader)
    assert [row["deal"] for row in rows] == ["50", "51", "52", "53", "54", "55"]
    assert {row["result"] for row in rows} <= {WON, LOST, STOPPED}
    assert all(0 <= int(row["score"]) <= 28 and float(row["seconds"]) >= 0 for row in rows)
    # No temporary file left (the data folder holds the run's lock on the output file).
    assert [p for p in tmp_path.iterdir() if p.name != "patience-data"] == [target]


def test_jsonl_output_and_json_summary(tmp_path: Path) -> None:
    target = tmp_path / "rows.jsonl"
    result = CliRunner().invoke(
        cli,
        ["simulate", "escalator", "-n", "5", "--strategy", "greedy", "-O", str(target), "--json"],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    rows = [json.loads(line) for line in target.read_text().splitlines()]
    assert [tuple(row) for row in rows] == [COLUMNS] * 5
    assert summary["games"] == 5 and summary["strategy"] == "greedy"
    assert summary["wins"] == sum(row["result"] == WON for row in rows)
    assert summary["mean_score"] == pytest.approx(sum(row["score"] for row in rows) / 5)
    assert 0 <= summary["ci_low"] <= summary["win_rate"] <= summary["ci_high"] <= 1


def test_dash_writes_rows_to_stdout_and_summary_to_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run_main(["simulate", "escalator", "-n", "3", "-O", "-"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == ",".join(COLUMNS) and len(lines) == 4
    assert "95% CI" in err and "95% CI" not in out


def test_command_rows_equal_for_jobs_1_and_2(tmp_path: Path) -> None:
    outputs = []
    for jobs in ("1", "2"):
        target = tmp_path / f"jobs{jobs}.csv"
        args = ["simulate", "escalator", "-n", "30", "--strategy", "greedy", "-j", jobs]
        result = CliRunner().invoke(cli, [*args, "-O", str(target)])
        assert result.exit_code == 0, result.output
        with target.open(newline="") as stream:
            outputs.append([{**row, "seconds": ""} for row in csv.DictReader(stream)])
    assert outputs[0] == outputs[1] and len(outputs[0]) == 30


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-n", "0"], "0 is not in the range"),
        (["-n", "5", "--jobs", "0"], "0 is not in the range"),
        (["-n", "5", "--strategy", "nope"], "unknown strategy 'nope'"),
        (["-n", "5", "--first-deal", "4294967295"], "run past the last deal"),
        (["-n", "5", "--first-deal", "x"], "bad deal number"),
        (["-n", "5", "-O", "rows.txt"], "use a .csv, .jsonl or .parquet file name"),
        (["-n", "5", "-O", "no/such/dir/rows.csv"], "does not exist"),
        (["-n", "5", "-O", "rows.csv/"], "--output names a folder, not a file: 'rows.csv/'"),
        (["-n", "5", "-O", "."], "--output names a folder, not a file: '.'"),
        (["-n", "5", "--option", "nope=1"], "has no option"),
        (["-n", "5", "--max-moves", "0"], "0 is not in the range"),
    ],
)
def test_bad_input_is_one_line_and_fails(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_main(["simulate", "escalator", *args], capsys)
    assert code != 0
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_unknown_game_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_main(["simulate", "no-such-game", "-n", "2"], capsys)
    assert code == 1 and err.count("\n") == 1 and "unknown game" in err


class Exploding:
    """Fails on the sixth deal it plays, like a run that breaks half way."""

    played = 0

    def __init__(self, game: Game, seed: int) -> None:
        Exploding.played += 1
        if Exploding.played == 6:
            raise RuntimeError("boom")

    def choose(self, position: Position, legal: Sequence[Move]) -> Move:
        return legal[-1]


def test_a_failed_run_leaves_the_old_output_in_place(tmp_path: Path) -> None:
    target = tmp_path / "rows.csv"
    target.write_text("a good file\n")
    host = PluginHost()
    host.load()
    host.strategies.add("exploding", Exploding)
    Exploding.played = 0
    result = CliRunner().invoke(
        cli,
        ["simulate", "escalator", "-n", "10", "--strategy", "exploding", "-O", str(target)],
        obj=host,
    )
    assert isinstance(result.exception, RuntimeError)
    assert target.read_text() == "a good file\n"
    # the rows played so far wait in the run store for the run to be resumed (docs/simulate.md)
    assert sorted(p for p in tmp_path.iterdir() if p.name != "patience-data") == [target]
    with RunStore() as store:
        assert [run.rows for run in store.runs()] == [5]


def test_a_finished_run_replaces_the_output(tmp_path: Path) -> None:
    target = tmp_path / "rows.csv"
    target.write_text("old\n")
    target.chmod(0o640)
    result = CliRunner().invoke(cli, ["simulate", "escalator", "-n", "2", "-O", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text().startswith("game,deal,")
    assert target.stat().st_mode & 0o777 == 0o640


class PluginEntryPoint:
    """An entry point of a plugin that registers the ``first-move`` player through the hook."""

    name = "first-move"

    class dist:  # stands in for importlib.metadata.Distribution
        metadata: ClassVar[dict[str, str]] = {"Name": "patience-first-move"}
        version = "1.0"

    def load(self) -> Any:
        @hookimpl
        def patience_register_strategies(registry: StrategyRegistry) -> None:
            registry.add("first-move", FirstMove, "always the first legal move")

        return types.SimpleNamespace(patience_register_strategies=patience_register_strategies)


class FirstMove:
    def __init__(self, game: Game, seed: int) -> None:
        pass

    def choose(self, position: Position, legal: Sequence[Move]) -> Move:
        return legal[0]


def test_a_strategy_from_a_plugin_is_offered(tmp_path: Path) -> None:
    installed: list[Any] = list(metadata.entry_points(group="patience"))
    host = PluginHost(entry_points=[*installed, PluginEntryPoint()])  # type: ignore[list-item]
    target = tmp_path / "rows.csv"
    result = CliRunner().invoke(
        cli,
        ["simulate", "escalator", "-n", "3", "--strategy", "first-move", "-O", str(target)],
        obj=host,
    )
    assert result.exit_code == 0, result.output
    assert "strategy first-move" in result.output
    with target.open(newline="") as stream:
        assert {row["strategy"] for row in csv.DictReader(stream)} == {"first-move"}
    bad = CliRunner().invoke(cli, ["simulate", "escalator", "-n", "1", "--strategy", "x"], obj=host)
    assert isinstance(bad.exception, PatienceError)
    assert "first-move" in str(bad.exception)


def test_registry_type_is_the_one_plugins_receive(host: PluginHost) -> None:
    assert isinstance(host.strategies, StrategyRegistry)


SHIPPED_GAMES = ["escalator", "bristol", "bakers-game", "diamond-mine", "spiderette"]


@pytest.mark.parametrize("game", SHIPPED_GAMES)
def test_every_shipped_game_simulates_with_two_jobs(game: str, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from patience_core.cli import cli

    rows = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"rows-{jobs}.csv"
        args = ["simulate", game, "-n", "4", "--jobs", jobs, "--max-moves", "150", "-O", str(out)]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        with out.open() as handle:
            rows[jobs] = [
                {k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(handle)
            ]
    assert len(rows["1"]) == 4
    assert rows["1"] == rows["2"]


@pytest.mark.parametrize("jobs", ["0", "65", "100000"])
def test_jobs_out_of_range_is_a_usage_error(jobs: str) -> None:
    result = CliRunner().invoke(cli, ["simulate", "escalator", "-n", "2", "--jobs", jobs])
    assert result.exit_code == 2
    assert "1<=x<=64" in result.output
    assert "Traceback" not in result.output


# -- the options column -----------------------------------------------------------------------


def test_options_column_comes_right_after_strategy() -> None:
    assert COLUMNS[:4] == ("game", "deal", "strategy", "options")
    assert COLUMNS[-1] == "seconds" and len(COLUMNS) == len(set(COLUMNS)) == 9


def test_options_text_is_sorted_pairs_joined_by_semicolons() -> None:
    assert options_text({}) == ""
    assert options_text({"empty-columns": "kings"}) == "empty-columns=kings"
    assert options_text({"zeta": "1", "alpha": "b"}) == "alpha=b;zeta=1"


def test_rows_record_every_option_in_force(host: PluginHost) -> None:
    deal = DealNumber(3)
    default = play_deal(host.game("bakers-game"), GreedyStrategy, deal, "greedy")
    kings = play_deal(
        host.game("bakers-game", {"empty-columns": "kings"}), GreedyStrategy, deal, "greedy"
    )
    any_ = play_deal(
        host.game("bakers-game", {"empty-columns": "any"}), GreedyStrategy, deal, "greedy"
    )
    assert default.options == kings.options == "empty-columns=kings"  # the default is recorded
    assert any_.options == "empty-columns=any"
    assert default.key() == kings.key()
    assert play_deal(host.game("escalator"), RandomStrategy, deal, "random").options == ""


def test_key_tells_rows_of_other_options_apart() -> None:
    kings = SimRow("bakers-game", "1", "greedy", "empty-columns=kings", LOST, 4, 52, 90, 0.1)
    any_ = attrs.evolve(kings, options="empty-columns=any")
    assert kings.key() != any_.key()
    assert kings.as_dict()["options"] == "empty-columns=kings"
    assert list(kings.as_dict()) == list(COLUMNS)


def test_options_reach_worker_processes(host: PluginHost) -> None:
    spec = BatchSpec.of("bakers-game", "greedy", {"empty-columns": "any"}, max_moves=200)
    one = list(run_batch(host, spec, DealNumber(1), 4, jobs=1))
    two = list(run_batch(host, spec, DealNumber(1), 4, jobs=2, chunk_size=1))
    assert {row.options for row in two} == {"empty-columns=any"}
    assert keys(one) == keys(two)


def _csv_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as stream:
        reader = csv.DictReader(stream)
        assert tuple(reader.fieldnames or ()) == COLUMNS
        return [{k: v for k, v in row.items() if k != "seconds"} for row in reader]


def test_runs_with_other_options_differ_only_in_the_options_column(tmp_path: Path) -> None:
    args = ["simulate", "bakers-game", "-n", "3", "--strategy", "greedy", "--max-moves", "200"]
    outputs = {}
    for name, extra in (("default", []), ("kings", ["-o", "empty-columns=kings"])):
        target = tmp_path / f"{name}.csv"
        result = CliRunner().invoke(cli, [*args, *extra, "-O", str(target)])
        assert result.exit_code == 0, result.output
        outputs[name] = _csv_rows(target)
    target = tmp_path / "any.csv"
    result = CliRunner().invoke(cli, [*args, "-o", "empty-columns=any", "-O", str(target)])
    assert result.exit_code == 0, result.output
    outputs["any"] = _csv_rows(target)
    assert {row["options"] for row in outputs["default"]} == {"empty-columns=kings"}
    assert outputs["default"] == outputs["kings"]
    assert {row["options"] for row in outputs["any"]} == {"empty-columns=any"}
    # with the options column dropped, the rows of the two rule sets cannot be told apart by
    # their identifying columns: game, deal and strategy agree
    ident = [[row[c] for c in ("game", "deal", "strategy")] for row in outputs["any"]]
    assert ident == [[row[c] for c in ("game", "deal", "strategy")] for row in outputs["kings"]]


def test_a_game_without_options_gives_an_empty_field(tmp_path: Path) -> None:
    target = tmp_path / "rows.csv"
    result = CliRunner().invoke(cli, ["simulate", "escalator", "-n", "2", "-O", str(target)])
    assert result.exit_code == 0, result.output
    lines = target.read_text().splitlines()
    assert lines[0] == "game,deal,strategy,options,result,score,max_score,moves,seconds"
    assert lines[1].startswith("escalator,1,random,,") and lines[2].startswith("escalator,2,")
    assert {row["options"] for row in _csv_rows(target)} == {""}


def test_json_lines_carry_the_options_key(tmp_path: Path) -> None:
    for game, expect in (("escalator", ""), ("bakers-game", "empty-columns=kings")):
        target = tmp_path / f"{game}.jsonl"
        args = ["simulate", game, "-n", "2", "--max-moves", "100", "-O", str(target), "--json"]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        rows = [json.loads(line) for line in target.read_text().splitlines()]
        assert [list(row)[3] for row in rows] == ["options", "options"]
        assert [row["options"] for row in rows] == [expect, expect]
        summary_options = json.loads(result.output)["options"]
        assert summary_options == ({} if not expect else {"empty-columns": "kings"})


# -- resuming with the options column ---------------------------------------------------------


def _exploding_run(tmp_path: Path, target: Path, extra: list[str], explode: bool) -> Any:
    """Run ``simulate bakers-game -n 8 --strategy exploding``; the sixth deal fails if
    ``explode``."""
    host = PluginHost()
    host.load()
    host.strategies.add("exploding", Exploding)
    Exploding.played = 0 if explode else -1000
    args = ["simulate", "bakers-game", "-n", "8", "--strategy", "exploding", "--max-moves", "60"]
    return CliRunner().invoke(cli, [*args, *extra, "-O", str(target)], obj=host)


def test_a_run_with_the_default_option_spelled_out_resumes_a_default_run(
    tmp_path: Path,
) -> None:
    whole = tmp_path / "whole.csv"
    elsewhere = ["--store", str(tmp_path / "whole.db")]
    assert _exploding_run(tmp_path, whole, elsewhere, explode=False).exit_code == 0
    target = tmp_path / "rows.csv"
    killed = _exploding_run(tmp_path, target, [], explode=True)
    assert isinstance(killed.exception, RuntimeError)
    resumed = _exploding_run(tmp_path, target, ["-o", "empty-columns=kings"], explode=False)
    assert resumed.exit_code == 0, resumed.output
    assert "5 of 8 deals already played" in resumed.stderr
    assert _csv_rows(target) == _csv_rows(whole) and len(_csv_rows(whole)) == 8


def test_a_run_with_other_options_does_not_resume(tmp_path: Path) -> None:
    target = tmp_path / "rows.csv"
    killed = _exploding_run(tmp_path, target, [], explode=True)
    assert isinstance(killed.exception, RuntimeError)
    other = _exploding_run(tmp_path, target, ["-o", "empty-columns=any"], explode=False)
    assert other.exit_code == 0, other.output
    assert "Resuming" not in other.stderr
    assert {row["options"] for row in _csv_rows(target)} == {"empty-columns=any"}
    with RunStore() as store:  # the stopped run is kept beside the new one
        assert [(run.rows, run.ended is None) for run in store.runs()] == [(5, True), (8, False)]


def test_a_strategy_that_makes_no_player_is_named() -> None:
    from patience_core.errors import PluginError
    from patience_core.simulate import play_deal

    game = PluginHost().load().game("escalator")
    with pytest.raises(PluginError, match="strategy 'odd' is broken: it made object, which has no"):
        play_deal(game, lambda game, seed: object(), DealNumber(1), "odd")  # type: ignore[arg-type,return-value]


def test_a_resumed_run_counts_its_speed_over_the_games_it_played(tmp_path: Path) -> None:
    target = tmp_path / "rows.csv"
    killed = _exploding_run(tmp_path, target, [], explode=True)
    assert isinstance(killed.exception, RuntimeError)
    resumed = _exploding_run(tmp_path, target, ["--json"], explode=False)
    assert resumed.exit_code == 0, resumed.output
    data = json.loads(resumed.stdout)
    assert data["games"] == 8 and data["jobs"] == 1
    # 3 of the 8 games were played in this run's wall time.
    assert data["games_this_run"] == 3
    assert data["games_per_second"] * data["wall_seconds"] == pytest.approx(3, rel=0.01)
    # cpu_seconds counts every row, as the seconds column adds up (rows.seconds.sum()).
    assert data["cpu_seconds"] == pytest.approx(_seconds_column(target), abs=1e-5)


def _seconds_column(path: Path) -> float:
    with path.open(newline="") as stream:
        return sum(float(row["seconds"]) for row in csv.DictReader(stream))


def test_a_resumed_run_says_its_speed_covers_only_the_games_it_played(tmp_path: Path) -> None:
    target = tmp_path / "rows.csv"
    assert isinstance(_exploding_run(tmp_path, target, [], explode=True).exception, RuntimeError)
    resumed = _exploding_run(tmp_path, target, [], explode=False)
    assert resumed.exit_code == 0, resumed.output
    speed = resumed.stdout.splitlines()[-1]
    assert re.fullmatch(
        r"speed    \S+ games/s over the 3 games played now \(\S+ s wall, 1 job\); "
        r"5 were already in the run store",
        speed,
    ), speed


def test_a_resumed_run_with_nothing_left_to_play_has_no_speed(tmp_path: Path) -> None:
    """Every row already in the store (the same command again): the summary says nothing was
    left to play, not "0 games/s"; cpu_seconds is still the rows' seconds."""
    whole = tmp_path / "whole.csv"
    assert _exploding_run(tmp_path, whole, [], explode=False).exit_code == 0
    target = tmp_path / "rows.csv"
    for extra in ([], ["--json"]):
        done = _exploding_run(tmp_path, target, extra, explode=False)
        assert done.exit_code == 0, done.output
        assert "8 of 8 deals already played" in done.stderr
        assert _csv_rows(target) == _csv_rows(whole)
        if extra:
            data = json.loads(done.stdout)
            assert (data["games"], data["games_this_run"]) == (8, 0)
            assert data["games_per_second"] is None
            assert data["cpu_seconds"] == pytest.approx(_seconds_column(target), abs=1e-5)
        else:
            assert done.stdout.splitlines()[-1] == (
                "speed    nothing left to play: all 8 games were already in the run store"
            )


def test_the_jobs_reported_are_the_workers_started() -> None:
    assert workers_for(2, 64) == 2
    assert workers_for(1000, 4) == 4
    assert workers_for(5, 1) == 1
    assert workers_for(0, 8) == 1
    # 100 deals in tasks of at most 100: never more workers than tasks.
    assert workers_for(100, 2, chunk_size=100) == 1


def test_one_worker_means_this_process(host: PluginHost, monkeypatch: pytest.MonkeyPatch) -> None:
    """``-n 1 -j 8`` reports 1 job: it plays in this process and starts no worker."""
    import patience_core.simulate._pool as simulate

    def no_pool(*args: object) -> None:
        raise AssertionError("a worker process was started")

    monkeypatch.setattr(simulate, "local_chunks", no_pool)
    spec = BatchSpec.of("escalator", "greedy")
    assert [row.deal for row in run_batch(host, spec, DealNumber(3), 1, jobs=8)] == ["3"]
    assert [row.deal for row in run_batch(host, spec, DealNumber(3), 4, jobs=2, chunk_size=4)]
    with pytest.raises(AssertionError, match="worker"):
        list(run_batch(host, spec, DealNumber(3), 2, jobs=2))


def test_a_closed_standard_error_is_no_internal_error(tmp_path: Path) -> None:
    """``2>&-``: Python has no sys.stderr; the run must not fail on asking it for a terminal."""
    target = tmp_path / "rows.csv"
    command = (
        f"{shlex.quote(sys.executable)} -c 'from patience_core.cli import main; main()' "
        f"simulate escalator -n 5 -O {shlex.quote(str(target))} 2>&-"
    )
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done
    assert len(target.read_text().splitlines()) == 6


def test_the_summary_says_1_game_not_1_games() -> None:
    from patience_core.simulate import summary_lines

    one = Summary("escalator", "random", 28)
    one.add(SimRow("escalator", "7", "random", "", LOST, 10, 28, 40, 0.5))
    lines = summary_lines(one, "Escalator", 1, 0.5)
    assert lines[0] == "Escalator, strategy random, deal 7 (1 game)"
    assert not any(re.search(r"\b1 (games|deals|jobs)\b", line) for line in lines), lines
    nothing = summary_lines(one, "Escalator", 1, 0.5, played=0, kept_in="rows.csv.partial")
    assert nothing[-1] == "speed    nothing left to play: the game was already in rows.csv.partial"
    two = Summary("escalator", "random", 28)
    for deal in ("1", "2"):
        two.add(SimRow("escalator", deal, "random", "", LOST, 10, 28, 40, 0.5))
    resumed = summary_lines(two, "Escalator", 1, 0.5, played=1, kept_in="rows.csv.partial")
    assert resumed[0] == "Escalator, strategy random, deals 1..2 (2 games)"
    assert resumed[-1].endswith(
        "games/s over the 1 game played now (0.50 s wall, 1 job); 1 was already in rows.csv.partial"
    ), resumed[-1]


def test_a_resumed_run_of_one_deal_says_1_of_1_deal(tmp_path: Path) -> None:
    target = tmp_path / "rows.csv"
    args = ["simulate", "escalator", "-n", "1", "-O", str(target)]
    whole = CliRunner().invoke(cli, args)
    assert whole.exit_code == 0, whole.output
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 0, done.output
    assert re.fullmatch(r"Resuming run 1 of \S+runs.db: 1 of 1 deal already played.\n", done.stderr)
    assert "(1 game)" in done.stdout and "the game was already in" in done.stdout
