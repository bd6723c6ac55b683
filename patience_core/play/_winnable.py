"""Winnable deals (``patience play GAME --winnable``, the full-screen player's new-deal dialog):
random deal numbers, each searched by the thoughtful solver within a node budget, the first one
proved winnable is played (issue 18, item 8).

The budget is in positions searched, not seconds, so the same seed gives the same deal on every
machine. A deal the search does not decide within the budget is skipped like a dead one: the
deal chosen is always one with a winning line found, never a guess.
"""

from __future__ import annotations

import random
import threading
from typing import overload

import attrs

from patience_core.engine import AISLERIOT, DealNumber, counted
from patience_core.errors import PatienceError
from patience_core.games import Game, GameSearch
from patience_core.solve import Budget, Verdict, solve

__all__ = ["WINNABLE_NODES", "WINNABLE_TRIES", "WinnableDeal", "winnable_deal"]

#: The positions searched per deal at most.
WINNABLE_NODES = 20_000
#: The deals tried at most before giving up.
WINNABLE_TRIES = 200

#: The largest deal number of each scheme a random winnable deal is drawn from.
_HIGHEST = {AISLERIOT: 2**32 - 1, "ms": 2**31 - 1}


@attrs.frozen
class WinnableDeal:
    """A deal proved winnable.

    :param deal: the deal number.
    :param tried: how many deals were searched to find it (this one included).
    :param moves: the length of the winning line found.
    """

    deal: DealNumber
    tried: int
    moves: int

    def sentence(self) -> str:
        """``"Deal 123 (checked winnable by the solver)."``."""
        return f"Deal {self.deal} (checked winnable by the solver)."


@overload
def winnable_deal(
    game: Game,
    search: GameSearch | None,
    rng_seed: int,
    budget: int = ...,
    tries: int = ...,
    cancel: None = None,
) -> WinnableDeal: ...


@overload
def winnable_deal(
    game: Game,
    search: GameSearch | None,
    rng_seed: int,
    budget: int = ...,
    tries: int = ...,
    *,
    cancel: threading.Event,
) -> WinnableDeal | None: ...


def winnable_deal(
    game: Game,
    search: GameSearch | None,
    rng_seed: int,
    budget: int = WINNABLE_NODES,
    tries: int = WINNABLE_TRIES,
    cancel: threading.Event | None = None,
) -> WinnableDeal | None:
    """The first of a seeded series of random deals of ``game`` that the thoughtful solver
    proves winnable within ``budget`` positions.

    :param search: the game's search object (``PluginHost.search``); ``None``: the generic one.
    :param rng_seed: the seed of the series (the same seed, the same deal, everywhere).
    :param budget: positions searched per deal.
    :param tries: deals searched at most.
    :param cancel: when it is set (by another thread), the search stops before the next deal
        (one deal's search, a fraction of a second, is not cut short) and ``None`` is
        returned.
    :returns: the deal, or ``None`` when cancelled.
    :raises PatienceError: when none of ``tries`` deals is proved winnable.
    """
    scheme = game.deal_schemes[0]
    highest = _HIGHEST.get(scheme, 2**31 - 1)
    rng = random.Random(rng_seed)
    limit = Budget(nodes=budget, seconds=float("inf"))
    for tried in range(1, tries + 1):
        if cancel is not None and cancel.is_set():
            return None
        deal = DealNumber(rng.randint(1, highest), scheme)
        solution = solve(game, game.deal(deal), limit, search)
        if solution.verdict is Verdict.WON:
            return WinnableDeal(deal, tried, len(solution.moves))
    if cancel is not None and cancel.is_set():
        return None
    raise PatienceError(
        f"no winnable {game.title} deal found in {counted(tries, 'deal')} "
        f"({budget:,} positions searched each); play a random deal instead"
    )
