"""The commands of a game in play: what a player types, and the help that lists them
(docs/play.md, "Commands"). Text only: no input, no output, no saving."""

from __future__ import annotations

from patience_core.engine import KIND_LETTERS
from patience_core.games import Game
from patience_core.model import MoveKind, PileKind
from patience_core.play._session import Session

__all__ = ["COMMANDS_HELP", "NO_ARGUMENT", "count_arg", "help_lines", "pile_summary"]

#: The commands besides moves, one line of the help.
COMMANDS_HELP = (
    "Commands: hint [honest|thoughtful], undo/u [N|all], redo [N|all], restart, auto (play the "
    "forced rest), dead on|off (the dead check), moves, board/b, save, help/?, quit/q"
)

#: Commands that take no argument ("deal 5" is a mistake, not a move).
NO_ARGUMENT = frozenset(
    {"quit", "q", "exit", "help", "?", "board", "b", "moves", "save", "restart", "deal", "d"}
    | {"auto"}
)


def pile_summary(game: Game) -> str:
    """The piles of ``game`` for the help, e.g. ``"s stock, w waste, p1..p28 tableau"``: pile
    names grouped by kind, numbered runs shortened."""
    groups: list[tuple[PileKind, list[str]]] = []
    for spec in game.piles:
        if groups and groups[-1][0] is spec.kind:
            groups[-1][1].append(spec.name)
        else:
            groups.append((spec.kind, [spec.name]))
    parts = []
    for kind, names in groups:
        if len(names) > 2:
            prefix = names[0].rstrip("0123456789")
            numbers = [name[len(prefix) :] for name in names]
            if all(
                n.isdigit() and name.startswith(prefix)
                for n, name in zip(numbers, names, strict=True)
            ):
                ints = [int(n) for n in numbers]
                if ints == list(range(ints[0], ints[0] + len(ints))):
                    names = [f"{names[0]}..{names[-1]}"]
        parts.append(f"{' '.join(names)} {kind.value}")
    return ", ".join(parts)


def help_lines(session: Session) -> list[str]:
    """The lines of ``help``: the notation, with pile names and examples taken from the game
    and position of ``session``, then the commands."""
    game, position = session.game, session.position
    kinds = {spec.kind for spec in game.piles}
    lines = ["Type one move or command per line. Moves:"]
    if PileKind.STOCK in kinds:
        lines.append("  deal, d        deal from the stock")
    lines += [
        "  SRC DST        move the top card of pile SRC to pile DST (pile names below)",
        "  SRC DST N      move N cards (a run) from SRC to DST, where the game moves runs",
        "  CARD [DST]     move that card (and any cards on it), e.g. 9h, 10s or Qd f",
        "  SRC            the only move that leaves pile SRC",
    ]
    letters = [f"{letter}" for letter, kind in KIND_LETTERS.items() if kind in kinds]
    if letters:
        lines.append(f"  A pile kind's letter ({', '.join(letters)}) means any pile of that kind.")
    lines.append(f"Piles: {pile_summary(game)}.")
    examples: list[str] = []
    legal = session.legal_moves()
    seen: set[tuple[int, PileKind | None]] = set()
    for move in legal:
        text = game.move_text(position, move)
        if move.kind is not MoveKind.TRANSFER or move.target is None:
            examples.append(text)
            continue
        kind = game.piles[move.target].kind
        if (move.source, kind) in seen:
            continue  # one example per source pile and kind of destination
        seen.add((move.source, kind))
        pile = position[move.source]
        card = pile[len(pile) - move.count].code
        same_card = [m for m in legal if m.kind is MoveKind.TRANSFER and m.source == move.source]
        short = card if len(same_card) == 1 else f"{card} {game.piles[move.target].name}"
        examples.append(f"{short} ({text})" if move.count == 1 else text)
    examples = examples[:4]
    if examples:
        lines.append(f"Legal now, for example: {', '.join(examples)}.")
    lines.append(COMMANDS_HELP)
    lines.append(f"The rules: patience rules {game.name}")
    return lines


def count_arg(words: list[str], available: int) -> int | None:
    """The count of ``undo``/``redo`` in ``words`` (the command split in words): none means 1,
    ``all`` means ``available``, a number means that many (more than a billion is a billion).

    :returns: ``None`` when the words are not a count (the command's usage is then shown).
    """
    if len(words) == 1:
        return 1
    if len(words) == 2 and words[1] == "all":
        return available
    if len(words) == 2 and words[1].isascii() and words[1].isdigit():
        digits = words[1].lstrip("0")
        if digits:
            # More than all is all: no game holds a billion moves (nor is such a count read).
            return int(digits) if len(digits) <= 9 else 10**9
    return None
