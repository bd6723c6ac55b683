"""The conformance kit's own checks fail when they should."""

from __future__ import annotations

from pathlib import Path

import pytest

from patience_core.api import (
    Card,
    DealNumber,
    Game,
    GameSearch,
    Move,
    MoveKind,
    PileKind,
    PileSpec,
    Position,
    aisleriot_shuffle,
    standard_deck,
)
from patience_core.testing import (
    GameConformance,
    check_deal,
    check_random_walk,
    check_winning_line,
    load_game,
    play_winning_line,
)


def test_check_winning_line_accepts_a_real_win_and_refuses_a_short_one() -> None:
    game = load_game("escalator")
    line = ["deal", "p28 w"]
    with pytest.raises(Exception, match=r"illegal|does not win"):
        check_winning_line(game, 17, line)
    with pytest.raises(AssertionError, match="does not win"):
        check_winning_line(game, 17, ["deal", "# a comment", ""])


def test_play_winning_line_refuses_a_line_that_does_not_win(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="did not say"):
        play_winning_line("escalator", 17, ["deal", "deal"], tmp_path)


class _Columns(Game):
    """Four columns of 13 cards; the layout may lose or duplicate cards."""

    name = "columns"
    title = "Columns"
    max_score = 1
    rules = "Four columns of thirteen cards; nothing moves."

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        return tuple(PileSpec(f"t{i}", PileKind.TABLEAU) for i in range(1, 5))

    def deck_as_dealt(self, cards: list[Card]) -> list[Card]:
        return cards

    def layout(self, cards: list[Card]) -> Position:
        cards = self.deck_as_dealt(cards)
        return Position(tuple(tuple(cards[i * 13 : i * 13 + 13]) for i in range(4)))

    def legal_moves(self, position: Position) -> list[Move]:
        return []

    def play(self, position: Position, move: Move) -> Position:
        return position

    def is_won(self, position: Position) -> bool:
        return False

    def score(self, position: Position) -> int:
        return 0


class _Duplicates(_Columns):
    def deck_as_dealt(self, cards: list[Card]) -> list[Card]:
        return [cards[0], *cards[:-1]]  # the first card twice, the last one lost


class _Loses(_Columns):
    def deck_as_dealt(self, cards: list[Card]) -> list[Card]:
        return cards[:-1]


def _shuffled(deal: int) -> list[Card]:
    return aisleriot_shuffle(standard_deck(), deal)


@pytest.mark.parametrize("deal", [0, 1, 12345])
def test_check_deal_names_a_duplicated_and_a_lost_card(deal: int) -> None:
    cards = _shuffled(deal)
    first, last = cards[0].code, cards[-1].code
    check_deal(_Columns(), deal)
    with pytest.raises(AssertionError) as caught:
        check_deal(_Duplicates(), deal)
    assert str(caught.value).splitlines()[0] == (
        f"deal {deal} does not hold the cards of new_deck(): missing {last}; extra {first}"
    )
    with pytest.raises(AssertionError) as caught:
        check_deal(_Loses(), deal)
    assert str(caught.value).splitlines()[0].endswith(f"new_deck(): missing {last}")
    with pytest.raises(AssertionError, match=f"missing {last}; extra {first}"):
        check_random_walk(_Duplicates(), deal, seed=1)


def test_check_deal_counts_each_card_of_a_deck_with_doubles() -> None:
    class TwoDecks(_Columns):
        def new_deck(self) -> tuple[Card, ...]:
            return standard_deck() * 2

        def layout(self, cards: list[Card]) -> Position:
            return Position((tuple(cards), (cards[0], cards[0]), (), ()))

    first = aisleriot_shuffle(standard_deck() * 2, 7)[0].code
    with pytest.raises(AssertionError) as caught:
        check_deal(TwoDecks(), 7)
    assert str(caught.value).splitlines()[0].endswith(f"new_deck(): extra {first} x2")


def test_the_conformance_kit_runs_the_deck_check() -> None:
    class Kit(GameConformance):
        game = "columns"

        def make_game(self) -> Game:
            return _Duplicates()

    with pytest.raises(AssertionError, match="does not hold the cards of new_deck"):
        Kit().test_deals_hold_the_deck()
    with pytest.raises(AssertionError, match="does not hold the cards of new_deck"):
        Kit().test_random_walks()


