"""Variant files on the command line: ``patience variant check``, and a variant file of the data
folder working end to end (list, rules, deal, play piped, solve, simulate); a broken one is one
line and everything else keeps working."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from patience_core.testing import FAKE_FAMILY_PLUGIN, FAKE_PLUGIN

THREE = """\
family = "fake"
name = "fake-three"
title = "Fake Three"

[parameters]
draw = 3
empty-piles = "any"
"""


@pytest.fixture
def patience_extra_plugins() -> list[str]:
    return [FAKE_PLUGIN, FAKE_FAMILY_PLUGIN]


@pytest.fixture
def variants(patience_data_dir: Path, request: pytest.FixtureRequest) -> Path:
    """The data folder's variants: a right one, and a broken one for the tests of broken
    files."""
    folder = patience_data_dir / "variants"
    folder.mkdir(parents=True)
    (folder / "fake-three.toml").write_text(THREE)
    if "broken" in request.node.name:
        (folder / "broken.toml").write_text(THREE.replace("draw = 3", "draw = 7"))
    return folder


@pytest.fixture
def patience_host(variants: Path, patience_host: Any) -> Any:
    """The kit's host, loaded after the variant files were written."""
    return patience_host


def test_list_shows_where_each_game_comes_from(patience_cli: Any, variants: Path) -> None:
    result = patience_cli("list")
    assert result.code == 0
    line = next(line for line in result.out.splitlines() if line.startswith("fake-three"))
    assert line.split()[-1] == str(variants / "fake-three.toml")
    rows = {row["name"]: row for row in json.loads(patience_cli("list", "--json").out)}
    assert rows["fake-three"] == {
        "name": "fake-three",
        "title": "Fake Three",
        "distribution": None,
        "version": None,
        "family": "fake",
        "file": str(variants / "fake-three.toml"),
    }
    assert rows["fake"]["family"] is None and rows["fake"]["distribution"] == FAKE_PLUGIN


def test_a_broken_variant_file_is_one_line(patience_cli: Any, variants: Path) -> None:
    result = patience_cli("plugins")
    assert result.code == 0
    warning = (
        f"patience: warning: variant file {variants / 'broken.toml'} is broken and was skipped: "
        "parameters.draw is 7; allowed: a whole number 1..3\n"
    )
    assert result.err == warning
    assert f"variant file {variants / 'fake-three.toml'}  [loaded]  games: fake-three" in (
        result.out
    )
    data = json.loads(patience_cli("plugins", "--json").out)
    broken = next(row for row in data if row["name"] == "broken")
    assert (broken["kind"], broken["status"]) == ("variant file", "broken")
    unknown = patience_cli("deal", "broken")
    assert unknown.code == 1 and unknown.err.count("\n") == 1
    assert "broken: parameters.draw is 7" in unknown.err  # why, in the same line


def test_a_variant_plays_end_to_end(patience_cli: Any) -> None:
    assert "Deals turn" not in patience_cli("rules", "fake-three").out
    assert "draw: 3" in patience_cli("rules", "fake-three").out
    deal = patience_cli("deal", "fake-three", "--deal", "1", "--json")
    assert deal.code == 0 and json.loads(deal.out)["game"] == "fake-three"
    played = patience_cli("play", "fake-three", "--deal", "1", input="deal\nquit\n")
    assert played.code == 3, played.err
    solved = patience_cli("solve", "fake-three", "--deal", "1", "--json")
    assert solved.code == 0, solved.err
    assert json.loads(solved.out)["verdict"] in ("won", "dead")
    run = patience_cli("simulate", "fake-three", "-n", "3", "--jobs", "1", "--strategy", "solver")
    assert run.code == 0, run.err
    assert "won" in run.out


def test_a_deal_turns_three_cards(patience_cli: Any, patience_host: Any) -> None:
    from patience_core.engine import DealNumber
    from patience_core.model import Move

    game = patience_host.game("fake-three")
    start = game.deal(DealNumber(1))
    after = game.play(start, Move.deal(0))
    assert len(after[1]) == 3 and len(after[0]) == len(start[0]) - 3


