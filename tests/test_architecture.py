"""Architecture rules that keep the picture simple (STYLE.md, "The shape we aim for").

The layers themselves are checked by import-linter (``lint-imports``, contracts in
pyproject.toml); these tests check what it cannot: that every package is in a contract, that no
module grows past the size a newcomer can read, and that the plugin API is documented.
"""

from __future__ import annotations

import inspect
import tomllib
from pathlib import Path

import pytest

import patience_core
from patience_core import api
from patience_core.plugins import hookspecs

ROOT = Path(patience_core.__file__).parent
REPO = ROOT.parent
PYPROJECT = REPO / "pyproject.toml"
#: A module longer than this is split (DEVELOPERS.md, "Shape": about 400 lines).
MODULE_LINES = 450


def _layered() -> set[str]:
    config = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"][0]
    names: set[str] = set()
    for layer in config["layers"]:
        names |= {part.strip().removeprefix("patience_core.") for part in layer.split("|")}
    return names


@pytest.mark.skipif(not PYPROJECT.exists(), reason="needs the source tree")
def test_every_package_and_module_is_in_a_layer() -> None:
    tops = {p.name.removesuffix(".py") for p in ROOT.iterdir() if p.suffix == ".py" or p.is_dir()}
    tops -= {"__init__", "__pycache__"}
    assert sorted(tops - _layered()) == []


def _modules() -> list[Path]:
    """The core's modules, and, when the tests run from the source tree, the modules of the
    shipped plugins' and examples' packages (parts not there are skipped)."""
    modules = sorted(ROOT.rglob("*.py"))
    for pattern in ("plugins/*/patience_*/**/*.py", "examples/*/patience_*/**/*.py"):
        modules += sorted(REPO.glob(pattern))
    return modules


def test_no_module_is_too_long() -> None:
    long = {
        str(p.relative_to(REPO)): n
        for p in _modules()
        if (n := len(p.read_text().splitlines())) > MODULE_LINES
    }
    assert long == {}


def test_every_hook_has_a_docstring_with_params_and_version() -> None:
    hooks = [
        obj
        for name, obj in inspect.getmembers(hookspecs, inspect.isfunction)
        if name.startswith("patience_")
    ]
    assert len(hooks) >= 4
    for hook in hooks:
        doc = inspect.getdoc(hook) or ""
        assert doc, f"{hook.__name__} has no docstring"
        for param in inspect.signature(hook).parameters:
            assert f":param {param}:" in doc, f"{hook.__name__} does not document {param}"
        assert "versionadded" in doc


def test_public_api_names_exist_and_are_documented() -> None:
    for name in api.__all__:
        obj = getattr(api, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert inspect.getdoc(obj), f"api.{name} has no docstring"
