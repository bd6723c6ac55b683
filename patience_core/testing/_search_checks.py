"""The conformance kit's checks of a game's search object against the plain generic search.

A game's :class:`~patience_core.games.GameSearch` only speeds the solver up; every member but
``order_moves`` and ``find_win`` can make the solver's "dead" a lie when it is wrong. These checks
compare it with the rules: the space it searches along random walks (:func:`check_search_space`),
its keys over a breadth-first search (:func:`check_key_merges`), and, in
:meth:`GameConformance.test_shortcuts_keep_the_verdicts
<patience_core.testing.GameConformance.test_shortcuts_keep_the_verdicts>`, its verdicts against
those of :func:`plain_search`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from patience_core.engine import DealNumber, GRand
from patience_core.games import Game, GameSearch, PositionSpace, is_default
from patience_core.model import Move, Position

__all__ = ["SHORTCUTS", "check_key_merges", "check_search_space", "plain_search", "search_for"]

#: The :class:`GameSearch` members that let the solver skip work: each must keep every win.
SHORTCUTS = ("forced_move", "moves_to_try", "play", "is_dead", "search_space", "find_win")


def search_for(game: Game) -> GameSearch:
    """The search object the command line uses for ``game``: the class its plugin registered
    beside it (``host.search(game)``) for a game of a registered class, a subclass too; the
    generic :class:`GameSearch` for any other game."""
    from patience_core.plugins import PluginHost

    host = PluginHost().load()
    if game.name in host.games and isinstance(game, host.games.get(game.name)):
        return host.search(game)
    return GameSearch(game)


class _PlainSearch(GameSearch):
    """The generic search with another search object's key and move order (see
    :func:`plain_search`)."""

    def __init__(self, search: GameSearch) -> None:
        super().__init__(search.game)
        self._own = search

    def key(self, position: Position) -> Hashable:
        """The own search object's key."""
        return self._own.key(position)

    def order_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """The own search object's move order."""
        return self._own.order_moves(position, moves)


def plain_search(search: GameSearch) -> GameSearch:
    """``search`` without its shortcuts (:data:`SHORTCUTS`): the solver then searches every
    legal move, one at a time, played by the game's own ``play``, with no forced move, no proof
    of ``dead`` but the exhausted search, and no win finder. :meth:`GameSearch.key` and
    :meth:`GameSearch.order_moves` are kept (the key is checked along random walks, and order
    changes no verdict).

    :returns: a new search object over the same game; ``search`` is left as it is.
    """
    return _PlainSearch(search)


def _check_key_and_play(
    search: GameSearch, position: Position, legal: Sequence[Move], where: str
) -> None:
    """The position's key can be hashed, and the search object's own ``play`` (when it has one)
    gives what the game's gives."""
    key = search.key(position)
    try:
        hash(key)
    except TypeError:
        raise AssertionError(
            f"{where}: key returned a {type(key).__name__}, which cannot be hashed: return a "
            "tuple, bytes, text or number (the solver keeps keys in a table)"
        ) from None
    if is_default(search, "play"):
        return
    game = search.game
    for move in legal:
        assert search.play(position, move) == game.play(position, move), (
            f"{where}: the search plays {game.move_text(position, move)!r} to another position "
            "than the game's play"
        )


