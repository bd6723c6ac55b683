"""The rules text of a free-cell variant, written from its declaration (RULES.md Part A "Baker's
Game" is the model: layout, goal, play, runs, auto-play, lost, score, moves, deals)."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from patience_core.families._policies import POLICIES

if TYPE_CHECKING:
    from patience_core.families._freecell import FreeCellFamily


def _span(letter: str, count: int) -> str:
    return f"{letter}1" if count == 1 else f"{letter}1-{letter}{count}"


def _columns(count: int, cards: int) -> str:
    """How the cards lie in the columns: ``t1-t4 hold 7 cards, t5-t8 hold 6``."""
    low, extra = divmod(cards, count)
    if not extra:
        return f"each holds {low}"
    return f"{_span('t', extra)} hold {low + 1} cards, t{extra + 1}-t{count} hold {low}"


def rules_text(cls: type[FreeCellFamily]) -> str:
    """The rules text of the free-cell variant ``cls``, ending with its ``own_rules``."""
    if cls.declaration_problem():
        return f"{cls.title}\n"
    deck = POLICIES.deck(cls.deck)
    cards = len(deck.cards())
    homes = cards // 13
    build = POLICIES.build(cls.build).text
    empty = POLICIES.empty(cls.empty_columns).text
    dealt = cards - cls.cells_dealt
    cells = f"{cls.cells} free cells {_span('c', cls.cells)}" if cls.cells else "no free cells"
    in_cells = f" (the last {cls.cells_dealt} cards go to c1, c2, ...)" if cls.cells_dealt else ""
    parts = [
        cls.title,
        f"Layout: {deck.text}, {dealt} cards face up in {cls.columns} columns "
        f"({_columns(cls.columns, dealt)}){in_cells}; {cells} and {homes} foundations "
        f"{_span('f', homes)}, empty at the start.",
        "Goal: build each foundation up in suit from Ace to King.",
        "Play: the top card of a column or a free cell may go to a foundation (an Ace to the "
        "first empty one, then the same suit one rank higher), to an empty free cell, or onto a "
        f"column, building {build}. A free cell holds one card. An empty column takes {empty}.",
    ]
    if cls.lift == "single":
        parts.append("Runs: one card moves at a time.")
    else:
        limit = {
            "none": "any length",
            "cells": "at most (empty free cells + 1) cards long",
            "full": "at most (empty free cells + 1) x 2^(empty columns) cards long, counting "
            "neither the destination nor the source; empty columns count only when they take "
            "any card, so otherwise the limit is (empty free cells + 1)",
        }[cls.supermove]
        parts.append(f"Runs: a run built {build} may move as a unit, {limit}.")
    for option in cls.options:
        choices = " or ".join(f"{option.name}={c}" for c in option.choices)
        parts.append(f"Option {choices} (default {option.default}): {option.help}.")
    parts.append(
        {
            "all": "Auto-play: after every move, each card that fits its foundation is moved "
            "there, again and again, as part of the same move (free cells first, then columns). "
            "There is no auto-play at the deal.",
            "safe": "Auto-play: after every move, each card that fits its foundation and that "
            "no card still out could be built on is moved there, again and again, as part of "
            "the same move (free cells first, then columns). There is no auto-play at the deal.",
            "none": "Auto-play: none; play cards to the foundations by hand.",
        }[cls.auto_play]
    )
    parts += [
        "Lost: when no legal move is left.",
        f"Score: one point per card on the foundations ({cards} at most).",
        "Moves: 't3 t5' moves the run that fits from t3 onto t5 ('t3 t5 2' names the count); "
        "'t3 c' to a free cell; 'c1 f' or 't3 f' to a foundation; a card's name such as "
        "'9h t5' also works.",
        "Deals: --deal N is Aisleriot's deal N"
        + ("; --deal ms:N is Microsoft FreeCell's deal N." if cls.ms_deals else "."),
    ]
    if cls.own_rules:
        parts.append(cls.own_rules.strip())
    return "\n\n".join(textwrap.fill(part, 96) for part in parts) + "\n"
