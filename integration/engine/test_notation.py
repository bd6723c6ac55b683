"""Move notation over a small made-up layout (engine/notation.py)."""

from __future__ import annotations

import pytest

from patience_core.engine import counted, format_move, parse_move
from patience_core.errors import BadMoveText, IllegalMove
from patience_core.model import Card, Move, PileKind, PileSpec, Position

PILES = (
    PileSpec("s", PileKind.STOCK),
    PileSpec("f1", PileKind.FOUNDATION),
    PileSpec("f2", PileKind.FOUNDATION),
    PileSpec("t1", PileKind.TABLEAU),
    PileSpec("t2", PileKind.TABLEAU),
    PileSpec("t3", PileKind.TABLEAU),
)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.from_code(c) for c in text.split())


POSITION = Position((cards("*2c"), (), (), cards("Ac 9h 8s 7h"), cards("9s"), ()))
LEGAL = [
    Move.deal(0),
    Move.transfer(3, 5, 1),
    Move.transfer(3, 5, 2),
    Move.transfer(3, 4, 2),
    Move.transfer(3, 5, 3),
    Move.transfer(4, 5, 1),
]


def parse(text: str) -> Move:
    return parse_move(text, PILES, POSITION, LEGAL)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("deal", Move.deal(0)),
        ("d", Move.deal(0)),
        ("s", Move.deal(0)),
        ("t1 t3", Move.transfer(3, 5, 3)),  # the longest run
        ("t1t3", Move.transfer(3, 5, 3)),
        ("T1 -> T3", Move.transfer(3, 5, 3)),
        ("t1 t3 2", Move.transfer(3, 5, 2)),
        ("8s t3", Move.transfer(3, 5, 2)),
        ("8s t2", Move.transfer(3, 4, 2)),
        ("7h t3", Move.transfer(3, 5, 1)),
        ("9s", Move.transfer(4, 5, 1)),
        ("t2", Move.transfer(4, 5, 1)),
        ("t1 t", Move.transfer(3, 5, 3)),  # any tableau pile: the longest run, first pile
    ],
)
def test_parse(text: str, move: Move) -> None:
    assert parse(text) == move


def test_canonical_text_reads_back() -> None:
    for move in LEGAL:
        assert parse(format_move(PILES, move, LEGAL)) == move


@pytest.mark.parametrize("text", ["xyz", "t9 t1", "t1 zz", "t1 t2 x", "t1 t2 3 4", "", "  ", "@!"])
def test_unreadable_text(text: str) -> None:
    with pytest.raises(BadMoveText):
        parse(text)


@pytest.mark.parametrize("text", ["t3 t1", "Kh", "t1 f", "9s t1"])
def test_readable_but_illegal(text: str) -> None:
    with pytest.raises(IllegalMove):
        parse(text)


def test_ambiguous_between_tableau_targets() -> None:
    with pytest.raises(BadMoveText, match="ambiguous"):
        parse("8s")  # to t2 or t3


def test_ambiguous_sources() -> None:
    with pytest.raises(BadMoveText, match="ambiguous"):
        parse_move("t", PILES, POSITION, LEGAL)


CELLS = (
    PileSpec("c1", PileKind.FREE_CELL),
    PileSpec("c2", PileKind.FREE_CELL),
    PileSpec("t1", PileKind.TABLEAU),
)


def test_a_card_alone_never_means_free_cell_to_free_cell() -> None:
    position = Position((cards("Ts"), (), cards("2c")))
    legal = [Move.transfer(0, 1)]
    with pytest.raises(IllegalMove):
        parse_move("Ts", CELLS, position, legal)
    assert parse_move("Ts c2", CELLS, position, legal) == Move.transfer(0, 1)
    assert parse_move("c1 c2", CELLS, position, legal) == Move.transfer(0, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9x", "unknown pile or card '9x'"),
        ("xyz", "unknown pile or card 'xyz'"),
        ("T9X", "unknown pile or card 'T9X'"),  # as typed, capitals kept
        ("t1 9x", "unknown pile '9x'"),
        ("t1>9x", "unknown pile '9x'"),
        ("t1 -> Zz", "unknown pile 'Zz'"),
        ("t1t9", "unknown pile 't9'"),  # from the unknown name to the end of the word
        ("T1 T9X", "unknown pile 'T9X'"),
    ],
)
def test_a_bad_pile_or_card_is_quoted_as_typed(text: str, message: str) -> None:
    """The message quotes what the player typed, from the unknown name to the end of its word,
    never a piece the notation's tokens cut out of it (``9`` of ``9x``)."""
    with pytest.raises(BadMoveText) as info:
        parse(text)
    assert str(info.value) == f"{message}; type 'help' for the notation"


def test_messages_quote_input_safely() -> None:
    with pytest.raises(BadMoveText) as info:
        parse("\x1b[31m" + "x" * 500)
    message = str(info.value)
    assert "\x1b" not in message and len(message) < 120


def test_a_move_of_several_cards_is_described_by_its_bottom_card() -> None:
    import random

    from patience_core.engine import DealNumber
    from patience_core.testing import load_game

    game = load_game("spiderette")
    rand = random.Random(7)
    seen: dict[int, str] = {}
    for deal in range(1, 30):
        position = game.deal(DealNumber(deal))
        for _ in range(200):
            legal = game.legal_moves(position)
            if not legal:
                break
            for move in legal:
                if move.count in (2, 3) and move.count not in seen:
                    pile = position[move.source]
                    bottom = pile[len(pile) - move.count].code
                    seen[move.count] = game.describe_move(position, move)
                    start = {
                        2: f"{bottom} and the card on it from ",
                        3: f"{bottom} and the 2 cards on it from ",
                    }
                    assert seen[move.count].startswith(start[move.count])
            position = game.play(position, rand.choice(legal))
        if len(seen) == 2:
            return
    raise AssertionError(f"no moves of 2 and 3 cards met: {seen}")


def test_counted_says_one_move_and_two_moves() -> None:
    assert counted(1, "move") == "1 move"
    assert counted(0, "move") == "0 moves"
    assert counted(2, "other move") == "2 other moves"
