"""The ``patience_register_policies`` hook: a plugin's policies, pile kinds, decks and families,
registered before any plugin's games; a name clash or a failing hook is that plugin's fault."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from patience_core import hookimpl
from patience_core.families import (
    POLICIES,
    BuildPolicy,
    Deck,
    EmptyPolicy,
    PileRule,
    PolicyRegistry,
    make_variant,
)
from patience_core.games import GameRegistry
from patience_core.model import Card, Rank, Suit
from patience_core.plugins import BROKEN, LOADED, PluginHost
from patience_core.testing import FAKE_FAMILY_PLUGIN, FakeFamily, PolicyConformance

FAMILY = importlib.import_module(FAKE_FAMILY_PLUGIN)


def _piquet() -> tuple[Card, ...]:
    return tuple(Card.of(r, s) for s in Suit for r in Rank if r == Rank.ACE or r >= 7)


def _down_by_two(card: Card, onto: Card) -> bool:
    return card.face_up and onto.face_up and card.rank + 2 == onto.rank


class Piquet:
    """Registers a deck, a build policy, an empty-pile policy and a pile kind."""

    @hookimpl
    def patience_register_policies(self, registry: PolicyRegistry) -> None:
        registry.add(Deck("piquet", _piquet, "a 32-card piquet deck"))
        registry.add(BuildPolicy("down-by-two", _down_by_two, "down by two"))
        registry.add(EmptyPolicy("aces", lambda card: card.rank == Rank.ACE, "only an Ace"))
        registry.add(PileRule("two-cells", 2, lambda card, pile: len(pile) < 2, "two cards"))


class AcesGame:
    """Registers a variant of the fake family whose empty piles take what Piquet adds."""

    @hookimpl
    def patience_register_games(self, registry: GameRegistry) -> None:
        values = {"name": "fake-aces", "title": "Fake Aces", "empty-piles": "aces"}
        registry.add(make_variant(FakeFamily, values))


def host(**plugins: Any) -> PluginHost:
    return PluginHost(entry_points=[], plugins=plugins, environ={}).load()


def record(loaded: PluginHost, distribution: str) -> Any:
    return next(r for r in loaded.records if r.distribution == distribution)


def test_a_plugin_registers_a_deck_policies_and_a_pile_kind() -> None:
    loaded = host(piquet=Piquet())
    assert record(loaded, "piquet").status == LOADED
    assert len(POLICIES.deck("piquet").cards()) == 32
    assert POLICIES.build("down-by-two").text == "down by two"
    assert POLICIES.pile("two-cells").capacity == 2
    assert POLICIES.providers["empty", "aces"] == "piquet"


def test_policies_register_before_any_game() -> None:
    """A game of one plugin names a policy of a plugin loaded after it (by distribution name)
    and a family of a third."""
    loaded = host(**{"a-games": AcesGame(), "z-piquet": Piquet(), FAKE_FAMILY_PLUGIN: FAMILY})
    assert not loaded.problems
    assert record(loaded, "a-games").games == ("fake-aces",)
    game = loaded.game("fake-aces")
    assert game.empty.accepts(Card.of(Rank.ACE, Suit.CLUBS))


def test_each_host_starts_from_the_built_in_policies() -> None:
    host(piquet=Piquet())
    host()
    assert "piquet" not in POLICIES.decks and "fake" not in POLICIES.families
    assert "two-decks" in POLICIES.decks


def test_a_name_taken_by_patience_is_the_plugin_s_fault() -> None:
    class Clash:
        @hookimpl
        def patience_register_policies(self, registry: PolicyRegistry) -> None:
            registry.add(Deck("piquet-too", _piquet, "fine"))
            registry.add(Deck("two-decks", _piquet, "a rival"))

    loaded = host(clash=Clash())
    assert record(loaded, "clash").status == BROKEN
    assert loaded.problems == [
        "plugin clash (clash) is broken and was skipped: deck 'two-decks' is provided by both "
        "patience-core and clash; keeping patience-core"
    ]
    assert "piquet-too" not in POLICIES.decks  # a broken plugin keeps nothing
    assert POLICIES.providers["deck", "two-decks"] == "patience-core"


def test_the_first_plugin_keeps_a_name() -> None:
    class Rival:
        @hookimpl
        def patience_register_policies(self, registry: PolicyRegistry) -> None:
            registry.add(Deck("piquet", _piquet, "another piquet"))

    loaded = host(**{"a-piquet": Piquet(), "b-rival": Rival()})
    assert [record(loaded, d).status for d in ("a-piquet", "b-rival")] == [LOADED, BROKEN]
    assert "deck 'piquet' is provided by both a-piquet and b-rival; keeping a-piquet" in (
        record(loaded, "b-rival").error
    )


def test_a_failing_hook_or_a_bad_name_is_one_line() -> None:
    class Failing:
        @hookimpl
        def patience_register_policies(self, registry: PolicyRegistry) -> None:
            registry.add(Deck("fine", _piquet, "fine"))
            raise RuntimeError("no decks today\nsecond line")

    class BadName:
        @hookimpl
        def patience_register_policies(self, registry: PolicyRegistry) -> None:
            registry.add(Deck("Two Decks", _piquet, "a deck"))

    class NotAPolicy:
        @hookimpl
        def patience_register_policies(self, registry: PolicyRegistry) -> None:
            registry.add("two-decks")  # type: ignore[arg-type]

    loaded = host(failing=Failing(), badname=BadName(), notapolicy=NotAPolicy())
    assert [r.error for r in loaded.records[1:]] == [
        "a deck named 'Two Decks': a name is lower-case words joined by hyphens",
        "RuntimeError: no decks today",
        "'two-decks' is no BuildPolicy, EmptyPolicy, PileRule, Deck or Family class",
    ]
    assert "fine" not in POLICIES.decks


def test_a_plugin_broken_in_its_games_keeps_no_policy() -> None:
    class Half:
        @hookimpl
        def patience_register_policies(self, registry: PolicyRegistry) -> None:
            registry.add(Deck("half", _piquet, "half"))

        @hookimpl
        def patience_register_games(self, registry: GameRegistry) -> None:
            raise RuntimeError("no games")

    loaded = host(half=Half())
    assert record(loaded, "half").status == BROKEN
    assert "half" not in POLICIES.decks


class TestPiquetConformance(PolicyConformance):
    """The conformance kit's policy checks over a test plugin, and over the fake family's."""

    distribution = "tests.plugins.test_policies_hook:PIQUET"
    extra_plugins = ("tests.plugins.test_policies_hook:PIQUET",)


class TestFakeFamilyConformance(PolicyConformance):
    distribution = FAKE_FAMILY_PLUGIN
    extra_plugins = (FAKE_FAMILY_PLUGIN,)


PIQUET = Piquet()


def test_the_kit_finds_a_wrong_policy() -> None:
    from patience_core.testing import check_policy

    with pytest.raises(AssertionError, match="not True or False"):
        check_policy(BuildPolicy("odd", lambda c, o: 1, "odd"))  # type: ignore[arg-type,return-value]
    with pytest.raises(AssertionError, match="fits a face-down card"):
        check_policy(BuildPolicy("blind", lambda c, o: True, "anything"))
    with pytest.raises(AssertionError, match="face-up cards"):
        check_policy(Deck("down", lambda: tuple(c.turned(False) for c in _piquet()), "down"))
    with pytest.raises(AssertionError, match="3 cards"):
        check_policy(Deck("tiny", lambda: _piquet()[:3], "tiny"))
    with pytest.raises(AssertionError, match="one line"):
        check_policy(EmptyPolicy("long", lambda card: True, "two\nlines"))
    with pytest.raises(AssertionError, match="capacity"):
        check_policy(PileRule("neg", -1, lambda card, pile: True, "negative"))


def test_the_built_in_policies_and_families_pass_the_kit() -> None:
    from patience_core.testing import check_policy, policies_of

    host()
    built_in = policies_of("patience-core")
    assert len(built_in) >= 13
    for policy in built_in:
        check_policy(policy)
