"""The klondike family: Aisleriot's deals card for card, the deal and redeal, the moves and their
refusals, the generated rules, the search's shortcuts, and the conformance kit's checks for
Klondike draw 1 and draw 3 declared in Python (the variant files are patience-classics')."""

from __future__ import annotations

from pathlib import Path

import pytest

from patience_core.engine import DealNumber
from patience_core.families import KlondikeFamily, KlondikeSearch, make_variant
from patience_core.model import Card, Move, MoveKind, Position
from patience_core.testing import DeclaredConformance, assert_matches_golden, read_golden

GOLDEN = read_golden((Path(__file__).parent / "data" / "aisleriot-klondike.txt").read_text())


class Klondike(KlondikeFamily):
    """Aisleriot's Klondike with single card deals: three passes through the stock."""

    name = "klondike"
    title = "Klondike"
    redeals = 2


class KlondikeDrawThree(KlondikeFamily):
    """Aisleriot's Klondike with three card deals: redeals without limit."""

    name = "klondike-draw-3"
    title = "Klondike (draw 3)"
    draw = 3


class KlondikeUnlimited(KlondikeFamily):
    name = "klondike-unlimited"
    title = "Klondike (unlimited redeals)"


@pytest.mark.parametrize("number", sorted({n for (_, n) in GOLDEN}))
@pytest.mark.parametrize("game", [Klondike, KlondikeDrawThree, KlondikeUnlimited])
def test_deal_n_is_aisleriots_deal_n(game: type[KlondikeFamily], number: int) -> None:
    assert_matches_golden(game(), game().deal(DealNumber(number)), GOLDEN[("klondike", number)])


def _waste(game: KlondikeFamily, position: Position) -> list[str]:
    """The waste in play, top first, as the golden files write piles."""
    return [str(c) for c in reversed(position[game.wastes[game.current_pass(position)]])]


def test_three_card_deals_put_the_third_card_on_top() -> None:
    # Aisleriot's flip-stock, run on deal 1 with three card deals: waste "5c 5d 4c".
    game = KlondikeDrawThree()
    position = game.apply(game.deal(DealNumber(1)), Move.deal(0))
    assert _waste(game, position) == ["5c", "5d", "4c"]
    assert len(position[0]) == 21 and not any(c.face_up for c in position[0])


def test_single_card_deals_have_two_redeals() -> None:
    # Aisleriot on deal 1: 24 deals, a redeal, ...; the 75th click on the stock does nothing.
    game = Klondike()
    position = game.deal(DealNumber(1))
    for click in range(74):
        assert Move.deal(0) in game.legal_moves(position), click
        position = game.apply(position, Move.deal(0))
        if click == 25:  # the first redeal (click 24), then a card dealt: the first card again
            assert _waste(game, position) == ["4c"]
            assert game.status(position) == "Stock left: 23   Redeals left: 1"
    assert Move.deal(0) not in game.legal_moves(position)
    assert _waste(game, position)[:3] == ["7s", "2h", "Ah"] and len(_waste(game, position)) == 24
    assert game.why_illegal(position, Move.deal(0)) == "the stock is empty and no redeal is left"
    assert [spec.name for spec in game.piles[:6]] == ["s", "w", "s2", "w2", "s3", "w3"]


def test_unlimited_redeals_turn_the_waste_back_into_the_same_stock() -> None:
    game = KlondikeUnlimited()
    start = game.deal(DealNumber(1))
    position = start
    for _ in range(25):
        position = game.apply(position, Move.deal(0))
    assert position == start  # 24 cards dealt, then the waste turned over: the deal again
    assert game.status(position) == "Stock left: 24"


def _board(columns: list[str], waste: str = "", foundations: str = "") -> Position:
    """A position of :class:`KlondikeUnlimited` from texts: columns bottom first."""
    used = {c.lstrip("*") for text in (*columns, waste, foundations) for c in text.split()}
    rest = [c for c in KlondikeUnlimited().new_deck() if c.code not in used]
    piles: list[tuple[Card, ...]] = [tuple(c.turned(False) for c in rest)]
    piles.append(tuple(Card.from_code(c) for c in waste.split()))
    suits: dict[str, list[Card]] = {}
    for code in foundations.split():
        suits.setdefault(code[-1], []).append(Card.from_code(code))
    piles += [tuple(pile) for pile in suits.values()] + [()] * (4 - len(suits))
    piles += [tuple(Card.from_code(c) for c in text.split()) for text in columns]
    piles += [()] * (7 - len(columns))
    return Position(tuple(piles))


