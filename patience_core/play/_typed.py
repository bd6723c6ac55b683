"""The typed commands of the line player (docs/play.md, "Commands"), run on a
:class:`~patience_core.play.PlayController`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_core.errors import BadMoveText, IllegalMove
from patience_core.play._commands import NO_ARGUMENT, count_arg, help_lines
from patience_core.play._outcome import Outcome
from patience_core.solve import HONEST, THOUGHTFUL

if TYPE_CHECKING:
    from patience_core.play._controller import PlayController

__all__ = ["apply_line", "legal_moves_lines", "typed_move"]


def apply_line(self: PlayController, line: str) -> Outcome:
    """Run one typed line on ``self``: a command (docs/play.md, "Commands") or a move. A
    change is saved at once (a failed save is a warning, and the game goes on).

    :raises Exception: whatever the game's plugin raises; report it with
        :meth:`plugin_failure_line`.
    """
    session = self.session
    words = line.strip().lower().split()
    if not words:
        return Outcome()
    verb = words[0]
    if verb in NO_ARGUMENT and len(words) > 1:
        return Outcome((f"'{verb}' takes no argument; type 'help' for the commands.",))
    if verb in ("quit", "q", "exit"):
        return Outcome(quit=True)
    if verb in ("help", "?") and len(words) == 1:
        return Outcome(tuple(help_lines(session)))
    if verb in ("board", "b") and len(words) == 1:
        return Outcome(show_board=True)
    if verb == "moves" and len(words) == 1:
        return Outcome(tuple(legal_moves_lines(self)))
    if verb == "hint":
        if len(words) > 2 or (len(words) == 2 and words[1] not in (HONEST, THOUGHTFUL)):
            return Outcome(("usage: hint [honest|thoughtful]",))
        return Outcome((self.hint(words[1] if len(words) == 2 else None),))
    if verb == "dead":
        return _dead_command(self, words)
    if verb == "save" and len(words) == 1:
        return Outcome((f"Saved to {self.path}.",) if self.save() else ())
    if verb == "restart" and len(words) == 1:
        return self.restart()
    if verb == "auto" and len(words) == 1:
        return self.auto()
    if verb in ("undo", "u", "redo"):
        undo = verb != "redo"
        steps = count_arg(words, len(session.moves) if undo else len(session.redo_texts))
        if steps is None:
            return Outcome((f"usage: {verb} [N|all]",))
        return self.undo(steps) if undo else self.redo(steps)
    return typed_move(self, line)


def _dead_command(self: PlayController, words: list[str]) -> Outcome:
    if len(words) != 2 or words[1] not in ("on", "off"):
        state = "on" if self.dead_check_on else "off"
        return Outcome((f"usage: dead on|off (the dead check is {state})",))
    if words[1] == "on" and self.dead_seconds <= 0:
        return Outcome(("The dead check is off: PATIENCE_DEAD_CHECK is 0.",))
    self.dead_check_on = words[1] == "on"
    said = f"Dead check {words[1]}."
    news = self.dead_news()
    if self.dead_check_on and news is None and self.session.finished is None:
        news = "A winning line may remain." if not self.dead_known else None
    return Outcome((said,) if news is None else (said, news))


def typed_move(self: PlayController, text: str) -> Outcome:
    """Play the move ``text`` (the game's notation) and save; a refused move says why."""
    over = self.over()
    if over is not None:
        return over
    try:
        self.session.play_text(text)
    except IllegalMove as exc:
        message = str(exc)
        if ": " not in message:  # no rule named: the legal moves tell the player more
            message += "; type 'moves' for the legal moves"
        return Outcome((f"{message}.",), refused=True)
    except BadMoveText as exc:
        return Outcome((str(exc),), refused=True)
    return self.changed()


def legal_moves_lines(self: PlayController) -> list[str]:
    """The lines of ``moves``: every legal move of ``self``'s game with its text and
    description."""
    session = self.session
    legal = session.legal_moves()
    if not legal:
        return ["No legal moves."]
    lines = [f"Legal moves ({len(legal)}):"]
    for move in legal:
        text = session.game.move_text(session.position, move)
        lines.append(f"  {text:<10} {session.game.describe_move(session.position, move)}")
    return lines