def write(tmp_path: Path, text: str, name: str = "v.toml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_check_a_right_file(patience_cli: Any, tmp_path: Path) -> None:
    path = write(tmp_path, THREE.replace("fake-three", "fake-tri"))
    result = patience_cli("variant", "check", path)
    assert (result.code, result.err) == (0, "")
    assert result.out == f"{path}: a variant of the fake family: fake-tri (Fake Three)\n"


def test_check_the_installed_file_itself(patience_cli: Any, variants: Path) -> None:
    result = patience_cli("variant", "check", str(variants / "fake-three.toml"))
    assert result.code == 0, result.out


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("draw = 3", "draw = 0"), "parameters.draw is 0; allowed: a whole number 1..3"),
        (("draw = 3", "drow = 3"), "parameters.drow is not a parameter of the fake family"),
        (('family = "fake"', 'family = "faek"'), "family is 'faek'; allowed: one of "),
        (('name = "fake-tri"\n', ""), "name is missing; allowed: lower-case letters"),
        (('title = "Fake Three"', 'title = "X"\nwrap = 1'), "wrap is not a key of a variant"),
        (('name = "fake-tri"', "name = "), "is not TOML: "),
        (("fake-tri", "fake"), "name 'fake' is taken by patience_core.testing._fake (Fake"),
        (("fake-tri", "fake-three"), "name 'fake-three' is taken by "),
    ],
)
def test_check_errors_are_one_line_naming_file_and_key(
    patience_cli: Any, tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    path = write(tmp_path, THREE.replace("fake-three", "fake-tri").replace(*change))
    result = patience_cli("variant", "check", path)
    assert result.code == 1
    (line,) = result.out.splitlines()
    assert line.startswith(f"{path}: {message}"), line
    assert "; allowed: " in line or "not TOML" in line


def test_check_every_error(patience_cli: Any, tmp_path: Path) -> None:
    path = write(tmp_path, 'family = "fake"\ncolour = 1\n[parameters]\ndraw = 9\n')
    lines = patience_cli("variant", "check", path).out.splitlines()
    assert [line.removeprefix(f"{path}: ").split(" ")[0] for line in lines] == [
        "colour",
        "name",
        "title",
        "parameters.draw",
    ]


def test_check_a_missing_file_is_one_line(patience_cli: Any, tmp_path: Path) -> None:
    result = patience_cli("variant", "check", str(tmp_path / "nope.toml"))
    assert result.code == 1
    assert result.err == (
        f"patience: error: {tmp_path / 'nope.toml'}: cannot be read: No such file or directory\n"
    )


def test_check_a_clash_beside_other_errors(patience_cli: Any, tmp_path: Path) -> None:
    path = write(tmp_path, THREE.replace("fake-three", "fake").replace("draw = 3", "draw = 4"))
    lines = patience_cli("variant", "check", path).out.splitlines()
    assert [line.removeprefix(f"{path}: ").split(" ")[0] for line in lines] == [
        "parameters.draw",
        "name",
    ]


def test_variant_without_a_command_is_one_line(patience_cli: Any) -> None:
    result = patience_cli("variant")
    assert result.code == 2
    assert result.err == (
        "patience variant: error: a command is missing: patience variant check FILE (see --help)\n"
    )


@pytest.mark.parametrize("folder", ["", "/", "."])
def test_check_a_folder_is_one_line_exit_1_as_its_help_says(
    patience_cli: Any, tmp_path: Path, folder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    given = folder or str(tmp_path)
    result = patience_cli("variant", "check", given)
    assert result.code == 1 and not result.out
    assert result.err == f"patience: error: {given}: cannot be read: Is a directory\n"
    help_text = " ".join(patience_cli("variant", "check", "--help").out.split())
    assert (
        "A FILE that cannot be read (missing, a folder, not a regular file) is one line and "
        "exit 1 too" in help_text
    )
