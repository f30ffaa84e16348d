"""kotp2p: King of Tokyo for 2-6 players on a LAN, with no server and no trust needed."""

# The one place the version is written; the package metadata reads it at build time.
__version__ = "0.1.0"

__all__ = ["__version__"]
