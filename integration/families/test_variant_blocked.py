"""A game left out by ``PATIENCE_DISABLE_PLUGINS`` or ``PATIENCE_PLUGINS``, or whose variant
file is broken, is an unknown game whose one line says why: which variable left out which
plugin or variant file, or the variant file's problem; the exit status is an unknown game's
(docs/families.md, "Variant files"; docs/cli.md, "Environment")."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.testing import CliResult

Run = Callable[..., CliResult]

MY_GOLF = 'family = "golf"\nname = "my-golf"\ntitle = "My Golf"\n'
BAD_GOLF = 'family = "golf"\nname = "bad-golf"\ntitle = "Bad"\n[parameters]\ncolumns = 99\n'


@pytest.fixture
def variants(variants: Path) -> Path:
    """The variants folder with my-golf.toml, other.toml (declaring other-golf) and a broken
    bad-golf.toml."""
    (variants / "my-golf.toml").write_text(MY_GOLF)
    (variants / "other.toml").write_text(MY_GOLF.replace("my-golf", "other-golf"))
    (variants / "bad-golf.toml").write_text(BAD_GOLF)
    return variants


def _left_out_by_either_variable(name: str) -> pytest.MarkDecorator:
    """Run a test twice, with ``name`` left out by ``PATIENCE_DISABLE_PLUGINS`` naming it, then
    by ``PATIENCE_PLUGINS`` naming only escalator: its arguments ``variable``, ``value`` (to set
    it to) and ``says`` (what the error line says of the variable)."""
    return pytest.mark.parametrize(
        ("variable", "value", "says"),
        [
            ("PATIENCE_DISABLE_PLUGINS", name, "PATIENCE_DISABLE_PLUGINS names it"),
            ("PATIENCE_PLUGINS", "escalator", "PATIENCE_PLUGINS does not name it"),
        ],
    )


def _error(result: CliResult) -> str:
    lines = [line for line in result.err.splitlines() if "error:" in line]
    assert len(lines) == 1, result.err
    return lines[0]


@pytest.mark.parametrize("command", [("rules",), ("play", "--plain"), ("deal",)])
@_left_out_by_either_variable("my-golf")
def test_a_blocked_variant_file_says_by_which_variable(
    command: tuple[str, ...],
    variable: str,
    value: str,
    says: str,
    variants: Path,
    run_patience: Run,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unknown = run_patience(command[0], "no-such-game", *command[1:])
    monkeypatch.setenv(variable, value)
    result = run_patience(command[0], "my-golf", *command[1:])
    assert result.code == unknown.code != 0
    line = _error(result)
    assert "unknown game 'my-golf'" in line
    assert str(variants / "my-golf.toml") in line and "blocked" in line and says in line
    # A file whose game is named otherwise than the file: by the name it declares.
    monkeypatch.setenv(variable, value.replace("my-golf", "other"))
    line = _error(run_patience(command[0], "other-golf", *command[1:]))
    assert str(variants / "other.toml") in line and says in line


def test_a_broken_variant_file_says_its_problem_in_the_same_line(
    variants: Path, run_patience: Run
) -> None:
    unknown = run_patience("rules", "no-such-game")
    result = run_patience("rules", "bad-golf")
    assert result.code == unknown.code != 0
    line = _error(result)
    assert "unknown game 'bad-golf'" in line and "variant file" in line
    assert "parameters.columns is 99" in line and "plugin" not in line


@_left_out_by_either_variable("golf")
def test_a_blocked_plugin_says_by_which_variable(
    variable: str, value: str, says: str, run_patience: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, value)
    line = _error(run_patience("rules", "golf"))
    assert "unknown game 'golf'" in line and "patience-golf" in line and says in line
    assert " or " not in line


@_left_out_by_either_variable("classics")
def test_a_game_of_a_blocked_variant_distribution_says_by_which_variable(
    variable: str, value: str, says: str, run_patience: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, value)
    for game in ("freecell", "klondike-draw-3"):  # names of its files' games, not its own
        line = _error(run_patience("rules", game))
        assert f"unknown game '{game}'" in line and "patience-classics" in line and says in line


@pytest.mark.parametrize("command", [("play", "--plain"), ("deal",), ("rules",)])
def test_a_broken_variant_file_is_found_by_the_name_it_declares(
    command: tuple[str, ...], variants: Path, run_patience: Run
) -> None:
    path = variants / "mine.toml"  # named otherwise than its game
    path.write_text(MY_GOLF.replace("my-golf", "x-golf") + "[parameters]\nfoo = 1\n")
    result = run_patience(command[0], "x-golf", *command[1:], input="")
    assert result.code == 1
    assert _error(result) == (
        f"patience: error: unknown game 'x-golf': its variant file {path} is broken: "
        "parameters.foo is not a parameter of the golf family; allowed: tableau, columns, "
        "depth, rows, waste-start, deal-size, wrap, queen-on-king, deck"
    )
    rows = json.loads(run_patience("plugins", "--json").out)
    assert next(r for r in rows if r["distribution"] == str(path))["games"] == ["x-golf"]


def test_list_ends_with_a_line_counting_what_is_left_out(
    variants: Path, run_patience: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed = run_patience("list")
    assert listed.code == 0 and "my-golf" in listed.out and "bad-golf" not in listed.out
    assert listed.err.splitlines()[-1] == (
        "patience: 1 variant file is blocked, broken or incompatible: its games are not listed "
        "(see `patience plugins`)"
    )
    monkeypatch.setenv("PATIENCE_DISABLE_PLUGINS", "golf,my-golf")
    for command in (("list",), ("list", "--json")):
        listed = run_patience(*command)
        assert listed.code == 0 and "my-golf" not in listed.out
        assert listed.err.splitlines()[-1] == (
            "patience: 1 plugin and 2 variant files are blocked, broken or incompatible: their "
            "games are not listed (see `patience plugins`)"
        )
    assert {row["name"] for row in json.loads(listed.out)} >= {"other-golf", "freecell"}
