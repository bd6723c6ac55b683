"""Shared test fixtures.

* Every test gets its own patience data folder (``PATIENCE_DATA_DIR``, the test kit's
  ``patience_data_dir``), so no test reads or writes the real user's saved games.
* ``patience_host`` and ``patience_cli`` (the test kit's fixtures) hold the kit's fake game
  (``fake``) besides the installed plugins.
* ``run_patience(*args, input="")`` runs the real ``patience`` entry point
  (:func:`patience_core.cli.main`, with its one-line error handling) in-process, with ``input``
  as standard input, and returns its exit code, stdout and stderr.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.testing import CliResult


@pytest.fixture(autouse=True)
def _private_data_dir(patience_data_dir: Path) -> Path:
    """A fresh, private patience data folder for every test (the test kit's
    ``patience_data_dir``)."""
    return patience_data_dir


@pytest.fixture
def patience_extra_plugins() -> list[str]:
    """The core's tests run against the test kit's fake game besides the installed plugins
    (``patience_host``, ``patience_cli``), so that they need no shipped game."""
    from patience_core.testing import FAKE_PLUGIN

    return [FAKE_PLUGIN]


@pytest.fixture
def run_patience(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[..., CliResult]:
    """Run ``patience ARGS...`` in-process; see the module docstring."""
    from patience_core.cli import main

    def run(*args: str, input: str | io.TextIOBase = "") -> CliResult:
        stdin = io.StringIO(input) if isinstance(input, str) else input
        monkeypatch.setattr(sys, "stdin", stdin)
        capsys.readouterr()
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out, err = capsys.readouterr()
        return CliResult(code, out, err)

    return run
