"""The exceptions reteval raises.

Every error reteval raises on purpose derives from :class:`RetevalError`, so a
caller (and the command-line interface) can tell an expected problem with the
user's input from a bug.
"""

from __future__ import annotations

import os
from types import MappingProxyType

__all__ = [
    "InputError", "MissingExtraError", "MissingFontError", "RetevalError", "UnknownMeasureError",
    "outside_stacklevel",
]


class RetevalError(Exception):
    """Base class of every error reteval raises on purpose.

    The message is English. An error a student may meet in the Chinese edition
    also names its entry of the text catalogue (``key``, a key of
    :data:`reteval._util.catalogue.TEXTS`) and the values that fill it
    (``fields``), so that :func:`reteval._util.catalogue.error_message` can
    say it in either language.
    """

    key: str | None = None
    fields: MappingProxyType = MappingProxyType({})  # a dict per instance that names a key


class InputError(RetevalError, ValueError):
    """Malformed input: a file, a table or a parameter that cannot be used.

    The message names what was wrong and where: for files the path, the line
    number and the offending text.

    Examples
    --------
    >>> err = InputError("bad score 'x'", path="run.txt", line=3)
    >>> str(err)
    "run.txt:3: bad score 'x'"
    """

    def __init__(self, message: str, *, path: str | os.PathLike | None = None,
                 line: int | None = None, key: str | None = None, fields: dict | None = None):
        self.path = None if path is None else str(path)
        self.line = line
        if key is not None:
            self.key, self.fields = key, dict(fields or {})
        where = ""
        if self.path is not None:
            where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {message}" if where else message)


class UnknownMeasureError(InputError):
    """A measure name that reteval does not know."""


class MissingExtraError(RetevalError, ImportError):
    """A feature whose optional dependencies are not installed.

    The message names the ``pip install "reteval[extra]"`` that installs them.
    """


class MissingFontError(RetevalError):
    """No font can draw the text a figure must show (Chinese labels and no CJK font).

    The message says how to install one.
    """


def outside_stacklevel() -> int:
    """The ``stacklevel`` that makes a warning point at the first caller outside reteval.

    For the function that calls :func:`warnings.warn`: however deep inside reteval
    the warning is raised, the user sees their own line.

    Examples
    --------
    >>> outside_stacklevel()  # called from outside reteval: the caller itself
    1
    """
    import os
    import sys

    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    frame = sys._getframe(1)  # the function about to warn
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame = frame.f_back
        level += 1
    return level
