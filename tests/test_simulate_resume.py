"""simulate --output: what a resumed run takes from FILE.partial, and where it writes."""

from __future__ import annotations

import csv
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
from patience_core.cli.simulate_cmd import RowWriter
from patience_core.plugins import PluginHost

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
    from patience_core.cli import simulate_cmd

    monkeypatch.setattr(simulate_cmd, "__version__", "9.9.9")
    done = _simulate(_host("0.1.0"), target)
    assert done.exit_code == 0, done.output
    assert "Resuming" not in done.stderr
    assert "holds rows made with other versions (patience-core 0.1.0, now 9.9.9)" in done.stderr


def test_the_run_header_records_the_versions(tmp_path: Path, interrupt_after: Any) -> None:
    from patience_core import __version__
    from patience_core.cli.simulate_cmd import header_params

    target = tmp_path / "g.csv"
    interrupt_after(3)
    assert isinstance(_simulate(_host("0.2.0"), target).exception, Killed)
    params = header_params(tmp_path / "g.csv.partial", "csv")
    assert params is not None
    assert params["versions"] == {"patience-core": __version__, "patience-golf": "0.2.0"}


def test_the_versions_name_a_strategy_plugin_too() -> None:
    from patience_core import __version__
    from patience_core.cli.simulate_cmd import run_versions
    from patience_core.strategies import RandomStrategy, StrategyRegistry

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
