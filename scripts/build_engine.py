"""Build the compiled engine: the modules in ``kotp2p.compiled.MODULES``, compiled with mypyc.

The sources are copied to a scratch directory and compiled there, so the source tree never holds
an extension module that would shadow its ``.py``. The extension modules and a manifest go to
``--into`` (by default ``kotp2p-engine`` in this Python's prefix). ``simulate`` and the benchmarks
load the build from there, as long as the sources are those it was built from.
Usage: scripts/build_engine [--into DIR] [--opt 0-3]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kotp2p import compiled

ROOT = Path(compiled.__file__).parent.parent

SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
opt, paths = sys.argv[1], sys.argv[2:]
setup(name="kotp2p-engine", ext_modules=mypycify(paths, opt_level=opt, debug_level="0"),
      script_args=["build_ext", "--inplace", "--quiet"])
"""


def build(into: Path, opt: str) -> float:
    """Compile the engine into ``into``; return the seconds it took."""
    t0 = time.monotonic()
    digest = compiled.sources_digest()
    ext = compiled.suffix()
    with tempfile.TemporaryDirectory(prefix="kotp2p-engine-") as tmp:
        stage = Path(tmp)
        (stage / "kotp2p" / "rules").mkdir(parents=True)
        shutil.copy(ROOT / "kotp2p" / "__init__.py", stage / "kotp2p" / "__init__.py")
        for src in (ROOT / "kotp2p" / "rules").glob("*.py"):
            shutil.copy(src, stage / "kotp2p" / "rules" / src.name)
        paths = [f"kotp2p/rules/{m}.py" for m in compiled.MODULES]
        run = subprocess.run([sys.executable, "-c", SETUP, opt, *paths], cwd=stage,
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"build_engine: mypyc failed:\n{run.stdout}{run.stderr}")
        shared = [p.name for p in stage.glob(f"*__mypyc{ext}")]
        if len(shared) != 1:
            sys.exit(f"build_engine: expected one shared library *__mypyc{ext}, found {shared}")
        modules = {f"kotp2p.rules.{m}": f"kotp2p/rules/{m}{ext}" for m in compiled.MODULES}
        modules[shared[0].removesuffix(ext)] = shared[0]
        if into.exists():
            shutil.rmtree(into)
        for file in modules.values():
            (into / file).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(stage / file, into / file)
    manifest = {"digest": digest, "suffix": ext, "opt": opt, "modules": modules}
    (into / compiled.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return time.monotonic() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--into", type=Path, default=compiled.default_build(),
                        help="where the build goes (default: %(default)s)")
    parser.add_argument("--opt", choices="0123", default="3",
                        help="the C compiler's optimisation level (default 3)")
    args = parser.parse_args()
    try:
        import mypyc  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as exc:
        sys.exit(f"build_engine: needs mypy and setuptools ({exc}): scripts/build_engine "
                 "installs them with the test tools")
    seconds = build(args.into, args.opt)
    print(f"compiled {len(compiled.MODULES)} modules of kotp2p.rules into {args.into} "
          f"in {seconds:.0f} s")


if __name__ == "__main__":
    main()
