"""Diamond Mine rules: RULES.md Part A "Diamond Mine" and every item of Part B §4 "Tests worth
writing"."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from patience_diamond_mine import DiamondMine
from patience_diamond_mine.game import FOUNDATION, TABLEAU, complete_run

from patience_core.api import BadMoveText, Card, DealNumber, IllegalMove, Move, Position, Suit
from patience_core.testing import (
    assert_matches_golden,
    check_random_walk,
    check_winning_line,
    load_game,
    play_winning_line,
    random_walk_property,
    read_golden,
)

DATA = Path(__file__).parent / "data"
GOLDEN = read_golden((DATA / "golden-deals.txt").read_text())
PINNED = read_golden((DATA / "pinned-deals.txt").read_text())
F = FOUNDATION


@pytest.fixture
def game() -> DiamondMine:
    return DiamondMine()


def cards(text: str) -> tuple[Card, ...]:
    """Cards from codes listed bottom first; ``*`` marks a face-down card."""
    return tuple(Card.from_code(code) for code in text.split())


def run(suit: str, high: int = 13, low: int = 1) -> str:
    """A run from rank ``high`` down to ``low`` in ``suit``, bottom first: ``"Kc Qc .. Ac"``."""
    return " ".join("A23456789TJQK"[r - 1] + suit for r in range(high, low - 1, -1))


def make(tableau: dict[int, str], foundation: str = "") -> Position:
    """A position; keys are 1-based pile numbers t1..t13, piles bottom first."""
    return Position((cards(foundation), *(cards(tableau.get(k, "")) for k in range(1, 14))))


def t(k: int) -> int:
    """Index of tableau pile tk (1-based)."""
    return TABLEAU[k - 1]


def up(suit: str, low: int, high: int) -> str:
    """Ranks ``low`` up to ``high`` in ``suit``, bottom first: a foundation built from ``low``."""
    return " ".join("A23456789TJQK"[r - 1] + suit for r in range(low, high + 1))


ALL_DIAMONDS = up("d", 1, 13)
#: t5..t13 holding diamonds that fit neither the foundation (Td) nor anything else.
BLOCKED = {k: f"{rank}d" for k, rank in zip(range(5, 14), "A2456789Q", strict=True)}


# -- dealing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3])
def test_deal_matches_aisleriot(game: DiamondMine, number: int) -> None:
    assert_matches_golden(game, game.deal(DealNumber(number)), GOLDEN[("diamond-mine", number)])


@pytest.mark.parametrize("number", [0, 12345, 2**32 - 1])
def test_pinned_deals(game: DiamondMine, number: int) -> None:
    assert_matches_golden(game, game.deal(DealNumber(number)), PINNED[("diamond-mine", number)])


def test_deal_shape(game: DiamondMine) -> None:
    position = game.deal(DealNumber(9))
    assert position[F] == ()
    for k in range(1, 14):
        pile = position[t(k)]
        assert [c.face_up for c in pile] == [False, False, False, True]
    assert game.score(position) == 0
    assert game.status(position) == "Diamonds: 0/13   Runs: 0/3"


# -- the foundation -----------------------------------------------------------------------------


@pytest.mark.parametrize("diamond", ["Ad", "7d", "Kd"])
def test_foundation_starts_with_any_diamond(game: DiamondMine, diamond: str) -> None:
    position = make({1: f"*2s {diamond}"})
    assert game.legal_moves(position) == [Move.transfer(t(1), F)]
    after = game.apply(position, Move.transfer(t(1), F))
    assert after[F] == cards(diamond)
    assert game.score(after) == Card.from_code(diamond).rank


@pytest.mark.parametrize(("card", "top"), [("Ad", "Kd"), ("Kd", "Qd"), ("8d", "7d")])
def test_foundation_builds_up_with_wrap(game: DiamondMine, card: str, top: str) -> None:
    position = make({1: f"5c {card}"}, foundation=top)
    assert Move.transfer(t(1), F) in game.legal_moves(position)
    assert game.apply(position, Move.transfer(t(1), F))[F][-1] == Card.from_code(card)


@pytest.mark.parametrize(("card", "top"), [("9d", "7d"), ("Qd", "Kd"), ("2d", "Kd")])
def test_foundation_refuses_out_of_sequence(game: DiamondMine, card: str, top: str) -> None:
    position = make({1: f"5c {card}"}, foundation=top)
    with pytest.raises(IllegalMove):
        game.apply(position, Move.transfer(t(1), F))


@pytest.mark.parametrize("card", ["Ac", "8h", "Ks"])
def test_non_diamond_refused_by_foundation(game: DiamondMine, card: str) -> None:
    for foundation in ("", "7d", "Qd"):
        position = make({1: card}, foundation=foundation)
        assert Move.transfer(t(1), F) not in game.legal_moves(position)
        with pytest.raises(IllegalMove):
            game.apply(position, Move.transfer(t(1), F))


def test_foundation_takes_single_cards_only(game: DiamondMine) -> None:
    position = make({1: "9s 8d", 2: "Tc"}, foundation="7d")
    assert all(m.count == 1 for m in game.legal_moves(position) if m.target == F)


# -- the tableau --------------------------------------------------------------------------------


@pytest.mark.parametrize("onto", ["9c", "9h", "9s"])
def test_group_moves_onto_one_rank_higher_in_any_suit(game: DiamondMine, onto: str) -> None:
    position = make({1: "*Kc 8s 7h 6c", 2: f"*2c {onto}"})
    move = Move.transfer(t(1), t(2), 3)
    assert move in game.legal_moves(position)
    after = game.apply(position, move)
    assert after[t(2)] == cards(f"*2c {onto} 8s 7h 6c")
    # The group's bottom card decides: 7h 6c (bottom 7h) needs an 8, not a 9.
    assert Move.transfer(t(1), t(2), 2) not in game.legal_moves(position)


def test_any_face_up_group_can_be_lifted(game: DiamondMine) -> None:
    # Lifting takes any face-up card with everything on it: 1, 2 or 3 cards here, not the
    # face-down one.
    position = make({1: "*Kc 8s 7h 6c", 2: ""})
    counts = sorted(m.count for m in game.legal_moves(position) if m.target == t(2))
    assert counts == [1, 2, 3]


def test_diamond_top_card_as_target_is_refused(game: DiamondMine) -> None:
    position = make({1: "*Kc 6s", 2: "*Qc 7d"})
    assert Move.transfer(t(1), t(2)) not in game.legal_moves(position)
    with pytest.raises(IllegalMove):
        game.apply(position, Move.transfer(t(1), t(2)))


def test_diamonds_never_go_to_the_tableau(game: DiamondMine) -> None:
    position = make({1: "*Kc 6d", 2: "*Qc 7s", 3: ""})
    assert [m for m in game.legal_moves(position) if m.source == t(1)] == [Move.transfer(t(1), F)]
    for target in (t(2), t(3)):
        with pytest.raises(IllegalMove):
            game.apply(position, Move.transfer(t(1), target))


def test_empty_pile_accepts_a_non_diamond_group(game: DiamondMine) -> None:
    position = make({1: "*Kc 8s 7h 6c", 2: "", 3: "*2s 4d"})
    moves = game.legal_moves(position)
    for count in (1, 2, 3):
        assert Move.transfer(t(1), t(2), count) in moves
    after = game.apply(position, Move.transfer(t(1), t(2), 2))
    assert after[t(2)] == cards("7h 6c")
    # A diamond group (a lone diamond on top) does not go to the empty pile.
    assert not any(m.source == t(3) and m.target == t(2) for m in moves)


def test_auto_flip_after_a_move(game: DiamondMine) -> None:
    position = make({1: "*2c *Jh 5s", 2: "*Qc 6h"})
    after = game.apply(position, Move.transfer(t(1), t(2)))
    assert after[t(1)] == cards("*2c Jh")  # one move: the flip belongs to it
    assert after[t(2)] == cards("*Qc 6h 5s")


def test_auto_flip_after_a_foundation_move(game: DiamondMine) -> None:
    position = make({1: "*2c *Jh 5d"}, foundation="4d")
    after = game.apply(position, Move.transfer(t(1), F))
    assert after[t(1)] == cards("*2c Jh")


# -- score (Part A: the help text's rule) -------------------------------------------------------


def test_score_counts_diamond_face_values(game: DiamondMine) -> None:
    assert game.score(make({}, foundation="Jd Qd Kd Ad")) == 11 + 12 + 13 + 1
    assert game.score(make({}, foundation=ALL_DIAMONDS)) == 91


def test_plus_three_and_minus_three(game: DiamondMine) -> None:
    position = make({1: run("c", 13, 2), 2: "*5s Ac", 3: "*5h 2h"})
    assert game.score(position) == 0
    completed = game.apply(position, Move.transfer(t(2), t(1)))
    assert complete_run(completed[t(1)])
    assert game.score(completed) == 3  # +3 for the completed K..A run
    broken = game.apply(completed, Move.transfer(t(1), t(3)))
    assert game.score(broken) == 0  # -3 when it is broken again


def test_moving_a_complete_run_to_an_empty_pile_nets_zero(game: DiamondMine) -> None:
    position = make({1: run("s"), 2: ""})
    assert game.score(position) == 3
    after = game.apply(position, Move.transfer(t(1), t(2), 13))
    assert game.score(after) == 3


def test_face_down_cards_do_not_complete_a_run(game: DiamondMine) -> None:
    # Aisleriot's code scores +3 for Tc..Ac dropped onto face-down Jc/Qc/Kc (13 clubs in one
    # pile). The help text (Part A) counts only complete face-up K..A runs: no points here.
    position = make({1: "*Kc *Qc *Jc", 2: "*2s " + run("c", 10, 1)})
    assert game.score(position) == 0
    up = make({1: "Kc Qc Jc", 2: "*2s " + run("c", 10, 1)})
    assert game.score(up) == 0  # the run is split between two piles
    joined = make({1: run("c"), 2: "*2s"})
    assert game.score(joined) == 3


def test_run_on_face_down_cards_counts(game: DiamondMine) -> None:
    # A pile "holding" a complete face-up run scores it even with face-down cards beneath.
    assert game.score(make({1: "*3d *5d *7d " + run("h")})) == 3


def test_maximum_score(game: DiamondMine) -> None:
    position = make({1: run("c"), 2: run("h"), 3: run("s")}, foundation=ALL_DIAMONDS)
    assert game.score(position) == 100 == game.max_score
    assert game.is_won(position)


# -- win and loss -------------------------------------------------------------------------------


def test_win_requires_all_face_up(game: DiamondMine) -> None:
    face_down_k = make(
        {1: "*Kc " + run("c", 12), 2: run("h"), 3: run("s")}, foundation=ALL_DIAMONDS
    )
    assert not game.is_won(face_down_k)
    assert game.score(face_down_k) == 91 + 6


def test_win_requires_every_pile_to_be_exactly_a_run(game: DiamondMine) -> None:
    # A run over face-down cards scores, but the pile is not finished: not won.
    position = make({1: "*2d " + run("c"), 2: run("h"), 3: run("s")}, foundation=up("d", 1, 12))
    assert not game.is_won(position)
    won_after = make({1: run("c"), 2: run("h"), 3: run("s"), 4: "Kd"}, foundation=up("d", 1, 12))
    assert not game.is_won(won_after)
    final = game.apply(won_after, Move.transfer(t(4), F))
    assert game.is_won(final)
    assert game.legal_moves(final) == []
    assert not game.is_lost(final)


def test_win_requires_all_diamonds(game: DiamondMine) -> None:
    position = make({1: run("c"), 2: run("h"), 3: run("s")}, foundation=up("d", 2, 13))
    assert not game.is_won(position)


def test_not_lost_while_an_unhinted_legal_move_exists(game: DiamondMine) -> None:
    # Part B §4: Aisleriot's hint does not suggest 5s (resting on 6c) onto 6h, so Aisleriot
    # declares this position lost. patience's "lost" is exact (Part A): the move exists.
    position = make(
        {1: "*4c *8s 6c 5s", 2: "*Jc 7s 6h", 3: "*9h Ks", 4: "*Qh 3d"} | BLOCKED, foundation="Td"
    )
    assert game.legal_moves(position) == [Move.transfer(t(1), t(2))]
    assert not game.is_lost(position)
    after = game.apply(position, Move.transfer(t(1), t(2)))
    assert after[t(1)] == cards("*4c *8s 6c")
    assert game.legal_moves(after) == [Move.transfer(t(2), t(1))]  # and back: still not lost
    assert not game.is_lost(after)


def test_lost_when_no_move_exists(game: DiamondMine) -> None:
    position = make(
        {1: "*4c *8s 6c 5s", 2: "*Jc Th", 3: "*9h Ks", 4: "*Qh 3d"} | BLOCKED, foundation="Td"
    )
    assert game.legal_moves(position) == []
    assert game.is_lost(position)
    assert not game.is_won(position)


# -- notation, rendering and contract -----------------------------------------------------------


def test_move_text_round_trip(game: DiamondMine) -> None:
    position = make({1: "*Kc 8s 7h 6c", 2: "*2c 9h", 3: "*2s 5d"}, foundation="4d")
    group = Move.transfer(t(1), t(2), 3)
    assert game.move_text(position, group) == "t1 t2 3"
    assert game.parse_move(position, "t1 t2 3") == group
    assert game.parse_move(position, "8s t2") == group
    with pytest.raises(BadMoveText):
        game.parse_move(position, "8s")  # t2 or an empty pile
    assert game.parse_move(position, "5d") == Move.transfer(t(3), F)
    assert game.parse_move(position, "t3 f") == Move.transfer(t(3), F)


def test_render_shows_face_down_cards_in_80_columns(game: DiamondMine) -> None:
    lines = game.render(
        game.deal(DealNumber(1)),
        lambda c: "--" if c is None else ("##" if not c.face_up else c.code),
    )
    assert lines[0] == "f:--"
    assert lines[3].split() == ["##"] * 13
    assert lines[6].split()[:2] == ["Qc", "8c"]
    assert all(len(line) <= 80 for line in lines)


def test_found_through_entry_point() -> None:
    assert isinstance(load_game("diamond-mine"), DiamondMine)


def test_winning_line_replays(game: DiamondMine) -> None:
    lines = (DATA / "winning-line-deal-1.txt").read_text().splitlines()
    position = check_winning_line(game, 1, lines)
    assert sum(1 for c in position[F] if c.suit is Suit.DIAMONDS) == 13


def test_winning_line_through_the_play_command(tmp_path: Path) -> None:
    lines = (DATA / "winning-line-deal-1.txt").read_text().splitlines()
    play_winning_line("diamond-mine", 1, lines, tmp_path)


@pytest.mark.parametrize("deal", range(8))
def test_random_walks_keep_invariants(deal: int) -> None:
    check_random_walk(DiamondMine(), deal, seed=deal * 7 + 1, steps=120)


def test_face_up_part_stays_a_descending_sequence(game: DiamondMine) -> None:
    # Part B §4 invariant: the face-up part of every pile is a descending rank sequence, and a
    # diamond is only ever the top card of a pile or on the foundation.
    for deal in range(6):
        position = game.deal(DealNumber(deal))
        for step in range(150):
            for k in range(1, 14):
                pile = position[t(k)]
                up = [c for c in pile if c.face_up]
                assert all(a.rank == b.rank + 1 for a, b in itertools.pairwise(up))
                assert all(c.suit is not Suit.DIAMONDS for c in up[:-1])
            legal = game.legal_moves(position)
            if not legal:
                break
            position = game.play(position, legal[(step * 7919 + deal) % len(legal)])


test_random_walk_property = random_walk_property("diamond-mine", steps=100, max_examples=10)


def _edited(game: DiamondMine, edit: dict[int, tuple[str, ...]]) -> Position:
    """Deal 1 with the piles in ``edit`` replaced (card codes, ``#`` before a face-down one).
    Deal 1: t1 #9c #9d #9h Qc, t2 #Qh #3d #9s 8c, t4 #3c #Jc #5d 8s, t5 #6s #3s #5c 7d,
    t8 #Ks #6c #6d 5h, t10 #Ad #As #Tc 7c, t13 #3h #Kd #Qd 7s."""
    piles = list(game.deal(DealNumber(1)).piles)
    for index, codes in edit.items():
        piles[index] = tuple(Card.from_code(c.lstrip("#")).turned(c[0] != "#") for c in codes)
    return Position(tuple(piles))


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        ({TABLEAU[0]: ("#9c", "#9d", "#9h"), F: ("Qc",)}, "not a face-up diamond"),
        (
            {TABLEAU[4]: ("#6s", "#3s", "#5c"), TABLEAU[3]: ("#3c", "#Jc", "8s"), F: ("7d", "5d")},
            "diamonds are not in rank order",
        ),
        ({TABLEAU[0]: ("#9c", "#9d", "#9h", "#Qc")}, "face-down cards must lie below"),
        ({TABLEAU[0]: ("#9c", "#9d", "9h", "Qc")}, "face-up cards do not go down one rank"),
        (
            {TABLEAU[0]: ("#Qh", "#9c", "#9d", "#9h", "Qc"), TABLEAU[1]: ("#3d", "#9s", "8c")},
            "t1 holds more than 3 face-down cards",
        ),
        (
            {TABLEAU[4]: ("#6s", "#3s", "#5c", "7d", "6c"), TABLEAU[7]: ("#Ks", "#6d", "5h")},
            "t5: a card lies on a diamond",
        ),
    ],
)
def test_impossible_positions_are_refused(
    game: DiamondMine, edit: dict[int, tuple[str, ...]], needle: str
) -> None:
    from patience_core.api import BadSave

    with pytest.raises(BadSave, match=needle):
        game.check_position(_edited(game, edit))


