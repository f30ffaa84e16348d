"""Identity: a key made on first use, private to its owner, shown as name + fingerprint."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest

from kotp2p.cli import main
from kotp2p.net.files import HomeError, identity_path, load_identity, new_identity, rename_identity
from kotp2p.net.wire import Identity, fingerprint, verify_signature


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KOTP2P_HOME", str(tmp_path))
    return tmp_path


def test_first_use_creates_a_key_only_its_owner_can_read(home: Path) -> None:
    ident = load_identity()
    path = identity_path()
    assert path.is_relative_to(home)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_identity().public_key == ident.public_key


def test_fingerprint_is_short_and_stable() -> None:
    ident = Identity.from_seed(b"\x01" * 32, "Ann")
    assert re.fullmatch(r"[0-9a-f]{4}(-[0-9a-f]{4}){3}", ident.fingerprint)
    assert ident.fingerprint == fingerprint(ident.public_key)
    assert "Ann" in repr(ident) and ident.fingerprint in repr(ident)


def test_signatures_verify_and_bad_inputs_just_fail() -> None:
    ident = Identity.from_seed(b"\x02" * 32)
    sig = ident.sign(b"msg")
    assert verify_signature(ident.public_key, sig, b"msg")
    assert not verify_signature(ident.public_key, sig, b"other")
    assert not verify_signature(b"short", sig, b"msg")
    assert not verify_signature(ident.public_key, b"\x00" * 64, b"msg")


def test_a_signature_found_valid_once_proves_nothing_else() -> None:
    """Valid signatures are remembered: what differs by one bit from one is still checked."""
    ident, other = Identity.from_seed(b"\x03" * 32), Identity.from_seed(b"\x04" * 32)
    made_elsewhere = ident.private_key.sign(b"move")  # not through sign(), so not remembered
    for _ in range(2):
        assert verify_signature(ident.public_key, made_elsewhere, b"move")
    flipped = bytes([made_elsewhere[0] ^ 1]) + made_elsewhere[1:]
    assert not verify_signature(ident.public_key, flipped, b"move")
    assert not verify_signature(other.public_key, made_elsewhere, b"move")
    assert not verify_signature(ident.public_key, made_elsewhere, b"move!")
    assert not verify_signature(ident.public_key, made_elsewhere, b"mov")


def test_new_key_keeps_the_old_one_and_the_name(home: Path) -> None:
    old = rename_identity("Zed")
    new = new_identity()
    assert new.public_key != old.public_key and new.name == "Zed"
    backups = list(identity_path().parent.glob("identity.*.old"))
    assert len(backups) == 1 and old.fingerprint in backups[0].name


def test_bad_names_are_refused(home: Path) -> None:
    with pytest.raises(ValueError, match="printable"):
        rename_identity("a\nb")


def test_a_damaged_identity_file_is_reported(home: Path) -> None:
    identity_path().parent.mkdir(parents=True)
    identity_path().write_bytes(b"garbage")
    with pytest.raises(HomeError, match="is damaged"):
        load_identity()


def test_cli_identity_shows_name_and_fingerprint(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["identity", "--name", "Kong"]) == 0
    out = capsys.readouterr().out
    ident = load_identity()
    assert f"Kong [{ident.fingerprint}]" in out
    assert main(["identity", "--new"]) == 0
    assert load_identity().fingerprint in capsys.readouterr().out
    assert load_identity().fingerprint != ident.fingerprint
