"""``--json`` of list, plugins and rules; what ``--help`` and ``list`` import; long text cut in
every command's message (outside case 3 of 2026-12-files-and-messages)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from click.testing import CliRunner

from patience_core.cli import cli


def test_list_json_holds_the_fields_of_the_text() -> None:
    text = CliRunner().invoke(cli, ["list"]).output.splitlines()
    rows = json.loads(CliRunner().invoke(cli, ["list", "--json"]).output)
    assert [r["name"] for r in rows] == [line.split()[0] for line in text]
    for row, line in zip(rows, text, strict=True):
        assert set(row) == {"name", "title", "distribution", "version", "family", "file"}
        # Where the game comes from: its distribution and version, or else its variant file.
        shown = ("name", "title", "distribution", "version") if row["distribution"] else ("file",)
        assert all(str(row[key]) in line for key in shown)


def test_plugins_json_holds_the_fields_of_the_text() -> None:
    text = CliRunner().invoke(cli, ["plugins"]).output.splitlines()
    rows = json.loads(CliRunner().invoke(cli, ["plugins", "--json"]).output)
    assert len(rows) == len(text)
    for row, line in zip(rows, text, strict=True):
        assert line.startswith(row["distribution"]) and f"[{row['status']}]" in line
        assert row["version"] in line and all(game in line for game in row["games"])
    assert rows[0]["status"] == "built-in"
    assert {"name", "error", "commands", "commands_error"} <= set(rows[0])


def test_rules_json_holds_the_rules_and_the_options() -> None:
    text = CliRunner().invoke(cli, ["rules", "bakers-game"]).output
    data = json.loads(CliRunner().invoke(cli, ["rules", "bakers-game", "--json"]).output)
    assert data["name"] == "bakers-game" and data["title"] == "Baker's Game"
    assert data["rules"].rstrip() in text
    for option in data["options"]:
        assert f"{option['name']}={'|'.join(option['choices'])}" in text
        assert option["default"] in option["choices"] and option["help"] in text


@pytest.mark.parametrize("args", [["--help"], ["list"]])
def test_help_and_list_do_not_import_the_solver(args: list[str]) -> None:
    """Start-up cost: the solver is imported only by commands that search."""
    code = (
        "import sys\n"
        "from patience_core.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('patience')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(json.loads(done.stdout.splitlines()[-1].replace("'", '"')))
    assert not {m for m in loaded if m.startswith("patience_core.solve")}
    if args == ["--help"]:  # no plugin either: the game modules are not imported
        assert not {m for m in loaded if not m.startswith("patience_core")}


LONG = "x" * 5000


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "bristol", "-n", "1", "--strategy", LONG],
        ["simulate", "escalator", "-n", "1", "--output", LONG],
        ["simulate", "escalator", "-n", "1", "--output", LONG + "/rows.csv"],
        ["score", LONG],
        ["hint", LONG],
        ["deal", "escalator", "--from", LONG],
        ["solve", "escalator", "--from", LONG],
        ["play", "escalator", "--file", LONG],
        ["play", "escalator", "--file", LONG + "/save.json"],
        ["rules", LONG],
        ["deal", LONG],
        ["deal", "escalator", "-o", LONG + "=1"],
        ["deal", "escalator", "--deal", LONG],
        ["list", LONG],
    ],
    ids=lambda args: " ".join(a if len(a) < 20 else "LONG" for a in args),
)
def test_a_long_value_or_path_is_cut_short_by_every_command(args: list[str], tmp_path: Any) -> None:
    environ = {**os.environ, "PATIENCE_DATA_DIR": str(tmp_path)}
    environ.pop("PATIENCE_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-c", "from patience_core.cli import main; main()", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=environ,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode in (1, 2), done.stderr[:300]
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and len(done.stderr) < 300, done.stderr[:300]
    assert "x" * 20 + "..." in done.stderr


def test_plugins_lists_the_commands_each_plugin_adds() -> None:
    """``--help`` loads no plugin, so ``patience plugins`` is where their commands are told."""
    import types

    import click

    from patience_core import hookimpl
    from patience_core.plugins import PluginHost

    @hookimpl
    def patience_register_commands(cli: click.Group) -> None:
        cli.add_command(click.Command("export", callback=lambda: None))

    plugin = types.SimpleNamespace(patience_register_commands=patience_register_commands)
    host = PluginHost(entry_points=[], environ={}, plugins={"patience-tools": plugin})
    text = CliRunner().invoke(cli, ["plugins"], obj=host).output
    assert "patience-tools ?  [loaded]  games: -  commands: export" in text.splitlines()
    rows = json.loads(CliRunner().invoke(cli, ["plugins", "--json"], obj=host).output)
    assert rows[-1]["commands"] == ["export"]
    assert "`patience plugins` lists them" in CliRunner().invoke(cli, ["--help"]).output


def test_a_long_field_of_a_position_file_is_cut_short(tmp_path: Any) -> None:
    made = CliRunner().invoke(cli, ["deal", "escalator", "--deal", "3", "--json", "--all-cards"])
    data = json.loads(made.output)
    data["game"] = "g" * 5000
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["deal", "escalator", "--from", str(path)])
    message = str(result.exception)
    assert "position is of game '" + "g" * 37 + "...', not escalator" in message
    assert len(message) < 300
