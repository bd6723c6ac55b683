"""``patience stats`` and ``patience history`` given bad or odd input: each refused in one line
with the documented exit status, never a traceback; a database they may only read is read."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import click
import pytest

from patience_core.stats import Statistics, _db
from patience_core.testing import CliResult

Run = Callable[..., CliResult]


@pytest.fixture
def recorded(patience_data_dir: Path) -> Path:
    """The test's data folder holding a won and a lost game of ``fake``."""
    stats = Statistics.open(patience_data_dir / "stats.db", warn=print)
    assert stats is not None
    for deal, outcome in (("1", "won"), ("2", "lost")):
        stats.record(
            game="fake", options={}, deal=deal, patience_version="0.1.0", plugin_version="1"
        ).update(moves=4, undos=0, hints=0, restarts=0, score=4, seconds=9.0, outcome=outcome)  # type: ignore[arg-type]
    stats.close()
    return patience_data_dir


def one_line(result: CliResult, code: int, text: str) -> None:
    assert result.code == code, result
    assert result.err.count("\n") == 1 and text in result.err, result.err
    assert "Traceback" not in result.err


@pytest.mark.parametrize("version", [0, -1])
@pytest.mark.parametrize("command", [["stats"], ["history"], ["stats", "--json"]])
def test_a_schema_version_no_patience_wrote_is_moved_aside(
    patience_cli: Run, recorded: Path, version: int, command: list[str]
) -> None:
    with sqlite3.connect(recorded / "stats.db") as conn:
        conn.execute("UPDATE schema_version SET version = ?", (version,))
    conn.close()
    result = patience_cli(*command)
    assert "No games recorded yet." in result.out or json.loads(result.out)["total"]["played"] == 0
    one_line(result, 0, "is not one patience knows")
    assert len(list(recorded.glob("stats-*-corrupt.db"))) == 1


def test_a_count_too_large_for_sqlite_is_a_usage_error(patience_cli: Run, recorded: Path) -> None:
    one_line(patience_cli("history", "-n", "99999999999999999999"), 2, "'-n'")
    assert patience_cli("history", "-n", "1000000000").code == 0


@pytest.mark.parametrize("since", ["0001-01-01T00:00+14:00", "9999-12-31T23:59-14:00"])
def test_a_since_time_out_of_range_is_one_line(
    patience_cli: Run, recorded: Path, since: str
) -> None:
    one_line(patience_cli("stats", "--since", since), 1, "is out of range")


def test_won_and_lost_together_are_refused(patience_cli: Run, recorded: Path) -> None:
    one_line(patience_cli("history", "--won", "--lost"), 2, "give --won or --lost, not both")
    assert [r["outcome"] for r in json.loads(patience_cli("history", "--lost", "--json").out)] == [
        "lost"
    ]


