"""Playing one deal: a strategy plays a deal of a game to the end and gives its row.

Layer 4. :func:`play_deal` is what every batch plays (in this process or in a worker);
:func:`plugin_failure` turns an error a plugin's own code raised while a deal was played into the
one line the command line prints for it.

The game and the strategy are trusted once loaded: their answers are used as they come, unchecked
(checking them cost 12 to 15% of the games a second). A plugin author learns that an answer is
wrong from the conformance kit (:mod:`patience_core.testing`); a plugin that raises is still
named in one line (:func:`plugin_failure`).
"""

from __future__ import annotations

import hashlib
import os
import time

from patience_core.engine import DealNumber
from patience_core.errors import PatienceError, PluginError, one_line, plugin_behind
from patience_core.games import Game, StrategyFactory
from patience_core.simulate._rows import (
    DEAD,
    DEFAULT_MAX_MOVES,
    LOST,
    STOPPED,
    UNKNOWN,
    WON,
    SimRow,
    options_text,
)

__all__ = ["play_deal", "plugin_failure", "strategy_seed"]


def strategy_seed(deal: DealNumber, strategy: str) -> int:
    """The 32-bit seed given to the strategy for ``deal``: the first four bytes (big-endian) of
    BLAKE2b over ``"<strategy>\\0<str(deal)>"``. The same in every process and on every platform.
    """
    digest = hashlib.blake2b(f"{strategy}\0{deal}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big")


def play_deal(
    game: Game,
    factory: StrategyFactory,
    deal: DealNumber,
    strategy: str,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> SimRow:
    """Deal ``deal`` of ``game`` and let the strategy play it to the end.

    The game ends ``won`` when the game's win test holds, ``lost`` when no legal move is left,
    ``stopped`` when ``max_moves`` moves have been played without either, or when the strategy
    resigns (returns ``None``); a resigning strategy whose ``outcome`` attribute is ``"dead"`` or
    ``"unknown"`` ends the game with that result instead, and one whose ``outcome`` is
    ``"dead"`` (it proved the game dead, then played on for points) ends ``dead`` when no legal
    move is left.

    The game's answers and the strategy's moves are trusted (see the module's docstring).

    :param factory: builds the player: ``factory(game, strategy_seed(deal, strategy))``.
    :param strategy: the strategy's name (for the row and the seed).
    :param max_moves: the move cap, >= 1.
    :raises BadDeal: when the game does not take ``deal``'s numbering scheme.
    :raises PluginError: when the factory makes something without a ``choose`` method (checked
        once per deal, where the plugin hands its player over).
    """
    start = time.process_time()
    position = game.deal(deal)
    player = factory(game, strategy_seed(deal, strategy))
    choose = getattr(player, "choose", None)
    if not callable(choose):
        raise PluginError(
            f"strategy {strategy!r} is broken: it made {type(player).__name__}, "
            "which has no choose(position, legal) method"
        )
    # The methods looked up once: this loop is simulate's hot path.
    is_won, legal_moves, play = game.is_won, game.legal_moves, game.play
    moves = 0
    result = STOPPED
    while True:
        if is_won(position):
            result = WON
            break
        legal = legal_moves(position)
        if not legal:
            # A player that proved the game dead and played on for points keeps its verdict.
            result = DEAD if getattr(player, "outcome", None) == DEAD else LOST
            break
        if moves >= max_moves:
            break
        move = choose(position, legal)
        if move is None:
            outcome = getattr(player, "outcome", STOPPED)
            result = outcome if outcome in (DEAD, UNKNOWN) else STOPPED
            break
        position = play(position, move)
        moves += 1
    return SimRow(
        game=game.name,
        deal=str(deal),
        strategy=strategy,
        options=options_text(game.option_values),
        result=result,
        score=game.score(position),
        max_score=game.max_score,
        moves=moves,
        seconds=round(time.process_time() - start, 6),
    )


def plugin_failure(exc: BaseException) -> BaseException:
    """The error to report for ``exc``, raised while a deal was played: ``exc`` itself, or,
    when a plugin's own code raised it (:func:`~patience_core.errors.plugin_behind`: a game's
    method, a player a plugin registered; any exception but ``KeyboardInterrupt``, even
    ``SystemExit``), a :class:`PluginError` with the line the command line prints for such an
    error (``the plugin patience-golf failed: RuntimeError: boom (set PATIENCE_DEBUG=1 for
    details)``).

    The plugin can only be found while the traceback exists, in the process that played the
    deal: turned into that line there, the error gives the same message and exit code for any
    ``--jobs``. With ``PATIENCE_DEBUG`` set, ``exc`` is kept, for its traceback.
    """
    if isinstance(exc, PatienceError) or os.environ.get("PATIENCE_DEBUG"):
        return exc
    culprit = plugin_behind(exc)
    if culprit is None:
        return exc
    return PluginError(
        f"the plugin {culprit} failed: {one_line(exc)} (set PATIENCE_DEBUG=1 for details)"
    )
