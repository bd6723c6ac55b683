"""pytest fixtures for the tests of game plugins and of patience itself.

patience-core is a pytest plugin (entry point ``pytest11``), so these fixtures are there in every
test of a project that has patience-core installed, with nothing to import:

* ``patience_data_dir``: a fresh, private patience data folder (``PATIENCE_DATA_DIR``), so a
  test never reads or writes the user's saved games and statistics.
* ``patience_extra_plugins``: import paths of plugins to load besides the installed ones (none
  by default); override it in a ``conftest.py`` to add some, e.g. the test kit's fake game
  (:data:`~patience_core.testing.FAKE_PLUGIN`).
* ``patience_host``: a loaded :class:`~patience_core.plugins.PluginHost` holding the installed
  plugins and the extra ones.
* ``patience_cli``: runs ``patience ARGS...`` in-process with that host, standard input given
  as text, and returns a :class:`CliResult` (exit code, stdout, stderr).
* ``patience_main``: runs ``patience ARGS...`` in-process as a user's shell does, loading the
  installed plugins itself, with pytest's own output capture (so a test may also look at what a
  command writes through ``sys.stdout`` directly, e.g. a broken pipe).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import pytest

if TYPE_CHECKING:
    from patience_core.plugins import PluginHost

__all__ = [
    "CliResult",
    "patience_cli",
    "patience_data_dir",
    "patience_extra_plugins",
    "patience_host",
    "patience_main",
]


class CliResult(NamedTuple):
    """What one run of ``patience`` did.

    :param code: the exit code (0 for success, 1 for an error, 2 for a usage error, ...).
    :param out: what it wrote to standard output.
    :param err: what it wrote to standard error.
    """

    code: int
    out: str
    err: str


@pytest.fixture
def patience_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, private patience data folder for this test (``PATIENCE_DATA_DIR``), created
    when patience first writes to it.

    :returns: the folder's path.
    """
    folder = tmp_path / "patience-data"
    monkeypatch.setenv("PATIENCE_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def patience_extra_plugins() -> list[str]:
    """Import paths (``package.module`` or ``package.module:attribute``) of plugin objects that
    ``patience_host`` loads besides the installed plugins: none. Override this fixture to add
    some; each is loaded as an entry point naming it would be, with the path as the plugin's
    name (``patience plugins`` shows it so)."""
    return []


@pytest.fixture
def patience_host(patience_data_dir: Path, patience_extra_plugins: list[str]) -> PluginHost:
    """A loaded plugin host: the installed plugins (as ``patience`` finds them, with
    ``PATIENCE_PLUGINS`` and ``PATIENCE_DISABLE_PLUGINS``) and ``patience_extra_plugins``.

    :returns: the :class:`~patience_core.plugins.PluginHost`, loaded.
    """
    from patience_core.plugins import ENTRY_POINT_GROUP, VARIANTS_GROUP, PluginHost

    installed = [
        *metadata.entry_points(group=ENTRY_POINT_GROUP),
        *metadata.entry_points(group=VARIANTS_GROUP),
    ]
    extra = [metadata.EntryPoint(path, path, ENTRY_POINT_GROUP) for path in patience_extra_plugins]
    return PluginHost(entry_points=installed + extra).load()


@pytest.fixture
def patience_cli(patience_host: PluginHost) -> Callable[..., CliResult]:
    """Run ``patience ARGS...`` in-process with ``patience_host``: ``patience_cli("deal",
    "golf", "1")``, with standard input given as ``input="..."`` (not a terminal, as when it is
    piped). It goes through :func:`patience_core.cli.main`, so errors are the one-line messages
    and exit codes a user sees.

    :returns: a function of ``(*args: str, input: str = "")`` returning a :class:`CliResult`.
    """
    from click.testing import CliRunner

    from patience_core.cli import main

    def run(*args: str, input: str = "") -> CliResult:
        runner = CliRunner()
        with runner.isolation(input=input) as streams:
            try:
                main(list(args), obj=patience_host)
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out, err = streams[0], streams[1]
        return CliResult(
            code,
            out.getvalue().decode(),
            err.getvalue().decode() if err is not None else "",
        )

    return run


@pytest.fixture
def patience_main(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[..., CliResult]:
    """Run ``patience ARGS...`` in-process through :func:`patience_core.cli.main`, which loads
    the installed plugins as the ``patience`` command does, with ``input`` (text or a text
    stream) as standard input.

    :returns: a function of ``(*args: str, input: str | io.TextIOBase = "")`` returning a
        :class:`CliResult`.
    """
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
