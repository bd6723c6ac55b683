"""The rules of Golf, with the rule variants black-hole-solver knows, as a golf-family
declaration (the public plugin API only, patience_core.api).

Golf: seven columns of five face-up cards, a waste started with one card, a 16-card stock. A
column's top card may go onto the waste when its rank is one above or one below the waste's top
card. By default nothing goes on a King and a King goes on nothing but a Queen (no wrap);
``wrap=yes`` makes King and Ace adjacent; ``queen-on-king=yes`` lets a Queen go on a King (and
nothing else changes). The family's options of those names set its parameters per game.
"""

from __future__ import annotations

from patience_core.api import GameOption, GolfFamily

_YES_NO = ("no", "yes")


class Golf(GolfFamily):
    """Golf: clear seven columns onto the waste by ranks one apart.

    Piles: ``s`` stock, ``w`` waste, ``t1``..``t7`` columns.
    """

    name = "golf"
    title = "Golf"
    tableau = "columns"
    columns, depth = 7, 5
    options = (
        GameOption("wrap", _YES_NO, "no", "King and Ace are adjacent"),
        GameOption("queen-on-king", _YES_NO, "no", "a Queen may go on a King"),
    )
    own_rules = (
        "Options: wrap=yes makes King and Ace adjacent (A on K, K on A); queen-on-king=yes "
        "allows a Queen on a King."
    )
