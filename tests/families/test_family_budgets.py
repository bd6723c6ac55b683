"""Every family's search honours a budget in positions, on big variants too: it stops, says
undecided, and plays no more positions than it counts (a bound in positions, not seconds, so
the same on every machine). The klondike win finder once left out the deals that rank a
position's children: 4,618 positions played for 4,000 counted."""

from __future__ import annotations

from typing import Any

import pytest

from patience_core.engine import DealNumber
from patience_core.families import (
    Family,
    FreeCellFamily,
    GolfFamily,
    KlondikeFamily,
    SpiderFamily,
    make_variant,
)
from patience_core.model import Move, Position
from patience_core.solve import Budget, Verdict, solve

BIG: dict[str, tuple[type[Family], dict[str, object]]] = {
    "freecell-two-decks": (FreeCellFamily, {"cells": 10, "columns": 13, "deck": "two-decks"}),
    "freecell-ten-cells": (FreeCellFamily, {"cells": 10, "columns": 12, "build": "any-suit"}),
    "klondike-two-decks": (KlondikeFamily, {"columns": 9, "deck": "two-decks", "draw": 3}),
    "golf-two-decks": (GolfFamily, {"columns": 12, "depth": 8, "deck": "two-decks", "wrap": True}),
    "spider": (SpiderFamily, {}),
}
NODES = 3000
#: Positions one expansion may add past the budget (the search checks it between expansions).
SLACK = 200


@pytest.mark.parametrize("name", sorted(BIG))
def test_a_tiny_budget_in_positions_stops_a_big_variant(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    family, values = BIG[name]
    variant = make_variant(family, {"name": name, "title": name, **values})
    played = [0]
    own_play = variant.play

    def play(self: Any, position: Position, move: Move) -> Position:
        played[0] += 1
        return own_play(self, position, move)

    monkeypatch.setattr(variant, "play", play)
    game = variant(None)
    start = game.deal(DealNumber.parse("2"))
    solution = solve(game, start, Budget.asked(None, NODES), variant.search_class(game))
    if solution.verdict is Verdict.UNKNOWN:
        assert NODES <= solution.nodes <= NODES + SLACK
        # Searches through the rules play each position they count (compact ones play none).
        assert played[0] <= solution.nodes
    else:  # decided within the budget (a line won is replayed once more)
        assert solution.nodes <= NODES + SLACK
