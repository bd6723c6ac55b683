"""The games package: the rules interface every game plugin implements (:class:`Game`), its
options, the declaration checks made when a game registers, the registry, position formats, the
search protocol a game may add for the solver, and the built-in players."""

from __future__ import annotations

from patience_core.games._board import (
    FANS,
    BoardLayout,
    BoardRow,
    Fan,
    board_of,
    default_board,
)
from patience_core.games._declaration import (
    CORE_FORMATS,
    DEAL_SCHEMES,
    GAME_NAME,
    GAME_NAME_LIMIT,
    TITLE_LIMIT,
    declaration_problem,
)
from patience_core.games._formats import (
    POSITION_FORMAT,
    POSITION_VERSION,
    meant_card,
    position_from_dict,
    position_to_dict,
    twice_problem,
)
from patience_core.games._game import Game, Painter, PositionFormat
from patience_core.games._options import GameOption, chosen_options, parse_options
from patience_core.games._players import (
    GreedyStrategy,
    RandomStrategy,
    Strategy,
    StrategyFactory,
    StrategyRegistry,
)
from patience_core.games._positions import (
    LONGEST_PATH,
    MAX_POSITION_BYTES,
    cannot_read,
    decode_text,
    file_options,
    json_object,
    read_failure,
    read_file_bytes,
    read_position,
    read_position_file,
    read_position_text,
    recorded_options,
    shown_path,
)
from patience_core.games._registry import GameRegistry, distribution_of
from patience_core.games._search import GameSearch, is_default
from patience_core.games._searchspace import (
    AnySpace,
    PositionSpace,
    SearchSpace,
    State,
    Step,
)

__all__ = [
    "CORE_FORMATS",
    "DEAL_SCHEMES",
    "FANS",
    "GAME_NAME",
    "GAME_NAME_LIMIT",
    "LONGEST_PATH",
    "MAX_POSITION_BYTES",
    "POSITION_FORMAT",
    "POSITION_VERSION",
    "TITLE_LIMIT",
    "AnySpace",
    "BoardLayout",
    "BoardRow",
    "Fan",
    "Game",
    "GameOption",
    "GameRegistry",
    "GameSearch",
    "GreedyStrategy",
    "Painter",
    "PositionFormat",
    "PositionSpace",
    "RandomStrategy",
    "SearchSpace",
    "State",
    "Step",
    "Strategy",
    "StrategyFactory",
    "StrategyRegistry",
    "board_of",
    "cannot_read",
    "chosen_options",
    "declaration_problem",
    "decode_text",
    "default_board",
    "distribution_of",
    "file_options",
    "is_default",
    "json_object",
    "meant_card",
    "parse_options",
    "position_from_dict",
    "position_to_dict",
    "read_failure",
    "read_file_bytes",
    "read_position",
    "read_position_file",
    "read_position_text",
    "recorded_options",
    "shown_path",
    "twice_problem",
]
