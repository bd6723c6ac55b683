"""A game left out by ``PATIENCE_DISABLE_PLUGINS`` or ``PATIENCE_PLUGINS``, or whose variant
file is broken, is an unknown game whose one line says why: which variable left out which
plugin or variant file, or the variant file's problem; the exit status is an unknown game's
(docs/families.md, "Variant files"; docs/cli.md, "Environment")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.testing import CliResult

Run = Callable[..., CliResult]

MY_GOLF = 'family = "golf"\nname = "my-golf"\ntitle = "My Golf"\n'
BAD_GOLF = 'family = "golf"\nname = "bad-golf"\ntitle = "Bad"\n[parameters]\ncolumns = 99\n'


@pytest.fixture
def variants(patience_data_dir: Path) -> Path:
    folder = patience_data_dir / "variants"
    folder.mkdir(parents=True)
    (folder / "my-golf.toml").write_text(MY_GOLF)
    (folder / "other.toml").write_text(MY_GOLF.replace("my-golf", "other-golf"))
    (folder / "bad-golf.toml").write_text(BAD_GOLF)
    return folder


def _error(result: CliResult) -> str:
    lines = [line for line in result.err.splitlines() if "error:" in line]
    assert len(lines) == 1, result.err
    return lines[0]


@pytest.mark.parametrize("command", [("rules",), ("play", "--plain"), ("deal",)])
@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("PATIENCE_DISABLE_PLUGINS", "my-golf", "PATIENCE_DISABLE_PLUGINS names it"),
        ("PATIENCE_PLUGINS", "escalator", "PATIENCE_PLUGINS does not name it"),
    ],
)
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


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("PATIENCE_DISABLE_PLUGINS", "golf", "PATIENCE_DISABLE_PLUGINS names it"),
        ("PATIENCE_PLUGINS", "escalator", "PATIENCE_PLUGINS does not name it"),
    ],
)
def test_a_blocked_plugin_says_by_which_variable(
    variable: str, value: str, says: str, run_patience: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, value)
    line = _error(run_patience("rules", "golf"))
    assert "unknown game 'golf'" in line and "patience-golf" in line and says in line
    assert " or " not in line


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("PATIENCE_DISABLE_PLUGINS", "classics", "PATIENCE_DISABLE_PLUGINS names it"),
        ("PATIENCE_PLUGINS", "escalator", "PATIENCE_PLUGINS does not name it"),
    ],
)
def test_a_game_of_a_blocked_variant_distribution_says_by_which_variable(
    variable: str, value: str, says: str, run_patience: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, value)
    for game in ("freecell", "klondike-draw-3"):  # names of its files' games, not its own
        line = _error(run_patience("rules", game))
        assert f"unknown game '{game}'" in line and "patience-classics" in line and says in line
