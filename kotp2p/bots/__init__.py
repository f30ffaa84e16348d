"""kotp2p.bots."""
