"""The run store: a run's identity, rows stored once, resuming, and a store that is corrupt,
of something else, locked or shared by two runs; ``patience runs`` over it (the fake game)."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from patience_core.errors import PatienceError
from patience_core.simulate import RunStore, SimRow
from patience_core.testing import CliResult

PARAMS: dict[str, Any] = {
    "game": "fake",
    "options": {},
    "strategy": "random",
    "budget": None,
    "nodes": None,
    "max_moves": 2000,
    "first_deal": "1",
    "deals": 3,
    "versions": {"patience-core": "0.1.0"},
}


def row(deal: int, seconds: float = 0.001) -> SimRow:
    return SimRow("fake", str(deal), "random", "", "lost", 1, 9, 4, seconds)


def test_the_same_parameters_are_the_same_run_and_others_another(tmp_path: Path) -> None:
    with RunStore(tmp_path / "runs.db") as store:
        first = store.run_for(PARAMS)
        assert store.run_for(dict(reversed(PARAMS.items()))) == first
        assert store.run_for({**PARAMS, "deals": 4}) != first
        assert store.run_for({**PARAMS, "versions": {"patience-core": "0.2.0"}}) != first
        assert [run.id for run in store.runs()] == [1, 2, 3]


def test_a_row_is_stored_once_and_rows_come_back_in_deal_order(tmp_path: Path) -> None:
    with RunStore(tmp_path / "runs.db") as store:
        run = store.run_for(PARAMS)
        assert store.add_rows(run, [(2, row(3)), (0, row(1))]) == 2
        # the same deal again (a chunk played twice): kept as it was
        assert store.add_rows(run, [(0, row(1, 9.0)), (1, row(2))]) == 1
        assert [(r.deal, r.seconds) for r in store.rows(run)] == [
            ("1", 0.001),
            ("2", 0.001),
            ("3", 0.001),
        ]
        assert store.stored_deals(run) == {"1", "2", "3"}
        store.finish(run)
        info = store.run(run)
        assert info.rows == 3 and info.ended is not None and info.params == PARAMS
        assert store.delete(run) == 3 and store.runs() == []
        with pytest.raises(PatienceError, match="no run 1 in"):
            store.run(1)


def test_a_file_that_is_no_database_is_one_line_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    path.write_bytes(b"my notes, not a database\n" * 100)
    with pytest.raises(PatienceError) as refused:
        RunStore(path)
    assert str(refused.value) == (
        f"cannot open the run store {str(path)!r}: it is not an SQLite database or it is "
        "damaged; it was left as it is (move it away, or choose another --store)"
    )
    assert path.read_bytes() == b"my notes, not a database\n" * 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs.db"]


def test_a_database_of_something_else_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (name TEXT)")
    db.close()
    with pytest.raises(PatienceError, match="is an SQLite database but not a patience run store"):
        RunStore(path)


def test_a_store_of_a_newer_patience_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    RunStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    db.close()
    with pytest.raises(PatienceError, match="a run store of a newer patience"):
        RunStore(path)


def test_a_locked_store_is_waited_for_then_one_line(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    RunStore(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with RunStore(path, timeout=0.3) as store, pytest.raises(PatienceError) as refused:
            store.run_for(PARAMS)
        assert str(refused.value) == (
            f"cannot write the run store {str(path)!r}: another process has held it locked "
            "for 0.3 s; try again when it is done"
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with RunStore(path) as store:
        assert store.runs() == []  # nothing was written, nothing lost


def test_two_writers_at_once_both_complete(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    errors: list[BaseException] = []

    def write(deals: int) -> None:
        try:
            with RunStore(path) as store:
                run = store.run_for({**PARAMS, "deals": deals})
                for deal in range(deals):
                    store.add_rows(run, [(deal, row(deal + 1))])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in (150, 160)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with RunStore(path) as store:
        assert sorted(run.rows for run in store.runs()) == [150, 160]


# -- the command, on the fake game -------------------------------------------------------------


def test_the_same_command_again_resumes_nothing_left(
    patience_cli: Callable[..., CliResult], patience_data_dir: Path
) -> None:
    args = ("simulate", "fake", "-n", "5", "--json")
    first = patience_cli(*args)
    assert first.code == 0, first
    again = patience_cli(*args)
    assert again.code == 0, again
    store = patience_data_dir / "runs.db"
    assert again.err == f"Resuming run 1 of {store}: 5 of 5 deals already played.\n"
    data = json.loads(again.out)
    assert (data["games"], data["games_this_run"], data["run"]) == (5, 0, 1)


def test_runs_lists_exports_and_deletes(
    patience_cli: Callable[..., CliResult], tmp_path: Path
) -> None:
    assert patience_cli("runs").out.startswith("No runs in ")
    assert patience_cli("simulate", "fake", "-n", "4").code == 0
    assert patience_cli("simulate", "fake", "-n", "2", "--strategy", "greedy").code == 0
    listed = patience_cli("runs")
    lines = listed.out.splitlines()
    assert lines[0].split()[:3] == ["run", "game", "strategy"] and len(lines) == 3
    assert lines[1].split()[:3] == ["1", "fake", "random"]
    data = json.loads(patience_cli("runs", "--json").out)
    assert [(run["id"], run["deals"], run["rows"]) for run in data] == [(1, 4, 4), (2, 2, 2)]
    out = tmp_path / "one.jsonl"
    assert patience_cli("runs", "export", "1", str(out)).code == 0
    assert [json.loads(line)["deal"] for line in out.read_text().splitlines()] == [
        "1",
        "2",
        "3",
        "4",
    ]
    assert patience_cli("runs", "export", "2", "-").out.startswith("game,deal,strategy,")
    missing = patience_cli("runs", "export", "9", str(out))
    assert (missing.code, missing.err.count("\n")) == (1, 1) and "no run 9 in" in missing.err
    kept = patience_cli("runs", "delete", "1", input="n\n")
    assert kept.code == 1 and "nothing deleted" in kept.err
    gone = patience_cli("runs", "delete", "1", "--yes")
    assert gone.code == 0 and gone.out == "Deleted run 1 (fake, random, 4 rows).\n"
    assert [run["id"] for run in json.loads(patience_cli("runs", "--json").out)] == [2]


def test_a_corrupt_store_given_to_the_command_is_one_line(
    patience_cli: Callable[..., CliResult], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.db"
    bad.write_text("rubbish " * 1000)
    for args in (
        ("simulate", "fake", "-n", "2", "--store", str(bad)),
        ("runs", "--store", str(bad)),
    ):
        done = patience_cli(*args)
        assert done.code == 1 and done.err.count("\n") == 1, done
        assert "is not an SQLite database or it is damaged" in done.err
    assert bad.read_text() == "rubbish " * 1000


def test_parquet_without_pyarrow_says_how_to_install_it(
    patience_cli: Callable[..., CliResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if not installed
    done = patience_cli("simulate", "fake", "-n", "2", "-O", str(tmp_path / "rows.parquet"))
    assert (done.code, done.err) == (
        1,
        "patience: error: Parquet output needs pyarrow: pip install 'patience-core[parquet]'\n",
    )


def test_a_scheduler_without_dask_says_how_to_install_it(
    patience_cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    done = patience_cli("simulate", "fake", "-n", "2", "--scheduler", "local:2")
    assert (done.code, done.err) == (
        1,
        "patience: error: --scheduler needs Dask: pip install 'patience-core[dask]'\n",
    )
    both = patience_cli("simulate", "fake", "-n", "2", "--scheduler", "local:2", "-j", "2")
    assert both.code == 1 and "--jobs and --scheduler do not go together" in both.err
