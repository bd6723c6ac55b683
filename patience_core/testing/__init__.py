"""The testing package."""

from __future__ import annotations

from patience_core.testing._fake import FAKE_PLUGIN, FakeGame
from patience_core.testing._fixtures import (
    CliResult,
    patience_cli,
    patience_data_dir,
    patience_extra_plugins,
    patience_host,
)
from patience_core.testing._kit import (
    ALL_DEAD_DEALS,
    SHORTCUTS,
    GameConformance,
    assert_matches_golden,
    check_deal,
    check_key_merges,
    check_position,
    check_random_walk,
    check_search_space,
    check_winning_line,
    load_game,
    plain_game,
    play_winning_line,
    provider_of,
    random_walk_property,
    read_golden,
    walk_record,
)

__all__ = [
    "ALL_DEAD_DEALS",
    "FAKE_PLUGIN",
    "SHORTCUTS",
    "CliResult",
    "FakeGame",
    "GameConformance",
    "assert_matches_golden",
    "check_deal",
    "check_key_merges",
    "check_position",
    "check_random_walk",
    "check_search_space",
    "check_winning_line",
    "load_game",
    "patience_cli",
    "patience_data_dir",
    "patience_extra_plugins",
    "patience_host",
    "plain_game",
    "play_winning_line",
    "provider_of",
    "random_walk_property",
    "read_golden",
    "walk_record",
]
