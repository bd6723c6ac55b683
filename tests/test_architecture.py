"""Architecture rules that keep the picture simple (STYLE.md, "The shape we aim for")."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import patience_core
from patience_core import api, hookspecs

ROOT = Path(patience_core.__file__).parent

#: Each module's layer; a module may import only from its own layer or below.
LAYERS = {
    "model": 1,
    "errors": 1,
    "engine": 2,
    "games": 3,
    "searchspace": 3,
    "hookspecs": 3,
    "plugins": 3,
    "strategies": 3,
    "builtins": 4,
    "api": 3,
    "session": 4,
    "persistence": 4,
    "simulate": 4,
    "rowfiles": 4,
    "workers": 2,
    "render": 4,
    "formats": 4,
    "testing": 5,
    "solver": 4,
    "scaffold": 4,
    "hints": 4,
    "honest": 4,
    "cli": 5,
}


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "patience_core":
        return None
    if len(parts) == 1:
        return 0  # the package root exports hookimpl only
    return LAYERS.get(parts[1])


def modules() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_only_go_down(path: Path) -> None:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    name = ".".join(rel.parts).removesuffix(".__init__")
    own = layer_of(name)
    if own is None or own == 0:
        return
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            targets = [node.module]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        for target in targets:
            theirs = layer_of(target)
            if theirs is None:
                continue
            assert theirs <= own, f"{name} (layer {own}) imports {target} (layer {theirs})"


def test_model_and_engine_import_no_terminal_or_cli_code() -> None:
    for path in [ROOT / "model.py", *sorted((ROOT / "engine").glob("*.py"))]:
        text = path.read_text()
        assert "import click" not in text and "render" not in text.split('"""', 2)[-1]


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


def test_every_module_has_a_layer() -> None:
    names = {p.relative_to(ROOT).parts[0].removesuffix(".py") for p in modules()}
    names -= {"__init__", "templates"}
    assert sorted(n for n in names if n not in LAYERS) == []
