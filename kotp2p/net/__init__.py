"""kotp2p.net."""
