"""Klondike (patience-classics) by the honest player: no see-saw of a foundation card.

The case: on deal 1 the honest player moved the Ace of spades t5 -> f1, back onto t5 after a
deal, then to f2, and so on, each position new by its stock or its foundation's name (so the
rule against positions seen did not stop it), at about 3 CPU seconds a move.
"""

from __future__ import annotations

import pytest

from patience_core.engine import DealNumber
from patience_core.model import PileKind
from patience_core.plugins import PluginHost
from patience_core.solve import HonestPlayer


@pytest.mark.slow
def test_the_honest_player_takes_no_foundation_card_back_to_no_purpose() -> None:
    host = PluginHost().load()
    game = host.game("klondike", {})
    search = host.search(game)
    player = HonestPlayer(game, search=search)
    position = game.deal(DealNumber(1))
    for _ in range(8):
        legal = game.legal_moves(position)
        move = player.choose(position, legal)
        assert move is not None
        assert move.target is None or game.piles[move.source].kind is not PileKind.FOUNDATION
        position = game.play(position, move)
    assert game.score(position) >= 1  # the Ace stays up
