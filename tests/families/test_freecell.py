"""The free-cell family: FreeCell declared in Python (the variant file is patience-classics'),
Microsoft deals card for card, the rules against the engine's building blocks, the generated
rules and refusals, other declarations (Eight Off, Seahaven-like, no auto-play, single cards),
the search's fast play, key and moves against the rules, and the conformance kit."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from patience_core.engine import (
    Build,
    DealNumber,
    EmptyPile,
    foundation_accepts,
    run_moves,
    supermove_limit,
)
from patience_core.families import FreeCellFamily, FreeCellSearch, make_variant, write_fcs
from patience_core.families._freecell_fast import summarise
from patience_core.model import Card, Move, Position, Rank, Suit
from patience_core.solve import Budget, Verdict, solve
from patience_core.testing import DeclaredConformance

GOLDEN = Path(__file__).parents[2] / "plugins" / "bakers-game" / "tests" / "data" / "ms-deals.txt"


class FreeCell(FreeCellFamily):
    """FreeCell: the family's defaults, with Microsoft deal numbers."""

    name = "freecell"
    title = "FreeCell"
    ms_deals = True


class EightOff(FreeCellFamily):
    name = "eight-off"
    title = "Eight Off"
    cells = 8
    cells_dealt = 4
    build = "same-suit"
    empty_columns = "kings"
    lift = "single"


class Seahaven(FreeCellFamily):
    name = "seahaven-like"
    title = "Seahaven-like"
    columns = 10
    cells_dealt = 2
    build = "same-suit"
    empty_columns = "kings"
    supermove = "cells"


class Manual(FreeCellFamily):
    name = "freecell-manual"
    title = "FreeCell (no auto-play)"
    auto_play = "none"


def ms_golden() -> dict[int, str]:
    """``make-microsoft-freecell-board -t N`` output by N."""
    blocks: dict[int, str] = {}
    number = 0
    for line in GOLDEN.read_text().splitlines():
        if line.startswith("# deal=ms:"):
            number = int(line.removeprefix("# deal=ms:"))
            blocks[number] = ""
        elif number and line and not line.startswith("#"):
            blocks[number] += line + "\n"
    return blocks


@pytest.mark.parametrize(("number", "board"), sorted(ms_golden().items()))
def test_ms_deals_are_microsofts(number: int, board: str) -> None:
    game = FreeCell()
    assert write_fcs(game, game.deal(DealNumber(number, "ms"))) == board


def blocks_legal_moves(game: FreeCell, position: Position) -> list[Move]:
    """FreeCell's legal moves from the engine's building blocks (an independent statement)."""
    if game.is_won(position):
        return []
    sources = game.sources
    moves = []
    for source in sources:
        pile = position[source]
        homes = [
            f for f in game.foundation_piles if pile and foundation_accepts(pile[-1], position[f])
        ]
        moves += [Move.transfer(source, homes[0])] if homes else []
    free = sum(1 for i in game.cell_piles if not position[i])

    def max_run(target: int) -> int:
        return supermove_limit(
            free, sum(1 for i in game.column_piles if i != target and not position[i])
        )

    alternate = Build.ALTERNATE_COLOURS
    moves += run_moves(position, sources, game.column_piles, lift=alternate, drop=alternate,
                       empty=EmptyPile.ANY, max_run=max_run)  # fmt: skip
    cells = [i for i in game.cell_piles if not position[i]]
    return moves + [Move.transfer(s, c) for s in sources if position[s] for c in cells]


def walk(game: FreeCellFamily, seed: int, steps: int) -> list[Position]:
    rand = random.Random(seed)
    found = []
    for number in range(1, 9):
        position = game.deal(DealNumber(number, "ms") if game.ms_deals else DealNumber(number))
        for _ in range(steps):
            found.append(position)
            legal = game.legal_moves(position)
            if not legal:
                break
            foundation = [m for m in legal if m.target in game.foundation_piles]
            position = game.play(position, (foundation or legal)[0] if rand.random() < 0.3
                                 else rand.choice(legal))  # fmt: skip
    return found


def test_legal_moves_equal_the_building_blocks() -> None:
    game = FreeCell()
    for position in walk(game, 3, 60):
        assert game.legal_moves(position) == blocks_legal_moves(game, position)


@pytest.mark.parametrize("declared", [FreeCell, EightOff, Seahaven, Manual])
def test_fast_play_key_and_moves_equal_the_rules(declared: type[FreeCellFamily]) -> None:
    """The search's play equals the rules' play (summary carried equal to a fresh one), and
    every legal move's result has the key of the position or of a tried move's result."""
    game = declared()
    search = declared.search_class(game)
    assert isinstance(search, FreeCellSearch)
    for position in walk(game, 5, 40)[::3]:
        kept = search.moves_to_try(position)
        reached = {search.key(position)} | {search.key(game.play(position, m)) for m in kept}
        for move in game.legal_moves(position):
            played = search.play(position, move)
            assert played == game.play(position, move)
            assert summarise(search.shape, played.piles) == summarise(
                search.shape, tuple(played.piles)
            )
            assert search.key(played) in reached


