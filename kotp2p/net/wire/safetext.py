"""Text that came from a peer (names, chat, anything quoted from a payload), made safe to show.

A peer chooses its name and its chat lines, and reports quote parts of its payloads. Printed as
they are, control characters would let it move the cursor, recolour or clear another player's
screen (ANSI escapes), forge extra lines (newlines, carriage returns) or reverse what follows
(bidirectional overrides). :func:`safe_text` keeps every printable character and writes every
other one as a visible escape (``\\x1b``, ``\\u202e``), and caps the length.
"""

from __future__ import annotations

import unicodedata

# Control (Cc), format (Cf: bidi overrides, zero-width joiners), surrogates, private use,
# unassigned, and line/paragraph separators: never sent to a terminal as they are.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def safe_text(text: str, limit: int = 200) -> str:
    """``text`` with every character a terminal would act on shown as an escape, cut to about
    ``limit`` characters (an ellipsis marks the cut)."""
    if text.isascii() and text.isprintable() and len(text) <= limit:
        return text  # the common case, at no cost
    out: list[str] = []
    size = 0
    for ch in text:
        piece = ch if unicodedata.category(ch) not in _UNSAFE_CATEGORIES else _escape(ch)
        size += len(piece)
        if size > limit:
            out.append("…")
            break
        out.append(piece)
    return "".join(out)


def is_text(value: object, limit: int) -> bool:
    """A non-empty printable string of at most ``limit`` characters (a name, a level: text that
    is checked rather than escaped)."""
    return isinstance(value, str) and 0 < len(value) <= limit and value.isprintable()


def safe_lines(text: str, limit: int = 2000) -> str:
    """Several lines of report text made safe line by line (the newlines between them kept)."""
    return "\n".join(safe_text(line, limit) for line in text.split("\n"))


def short_repr(value: object, limit: int = 120) -> str:
    """``repr(value)`` cut to about ``limit`` characters (a hostile payload can be a megabyte)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
