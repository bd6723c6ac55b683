"""simulate --output: where the rows of a run go when it ends, what outputs are refused, the
versions that make a run, and the run service from Python."""

from __future__ import annotations

import csv
import os
import socket
import stat
import types
from importlib import metadata
from pathlib import Path
from typing import Any

import patience_golf
import pytest
from click.testing import CliRunner, Result
from patience_golf.game import Golf

from patience_core import hookimpl
from patience_core.api import GameRegistry, Move, Position
from patience_core.cli import cli
from patience_core.errors import PatienceError
from patience_core.plugins import PluginHost
from patience_core.simulate import COLUMNS, RunStore, SimRow, atomic_output, row_problem

# -- the versions of the code that made the rows ----------------------------------------------


class _GolfEntryPoint:
    """The entry point of patience-golf at ``version``, loading ``module``."""

    name = "golf"

    def __init__(self, version: str, module: Any) -> None:
        self.dist = types.SimpleNamespace(metadata={"Name": "patience-golf"}, version=version)
        self._module = module

    def load(self) -> Any:
        return self._module


class _BackwardsGolf(Golf):
    """Golf 0.2.0 in these tests: the same rules, its legal moves listed the other way round
    (so the greedy player plays other games)."""

    def legal_moves(self, position: Position) -> list[Move]:
        return list(reversed(super().legal_moves(position)))


def _golf_02() -> types.ModuleType:
    module = types.ModuleType("patience_golf_02")

    @hookimpl
    def patience_register_games(registry: GameRegistry) -> None:
        registry.add(_BackwardsGolf)

    module.PATIENCE_API = patience_golf.PATIENCE_API  # type: ignore[attr-defined]
    module.patience_register_games = patience_register_games  # type: ignore[attr-defined]
    return module


def _host(golf_version: str, *more: Any) -> PluginHost:
    """The installed plugins, with patience-golf at ``golf_version`` (0.1.0 is the real one,
    0.2.0 plays other moves), and the entry points ``more``."""
    module = patience_golf if golf_version == "0.1.0" else _golf_02()
    installed = [ep for ep in metadata.entry_points(group="patience") if ep.name != "golf"]
    golf = _GolfEntryPoint(golf_version, module)
    return PluginHost(entry_points=[*installed, golf, *more], environ={})


class Killed(Exception):
    """A run that ended half way, as a killed process."""


GOLF_20 = ["simulate", "golf", "-n", "20", "--strategy", "greedy"]


def _simulate(host: PluginHost, target: Path, args: list[str] = GOLF_20) -> Result:
    return CliRunner().invoke(cli, [*args, "-O", str(target)], obj=host)


def _rows(path: Path) -> list[list[str]]:
    """The rows of a finished CSV file, without the seconds column."""
    with path.open(newline="") as stream:
        return [row[:-1] for row in csv.reader(stream)][1:]


ESCALATOR_8 = ["simulate", "escalator", "-n", "8", "--strategy", "greedy"]


# -- an output file that is a symbolic link ---------------------------------------------------


def test_output_through_a_symbolic_link_writes_its_target(tmp_path: Path) -> None:
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    real.chmod(0o640)
    link = tmp_path / "ln.csv"
    link.symlink_to("real.csv")
    done = _simulate(PluginHost(), link, ["simulate", "escalator", "-n", "3"])
    assert done.exit_code == 0, done.output
    assert link.is_symlink() and link.readlink() == Path("real.csv")  # the link is kept
    assert [row[1] for row in _rows(real)] == ["1", "2", "3"]  # its target has the rows
    assert real.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "patience-data") == [
        "ln.csv",
        "real.csv",
    ]


def test_a_dangling_link_gets_its_target_written(tmp_path: Path) -> None:
    link = tmp_path / "ln.csv"
    link.symlink_to("new.csv")
    done = _simulate(PluginHost(), link, ["simulate", "escalator", "-n", "2"])
    assert done.exit_code == 0, done.output
    assert link.is_symlink() and len(_rows(tmp_path / "new.csv")) == 2


