"""kotp2p.rules."""
