"""The compiled engine: built from these sources, it plays every seed as the pure engine does, and
a build that does not fit this checkout or this Python is refused with the reason."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kotp2p import compiled

ROOT = Path(__file__).parent.parent


def _python(*args: str | Path, env: dict[str, str] | None = None) -> str:
    out = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, **(env or {})}, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _manifest(build: Path, **changes: object) -> Path:
    """A build directory whose manifest fits this checkout, but for ``changes``."""
    build.mkdir(parents=True, exist_ok=True)
    manifest = {"digest": compiled.sources_digest(), "suffix": compiled.suffix(), "modules": {}}
    (build / compiled.MANIFEST).write_text(json.dumps({**manifest, **changes}), encoding="utf-8")
    return build


@pytest.mark.long  # the build is some 8 s of one core
def test_the_compiled_engine_plays_every_seed_as_the_pure_engine(tmp_path: Path) -> None:
    build = tmp_path / "engine"
    # Built without the C compiler's optimisations, in half the time: mypyc writes the same C
    # at every level, and that C means the same at every level.
    _python(ROOT / "scripts" / "build_engine.py", "--into", build, "--opt", "0")
    trace = ROOT / "tests" / "engine_trace.py"
    pure = json.loads(_python(trace, "--engine", "pure", "--games", "4"))
    fast = json.loads(_python(trace, "--engine", "compiled", "--build", build, "--games", "4"))
    assert Path(fast["machine"]).is_relative_to(build)  # the compiled modules ran
    assert Path(pure["machine"]).name == "machine.py"
    assert fast["ids"] == pure["ids"]
    assert fast["states"] == pure["states"] > 5000
    assert fast["digest"] == pure["digest"]
    # simulate finds the build through the environment, says so, and plays the same games, in
    # two processes that load the build too.
    args = ("-m", "kotp2p", "simulate", "--games", "5", "--bots", "greedy,random", "--seed", "5",
            "--json", "--engine")
    env = {"KOTP2P_ENGINE_BUILD": str(build)}
    by_engine = {"pure": json.loads(_python(*args, "pure", env=env)),
                 "compiled": json.loads(_python(*args, "compiled", "--jobs", "2", env=env))}
    assert by_engine["compiled"].pop("engine").startswith("compiled (11 modules of kotp2p.rules")
    assert by_engine["pure"].pop("engine") == "pure Python"
    for summary in by_engine.values():
        del summary["games_per_second"]
    assert by_engine["compiled"] == by_engine["pure"]


def test_a_build_that_does_not_fit_is_refused_with_the_reason(tmp_path: Path) -> None:
    cases = {
        "no compiled engine in": tmp_path / "nothing here",
        "built from other sources": _manifest(tmp_path / "stale", digest="0" * 64),
        "this Python loads": _manifest(tmp_path / "other", suffix=".cpython-39-darwin.so"),
        "has no file": _manifest(tmp_path / "partial", modules={"kotp2p.rules.machine": "x.so"}),
        "expected an object": _manifest(tmp_path / "odd", modules=["kotp2p.rules.machine"]),
    }
    for reason, build in cases.items():
        with pytest.raises(compiled.BuildError, match=reason):
            compiled.install(build)
        assert compiled.choose("auto", build).startswith("pure Python (")
    (tmp_path / "stale" / compiled.MANIFEST).write_text("{not json", encoding="utf-8")
    with pytest.raises(compiled.BuildError, match="cannot read"):
        compiled.install(tmp_path / "stale")


def test_the_engine_cannot_change_once_the_rules_are_loaded(tmp_path: Path) -> None:
    import kotp2p.rules  # noqa: F401  # as every test has it

    fits = _manifest(tmp_path / "fits")
    with pytest.raises(compiled.BuildError, match="already imported"):
        compiled.install(fits)
    assert compiled.choose("auto", fits) == (
        "pure Python (kotp2p.rules is already imported: the engine is chosen before that)")
    assert compiled.installed() is None


def test_simulate_without_a_build_says_how_to_make_one(tmp_path: Path) -> None:
    env = {**os.environ, "KOTP2P_ENGINE_BUILD": str(tmp_path / "none")}
    out = subprocess.run([sys.executable, "-m", "kotp2p", "simulate", "--games", "1",
                          "--engine", "compiled"], capture_output=True, text=True, env=env)
    assert out.returncode == 1
    assert "no compiled engine in" in out.stderr and "scripts/build_engine" in out.stderr
    out = subprocess.run([sys.executable, "-m", "kotp2p", "simulate", "--games", "1"],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 0
    assert out.stdout.startswith("engine: pure Python (no compiled engine in")