def test_a_link_into_a_missing_directory_is_refused_in_one_line(
    tmp_path: Path, run_patience: Any
) -> None:
    link = tmp_path / "ln.csv"
    link.symlink_to(tmp_path / "gone" / "rows.csv")
    done = run_patience("simulate", "escalator", "-n", "2", "-O", str(link))
    assert done.code == 1 and done.out == ""
    assert done.err == (
        f"patience: error: cannot write {str(link)!r}: it links to "
        f"{str(tmp_path / 'gone' / 'rows.csv')!r}, in a directory that does not exist\n"
    )
    loop = tmp_path / "loop.csv"
    loop.symlink_to("loop.csv")
    done = run_patience("simulate", "escalator", "-n", "2", "-O", str(loop))
    assert done.code == 1 and "go round in a loop" in done.err and done.err.count("\n") == 1


def _names(folder: Path) -> list[str]:
    """The files in ``folder``, but the test's patience data folder (which holds the locks)."""
    return sorted(p.name for p in folder.iterdir() if p.name != "patience-data")


# -- an output path that is there but is no file patience may replace --------------------------


def _special(kind: str, path: Path) -> None:
    """Make ``path`` a named pipe, a device (like /dev/null: only where the user may make
    one) or a socket."""
    if kind == "named pipe":
        os.mkfifo(path)
    elif kind == "device":
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except (OSError, AttributeError):
            pytest.skip("this user cannot make a device file")
    else:
        server = socket.socket(socket.AF_UNIX)
        here = Path.cwd()
        os.chdir(path.parent)  # a socket's path is limited to about 100 bytes
        try:
            server.bind(path.name)
        finally:
            os.chdir(here)
            server.close()  # the socket file stays


@pytest.mark.parametrize("what", ["named pipe", "device", "socket"])
@pytest.mark.parametrize("through_a_link", [False, True])
def test_an_output_that_is_not_a_plain_file_is_refused_before_any_game(
    tmp_path: Path,
    run_patience: Any,
    monkeypatch: pytest.MonkeyPatch,
    what: str,
    through_a_link: bool,
) -> None:
    special = tmp_path / f"special.{'jsonl' if what == 'socket' else 'csv'}"
    _special(what, special)
    path = special
    if through_a_link:
        path = tmp_path / f"ln{special.suffix}"
        path.symlink_to(special.name)
    played: list[Any] = []
    monkeypatch.setattr("patience_core.simulate.play_deal", lambda *args, **kw: played.append(args))
    before = _names(tmp_path)
    done = run_patience("simulate", "escalator", "-n", "2", "-O", str(path))
    how = f"it links to {str(special)!r}, a {what}" if through_a_link else f"it is a {what}"
    assert (done.code, done.out) == (1, "")
    assert done.err == f"patience: error: cannot write {str(path)!r}: {how}, not a file\n"
    assert played == [] and _names(tmp_path) == before  # nothing played, nothing written
    assert special.lstat().st_mode & 0o170000 != stat.S_IFREG  # still what it was


def test_an_output_that_is_not_a_plain_file_is_not_replaced_at_the_end_either(
    tmp_path: Path,
) -> None:
    """A named pipe made while the run plays is not replaced by the rows: they stay in
    FILE.partial."""
    target = tmp_path / "rows.csv"
    refused = pytest.raises(PatienceError, match="it is a named pipe, not a file")
    with refused, atomic_output(str(target)) as stream:
        stream.write("rows\n")
        os.mkfifo(target)
    assert stat.S_ISFIFO(target.lstat().st_mode)
    assert _names(tmp_path) == ["rows.csv"]  # the temporary file is removed


