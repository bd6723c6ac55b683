"""Checks of what a game answers, for the callers that still make them (to be removed: plugin
code is trusted once loaded; the conformance kit checks a game's answers).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from patience_core.engine import counted
from patience_core.errors import PluginError, shown
from patience_core.games._game import Game
from patience_core.games._registry import distribution_of
from patience_core.model import Card, Move, MoveKind, PileKind, PileSpec, Position

__all__ = [
    "check_answers",
    "checked_flag",
    "checked_moves",
    "checked_piles",
    "checked_position",
    "checked_score",
    "shown_answer",
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
        f"{shown_answer(answer)}, not {expected}"
    )


def _pile_count(game: Game) -> int:
    return len(game.piles)


def _is_index(value: object, piles: int) -> bool:
    return type(value) is int and 0 <= value < piles


def _move_problem(move: Move, piles: int) -> str:
    """What is wrong with ``move``, known to be wrong, in a game of ``piles`` piles (a pile
    that does not exist, a count of no cards)."""
    if move.kind is not MoveKind.TRANSFER and move.kind is not MoveKind.DEAL:
        return f"a move of kind {shown_answer(move.kind)}, not a MoveKind"
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


_PILE_NAME = re.compile(r"^[a-z]+[0-9]*$")


def checked_piles(game: Game, piles: object, provider: str | None = None) -> tuple[PileSpec, ...]:
    """``piles`` (what ``game.piles`` answered) as a tuple of :class:`PileSpec`: at least one,
    each of a :class:`PileKind`, named with lower-case letters then digits (``t1``), no name
    twice.

    :raises PluginError: (:func:`wrong_answer`) naming the pile that is wrong.
    """
    if not isinstance(piles, (list, tuple)) or not piles:
        raise wrong_answer(game, "piles", piles, "a tuple of PileSpec", provider)
    seen: set[str] = set()
    for spec in piles:
        if not isinstance(spec, PileSpec):
            raise wrong_answer(game, "piles", spec, "a PileSpec, in its tuple", provider)
        if not isinstance(spec.name, str) or not _PILE_NAME.match(spec.name):
            raise wrong_answer(
                game, "piles", spec.name, "a pile name of lower-case letters then digits", provider
            )
        if not isinstance(spec.kind, PileKind):
            raise wrong_answer(game, "piles", spec.kind, f"a PileKind for {spec.name}", provider)
        if spec.name in seen:
            raise wrong_answer(game, "piles", spec.name, "a pile name used once", provider)
        seen.add(spec.name)
    return tuple(piles)


def checked_position(
    game: Game, hook: str, position: object, provider: str | None = None, whole: bool = True
) -> Position:
    """``position`` (what ``game.<hook>`` answered, e.g. ``deal``) as a :class:`Position` of
    the game's shape: one pile per pile of ``game.piles``, each a tuple of :class:`Card`.

    :param whole: ``False`` checks only that it is a :class:`Position`, for the positions of
        each move of ``simulate`` and of the greedy player's look-ahead: checked whole, they
        cost 12 to 15% of its games a second (the deal is checked whole; the conformance
        kit checks a game's positions fully).
    :raises PluginError: (:func:`wrong_answer`) naming what is wrong, e.g. ``deal returned a
        position of 5 piles, but piles lists 9``.
    """
    if not isinstance(position, Position):
        raise wrong_answer(game, hook, position, "a Position", provider)
    if not whole:
        return position
    piles = len(game.piles)
    if len(position) != piles:
        if provider is None:
            provider = distribution_of(game)
        raise PluginError(
            f"the {game.name} plugin ({provider}) is broken: {hook} returned a position of "
            f"{counted(len(position), 'pile')}, but piles lists {piles}"
        )
    for index, pile in enumerate(position.piles):
        if not isinstance(pile, tuple):
            raise wrong_answer(game, hook, pile, f"a tuple of cards as pile {index}", provider)
        for card in pile:
            if not isinstance(card, Card):
                raise wrong_answer(game, hook, card, f"a Card, in pile {index}", provider)
    return position


def check_answers(
    game: Game,
    position: Position,
    provider: str | None = None,
    ask: Callable[..., Any] | None = None,
) -> None:
    """Ask ``game`` what every command asks of a position (legal moves and their texts, score,
    won, lost, status) and check the kinds of the answers.

    :param ask: calls a hook, ``ask("score", position)``; by default the game's method itself
        (the plugin host passes one that names a hook that raises).
    :raises PluginError: (:func:`wrong_answer`) for an answer of the wrong kind.
    """
    if ask is None:

        def ask(hook: str, *args: object) -> Any:
            return getattr(game, hook)(*args)

    for move in checked_moves(game, ask("legal_moves", position), provider):
        text = ask("move_text", position, move)
        if not isinstance(text, str) or not text.strip():
            raise wrong_answer(game, "move_text", text, "a move text", provider)
    checked_score(game, ask("score", position), provider)
    checked_flag(game, "is_won", ask("is_won", position), provider)
    checked_flag(game, "is_lost", ask("is_lost", position), provider)
    status = ask("status", position)
    if not isinstance(status, str):
        raise wrong_answer(game, "status", status, "a text", provider)


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


def shown_answer(answer: object) -> str:
    """A plugin's answer as a message shows it: its type and a little of its value."""
    return f"{type(answer).__name__} {shown(answer)}"
