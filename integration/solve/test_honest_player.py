"""The honest player with the shipped games: with nothing face down it never plays into a
position the dead check proves dead while another move is not proved dead."""

from __future__ import annotations

import math

import pytest

from patience_core.engine import DealNumber
from patience_core.model import Position
from patience_core.plugins import PluginHost
from patience_core.solve import HonestBudget, Solution, Verdict, dead_check, play_honestly
from patience_core.testing import search_for


@pytest.mark.slow
def test_bakers_game_deal_30_is_not_played_into_a_dead_position() -> None:
    """Baker's Game (kings) deal 30: the samples of 1,000 positions leave every move undecided
    where the expected-score ranking once chose a move whose result a 20,000-position search
    proves dead; the deal is winnable, and the player must not lose it so (at move 25 every
    move on is proved dead and the others lead back: it must go back, not on)."""
    host = PluginHost()
    host.load()
    game = host.game("bakers-game", {})
    search = search_for(game)
    position = game.deal(DealNumber(30))
    budget = HonestBudget()
    play = play_honestly(game, position, budget, search=search)
    assert play.outcome != "dead"
    if play.outcome == "won":
        # The player ran this same dead check (same budget, no clock) on every position it
        # moved from and none was proved dead, so no move went into a dead position.
        return
    known: dict[Position, Solution] = {}  # a won line found once answers along it
    for move in play.moves:
        before = position
        position = game.play(position, move)
        check = dead_check(game, position, math.inf, budget.dead_nodes, known, search)
        if check.verdict is not Verdict.DEAD:
            continue
        # Into a dead position only when every other move's result is proved dead too.
        for other in game.legal_moves(before):
            after = game.play(before, other)
            check = dead_check(game, after, math.inf, budget.dead_nodes, known, search)
            assert check.verdict is Verdict.DEAD
