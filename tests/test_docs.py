"""The documentation's code works: the plugin tutorial's game is a real, playable game."""

from __future__ import annotations

import re
import types
from pathlib import Path

from patience_core.engine import DealNumber
from patience_core.plugins import PluginHost
from patience_core.testing import check_random_walk

DOCS = Path(__file__).resolve().parent.parent / "docs"


def python_blocks(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(), re.S)


class _EntryPoint:
    def __init__(self, name: str, module: types.ModuleType) -> None:
        self.name, self.dist, self._module = name, None, module

    def load(self) -> types.ModuleType:
        return self._module


def test_tutorial_game_registers_and_plays() -> None:
    module = types.ModuleType("patience_golf")
    (golf,) = [b for b in python_blocks("writing-a-plugin.md") if "class Golf(Game)" in b]
    exec(compile(golf, "tutorial", "exec"), module.__dict__)
    host = PluginHost(entry_points=[_EntryPoint("golf", module)], environ={}).load()
    assert host.problems == []
    game = host.game("golf")
    position = game.deal(DealNumber(1))
    assert len(position[0]) == 16 and len(position[1]) == 1
    for deal in range(5):
        check_random_walk(game, deal, seed=deal)


def test_tutorial_variant_file_and_declaration_are_the_same_game() -> None:
    """writing-a-plugin.md's variant file is right, and declares what its family declaration
    declares: the same rules text, the same deals."""
    from patience_core.families import variant_problems

    (text,) = re.findall(r"```toml\n(# ~/.*?)```", (DOCS / "writing-a-plugin.md").read_text(), re.S)
    variant, problems = variant_problems(text.encode())
    assert problems == [] and variant is not None
    (declared,) = [b for b in python_blocks("writing-a-plugin.md") if "FreeCellFamily" in b]
    module = types.ModuleType("patience_eight_off")
    exec(compile(declared, "declaration", "exec"), module.__dict__)
    host = PluginHost(entry_points=[_EntryPoint("eight-off", module)], environ={}).load()
    assert host.problems == []
    game = host.game("eight-off")
    assert game.rules == variant.rules
    assert game.deal(DealNumber(5)) == variant().deal(DealNumber(5))


def test_docs_link_to_pages_that_exist() -> None:
    for page in DOCS.rglob("*.md"):
        for target in re.findall(r"\]\(([^)#:]+\.md)\)", page.read_text()):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_every_hook_is_documented_with_its_exact_signature() -> None:
    import inspect

    from patience_core.plugins import hookspecs

    page = (DOCS / "plugin-api.md").read_text()
    hooks = [
        (name, func)
        for name, func in inspect.getmembers(hookspecs, inspect.isfunction)
        if name.startswith("patience_")
    ]
    assert hooks
    for name, func in hooks:
        signature = str(inspect.signature(func)).replace("'", "")
        assert f"### `{name}{signature}`" in page, f"hook {name}{signature} is not documented"


def test_every_public_api_name_is_documented() -> None:
    from patience_core import api

    page = (DOCS / "plugin-api.md").read_text()
    for name in api.__all__:
        assert f"`{name}`" in page, f"patience_core.api.{name} is not in docs/plugin-api.md"


def test_the_architecture_diagram_is_the_import_contract() -> None:
    """docs/architecture.md's layer diagram names the layers of import-linter's contract in
    pyproject.toml, in its order (top to bottom)."""
    import tomllib

    config = tomllib.loads((DOCS.parent / "pyproject.toml").read_text())
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    layers = [layer.replace("patience_core.", "") for layer in contract["layers"]]
    diagram = re.search(r"## Layers.*?```\n(.*?)```", (DOCS / "architecture.md").read_text(), re.S)
    assert diagram is not None
    drawn = [line.split("  ")[0].strip() for line in diagram.group(1).splitlines()]
    assert drawn == layers
