import subprocess
import sys
import time

from tests.watchdog import kill_after


def test_a_read_from_a_hung_child_ends_at_the_deadline() -> None:
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                          stdout=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None
        start = time.monotonic()
        with kill_after(proc, 0.5):
            assert proc.stdout.readline() == ""
        assert time.monotonic() - start < 30
        assert proc.wait(timeout=10) != 0
