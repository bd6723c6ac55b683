"""Saved games: the JSON format, atomic writing, and loading that refuses every bad file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import patience_core.play._saves as persistence
from patience_core.engine import DealNumber
from patience_core.errors import BadSave, PatienceError
from patience_core.files import data_dir, write_json_atomic
from patience_core.games import Game
from patience_core.play import (
    MAX_SAVE_BYTES,
    Session,
    archive_save,
    default_save_path,
    load_session,
    read_save,
    save_session,
    session_to_dict,
)
from patience_core.plugins import PluginHost

WIN_DEAL = 17
#: A winning line for Escalator deal 17 (found once by a depth-first search).
WIN_TEXT = (
    "deal deal 6h 7h 6c 7c 8c 7d 8d deal deal 4h deal 9d Tc Jh Qh deal deal Ac 2d 3h deal deal "
    "Td 9h deal 4d 5s deal deal Kd deal 5d deal deal 9c Th Jd deal 6s deal Jc deal Kh deal 2h"
)
WIN_LINE = WIN_TEXT.split()


@pytest.fixture(scope="module")
def host() -> PluginHost:
    return PluginHost().load()


@pytest.fixture
def session(host: PluginHost) -> Session:
    game: Game = host.game("escalator")
    return Session.replay(game, DealNumber(WIN_DEAL), WIN_LINE[:10], WIN_LINE[10:12])


def good_save(session: Session) -> dict[str, Any]:
    return session_to_dict(session, "0.1.0")


def test_data_dir_comes_from_the_environment(tmp_path: Path) -> None:
    assert data_dir({"PATIENCE_DATA_DIR": str(tmp_path)}) == tmp_path
    assert default_save_path("escalator", {"PATIENCE_DATA_DIR": str(tmp_path)}) == (
        tmp_path / "saves" / "escalator.json"
    )
    assert data_dir({}).name.lower() == "patience"


@pytest.mark.parametrize("name", ["../evil", "a/b", "", "UPPER", ".hidden"])
def test_a_save_path_is_never_built_from_a_strange_name(name: str) -> None:
    with pytest.raises(BadSave):
        default_save_path(name)


def test_the_save_has_the_documented_shape(session: Session) -> None:
    data = good_save(session)
    assert data["format"] == "patience-save" and data["version"] == 1
    assert data["game"] == "escalator" and data["deal"] == "17" and data["options"] == {}
    assert data["moves"] == session.move_texts and len(data["moves"]) == 10
    assert data["redo"] == session.redo_texts and len(data["redo"]) == 2
    assert data["finished"] is None and data["plugin_version"] == "0.1.0"
    assert set(data) == persistence._KEYS


def test_save_and_load_round_trip(tmp_path: Path, session: Session, host: PluginHost) -> None:
    path = tmp_path / "new" / "folder" / "escalator.json"
    save_session(path, session, "0.1.0")
    saved, loaded = load_session(path, host.game)
    assert loaded.position == session.position
    assert loaded.move_texts == session.move_texts
    assert loaded.redo_texts == session.redo_texts
    assert saved.deal == DealNumber(WIN_DEAL) and saved.finished is None
    assert sorted(os.listdir(path.parent)) == ["escalator.json"]  # no temporary file left


def test_a_save_with_a_byte_order_mark_loads(
    tmp_path: Path, session: Session, host: PluginHost
) -> None:
    path = tmp_path / "escalator.json"
    save_session(path, session, "0.1.0")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    _, loaded = load_session(path, host.game)
    assert loaded.position == session.position
    assert loaded.move_texts == session.move_texts


def test_a_won_game_is_saved_as_won(tmp_path: Path, host: PluginHost) -> None:
    won = Session.replay(host.game("escalator"), DealNumber(WIN_DEAL), WIN_LINE)
    path = tmp_path / "won.json"
    save_session(path, won, "0.1.0")
    assert json.loads(path.read_text())["finished"] == "won"
    assert load_session(path, host.game)[1].score() == 28


@pytest.mark.parametrize("victim", ["dump", "fsync", "replace"])
def test_a_failed_write_leaves_the_old_save_intact(
    tmp_path: Path, session: Session, monkeypatch: pytest.MonkeyPatch, victim: str
) -> None:
    path = tmp_path / "escalator.json"
    save_session(path, session, "0.1.0")
    before = path.read_bytes()
    session.play_text(session.redo_texts[0])

    def boom(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    target = {
        "dump": (json, "dump"),
        "fsync": (os, "fsync"),
        "replace": (os, "replace"),
    }
    monkeypatch.setattr(*target[victim], boom)
    with pytest.raises(PatienceError, match="cannot save the game"):
        save_session(path, session, "0.1.0")
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["escalator.json"]


def test_an_interrupted_write_removes_its_temporary_file(
    tmp_path: Path, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "escalator.json"

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_session(path, session, "0.1.0")
    assert os.listdir(tmp_path) == []


def test_archive_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "escalator.json"
    names = set()
    for i in range(3):
        path.write_text(f"game {i}")
        moved = archive_save(path)
        assert moved.parent == tmp_path and moved.read_text() == f"game {i}"
        names.add(moved.name)
        assert not path.exists()
    assert len(names) == 3
    path.write_text("broken")
    assert archive_save(path, "unreadable").name.endswith("-unreadable.json")


def _write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data))


def _bad_saves(good: dict[str, Any]) -> dict[str, Any]:
    """name -> file content (bytes/str) or a dict changed from a good save."""

    def changed(**fields: Any) -> dict[str, Any]:
        return {**good, **fields}

    without_moves = dict(good)
    without_moves.pop("moves", None)
    return {
        "empty": b"",
        "not json": b"hello, world",
        "truncated": json.dumps(good).encode()[: len(json.dumps(good)) // 2],
        "not utf-8": b'{"format": "\xff\xfe"}',
        "list": b"[1, 2, 3]",
        "nan": json.dumps(good).replace('"version": 1', '"version": NaN').encode(),
        "deep nesting": b"[" * 100_000 + b"]" * 100_000,
        "huge number": json.dumps(good)
        .replace('"version": 1', '"version": ' + "9" * 5000)
        .encode(),
        "duplicate key": json.dumps(good).replace('"version": 1', '"version": 1, "version": 1'),
        "wrong format": changed(format="patience-position"),
        "no format": {"version": 1},
        "version 2": changed(version=2),
        "version text": changed(version="1"),
        "version true": changed(version=True),
        "version float": changed(version=1.0),
        "unknown field": changed(extra=1),
        "missing field": without_moves,
        "game not text": changed(game=3),
        "game path": changed(game="../../etc/passwd"),
        "unknown game": changed(game="nosuchgame"),
        "deal not text": changed(deal=17),
        "deal garbled": changed(deal="seventeen"),
        "deal out of range": changed(deal=str(2**40)),
        "deal other scheme": changed(deal="ms:17"),
        "options list": changed(options=["a"]),
        "option value number": changed(options={"x": 1}),
        "unknown option": changed(options={"x": "y"}),
        "moves text": changed(moves="deal deal"),
        "moves numbers": changed(moves=[1, 2]),
        "moves null": changed(moves=None),
        "move empty": changed(moves=["deal", ""]),
        "move too long": changed(moves=["deal" * 100]),
        "illegal move": changed(moves=["deal", "Kd"]),
        "garbled move": changed(moves=["deal", "%%%"]),
        "too many moves": changed(moves=["deal"] * (persistence.MAX_MOVES + 1)),
        "illegal redo": changed(redo=["Kd"]),
        "finished wrong": changed(finished="yes"),
        "finished false claim": changed(finished="won"),
        "saved_at number": changed(saved_at=0),
        "saved_at garbled": changed(saved_at="yesterday"),
        "plugin_version a number": changed(plugin_version=1),
        "hostile pickle": b"cos\nsystem\n(S'echo hacked'\ntR.",
        "hostile eval": changed(moves=["__import__('os').system('echo hacked')"]),
    }


def _bad_cases() -> list[str]:
    return list(_bad_saves({"version": 1}))


@pytest.mark.parametrize("case", _bad_cases())
def test_bad_saves_are_refused_in_one_line_and_left_alone(
    tmp_path: Path, session: Session, host: PluginHost, case: str
) -> None:
    content = _bad_saves(good_save(session))[case]
    path = tmp_path / "save.json"
    if isinstance(content, dict):
        _write(path, content)
    elif isinstance(content, str):
        path.write_text(content)
    else:
        path.write_bytes(content)
    before = path.read_bytes()
    with pytest.raises(BadSave) as info:
        load_session(path, host.game)
    message = str(info.value)
    assert message and "\n" not in message and len(message) < 300
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["save.json"]


def test_a_huge_number_is_refused_in_our_words(
    tmp_path: Path, session: Session, host: PluginHost
) -> None:
    """Thousands of digits: patience's message, not Python's advice to raise its limit."""
    path = tmp_path / "save.json"
    path.write_text(
        json.dumps(good_save(session)).replace('"version": 1', '"version": ' + "9" * 5000)
    )
    with pytest.raises(BadSave, match="too many digits") as info:
        load_session(path, host.game)
    assert "sys." not in str(info.value)


def test_a_huge_file_is_refused_unread(tmp_path: Path, host: PluginHost) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        handle.truncate(MAX_SAVE_BYTES + 1)  # sparse: cheap to make
    with pytest.raises(BadSave, match="too large"):
        read_save(path)
    assert path.stat().st_size == MAX_SAVE_BYTES + 1


def test_missing_files_and_folders_are_bad_saves(tmp_path: Path) -> None:
    with pytest.raises(BadSave, match=r"cannot read .*: No such file or directory"):
        read_save(tmp_path / "nothing.json")
    with pytest.raises(BadSave, match=r"^cannot read .*: Is a directory$"):
        read_save(tmp_path)
    with pytest.raises(BadSave, match=r"^cannot read /dev/null: not a regular file$"):
        read_save(Path("/dev/null"))


def test_a_valid_hand_written_save_loads(tmp_path: Path, host: PluginHost) -> None:
    path = tmp_path / "hand.json"
    _write(
        path,
        {
            "format": "patience-save",
            "version": 1,
            "game": "escalator",
            "plugin_version": "0.0.1",
            "deal": "17",
            "options": {},
            "moves": ["d", "d", "6h", "7H", "p27 w"],
            "redo": [],
            "finished": None,
            "saved_at": "2025-01-31T12:00:00+00:00",
        },
    )
    _saved, loaded = load_session(path, host.game)
    assert loaded.score() == 3
    assert loaded.move_texts[:2] == ["deal", "deal"]  # canonical when saved again


def test_save_lock_is_exclusive_between_processes(tmp_path: Path) -> None:
    import subprocess
    import sys

    from patience_core.errors import PatienceError
    from patience_core.play import SaveLock

    save = tmp_path / "escalator.json"
    probe = (
        "import sys; from pathlib import Path; from patience_core.play._saves import SaveLock\n"
        "try:\n    SaveLock(Path(sys.argv[1])).acquire()\nexcept Exception as e:\n"
        "    print('refused:', e); sys.exit(3)\nprint('got it')"
    )
    with SaveLock(save):
        other = subprocess.run(
            [sys.executable, "-c", probe, str(save)], capture_output=True, text=True
        )
        assert other.returncode == 3
        assert "open in another patience window" in other.stdout
        with pytest.raises(PatienceError):
            SaveLock(save).acquire()  # a second lock in the same process is refused too
    again = subprocess.run([sys.executable, "-c", probe, str(save)], capture_output=True, text=True)
    assert again.returncode == 0 and "got it" in again.stdout


def test_atomic_write_keeps_symlink_and_permissions(tmp_path: Path) -> None:
    import os
    import stat

    target = tmp_path / "real.json"
    target.write_text("{}")
    os.chmod(target, 0o664)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_json_atomic(link, {"a": 1})
    assert link.is_symlink()
    assert json.loads(target.read_text()) == {"a": 1}
    assert stat.S_IMODE(target.stat().st_mode) == 0o664


def test_a_save_whose_moves_do_not_read_says_so_without_in_game_advice(tmp_path: Path) -> None:
    """A save of moves another game's notation wrote: the message has no "type 'help'" (no
    player is typing), and a too long move text is called that, not "not a list"."""
    import json

    from patience_core.errors import BadSave
    from patience_core.play import read_save, restore_session
    from patience_core.plugins import PluginHost

    host = PluginHost().load()
    path = tmp_path / "save.json"
    data = {
        "format": "patience-save",
        "version": 1,
        "game": "spiderette",
        "plugin_version": "0.1.0",
        "deal": "1",
        "options": {},
        "moves": ["p26 w"],
        "redo": [],
        "finished": None,
        "saved_at": "2026-01-01T00:00:00+00:00",
    }
    path.write_text(json.dumps(data))
    with pytest.raises(BadSave) as caught:
        restore_session(read_save(path), host.game, path)
    assert str(caught.value) == (
        f"{path}: the saved moves do not replay: move 1 ('p26 w'): unknown pile or card 'p26'"
    )
    path.write_text(json.dumps({**data, "moves": ["t1 " * 100]}))
    with pytest.raises(BadSave, match="'moves' holds a move text longer than 200 characters"):
        read_save(path)
