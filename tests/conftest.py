"""Shared fixtures of the core's tests, which need no shipped game.

* Every test gets its own patience data folder (``PATIENCE_DATA_DIR``, the test kit's
  ``patience_data_dir``), so no test reads or writes the real user's saved games.
* ``patience_host`` and ``patience_cli`` (the test kit's fixtures) hold the kit's fake game
  (``fake``) besides the installed plugins.
* ``run_patience(*args, input="")`` is the test kit's ``patience_main``: the real ``patience``
  entry point in-process, returning its exit code, stdout and stderr.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.testing import CliResult


@pytest.fixture(autouse=True)
def _private_data_dir(patience_data_dir: Path) -> Path:
    """A fresh, private patience data folder for every test."""
    return patience_data_dir


@pytest.fixture
def patience_extra_plugins() -> list[str]:
    """The core's tests run against the test kit's fake game besides the installed plugins
    (``patience_host``, ``patience_cli``), so that they need no shipped game."""
    from patience_core.testing import FAKE_PLUGIN

    return [FAKE_PLUGIN]


@pytest.fixture
def run_patience(patience_main: Callable[..., CliResult]) -> Callable[..., CliResult]:
    """``patience ARGS...`` in-process (the test kit's ``patience_main``)."""
    return patience_main
