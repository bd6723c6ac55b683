"""The conformance kit's own checks fail when they should."""

from __future__ import annotations

from pathlib import Path

import pytest

from patience_core.testing import check_winning_line, load_game, play_winning_line


def test_check_winning_line_accepts_a_real_win_and_refuses_a_short_one() -> None:
    game = load_game("escalator")
    line = ["deal", "p28 w"]
    with pytest.raises(Exception, match=r"illegal|does not win"):
        check_winning_line(game, 17, line)
    with pytest.raises(AssertionError, match="does not win"):
        check_winning_line(game, 17, ["deal", "# a comment", ""])


def test_play_winning_line_refuses_a_line_that_does_not_win(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="did not say"):
        play_winning_line("escalator", 17, ["deal", "deal"], tmp_path)
