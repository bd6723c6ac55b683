"""The plugin host with the test kit's plugin: the fake game is registered by a plugin object
given to the host (the ``patience_host`` fixture), never through an entry point."""

from __future__ import annotations

from importlib import metadata

import pytest

from patience_core.errors import BadOption, UnknownGame
from patience_core.plugins import ENTRY_POINT_GROUP, LOADED, PluginHost
from patience_core.testing import FAKE_PLUGIN, FakeGame


def test_the_host_holds_the_fake_game(patience_host: PluginHost) -> None:
    assert "fake" in patience_host.games
    assert patience_host.game_class("fake") is FakeGame
    assert patience_host.games.provider("fake") == FAKE_PLUGIN
    record = next(r for r in patience_host.records if r.distribution == FAKE_PLUGIN)
    assert record.status == LOADED and record.games == ("fake",)
    assert patience_host.problems == []


def test_the_host_makes_games_with_their_options(patience_host: PluginHost) -> None:
    game = patience_host.game("fake", {"empty-piles": "any"})
    assert isinstance(game, FakeGame) and game.option_values == {"empty-piles": "any"}
    with pytest.raises(BadOption):
        patience_host.game("fake", {"empty-piles": "all"})


def test_no_entry_point_names_the_kit_s_plugin() -> None:
    # So a user's `patience list` never shows the fake game.
    values = [ep.value for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)]
    assert not any(value.split(":")[0] == FAKE_PLUGIN for value in values)
    with pytest.raises(UnknownGame):
        PluginHost().load().game_class("fake")


def test_without_extra_plugins_the_host_holds_the_installed_ones_only() -> None:
    # What a plugin author's ``patience_host`` is (``patience_extra_plugins`` is empty there).
    installed = list(metadata.entry_points(group=ENTRY_POINT_GROUP))
    host = PluginHost(entry_points=installed).load()
    assert "fake" not in host.games


def test_a_plugin_of_the_kit_can_be_disabled_like_any_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATIENCE_DISABLE_PLUGINS", FAKE_PLUGIN)
    extra = metadata.EntryPoint(FAKE_PLUGIN, FAKE_PLUGIN, ENTRY_POINT_GROUP)
    host = PluginHost(entry_points=[extra]).load()
    assert "fake" not in host.games
    assert [r.status for r in host.records if r.distribution == FAKE_PLUGIN] == ["blocked"]