def _no_permission_to_write(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Make ``os.access`` say ``path`` may not be written (as root every file may)."""
    access = os.access

    def no_write(name: Any, mode: int, *args: Any, **kw: Any) -> bool:
        if Path(name) == path and mode & os.W_OK:
            return False
        return access(name, mode, *args, **kw)

    monkeypatch.setattr(os, "access", no_write)


@pytest.mark.parametrize("through_a_link", [False, True])
def test_an_output_the_user_may_not_write_is_refused_in_one_line(
    tmp_path: Path, run_patience: Any, monkeypatch: pytest.MonkeyPatch, through_a_link: bool
) -> None:
    """As root every file is writable (os.access says so), so the permission is taken away by
    answering for os.access; see the next test for the real thing."""
    real = tmp_path / "real.csv"
    real.write_text("mine\n")
    path = real
    if through_a_link:
        path = tmp_path / "ln.csv"
        path.symlink_to("real.csv")
    _no_permission_to_write(monkeypatch, real)
    done = run_patience("simulate", "escalator", "-n", "2", "-O", str(path))
    how = (
        f"it links to {str(real)!r}, which you have no permission to write"
        if through_a_link
        else "you have no permission to write it"
    )
    assert (done.code, done.out) == (1, "")
    assert done.err == f"patience: error: cannot write {str(path)!r}: {how}\n"
    assert real.read_text() == "mine\n" and not (tmp_path / "real.csv.partial").exists()


def test_an_output_in_a_folder_the_user_may_not_write_is_refused_in_one_line(
    tmp_path: Path, run_patience: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    _no_permission_to_write(monkeypatch, folder)
    done = run_patience("simulate", "escalator", "-n", "2", "-O", str(folder / "rows.csv"))
    assert (done.code, done.out) == (1, "")
    assert done.err == (
        f"patience: error: cannot write {str(folder / 'rows.csv')!r}: you have no permission "
        f"to write in its directory {str(folder)!r}\n"
    )
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("there_already", [False, True])
def test_an_output_on_a_read_only_file_system_is_told_so(
    tmp_path: Path, run_patience: Any, monkeypatch: pytest.MonkeyPatch, there_already: bool
) -> None:
    """A read-only mount is named as such, not as a permission the user lacks (``os.access``
    says "no" for both). No read-only mount can be made here, so ``os.statvfs`` answers for the
    folder."""
    folder = tmp_path / "mounted"
    folder.mkdir()
    rows = folder / "rows.csv"
    if there_already:
        rows.write_text("mine\n")
    statvfs = os.statvfs

    def read_only(name: Any) -> Any:
        found = statvfs(name)
        if Path(name) != folder:
            return found
        return type("Found", (), {"f_flag": found.f_flag | os.ST_RDONLY})()

    monkeypatch.setattr(os, "statvfs", read_only)
    done = run_patience("simulate", "escalator", "-n", "2", "-O", str(rows))
    assert (done.code, done.out) == (1, "")
    assert done.err == (
        f"patience: error: cannot write {str(rows)!r}: it is on a read-only file system\n"
    )
    assert sorted(p.name for p in folder.iterdir()) == (["rows.csv"] if there_already else [])


def test_a_read_only_output_is_refused_in_one_line(tmp_path: Path, run_patience: Any) -> None:
    """Even for root: a file with no write bit was protected on purpose."""
    real = tmp_path / "real.csv"
    real.write_text("mine\n")
    real.chmod(0o444)
    done = run_patience("simulate", "escalator", "-n", "2", "-O", str(real))
    assert (done.code, done.out) == (1, "")
    assert done.err == (
        f"patience: error: cannot write {str(real)!r}: you have no permission to write it\n"
    )
    assert real.read_text() == "mine\n"


def test_an_output_that_cannot_be_replaced_keeps_the_rows_for_a_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An append-only or immutable output (no permission bit shows it beforehand) fails only at
    the final write: one line naming the output, not the hidden temporary file, and the rows
    stay in the run store, from which the next run finishes without playing again."""
    import patience_core.simulate._output as rowfiles

    target = tmp_path / "rows.csv"
    real_replace = os.replace

    def refused(source: Any, destination: Any) -> None:
        raise PermissionError(1, "Operation not permitted", str(source))

    monkeypatch.setattr(rowfiles.os, "replace", refused)
    failed = _simulate(PluginHost(), target, ESCALATOR_8)
    message = str(failed.exception)
    assert isinstance(failed.exception, PatienceError), failed.exception
    assert message.startswith(f"cannot write {str(target)!r}: Operation not permitted")
    assert message.endswith("; the rows are kept in the run store: patience runs export 1 FILE")
    assert ".part" not in message and "\n" not in message
    assert not target.exists()
    assert not list(tmp_path.glob(".rows.csv.*")), "the temporary file was left"
    monkeypatch.setattr(rowfiles.os, "replace", real_replace)
    done = _simulate(PluginHost(), target, ESCALATOR_8)
    assert done.exit_code == 0, done.output
    assert "8 of 8 deals already played" in done.stderr
    assert len(_rows(target)) == 8


@pytest.mark.parametrize(
    ("strategy", "result", "kept"),
    [
        ("honest", "unknown", False),
        ("honest", "dead", True),
        ("solver", "unknown", True),
        ("solver", "dead", True),
        ("random", "dead", False),
        ("greedy", "stopped", True),
    ],
)
def test_a_row_keeps_only_a_result_its_strategy_can_give(
    strategy: str, result: str, kept: bool
) -> None:
    row = SimRow("escalator", "1", strategy, "", result, 9, 28, 30, 0.1)
    problem = row_problem(
        row,
        game="escalator",
        deals={"1"},
        strategy=strategy,
        options="",
        max_score=28,
        max_moves=2000,
    )
    assert (problem is None) == kept, problem


# -- the run service, from Python -------------------------------------------------------------


def test_a_script_resumes_a_stopped_run_as_the_command_does(tmp_path: Path) -> None:
    """A run stopped by Ctrl-C half way keeps its rows in the run store; run_to_file, called
    again, plays only the rest and gives the file an uninterrupted command gives."""
    from patience_core.engine import DealNumber
    from patience_core.simulate import BatchSpec, Run, run_to_file

    whole = tmp_path / "whole.csv"
    assert _simulate(PluginHost(), whole, [*GOLF_20, "--store", str(tmp_path / "w")]).exit_code == 0
    host, spec = PluginHost(), BatchSpec.of("golf", "greedy")
    target = tmp_path / "g.csv"
    played: list[str] = []

    def stop_after_7(row: SimRow) -> None:
        played.append(row.deal)
        if len(played) == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), Run(host, spec, DealNumber(1), 20, output=target) as run:
        assert run.remaining == 20 and run.notes == []
        run.play(stop_after_7)
    assert not target.exists()
    notes: list[str] = []
    summary = run_to_file(host, spec, DealNumber(1), 20, target, on_note=notes.append)
    store = RunStore().path
    assert notes == [f"Resuming run 1 of {store}: 7 of 20 deals already played."]
    assert summary.games == 20 and summary.first_deal == "1" and summary.last_deal == "20"
    assert _rows(target) == _rows(whole)


