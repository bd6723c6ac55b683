"""Variant files as users run them (docs/families.md, "Variant files and saves"): an edited
file is a new game for ``simulate`` (rows of two versions never mixed), its free text cannot
reach the terminal as control characters, a default that depends on another parameter is not
blamed on the author, and a board format of one deck is refused for other decks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.testing import CliResult

Run = Callable[..., CliResult]

GOLF = """\
family = "golf"
name = "golf-wrap"
title = "Golf Wrap"

[parameters]
wrap = false
"""


@pytest.fixture
def variants(patience_data_dir: Path) -> Path:
    folder = patience_data_dir / "variants"
    folder.mkdir(parents=True)
    return folder


def test_simulate_starts_a_new_run_when_the_variant_file_is_edited(
    variants: Path, run_patience: Run, tmp_path: Path
) -> None:
    path = variants / "golf-wrap.toml"
    path.write_text(GOLF)
    first = run_patience("simulate", "golf-wrap", "-n", "3")
    assert first.code == 0, first.err
    again = run_patience("simulate", "golf-wrap", "-n", "3")
    assert "already played" in again.out + again.err  # the same rules resume
    path.write_text(GOLF.replace("wrap = false", "wrap = true"))
    edited = run_patience("simulate", "golf-wrap", "-n", "3")
    assert edited.code == 0, edited.err
    assert "already played" not in edited.out + edited.err
    assert "Resuming" not in edited.out + edited.err
