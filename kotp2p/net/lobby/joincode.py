"""Join codes that people can say aloud, such as ``7-tiger-ocean``.

A generated code is a number from 2 to 99 and two words of the check-word list. That gives
about 22 bits. It is enough because the handshake binds the code with a password-authenticated
key exchange: nobody can test guesses offline, and each online guess costs a connection.

A code is typed by hand on both sides. So it is normalized the same way on both sides before it
is used: letters folded to lower case, blanks around it dropped, and each run of spaces, hyphens
or underscores inside it made one hyphen. ``7 Tiger  Ocean`` is then ``7-tiger-ocean``.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Callable

from kotp2p.net.trust import CHECK_WORDS

MAX_JOIN_CODE = 64
"""The longest join code one may type, in characters."""

_SEPARATORS = re.compile(r"[\s\-_]+")


def normalize_code(code: str) -> str:
    """``code`` as both sides use it: folded case, one hyphen between its parts.

    It is "" for a code with nothing but blanks and hyphens.
    """
    text = unicodedata.normalize("NFKC", code).casefold()
    return "-".join(part for part in _SEPARATORS.split(text) if part)


def new_code(below: Callable[[int], int] = secrets.randbelow) -> str:
    """A fresh join code to say aloud, such as ``7-tiger-ocean``.

    ``below(n)`` draws each part, a number from 0 to n - 1. By default it is secure randomness.
    """
    return f"{2 + below(98)}-{CHECK_WORDS[below(len(CHECK_WORDS))]}-{CHECK_WORDS[below(len(CHECK_WORDS))]}"
