"""What users type around a batch run, each refused in one line: the seconds in
PATIENCE_STORE_TIMEOUT and PATIENCE_DASK_TIMEOUT, numbers too large for the run store, empty
names, a store or data folder that is missing or a file; ``patience runs`` makes nothing; the
progress line fits the terminal (the fake game)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.cli._progress import ProgressLine
from patience_core.errors import PatienceError
from patience_core.simulate import (
    DASK_TIMEOUT_ENV,
    STORE_TIMEOUT_ENV,
    RunStore,
    SimRow,
    Summary,
    check_scheduler,
    seconds_from_env,
    summary_lines,
)
from patience_core.testing import CliResult

BAD_SECONDS = ["abc", "-1", "-5", "0", "nan", "inf", "1e9", "0x10", "1_0"]


@pytest.mark.parametrize("text", BAD_SECONDS)
def test_seconds_from_the_environment_must_be_a_number_more_than_0(text: str) -> None:
    with pytest.raises(PatienceError) as caught:
        seconds_from_env("PATIENCE_X", 20, {"PATIENCE_X": text})
    assert str(caught.value).startswith("PATIENCE_X must be a number of seconds more than 0")


def test_seconds_from_the_environment() -> None:
    assert seconds_from_env("X", 20, {}) == 20
    assert seconds_from_env("X", 20, {"X": " "}) == 20
    assert seconds_from_env("X", 20, {"X": "2.5"}) == 2.5
    assert seconds_from_env("X", 20, {"X": ".5"}) == 0.5


@pytest.mark.parametrize("name", [STORE_TIMEOUT_ENV, DASK_TIMEOUT_ENV])
@pytest.mark.parametrize("text", ["abc", "-5", "inf", "0"])
def test_a_bad_timeout_variable_is_one_line_before_any_file(
    patience_cli: Callable[..., CliResult],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    text: str,
) -> None:
    monkeypatch.setenv(name, text)
    store = tmp_path / "s.db"
    args = ["simulate", "fake", "-n", "2", "--store", str(store)]
    if name == DASK_TIMEOUT_ENV:
        pytest.importorskip("distributed", reason="the dask extra")
        args += ["--scheduler", "local:1"]
    done = patience_cli(*args)
    assert done.code == 1 and done.err.count("\n") == 1, done
    assert done.err.startswith(f"patience: error: {name} must be a number of seconds more than 0")
    assert not store.exists()


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "fake", "-n", "1", "--max-moves", "9223372036854775808"),
        ("simulate", "fake", "-n", "1", "--nodes", "99999999999999999999999"),
        ("runs", "export", "99999999999999999999999", "e.csv"),
        ("runs", "delete", "9223372036854775808", "--yes"),
    ],
)
def test_numbers_the_store_cannot_hold_are_usage_errors(
    patience_cli: Callable[..., CliResult], args: tuple[str, ...]
) -> None:
    done = patience_cli(*args)
    assert done.code == 2 and done.err.count("\n") == 1, done
    assert "is not in the range 1<=x<=9223372036854775807" in done.err


def test_scheduler_local_n_states_its_limits() -> None:
    for value in ("local:0", "local:65", "local:99999"):
        with pytest.raises(PatienceError, match="local:N takes 1 to 64 worker processes"):
            check_scheduler(value)
    check_scheduler("local:64")


def test_empty_names_and_missing_folders_are_said_plainly(
    patience_cli: Callable[..., CliResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for option in ("-O", "--store"):
        done = patience_cli("simulate", "fake", "-n", "1", option, "")
        assert done.code == 1 and "is an empty name" in done.err, done
    missing = tmp_path / "nowhere" / "x.db"
    done = patience_cli("simulate", "fake", "-n", "1", "--store", str(missing))
    assert done.code == 1 and done.err.count("\n") == 1
    assert f"its folder '{missing.parent}' does not exist" in done.err
    a_file = tmp_path / "afile"
    a_file.write_text("")
    monkeypatch.setenv("PATIENCE_DATA_DIR", str(a_file))
    done = patience_cli("simulate", "fake", "-n", "1")
    assert done.code == 1 and "a file is in its place" in done.err, done


def test_runs_makes_no_file_nor_folder(
    patience_cli: Callable[..., CliResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = tmp_path / "no" / "deep"
    monkeypatch.setenv("PATIENCE_DATA_DIR", str(deep))
    listed = patience_cli("runs")
    assert listed.code == 0 and "does not exist yet" in listed.out
    assert patience_cli("runs", "--json").out == "[]\n"
    for args in (("--store", str(tmp_path / "m.db")), ("export", "1", "-")):
        done = patience_cli("runs", *args)
        assert done.code == 1 and "no run store at" in done.err, done
    assert not (tmp_path / "no").exists() and not (tmp_path / "m.db").exists()
    with pytest.raises(PatienceError, match="no run store at"):
        RunStore(tmp_path / "m.db", create=False)


def test_export_of_a_stopped_run_says_it_is_incomplete(
    patience_cli: Callable[..., CliResult], tmp_path: Path
) -> None:
    store = tmp_path / "s.db"
    assert patience_cli("simulate", "fake", "-n", "3", "--store", str(store)).code == 0
    with RunStore(store) as opened:
        opened._db.execute("DELETE FROM rows WHERE deal = '3'")
        opened._db.execute("UPDATE runs SET ended = NULL")
    done = patience_cli("runs", "--store", str(store), "export", "1", str(tmp_path / "e.csv"))
    assert done.code == 0 and "Run 1 is incomplete: 2 of 3 deals stored" in done.err


@pytest.mark.parametrize("columns", [1, 2, 5, 12, 30, 45, 80, 200])
def test_the_progress_line_fits_the_terminal_and_sends_no_cursor_codes(columns: int) -> None:
    out = io.StringIO()
    with ProgressLine(20000, "simulating", out, width=columns) as bar:
        for _ in range(20000):
            bar.update(1)
    drawn = out.getvalue()
    assert "\x1b" not in drawn and drawn.endswith("\n")
    for line in drawn[:-1].split("\r"):
        assert len(line.rstrip()) < columns
    if columns >= 30:
        assert "20000/20000" in drawn


def test_the_progress_line_after_a_ctrl_c_leaves_the_line_to_the_message() -> None:
    out = io.StringIO()  # not a terminal: no ^C echoed, so the line is ended here, once
    with pytest.raises(KeyboardInterrupt), ProgressLine(10, "simulating", out, width=80):
        raise KeyboardInterrupt
    assert out.getvalue().count("\n") == 1


def test_rows_of_a_run_deleted_while_it_is_played_are_one_line(tmp_path: Path) -> None:
    params = {"game": "fake", "options": {}, "strategy": "random", "budget": None,
              "nodes": None, "max_moves": 2000, "first_deal": "1", "deals": 3,
              "versions": {}}  # fmt: skip
    with RunStore(tmp_path / "s.db") as playing, RunStore(tmp_path / "s.db") as other:
        run = playing.run_for(params)
        other.delete(run)
        with pytest.raises(PatienceError, match="the run was deleted from it while it was being"):
            playing.add_rows(run, [(0, SimRow("fake", "1", "random", "", "lost", 1, 9, 4, 0.1))])


def test_the_interval_of_no_win_shows_an_upper_bound_more_than_0() -> None:
    summary = Summary("fake", "random", 9)
    for deal in range(20000):
        summary.add(SimRow("fake", str(deal), "random", "", "lost", 1, 9, 4, 0.001))
    won = next(line for line in summary_lines(summary, "Fake", 1, 1.0, 20000, "the store")
               if line.startswith("won"))  # fmt: skip
    assert "95% CI 0.00% to 0.02%" in won, won
