"""The compiled engine: the hot modules of :mod:`kotp2p.rules` built with mypyc.

Theory of operation
-------------------
``scripts/build_engine`` compiles the modules named in :data:`MODULES` with mypyc into a build
directory: :func:`default_build`, the venv unless ``KOTP2P_ENGINE_BUILD`` names another.
Beside the extension modules it writes ``manifest.json``: the file of each module and the digest
of the sources it was built from. :func:`install` reads the manifest and puts a finder first on
``sys.meta_path`` that loads those modules from the build. Every other module loads as usual,
so the build is a drop-in: the same classes, functions and results, only faster.

A build is used only if its digest equals the digest of the rules' sources here and its
extension suffix is this interpreter's. A stale build would play old rules, so it is refused.
:func:`install` must run before anything imports :mod:`kotp2p.rules`.

The pure-Python engine is the reference. Peers, ``verify``, ``play`` and the tests run it. The
compiled one is for local work that only needs speed: ``simulate`` and the benchmarks. Compiled
code checks the declared type of what it reads, where Python does not look, so a peer's
malformed input could raise another error there than the refusal the pure engine gives. A test
plays the same seeds on both, wrong inputs included, and compares every state, event and
refusal.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

__all__ = [
    "MANIFEST", "MODULES", "BuildError", "choose", "default_build", "in_use", "install",
    "installed", "sources_digest", "suffix",
]

MODULES = (
    "basics", "dice", "effects", "halloween", "machine", "market", "registry", "rolling", "state",
    "tokyo", "turn",
)
"""The modules of :mod:`kotp2p.rules` that the build compiles: those a game spends its time in.

The actions stay plain Python classes: a peer's malformed action must reach ``apply`` to be
refused there, as the pure engine refuses it."""

MANIFEST = "manifest.json"
"""The build's list of its files and of what they were built from."""

RULES = Path(__file__).parent / "rules"

_pure = "pure Python"
"""How :func:`in_use` names the pure engine: :func:`choose` adds why it was chosen."""


class BuildError(Exception):
    """The compiled engine cannot be used here, or not any more; the message says why."""


def default_build() -> Path:
    """Where the build is looked for and put: ``$KOTP2P_ENGINE_BUILD`` if set, else
    ``kotp2p-engine`` in this Python's prefix, the venv."""
    return Path(os.environ.get("KOTP2P_ENGINE_BUILD") or Path(sys.prefix) / "kotp2p-engine")


def sources_digest() -> str:
    """The digest of every source of :mod:`kotp2p.rules` and of the package version.

    It covers all of the package, not only :data:`MODULES`: compiled code may hold constants
    of the modules it imports."""
    h = hashlib.sha256()
    for path in [Path(__file__).parent / "__init__.py", *sorted(RULES.glob("*.py"))]:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def suffix() -> str:
    """The file name ending of this interpreter's extension modules."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


class _Finder:
    """Finds the modules of a build, and no other: a finder for ``sys.meta_path``.

    It is not an ``importlib.abc.MetaPathFinder``: that module loads ``random`` and more."""

    def __init__(self, files: dict[str, Path], build: Path) -> None:
        self.files = files
        self.build = build
        compiled = sum(1 for name in files if name.startswith("kotp2p.rules."))
        self.description = (f"compiled ({compiled} modules of kotp2p.rules built with mypyc, "
                            f"in {build})")

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def _read_manifest(build: Path) -> dict[str, Path]:
    """The files of a usable build, by module name.

    :raises BuildError: if the build is missing, damaged, stale or for another interpreter."""
    try:
        data = json.loads((build / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BuildError(f"no compiled engine in {build}: run scripts/build_engine") from None
    except (OSError, ValueError) as exc:
        raise BuildError(f"cannot read {build / MANIFEST}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("modules"), dict):
        raise BuildError(f"{build / MANIFEST}: expected an object with a 'modules' object")
    if data.get("suffix") != suffix():
        raise BuildError(
            f"the compiled engine in {build} is for {data.get('suffix')!r}, this Python "
            f"loads {suffix()!r}: run scripts/build_engine again"
        )
    if data.get("digest") != sources_digest():
        raise BuildError(
            f"the compiled engine in {build} was built from other sources of kotp2p.rules: "
            "run scripts/build_engine again"
        )
    files: dict[str, Path] = {}
    for name, file in data["modules"].items():
        if not isinstance(name, str) or not isinstance(file, str) or not (build / file).is_file():
            raise BuildError(f"{build / MANIFEST}: module {name!r} has no file {file!r}")
        files[name] = build / file
    return files


def install(build: Path | None = None) -> str:
    """Load the compiled modules from ``build`` (default :func:`default_build`) from now on.

    Returns a short description of the engine, for a benchmark's or a summary's first line.

    :raises BuildError: if the build cannot be used, saying why, or if :mod:`kotp2p.rules` is
        already imported: too late to choose.
    """
    build = default_build() if build is None else build
    finder = _finder()
    if finder is not None and finder.build == build:
        return finder.description
    files = _read_manifest(build)
    _too_late()
    finder = _Finder(files, build)
    sys.meta_path.insert(0, finder)
    return finder.description


def installed() -> Path | None:
    """The build the compiled engine loads from, or None if this process runs the pure one."""
    finder = _finder()
    return None if finder is None else finder.build


def in_use() -> str:
    """The engine this process runs, in a few words: the build's, or the pure one's with the
    reason :func:`choose` gave for it."""
    finder = _finder()
    return _pure if finder is None else finder.description


def _finder() -> _Finder | None:
    return next((f for f in sys.meta_path if isinstance(f, _Finder)), None)


def _no_build_in_use() -> None:
    """:raises BuildError: if this process runs a compiled engine already."""
    if installed() is not None:
        raise BuildError(f"the compiled engine in {installed()} is already in use")


def _too_late() -> None:
    """:raises BuildError: if the engine this process runs is chosen already."""
    _no_build_in_use()
    if "kotp2p.rules" in sys.modules:
        raise BuildError("kotp2p.rules is already imported: the engine is chosen before that")


def choose(engine: str, build: Path | None = None) -> str:
    """Set up the engine ``engine`` names: ``pure``, ``compiled``, or ``auto`` for the
    compiled one when a usable build exists. Returns what is in use, and why for ``auto``, as
    :func:`in_use` says it from then on.

    :raises BuildError: for ``compiled`` without a usable build, or if it is too late to choose,
        as :func:`install` says.
    :raises ValueError: for another name.
    """
    global _pure
    if engine == "pure":
        _no_build_in_use()
        _pure = "pure Python"
        return _pure
    if engine == "compiled":
        return install(build)
    if engine != "auto":
        raise ValueError(f"expected an engine among auto, pure, compiled, found {engine!r}")
    try:
        return install(build)
    except BuildError as exc:
        _pure = f"pure Python ({exc})"
        return _pure
