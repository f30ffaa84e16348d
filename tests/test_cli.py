"""The command line as a user runs it: exit codes and what it prints."""

from __future__ import annotations

import pytest

from kotp2p import __version__
from kotp2p.cli import main


def test_version_prints_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"kotp2p {__version__}"


def test_no_command_prints_help_and_usage_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "simulate" in capsys.readouterr().out


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fly"]) == 2
    assert "invalid choice" in capsys.readouterr().err
