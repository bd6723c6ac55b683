"""Shared fixtures of the variant-file tests: the data folder's ``variants`` folder, and a
writer of variant files into it (docs/families.md, "Where they are read from")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

#: Writes ``<data dir>/variants/STEM.toml`` holding the text given and returns its path.
AddVariant = Callable[[str, str], Path]


@pytest.fixture
def variants(patience_data_dir: Path) -> Path:
    """The test's ``<data dir>/variants`` folder, made and empty."""
    folder = patience_data_dir / "variants"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def add_variant(variants: Path) -> AddVariant:
    """A writer of variant files into :func:`variants`: ``add_variant(stem, text)`` writes
    ``STEM.toml`` and returns its path."""

    def add(stem: str, text: str) -> Path:
        path = variants / f"{stem}.toml"
        path.write_text(text)
        return path

    return add
