#!/usr/bin/env python3
"""Run ``kotp2p`` (the arguments as on its command line) under cProfile counting CPU time, not wall
time, and write the statistics to the file named by ``KOTP2P_PROFILE`` (``pstats`` format).

Wall-clock profiles of several peer processes sharing a few cores are useless: preemption lands
inside whatever function happened to run. ``scripts/bench_mesh.py --profile DIR`` runs every peer
through this script."""

from __future__ import annotations

import cProfile
import os
import sys
import time

from kotp2p.cli import main

if __name__ == "__main__":
    profile = cProfile.Profile(time.process_time)
    try:
        rc = profile.runcall(main, sys.argv[1:])
    finally:
        profile.dump_stats(os.environ["KOTP2P_PROFILE"])
    raise SystemExit(rc)
