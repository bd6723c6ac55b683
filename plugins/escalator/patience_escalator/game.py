"""The rules of Escalator (RULES.md Part A "Escalator", Part B §1), as a golf-family declaration:
the family lays out, plays, scores, refuses and writes the rules text; its search solves it."""

from __future__ import annotations

from patience_core.api import GolfFamily


class Escalator(GolfFamily):
    """Escalator: clear a 28-card pyramid onto the waste by ranks one apart, K and A adjacent.

    Piles (Aisleriot slots, RULES.md Part B §1): ``s`` stock (slot 0), ``w`` waste (slot 1),
    ``p1``..``p28`` the pyramid row by row from the apex (slots 2..29). The waste starts empty,
    so the first move is a deal; won as soon as the pyramid is empty, even with stock left.
    """

    name = "escalator"
    title = "Escalator"
    tableau = "pyramid"
    rows = 7
    waste_start = 0
    wrap = True
