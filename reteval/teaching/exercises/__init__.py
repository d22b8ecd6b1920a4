"""Exercises that check themselves: ``check("01.2", answer)`` says right or wrong, with a hint.

Every notebook ends with exercises numbered ``"NN.i"`` (``NN`` the notebook's
number). The exercises of notebook ``NN`` live in the module
``reteval.teaching.exercises.nbNN`` as a dict ``EXERCISES`` from the id to an
:class:`Exercise`. Worked solutions are in ``notebooks/solutions/``, and the
tests run them, so every check is shown to accept its own solution.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass

from reteval.errors import InputError

__all__ = ["Exercise", "Verdict", "check", "number"]


@dataclass(frozen=True)
class Verdict:
    """The outcome of :func:`check`: ``correct`` and a message (a hint when wrong)."""

    exercise: str
    correct: bool
    message: str

    def __bool__(self) -> bool:
        return self.correct

    def __repr__(self) -> str:
        mark = "✓" if self.correct else "✗"
        return f"{mark} {self.exercise}: {self.message}"


@dataclass(frozen=True)
class Exercise:
    """One exercise: its checker and the hints it gives, in Chinese and English.

    ``is_correct(answer)`` returns True or False; it may raise ``TypeError`` or
    ``ValueError`` for an answer of the wrong shape, which :func:`check` reports
    as wrong, with the hint.
    """

    is_correct: Callable[[object], bool]
    hint_zh: str
    hint_en: str


def number(answer) -> float:
    """An answer that must be a finite number, as a float (for checkers).

    Raises ``TypeError`` or ``ValueError`` otherwise, which :func:`check`
    reports as a wrong answer.

    Examples
    --------
    >>> number(3)
    3.0
    """
    if isinstance(answer, bool) or answer is None:
        raise TypeError("a number is expected")
    value = float(answer)
    if not math.isfinite(value):
        raise ValueError("a finite number is expected")
    return value


_PRAISE = {"zh": "正确！", "en": "Correct!"}
_WRONG = {"zh": "还不对。提示：", "en": "Not yet. Hint: "}


def _exercise(exercise_id: str) -> Exercise:
    notebook, _, _ = str(exercise_id).partition(".")
    try:
        module = importlib.import_module(f"{__name__}.nb{notebook}")
    except ModuleNotFoundError:
        module = None
    exercises = getattr(module, "EXERCISES", {})
    if exercise_id not in exercises:
        raise InputError(f"no exercise {exercise_id!r}")
    return exercises[exercise_id]


def check(exercise_id: str, answer, *, lang: str = "zh") -> Verdict:
    """Check an answer to exercise ``exercise_id``.

    Parameters
    ----------
    exercise_id : str
        ``"NN.i"``, as the notebook numbers it.
    answer : object
        The reader's answer, in the form the exercise asks for.
    lang : {"zh", "en"}, default "zh"
        Language of the message.

    Returns
    -------
    Verdict
        True when correct; its message says so, or gives a hint.

    Raises
    ------
    InputError
        No such exercise, or an unknown language.
    """
    if lang not in _PRAISE:
        raise InputError(f"lang must be 'zh' or 'en'; got {lang!r}")
    exercise = _exercise(exercise_id)
    try:
        correct = bool(exercise.is_correct(answer))
    except (TypeError, ValueError, KeyError, IndexError):
        correct = False
    hint = exercise.hint_zh if lang == "zh" else exercise.hint_en
    message = _PRAISE[lang] if correct else _WRONG[lang] + hint
    return Verdict(str(exercise_id), correct, message)
