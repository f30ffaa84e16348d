"""One process per stored game: the lock names its holder, and a killed holder leaves none."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kotp2p.net.files import GameLock, GameLocked, StoredGame, StoreError


def test_a_second_lock_is_refused_naming_the_holder_until_it_is_released(tmp_path: Path) -> None:
    path = tmp_path / "games" / "0123456789abcdef.lock"
    first = GameLock.acquire(path, "kotp2p join")
    with pytest.raises(GameLocked, match=rf"process {os.getpid()} \(kotp2p join\), which holds "):
        GameLock.acquire(path)
    first.release()
    GameLock.acquire(path, "kotp2p resume").release()
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_a_killed_holder_leaves_no_lock_behind(tmp_path: Path) -> None:
    stored = StoredGame(tmp_path / "0123456789abcdef.kotlog")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; "
         "from kotp2p.net.files import GameLock; held = GameLock.acquire(Path(sys.argv[1]), 'kotp2p x');"
         " print('locked', flush=True); time.sleep(60)", str(stored.lock_path)],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": os.getcwd()})
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        with pytest.raises(StoreError, match=f"process {holder.pid} "):
            stored.lock()
    finally:
        holder.kill()
        holder.communicate()
    stored.lock().release()
