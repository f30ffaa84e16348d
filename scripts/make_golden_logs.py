#!/usr/bin/env python3
"""Rewrite the golden logs in tests/data/ (run after the rules or the log format change).

Usage: .venv/bin/python scripts/make_golden_logs.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.net.golden import build_golden  # noqa: E402


def main() -> int:
    out = ROOT / "tests" / "data"
    for entry in build_golden(out):
        where = "" if entry["seat"] is None else f" seat {entry['seat']} step {entry['step']}"
        print(f"{entry['file']:28} {entry['verdict']:10} {entry['rule'] or ''}{where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