def check_search_space(
    game: Game,
    deal: int | DealNumber,
    seed: int,
    steps: int = 150,
    search: GameSearch | None = None,
) -> int:
    """Check the space the solver searches against the game's own rules along a random walk:
    the search object's :meth:`GameSearch.search_space`, or where it has none (or it returns
    ``None``) the default space over :meth:`GameSearch.moves_to_try`, :meth:`GameSearch.play`,
    :meth:`GameSearch.forced_move` and :meth:`GameSearch.key`. So every member of the search
    object that can make "dead" a lie is checked against the plain rules.

    At each position of the walk:

    * the position's :meth:`GameSearch.key` can be hashed; a search object's own
      :meth:`GameSearch.play` gives what ``Game.play`` gives, for every legal move;

    * every child step maps (:meth:`SearchSpace.moves`) to legal moves; the child agrees on
      won-ness with the position they lead to, and has the same :meth:`SearchSpace.key` as the
      start of that position's own search space (so keys must depend on the state only, not on
      the position a space was made from);
    * every legal move's result, or that result after its :meth:`GameSearch.forced_move` chain,
      has the same :meth:`GameSearch.key` as some child's position or as the position itself
      (the space leaves out only moves the solver's table would skip anyway; any other omission
      would make "dead" a lie); not checked for the default space of a search object that
      overrides :meth:`GameSearch.moves_to_try`, which may leave out moves no winning line
      needs;
    * states with equal keys agree on won-ness, on the keys of their children and on the
      number of legal moves of their positions (a key that merges states with different futures
      would make "dead" a lie too; positions that differ only by interchangeable piles have as
      many moves).

    :param seed: seeds the move choices (32-bit); every few steps the walk takes a move into an
        empty pile when there is one, where search spaces most often cut corners.
    :param search: the search object to check; default: the game's registered one
        (:func:`search_for`).
    :returns: the number of positions checked.
    :raises AssertionError: naming the deal, step and move, on the first disagreement.
    """
    from patience_core.solve import space_for

    if search is None:
        search = search_for(game)
    number = deal if isinstance(deal, DealNumber) else DealNumber(deal)
    position = game.deal(number)
    rand = GRand(seed & 0xFFFFFFFF)
    checked = 0
    futures: dict[Any, tuple[bool, frozenset[Any], int]] = {}
    for step in range(steps):
        legal = game.legal_moves(position)
        where = f"deal {number} step {step}"
        _check_key_and_play(search, position, legal, where)
        space = space_for(search, position)
        checked += 1
        state, _ = space.start()
        # The start may be a few moves on (forced moves a space plays first).
        prefix = space.moves([])
        base = position
        for move in prefix:
            base = game.play(base, move)
        reached = {search.key(base)}
        for child_step, child, _cost in space.children(state):
            after = base
            for move in space.moves([child_step])[len(prefix) :]:
                text = game.move_text(after, move) if move in game.legal_moves(after) else ""
                assert text, f"{where}: the search space plays {move}, which is not legal"
                after = game.play(after, move)
            assert space.is_won(child) == game.is_won(after), f"{where}: won differs"
            own = space_for(search, after)
            assert space.key(child) == own.key(own.start()[0]), (
                f"{where}: the child for {text!r} is not the position it leads to"
            )
            reached.add(search.key(after))
            grandchildren = frozenset(space.key(c) for _s, c, _n in space.children(child))
            future = (space.is_won(child), grandchildren, len(game.legal_moves(after)))
            seen = futures.setdefault(space.key(child), future)
            assert seen == future, (
                f"{where}: the child for {text!r} has the key of a state with another future ("
                + (
                    f"{seen[2]} legal moves there, {future[2]} here"
                    if seen[2] != future[2]
                    else "other results of their moves"
                )
                + "): the key must tell apart positions that play differently"
            )
        # GameSearch.moves_to_try may leave out moves no winning line needs (the game's own
        # claim, which no walk can check); every other space must offer them all.
        every_move = not isinstance(space, PositionSpace) or is_default(search, "moves_to_try")
        for move in game.legal_moves(base) if every_move else ():
            after = game.play(base, move)
            if search.key(after) in reached:
                continue
            after = _forced_chain(game, search, after, where)
            assert search.key(after) in reached, (
                f"{where}: the search space has no child for {game.move_text(base, move)!r}"
            )
        if not legal:
            break
        into_empty = [m for m in legal if m.target is not None and not position[m.target]]
        choices = into_empty if into_empty and rand.int_range(0, 4) == 0 else legal
        position = game.play(position, choices[rand.int_range(0, len(choices))])
    return checked


def check_key_merges(
    game: Game, deal: int | DealNumber, nodes: int = 2000, search: GameSearch | None = None
) -> int:
    """Check that the keys of the space the solver searches merge only states that play alike,
    over the first ``nodes`` states of a breadth-first search from ``deal`` (the walks of
    :func:`check_search_space` seldom meet two different states with one key; a search from
    the deal meets many).

    Each time the search reaches a state whose key an earlier, different state had, both must
    agree on won-ness, on their number of children and on their children's keys. States that
    differ only by interchangeable piles do (with canonical keys); a key that leaves out what
    tells two positions apart (a column's height without its cards, say) seldom does, and it
    would make the solver's "dead" a lie.

    :param nodes: distinct keys searched at most.
    :param search: the search object to check; default: the game's registered one
        (:func:`search_for`).
    :returns: the number of merged pairs compared.
    :raises AssertionError: naming the deal, on the first pair that disagrees.
    """
    from collections import deque

    from patience_core.solve import space_for

    if search is None:
        search = search_for(game)
    number = deal if isinstance(deal, DealNumber) else DealNumber(deal)
    space = space_for(search, game.deal(number))
    start, _ = space.start()

    def future(state: Any) -> tuple[bool, int, frozenset[Any]]:
        children = [space.key(child) for _step, child, _cost in space.children(state)]
        return space.is_won(state), len(children), frozenset(children)

    # key -> [the first state with it, its future (None until needed)]
    first: dict[Any, list[Any]] = {space.key(start): [start, None]}
    queue = deque([start])
    compared = 0
    while queue and len(first) < nodes:
        state = queue.popleft()
        for _step, child, _cost in space.children(state):
            key = space.key(child)
            seen = first.get(key)
            if seen is None:
                first[key] = [child, None]
                queue.append(child)
                continue
            if seen[0] == child:
                continue
            if seen[1] is None:
                seen[1] = future(seen[0])
            mine = future(child)
            compared += 1
            if mine != seen[1]:
                what = (
                    "one is won, the other not"
                    if mine[0] != seen[1][0]
                    else f"{seen[1][1]} and {mine[1]} moves"
                    if mine[1] != seen[1][1]
                    else "their moves lead to positions of other keys"
                )
                raise AssertionError(
                    f"deal {number}: two different positions have the same key but play "
                    f"differently ({what}): the key (GameSearch.key, or the search space's) "
                    "must tell apart positions with different futures"
                )
    return compared


def _forced_chain(game: Game, search: GameSearch, position: Position, where: str) -> Position:
    """``position`` after the forced moves ``search`` declares from it.

    :raises AssertionError: when the forced moves come back to a position of a key already met
        in the chain (they would never stop).
    """
    seen = {search.key(position)}
    while (forced := search.forced_move(position)) is not None and not game.is_won(position):
        position = game.play(position, forced)
        key = search.key(position)
        assert key not in seen, (
            f"{where}: forced_move cycles: after {len(seen)} forced moves it comes back to a "
            "position it has met (a forced move must lead towards the end of the game)"
        )
        seen.add(key)
    return position
