"""Types of command-line arguments (``argparse``'s ``type=``), shared by the subcommands.

Each reads one option's text and returns its value, or raises
:class:`argparse.ArgumentTypeError` with the text it got, which argparse prints as the
option's error. Nothing here loads numpy or pandas: the parsers are built at start-up.
"""

from __future__ import annotations

import argparse
import math

__all__ = ["nonnegative_int", "positive_int", "probability"]


def probability(text: str) -> float:
    """A number strictly between 0 and 1 (a significance level).

    Examples
    --------
    >>> probability("0.05")
    0.05
    >>> probability("1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be strictly between 0 and 1; got '1'
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be strictly between 0 and 1; got {text!r}")
    return value


def positive_int(text: str) -> int:
    """An integer of 1 or more (a count of rounds, a cutoff).

    Examples
    --------
    >>> positive_int("10")
    10
    >>> positive_int("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a positive integer; got '0'
    """
    return _integer(text, 1, "a positive integer")


def nonnegative_int(text: str) -> int:
    """An integer of 0 or more (a seed, a number of decimals).

    Examples
    --------
    >>> nonnegative_int("0")
    0
    >>> nonnegative_int("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be an integer >= 0; got '-1'
    """
    return _integer(text, 0, "an integer >= 0")


def _integer(text: str, lowest: int, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = lowest - 1
    if value < lowest:
        raise argparse.ArgumentTypeError(f"must be {what}; got {text!r}")
    return value
