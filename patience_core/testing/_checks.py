"""The conformance kit's checks of a game's rules: deals, positions, random walks.

Each check raises ``AssertionError`` with a message naming the deal, step and move when the game
breaks a rule of the :class:`~patience_core.games.Game` contract. :class:`GameConformance
<patience_core.testing.GameConformance>` runs them all; they can be used on their own too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from patience_core.engine import DealNumber, GRand, counted
from patience_core.errors import BadSave
from patience_core.games import Game
from patience_core.model import Card, Move, Position

__all__ = [
    "check_deal",
    "check_position",
    "check_random_walk",
    "load_game",
    "provider_of",
    "random_walk",
    "walk_record",
]


def load_game(name: str, options: Mapping[str, str] | None = None) -> Game:
    """Load game ``name`` through the installed plugins, as the CLI does (proves discovery through
    the entry point, not only importability).

    :raises UnknownGame: when no installed plugin provides ``name``.
    """
    from patience_core.plugins import PluginHost

    return PluginHost().load().game(name, options)


def provider_of(name: str) -> str | None:
    """The distribution whose entry point registered game ``name``, or ``None`` when no installed
    plugin provides it. A plugin's first test: proves it is discovered, not only importable."""
    from patience_core.plugins import PluginHost

    host = PluginHost().load()
    return host.games.provider(name) if name in host.games else None


def _identity(position: Position) -> Counter[tuple[int, int]]:
    return Counter((card.rank, card.suit) for card in position.cards())


def _card_difference(found: Counter[tuple[int, int]], deck: Counter[tuple[int, int]]) -> str:
    """The cards ``found`` lacks and holds beyond ``deck``, by name: ``missing 7h; extra As``
    (``As x2`` for a card two too many)."""

    def names(cards: Counter[tuple[int, int]]) -> str:
        return ", ".join(
            Card.of(rank, suit).code + (f" x{count}" if count > 1 else "")
            for (rank, suit), count in sorted(
                cards.items(), key=lambda item: (item[0][1], item[0][0])
            )
        )

    missing, extra = deck - found, found - deck
    parts = [
        f"missing {names(missing)}" if missing else "",
        f"extra {names(extra)}" if extra else "",
    ]
    return "; ".join(part for part in parts if part)


def check_deal(game: Game, deal: int | DealNumber) -> Position:
    """Assert that deal ``deal`` holds exactly the cards of :meth:`Game.new_deck`, each as often
    as the deck has it, across all piles (face up or down does not matter), in one pile per
    layout pile: a :meth:`Game.layout` that loses or duplicates a card fails here, which a walk
    (that only checks the cards a deal started with stay) cannot see.

    :returns: the deal's position.
    :raises AssertionError: naming the deal and the missing and extra cards, e.g. ``deal 1 does
        not hold the cards of new_deck(): missing 7h; extra As``.
    """
    number = deal if isinstance(deal, DealNumber) else DealNumber(deal)
    cards = game.new_deck()
    odd = [card for card in cards if not isinstance(card, Card)]
    assert not odd, f"new_deck() holds {odd[0]!r}, not a Card"
    position = game.deal(number)
    assert isinstance(position, Position), f"deal {number} is {position!r}, not a Position"
    assert len(position) == len(game.piles), (
        f"deal {number} has {counted(len(position), 'pile')}; the layout (piles) has "
        f"{len(game.piles)}"
    )
    deck: Counter[tuple[int, int]] = Counter((card.rank, card.suit) for card in cards)
    found = _identity(position)
    assert found == deck, (
        f"deal {number} does not hold the cards of new_deck(): {_card_difference(found, deck)}"
    )
    return position


def check_position(game: Game, position: Position, deck: Counter[tuple[int, int]]) -> None:
    """Assert the invariants of one position.

    :param deck: the multiset of ``(rank, suit)`` the game started with.
    :raises AssertionError: when a card is lost or duplicated, the pile count is wrong, a pile
        is not a tuple of :class:`Card`, :meth:`Game.check_position` refuses the position (play
        reached it, so a position file holding it must be read), the score is out of
        0..max_score, or won/lost and the legal moves disagree.
    """
    assert len(position) == len(game.piles), "position has the wrong number of piles"
    for index, pile in enumerate(position.piles):
        assert isinstance(pile, tuple), (
            f"pile {index} is a {type(pile).__name__}, not a tuple: positions hold tuples of cards"
        )
        odd_card = next((card for card in pile if not isinstance(card, Card)), None)
        assert odd_card is None, f"pile {index} holds {odd_card!r}, not a Card"
    found = _identity(position)
    assert found == deck, f"cards lost or duplicated: {_card_difference(found, deck)}"
    try:
        game.check_position(position)
    except BadSave as exc:
        raise AssertionError(f"check_position refuses a position play reached: {exc}") from None
    score = game.score(position)
    assert type(score) is int, f"score returned {score!r}, not a whole number"
    assert 0 <= score <= game.max_score, f"score {score} outside 0..{game.max_score}"
    legal = game.legal_moves(position)
    odd = [move for move in legal if not isinstance(move, Move)]
    assert not odd, f"legal_moves returned {odd[0]!r} in its list, not a Move"
    won = game.is_won(position)
    assert isinstance(won, bool), f"is_won returned {won!r}, not True or False"
    if won:
        assert not game.is_lost(position), "a won position is also lost"
    else:
        assert game.is_lost(position) == (not legal), "is_lost disagrees with the legal moves"


