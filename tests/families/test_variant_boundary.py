"""A variant file is the boundary: whatever goes wrong while its game class is made (a
contradiction between parameters, a deck too small for the layout, a plugin's policy that
raises) is one line naming the key or the plugin's error, and the file is skipped; a pipe or a
device in the variants folder is one line too, never a hang."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from patience_core.engine import standard_deck
from patience_core.families import POLICIES, BuildPolicy, Deck, variant_problems
from patience_core.games import GameRegistry
from patience_core.plugins import PluginHost, checked_variant
from patience_core.plugins._variants import load_variant_files
from patience_core.testing import GameConformance

TEST_PLUGIN = "test-policies"


@pytest.fixture
def policies() -> Iterator[None]:
    """A plugin's raising build policy and its 32-card deck, forgotten afterwards."""

    def fits(card: object, onto: object) -> bool:
        raise ValueError("the plugin's fits is wrong")

    POLICIES.current_plugin = TEST_PLUGIN
    try:
        POLICIES.add(BuildPolicy("raising", fits, "never"))
        POLICIES.add(Deck("piquet", lambda: tuple(standard_deck())[:32], "a 32-card deck"))
    finally:
        POLICIES.current_plugin = "patience-core"
    yield
    POLICIES.remove_provider(TEST_PLUGIN)


def file(family: str, **parameters: object) -> bytes:
    lines = [f'family = "{family}"', 'name = "mine"', 'title = "Mine"', "[parameters]"]
    for key, value in parameters.items():
        shown = f'"{value}"' if isinstance(value, str) else str(value).lower()
        lines.append(f"{key.replace('_', '-')} = {shown}")
    return "\n".join(lines).encode()


def only_problem(data: bytes) -> str:
    variant, problems = checked_variant(data)
    assert variant is None and len(problems) == 1 and "\n" not in problems[0]
    return problems[0]


@pytest.mark.parametrize(
    ("parameters", "start"),
    [
        ({"cells_dealt": 10}, "parameters.cells-dealt is 10; allowed: a whole number 0..4"),
        ({"ms_deals": True, "columns": 4}, "parameters.ms-deals is true; allowed only with"),
        (
            {"cells": 0, "cells_dealt": 5},
            "parameters.cells-dealt is 5; allowed: a whole number 0..0",
        ),
    ],
)
def test_contradictory_freecell_parameters_name_the_key(
    parameters: dict[str, object], start: str
) -> None:
    assert only_problem(file("freecell", **parameters)).startswith(start)


@pytest.mark.parametrize(("family", "columns"), [("klondike", 9), ("freecell", 8)])
def test_a_deck_too_small_or_not_of_whole_suits_is_refused(
    policies: None, family: str, columns: int
) -> None:
    assert only_problem(file(family, deck="piquet", columns=columns)) == (
        "parameters.deck is 'piquet'; allowed: a deck of whole suits, enough for the layout"
    )


def test_klondike_with_too_many_columns_for_its_deck() -> None:
    variant, problems = variant_problems(file("klondike", columns=9))
    assert variant is not None and problems == []  # 45 of 52 cards: it fits
    game = variant()
    from patience_core.engine import DealNumber

    assert game.legal_moves(game.deal(DealNumber(1))) is not None


def test_a_policy_raising_while_the_class_is_made_is_the_file_s_problem(policies: None) -> None:
    assert only_problem(file("freecell", build="raising")) == (
        "making its game failed: ValueError: the plugin's fits is wrong"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_or_a_device_in_the_folder_is_skipped_in_one_line(
    policies: None, tmp_path: Path
) -> None:
    (tmp_path / "a.toml").write_bytes(file("freecell", build="raising"))
    os.mkfifo(tmp_path / "b.toml")
    (tmp_path / "c.toml").symlink_to("/dev/zero")
    (tmp_path / "d.toml").write_bytes(file("freecell", cells=3).replace(b"mine", b"d"))
    games = GameRegistry()
    records = {r.name: r for r in load_variant_files(tmp_path, games)}
    assert records["a"].error == "making its game failed: ValueError: the plugin's fits is wrong"
    assert records["b"].error == "cannot be read: not a regular file"
    assert records["c"].error == "cannot be read: not a regular file"
    assert records["d"].error == "" and "d" in games.names()


def test_the_host_keeps_working_beside_broken_files(tmp_path: Path) -> None:
    folder = tmp_path / "variants"
    folder.mkdir()
    os.mkfifo(folder / "pipe.toml")
    host = PluginHost(entry_points=[], environ={"PATIENCE_DATA_DIR": str(tmp_path)}).load()
    assert [p for p in host.problems if "pipe.toml" in p] == [
        f"variant file {folder / 'pipe.toml'} is broken and was skipped: "
        "cannot be read: not a regular file"
    ]


@pytest.fixture
def variants(patience_data_dir: Path) -> Path:
    """The data folder's variants: a named pipe and a contradictory FreeCell."""
    folder = patience_data_dir / "variants"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "pipe.toml")
    (folder / "bad.toml").write_bytes(file("freecell", cells_dealt=10))
    return folder


@pytest.fixture
def patience_host(variants: Path, patience_host: Any) -> Any:
    """The kit's host, loaded after the variant files were written."""
    return patience_host


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_variant_check_reports_only_its_file(
    patience_cli: Any, variants: Path, tmp_path: Path
) -> None:
    folder = variants
    assert "pipe.toml" in patience_cli("list").err  # other commands warn of it
    pipe = patience_cli("variant", "check", str(folder / "pipe.toml"))
    assert (pipe.code, pipe.out) == (1, "")
    assert pipe.err == (
        f"patience: error: {folder / 'pipe.toml'}: cannot be read: not a regular file\n"
    )
    mine = tmp_path / "mine.toml"
    mine.write_bytes(file("freecell", cells=3))
    right = patience_cli("variant", "check", str(mine))
    assert (right.code, right.err) == (0, "")
    assert right.out == f"{mine}: a variant of the freecell family: mine (Mine)\n"
    bad = patience_cli("variant", "check", str(folder / "bad.toml"))
    assert (bad.code, bad.err) == (1, "")
    assert bad.out == (
        f"{folder / 'bad.toml'}: parameters.cells-dealt is 10; allowed: a whole number 0..4\n"
    )


def test_the_kit_plays_a_data_folder_variant_on_the_command_line(
    patience_data_dir: Path, tmp_path: Path
) -> None:
    """The kit's command-line play runs in a fresh data folder: the variant files come along."""
    folder = patience_data_dir / "variants"
    folder.mkdir(parents=True)
    (folder / "three.toml").write_bytes(file("freecell", cells=3).replace(b"mine", b"three"))

    class Kit(GameConformance):
        game = "three"

    (tmp_path / "kit").mkdir()
    Kit().test_cli_play_scripted_and_resume(tmp_path / "kit")