def test_layouts_follow_the_declaration() -> None:
    eight = EightOff().deal(DealNumber(1))
    assert [len(eight[i]) for i in range(8)] == [1, 1, 1, 1, 0, 0, 0, 0]
    assert [len(p) for p in eight.piles[12:]] == [6] * 8
    sea = Seahaven().deal(DealNumber(1))
    assert [len(p) for p in sea.piles[:4]] == [1, 1, 0, 0]
    assert [len(p) for p in sea.piles[8:]] == [5] * 10
    assert "t1-t4 hold 7 cards, t5-t8 hold 6" in FreeCell.rules
    assert "ms:N" in FreeCell.rules and "ms:N" not in Seahaven.rules
    assert "one card moves at a time" in EightOff.rules.replace("\n", " ")


def test_safe_auto_play_waits_for_the_cards_that_could_go_on_a_card() -> None:
    game = FreeCell()
    ace = {s: Card.of(Rank.ACE, s) for s in Suit}
    two_hearts = Card.of(2, Suit.HEARTS)
    empty: list[tuple[Card, ...]] = [()] * 16
    position = Position((*empty[:4], (ace[Suit.HEARTS],), *empty[5:]))
    assert not game.is_safe_home(position, two_hearts)  # the black Aces are still out
    home = [(ace[Suit.HEARTS],), (ace[Suit.CLUBS],), (ace[Suit.SPADES],), ()]
    position = Position((*empty[:4], *home, *empty[8:]))
    assert game.is_safe_home(position, two_hearts)


def test_refusals_name_the_family_rules() -> None:
    game = FreeCell()
    start = game.deal(DealNumber(1, "ms"))
    t1, t2 = game.column_piles[:2]
    assert game.why_illegal(start, Move.transfer(t1, t2)) == (
        "FreeCell builds down in alternate colours: 6♠ goes on 7♦ or 7♥, not 9♣"
    )
    assert EightOff().why_illegal(EightOff().deal(DealNumber(1)), Move.transfer(12, 13, 2)) in (
        "one card moves at a time",
        "only 1 cards may move at once now (free cells and empty columns)",
    )


def test_declarations_are_checked() -> None:
    with pytest.raises(ValueError, match=r"cells is 11; allowed: a whole number 0\.\.10"):
        make_variant(FreeCellFamily, {"name": "x", "title": "X", "cells": 11})
    wide = make_variant(
        FreeCellFamily, {"name": "x", "title": "X", "columns": 10, "ms-deals": True}
    )
    assert "ms-deals" in (wide.declaration_problem() or "")
    assert make_variant(FreeCellFamily, {"name": "y", "title": "Y"}).declaration_problem() is None


def test_without_auto_play_safe_cards_are_forced_moves() -> None:
    game = Manual()
    search = Manual.search_class(game)
    ace = Card.of(Rank.ACE, Suit.SPADES)
    piles: list[tuple[Card, ...]] = [()] * 16
    piles[8] = (Card.of(5, Suit.HEARTS), ace)
    assert search.forced_move(Position(tuple(piles))) == Move.transfer(8, 4)
    assert FreeCell.search_class(FreeCell()).forced_move(Position(tuple(piles))) is None


@pytest.mark.parametrize("number", [1, 2, 3, 5, 6])
def test_freecell_ms_deals_are_won(number: int) -> None:
    game = FreeCell()
    position = game.deal(DealNumber(number, "ms"))
    solution = solve(game, position, Budget(seconds=20), FreeCell.search_class(game))
    assert solution.verdict is Verdict.WON
    for move in solution.moves:
        position = game.apply(position, move)
    assert game.is_won(position)


@pytest.mark.slow
def test_freecell_ms_deal_sample_is_won() -> None:
    """Every Microsoft deal of 1..1000 is solvable (Freecell Solver); a sample of them here,
    the whole range in benchmarks/freecell_msdeals.py."""
    game = FreeCell()
    search = FreeCell.search_class(game)
    for number in (4, 9, 12, 100, 250, 617, 999):
        solution = solve(game, game.deal(DealNumber(number, "ms")), Budget(seconds=30), search)
        assert solution.verdict is Verdict.WON, number


class _Declared(DeclaredConformance):
    """The kit on a declaration no installed plugin registers: the checks that load it by name
    (discovery, other processes, saved games, the command line) are left out."""

    declared = FreeCell


class TestFreeCellConformance(_Declared):
    game = "freecell"


class TestEightOffConformance(_Declared):
    game = "eight-off"
    declared = EightOff
