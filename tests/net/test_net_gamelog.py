"""The .kotlog file: raw frames appended, a torn last frame cut off, games in the data dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from kotp2p.net.files import games_dir
from kotp2p.net.files.gamelog import LogWriter, NotAKotlog, game_log_path, read_log
from tests.net.harness import make_table
from tests.net.toy import ToyEngine

GENESIS = make_table(ToyEngine(), 2).genesis
FRAMES = [b"\x00\x00\x00\x03abc", b"\x00\x00\x00\x02de"]


def test_written_frames_read_back_exactly(tmp_path: Path) -> None:
    path = tmp_path / "g.kotlog"
    with LogWriter(path, GENESIS) as log:
        log.append(FRAMES)
        log.flush()
    contents = read_log(path)
    assert contents.genesis.game_id == GENESIS.game_id
    assert contents.payloads == (b"abc", b"de")
    assert contents.torn == 0


def test_a_torn_last_frame_is_ignored_on_reading_and_cut_on_reopening(tmp_path: Path) -> None:
    path = tmp_path / "g.kotlog"
    with LogWriter(path, GENESIS) as log:
        log.append(FRAMES)
    whole = path.stat().st_size
    with path.open("ab") as f:
        f.write(b"\x00\x00\x00\x09half")  # the crash came mid-write
    contents = read_log(path)
    assert contents.payloads == (b"abc", b"de") and contents.torn == 8
    with LogWriter(path, GENESIS) as log:
        log.append([b"\x00\x00\x00\x01z"])
    assert path.stat().st_size == whole + 5
    assert read_log(path).payloads == (b"abc", b"de", b"z")


@pytest.mark.parametrize("data", [b"", b"hello world", b"\x00\x00\x00\x01\x90", b"\xff" * 10])
def test_a_file_that_is_not_a_log_is_named_as_such(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(data)
    with pytest.raises(NotAKotlog, match=r"notes\.txt is not a kotp2p game log"):
        read_log(path)


def test_a_log_of_another_game_is_not_appended_to(tmp_path: Path) -> None:
    path = tmp_path / "g.kotlog"
    LogWriter(path, GENESIS).close()
    other = make_table(ToyEngine(), 2, seed=1).genesis
    with pytest.raises(NotAKotlog, match="another game"):
        LogWriter(path, other)


def test_games_live_in_the_user_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOTP2P_HOME", str(tmp_path))
    path = game_log_path(GENESIS.game_id)
    assert path.parent == games_dir() and path.parent.is_relative_to(tmp_path)
    assert path.suffix == ".kotlog"
