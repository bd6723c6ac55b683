"""new-plugin's refusals name the folder in one short line, however long its path."""

from __future__ import annotations

from pathlib import Path

import pytest

from patience_core.errors import PatienceError
from patience_core.scaffold import create_plugin


def test_a_long_missing_folder_is_named_in_a_short_line(tmp_path: Path) -> None:
    parent = tmp_path.joinpath(*["d" * 200] * 20)
    with pytest.raises(PatienceError) as caught:
        create_plugin("okname", parent)
    message = str(caught.value)
    assert message.startswith("cannot create the plugin in ")
    assert message.endswith(": the folder does not exist")
    assert len(message) < 300 and "\n" not in message


def test_a_file_given_as_the_folder_is_not_a_folder(tmp_path: Path) -> None:
    afile = tmp_path / "a-file"
    afile.write_text("x")
    with pytest.raises(PatienceError, match=r": it is not a folder$"):
        create_plugin("okname", afile)
