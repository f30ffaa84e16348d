"""A real terminal for end-to-end tests: one command in a detached tmux session.

Each :class:`Terminal` runs its own tmux server (``tmux -L NAME``, a socket of its own, no user
config), so tests run in parallel, or by other people on the same machine, never see or kill each
other's sessions; :meth:`Terminal.close` kills that server, and the ``terminals`` fixture closes
every terminal a test opened even when the test fails.

Commands go to the server through one tmux client in control mode (``tmux -C``), which reads a
command per line and answers each in a ``%begin`` ... ``%end`` block: a test polls the screen
hundreds of times, and starting a tmux process for each capture cost more CPU than the program
under test.

Nothing here sleeps for a fixed time to let the program catch up: a test waits for what a user
would wait for, a text (or a condition) on the screen, polling ``capture-pane`` until a generous
deadline (a loaded machine may be slow, a broken program never shows it). A wait that times out
fails with what it waited for, for how long, and the last screen captured.
"""

from __future__ import annotations

import os
import selectors
import shlex
import subprocess
import time
import uuid
from collections.abc import Callable
from pathlib import Path

DEADLINE = 60.0
"""Seconds a test waits for a screen condition before failing (generous: loaded machines)."""
POLL = 0.1
"""Seconds between two captures while waiting."""


class Terminal:
    """A detached tmux session of its own tmux server running ``command`` at a fixed size.

    After the command ends the pane shows ``EXITED <status>`` and stays open for captures."""

    def __init__(self, command: list[str], env: dict[str, str], width: int = 80,
                 height: int = 24) -> None:
        self.server = f"kotp2p-test-{uuid.uuid4().hex[:12]}"
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        line = (f"env {exports} {shlex.join(command)}; echo EXITED $?; sleep 3600")
        self.last = ""
        self._env = {k: v for k, v in os.environ.items() if k != "TMUX"}
        done = subprocess.run(["tmux", "-L", self.server, "-f", os.devnull, "new-session", "-d",
                               "-s", "main", "-x", str(width), "-y", str(height), line],
                              env=self._env, capture_output=True, text=True, timeout=DEADLINE)
        if done.returncode != 0:
            raise AssertionError(f"tmux new-session failed ({done.returncode}): "
                                 f"{done.stderr.strip()}")
        self._control = subprocess.Popen(
            ["tmux", "-L", self.server, "-f", os.devnull, "-C", "attach-session", "-t", "main",
             "-f", "no-output,ignore-size"],
            env=self._env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
        self._read = b""
        self._answer("attach-session")  # the block that answers the attach itself
        self.socket = self._tmux("display-message", "-p", "#{socket_path}").strip()

    def _tmux(self, *args: str) -> str:
        """Run one tmux command through the control client; its output."""
        stdin = self._control.stdin
        assert stdin is not None
        stdin.write((shlex.join(args) + "\n").encode())
        stdin.flush()
        return self._answer(" ".join(args[:2]))

    def _answer(self, what: str) -> str:
        """The next answer block of the control client: its lines, or a failure naming
        ``what`` was asked."""
        deadline = time.monotonic() + DEADLINE
        while not self._line(deadline, what).startswith(b"%begin "):
            pass  # a notification, such as %session-changed
        lines: list[str] = []
        while True:
            line = self._line(deadline, what)
            if line.startswith((b"%end ", b"%error ")):
                break
            lines.append(line.decode("utf-8", "replace"))
        if line.startswith(b"%error "):
            raise AssertionError(f"tmux {what} failed: {' '.join(lines)}; the last screen:\n"
                                 f"{self.last}")
        return "".join(f"{text}\n" for text in lines)

    def _line(self, deadline: float, what: str) -> bytes:
        stdout = self._control.stdout
        assert stdout is not None
        while b"\n" not in self._read:
            with selectors.DefaultSelector() as sel:
                sel.register(stdout, selectors.EVENT_READ)
                if not sel.select(max(0.0, deadline - time.monotonic())):
                    raise AssertionError(f"tmux {what}: no answer within {DEADLINE:.0f} s; the "
                                         f"last screen:\n{self.last}")
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                raise AssertionError(f"tmux {what}: the tmux client quit; the last "
                                     f"screen:\n{self.last}")
            self._read += chunk
        line, _, self._read = self._read.partition(b"\n")
        return line

    def screen(self) -> str:
        """What the terminal shows now (also kept as :attr:`last`, for failure messages)."""
        self.last = self._tmux("capture-pane", "-p", "-t", "main")
        return self.last

    def keys(self, *keys: str) -> None:
        """Type ``keys`` (tmux key names: ``Enter``, ``C-c``, or literal text)."""
        self._tmux("send-keys", "-t", "main", *keys)

    def wait_until(self, ready: Callable[[str], bool], what: str,
                   timeout: float = DEADLINE) -> str:
        """The first screen for which ``ready`` holds; fails after ``timeout`` seconds with
        ``what`` was awaited and the last screen."""
        start = time.monotonic()
        while True:
            screen = self.screen()
            if ready(screen):
                return screen
            if "EXITED " in screen:  # the program ended: nothing will change now
                ended = screen.split("EXITED ")[1].split()[0]
                raise AssertionError(f"the program ended (status {ended}) before {what}; "
                                     f"the screen:\n{screen}")
            if time.monotonic() - start > timeout:
                raise AssertionError(f"{what}: not within {timeout:.0f} s; the screen:\n{screen}")
            time.sleep(POLL)

    def wait_for(self, text: str, timeout: float = DEADLINE) -> str:
        """The first screen showing ``text`` (see :meth:`wait_until`)."""
        return self.wait_until(lambda screen: text in screen, f"{text!r} on the screen",
                               timeout)

    def wait_for_change(self, before: str, timeout: float = 10.0) -> str:
        """The first screen other than ``before`` (or the same one after ``timeout``: a key that
        changed nothing is for the caller to judge)."""
        end = time.monotonic() + timeout
        screen = self.screen()
        while screen == before and time.monotonic() < end:
            time.sleep(POLL)
            screen = self.screen()
        return screen

    def resize(self, width: int, height: int) -> None:
        """Resize the terminal, as a user dragging the window's corner."""
        self._tmux("resize-window", "-t", "main", "-x", str(width), "-y", str(height))

    def close(self) -> None:
        """Kill this terminal's tmux server (and so the program, if still running), and remove
        its socket."""
        subprocess.run(["tmux", "-L", self.server, "kill-server"], capture_output=True,
                       check=False, timeout=DEADLINE)
        self._control.kill()
        self._control.wait()
        for pipe in (self._control.stdin, self._control.stdout):
            if pipe is not None:
                pipe.close()
        if self.socket.endswith(self.server):
            Path(self.socket).unlink(missing_ok=True)


class Terminals:
    """The terminals one test opened; :meth:`close_all` closes them all."""

    def __init__(self) -> None:
        self.opened: list[Terminal] = []

    def __call__(self, command: list[str], env: dict[str, str], width: int = 80,
                 height: int = 24) -> Terminal:
        term = Terminal(command, env, width, height)
        self.opened.append(term)
        return term

    def close_all(self) -> None:
        """Close every terminal opened (each even if closing another one failed)."""
        for term in self.opened:
            term.close()