def check_random_walk(game: Game, deal: int | DealNumber, seed: int, steps: int = 150) -> Position:
    """Deal ``deal`` and play up to ``steps`` random legal moves, checking every step.

    Checks the deal (:func:`check_deal`: exactly the cards of :meth:`Game.new_deck`), then at each
    step: :func:`check_position`; every legal move text reads back to the same move
    (:meth:`Game.parse_move` of :meth:`Game.move_text`); the chosen move is accepted by
    :meth:`Game.apply` and gives the same position as :meth:`Game.play`; dealing twice gives equal
    positions.

    :param seed: seeds the move choices (32-bit).
    :returns: the last position reached.
    :raises AssertionError: on the first broken invariant.
    """
    number = deal if isinstance(deal, DealNumber) else DealNumber(deal)
    position = check_deal(game, number)
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


def random_walk(
    game: Game, deal: int | DealNumber, steps: int, seed: int | None = None
) -> list[Position]:
    """The positions of a random walk by the rules: deal ``deal``, then up to ``steps`` legal
    moves (:meth:`Game.play`), each chosen by a :class:`random.Random` seeded with ``seed``; the
    walk stops early where no move is legal. Nothing is checked (:func:`check_random_walk`
    checks every step).

    :param seed: seeds the move choices; ``None``: the deal's number.
    :returns: the deal's position first, then each position after a move (each a legal move
        after the one before).
    """
    number = deal if isinstance(deal, DealNumber) else DealNumber(deal)
    rng = random.Random(number.number if seed is None else seed)
    position = game.deal(number)
    walked = [position]
    for _ in range(steps):
        moves = game.legal_moves(position)
        if not moves:
            break
        position = game.play(position, rng.choice(moves))
        walked.append(position)
    return walked


def walk_record(game: Game, deal: int | DealNumber, steps: int) -> list[str]:
    """What a process sees along a walk from ``deal``: at each step the legal move texts in
    :meth:`Game.legal_moves` order and the score; the walk takes the move whose index a
    :class:`GRand` seeded with the deal's number picks. Equal in every process for a
    deterministic game (any ``PYTHONHASHSEED``).

    :returns: one line per step.
    """
    number = deal if isinstance(deal, DealNumber) else DealNumber(deal)
    position = game.deal(number)
    rand = GRand(number.number & 0xFFFFFFFF)
    lines: list[str] = []
    for _ in range(steps):
        legal = game.legal_moves(position)
        lines.append(
            " | ".join(game.move_text(position, m) for m in legal) + f" = {game.score(position)}"
        )
        if not legal:
            break
        position = game.play(position, legal[rand.int_range(0, len(legal))])
    return lines


def _walk_records_elsewhere(
    name: str, options: Mapping[str, str], deals: Sequence[int], steps: int, hash_seed: str
) -> list[list[str]]:
    """:func:`walk_record` of each deal, made by a new Python process with ``PYTHONHASHSEED``
    set to ``hash_seed``.

    :raises AssertionError: when that process fails.
    """
    import json
    import os
    import subprocess
    import sys

    script = (
        "import json, sys\n"
        "from patience_core.testing import load_game, walk_record\n"
        "name, options, deals, steps = json.loads(sys.argv[1])\n"
        "game = load_game(name, options)\n"
        "print(json.dumps([walk_record(game, d, steps) for d in deals]))\n"
    )
    argument = json.dumps([name, dict(options), list(deals), steps])
    environ = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", script, argument],
        capture_output=True,
        text=True,
        env=environ,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"PYTHONHASHSEED={hash_seed}: {done.stderr.strip()[-500:]}"
    records: list[list[str]] = json.loads(done.stdout)
    return records