def test_moves_and_refusals() -> None:
    game = KlondikeUnlimited()
    position = _board(["*2c 6h", "7s", "5s 4h", "Kd"], waste="Qs", foundations="Ac")
    legal = game.legal_moves(position)
    t = {name: i for i, name in enumerate(p.name for p in game.piles)}
    assert Move.transfer(t["t1"], t["t2"]) in legal  # 6♥ on 7♠
    assert Move.transfer(t["w"], t["t4"]) in legal  # Q♠ on K♦
    assert Move.transfer(t["t4"], t["t5"]) in legal  # a King to an empty column
    assert Move.transfer(t["f1"], t["t4"]) not in legal  # A♣ on K♦: no
    after = game.apply(position, Move.transfer(t["t1"], t["t2"]))
    assert after[t["t1"]] == (Card.from_code("2c"),)  # turned face up by itself
    why = game.why_illegal
    assert why(position, Move.transfer(t["t3"], t["t5"], 2)) == (
        "an empty column takes only a King or a run from a King, not 5♠"
    )
    assert why(position, Move.transfer(t["t3"], t["t4"])) == (
        "Klondike (unlimited redeals) builds down in alternate colours: 4♥ does not go on K♦"
    )
    assert why(position, Move.transfer(t["f1"], t["f2"])) == (
        "a foundation's card goes back only to the tableau"
    )
    assert why(position, Move.transfer(t["t1"], t["t2"], 2)) == "t1 has only 1 face-up card"
    assert why(position, Move.transfer(t["w"], t["f2"])).startswith("Q♠")


def test_safe_auto_play_and_the_search_shortcuts() -> None:
    safe = make_variant(KlondikeFamily, {"name": "k", "title": "K", "auto-play": "safe"})()
    position = _board(["*9c Ah", "2h"], foundations="Ac 2c Ad")
    t1, t2 = safe.tableau[:2]
    after = safe.play(position, Move.transfer(t1, safe.foundations[2]))
    assert safe.score(after) == 5  # A♥ then 2♥ by themselves; 9♣ turned up stays
    search = KlondikeSearch(KlondikeUnlimited())
    assert search.forced_move(position) == Move.transfer(t1, search.game.foundations[2])
    swapped = position.replace(((t1, position[t2]), (t2, position[t1])))
    assert search.key(swapped) == search.key(position)


def test_the_rules_text_follows_the_declaration() -> None:
    assert "twice (3 passes" in Klondike.rules
    assert (
        "3 cards at a time" in KlondikeDrawThree.rules
        and "without limit" in KlondikeDrawThree.rules
    )
    assert Klondike.max_score == 52 and Klondike.search_class is KlondikeSearch
    assert Klondike.declaration_problem() is None
    bad = make_variant(KlondikeFamily, {"name": "k", "title": "K"})
    bad.draw = 0
    assert bad.declaration_problem() == "draw is 0; allowed: a whole number 1..5"


class _Declared(DeclaredConformance):
    """The kit on a declaration that no installed plugin registers: the checks that load it
    by name (discovery, other processes, saved games, the command line) are left to the
    variant files' own kit runs."""

    declared = Klondike
    deals = (1, 2, 12345)


class TestKlondikeDrawOne(_Declared):
    game = "klondike"
    declared = Klondike


class TestKlondikeDrawThree(_Declared):
    game = "klondike-draw-3"
    declared = KlondikeDrawThree


def test_a_deal_is_never_a_transfer() -> None:
    game = Klondike()
    assert all(
        m.kind is MoveKind.DEAL or m.target is not None
        for m in game.legal_moves(game.deal(DealNumber(7)))
    )


def test_the_win_finder_turns_a_draw_three_stock_around_once() -> None:
    # Two cards on the waste, 21 in the stock: dealing three at a time never comes back to
    # this split (after the redeal the waste holds 3, 6, ... cards), yet the turns must end.
    from patience_core.families._klondike_finder import _turns

    game = KlondikeDrawThree()
    position = game.play(game.deal(DealNumber(1)), Move.deal(0))
    waste, column = position[1], position[game.tableau[0]]
    position = position.replace(((1, waste[:-1]), (game.tableau[0], column + waste[-1:])))
    played = [0]
    turns = list(_turns(game, position, played))
    assert 8 <= len(turns) <= 2 * 24
    assert played[0] >= len(turns) - 1  # every deal counts against the budget
    assert len({p.piles[:2] for _, p in turns}) == len(turns)
