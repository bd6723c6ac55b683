"""The spider family: Aisleriot's deals card for card (Spider with each deck option, and
Spiderette declared on the family), the deal rule, runs in suit, complete suits to the
foundations (by a move or at once), score and win, refusals, the generated rules, the search's
key and win finder, and the conformance kit's checks on Python declarations (the variant files
are patience-classics')."""

from __future__ import annotations

from pathlib import Path

import pytest

from patience_core.engine import DealNumber
from patience_core.families import POLICIES, SpiderFamily, SpiderSearch, make_variant
from patience_core.model import Card, Move, MoveKind, Position, Rank, Suit
from patience_core.testing import DeclaredConformance, assert_matches_golden, read_golden

GOLDEN = read_golden((Path(__file__).parent / "data" / "aisleriot-spider.txt").read_text())


class Spider(SpiderFamily):
    name = "spider"
    title = "Spider"


class SpiderTwoSuits(SpiderFamily):
    name = "spider-two-suits"
    title = "Spider 2 Suits"
    deck = "two-decks-two-suits"


class SpiderOneSuit(SpiderFamily):
    name = "spider-one-suit"
    title = "Spider 1 Suit"
    deck = "two-decks-one-suit"


class Spiderette(SpiderFamily):
    name = "spiderette"
    title = "Spiderette"
    deck = "standard"
    columns = 7
    face_down = "0 1 2 3 4 5 6"


class AutoSpider(SpiderFamily):
    name = "auto-spiderette"
    title = "Auto Spiderette"
    deck = "standard"
    columns = 7
    face_down = "0 1 2 3 4 5 6"
    suit_removal = "auto"


DECLARED = {
    "spider-four": Spider,
    "spider-two": SpiderTwoSuits,
    "spider-one": SpiderOneSuit,
    "spiderette": Spiderette,
}


@pytest.mark.parametrize(("block", "number"), sorted(GOLDEN))
def test_deal_n_is_aisleriots_deal_n(block: str, number: int) -> None:
    game = DECLARED[block]()
    assert_matches_golden(game, game.deal(DealNumber(number)), GOLDEN[(block, number)])


def c(text: str, up: bool = True) -> Card:
    """A card from its two-letter code (``"Ks"``)."""
    return Card.of(Rank.from_text(text[0]), Suit.from_letter(text[1]), up)


def run(top: str, length: int, suit: str = "s") -> tuple[Card, ...]:
    """``length`` face-up cards of ``suit`` down to ``top`` (bottom first)."""
    low = Rank.from_text(top)
    return tuple(Card.of(Rank(low + k), Suit.from_letter(suit)) for k in range(length - 1, -1, -1))


def spiderette(
    columns: list[tuple[Card, ...]], stock: tuple[Card, ...] = (), homes: int = 0
) -> Position:
    """A Spiderette position (not a whole deck: the rules never count the cards)."""
    full = run("A", 13, "c")
    return Position((stock, *([full] * homes), *([()] * (4 - homes)), *columns))


def test_the_deal_rule_and_the_last_short_deal() -> None:
    game = Spiderette()
    position = game.deal(DealNumber(1))
    assert game.can_deal(position) and Move.deal(0) in game.legal_moves(position)
    empty = Position((*position.piles[:5], (), *position.piles[6:]))
    assert not game.can_deal(empty) and Move.deal(0) not in game.legal_moves(empty)
    assert game.why_illegal(empty, Move.deal(0)) == "fill every empty column before dealing"
    assert "fill every empty column" in game.status(empty)
    for _ in range(3):
        position = game.play(position, Move.deal(0))
    last = game.play(position, Move.deal(0))
    assert [len(last[t]) - len(position[t]) for t in game.tableau] == [1, 1, 1, 0, 0, 0, 0]
    onto_empty = make_variant(SpiderFamily, {"name": "x", "title": "X", "deal-onto-empty": True})
    assert onto_empty().can_deal(Position((*empty.piles[:1], *[()] * 8, *empty.piles[5:12],
                                           (), ())))  # fmt: skip


def test_runs_move_in_suit_onto_any_suit() -> None:
    game = Spiderette()
    mixed = (c("9h"), c("8s"))
    position = spiderette([mixed, (c("9d"),), (c("Ts", False), c("9c")), (c("Kd"),), (), (), ()])
    moves = game.legal_moves(position)
    assert Move.transfer(5, 6, 2) not in moves  # a mixed run is no run
    assert Move.transfer(5, 6, 1) in moves and Move.transfer(5, 7, 1) in moves  # any suit
    assert Move.transfer(5, 9, 1) in moves and Move.transfer(5, 9, 2) not in moves
    assert game.why_illegal(position, Move.transfer(5, 9, 2)).endswith("not a run of one suit")
    moved = game.play(position, Move.transfer(7, 6))
    assert moved[7] == (c("Ts"),)  # the card it uncovers is turned
    assert game.why_illegal(position, Move.transfer(6, 8)).startswith(
        "a run goes on a card one rank higher"
    )


