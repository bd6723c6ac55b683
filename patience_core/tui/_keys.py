"""The keys of the full-screen player: what each does, the footer's labels and the help overlay
(docs/play.md, "Keys")."""

from __future__ import annotations

from itertools import zip_longest

from patience_core.tui._lines import KEEP

__all__ = ["FOOTER", "KEYS", "help_lines"]

#: Every key of the player: (keys, footer label, what they do, action, shown in the footer).
#: The help overlay and docs/play.md list them all; the footer the ones marked.
KEYS: tuple[tuple[str, str, str, str, bool], ...] = (
    ("left,h", "left", "cursor left", "cursor('left')", False),
    ("right,l", "right", "cursor right", "cursor('right')", False),
    ("up,k", "up", "cursor up; more cards", "cursor('up')", False),
    ("down,j", "down", "cursor down; fewer cards", "cursor('down')", False),
    ("enter,space", "pick/drop", "pick up; drop", "pick_or_drop", True),
    ("escape", "cancel", "put back; stop", "cancel", False),
    ("d", "deal", "deal from the stock", "deal", True),
    ("m,full_stop", "smart", "smart move", "smart", True),
    ("u,ctrl+z", "undo", "undo", "undo", True),
    ("U,ctrl+y", "redo", "redo", "redo", True),
    ("R", "restart", "restart (asks)", "restart", False),
    ("n", "new", "new deal", "new_deal", True),
    ("H", "hint", "hint", "hint", True),
    ("a", "auto", "auto-finish", "finish", True),
    ("x", "dead check", "dead check on/off", "dead_check", False),
    ("S", "stats", "statistics", "statistics", False),
    ("question_mark", "help", "this help", "help", True),
    ("q,ctrl+c", "quit", "quit (saved)", "quit_game", True),
)

#: The footer (:class:`~patience_core.tui._lines.KeyBar`): (key, label, rank); on a narrow
#: terminal the lowest ranks are left out first, help and quit never.
FOOTER: tuple[tuple[str, str, int], ...] = (
    ("←↓↑→ hjkl", "move", 3),
    ("Enter", "pick/drop", 9),
    ("Esc", "cancel", 4),
    ("d", "deal", 8),
    ("m", "smart", 6),
    ("u", "undo", 10),
    ("U", "redo", 7),
    ("R", "restart", 2),
    ("n", "new", 7),
    ("H", "hint", 6),
    ("a", "auto", 5),
    ("x", "dead check", 1),
    ("S", "stats", 0),
    ("?", "help", KEEP),
    ("q", "quit", KEEP),
)

#: What the keys read on the help overlay (Textual's key names aside).
_SHOWN = {
    "left,h": "← h",
    "right,l": "→ l",
    "up,k": "↑ k",
    "down,j": "↓ j",
    "enter,space": "Enter Space",
    "escape": "Esc",
    "m,full_stop": "m .",
    "u,ctrl+z": "u Ctrl+Z",
    "U,ctrl+y": "U Ctrl+Y",
    "question_mark": "?",
    "q,ctrl+c": "q Ctrl+C",
}

#: Letters the keys above use: no pile hot key starts with them.
_TAKEN = frozenset(key for keys, *_rest in KEYS for key in keys.split(",") if len(key) == 1)


def help_lines(width: int = 80) -> list[str]:
    """The help overlay: every key and what it does (in two columns when ``width``, the
    terminal's, allows), then the pile hot keys and the mouse (docs/play.md has it all)."""
    cells = [f"{_SHOWN.get(keys, keys):<12}{what:<24}" for keys, _label, what, *_ in KEYS]
    lines = ["Keys (docs/play.md tells more)"]
    if width >= 2 * 36 + 6:
        half = (len(cells) + 1) // 2
        for left, right in zip_longest(cells[:half], cells[half:], fillvalue=""):
            lines.append(f"{left} {right}".rstrip())
    else:
        lines += [cell.rstrip() for cell in cells]
    lines += [
        "",
        "Pile names (t3, f, c2, s, w, p12): the cursor there, pick up or drop.",
        "Mouse: click a card to pick it up, a pile to drop it; drag and drop;",
        "double-click: to a foundation; click the stock: deal.",
    ]
    return lines
