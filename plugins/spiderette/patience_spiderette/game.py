"""The rules of Spiderette (RULES.md Part A "Spiderette", Part B §5): a declaration of the
spider family (docs/families.md, "The spider family"), which plays, scores and refuses moves
exactly as Spiderette's own rules did; the rules text below is Spiderette's own words."""

from __future__ import annotations

from patience_core.api import SpiderFamily, complete_suit

__all__ = ["COLUMNS", "FOUNDATIONS", "STOCK", "SUIT_LENGTH", "SUIT_POINTS", "Spiderette",
           "complete_suit"]  # fmt: skip

#: Pile indices; each equals the pile's Aisleriot slot id (Part B §5, Layout).
STOCK = 0
FOUNDATIONS = (1, 2, 3, 4)
COLUMNS = (5, 6, 7, 8, 9, 10, 11)
SUIT_LENGTH = 13
#: Points for a suit completed to a foundation (the 12 pairs it held, Part A "Spiderette").
SUIT_POINTS = 12

RULES = """\
Spiderette

Layout: seven columns t1-t7 dealt like Klondike, holding 1 to 7 cards with only the top card face
up; a stock s of 24 face-down cards; four foundations f1-f4, empty at the start.

Goal: assemble each suit as one run King down to Ace. A complete run may stay on the tableau or go
to an empty foundation; the game is won when all four suits are complete, in any mix.

Play: a run of face-up cards of one suit in descending order (a single card is a run) may move onto
a card one rank higher of any suit, or onto an empty column. Only a complete King-to-Ace run of 13
cards may go to a foundation. A face-down card left on top of a column is turned face up.

Deal: 'deal' (or 's') deals one card face up onto each column, t1 to t7. It is refused while any
column is empty. The last deal has 3 cards, for t1-t3. There is no redeal.

Lost: when no legal move is left (rare: moves usually remain even when the game cannot be won).

Score: one point for each face-up card lying on the card of its suit one rank higher, plus 12 for
each suit on the foundations (48 at most).

Moves: 't3 t5' moves the run that fits from t3 onto t5; onto an empty column it takes the longest
run unless a count is given ('t3 t5 2') or a card is named ('9h t5'); 't3 f' takes a complete run
to a foundation.
"""


class Spiderette(SpiderFamily):
    """Spiderette: one-deck Spider on a 1..7 Klondike layout.

    Piles (Aisleriot slots, RULES.md Part B §5): ``s`` stock (slot 0), ``f1``..``f4`` foundations
    (slots 1-4), ``t1``..``t7`` columns (slots 5-11); the index of a pile is its slot id.
    """

    name = "spiderette"
    title = "Spiderette"
    rules = RULES
    deck = "standard"
    columns = 7
    face_down = "0 1 2 3 4 5 6"
