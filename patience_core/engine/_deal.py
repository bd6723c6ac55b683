"""Deal numbers, decks and the deterministic shuffles (RULES.md Part A "Deal numbers", Part B §0.3).

A deal is named by a :class:`DealNumber`: a scheme and a number. The default scheme,
``aisleriot``, makes deal N card for card the deal GNOME Aisleriot makes from seed N
(0 <= N < 2**32). The ``ms`` scheme is Microsoft FreeCell's deal N (1 <= N < 2**31), for games
with a FreeCell layout (RULES.md Part A, Baker's Game).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

import attrs

from patience_core.engine._notation import shown
from patience_core.engine._rng import GRand, MicrosoftRand
from patience_core.errors import digits_of
from patience_core.model import Card, Rank, Suit

__all__ = [
    "AISLERIOT",
    "MS",
    "DealNumber",
    "SchemeNotTaken",
    "aisleriot_shuffle",
    "microsoft_deal",
    "standard_deck",
]

AISLERIOT = "aisleriot"
MS = "ms"

_MAX = {AISLERIOT: 2**32 - 1, MS: 2**31 - 1}
_MIN = {AISLERIOT: 0, MS: 1}
#: Digits a deal number is read with at most (leading zeros aside): every deal has 10 at most,
#: and Python itself refuses to read more than 4,300.
MAX_DIGITS = 20
_PATTERN = re.compile(
    r"^\s*(?:(?P<scheme>[a-z]+)\s*[: ]\s*)?(?P<number>[+-]?[0-9]+)\s*$", re.I | re.ASCII
)


class SchemeNotTaken(ValueError):
    """A deal number of a scheme the game does not take (``ms:5`` for Klondike): refused as
    such whatever the number, out of range too (:meth:`DealNumber.parse`)."""


@attrs.frozen(order=True)
class DealNumber:
    """The name of one deal: a numbering scheme and a number.

    ``str(deal)`` is ``"N"`` for the default scheme and ``"ms:N"`` for Microsoft numbers; it is what
    saved games, simulation rows and the CLI use.

    :param number: the deal number (0 <= N < 2**32 for ``aisleriot``, 1 <= N < 2**31 for ``ms``).
    :param scheme: ``"aisleriot"`` (the default) or ``"ms"``.
    """

    number: int
    scheme: str = AISLERIOT

    def __attrs_post_init__(self) -> None:
        if self.scheme not in _MAX:
            raise ValueError(
                f"unknown deal scheme {shown(str(self.scheme))} (known: aisleriot, ms)"
            )
        if not _MIN[self.scheme] <= self.number <= _MAX[self.scheme]:
            number = (
                str(self.number)
                if abs(self.number).bit_length() <= 64
                else f"of about {digits_of(self.number)} digits"
            )
            raise ValueError(
                f"deal number {number} is out of range "
                f"({_MIN[self.scheme]}..{_MAX[self.scheme]} for {self.scheme} deals)"
            )

    @classmethod
    def parse(
        cls, text: str | int, schemes: Collection[str] | None = None, game: str = "this game"
    ) -> DealNumber:
        """Read ``"123"``, ``"ms:617"`` or ``"ms 617"`` (also an ``int``).

        :param schemes: the schemes the game ``game`` (its name) takes, when known: a number
            of another scheme is refused as such whatever the number (before its range).
        :raises SchemeNotTaken: (a :class:`ValueError`) for a scheme not in ``schemes``.
        :raises ValueError: with a one-line message for anything else, or a number out of range.
        """
        if isinstance(text, int) and not isinstance(text, bool):
            return cls(text)
        match = _PATTERN.match(str(text))
        if not match:
            raise ValueError(f"bad deal number {shown(str(text), 23)}: expected N or ms:N")
        scheme = (match["scheme"] or AISLERIOT).lower()
        if schemes is not None and scheme in _MAX and scheme not in schemes:
            raise SchemeNotTaken(f"{game} does not take {scheme} deal numbers")
        number = match["number"]
        sign = "-" if number.startswith("-") else ""
        digits = number.lstrip("+-").lstrip("0") or "0"
        if len(digits) > MAX_DIGITS:
            raise ValueError("bad deal number: too many digits")
        return cls(int(sign + digits), scheme)

    def __str__(self) -> str:
        return str(self.number) if self.scheme == AISLERIOT else f"{self.scheme}:{self.number}"


def standard_deck() -> tuple[Card, ...]:
    """Aisleriot's unshuffled 52-card deck: A♣..K♣, A♦..K♦, A♥..K♥, A♠..K♠, all face up."""
    return tuple(Card.of(rank, suit) for suit in Suit for rank in Rank)


def aisleriot_shuffle(deck: Sequence[Card], seed: int) -> list[Card]:
    """Shuffle ``deck`` exactly as Aisleriot does from ``seed`` (RULES.md Part B §0.3).

    :param deck: the unshuffled deck, in Aisleriot's order (see :func:`standard_deck`).
    :param seed: 0 <= seed < 2**32.
    :returns: the shuffled cards; index 0 is the top of the stock, the first card dealt.
    :raises ValueError: for a seed out of range.
    """
    rand = GRand(seed)
    pool = list(deck)
    picks: list[Card] = []
    for i in range(len(pool)):
        j = i + rand.int_range(0, len(pool) - i)
        picks.append(pool[j])
        pool[j] = pool[i]
    picks.reverse()
    return picks


def microsoft_deal(number: int) -> list[list[Card]]:
    """Microsoft FreeCell deal ``number``: eight columns, each listed bottom first.

    Columns 1-4 get 7 cards and 5-8 get 6, as ``make-microsoft-freecell-board -t N`` prints them.

    :param number: 1 <= number < 2**31.
    :raises ValueError: for a number out of range.
    """
    if not 1 <= number < 2**31:
        raise ValueError(f"Microsoft deal number {number} is out of range (1..{2**31 - 1})")
    rand = MicrosoftRand(number)
    # Microsoft's deck order: rank-major, clubs, diamonds, hearts, spades within a rank.
    cards = [Card.of(rank, suit) for rank in Rank for suit in Suit]
    columns: list[list[Card]] = [[] for _ in range(8)]
    left = len(cards)
    for i in range(52):
        j = rand.rand() % left
        columns[i % 8].append(cards[j])
        cards[j] = cards[left - 1]
        left -= 1
    return columns
