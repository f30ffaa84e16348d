"""Log records on the full screen.

While the full screen is up, the program's warnings and worse are shown there. Writing them to the
terminal would tear the screen. A record of a refusal brings its code along, so the screen can say
it in plain words. Such a record has ``extra={"refusal": Refusal}``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator

from kotp2p.net.wire import Refusal

Shown = Callable[[str, Refusal | None], None]
"""Shows a log line on the screen: its text, and the refusal it records if there is one."""


class LogToScreen(logging.Handler):
    """Log records go to the screen, since writing them to the terminal would tear it.

    A record of a refusal, with ``extra={"refusal": ...}``, brings its code along.
    """

    def __init__(self, show: Shown) -> None:
        super().__init__(logging.WARNING)
        self.show = show

    def emit(self, record: logging.LogRecord) -> None:
        refusal = getattr(record, "refusal", None)
        self.show(f"{record.levelname.lower()}: {record.getMessage()}",
                  refusal if isinstance(refusal, Refusal) else None)


@contextlib.contextmanager
def logs_to(show: Shown) -> Iterator[None]:
    """While the full screen is up, the root logger's output goes to ``show``."""
    root = logging.getLogger()
    saved = root.handlers[:]
    root.handlers = [LogToScreen(show)]
    try:
        yield
    finally:
        root.handlers = saved
