"""Text that came from a peer, made safe to show.

Such text is a name, a chat line or anything quoted from a payload. A peer chooses its name and its
chat lines, and reports quote parts of its payloads. Printed as they are, control characters are
an attack. ANSI escapes let a peer move the cursor, recolour or clear another player's screen.
Newlines and carriage returns let it forge extra lines. Bidirectional overrides reverse what
follows. :func:`safe_text` keeps every printable character. It writes every other one as a
visible escape, such as ``\\x1b`` or ``\\u202e``, and caps the length.
"""

from __future__ import annotations

import unicodedata

# Never sent to a terminal as they are: control (Cc), format (Cf), surrogates, private use,
# unassigned, and line or paragraph separators. Format covers bidi overrides and zero-width joiners.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def safe_text(text: str, limit: int = 200) -> str:
    """``text`` with every character a terminal would act on shown as an escape.

    The result is cut to about ``limit`` characters. An ellipsis marks the cut.
    """
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
    """A non-empty printable string of at most ``limit`` characters.

    Use it for text that is checked rather than escaped, such as a name or a level.
    """
    return isinstance(value, str) and 0 < len(value) <= limit and value.isprintable()


def safe_lines(text: str, limit: int = 2000) -> str:
    """Several lines of report text made safe line by line.

    The newlines between the lines are kept.
    """
    return "\n".join(safe_text(line, limit) for line in text.split("\n"))


def short_repr(value: object, limit: int = 120) -> str:
    """``repr(value)`` cut to about ``limit`` characters.

    A hostile payload can be a megabyte.
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
