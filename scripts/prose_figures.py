#!/usr/bin/env python3
"""Print how long the sentences of kotp2p's comments and docstrings are, per package.

Usage: .venv/bin/python scripts/prose_figures.py [ROOT] [--worst N]

A sentence ends at ". ", "? ", "! " or a blank line. Code spans, reST roles and doctest lines do
not count as words. An aside is a parenthesis that holds three words or more.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import io
import re
import statistics
import sys
import tokenize
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
LONG = 40
_CODE = re.compile(r"``[^`]*``|:\w+:`[^`]*`|`[^`]*`")
_ASIDE = re.compile(r"\(([^()]*)\)")
_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z`*\"'(0-9])|\n\s*\n")


def prose(path: Path) -> list[str]:
    """The comments and docstrings of one module, each as one text."""
    source = path.read_text(encoding="utf-8")
    texts = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)):
            texts.append(inspect.cleandoc(node.value.value))
    block: list[str] = []
    last = -2
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.COMMENT:
            continue
        text = tok.string.lstrip("#").strip()
        if text.startswith(("noqa", "type:", "-- ")) or not text:
            continue
        if tok.start[0] != last + 1 and block:
            texts.append(" ".join(block))
            block = []
        block.append(text)
        last = tok.start[0]
    if block:
        texts.append(" ".join(block))
    return texts


def sentences(text: str) -> list[str]:
    """The sentences of a text, doctest lines left out."""
    lines = [line for line in text.splitlines() if not line.strip().startswith((">>>", "..."))]
    out = []
    for part in _END.split("\n".join(lines)):
        words = _CODE.sub("X", part).split()
        if len(words) >= 3:
            out.append(" ".join(words))
    return out


def asides(sentence: str) -> int:
    """Parentheses holding three words or more."""
    return sum(1 for m in _ASIDE.finditer(sentence) if len(m.group(1).split()) >= 3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=HERE)
    parser.add_argument("--worst", type=int, default=0, help="also list the N longest sentences")
    args = parser.parse_args()
    package = args.root / "kotp2p"
    per: dict[str, list[str]] = defaultdict(list)
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).parts
        key = "/".join(rel[:2]) if rel[0] == "net" and len(rel) > 2 else rel[0].removesuffix(".py")
        for text in prose(path):
            per[key].extend((f"{path.relative_to(args.root)}: {s}") for s in sentences(text))
    everything = [s for group in per.values() for s in group]

    def line(name: str, group: list[str]) -> str:
        counts = [len(s.split(": ", 1)[1].split()) for s in group]
        long = sum(c > LONG for c in counts)
        paren = sum(asides(s) for s in group)
        return (f"{name:16} {len(group):6} sentences  {statistics.mean(counts):5.1f} words each  "
                f"{100 * long / len(group):4.1f}% over {LONG}  {paren:5} asides")

    for name in sorted(per):
        if per[name]:
            print(line(name, per[name]))
    print(line("all", everything))
    if args.worst:
        for s in sorted(everything, key=lambda s: -len(s.split()))[: args.worst]:
            print(s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
