"""A game whose name passes between a plugin and a data-folder variant file (one of them
blocked by ``PATIENCE_DISABLE_PLUGINS``): resuming its save says what is known of the versions,
never a ``?`` placeholder, and neither the save, ``score --json``, ``history`` nor ``stats``
holds one (docs/play.md, "Saving and resuming")."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from patience_core.play import PlayRequest, own_exit_by_default, read_save
from patience_core.plugins import PluginHost
from patience_core.testing import CliResult
from patience_core.tui import PatienceApp, run_fullscreen
from patience_core.tui._pilot import run_scenario

Run = Callable[..., CliResult]

#: A variant file whose game is named like the escalator plugin's game (its stem is not, so
#: blocking the plugin by name leaves the file).
MY_ESCALATOR = """\
family = "golf"
name = "escalator"
title = "My Escalator"

[parameters]
tableau = "pyramid"
"""


@pytest.fixture
def variant(add_variant: Callable[[str, str], Path]) -> Path:
    return add_variant("my-esc", MY_ESCALATOR)


def _play_a_move(run_patience: Run, save: Path, *how: str) -> CliResult:
    """``patience play escalator HOW --file SAVE`` (``--deal 3``, or ``--resume``), one move
    piped (a deal from the stock): the game left in progress (exit status 3)."""
    result = run_patience("play", "escalator", *how, "--file", str(save), input="d\n")
    assert result.code == 3, result.err
    return result


def _no_placeholder(run_patience: Run, save: Path, *outputs: str) -> None:
    for output in outputs:
        assert "?" not in output, output
    assert "?" not in read_save(save).plugin_version
    assert "?" not in json.loads(run_patience("score", str(save), "--json").out)["plugin_version"]
    for command in (("history", "--json"), ("history",), ("stats",), ("stats", "--json")):
        shown = run_patience(*command)
        assert shown.code == 0, shown.err
        assert '"?"' not in shown.out and " ? " not in shown.out, shown.out


def test_a_plugins_save_resumed_with_a_variant_file_of_its_name_says_so(
    variant: Path, run_patience: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    _play_a_move(run_patience, save, "--deal", "3")
    assert read_save(save).plugin_version  # the plugin's version
    monkeypatch.setenv("PATIENCE_DISABLE_PLUGINS", "escalator")
    resumed = _play_a_move(run_patience, save, "--resume")
    assert "My Escalator" in resumed.out
    note = next(line for line in resumed.out.splitlines() if line.startswith("Note: saved"))
    assert str(variant) in note and read_save(save).plugin_version == ""
    _no_placeholder(run_patience, save, resumed.out, resumed.err)


def test_a_variant_files_save_resumed_with_the_plugin_of_its_name_says_so(
    variant: Path, run_patience: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    monkeypatch.setenv("PATIENCE_DISABLE_PLUGINS", "escalator")
    started = _play_a_move(run_patience, save, "--deal", "3")
    _no_placeholder(run_patience, save, started.out, started.err)
    monkeypatch.delenv("PATIENCE_DISABLE_PLUGINS")
    variant.unlink()  # else two games of one name: the plugin's is kept, with a warning
    resumed = _play_a_move(run_patience, save, "--resume")
    note = next(line for line in resumed.out.splitlines() if line.startswith("Note: saved"))
    assert "variant file" in note and "patience-escalator" in note
    assert read_save(save).plugin_version  # the plugin's version now
    _no_placeholder(run_patience, save, resumed.out, resumed.err)


def test_a_save_written_with_the_old_placeholder_loads_without_it(
    run_patience: Run, tmp_path: Path, patience_data_dir: Path
) -> None:
    save = tmp_path / "game.json"
    _play_a_move(run_patience, save, "--deal", "3")
    data = json.loads(save.read_text())
    data["plugin_version"] = "?"  # as patience wrote it for a variant file before
    save.write_text(json.dumps(data))
    assert read_save(save).plugin_version == ""
    with sqlite3.connect(patience_data_dir / "stats.db") as db:  # a row written before too
        db.execute("UPDATE games SET plugin_version = '?'")
    db.close()
    assert '"?"' not in run_patience("history", "--json").out
    resumed = _play_a_move(run_patience, save, "--resume")
    assert "?" not in resumed.out


def test_the_full_screen_player_shows_the_versions_note(
    variant: Path, run_patience: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    _play_a_move(run_patience, save, "--deal", "3")
    monkeypatch.setenv("PATIENCE_DISABLE_PLUGINS", "escalator")
    request = PlayRequest(game="escalator", path=save, explicit_file=True, resume=True)
    shown: list[str] = []

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        shown.append(app.message)
        await pilot.press("q")

    code = run_fullscreen(
        PluginHost().load(),
        request,
        own_exit=own_exit_by_default,
        show_traceback=print,
        run_app=lambda app: run_scenario(app, scenario),
    )
    assert code == 0
    assert "Note: saved with escalator plugin version" in shown[0]
    assert str(variant) in shown[0] and "?" not in shown[0]
