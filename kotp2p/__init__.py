"""kotp2p: King of Tokyo for 2-6 players on a LAN, with no server and no trust needed."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("kotp2p")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
