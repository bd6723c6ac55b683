"""The testing package."""

from __future__ import annotations

from patience_core.testing._checks import (
    check_deal,
    check_position,
    check_random_walk,
    load_game,
    provider_of,
    random_walk,
    walk_record,
)
from patience_core.testing._circle_checks import check_no_repeat
from patience_core.testing._conformance import ALL_DEAD_DEALS, GameConformance
from patience_core.testing._declared import DeclaredConformance
from patience_core.testing._fake import FAKE_PLUGIN, FakeGame
from patience_core.testing._fake_family import FAKE_FAMILY_PLUGIN, FakeFamily
from patience_core.testing._fixtures import (
    CliResult,
    patience_cli,
    patience_data_dir,
    patience_extra_plugins,
    patience_host,
    patience_main,
)
from patience_core.testing._golden import (
    assert_matches_golden,
    check_winning_line,
    play_winning_line,
    random_walk_property,
    read_golden,
)
from patience_core.testing._policy_checks import PolicyConformance, check_policy, policies_of
from patience_core.testing._search_checks import (
    SHORTCUTS,
    check_key_merges,
    check_search_space,
    plain_search,
    search_for,
)

__all__ = [
    "ALL_DEAD_DEALS",
    "FAKE_FAMILY_PLUGIN",
    "FAKE_PLUGIN",
    "SHORTCUTS",
    "CliResult",
    "DeclaredConformance",
    "FakeFamily",
    "FakeGame",
    "GameConformance",
    "PolicyConformance",
    "assert_matches_golden",
    "check_deal",
    "check_key_merges",
    "check_no_repeat",
    "check_policy",
    "check_position",
    "check_random_walk",
    "check_search_space",
    "check_winning_line",
    "load_game",
    "patience_cli",
    "patience_data_dir",
    "patience_extra_plugins",
    "patience_host",
    "patience_main",
    "plain_search",
    "play_winning_line",
    "policies_of",
    "provider_of",
    "random_walk",
    "random_walk_property",
    "read_golden",
    "search_for",
    "walk_record",
]
