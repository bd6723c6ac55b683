"""Shared test fixtures.

* Every test gets its own patience data folder (``PATIENCE_DATA_DIR``), so no test reads or
  writes the real user's saved games.
* ``run_patience(*args, input="")`` runs the real ``patience`` entry point
  (:func:`patience_core.cli.main`, with its one-line error handling) in-process, with ``input``
  as standard input, and returns its exit code, stdout and stderr.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest


class CliResult(NamedTuple):
    """What one run of ``patience`` did."""

    code: int
    out: str
    err: str


@pytest.fixture(autouse=True)
def patience_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, private patience data folder for this test."""
    folder = tmp_path / "patience-data"
    monkeypatch.setenv("PATIENCE_DATA_DIR", str(folder))
    return folder


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
