"""simulate --output: what a resumed run takes from FILE.partial, and where it writes."""

from __future__ import annotations

import csv
import json
import os
import socket
import stat
import types
from collections.abc import Iterator
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
from patience_core.simulate import (
    COLUMNS,
    RowWriter,
    SimRow,
    atomic_output,
    resume_rows,
    row_problem,
    run_header,
)

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


@pytest.fixture
def interrupt_after(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``interrupt_after(k)``: the next run ends half way (:class:`Killed`) after writing k rows,
    leaving them in FILE.partial."""
    real = RowWriter.write

    def arm(rows: int) -> None:
        written = 0

        def write(self: RowWriter, row: Any) -> None:
            nonlocal written
            if written == rows:
                monkeypatch.setattr(RowWriter, "write", real)
                raise Killed
            written += 1
            real(self, row)

        monkeypatch.setattr(RowWriter, "write", write)

    yield arm


GOLF_20 = ["simulate", "golf", "-n", "20", "--strategy", "greedy"]


def _simulate(host: PluginHost, target: Path, args: list[str] = GOLF_20) -> Result:
    return CliRunner().invoke(cli, [*args, "-O", str(target)], obj=host)


def _rows(path: Path) -> list[list[str]]:
    """The rows of a finished CSV file, without the seconds column."""
    with path.open(newline="") as stream:
        return [row[:-1] for row in csv.reader(stream)][1:]


def test_a_partial_file_of_another_plugin_version_is_set_aside(
    tmp_path: Path, interrupt_after: Any
) -> None:
    whole_01, whole_02 = tmp_path / "whole-01.csv", tmp_path / "whole-02.csv"
    assert _simulate(_host("0.1.0"), whole_01).exit_code == 0
    assert _simulate(_host("0.2.0"), whole_02).exit_code == 0
    assert _rows(whole_01) != _rows(whole_02)  # the two versions play differently
    target = tmp_path / "g.csv"
    interrupt_after(10)
    assert isinstance(_simulate(_host("0.1.0"), target).exception, Killed)
    partial = tmp_path / "g.csv.partial"
    made_by_01 = partial.read_text()
    assert len(made_by_01.splitlines()) == 2 + 10

    done = _simulate(_host("0.2.0"), target)
    assert done.exit_code == 0, done.output
    assert "Resuming" not in done.stderr
    aside = list(tmp_path.glob("g.csv.partial.*.old"))
    assert len(aside) == 1 and aside[0].read_text() == made_by_01  # nothing lost
    assert done.stderr == (
        f"{partial} holds rows made with other versions (patience-golf 0.1.0, now 0.2.0); "
        f"kept as {aside[0]}.\n"
    )
    assert _rows(target) == _rows(whole_02)  # every row made by 0.2.0


def test_the_same_versions_resume(tmp_path: Path, interrupt_after: Any) -> None:
    whole = tmp_path / "whole.csv"
    assert _simulate(_host("0.1.0"), whole).exit_code == 0
    target = tmp_path / "g.csv"
    interrupt_after(10)
    assert isinstance(_simulate(_host("0.1.0"), target).exception, Killed)
    done = _simulate(_host("0.1.0"), target)
    assert done.exit_code == 0, done.output
    assert "10 of 20 deals already played" in done.stderr
    assert _rows(target) == _rows(whole)


def test_a_partial_file_of_another_patience_core_version_is_set_aside(
    tmp_path: Path, interrupt_after: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "g.csv"
    interrupt_after(10)
    assert isinstance(_simulate(_host("0.1.0"), target).exception, Killed)
    import patience_core.simulate._partial as partial_files

    monkeypatch.setattr(partial_files, "__version__", "9.9.9")
    done = _simulate(_host("0.1.0"), target)
    assert done.exit_code == 0, done.output
    assert "Resuming" not in done.stderr
    assert "holds rows made with other versions (patience-core 0.1.0, now 9.9.9)" in done.stderr


def test_the_run_header_records_the_versions(tmp_path: Path, interrupt_after: Any) -> None:
    from patience_core import __version__
    from patience_core.simulate import header_params

    target = tmp_path / "g.csv"
    interrupt_after(3)
    assert isinstance(_simulate(_host("0.2.0"), target).exception, Killed)
    params = header_params(tmp_path / "g.csv.partial", "csv")
    assert params is not None
    assert params["versions"] == {"patience-core": __version__, "patience-golf": "0.2.0"}


def test_the_versions_name_a_strategy_plugin_too() -> None:
    from patience_core import __version__
    from patience_core.games import RandomStrategy, StrategyRegistry
    from patience_core.simulate import run_versions

    class Players:
        name = "players"
        dist = types.SimpleNamespace(metadata={"Name": "patience-players"}, version="3.1")

        def load(self) -> Any:
            @hookimpl
            def patience_register_strategies(registry: StrategyRegistry) -> None:
                registry.add("dice", RandomStrategy)

            return types.SimpleNamespace(
                PATIENCE_API=">=1.0,<2", patience_register_strategies=patience_register_strategies
            )

    host = _host("0.1.0", Players()).load()
    assert run_versions(host, "golf", "dice") == {
        "patience-core": __version__,
        "patience-golf": "0.1.0",
        "patience-players": "3.1",
    }
    assert run_versions(host, "golf", "greedy") == {
        "patience-core": __version__,
        "patience-golf": "0.1.0",
    }


# -- every resumed row is checked -------------------------------------------------------------

ESCALATOR_8 = ["simulate", "escalator", "-n", "8", "--strategy", "greedy"]


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def _tamper(line: str, kind: str, **changes: Any) -> str:
    """``line`` (a row) with the columns ``changes`` set to other values."""
    if kind == "csv":
        cells = next(csv.reader([line]))
        for name, value in changes.items():
            cells[list(COLUMNS).index(name)] = str(value)
        return ",".join(cells) + "\n"
    data = json.loads(line)
    data.update(changes)
    return json.dumps(data) + "\n"


def _rows_of(path: Path, kind: str) -> list[list[Any]]:
    """Every row of a finished file, without the seconds column."""
    if kind == "csv":
        return _rows(path)
    return [list(json.loads(line).values())[:-1] for line in path.read_text().splitlines()]


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
@pytest.mark.parametrize(
    ("changes", "why"),
    [
        (
            {"max_score": 99999999999999999999999},
            "max_score 99999999999999999999999, not escalator's 28",
        ),
        ({"result": "won", "score": 20}, "won with score 20, not 28"),
        ({"score": 29}, "score 29 is outside 0..28"),
        ({"result": "maybe"}, "result 'maybe' is not one of won, lost, stopped, dead, unknown"),
        ({"result": "dead"}, "result 'dead' is not one strategy 'greedy' gives"),
        ({"result": "unknown"}, "result 'unknown' is not one strategy 'greedy' gives"),
        ({"deal": "99"}, "deal '99' is not one of the run's deals"),
        ({"deal": "1"}, "a second row of that deal"),
        ({"game": "bristol"}, "game 'bristol', not 'escalator'"),
        ({"strategy": "random"}, "strategy 'random', not 'greedy'"),
        ({"moves": 2001}, "moves 2001 is outside 0..2000"),
    ],
)
def test_a_resumed_row_that_cannot_be_right_is_played_again(
    tmp_path: Path, interrupt_after: Any, kind: str, changes: dict[str, Any], why: str
) -> None:
    host = PluginHost()
    whole = tmp_path / f"whole.{kind}"
    assert _simulate(host, whole, ESCALATOR_8).exit_code == 0
    target = tmp_path / f"rows.{kind}"
    interrupt_after(5)
    assert isinstance(_simulate(host, target, ESCALATOR_8).exception, Killed)
    partial = tmp_path / f"rows.{kind}.partial"
    lines = _lines(partial)
    at = 2 + 2 if kind == "csv" else 1 + 2  # the row of deal 3
    lines[at] = _tamper(lines[at], kind, **changes)
    tampered = "".join(lines)
    partial.write_text(tampered)

    done = _simulate(host, target, ESCALATOR_8)
    assert done.exit_code == 0, done.output
    aside = list(tmp_path.glob(f"rows.{kind}.partial.*.old"))
    assert len(aside) == 1 and aside[0].read_text() == tampered  # nothing is lost
    where = "line 5" if kind == "csv" else "line 4"
    if changes.get("deal") == "1":
        where = "the row of deal 1"
    elif "deal" not in changes:
        where = "the row of deal 3"
    assert done.stderr.splitlines() == [
        f"{partial}: dropped 1 row that could not be right (the first, {where}: {why}); "
        f"deals without a sound row are played now; the file as it was is kept as {aside[0]}.",
        f"Resuming from {partial}: 4 of 8 deals already played.",
    ]
    # Only that deal is played again (with the three never played), in its place.
    assert _rows_of(target, kind) == _rows_of(whole, kind)  # as if never interrupted


_NOT_AS_WRITTEN = (
    "not written as patience writes a row (its spacing, key order, or the form of a number "
    "or a text)"
)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("escalator,1,greedy,,lost,+9,28,30,0.1\n", "score '+9' is not a whole number"),
        ("escalator,1,greedy,,lost,9.0,28,30,0.1\n", "score '9.0' is not a whole number"),
        ("escalator,1,greedy,,lost,9,28,30,nan\n", "seconds 'nan' is not a number of seconds"),
        ("escalator,1,greedy,,lost,9,28,30\n", "8 fields, not 9"),
        ("garbage\n", "1 field, not 9"),
        ('{"game": "escalator"}\n', "not an object with the columns of a row"),
        (
            '{"game": "escalator", "deal": "1", "strategy": "greedy", "options": "", '
            '"result": "lost", "score": true, "max_score": 28, "moves": 30, "seconds": 0.1}\n',
            "score true is not a whole number",
        ),
        (
            '{"game": "escalator", "deal": 1, "strategy": "greedy", "options": "", '
            '"result": "lost", "score": 9, "max_score": 28, "moves": 30, "seconds": 0.1}\n',
            "deal 1 is not a text",
        ),
        (
            '{"game": "escalator", "deal": "1", "strategy": "greedy", "options": "", '
            '"result": "lost", "score": 9, "max_score": 28, "moves": 30, "seconds": NaN}\n',
            "seconds nan is not a CPU time",
        ),
        # Each reads back as a row, but is not the line patience would write for it.
        (
            '"escalator",1,greedy,,lost,9,28,30,0.100000\n',
            "a field in quotes where patience writes none",
        ),
        (
            "escalator,1,greedy,,lost,9,28,30,0.100000\r\n",
            "a carriage return (\\r), which patience never writes",
        ),
        (
            "escalator,1,greedy,,lost,9,28,30,1e5\n",
            "seconds '1e5' is not written as patience writes them ('100000.000000')",
        ),
        (
            "escalator,1,greedy,,lost,9,28,30,0.1\n",
            "seconds '0.1' is not written as patience writes them ('0.100000')",
        ),
        (
            '{"game": "escalator", "deal": "1", "strategy": "greedy", "options": "", '
            '"result": "lost", "score": 9, "max_score": 28, "moves": 30, "seconds": 1e5}\n',
            _NOT_AS_WRITTEN,
        ),
        (
            '{"game": "escalator", "deal": "1", "strategy": "greedy", "options": "", '
            '"result": "lost", "score": 9, "max_score": 28, "moves": 30, "seconds": 0}\n',
            _NOT_AS_WRITTEN,
        ),
        (
            '{"game":"escalator","deal":"1","strategy":"greedy","options":"",'
            '"result":"lost","score":9,"max_score":28,"moves":30,"seconds":0.1}\n',
            _NOT_AS_WRITTEN,
        ),
        (
            '{"deal": "1", "game": "escalator", "strategy": "greedy", "options": "", '
            '"result": "lost", "score": 9, "max_score": 28, "moves": 30, "seconds": 0.1}\n',
            _NOT_AS_WRITTEN,
        ),
        (
            '{"game": "escalator", "deal": "1", "strategy": "greedy", "options": "", '
            '"result": "lost", "score": 9, "max_score": 28, "moves": 30, "seconds": 0.1}\r\n',
            _NOT_AS_WRITTEN,
        ),
    ],
)
def test_a_row_is_read_as_strictly_as_it_is_written(tmp_path: Path, line: str, why: str) -> None:
    kind = "jsonl" if line.startswith("{") else "csv"
    header = run_header({"game": "escalator"}, kind)
    names = ",".join(COLUMNS) + "\n" if kind == "csv" else ""
    partial = tmp_path / "rows.partial"
    partial.write_text(header + names + line + "half a li")
    resumed = resume_rows(partial, header, kind, {"1", "2"}, _greedy_escalator)
    assert (resumed.rows, resumed.ours, resumed.dropped) == ([], True, 1)
    parsed = why.endswith(("not a CPU time",))
    where = "the row of deal 1" if parsed else f"line {3 if kind == 'csv' else 2}"
    assert resumed.problem == f"{where}: {why}"
    assert resumed.kept == (header + names).encode()


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
def test_every_row_patience_writes_is_read_back(tmp_path: Path, kind: str) -> None:
    """The check that a row is written as patience writes it keeps what the writer quotes or
    escapes itself (options with a comma or a quote, text beyond ASCII) and any seconds."""
    rows = [
        SimRow("escalator", "1", "greedy", 'a=x,y;b="z"', "lost", 9, 28, 30, 0.000809),
        SimRow("escalator", "2", "greedy", 'a=x,y;b="z"', "won", 28, 28, 52, 12345.5),
        SimRow("escalator", "3", "greedy", 'a=x,y;b="z"', "stopped", 0, 28, 0, 0.0),
        SimRow("escalator", "4", "greedy", 'a=x,y;b="z"', "lost", 1, 28, 2, 1e-06),
    ]
    header = run_header({"game": "escalator"}, kind)
    partial = tmp_path / "rows.partial"
    with partial.open("w", encoding="utf-8", newline="") as stream:
        stream.write(header)
        writer = RowWriter(stream, kind)
        for row in rows:
            writer.write(row)

    def problem(row: SimRow) -> str | None:
        return row_problem(
            row,
            game="escalator",
            deals={"1", "2", "3", "4"},
            strategy="greedy",
            options='a=x,y;b="z"',
            max_score=28,
            max_moves=2000,
        )

    resumed = resume_rows(partial, header, kind, {"1", "2", "3", "4"}, problem)
    assert (resumed.dropped, resumed.problem) == (0, "")
    assert [row.key() for row in resumed.rows] == [row.key() for row in rows]
    assert resumed.kept == partial.read_bytes()


def test_odd_resumed_rows_do_not_reach_the_final_file(tmp_path: Path, interrupt_after: Any) -> None:
    """Rows that read back but are not written as patience writes them (seen: a quoted field
    copied into the final file with its quotes, a line ending in \\r, seconds 1e5) are played
    again, and the final file is as an uninterrupted run writes it."""
    host = PluginHost()
    whole = tmp_path / "whole.csv"
    assert _simulate(host, whole, ESCALATOR_8).exit_code == 0
    target = tmp_path / "rows.csv"
    interrupt_after(5)
    assert isinstance(_simulate(host, target, ESCALATOR_8).exception, Killed)
    partial = tmp_path / "rows.csv.partial"
    lines = _lines(partial)
    lines[2] = '"escalator"' + lines[2][len("escalator") :]  # deal 1
    lines[3] = lines[3][:-1] + "\r\n"  # deal 2
    lines[4] = lines[4][: lines[4].rindex(",")] + ",1e5\n"  # deal 3
    partial.write_bytes("".join(lines).encode())
    done = _simulate(host, target, ESCALATOR_8)
    assert done.exit_code == 0, done.output
    assert "dropped 3 rows that could not be right" in done.stderr
    assert "2 of 8 deals already played" in done.stderr
    assert _rows(target) == _rows(whole)
    text = target.read_bytes()
    assert b'"' not in text and b"\r" not in text and b"1e5" not in text


def _greedy_escalator(row: SimRow) -> str | None:
    return row_problem(
        row,
        game="escalator",
        deals={"1", "2"},
        strategy="greedy",
        options="",
        max_score=28,
        max_moves=2000,
    )


def test_a_half_written_last_line_is_dropped_quietly(tmp_path: Path, interrupt_after: Any) -> None:
    host = PluginHost()
    target = tmp_path / "rows.csv"
    interrupt_after(5)
    assert isinstance(_simulate(host, target, ESCALATOR_8).exception, Killed)
    partial = tmp_path / "rows.csv.partial"
    with partial.open("a") as stream:
        stream.write("escalator,6,gre")
    done = _simulate(host, target, ESCALATOR_8)
    assert done.exit_code == 0, done.output
    assert done.stderr == f"Resuming from {partial}: 5 of 8 deals already played.\n"
    assert not list(tmp_path.glob("*.old"))


def test_rows_of_deals_not_in_the_run_are_dropped(tmp_path: Path, interrupt_after: Any) -> None:
    host = PluginHost()
    target = tmp_path / "rows.csv"
    interrupt_after(5)
    assert isinstance(_simulate(host, target, ESCALATOR_8).exception, Killed)
    partial = tmp_path / "rows.csv.partial"
    lines = _lines(partial)
    header = lines[0].replace('"deals": 8', '"deals": 4')
    partial.write_text("".join([header, *lines[1:]]))
    args = ["simulate", "escalator", "-n", "4", "--strategy", "greedy"]
    done = _simulate(host, target, args)
    assert done.exit_code == 0, done.output
    assert done.stderr.startswith(
        f"{partial}: dropped 1 row that could not be right (the first, line 7: deal '5' is not "
        "one of the run's deals); the file as it was is kept as "
    ), done.stderr
    assert f"Resuming from {partial}: 4 of 4 deals already played." in done.stderr
    assert [row[1] for row in _rows(target)] == ["1", "2", "3", "4"]


def test_rows_resumed_out_of_order_are_written_in_deal_order(
    tmp_path: Path, interrupt_after: Any
) -> None:
    """A run resumed after a dropped row plays that deal after the rows kept; killed again and
    resumed, it still writes every deal once, in order."""
    host = PluginHost()
    whole = tmp_path / "whole.csv"
    assert _simulate(host, whole, ESCALATOR_8).exit_code == 0
    target = tmp_path / "rows.csv"
    partial = tmp_path / "rows.csv.partial"
    interrupt_after(5)
    assert isinstance(_simulate(host, target, ESCALATOR_8).exception, Killed)
    lines = _lines(partial)
    lines[3] = _tamper(lines[3], "csv", score=99)  # deal 2
    partial.write_text("".join(lines))
    interrupt_after(2)  # plays deal 2, then deal 6, and is killed
    assert isinstance(_simulate(host, target, ESCALATOR_8).exception, Killed)
    assert [line.split(",")[1] for line in _lines(partial)[2:]] == ["1", "3", "4", "5", "2", "6"]
    done = _simulate(host, target, ESCALATOR_8)
    assert done.exit_code == 0, done.output
    assert done.stderr == f"Resuming from {partial}: 6 of 8 deals already played.\n"
    assert _rows(target) == _rows(whole)


def test_deals_missing_between_kept_rows_are_played_by_workers_too(
    tmp_path: Path, interrupt_after: Any
) -> None:
    whole = tmp_path / "whole.csv"
    args = [*ESCALATOR_8, "-j", "2"]
    assert _simulate(PluginHost(), whole, args).exit_code == 0
    target = tmp_path / "rows.csv"
    partial = tmp_path / "rows.csv.partial"
    interrupt_after(6)
    assert isinstance(_simulate(PluginHost(), target, args).exception, Killed)
    lines = _lines(partial)
    for at in (3, 5):  # deals 2 and 4
        lines[at] = _tamper(lines[at], "csv", result="won")
    partial.write_text("".join(lines))
    done = _simulate(PluginHost(), target, args)
    assert done.exit_code == 0, done.output
    assert "dropped 2 rows that could not be right" in done.stderr
    assert "Resuming from" in done.stderr and "4 of 8 deals already played" in done.stderr
    assert _rows(target) == _rows(whole)


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


def test_a_run_through_a_link_and_one_to_its_target_share_the_partial_file(
    tmp_path: Path, interrupt_after: Any
) -> None:
    whole = tmp_path / "whole.csv"
    assert _simulate(PluginHost(), whole, ESCALATOR_8).exit_code == 0
    real = tmp_path / "real.csv"
    link = tmp_path / "ln.csv"
    link.symlink_to(real)
    interrupt_after(5)
    assert isinstance(_simulate(PluginHost(), link, ESCALATOR_8).exception, Killed)
    assert (tmp_path / "real.csv.partial").exists()  # beside the file finally written
    assert not (tmp_path / "ln.csv.partial").exists()
    done = _simulate(PluginHost(), real, ESCALATOR_8)
    assert done.exit_code == 0, done.output
    assert "5 of 8 deals already played" in done.stderr
    assert _rows(real) == _rows(whole) and link.is_symlink()


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


# -- a FILE.partial that is not a file --------------------------------------------------------


@pytest.mark.parametrize("what", ["a folder", "a symbolic link"])
def test_a_partial_path_that_is_not_a_file_is_refused_and_left_alone(
    tmp_path: Path, run_patience: Any, what: str
) -> None:
    target = tmp_path / "pdir.csv"
    partial = tmp_path / "pdir.csv.partial"
    if what == "a folder":
        partial.mkdir()
        (partial / "notes.txt").write_text("mine\n")
    else:
        (tmp_path / "elsewhere.csv").write_text("rows of something else\n")
        partial.symlink_to("elsewhere.csv")
    before = _names(tmp_path)
    done = run_patience("simulate", "escalator", "-n", "3", "-O", str(target))
    assert done.code == 1 and done.out == ""
    assert done.err == (
        f"patience: error: {partial} is {what}, not the rows of a simulate run: move it "
        "away, or choose another --output\n"
    )
    assert _names(tmp_path) == before  # nothing renamed or written
    if what == "a folder":
        assert (partial / "notes.txt").read_text() == "mine\n"
    else:
        assert (tmp_path / "elsewhere.csv").read_text() == "rows of something else\n"


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


# -- a FILE.partial that holds no rows ---------------------------------------------------------


class _FailsAtOnce:
    """A player that fails on the first deal it is given, as a broken plugin may."""

    def __init__(self, game: Any, seed: int) -> None:
        raise RuntimeError("boom")


def _host_failing_at_once() -> PluginHost:
    host = PluginHost()
    host.load()
    host.strategies.add("fails", _FailsAtOnce)
    return host


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
def test_a_run_that_fails_before_any_row_leaves_no_partial_file(tmp_path: Path, kind: str) -> None:
    target = tmp_path / f"rows.{kind}"
    args = ["simulate", "escalator", "-n", "3", "--strategy", "fails"]
    for _ in range(3):  # (the loop that piled up FILE.partial.*.old files)
        failed = _simulate(_host_failing_at_once(), target, args)
        assert isinstance(failed.exception, RuntimeError)
        assert _names(tmp_path) == []
        done = _simulate(PluginHost(), target, ["simulate", "escalator", "-n", "2"])
        assert done.exit_code == 0, done.output
        assert done.stderr == ""
        target.unlink()


def test_a_run_stopped_before_its_first_row_leaves_no_partial_file(
    tmp_path: Path, interrupt_after: Any
) -> None:
    target = tmp_path / "rows.csv"
    interrupt_after(0)
    assert isinstance(_simulate(PluginHost(), target, ESCALATOR_8).exception, Killed)
    assert _names(tmp_path) == []


def test_a_resumed_run_that_fails_before_a_new_row_keeps_the_rows_it_resumed(
    tmp_path: Path, interrupt_after: Any
) -> None:
    target = tmp_path / "rows.csv"
    interrupt_after(3)
    assert isinstance(_simulate(PluginHost(), target, ESCALATOR_8).exception, Killed)
    partial = tmp_path / "rows.csv.partial"
    before = partial.read_bytes()
    interrupt_after(0)
    assert isinstance(_simulate(PluginHost(), target, ESCALATOR_8).exception, Killed)
    assert partial.read_bytes() == before and len(before.splitlines()) == 2 + 3


@pytest.mark.parametrize(("kind", "names"), [("csv", True), ("csv", False), ("jsonl", False)])
def test_a_partial_file_of_another_run_holding_no_rows_is_removed_not_set_aside(
    tmp_path: Path, kind: str, names: bool
) -> None:
    """Only its run header (and for CSV the column names): nothing is lost by removing it."""
    partial = tmp_path / f"rows.{kind}.partial"
    header = run_header({"columns": list(COLUMNS), "game": "escalator", "deals": 99}, kind)
    partial.write_text(header + (",".join(COLUMNS) + "\n" if names else ""))
    done = _simulate(PluginHost(), tmp_path / f"rows.{kind}", ["simulate", "escalator", "-n", "2"])
    assert done.exit_code == 0, done.output
    assert done.stderr == ""
    assert _names(tmp_path) == [f"rows.{kind}"]


@pytest.mark.parametrize(
    "rest",
    [
        "escalator,1,random,,lost,13,28,37,0.000813\n",  # a row
        "escalator,1,rand",  # half a row
        "game,deal,strategy,result,score,max_score,moves,seconds\n",  # other column names
        "notes\n",
    ],
)
def test_a_partial_file_of_another_run_holding_more_than_its_header_is_set_aside(
    tmp_path: Path, rest: str
) -> None:
    partial = tmp_path / "rows.csv.partial"
    header = run_header({"columns": list(COLUMNS), "game": "escalator", "deals": 99}, "csv")
    names = "" if rest.startswith("game,") else ",".join(COLUMNS) + "\n"
    partial.write_text(header + names + rest)
    done = _simulate(PluginHost(), tmp_path / "rows.csv", ["simulate", "escalator", "-n", "2"])
    assert done.exit_code == 0, done.output
    aside = list(tmp_path.glob("rows.csv.partial.*.old"))
    assert len(aside) == 1 and aside[0].read_text() == header + names + rest
    assert "kept as" in done.stderr


# -- what the line about a partial file set aside says -----------------------------------------


@pytest.mark.parametrize(
    ("recorded", "said"),
    [
        (None, "patience-escalator (no version recorded), now 0.1.0"),
        (7, "patience-escalator 7, now 0.1.0"),
        ("0.0.9", "patience-escalator 0.0.9, now 0.1.0"),
        ("0.1\nrc1", "patience-escalator '0.1?rc1', now 0.1.0"),
        ({"odd": "value"}, 'patience-escalator {"odd": "value"}, now 0.1.0'),
    ],
)
def test_the_versions_of_a_partial_file_set_aside_are_said_sensibly(
    tmp_path: Path, recorded: Any, said: str
) -> None:
    from patience_core.simulate import why_not_resumed

    params = {
        "game": "escalator",
        "versions": {"patience-core": "1", "patience-escalator": "0.1.0"},
    }
    old = {**params, "versions": {"patience-core": "1", "patience-escalator": recorded}}
    partial = tmp_path / "rows.csv.partial"
    partial.write_text(run_header(old, "csv"))
    assert why_not_resumed(partial, params, "csv") == f"rows made with other versions ({said})"


def test_an_output_that_cannot_be_replaced_keeps_the_rows_for_a_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An append-only or immutable output (no permission bit shows it beforehand) fails only at
    the final write: one line naming the output, not the hidden temporary file, and the rows
    stay in FILE.partial, from which the next run finishes without playing again."""
    import patience_core.simulate._rowfiles as rowfiles

    target = tmp_path / "rows.csv"
    real_replace = os.replace

    def refused(source: Any, destination: Any) -> None:
        raise PermissionError(1, "Operation not permitted", str(source))

    monkeypatch.setattr(rowfiles.os, "replace", refused)
    failed = _simulate(PluginHost(), target, ESCALATOR_8)
    message = str(failed.exception)
    assert isinstance(failed.exception, PatienceError), failed.exception
    assert message.startswith(f"cannot write {str(target)!r}: Operation not permitted")
    assert ".part" not in message.replace(".partial", "") and "\n" not in message
    partial = tmp_path / "rows.csv.partial"
    assert partial.exists() and not target.exists()
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
    """A run stopped by Ctrl-C half way keeps its rows in FILE.partial; run_to_file, called
    again, plays only the rest and gives the file an uninterrupted command gives."""
    from patience_core.engine import DealNumber
    from patience_core.simulate import BatchSpec, Run, run_to_file

    whole = tmp_path / "whole.csv"
    assert _simulate(PluginHost(), whole).exit_code == 0
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
    assert len((tmp_path / "g.csv.partial").read_text().splitlines()) == 2 + 7
    notes: list[str] = []
    summary = run_to_file(host, spec, DealNumber(1), 20, target, on_note=notes.append)
    assert notes == [f"Resuming from {target}.partial: 7 of 20 deals already played."]
    assert summary.games == 20 and summary.first_deal == "1" and summary.last_deal == "20"
    assert _rows(target) == _rows(whole)
    assert not (tmp_path / "g.csv.partial").exists()


def test_a_run_reports_as_the_command_prints(tmp_path: Path) -> None:
    import io

    from patience_core.engine import DealNumber
    from patience_core.simulate import BatchSpec, Run

    run = Run(PluginHost(), BatchSpec.of("golf", "greedy"), DealNumber(3), 4, jobs=2)
    with pytest.raises(PatienceError, match="not been played"):
        run.as_dict()
    with run:
        summary = run.play()
    assert (summary.games, run.partial, run.remaining) == (4, None, 4)
    assert run.as_dict()["games"] == 4 and run.as_dict()["jobs"] == run.workers
    assert run.summary_lines()[0] == "Golf, strategy greedy, deals 3..6 (4 games)"
    stream = io.StringIO()
    with Run(PluginHost(), BatchSpec.of("golf", "greedy"), DealNumber(3), 4, stream=stream) as run:
        run.play()
    assert stream.getvalue().splitlines()[0] == ",".join(COLUMNS)
    assert len(stream.getvalue().splitlines()) == 5


def test_a_run_holds_its_output_file(tmp_path: Path, patience_data_dir: Path) -> None:
    from patience_core.engine import DealNumber
    from patience_core.simulate import BatchSpec, Run

    spec, target = BatchSpec.of("golf", "greedy"), tmp_path / "g.jsonl"
    with Run(PluginHost(), spec, DealNumber(1), 3, output=target) as first:
        second = Run(PluginHost(), spec, DealNumber(1), 3, output=target)
        with pytest.raises(PatienceError, match="being written by another patience simulate"):
            second.open()
        first.play()
    with Run(PluginHost(), spec, DealNumber(1), 3, output=target) as again:
        assert again.remaining == 3  # the finished file is not resumed: a new run
    with pytest.raises(PatienceError, match="cannot tell the format of"):
        Run(PluginHost(), spec, DealNumber(1), 3, output=tmp_path / "g.txt")
