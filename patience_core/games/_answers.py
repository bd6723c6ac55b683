"""Checks of what a game answers in play (to be removed with their last caller: plugin code is
trusted once loaded; the conformance kit checks a game's answers).
"""

from __future__ import annotations

from patience_core.engine import counted
from patience_core.errors import PluginError, shown
from patience_core.games._game import Game
from patience_core.games._registry import distribution_of
from patience_core.model import Move, MoveKind

__all__ = [
    "checked_flag",
    "checked_moves",
    "checked_score",
    "wrong_answer",
]


def wrong_answer(
    game: Game, hook: str, answer: object, expected: str, provider: str | None = None
) -> PluginError:
    """The error for a game whose ``hook`` answered with something of the wrong kind: one line
    naming the game, its distribution, the answer (its type and a little of its value) and what
    was expected.

    :param provider: the distribution; default: looked up from the game class's package.
    :returns: the :class:`PluginError` to raise.
    """
    if provider is None:
        provider = distribution_of(game)
    return PluginError(
        f"the {game.name} plugin ({provider}) is broken: {hook} returned "
        f"{_shown_answer(answer)}, not {expected}"
    )


def _pile_count(game: Game) -> int:
    return len(game.piles)


def _is_index(value: object, piles: int) -> bool:
    return type(value) is int and 0 <= value < piles


def _move_problem(move: Move, piles: int) -> str:
    """What is wrong with ``move``, known to be wrong, in a game of ``piles`` piles (a pile
    that does not exist, a count of no cards)."""
    if move.kind is not MoveKind.TRANSFER and move.kind is not MoveKind.DEAL:
        return f"a move of kind {_shown_answer(move.kind)}, not a MoveKind"
    there = f"the game has {counted(piles, 'pile')}, 0..{piles - 1}"
    if move.kind is MoveKind.DEAL:
        return f"a deal from pile {shown(move.source)}, which does not exist ({there})"
    what = f"a transfer from pile {shown(move.source)} to pile {shown(move.target)}"
    for role, index in (("source", move.source), ("target", move.target)):
        if not _is_index(index, piles):
            return f"{what}, whose {role} pile {shown(index)} does not exist ({there})"
    return f"{what} of {shown(move.count)} cards, not 1 or more"


def checked_moves(game: Game, legal: object, provider: str | None = None) -> list[Move]:
    """``legal`` (what ``game.legal_moves`` answered) as a list of moves, each naming piles
    that exist (``0 <= index < len(game.piles)``) and, for a transfer, moving 1 card or more.

    :raises PluginError: (:func:`wrong_answer`) when it is not a list or tuple of :class:`Move`,
        or a move names a pile that does not exist (the message gives the pile index and the
        number of piles).
    """
    if not isinstance(legal, (list, tuple)):
        raise wrong_answer(game, "legal_moves", legal, "a list of moves", provider)
    if not legal:
        return []
    piles = _pile_count(game)
    transfer, deal = MoveKind.TRANSFER, MoveKind.DEAL
    for move in legal:
        if not isinstance(move, Move):
            raise wrong_answer(game, "legal_moves", move, "a Move, in its list", provider)
        # The common case inline: simulate asks this of every position it plays.
        source, kind = move.source, move.kind
        if kind is transfer:
            target, count = move.target, move.count
            if (
                type(source) is int
                and type(target) is int
                and type(count) is int
                and 0 <= source < piles
                and 0 <= target < piles
                and count >= 1
            ):
                continue
        elif kind is deal and type(source) is int and 0 <= source < piles:
            continue
        if provider is None:
            provider = distribution_of(game)
        raise PluginError(
            f"the {game.name} plugin ({provider}) is broken: legal_moves returned "
            f"{_move_problem(move, piles)}"
        )
    return list(legal)


def checked_score(game: Game, score: object, provider: str | None = None) -> int:
    """``score`` (what ``game.score`` answered), a whole number in 0..``game.max_score``.

    :raises PluginError: (:func:`wrong_answer`) for anything else.
    """
    if type(score) is not int or not 0 <= score <= game.max_score:
        raise wrong_answer(game, "score", score, f"a whole number in 0..{game.max_score}", provider)
    return score


def checked_flag(game: Game, hook: str, answer: object, provider: str | None = None) -> bool:
    """``answer`` (what ``game.<hook>`` answered, e.g. ``is_won``), ``True`` or ``False``.

    :raises PluginError: (:func:`wrong_answer`) for anything else.
    """
    if not isinstance(answer, bool):
        raise wrong_answer(game, hook, answer, "True or False", provider)
    return answer


def _shown_answer(answer: object) -> str:
    """A plugin's answer as a message shows it: its type and a little of its value."""
    return f"{type(answer).__name__} {shown(answer)}"
