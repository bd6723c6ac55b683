"""The public plugin API of patience: everything a game plugin may import, in one module.

A plugin imports from here (and ``hookimpl`` from :mod:`patience_core`); every other module of
``patience_core`` is private and may change. The API carries :data:`API_VERSION`; it changes only
by adding.

Example::

    from patience_core import hookimpl
    from patience_core.api import Game, GameRegistry, Move, PileKind, PileSpec, Position

    class MyGame(Game):
        ...

    @hookimpl
    def patience_register_games(registry: GameRegistry) -> None:
        registry.add(MyGame)
"""

from __future__ import annotations

from patience_core import API_VERSION, hookimpl
from patience_core.engine import (
    AISLERIOT,
    MS,
    Build,
    DealNumber,
    EmptyPile,
    adjacent_ranks,
    aisleriot_shuffle,
    auto_play,
    builds_on,
    deal_round,
    face_up_length,
    flip_top,
    foundation_accepts,
    microsoft_deal,
    move_cards,
    next_rank,
    run_length,
    run_moves,
    standard_deck,
    supermove_limit,
    time_is_up,
)
from patience_core.errors import (
    BadDeal,
    BadMoveText,
    BadOption,
    BadSave,
    IllegalMove,
    PatienceError,
    PluginError,
    UnknownGame,
)
from patience_core.families import (
    POLICIES,
    BuildPolicy,
    Deck,
    EmptyPolicy,
    Family,
    FreeCellFamily,
    FreeCellSearch,
    GolfFamily,
    GolfSearch,
    KlondikeFamily,
    KlondikeSearch,
    Parameter,
    PileRule,
    PolicyRegistry,
    SpiderFamily,
    SpiderSearch,
    VariantError,
    complete_suit,
    make_variant,
    read_fcs,
    write_fcs,
)
from patience_core.games import (
    BoardLayout,
    BoardRow,
    Game,
    GameOption,
    GameRegistry,
    GameSearch,
    Painter,
    PositionFormat,
    PositionSpace,
    SearchSpace,
    Strategy,
    StrategyRegistry,
)
from patience_core.model import Card, Move, MoveKind, PileKind, PileSpec, Position, Rank, Suit

__all__ = [
    "AISLERIOT",
    "API_VERSION",
    "MS",
    "POLICIES",
    "BadDeal",
    "BadMoveText",
    "BadOption",
    "BadSave",
    "BoardLayout",
    "BoardRow",
    "Build",
    "BuildPolicy",
    "Card",
    "DealNumber",
    "Deck",
    "EmptyPile",
    "EmptyPolicy",
    "Family",
    "FreeCellFamily",
    "FreeCellSearch",
    "Game",
    "GameOption",
    "GameRegistry",
    "GameSearch",
    "GolfFamily",
    "GolfSearch",
    "IllegalMove",
    "KlondikeFamily",
    "KlondikeSearch",
    "Move",
    "MoveKind",
    "Painter",
    "Parameter",
    "PatienceError",
    "PileKind",
    "PileRule",
    "PileSpec",
    "PluginError",
    "PolicyRegistry",
    "Position",
    "PositionFormat",
    "PositionSpace",
    "Rank",
    "SearchSpace",
    "SpiderFamily",
    "SpiderSearch",
    "Strategy",
    "StrategyRegistry",
    "Suit",
    "UnknownGame",
    "VariantError",
    "adjacent_ranks",
    "aisleriot_shuffle",
    "auto_play",
    "builds_on",
    "complete_suit",
    "deal_round",
    "face_up_length",
    "flip_top",
    "foundation_accepts",
    "hookimpl",
    "make_variant",
    "microsoft_deal",
    "move_cards",
    "next_rank",
    "read_fcs",
    "run_length",
    "run_moves",
    "standard_deck",
    "supermove_limit",
    "time_is_up",
    "write_fcs",
]
