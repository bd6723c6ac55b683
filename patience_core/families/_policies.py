"""The named building blocks families are declared with: build policies, empty-pile policies,
pile kinds, decks, and the families themselves.

Layer 3½ (above :mod:`patience_core.games`). A family declaration or a variant file names its
policies by text (``build = "alternate-colours"``); :data:`POLICIES` turns the names into the
objects the family's rules and search call, and a variant file's ``family`` into its
:class:`~patience_core.families.Family` class. Plugins add their own through the
``patience_register_policies`` hook (:mod:`patience_core.plugins.hookspecs`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from patience_core.engine import Build, EmptyPile, builds_on, standard_deck
from patience_core.errors import PluginError, shown
from patience_core.model import Card, Rank, Suit

if TYPE_CHECKING:
    from patience_core.families._base import Family

__all__ = [
    "CORE",
    "POLICIES",
    "POLICY_NAME",
    "BuildPolicy",
    "Deck",
    "EmptyPolicy",
    "PileRule",
    "PolicyRegistry",
]

#: The provider of the built-in policies (the distribution name of patience itself).
CORE = "patience-core"
#: A policy's or family's name: lower-case words joined by hyphens (``two-decks``).
POLICY_NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


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


@attrs.frozen
class PileRule:
    """A pile kind: how a pile that is not a tableau column nor a foundation behaves (a free
    cell, a reserve), for families that let a variant choose it (a parameter of kind ``pile``).

    :param name: the name a declaration uses, e.g. ``"free-cell"``.
    :param capacity: the most cards the pile holds (``0``: no limit).
    :param accepts: ``accepts(card, pile)``: whether face-up ``card`` may be put on the pile
        now holding ``pile`` (its cards, bottom first; never at capacity when asked).
    :param text: how the rules text says it, e.g. ``"holds one card, any card"``.
    """

    name: str
    capacity: int
    accepts: Callable[[Card, tuple[Card, ...]], bool]
    text: str


def _build(build: Build) -> Callable[[Card, Card], bool]:
    return lambda card, onto: builds_on(card, onto, build)


def _suits(suits: tuple[Suit, ...], copies: int) -> Callable[[], tuple[Card, ...]]:
    """A deck of ``copies`` runs A..K of each of ``suits``, in Aisleriot's order (suit by suit,
    Ace to King, the copies after one another)."""
    return lambda: tuple(
        Card.of(rank, suit) for _ in range(copies) for suit in suits for rank in Rank
    )


#: The kinds of named thing a :class:`PolicyRegistry` holds: its table attribute by kind, and
#: how messages and ``patience variant check`` call one of that kind.
KINDS: dict[str, tuple[str, str]] = {
    "build": ("builds", "build policy"),
    "empty": ("empties", "empty-pile policy"),
    "pile": ("piles", "pile kind"),
    "deck": ("decks", "deck"),
    "family": ("families", "family"),
}


def _kind_of(item: object) -> str | None:
    """The kind of ``item`` (a key of :data:`KINDS`), or ``None`` for something else."""
    for kind, cls in (("build", BuildPolicy), ("empty", EmptyPolicy), ("pile", PileRule),
                      ("deck", Deck)):  # fmt: skip
        if isinstance(item, cls):
            return kind
    if not isinstance(item, type):
        return None
    # Imported here: the built-in policies are made while _base imports this module.
    from patience_core.families._base import Family

    return "family" if issubclass(item, Family) and "family" in item.__dict__ else None


@attrs.define
class PolicyRegistry:
    """The named policies, pile kinds, decks and families of this run: the built-in ones, then
    plugins' own (hook ``patience_register_policies``).

    Names are unique per kind, whoever registers them: a second :meth:`add` of a name is refused
    with a :class:`~patience_core.errors.PluginError` naming both providers (the plugin host
    reports it as that plugin's fault, and the plugin is skipped).
    """

    builds: dict[str, BuildPolicy] = attrs.field(factory=dict)
    empties: dict[str, EmptyPolicy] = attrs.field(factory=dict)
    piles: dict[str, PileRule] = attrs.field(factory=dict)
    decks: dict[str, Deck] = attrs.field(factory=dict)
    #: Family classes by their ``family`` name (what a variant file's ``family`` names).
    families: dict[str, type[Family]] = attrs.field(factory=dict)
    #: Who registered each name: ``(kind, name)`` to a distribution name.
    providers: dict[tuple[str, str], str] = attrs.field(factory=dict)
    #: The distribution whose hook is running now; the plugin host sets it.
    current_plugin: str = CORE

    def add(self, policy: BuildPolicy | EmptyPolicy | PileRule | Deck | type[Family]) -> None:
        """Register ``policy`` under its name: a :class:`BuildPolicy`, :class:`EmptyPolicy`,
        :class:`PileRule`, :class:`Deck`, or a :class:`~patience_core.families.Family` subclass
        that sets ``family`` (a family of its own, which variant files may then name).

        :raises PluginError: for anything else, a name that is not lower-case words joined by
            hyphens, or a name taken for its kind.
        """
        kind = _kind_of(policy)
        if kind is None:
            raise PluginError(
                f"{shown(policy)} is no BuildPolicy, EmptyPolicy, PileRule, Deck or Family class"
            )
        name = policy.family if kind == "family" else policy.name  # type: ignore[union-attr]
        what = KINDS[kind][1]
        if not (isinstance(name, str) and POLICY_NAME.match(name)):
            raise PluginError(
                f"a {what} named {shown(name)}: a name is lower-case words joined by hyphens"
            )
        table: dict[str, Any] = getattr(self, KINDS[kind][0])
        if name in table:
            keeper = self.providers[kind, name]
            raise PluginError(
                f"{what} {name!r} is provided by both {keeper} and {self.current_plugin}; "
                f"keeping {keeper}"
            )
        table[name] = policy
        self.providers[kind, name] = self.current_plugin

    def names(self, kind: str) -> tuple[str, ...]:
        """The registered names of ``kind`` (a key of :data:`KINDS`), in registration order."""
        return tuple(getattr(self, KINDS[kind][0]))

    def remove_provider(self, distribution: str) -> None:
        """Forget everything ``distribution`` registered (a plugin that failed half way)."""
        for (kind, name), provider in list(self.providers.items()):
            if provider == distribution:
                del getattr(self, KINDS[kind][0])[name]
                del self.providers[kind, name]

    def reset(self) -> None:
        """Forget every plugin's registrations, keeping the built-in ones: the plugin host calls
        it before the plugins of a run register theirs."""
        for provider in {p for p in self.providers.values() if p != CORE}:
            self.remove_provider(provider)
        self.current_plugin = CORE

    def build(self, name: str) -> BuildPolicy:
        """The build policy ``name``. :raises KeyError: for an unknown name."""
        return self.builds[name]

    def empty(self, name: str) -> EmptyPolicy:
        """The empty-pile policy ``name``. :raises KeyError: for an unknown name."""
        return self.empties[name]

    def pile(self, name: str) -> PileRule:
        """The pile kind ``name``. :raises KeyError: for an unknown name."""
        return self.piles[name]

    def deck(self, name: str) -> Deck:
        """The deck ``name``. :raises KeyError: for an unknown name."""
        return self.decks[name]

    def family(self, name: str) -> type[Family]:
        """The family class ``name``. :raises KeyError: for an unknown name."""
        return self.families[name]


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
        PileRule("free-cell", 1, lambda card, pile: not pile, "holds one card, any card"),
        PileRule("reserve", 0, lambda card, pile: False,
                 "takes no card: its cards, dealt there, only leave it"),
        Deck("standard", standard_deck, "one 52-card deck"),
        Deck("two-decks", _suits(tuple(Suit), 2), "two 52-card decks"),
        Deck("two-decks-two-suits", _suits((Suit.HEARTS, Suit.SPADES), 4),
             "104 cards of two suits (hearts and spades)"),
        Deck("two-decks-one-suit", _suits((Suit.SPADES,), 8), "104 spades"),
    ):  # fmt: skip
        registry.add(policy)
    return registry


#: The policies, pile kinds and decks every family and variant file may name, and the families
#: a variant file may name; the plugin host adds plugins' own (hook
#: ``patience_register_policies``) before games register. The core's families are added by
#: :mod:`patience_core.families` when it is imported.
POLICIES: PolicyRegistry = _builtins()
