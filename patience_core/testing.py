"""Checks any game plugin can run against itself: the start of the conformance kit.

Layer 4. Use from a plugin's tests::

    from patience_core.testing import check_random_walk, load_game

    def test_walks():
        game = load_game("escalator")
        for deal in range(20):
            check_random_walk(game, deal, seed=deal)

or with hypothesis (see :func:`random_walk_property`). Each check raises ``AssertionError`` with
a message naming the deal, step and move when the game breaks a rule of the :class:`Game` contract.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping

from patience_core.engine.deal import DealNumber
from patience_core.engine.rng import GRand
from patience_core.games import Game
from patience_core.model import Position

__all__ = [
    "assert_matches_golden",
    "check_position",
    "check_random_walk",
    "load_game",
    "random_walk_property",
    "read_golden",
]


def load_game(name: str, options: Mapping[str, str] | None = None) -> Game:
    """Load game ``name`` through the installed plugins, as the CLI does (proves discovery through
    the entry point, not only importability).

    :raises UnknownGame: when no installed plugin provides ``name``.
    """
    from patience_core.plugins import PluginHost

    return PluginHost().load().game(name, options)


def _identity(position: Position) -> Counter[tuple[int, int]]:
    return Counter((card.rank, card.suit) for card in position.cards())


def check_position(game: Game, position: Position, deck: Counter[tuple[int, int]]) -> None:
    """Assert the invariants of one position.

    :param deck: the multiset of ``(rank, suit)`` the game started with.
    :raises AssertionError: when a card is lost or duplicated, the pile count is wrong, the score
        is out of 0..max_score, or won/lost and the legal moves disagree.
    """
    assert len(position) == len(game.piles), "position has the wrong number of piles"
    found = _identity(position)
    assert found == deck, f"cards lost or duplicated: {(found - deck) or (deck - found)}"
    score = game.score(position)
    assert 0 <= score <= game.max_score, f"score {score} outside 0..{game.max_score}"
    legal = game.legal_moves(position)
    if game.is_won(position):
        assert not game.is_lost(position), "a won position is also lost"
    else:
        assert game.is_lost(position) == (not legal), "is_lost disagrees with the legal moves"


def check_random_walk(game: Game, deal: int | DealNumber, seed: int, steps: int = 150) -> Position:
    """Deal ``deal`` and play up to ``steps`` random legal moves, checking every step.

    Checks at each step: :func:`check_position`; every legal move text reads back to the same move
    (:meth:`Game.parse_move` of :meth:`Game.move_text`); the chosen move is accepted by
    :meth:`Game.apply` and gives the same position as :meth:`Game.play`; dealing twice gives equal
    positions.

    :param seed: seeds the move choices (32-bit).
    :returns: the last position reached.
    :raises AssertionError: on the first broken invariant.
    """
    number = deal if isinstance(deal, DealNumber) else DealNumber(deal)
    position = game.deal(number)
    assert position == game.deal(number), f"deal {number} is not deterministic"
    deck = _identity(position)
    rand = GRand(seed & 0xFFFFFFFF)
    for step in range(steps):
        check_position(game, position, deck)
        legal = game.legal_moves(position)
        if not legal:
            break
        assert len(set(legal)) == len(legal), f"deal {number} step {step}: duplicate legal moves"
        for move in legal:
            text = game.move_text(position, move)
            back = game.parse_move(position, text)
            assert back == move, f"deal {number} step {step}: {text!r} reads back as {back}"
        move = legal[rand.int_range(0, len(legal))]
        after = game.apply(position, move)
        assert after == game.play(position, move), f"deal {number} step {step}: apply != play"
        assert after != position, f"deal {number} step {step}: move {move} changed nothing"
        position = after
    check_position(game, position, deck)
    return position


def random_walk_property(
    game_name: str, steps: int = 150, max_examples: int = 25
) -> Callable[[], None]:
    """A hypothesis test function for ``game_name``: random deals, random walks, every invariant
    of :func:`check_random_walk`. Assign it in a test module:
    ``test_walks = random_walk_property("x")``.
    """
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=max_examples, deadline=None, derandomize=True)
    @given(deal=st.integers(0, 2**32 - 1), seed=st.integers(0, 2**32 - 1))
    def test_random_walk(deal: int, seed: int) -> None:
        check_random_walk(load_game(game_name), deal, seed, steps)

    return test_random_walk


_GOLDEN_HEADER = re.compile(r"^#\s*game=(?P<game>[\w-]+)\s+deal=(?P<deal>\d+)\s*$")


def read_golden(text: str) -> dict[tuple[str, int], dict[int, list[str]]]:
    """Parse golden deals in the format of ``aisleriot-deals.txt``.

    Blocks start with ``# game=<name> deal=<N>``; each line is ``<slot>:<cards>``, cards top first,
    ``*`` marking a face-down card. Other ``#`` lines are comments.

    :returns: ``{(game, N): {slot: [card codes, top first]}}``.
    :raises ValueError: for a malformed line.
    """
    result: dict[tuple[str, int], dict[int, list[str]]] = {}
    current: dict[int, list[str]] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            header = _GOLDEN_HEADER.match(line)
            if header:
                current = result.setdefault((header["game"], int(header["deal"])), {})
            continue
        slot, sep, cards = line.partition(":")
        if not sep or current is None:
            raise ValueError(f"bad golden line {raw!r}")
        current[int(slot)] = cards.split()
    return result


def assert_matches_golden(game: Game, position: Position, slots: Mapping[int, list[str]]) -> None:
    """Assert ``position`` holds, pile by pile, the cards of a golden block.

    Piles are matched through :attr:`PileSpec.slot`; golden piles are top first, ours bottom first;
    face-down cards must be face down.

    :raises AssertionError: naming the first pile that differs.
    """
    by_slot = {spec.slot: i for i, spec in enumerate(game.piles) if spec.slot is not None}
    assert set(by_slot) == set(slots), f"slots differ: {sorted(by_slot)} vs {sorted(slots)}"
    for slot, expected in slots.items():
        ours = [str(card) for card in reversed(position[by_slot[slot]])]
        assert ours == expected, (
            f"slot {slot} ({game.piles[by_slot[slot]].name}): {ours} != {expected}"
        )