def test_a_run_reports_as_the_command_prints(tmp_path: Path) -> None:
    import io

    from patience_core.engine import DealNumber
    from patience_core.simulate import BatchSpec, Run

    run = Run(PluginHost(), BatchSpec.of("golf", "greedy"), DealNumber(3), 4, jobs=2)
    with pytest.raises(PatienceError, match="not been played"):
        run.as_dict()
    with run:
        summary = run.play()
    assert (summary.games, run.run_id, run.remaining) == (4, 1, 4)
    assert run.as_dict()["games"] == 4 and run.as_dict()["jobs"] == run.workers
    assert run.summary_lines()[0] == "Golf, strategy greedy, deals 3..6 (4 games)"
    stream = io.StringIO()
    with Run(PluginHost(), BatchSpec.of("golf", "greedy"), DealNumber(3), 4, stream=stream) as run:
        run.play()
    assert stream.getvalue().splitlines()[0] == ",".join(COLUMNS)
    assert len(stream.getvalue().splitlines()) == 5


def test_rows_of_other_versions_of_a_plugin_are_another_run(tmp_path: Path) -> None:
    """The versions of the code that makes the rows are part of a run's identity: a run made
    with patience-golf 0.2.0 is not resumed from one made with 0.1.0; both are kept."""
    for version in ("0.1.0", "0.2.0", "0.1.0"):
        done = _simulate(_host(version), tmp_path / f"golf-{version}.csv")
        assert done.exit_code == 0, done.output
    with RunStore() as store:
        runs = store.runs()
    assert [run.params["versions"]["patience-golf"] for run in runs] == ["0.1.0", "0.2.0"]
    assert [run.rows for run in runs] == [20, 20]
    assert _rows(tmp_path / "golf-0.1.0.csv") != _rows(tmp_path / "golf-0.2.0.csv")


def test_parquet_output_has_the_columns_and_rows_of_csv(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="the parquet extra")
    args = ["simulate", "escalator", "-n", "6", "--strategy", "greedy"]
    assert _simulate(PluginHost(), tmp_path / "rows.parquet", args).exit_code == 0
    assert _simulate(PluginHost(), tmp_path / "rows.csv", args).exit_code == 0
    table = pq.read_table(tmp_path / "rows.parquet")
    assert table.column_names == list(COLUMNS)
    got = [[str(v) for v in row.values()][:-1] for row in table.to_pylist()]
    assert got == _rows(tmp_path / "rows.csv")