def test_complete_suits_go_to_a_foundation_by_a_move_or_at_once() -> None:
    suit = run("A", 13)
    position = spiderette([(c("5d", False), *suit), (c("2h"),), *[(c("3h"),)] * 5])
    game = Spiderette()
    assert Move.transfer(5, 1, 13) in game.legal_moves(position)
    assert Move.transfer(5, 1, 12) not in game.legal_moves(position)
    taken = game.play(position, Move.transfer(5, 1, 13))
    assert taken[1] == suit and taken[5] == (c("5d"),)
    assert game.score(taken) == game.score(position) == 12
    auto = AutoSpider()
    assert auto.play(position, Move.transfer(6, 7))[1] == suit
    assert "at once" in AutoSpider.rules
    assert game.why_illegal(taken, Move.transfer(1, 6, 13)).startswith("a completed suit never")


def test_score_and_win() -> None:
    game = Spiderette()
    suits = [run("A", 13, s) for s in "cdhs"]
    assert game.is_won(spiderette([suits[0], suits[1], (), (), (), (), ()], homes=2))
    half = (*suits[0][:6], *suits[1][6:])
    assert not game.is_won(spiderette([half, (), (), (), (), (), ()], homes=3))
    assert game.score(spiderette([suits[0], (c("Kh"), c("Qd")), (), (), (), (), ()])) == 12
    assert Spider.max_score == 96 and Spiderette.max_score == 48


def test_the_declaration_is_checked_and_the_rules_follow_it() -> None:
    assert Spider.declaration_problem() is None and Spider.search_class is SpiderSearch
    assert "spider" in POLICIES.names("family")
    bad = make_variant(SpiderFamily, {"name": "s", "title": "S", "columns": 9})
    assert (bad.declaration_problem() or "").startswith(
        "face-down is not given, and its default '5 4 4 5 4 4 5 4 4 5' is for 10 columns, not 9"
    )
    given = make_variant(SpiderFamily, {"name": "s", "title": "S", "columns": 2, "face-down": "1"})
    assert given.declaration_problem() == (
        "face-down is '1'; allowed: 2 whole numbers 0..20 separated by spaces, one per column"
    )
    assert "10 columns t1-t10 of 6, 5, 5, 6, 5, 5, 6, 5, 5, 6 cards" in Spider.rules
    assert "104 cards of two suits" in SpiderTwoSuits.rules and "96 at most" in Spider.rules
    assert "The last deal has 3 cards, for t1-t3." in Spiderette.rules
    assert Spider.board is not None and Spider.board.problem(Spider().piles) is None


def test_the_key_sorts_only_columns_no_deal_reaches() -> None:
    game = Spiderette()
    search = SpiderSearch(game)
    position = game.deal(DealNumber(3))

    def swapped(stock: int, a: int, b: int) -> tuple[Position, Position]:
        piles = list(position.piles)
        piles[0] = position[0][:stock]
        plain = Position(tuple(piles))
        piles[5 + a], piles[5 + b] = piles[5 + b], piles[5 + a]
        return plain, Position(tuple(piles))

    for stock, a, b, same in ((24, 0, 6, False), (3, 0, 6, False), (3, 4, 6, True),
                              (0, 0, 6, True)):  # fmt: skip
        plain, other = swapped(stock, a, b)
        assert (search.key(plain) == search.key(other)) is same


def test_the_win_finder_s_line_wins() -> None:
    game = Spiderette()
    position = game.deal(DealNumber(5))
    line, nodes = SpiderSearch(game).find_win(position, 100_000, 20.0)
    assert line is not None and nodes > 0
    for move in line:
        position = game.apply(position, move)
    assert game.is_won(position)


def test_a_deal_is_never_a_transfer() -> None:
    game = Spider()
    moves = game.legal_moves(game.deal(DealNumber(7)))
    assert all(m.kind is MoveKind.DEAL or m.target is not None for m in moves)


class _Declared(DeclaredConformance):
    """The kit on a declaration that no installed plugin registers (the checks that load it
    by name are left to the variant files' own kit runs)."""

    declared = Spider
    deals = (1, 2)


class TestSpiderette(_Declared):
    game = "spiderette"
    declared = Spiderette


class TestAutoRemoval(_Declared):
    game = "auto-spiderette"
    declared = AutoSpider