def test_the_kit_fails_a_game_whose_check_position_refuses_a_position_play_reaches() -> None:
    """A position file holding a position play reached must be read: ``check_position`` that
    is too strict (here, refusing any Escalator waste) fails the random walks."""
    from patience_core.api import BadSave

    base = type(load_game("escalator"))

    class Strict(base):  # type: ignore[misc, valid-type]
        def check_position(self, position: Position) -> None:
            super().check_position(position)
            if position[1]:
                raise BadSave("the waste must be empty")

    check_random_walk(base(), 17, seed=1)
    with pytest.raises(AssertionError, match="check_position refuses a position play reached"):
        check_random_walk(Strict(), 17, seed=1)


def _search_with(**methods: object) -> GameSearch:
    """Escalator's registered search object, of a class with ``methods`` instead of its own,
    searched through positions (the golf family's compact space would bypass them)."""
    from patience_core.testing import search_for

    game = load_game("escalator")
    base = type(search_for(game))
    methods = {"search_space": lambda self, position: None, **methods}
    return type("Broken", (base,), methods)(game)  # type: ignore[no-any-return]


def test_a_key_of_pile_heights_is_caught_by_the_search_from_the_deal() -> None:
    """Heights say which Escalator cards left the pyramid, but not which stock card is on
    the waste: two positions with one key then play differently."""
    from patience_core.testing import check_key_merges

    assert check_key_merges(load_game("escalator"), 17) > 0  # pairs compared, all agreeing
    heights = _search_with(key=lambda self, p: tuple(len(pile) for pile in p))
    with pytest.raises(AssertionError, match="deal 17: two different positions have the same key"):
        check_key_merges(heights.game, 17, search=heights)


def _rash_kit(**attributes: object) -> GameConformance:
    """The kit on Escalator with a search object that deals whenever the stock can (not safe:
    the solver then calls deal 17, which is won, dead)."""
    rash = _search_with(forced_move=lambda self, p: Move.deal(0) if p[0] else None)

    class Kit(GameConformance):
        game = "escalator"

        def make_game(self) -> Game:
            return rash.game

        def make_search(self, game: Game) -> GameSearch:
            return rash

    for name, value in attributes.items():
        setattr(Kit, name, value)
    return Kit()


def test_an_unsafe_forced_move_is_caught_by_the_plain_search() -> None:
    """Dealing whenever the stock can is not safe: the solver then calls deal 17 (won) dead."""
    from patience_core.games import is_default
    from patience_core.testing import plain_search

    kit = _rash_kit(deals=(17,))
    with pytest.raises(
        AssertionError, match="deal 17: the solver says dead with the search object's "
    ):
        kit.test_shortcuts_keep_the_verdicts()
    rash = kit.make_search(kit.make_game())
    plain = plain_search(rash)
    assert is_default(plain, "forced_move") and not is_default(rash, "forced_move")
    start = rash.game.deal(DealNumber(17))
    assert plain.key(start) == rash.key(start)
    assert plain.moves_to_try(start) == rash.game.legal_moves(start)


def test_every_deal_proved_dead_fails_the_end_check(monkeypatch: pytest.MonkeyPatch) -> None:
    import patience_core.testing._conformance as conformance

    monkeypatch.setattr(conformance, "ALL_DEAD_DEALS", 30)
    with pytest.raises(AssertionError, match=r"proved every one of \d+ deals dead"):
        _rash_kit().test_solved_deal_ends_won()


def test_piles_that_are_lists_and_keys_that_cannot_be_hashed_are_named() -> None:
    from collections import Counter

    from patience_core.testing import check_position, check_search_space

    game = load_game("escalator")
    start = game.deal(DealNumber(17))
    deck = Counter((card.rank, card.suit) for card in start.cards())
    listed = Position(tuple(list(pile) for pile in start.piles))  # type: ignore[misc]
    with pytest.raises(AssertionError, match="pile 0 is a list, not a tuple"):
        check_position(game, listed, deck)
    unhashable = _search_with(key=lambda self, p: [len(pile) for pile in p])
    with pytest.raises(AssertionError, match="key returned a list, which cannot be hashed"):
        check_search_space(unhashable.game, 17, 1, 5, unhashable)


def test_a_search_that_plays_otherwise_than_the_game_is_caught() -> None:
    from patience_core.testing import check_search_space

    def play(self: GameSearch, position: Position, move: Move) -> Position:
        child = self.game.play(position, move)
        return self.game.play(child, move) if move.kind is MoveKind.DEAL and child[0] else child

    twice = _search_with(play=play)
    with pytest.raises(AssertionError, match="to another position than the game's play"):
        check_search_space(twice.game, 17, 1, 5, twice)
