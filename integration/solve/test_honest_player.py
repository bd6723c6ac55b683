"""The honest player with the shipped games: with nothing face down it never plays into a
position the dead check proves dead while another move is not proved dead."""

from __future__ import annotations

import math

import attrs
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


def test_the_honest_player_gives_up_after_moves_without_progress() -> None:
    """Without ``stall_moves`` a game never proved dead could be played on for the whole move
    cap, moving cards about (Diamond Mine deal 30 went on for minutes); with it the player
    resigns ("stopped") at the first position reached that many moves after its last
    progress (a new best score, card turned up or empty pile), and never plays on past it.
    Spiderette deal 31 with tiny budgets (so the dead check proves nothing) and a stall of 3."""
    from patience_core.solve._playout import progress

    host = PluginHost()
    host.load()
    game = host.game("spiderette", {})
    search = search_for(game)
    start = game.deal(DealNumber(31))
    budget = HonestBudget(samples=4, nodes=100, dead_nodes=100, stall_moves=3, play_on=False)
    play = play_honestly(game, start, budget, max_moves=300, search=search)
    best, since, position = progress(game, start), 0, start
    for move in play.moves:
        assert since < budget.stall_moves  # it would have resigned here
        position = game.play(position, move)
        now = progress(game, position)
        best, since = (now, 0) if now > best else (best, since + 1)
    assert play.outcome == "stopped"
    assert since == budget.stall_moves
    # With play_on it plays on for points from there, as after a proof of dead (its progress
    # can set it going again), then resigns: "stopped", or "dead" if proved on the way.
    on = play_honestly(game, start, attrs.evolve(budget, play_on=True), 300, search)
    assert on.moves[: len(play.moves)] == play.moves
    assert len(on.moves) > len(play.moves)
    assert on.outcome in ("stopped", "dead")


def test_the_same_cards_in_other_free_cells_are_the_same_position() -> None:
    """Free cells are interchangeable: a move whose result differs from a position seen only by
    which free cell holds which card leads back (Baker's Game deal 20's honest player moved
    cards between cells and columns for 116 moves, each position new by its cells)."""
    from patience_core.model import Move, PileKind
    from patience_core.solve import circle_form
    from patience_core.solve._circles import leads_back, seen_positions

    host = PluginHost()
    host.load()
    game = host.game("bakers-game", {})
    search = search_for(game)
    cells = [i for i, spec in enumerate(game.piles) if spec.kind is PileKind.FREE_CELL]
    position = game.deal(DealNumber(20))

    def to_a_cell(position: Position) -> Move:
        legal = game.legal_moves(position)
        return next(m for m in legal if m.target in cells and m.source not in cells)

    for _ in range(2):  # two cards into free cells
        position = game.play(position, to_a_cell(position))
    # A card moved from one free cell to another changes nothing a player cares about.
    shift = next(m for m in game.legal_moves(position) if {m.source, m.target} <= set(cells))
    assert leads_back(search, position, shift, seen_positions(game, [position]))
    move = to_a_cell(position)
    after = game.play(position, move)
    piles = list(after.piles)
    filled = [i for i in cells if piles[i]]
    piles[filled[0]], piles[cells[-1]] = piles[cells[-1]], piles[filled[0]]
    swapped = Position(tuple(piles))
    assert swapped != after
    assert circle_form(game, swapped) == circle_form(game, after)
    assert leads_back(search, position, move, seen_positions(game, [swapped]))
    assert not leads_back(search, position, move, seen_positions(game, [position]))
