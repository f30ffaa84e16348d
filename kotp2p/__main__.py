"""``python -m kotp2p`` runs the command line."""

import sys

from kotp2p.cli import main

sys.exit(main())
