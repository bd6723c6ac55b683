"""A variant with ten free cells and twelve columns: every pile label is unique and parses
back to its pile, in `patience deal`, in move text typed by label, and on the full-screen
board at any width (c10 beside t10)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.engine import DealNumber, format_move, parse_move
from patience_core.families import FreeCellFamily, make_variant
from patience_core.model import MoveKind
from patience_core.testing import CliResult
from patience_core.tui._geometry import board_geometry

BIG_CELL = """\
family = "freecell"
name = "big-cell"
title = "Big Cell"

[parameters]
cells = 10
columns = 12
"""
BigCell = make_variant(
    FreeCellFamily, {"name": "big-cell", "title": "Big Cell", "cells": 10, "columns": 12}
)


def test_patience_deal_shows_every_pile_once(
    add_variant: Callable[[str, str], Path], run_patience: Callable[..., CliResult]
) -> None:
    add_variant("big-cell", BIG_CELL)
    result = run_patience("deal", "big-cell", "--deal", "1")
    assert result.code == 0, result.err
    labels = re.findall(r"\b([a-z]+\d+)\b", result.out)
    names = [spec.name for spec in BigCell(None).piles]
    assert sorted(labels) == sorted(names)  # each pile once, no two alike


def test_every_move_typed_by_label_reads_back_to_its_piles() -> None:
    game = BigCell(None)
    rng = random.Random(7)
    for deal in (1, 2):
        position = game.deal(DealNumber(deal))
        for _ in range(60):
            legal = game.legal_moves(position)
            if not legal:
                break
            for move in legal:
                assert move.kind is not MoveKind.DEAL
                text = format_move(game.piles, move, legal)
                assert parse_move(text, game.piles, position, legal) == move, text
                assert move.target is not None
                source, target = game.piles[move.source].name, game.piles[move.target].name
                typed = parse_move(f"{source}{target}", game.piles, position, legal)
                assert (typed.source, typed.target) == (move.source, move.target), text
            position = game.apply(position, rng.choice(legal))


@pytest.mark.parametrize("width", [41, 50, 60, 80])
def test_the_full_screen_board_never_shows_two_piles_alike(width: int) -> None:
    game = BigCell(None)
    geometry = board_geometry(game, game.deal(DealNumber(1)), width, 40)
    assert geometry.needed is None
    names = [item.text for item in geometry.placed if item.what == "name"]
    assert len(names) == len(set(names)) >= 2 * 12