def test_a_foundation_that_wraps_from_king_to_ace_passes_the_check(game: DiamondMine) -> None:
    game.check_position(
        _edited(
            game,
            {TABLEAU[12]: ("#3h", "#Qd", "7s"), TABLEAU[9]: ("#As", "#Tc", "7c"), F: ("Kd", "Ad")},
        )
    )


# -- why a move is refused (issue 18, item 9) ----------------------------------------------------


def test_a_refused_move_names_diamond_mines_rule() -> None:
    """Deal 3: t1 Q♥, t2 4♥, t10 2♦, t12 a King on top, each on three face-down cards."""
    game = DiamondMine()
    start = game.deal(DealNumber(3))
    t = {k + 1: pile for k, pile in enumerate(TABLEAU)}
    why = game.why_illegal
    assert (
        why(start, Move.transfer(t[1], FOUNDATION)) == "the foundation takes diamonds only, not Q♥"
    )
    assert why(start, Move.transfer(t[1], t[2])) == (
        "Q♥ goes on a card one rank higher, in any suit, not on 4♥"
    )
    assert why(start, Move.transfer(t[1], t[10])) == "nothing is ever placed on a diamond (2♦)"
    assert why(start, Move.transfer(t[10], t[1])) == (
        "diamonds never go on the tableau: 2♦ goes only to the foundation"
    )
    assert why(start, Move.transfer(t[12], t[1])) == "a King goes only onto an empty pile"
    assert why(start, Move.transfer(t[2], t[1], 2)) == "t2 has only 1 face-up card"
    assert why(start, Move.transfer(FOUNDATION, t[1])) == "nothing to move: f is empty"
    with_foundation = start.replace([(FOUNDATION, (Card.from_code("5d"),)), (t[10], start[t[10]])])
    assert why(with_foundation, Move.transfer(t[10], FOUNDATION)) == (
        "diamonds build up by one (A after K): 2♦ does not go on 5♦"
    )
    with pytest.raises(IllegalMove, match="has no stock to deal from"):
        game.parse_move(start, "deal")
