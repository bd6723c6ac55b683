"""Variant files from plugin distributions (entry-point group ``patience.variants``: a package
whose ``*.toml`` files are variants) and from the data folder, as the plugin host loads them."""

from __future__ import annotations

import importlib
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from patience_core.plugins import BLOCKED, BROKEN, LOADED, VARIANTS_GROUP, PluginHost
from patience_core.testing import FAKE_FAMILY_PLUGIN, FAKE_PLUGIN

TWO = 'family = "fake"\nname = "fake-two"\ntitle = "Fake Two"\n\n[parameters]\ndraw = 2\n'


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An importable package ``fake_variants`` holding ``fake-two.toml``."""
    folder = tmp_path / "site" / "fake_variants"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "fake-two.toml").write_text(TWO)
    monkeypatch.syspath_prepend(str(folder.parent))
    importlib.invalidate_caches()
    # Each test's package is its own: not the one an earlier test imported.
    monkeypatch.delitem(sys.modules, "fake_variants", raising=False)
    return folder


def host(environ: dict[str, str] | None = None, target: str = "fake_variants") -> PluginHost:
    found = [metadata.EntryPoint("fakevariants", target, VARIANTS_GROUP)]
    plugins = {p: importlib.import_module(p) for p in (FAKE_PLUGIN, FAKE_FAMILY_PLUGIN)}
    return PluginHost(entry_points=found, plugins=plugins, environ=environ or {}).load()


def record(loaded: PluginHost, name: str) -> Any:
    return next(r for r in loaded.records if r.name == name)


def test_a_package_s_variant_files_are_games(package: Path) -> None:
    loaded = host()
    assert loaded.problems == []
    assert (record(loaded, "fakevariants").status, record(loaded, "fakevariants").games) == (
        LOADED,
        ("fake-two",),
    )
    assert loaded.games.provider("fake-two") == "fakevariants"
    game = loaded.game("fake-two")
    assert game.draw == 2 and game.variant_file == str(package / "fake-two.toml")


def test_one_broken_file_breaks_the_distribution(package: Path) -> None:
    (package / "bad.toml").write_text(TWO.replace("fake-two", "fake-bad").replace("2", "9"))
    loaded = host()
    assert loaded.problems == [
        "plugin fakevariants (fakevariants) is broken and was skipped: bad.toml: "
        "parameters.draw is 9; allowed: a whole number 1..3"
    ]
    assert "fake-two" not in loaded.games


def test_a_variant_named_like_an_installed_game_is_refused(package: Path) -> None:
    (package / "fake-two.toml").write_text(TWO.replace('"fake-two"', '"fake"'))
    (error,) = loaded_errors = [r.error for r in host().records if r.status == BROKEN]
    assert loaded_errors and "game 'fake' is provided by both" in error


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("fake_variants_missing", "ModuleNotFoundError: No module named 'fake_variants_missing'"),
        ("fake_variants", "its package fake_variants holds no .toml variant file"),
    ],
)
def test_a_package_without_variants_is_broken(package: Path, target: str, reason: str) -> None:
    (package / "fake-two.toml").unlink()
    assert record(host(target=target), "fakevariants").error == reason


def test_variant_distributions_are_blocked_like_plugins(package: Path) -> None:
    loaded = host({"PATIENCE_DISABLE_PLUGINS": "fakevariants"})
    assert record(loaded, "fakevariants").status == BLOCKED and "fake-two" not in loaded.games


def test_a_data_folder_file_is_blocked_by_its_stem(patience_data_dir: Path) -> None:
    folder = patience_data_dir / "variants"
    folder.mkdir(parents=True)
    (folder / "two.toml").write_text(TWO)
    environ = {"PATIENCE_DATA_DIR": str(patience_data_dir)}
    assert "fake-two" in host(environ, "nothing").games
    blocked = host({**environ, "PATIENCE_DISABLE_PLUGINS": "two"}, "nothing")
    assert "fake-two" not in blocked.games
    assert not [p for p in blocked.problems if "PATIENCE_DISABLE_PLUGINS" in p]


def test_a_data_folder_file_claiming_an_installed_name_is_skipped(patience_data_dir: Path) -> None:
    folder = patience_data_dir / "variants"
    folder.mkdir(parents=True)
    (folder / "mine.toml").write_text(TWO.replace('"fake-two"', '"fake"'))
    (folder / "two.toml").write_text(TWO)
    loaded = host({"PATIENCE_DATA_DIR": str(patience_data_dir)}, "nothing")
    assert loaded.game_class("fake").title == "Fake Patience"  # the plugin keeps its name
    assert "fake-two" in loaded.games  # the other file loads
    assert [p for p in loaded.problems if "mine.toml" in p] == [
        f"variant file {folder / 'mine.toml'} is broken and was skipped: game 'fake' is provided "
        f"by both {FAKE_PLUGIN} and {folder / 'mine.toml'}; keeping {FAKE_PLUGIN}"
    ]


def test_a_file_loaded_again_is_the_same_class(package: Path, patience_data_dir: Path) -> None:
    """A game made through one host is an instance of the class another host registered (the
    kit's search_for finds the family's search so)."""
    folder = patience_data_dir / "variants"
    folder.mkdir(parents=True)
    (folder / "three.toml").write_text(TWO.replace("fake-two", "fake-three"))
    environ = {"PATIENCE_DATA_DIR": str(patience_data_dir)}
    first, second = host(environ), host(environ)
    for name in ("fake-two", "fake-three"):
        assert first.game_class(name) is second.game_class(name)
