"""``Family.max_score_for``: the one hook from which a family's ``max_score`` follows its
deck, set before the rules text (which may count foundations from it)."""

from __future__ import annotations

import pytest

from patience_core.families import (
    Family,
    FreeCellFamily,
    GolfFamily,
    KlondikeFamily,
    SpiderFamily,
    make_variant,
)


@pytest.mark.parametrize(
    ("family", "deck", "score"),
    [
        (KlondikeFamily, "standard", 52),
        (KlondikeFamily, "two-decks", 104),
        (FreeCellFamily, "two-decks", 104),
        (SpiderFamily, "two-decks", 96),
        (SpiderFamily, "standard", 48),
    ],
)
def test_the_score_follows_the_deck(family: type[Family], deck: str, score: int) -> None:
    values: dict[str, object] = {"name": "mine", "title": "Mine", "deck": deck}
    if family is SpiderFamily and deck == "standard":
        values |= {"columns": 7, "face-down": "0 1 2 3 4 5 6"}
    variant = make_variant(family, values)
    assert variant.max_score == score == family.max_score_for(len(variant(None).new_deck()))


def test_klondikes_rules_count_the_foundations_from_it() -> None:
    variant = make_variant(KlondikeFamily, {"name": "k", "title": "K", "deck": "two-decks"})
    assert "8 foundations start empty" in variant.rules


def test_a_family_without_the_hook_keeps_its_own_score() -> None:
    assert GolfFamily.max_score_for(52) is None
    wide = make_variant(GolfFamily, {"name": "g", "title": "G", "deck": "two-decks"})
    assert wide.max_score == 35  # the tableau's cards, not the deck's
