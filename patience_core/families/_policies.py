"""The named building blocks families are declared with: build policies, empty-pile policies
and decks.

Layer 3½ (above :mod:`patience_core.games`). A family declaration or a variant file names its
policies by text (``build = "alternate-colours"``); :data:`POLICIES` turns the names into the
objects the family's rules and search call. Plugins add their own through the
``patience_register_policies`` hook (:mod:`patience_core.plugins.hookspecs`).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from patience_core.engine import Build, EmptyPile, builds_on, standard_deck
from patience_core.model import Card, Rank, Suit

__all__ = ["POLICIES", "BuildPolicy", "Deck", "EmptyPolicy", "PolicyRegistry"]


@attrs.frozen
class BuildPolicy:
    """Which card may go on which when building down (or up) a tableau pile.

    :param name: the name a declaration uses, e.g. ``"alternate-colours"``.
    :param fits: ``fits(card, onto)``: whether face-up ``card`` may go on face-up ``onto``;
        called in the move generator's inner loop, so keep it cheap.
    :param text: how the rules text says it, e.g. ``"down in alternate colours"``.
    """

    name: str
    fits: Callable[[Card, Card], bool]
    text: str


@attrs.frozen
class EmptyPolicy:
    """What an empty tableau pile accepts.

    :param name: the name a declaration uses, e.g. ``"kings"``.
    :param accepts: ``accepts(card)``: whether a run whose bottom card is ``card`` may fill it.
    :param text: how the rules text says it, e.g. ``"only a King or a run from a King"``.
    """

    name: str
    accepts: Callable[[Card], bool]
    text: str


@attrs.frozen
class Deck:
    """A deck of cards.

    :param name: the name a declaration uses, e.g. ``"two-decks"``.
    :param cards: ``cards()``: the unshuffled deck in Aisleriot's order, face up.
    :param text: how the rules text says it, e.g. ``"two 52-card decks"``.
    """

    name: str
    cards: Callable[[], tuple[Card, ...]]
    text: str


def _build(build: Build) -> Callable[[Card, Card], bool]:
    return lambda card, onto: builds_on(card, onto, build)


def _suits(suits: tuple[Suit, ...], copies: int) -> Callable[[], tuple[Card, ...]]:
    """A deck of ``copies`` runs A..K of each of ``suits``, in Aisleriot's order (suit by suit,
    Ace to King, the copies after one another)."""
    return lambda: tuple(
        Card.of(rank, suit) for _ in range(copies) for suit in suits for rank in Rank
    )


@attrs.define
class PolicyRegistry:
    """The named policies and decks of this run: the built-in ones, then plugins' own.

    Names are unique per kind; a second :meth:`add` of a name raises ``ValueError`` (the plugin
    host reports it as that plugin's fault).
    """

    builds: dict[str, BuildPolicy] = attrs.field(factory=dict)
    empties: dict[str, EmptyPolicy] = attrs.field(factory=dict)
    decks: dict[str, Deck] = attrs.field(factory=dict)

    def add(self, policy: BuildPolicy | EmptyPolicy | Deck) -> None:
        """Register ``policy`` under its name.

        :raises ValueError: when the name is taken for its kind.
        """
        table: dict[str, object] = (
            self.builds  # type: ignore[assignment]
            if isinstance(policy, BuildPolicy)
            else self.empties
            if isinstance(policy, EmptyPolicy)
            else self.decks
        )
        if policy.name in table:
            raise ValueError(f"a {type(policy).__name__} named {policy.name!r} exists already")
        table[policy.name] = policy

    def build(self, name: str) -> BuildPolicy:
        """The build policy ``name``. :raises KeyError: for an unknown name."""
        return self.builds[name]

    def empty(self, name: str) -> EmptyPolicy:
        """The empty-pile policy ``name``. :raises KeyError: for an unknown name."""
        return self.empties[name]

    def deck(self, name: str) -> Deck:
        """The deck ``name``. :raises KeyError: for an unknown name."""
        return self.decks[name]


def _builtins() -> PolicyRegistry:
    registry = PolicyRegistry()
    for policy in (
        BuildPolicy("same-suit", _build(Build.SAME_SUIT), "down in suit"),
        BuildPolicy("alternate-colours", _build(Build.ALTERNATE_COLOURS),
                    "down in alternate colours"),
        BuildPolicy("any-suit", _build(Build.ANY_SUIT), "down regardless of suit"),
        BuildPolicy("none", lambda card, onto: False, "not at all"),
        EmptyPolicy("any", EmptyPile.ANY.accepts, "any card or run"),
        EmptyPolicy("kings", EmptyPile.KINGS.accepts, "only a King or a run from a King"),
        EmptyPolicy("none", EmptyPile.NONE.accepts, "nothing"),
        Deck("standard", standard_deck, "one 52-card deck"),
        Deck("two-decks", _suits(tuple(Suit), 2), "two 52-card decks"),
        Deck("two-decks-two-suits", _suits((Suit.HEARTS, Suit.SPADES), 4),
             "104 cards of two suits (hearts and spades)"),
        Deck("two-decks-one-suit", _suits((Suit.SPADES,), 8), "104 spades"),
    ):  # fmt: skip
        registry.add(policy)
    return registry


#: The policies and decks every family and variant file may name; the plugin host adds plugins'
#: own (hook ``patience_register_policies``) before games register.
POLICIES: PolicyRegistry = _builtins()
