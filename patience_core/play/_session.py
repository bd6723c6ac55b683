"""A game in progress: the deal, the moves played, and unlimited undo and redo.

Layer 4. A :class:`Session` holds one :class:`~patience_core.games.Game`, its deal number and the
history of positions from the deal to now. Positions are immutable, so the history is a list of
them: undo steps back one position, redo steps forward again, and a new move after an undo drops
the undone moves (the usual editor rule).

**Restart** (RULES.md Part B §0.2) goes back to the deal by undoing every move: the moves played
become the redo list, in order, so ``redo`` (or ``redo`` with a count) plays them again and a
restart is never a silent loss of the move list. As with any undo, the redo list is dropped only
when the player then makes a different move.

Replaying a move list from the deal (:meth:`Session.replay`) rebuilds exactly the same position,
because :meth:`Game.play <patience_core.games.Game.play>` is deterministic; saved games
(:mod:`patience_core.play`) rely on this.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from patience_core.engine import DealNumber
from patience_core.errors import BadMoveText, IllegalMove, PatienceError
from patience_core.games import Game
from patience_core.model import Move, Position

__all__ = ["FINISHED_LOST", "FINISHED_WON", "MAX_MOVES", "Session"]

#: The values of :attr:`Session.finished` (and of a saved game's ``"finished"`` field).
FINISHED_WON = "won"
FINISHED_LOST = "lost"


#: The most moves a game keeps (played plus redoable), and so a save holds: far beyond any game
#: a person plays, room for the long lines a solver may find (over 16,000 moves seen), and a
#: bound on the work of reading a save. :meth:`Session.play` refuses moves beyond it, so every
#: game in progress can be saved and read back.
MAX_MOVES = 100_000


class Session:
    """One game being played: a deal, the moves from it, and the undone moves that can be redone.

    :param game: the game, with its options already chosen.
    :param deal: the deal number; the starting position is ``game.deal(deal)``.
    :raises BadDeal: when the game does not accept the deal's scheme.
    """

    def __init__(self, game: Game, deal: DealNumber) -> None:
        self.game = game
        self.deal = deal
        # _positions[0] is the deal; _positions[i] is the position after the first i moves.
        self._positions: list[Position] = [game.deal(deal)]
        self._moves: list[Move] = []
        # The canonical text of each move, written in the position it was played from.
        self._texts: list[str] = []
        # Undone moves as (move, text), the next one to redo LAST (a stack).
        self._redo: list[tuple[Move, str]] = []
        #: Moves to redo that a different move dropped since a front end last set this to 0
        #: (the controller says so once, then resets it).
        self.dropped = 0

    # -- building -----------------------------------------------------------------------------

    @classmethod
    def replay(
        cls,
        game: Game,
        deal: DealNumber,
        moves: Iterable[str],
        redo: Sequence[str] = (),
    ) -> Session:
        """A session of ``deal`` with ``moves`` played and ``redo`` available to redo.

        Each text is matched first against the canonical text (:meth:`Game.move_text
        <patience_core.games.Game.move_text>`) of the legal moves, then read as a player's move
        (:meth:`Game.parse_move <patience_core.games.Game.parse_move>`). The ``redo`` moves are
        checked by playing them after ``moves`` and undoing them again.

        :param moves: move texts, first move first.
        :param redo: the undone moves, the next one to redo first.
        :raises BadMoveText: for a text that is not a move.
        :raises IllegalMove: for a move that is not legal where it is played.

        Either message names the move: ``move N`` (1-based) in ``moves``, ``redo move N`` in
        ``redo``.
        """
        session = cls(game, deal)
        played = list(moves)
        for number, text in enumerate([*played, *redo], start=1):
            try:
                session.play(session.find_move(text))
            except (IllegalMove, BadMoveText) as exc:
                where = (
                    f"move {number}"
                    if number <= len(played)
                    else f"redo move {number - len(played)}"
                )
                raise type(exc)(f"{where} ({text!r}): {exc}") from None
        session.undo(len(redo))
        return session

    # -- state --------------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The current position."""
        return self._positions[-1]

    @property
    def start(self) -> Position:
        """The position of the deal, before any move."""
        return self._positions[0]

    @property
    def positions(self) -> tuple[Position, ...]:
        """Every position from the deal to now: ``positions[i]`` follows the first ``i`` moves,
        ``positions[-1]`` is the current position (the history hints search back through)."""
        return tuple(self._positions)

    @property
    def options(self) -> dict[str, str]:
        """Every option of the game and its value in force."""
        return dict(self.game.option_values)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played from the deal to the current position, first first."""
        return tuple(self._moves)

    @property
    def move_texts(self) -> list[str]:
        """The canonical text of every move played, first first (what saved games store)."""
        return list(self._texts)

    @property
    def redo_texts(self) -> list[str]:
        """The canonical text of the undone moves, the next one to redo first."""
        return [text for _move, text in reversed(self._redo)]

    @property
    def can_undo(self) -> bool:
        """Whether a move has been played."""
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        """Whether an undone move can be redone."""
        return bool(self._redo)

    def legal_moves(self) -> list[Move]:
        """The legal moves in the current position, in the game's order."""
        return self.game.legal_moves(self.position)

    def is_won(self) -> bool:
        """Whether the current position is won."""
        return self.game.is_won(self.position)

    def is_lost(self) -> bool:
        """Whether the current position is lost: not won and no legal move (RULES.md Part A)."""
        return self.game.is_lost(self.position)

    @property
    def finished(self) -> str | None:
        """:data:`FINISHED_WON`, :data:`FINISHED_LOST`, or ``None`` while the game goes on."""
        if self.is_won():
            return FINISHED_WON
        if self.is_lost():
            return FINISHED_LOST
        return None

    def score(self) -> int:
        """The score of the current position, 0..``game.max_score``."""
        return self.game.score(self.position)

    # -- playing ------------------------------------------------------------------------------

    def find_move(self, text: str) -> Move:
        """The legal move that ``text`` names in the current position.

        Canonical text (as saved) is matched exactly first, so a saved move list replays the very
        same moves; other text is read by :meth:`Game.parse_move
        <patience_core.games.Game.parse_move>`.

        :raises BadMoveText: for unreadable or ambiguous text.
        :raises IllegalMove: when the text names no legal move.
        """
        position = self.position
        game = self.game
        wanted = text.strip()
        try:
            move = game.parse_move(position, text)
        except PatienceError:
            move = None
        if move is not None and game.move_text(position, move) == wanted:
            return move
        for candidate in game.legal_moves(position):
            if game.move_text(position, candidate) == wanted:
                return candidate
        if move is not None:
            return move
        return game.parse_move(position, text)  # raises the parse error again

    def play(self, move: Move) -> Position:
        """Play ``move`` (checked for legality) with its automatic follow-ups, as one undo step.

        The redo list is dropped, unless ``move`` is the next move to redo, in which case this is
        the same as :meth:`redo`.

        :returns: the new position.
        :raises IllegalMove: when ``move`` is not legal in the current position, or when the
            game already holds :data:`MAX_MOVES` moves (not counting the redo list, which a new
            move drops).
        """
        position = self.position
        new = self.game.apply(position, move)
        text = self.game.move_text(position, move)
        if self._redo and self._redo[-1][0] == move:
            self._redo.pop()
        else:
            if len(self._moves) >= MAX_MOVES:
                raise IllegalMove(
                    f"this game holds {MAX_MOVES:,} moves, the most a game keeps: "
                    "undo some or start a new game"
                )
            self.dropped += len(self._redo)
            self._redo.clear()
        self._positions.append(new)
        self._moves.append(move)
        self._texts.append(text)
        return new

    def play_text(self, text: str) -> Move:
        """Read ``text`` as a move (see :meth:`find_move`) and play it.

        :returns: the move played.
        :raises BadMoveText: for unreadable or ambiguous text.
        :raises IllegalMove: when the text names no legal move.
        """
        move = self.find_move(text)
        self.play(move)
        return move

    def undo(self, count: int = 1) -> int:
        """Take back up to ``count`` moves (fewer when fewer were played).

        :returns: the number of moves taken back.
        """
        done = 0
        while done < count and self._moves:
            self._positions.pop()
            self._redo.append((self._moves.pop(), self._texts.pop()))
            done += 1
        return done

    def redo(self, count: int = 1) -> int:
        """Play again up to ``count`` undone moves.

        :returns: the number of moves redone.
        """
        done = 0
        while done < count and self._redo:
            move, text = self._redo.pop()
            self._positions.append(self.game.play(self.position, move))
            self._moves.append(move)
            self._texts.append(text)
            done += 1
        return done

    def restart(self) -> int:
        """Go back to the deal. Every move played goes onto the redo list, so ``redo`` brings the
        game back move by move (see the module docstring).

        :returns: the number of moves taken back.
        """
        return self.undo(len(self._moves))
