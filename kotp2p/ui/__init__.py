"""kotp2p.ui."""
