"""Pile hot keys: the pile names typed as keys (``t3``, ``f``, ``c2``, ``s``, ``p21``).

The full-screen player (docs/play.md, "Keys") reads a pile name letter by letter. A name is
taken as soon as no other name starts with what was typed (``t3`` in a game of eight columns);
while another could still follow (``p2`` beside ``p21``), a short pause or a key that cannot
continue the name ends it. A letter that begins several pile names of one kind and is no name
itself (``f`` beside ``f1``..``f4``) means "any pile of that kind" (the foundations).
"""

from __future__ import annotations

import attrs

from patience_core.games import Game
from patience_core.model import PileKind

__all__ = ["HotKeys", "PileChoice"]


@attrs.frozen
class PileChoice:
    """What a hot key named: one pile, or every pile of a kind.

    :param piles: the pile indices named, in layout order (one for a pile name).
    :param text: what was typed, for messages (``"t3"``, ``"f"``).
    """

    piles: tuple[int, ...]
    text: str


class HotKeys:
    """The pile-name reader of one game: feed it keys, it answers the pile named.

    :param game: the game whose pile names are the hot keys.
    :param taken: letters the player's other keys use (``d`` deals, ...): no pile name starts
        with them as a hot key.
    """

    def __init__(self, game: Game, taken: frozenset[str] = frozenset()) -> None:
        self._names = {spec.name: index for index, spec in enumerate(game.piles)}
        self._kinds: dict[str, tuple[int, ...]] = {}
        for letter in {name[0] for name in self._names}:
            kinds = {game.piles[i].kind for n, i in self._names.items() if n[0] == letter}
            if letter not in self._names and len(kinds) == 1 and PileKind.TABLEAU not in kinds:
                self._kinds[letter] = tuple(
                    i
                    for n, i in sorted(self._names.items(), key=lambda item: item[1])
                    if n[0] == letter
                )
        self.letters = frozenset(name[0] for name in self._names) - taken
        self._typed = ""

    @property
    def pending(self) -> str:
        """What has been typed of a pile name so far ("" when nothing)."""
        return self._typed

    def starts(self, key: str) -> bool:
        """Whether ``key`` begins or continues a pile name."""
        if self._typed:
            return self._could_be(self._typed + key)
        return key in self.letters

    def feed(self, key: str) -> PileChoice | None:
        """Take one key (that :meth:`starts` accepted); the pile named once it is certain."""
        self._typed += key
        if sum(1 for name in self._names if name.startswith(self._typed)) == 1:
            return self.finish()
        return None

    def finish(self) -> PileChoice | None:
        """End the name typed so far (a pause, or a key that cannot continue it): the pile it
        names exactly, or the kind of a lone letter; ``None`` when it names nothing."""
        typed, self._typed = self._typed, ""
        if typed in self._names:
            return PileChoice((self._names[typed],), typed)
        if typed in self._kinds:
            return PileChoice(self._kinds[typed], typed)
        only = [index for name, index in self._names.items() if name.startswith(typed)]
        if typed and len(only) == 1:
            return PileChoice((only[0],), typed)
        return None

    def cancel(self) -> None:
        """Forget what was typed."""
        self._typed = ""

    def _could_be(self, text: str) -> bool:
        return any(name.startswith(text) for name in self._names)
