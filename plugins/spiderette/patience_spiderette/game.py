"""The rules of Spiderette (RULES.md Part A "Spiderette", Part B §5): a declaration of the
spider family (docs/families.md, "The spider family"), which lays out, plays, scores, refuses
moves and writes the rules text; its search solves it."""

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


class Spiderette(SpiderFamily):
    """Spiderette: one-deck Spider on a 1..7 Klondike layout.

    Piles (Aisleriot slots, RULES.md Part B §5): ``s`` stock (slot 0), ``f1``..``f4`` foundations
    (slots 1-4), ``t1``..``t7`` columns (slots 5-11); the index of a pile is its slot id.
    """

    name = "spiderette"
    title = "Spiderette"
    deck = "standard"
    columns = 7
    face_down = "0 1 2 3 4 5 6"
