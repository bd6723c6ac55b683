"""Shared fixtures of the tests of what a user sees with the shipped games.

These tests need the shipped game plugins installed (``tox`` installs them; see README.md):
they check play, saves, simulate, solve, hints and the messages for typed input and files as a
user meets them. The core's own tests, which need no game plugin, are under ``tests/``.

* Every test gets its own patience data folder (the test kit's ``patience_data_dir``).
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
def run_patience(patience_main: Callable[..., CliResult]) -> Callable[..., CliResult]:
    """``patience ARGS...`` in-process (the test kit's ``patience_main``)."""
    return patience_main
