"""Answers of extreme size are read at once: no exact integer of 1e99999999 is built."""

from __future__ import annotations

from decimal import Decimal

import pytest

from reteval.teaching.exercises import check, number, reset


@pytest.mark.parametrize(("answer", "expected"), [
    ("1e99999999", ValueError),  # beyond any float: not a finite number
    ("-1e400", ValueError),
    (Decimal("1e99999999"), ValueError),
    (Decimal("-9.5e401"), ValueError),
    (10 ** 100_000, ValueError),  # a huge int: too large for a float
    ("9" * 2000, ValueError),  # longer than any number a reader types
    ("1e-99999999", 0.0),  # below the smallest float
    (Decimal("1e-99999999"), 0.0),
    ("0." + "3" * 500, 1 / 3),  # many digits, rounded
    ("1e308", 1e308),
    ("2.5e-300", 2.5e-300),
], ids=range(11))
def test_extreme_answers_are_read_or_refused(answer, expected):
    if isinstance(expected, type):
        with pytest.raises(expected):
            number(answer)
    else:
        assert number(answer) == expected


@pytest.mark.parametrize("answer", ["1e99999999", "-1e99999999", Decimal("1e99999999"),
                                    "1e-99999999", 10 ** 100_000, "9" * 2000,
                                    "1/" + "7" * 999], ids=range(7))
def test_check_calls_extreme_answers_wrong(answer):
    reset("01.1")
    verdict = check("01.1", answer, lang="en")
    assert not verdict and verdict.hint == 1
