"""The engine: deal numbers and the deterministic shuffle, rule building blocks, move notation.

Layer 2 of the architecture: it builds on :mod:`patience_core.model` only."""

from __future__ import annotations

from patience_core.engine._deadline import (
    search_limits,
    time_is_up,
)
from patience_core.engine._deal import (
    AISLERIOT,
    MAX_DIGITS,
    MS,
    DealNumber,
    SchemeNotTaken,
    aisleriot_shuffle,
    microsoft_deal,
    standard_deck,
)
from patience_core.engine._notation import (
    KIND_LETTERS,
    NOTATION_HELP,
    counted,
    format_move,
    parse_move,
    read_candidate,
    shown,
    unseen_card,
)
from patience_core.engine._rng import (
    GRand,
    MicrosoftRand,
)
from patience_core.engine._rules import (
    Build,
    EmptyPile,
    adjacent_ranks,
    auto_play,
    builds_on,
    deal_round,
    face_up_length,
    flip_top,
    foundation_accepts,
    move_cards,
    next_rank,
    run_length,
    run_moves,
    supermove_limit,
)

__all__ = [
    "AISLERIOT",
    "KIND_LETTERS",
    "MAX_DIGITS",
    "MS",
    "NOTATION_HELP",
    "Build",
    "DealNumber",
    "EmptyPile",
    "GRand",
    "MicrosoftRand",
    "SchemeNotTaken",
    "adjacent_ranks",
    "aisleriot_shuffle",
    "auto_play",
    "builds_on",
    "counted",
    "deal_round",
    "face_up_length",
    "flip_top",
    "format_move",
    "foundation_accepts",
    "microsoft_deal",
    "move_cards",
    "next_rank",
    "parse_move",
    "read_candidate",
    "run_length",
    "run_moves",
    "search_limits",
    "shown",
    "standard_deck",
    "supermove_limit",
    "time_is_up",
    "unseen_card",
]
