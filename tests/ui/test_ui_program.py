"""The commands the screens tell a player to type name this program as the player can run it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kotp2p.ui import Controller, program
from tests.ui.fakes import FakeGame


@pytest.fixture
def venv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ``.venv/bin/kotp2p`` under ``tmp_path``, the directory the program runs in."""
    script = tmp_path / ".venv" / "bin" / "kotp2p"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n", encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    return script


def test_started_from_the_venv_as_scripts_play_does_the_messages_name_that_path(
        venv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [str(venv), "play"])
    assert program() == ".venv/bin/kotp2p"
    c = Controller(FakeGame("The King 10/0/0; Giga Zaur 10/0/0 @city | active=0 phase=roll"))
    assert "(.venv/bin/kotp2p resume)" in c.quit_question()


def test_kotp2p_on_the_path_is_named_kotp2p(venv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [str(venv), "play"])
    monkeypatch.setenv("PATH", str(venv.parent))
    assert program() == "kotp2p"


def test_run_from_another_directory_the_path_is_whole(
        venv: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [str(venv), "play"])
    other = tmp_path.parent / f"{tmp_path.name}-other"
    other.mkdir()
    monkeypatch.chdir(other)
    assert program() == str(venv)


def test_python_m_kotp2p_is_named_kotp2p(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["/somewhere/kotp2p/__main__.py", "play"])
    assert program() == "kotp2p"
