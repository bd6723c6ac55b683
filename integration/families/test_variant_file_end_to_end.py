"""A variant file of the data folder, of a shipped family, is a game for every command: list,
rules, deal, play piped, solve, hint and simulate; and the shipped variant files check clean."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

EIGHT_OFF = """\
family = "freecell"
name = "eight-off"
title = "Eight Off"
own-rules = "Eight Off is played with eight free cells, four of them dealt a card."

[parameters]
cells = 8
cells-dealt = 4
build = "same-suit"
empty-columns = "kings"
supermove = "cells"
"""


@pytest.fixture
def eight_off(add_variant: Any) -> Path:
    return add_variant("eight-off", EIGHT_OFF)


def test_a_variant_file_is_a_game_for_every_command(
    eight_off: Path, run_patience: Any, tmp_path: Path
) -> None:
    listed = run_patience("list")
    (line,) = [line for line in listed.out.splitlines() if line.startswith("eight-off ")]
    assert line.split()[1:] == ["Eight", "Off", str(eight_off)]
    rules = run_patience("rules", "eight-off").out
    assert rules.startswith("Eight Off") and "four of them dealt a card" in rules
    deal = json.loads(run_patience("deal", "eight-off", "--deal", "5", "--json").out)
    assert deal["game"] == "eight-off"
    solved = run_patience("solve", "eight-off", "--deal", "5", "--moves-only")
    assert solved.code == 0, solved.err
    save = tmp_path / "eight-off.json"
    played = run_patience("play", "eight-off", "--deal", "5", "--file", str(save), input=solved.out)
    assert played.code == 0, played.err  # piped play that wins exits 0
    hint = run_patience("hint", str(save))
    assert hint.code == 0, hint.err
    run = run_patience("simulate", "eight-off", "-n", "3", "--strategy", "solver", "--jobs", "1")
    assert run.code == 0, run.err
    assert "won" in run.out


def test_a_broken_data_folder_file_leaves_the_rest_working(
    eight_off: Path, run_patience: Any
) -> None:
    eight_off.write_text(EIGHT_OFF.replace("cells = 8", "cells = 80"))
    listed = run_patience("list")
    assert listed.code == 0 and "freecell" in listed.out and "eight-off" not in listed.out
    assert listed.err == (
        f"patience: warning: variant file {eight_off} is broken and was skipped: "
        "parameters.cells is 80; allowed: a whole number 0..10\n"
        "patience: 1 variant file is blocked, broken or incompatible: its games are not listed "
        "(see `patience plugins`)\n"
    )
    assert run_patience("plugins").code == 0


def test_the_shipped_variant_files_check_clean(run_patience: Any) -> None:
    from importlib import resources

    files = [f for f in resources.files("patience_classics").iterdir() if f.name.endswith(".toml")]
    assert {f.name for f in files} >= {"freecell.toml", "klondike.toml", "klondike-draw-3.toml"}
    for item in files:
        result = run_patience("variant", "check", str(item))
        assert result.code == 0, result.out
