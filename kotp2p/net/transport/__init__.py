"""kotp2p.net.transport: the trio layer that moves bytes (links, and the session's driver)."""
