"""The installed version of reteval (``0+unknown`` when running from a source tree)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("reteval")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = ["__version__"]
