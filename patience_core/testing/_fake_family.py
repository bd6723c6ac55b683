"""A tiny game family, and the plugin that registers it with a deck of its own, for tests of
variant files and of the ``patience_register_policies`` hook with only patience-core installed.

:class:`FakeFamily` is :class:`~patience_core.testing.FakeGame` with two parameters: what an
empty tableau pile takes (an empty-pile policy by name) and how many stock cards a deal turns
(1..3). The plugin :data:`FAKE_FAMILY_PLUGIN` (this module) registers the family as ``fake`` and
a deck, ``fake-twelve`` (FakeGame's 12 cards), through ``patience_register_policies``; it
registers no game: variant files (``family = "fake"``) make the games. Like
:data:`~patience_core.testing.FAKE_PLUGIN`, it is never an entry point: tests load it through
the ``patience_extra_plugins`` fixture.
"""

from __future__ import annotations

from typing import ClassVar, cast

from patience_core import hookimpl
from patience_core.engine import EmptyPile, deal_round
from patience_core.families import POLICIES, Deck, Family, Parameter, PolicyRegistry
from patience_core.model import Card, Move, MoveKind, Position
from patience_core.testing._fake import STOCK, WASTE, FakeGame

__all__ = ["FAKE_FAMILY_PLUGIN", "FakeFamily", "patience_register_policies"]

#: The import path of the plugin that registers :class:`FakeFamily` and the ``fake-twelve``
#: deck (this module), for the ``patience_extra_plugins`` fixture.
FAKE_FAMILY_PLUGIN = __name__


class FakeFamily(FakeGame, Family):
    """The ``fake`` family: :class:`~patience_core.testing.FakeGame` with the parameters
    ``empty-piles`` (an empty-pile policy's name, default ``none``) and ``draw`` (stock cards a
    deal turns onto the waste, 1..3, default 1). Its variants have no options."""

    family = "fake"
    parameters = (
        Parameter("empty-piles", "empty", "none", "what an empty tableau pile takes"),
        Parameter("draw", "int", 1, "stock cards a deal turns onto the waste", low=1, high=3),
    )
    options = ()  # type: ignore[assignment]  # the family's parameters take the option's place
    empty_piles: ClassVar[str]
    draw: ClassVar[int]

    @property
    def empty(self) -> EmptyPile:
        """The ``empty-piles`` policy (an :class:`~patience_core.families.EmptyPolicy`, which
        the engine's building blocks take for its ``accepts``)."""
        return cast(EmptyPile, POLICIES.empty(self.empty_piles))

    def play(self, position: Position, move: Move) -> Position:
        """FakeGame's moves, a deal turning ``draw`` cards (fewer when the stock runs out)."""
        if move.kind is MoveKind.DEAL:
            for _ in range(min(self.draw, len(position[STOCK]))):
                position = deal_round(position, STOCK, (WASTE,), face_up=True)
            return position
        return super().play(position, move)


def _twelve() -> tuple[Card, ...]:
    return FakeGame().new_deck()


@hookimpl
def patience_register_policies(registry: PolicyRegistry) -> None:
    """Register the ``fake`` family and the ``fake-twelve`` deck."""
    registry.add(FakeFamily)
    registry.add(Deck("fake-twelve", _twelve, "Ace to Six of clubs and of hearts"))