@pytest.mark.parametrize("args", [["--reset", "fake"], ["--export", "x.csv"], [], ["--json"]])
def test_statistics_off_is_one_error_line(
    patience_cli: Run, recorded: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    real = os.access
    monkeypatch.setattr(
        _db.os, "access", lambda p, mode: False if Path(p) == recorded else real(p, mode)
    )
    monkeypatch.setattr(_db, "_open_read_only", _refuse_to_open)
    result = patience_cli("stats", *args, input="y\n")
    one_line(result, 1, "patience: error: statistics are off")
    assert "warning" not in result.err


def _refuse_to_open(path: Path) -> sqlite3.Connection:
    raise sqlite3.OperationalError("unable to open database file")


def test_a_read_only_database_is_read(patience_cli: Run, recorded: Path) -> None:
    (recorded / "stats.db").chmod(0o444)
    result = patience_cli("stats", "--json")
    assert (result.code, result.err) == (0, "")
    assert json.loads(result.out)["total"]["won"] == 1
    assert patience_cli("history").code == 0
    one_line(patience_cli("stats", "--reset", "fake", "--yes"), 1, "is read-only")


def test_ctrl_c_at_the_reset_prompt_is_an_interruption(
    patience_cli: Run, recorded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> bool:
        # As click.confirm tells Ctrl-C (the test runner replaces its prompt function).
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise click.exceptions.Abort() from None

    monkeypatch.setattr(click, "confirm", interrupted)
    result = patience_cli("stats", "--reset", "fake")
    assert (result.code, result.err.splitlines()[-1]) == (130, "patience: interrupted")
    assert json.loads(patience_cli("stats", "--json").out)["total"]["played"] == 2


@pytest.mark.parametrize("answer", ["y", "yes", "Y"])
def test_the_reset_prompt_takes_y_and_yes(patience_cli: Run, recorded: Path, answer: str) -> None:
    result = patience_cli("stats", "--reset", "fake", input=f"{answer}\n")
    assert result.code == 0 and "Deleted the 2 recorded games of fake." in result.out


def test_export_into_a_missing_folder_names_it(
    patience_cli: Run, recorded: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = patience_cli("stats", "--export", "nowhere/x.csv")
    one_line(result, 1, "cannot write 'nowhere/x.csv': directory 'nowhere' does not exist")
    assert ".tmp" not in result.err
    one_line(patience_cli("stats", "--export", ""), 1, "an empty name")


@pytest.mark.parametrize(
    "args",
    [
        ["--export", "x.csv", "--json"],
        ["--reset", "fake", "--json"],
        ["--reset", "fake", "--since", "2026-01-01"],
        ["other", "--reset", "fake"],
    ],
)
def test_options_that_would_be_ignored_are_refused(
    patience_cli: Run, recorded: Path, args: list[str]
) -> None:
    one_line(patience_cli("stats", *args), 2, "not both" if "--export" in args else "--reset")


def test_export_of_one_game_and_since(
    patience_cli: Run, recorded: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stats = Statistics.open(recorded / "stats.db", warn=print)
    assert stats is not None
    stats.record(
        game="other", options={}, deal="7", patience_version="0.1.0", plugin_version="1"
    ).update(moves=1, undos=0, hints=0, restarts=0, score=1, seconds=1.0, outcome="won")
    stats.close()
    out = tmp_path / "fake.jsonl"
    assert patience_cli("stats", "other", "--export", str(out)).out.startswith("Exported 1 game ")
    assert [json.loads(line)["deal"] for line in out.read_text().splitlines()] == ["7"]
    result = patience_cli("stats", "--since", "9999-01-01", "--export", str(out))
    assert result.out.startswith("Exported 0 games ")


def test_win_rate_is_null_where_no_game_was_played(patience_cli: Run, recorded: Path) -> None:
    assert json.loads(patience_cli("stats", "--json").out)["total"]["win_rate"] == 0.5
    empty = json.loads(patience_cli("stats", "--json", "--since", "9999-01-01").out)
    assert empty["total"]["played"] == 0 and empty["total"]["win_rate"] is None


def test_a_data_folder_that_is_a_file_is_said_plainly(
    patience_cli: Run, patience_data_dir: Path
) -> None:
    patience_data_dir.write_text("")
    for command in ("stats", "history"):
        one_line(patience_cli(command), 1, f"the data folder {patience_data_dir} is a file")


def test_a_hand_edited_row_is_left_out_with_one_warning(patience_cli: Run, recorded: Path) -> None:
    with sqlite3.connect(recorded / "stats.db") as conn:
        conn.execute("UPDATE games SET options = 'notjson' WHERE deal = '1'")
    conn.close()
    for command in ("stats", "history"):
        result = patience_cli(command)
        one_line(result, 0, "1 recorded game in ")
        assert "holds values patience never writes (edited by hand?): left out" in result.err
        assert result.err.startswith("patience: warning: ")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
@pytest.mark.parametrize("args", [["history", "-n", "100000", "--json"], ["stats", "--json"]])
def test_json_cut_short_exits_141(
    patience_data_dir: Path, args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``patience history --json | head -c 10``: the reader leaves after 10 bytes."""
    stats = Statistics.open(patience_data_dir / "stats.db", warn=print)
    assert stats is not None
    for deal in range(300):
        stats.record(
            game=f"g{deal}", options={}, deal=str(deal), patience_version="0", plugin_version="1"
        ).update(moves=1, undos=0, hints=0, restarts=0, score=1, seconds=1.0, outcome="won")
    stats.close()
    exe = shutil.which("patience", path=str(Path(sys.executable).parent)) or "patience"
    with subprocess.Popen(
        [exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert len(process.stdout.read(10)) == 10
        process.stdout.close()
        err = process.stderr.read()
        assert (process.wait(timeout=120), err) == (141, b"")
