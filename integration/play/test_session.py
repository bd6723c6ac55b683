"""Session: playing, unlimited undo/redo, restart, and exact replay of a move list."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import patience_core.play._loading as loading
import patience_core.play._saves as persistence
import patience_core.play._session as session_module
from patience_core.engine import DealNumber
from patience_core.errors import BadMoveText, IllegalMove
from patience_core.games import Game
from patience_core.model import Card, Move, PileKind, PileSpec, Position
from patience_core.play import Session
from patience_core.plugins import PluginHost

WIN_DEAL = 17
#: A winning line for Escalator deal 17 (found once by a depth-first search).
WIN_TEXT = (
    "deal deal 6h 7h 6c 7c 8c 7d 8d deal deal 4h deal 9d Tc Jh Qh deal deal Ac 2d 3h deal deal "
    "Td 9h deal 4d 5s deal deal Kd deal 5d deal deal 9c Th Jd deal 6s deal Jc deal Kh deal 2h"
)
WIN_LINE = WIN_TEXT.split()


@pytest.fixture(scope="module")
def escalator() -> Game:
    game: Game = PluginHost().load().game("escalator")
    return game


def test_a_new_session_starts_at_the_deal(escalator: Game) -> None:
    session = Session(escalator, DealNumber(WIN_DEAL))
    assert session.position == escalator.deal(DealNumber(WIN_DEAL))
    assert session.moves == () and session.move_texts == [] and session.redo_texts == []
    assert not session.can_undo and not session.can_redo
    assert session.score() == 0 and session.finished is None


def test_the_winning_line_wins_with_full_score(escalator: Game) -> None:
    session = Session(escalator, DealNumber(WIN_DEAL))
    for text in WIN_LINE[:-1]:
        session.play_text(text)
        assert not session.is_won()
    session.play_text(WIN_LINE[-1])
    assert session.is_won() and not session.is_lost()
    assert session.finished == "won"
    assert session.score() == escalator.max_score == 28


def test_move_texts_are_canonical_and_replay_to_the_same_position(escalator: Game) -> None:
    session = Session(escalator, DealNumber(WIN_DEAL))
    for text in WIN_LINE[:20]:
        session.play_text(text)
    assert session.move_texts[:3] == ["deal", "deal", "p23 w"]
    again = Session.replay(escalator, DealNumber(WIN_DEAL), session.move_texts)
    assert again.position == session.position
    assert again.moves == session.moves


def test_undo_and_redo_step_through_the_same_positions(escalator: Game) -> None:
    session = Session(escalator, DealNumber(WIN_DEAL))
    seen = [session.position]
    for text in WIN_LINE[:12]:
        session.play_text(text)
        seen.append(session.position)
    for back in range(1, 13):
        assert session.undo() == 1
        assert session.position == seen[-1 - back]
    assert session.undo() == 0
    assert (
        session.redo_texts
        == Session.replay(escalator, DealNumber(WIN_DEAL), WIN_LINE[:12]).move_texts
    )
    assert session.redo(5) == 5 and session.position == seen[5]
    assert session.redo(100) == 7 and session.position == seen[12]
    assert session.redo() == 0


def test_a_new_move_after_undo_drops_the_redo_list(escalator: Game) -> None:
    session = Session.replay(escalator, DealNumber(WIN_DEAL), WIN_LINE[:3])
    session.undo(2)
    assert session.redo_texts == ["deal", "p23 w"]
    session.play_text("deal")  # the same move as the next redo: the redo list is kept
    assert session.redo_texts == ["p23 w"]
    session.play_text("deal")  # not the next redo ("p23 w"): the redo list goes
    assert session.redo_texts == []
    assert not session.can_redo


def test_restart_keeps_the_moves_for_redo(escalator: Game) -> None:
    session = Session.replay(escalator, DealNumber(WIN_DEAL), WIN_LINE[:15])
    end, texts = session.position, session.move_texts
    assert session.restart() == 15
    assert session.position == session.start and session.moves == ()
    assert session.redo_texts == texts
    assert session.restart() == 0
    session.redo(15)
    assert session.position == end and session.move_texts == texts


def test_undo_after_a_win_un_wins(escalator: Game) -> None:
    session = Session.replay(escalator, DealNumber(WIN_DEAL), WIN_LINE)
    assert session.finished == "won"
    session.undo()
    assert session.finished is None and not session.is_won()
    assert session.score() == 27
    session.redo()
    assert session.finished == "won"


def test_a_lost_game_is_reported_and_can_be_undone(escalator: Game) -> None:
    session = Session.replay(escalator, DealNumber(2), ["deal"] * 24)
    assert session.is_lost() and session.finished == "lost" and session.legal_moves() == []
    session.undo()
    assert session.finished is None


def test_replay_with_redo_restores_the_redo_list(escalator: Game) -> None:
    session = Session.replay(escalator, DealNumber(WIN_DEAL), WIN_LINE[:5], WIN_LINE[5:9])
    assert len(session.moves) == 5
    assert len(session.redo_texts) == 4
    full = Session.replay(escalator, DealNumber(WIN_DEAL), WIN_LINE[:9])
    assert session.redo_texts == full.move_texts[5:]
    session.redo(4)
    assert session.position == full.position


def test_bad_moves_are_refused_and_change_nothing(escalator: Game) -> None:
    session = Session(escalator, DealNumber(WIN_DEAL))
    before = session.position
    with pytest.raises(BadMoveText):
        session.play_text("zz9")
    with pytest.raises(IllegalMove):
        session.play_text("6h")  # the waste is empty: the first move must be a deal
    with pytest.raises(IllegalMove):
        session.play(Move.transfer(5, 1))
    assert session.position == before and session.moves == ()


def test_replay_names_the_move_that_does_not_replay(escalator: Game) -> None:
    with pytest.raises(IllegalMove, match="move 3"):
        Session.replay(escalator, DealNumber(WIN_DEAL), ["deal", "deal", "Kd"])
    with pytest.raises(BadMoveText):
        Session.replay(escalator, DealNumber(WIN_DEAL), ["deal", "??"])
    with pytest.raises(IllegalMove, match="redo move 1"):
        Session.replay(escalator, DealNumber(WIN_DEAL), ["deal"], ["Kd"])


@settings(max_examples=40, deadline=None)
@given(deal=st.integers(0, 2**32 - 1), picks=st.lists(st.integers(0, 50), max_size=60))
def test_any_move_list_replays_exactly(escalator: Game, deal: int, picks: list[int]) -> None:
    session = Session(escalator, DealNumber(deal))
    for pick in picks:
        legal = session.legal_moves()
        if not legal:
            break
        session.play(legal[pick % len(legal)])
    again = Session.replay(escalator, DealNumber(deal), session.move_texts)
    assert again.position == session.position
    assert again.score() == session.score()
    session.restart()
    assert session.position == escalator.deal(DealNumber(deal))


class _Runs(Game):
    """A two-pile toy game where ``t1 t2`` names both a one-card and a two-card move."""

    name = "runs"
    title = "Runs"
    max_score = 3
    rules = "toy"
    _piles = (PileSpec("t1", PileKind.TABLEAU), PileSpec("t2", PileKind.TABLEAU))

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        return self._piles

    def layout(self, cards: list[Card]) -> Position:
        return Position((tuple(cards[:3]), ()))

    def legal_moves(self, position: Position) -> list[Move]:
        return [Move.transfer(0, 1, n) for n in range(1, len(position[0]) + 1)]

    def play(self, position: Position, move: Move) -> Position:
        moved = position[0][len(position[0]) - move.count :]
        return Position((position[0][: -move.count], position[1] + moved))

    def is_won(self, position: Position) -> bool:
        return not position[0]

    def score(self, position: Position) -> int:
        return len(position[1])


def test_replay_takes_canonical_text_literally() -> None:
    game = _Runs()
    session = Session(game, DealNumber(1))
    session.play(Move.transfer(0, 1, 1))
    # Typed as "t1 t2", the move would take the longest run; the saved text replays one card.
    again = Session.replay(game, DealNumber(1), session.move_texts)
    assert again.moves == (Move.transfer(0, 1, 1),)
    assert again.position == session.position


def test_a_game_stops_at_the_most_moves_a_save_holds(
    escalator: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No move beyond MAX_MOVES is played, so a game in progress can always be saved and read
    back (a save of more moves is refused as hostile)."""
    monkeypatch.setattr(session_module, "MAX_MOVES", 5)
    monkeypatch.setattr(loading, "MAX_MOVES", 5)
    session = Session.replay(escalator, DealNumber(WIN_DEAL), WIN_LINE[:5])
    with pytest.raises(IllegalMove, match="holds 5 moves, the most a game keeps"):
        session.play_text(WIN_LINE[5])
    assert len(session.moves) == 5
    session.undo(2)
    session.redo(1)  # redo never adds to the count
    session.play_text(WIN_LINE[4])  # a new move after an undo is fine again
    path = tmp_path / "g.json"
    persistence.save_session(path, session, "1.0")
    _saved, back = loading.load_session(path, lambda name, options: escalator)
    assert back.move_texts == session.move_texts


def test_a_bad_redo_move_is_named_as_a_redo_move() -> None:
    from patience_escalator import Escalator

    with pytest.raises(BadMoveText, match=r"^redo move 2 \('p99'\): "):
        Session.replay(Escalator(), DealNumber(3), ["deal"], ["deal", "p99"])
    with pytest.raises(BadMoveText, match=r"^move 2 \('p99'\): "):
        Session.replay(Escalator(), DealNumber(3), ["deal", "p99"], ["deal"])
