"""The conformance kit's own checks fail when they should."""

from __future__ import annotations

import pytest

from patience_core.testing import check_winning_line, load_game


def test_check_winning_line_accepts_a_real_win_and_refuses_a_short_one() -> None:
    game = load_game("escalator")
    line = ["deal", "p28 w"]
    with pytest.raises(Exception, match=r"illegal|does not win"):
        check_winning_line(game, 17, line)
    with pytest.raises(AssertionError, match="does not win"):
        check_winning_line(game, 17, ["deal", "# a comment", ""])
