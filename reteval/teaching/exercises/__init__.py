"""Exercises that check themselves: ``check("01.2", answer)`` says right or wrong, with hints.

Every notebook ends with exercises numbered ``"NN.i"`` (``NN`` the notebook's
number). The exercises of notebook ``NN`` live in the module
``reteval.teaching.exercises.nbNN`` as a dict ``EXERCISES`` from the id to an
:class:`Exercise`. Worked solutions are in ``notebooks/solutions/``, and the
tests run them, so every check is shown to accept its own solution.

How :func:`check` talks to a student:

* ``check(id, None)`` (what an executed notebook runs: ``answer = None``) only
  asks for an answer. It gives no hint: a hint read before trying spoils the
  exercise.
* Each wrong answer gives the next hint of the exercise, from a nudge to a
  near-complete method; after the last one, the last hint again. No hint
  states the answer. The count of wrong answers is kept per exercise for the
  life of the process (the kernel); :func:`reset` forgets it.
* A right answer is accepted in any reasonable form: a number as ``int``,
  ``float``, ``Fraction``, ``Decimal`` or text (``"0.57"``, ``"5/8"``,
  ``"62.5%"``), rounded or cut to the decimals the notebook prints; a whole
  number also as ``57756.0``; a word in Chinese or English. An answer that is
  not a number where one is expected (``inf``, ``10**400``) is simply wrong.
* Code exercises take a function: the check runs it on hidden cases and says
  which kind of case failed, never what it should have returned.
"""

from __future__ import annotations

import importlib
import math
import numbers
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Context, Decimal, InvalidOperation
from fractions import Fraction

from reteval.errors import InputError

__all__ = [
    "Exercise",
    "Verdict",
    "WrongAnswer",
    "check",
    "close_to",
    "letters",
    "number",
    "reset",
    "whole_number",
    "word",
]


@dataclass(frozen=True)
class Verdict:
    """The outcome of :func:`check`: ``correct``, ``answered`` and a message.

    ``answered`` is False for ``None`` (nothing tried yet); ``hint`` is the
    number of the hint given (0 when none).
    """

    exercise: str
    correct: bool
    message: str
    answered: bool = True
    hint: int = 0

    def __bool__(self) -> bool:
        return self.correct

    def __repr__(self) -> str:
        mark = "✓" if self.correct else ("✗" if self.answered else "…")
        return f"{mark} {self.exercise}: {self.message}"


class WrongAnswer(ValueError):
    """Raised by a checker for a wrong answer that deserves a specific remark.

    ``zh`` and ``en`` say what is wrong (for a code exercise: which kind of
    hidden case failed), without saying what the right answer is.
    """

    def __init__(self, zh: str, en: str):
        super().__init__(en)
        self.zh = zh
        self.en = en


@dataclass(frozen=True)
class Exercise:
    """One exercise: its checker and its hints, from a nudge to a near-complete method.

    ``is_correct(answer)`` returns True or False; it may raise ``TypeError``,
    ``ValueError`` (or :class:`WrongAnswer`, with a remark) for an answer of
    the wrong shape, which :func:`check` reports as wrong.

    ``hints_zh`` and ``hints_en`` are tuples of the same length (a single
    string is one hint; ``hint_zh``/``hint_en``, the older spelling, add one).
    ``code`` marks an exercise whose answer is a function.
    """

    is_correct: Callable[[object], bool]
    hints_zh: tuple[str, ...] = ()
    hints_en: tuple[str, ...] = ()
    code: bool = False
    hint_zh: str = ""  # one hint, the older spelling: becomes the only hint
    hint_en: str = ""

    def __post_init__(self):
        for name in ("hints_zh", "hints_en"):
            hints = getattr(self, name)
            single = getattr(self, name.replace("hints", "hint"))
            if isinstance(hints, str):
                hints = (hints,)
            if single:
                hints = (*hints, single)
            object.__setattr__(self, name, tuple(hints))
        if len(self.hints_zh) != len(self.hints_en) or not self.hints_en:
            raise ValueError("an exercise needs the same number (at least one) of zh and en hints")

    def hints(self, lang: str) -> tuple[str, ...]:
        """The hints in ``lang``, in the order they are given."""
        return self.hints_zh if lang == "zh" else self.hints_en


# --------------------------------------------------------------------------- answers in any form


#: Bounds of an answer written in decimals: longer text is no number a reader typed;
#: beyond the exponent no float holds it; past the digits it is rounded. The exact
#: integer of ``1e99999999`` (or of a million digits) took minutes to build.
_MAX_TEXT, _MAX_EXPONENT, _MAX_DIGITS = 1000, 400, 60


def _decimal_fraction(value: Decimal) -> Fraction:
    """``value`` as a Fraction, without building the integers of extreme decimals."""
    if not value.is_finite() or value.adjusted() > _MAX_EXPONENT:
        raise ValueError("a finite number is expected")
    if value.adjusted() < -_MAX_EXPONENT:
        return Fraction(0)  # below the smallest float
    if len(value.as_tuple().digits) > _MAX_DIGITS:
        value = Context(prec=_MAX_DIGITS).plus(value)
    return Fraction(value)


def _exact(answer) -> Fraction | None:
    """An exact value for an answer given as text or as an exact number, else None."""
    if isinstance(answer, str):
        if len(answer) > _MAX_TEXT:
            raise ValueError(f"not a number: {answer[:20]!r}... ({len(answer)} characters)")
        text = unicodedata.normalize("NFKC", answer).strip().replace(" ", "")
        text = text.rstrip("。")
        percent = text.endswith("%")
        if percent:
            text = text[:-1]
        if re.fullmatch(r"[+-]?\d{1,3}(,\d{3})+(\.\d*)?", text):
            text = text.replace(",", "")
        try:
            value = Fraction(text) if "/" in text else _decimal_fraction(Decimal(text))
        except (ValueError, ZeroDivisionError, InvalidOperation) as error:
            raise ValueError(f"not a number: {answer!r}") from error
        return value / 100 if percent else value
    if isinstance(answer, (Fraction, numbers.Integral)):
        return Fraction(answer)
    if isinstance(answer, Decimal):
        return _decimal_fraction(answer)
    return None


def number(answer) -> float:
    """An answer that must be a finite number, as a float (for checkers).

    Accepts ``int``, ``float``, ``Fraction``, ``Decimal``, numpy numbers and
    text such as ``"0.57"``, ``"5/8"``, ``"62.5%"`` or ``"57,756"``. Raises
    ``TypeError`` or ``ValueError`` otherwise (also for ``inf``, ``nan`` and
    numbers too large for a float), which :func:`check` reports as a wrong
    answer.

    Examples
    --------
    >>> number(3), number("5/8"), number("62.5%")
    (3.0, 0.625, 0.625)
    """
    if isinstance(answer, (bool, bytes, bytearray)) or answer is None:
        raise TypeError("a number is expected")  # float(b"0.5") would take bytes for a number
    try:
        exact = _exact(answer)
        value = float(exact) if exact is not None else float(answer)
    except OverflowError as error:
        raise ValueError("a finite number is expected") from error
    if not math.isfinite(value):
        raise ValueError("a finite number is expected")
    return value


def _decimals(answer) -> int | None:
    """How many decimals the answer was given with (None: as exact as a float allows)."""
    if isinstance(answer, str):
        text = unicodedata.normalize("NFKC", answer).strip().rstrip("%").replace(",", "")
        if "/" in text or len(text) > _MAX_TEXT:
            return None
        try:
            exponent = Decimal(text).as_tuple().exponent
        except InvalidOperation:
            return None
        return max(0, -int(exponent)) + (2 if answer.strip().endswith("%") else 0)
    if isinstance(answer, (numbers.Integral, Fraction)):
        return None if isinstance(answer, Fraction) else 0
    if isinstance(answer, Decimal):
        return max(0, -int(answer.as_tuple().exponent))
    try:
        text = repr(float(answer))
    except (TypeError, ValueError, OverflowError):
        return None
    if "e" in text or "inf" in text or "nan" in text:
        return None
    return len(text.partition(".")[2].rstrip("0")) if "." in text else 0


def _is_float(answer) -> bool:
    return not isinstance(answer, (str, bytes, numbers.Integral, Fraction, Decimal)) and \
        isinstance(answer, numbers.Real)


def close_to(answer, expected: float, *, decimals: int = 2, significant: int = 0,
             tolerance: float = 1e-9) -> bool:
    """Whether ``answer`` is ``expected``, exactly or rounded (or cut) to its own decimals.

    An answer with ``d >= decimals`` decimals is right when it is ``expected``
    rounded half-up or cut to ``d`` decimals; with more decimals than a float
    shows, within ``tolerance``. ``decimals`` is the precision the notebook
    prints, so an answer copied from the notebook's own table is accepted.
    ``significant`` asks for at least that many significant digits as well (for
    small values such as p-values, where ``0.00`` says nothing).

    Examples
    --------
    >>> close_to("19.4", 19.4167, decimals=1), close_to(19.42, 19.4167, decimals=1)
    (True, True)
    >>> close_to(19, 19.4167, decimals=1), close_to(0.6, 0.5667)
    (False, False)
    """
    value = number(answer)
    if abs(value - expected) <= tolerance * max(1.0, abs(expected)):
        return True
    given = _decimals(answer)
    if given is not None and given < decimals and _is_float(answer):
        given = decimals  # a float drops trailing zeros: 1.10 arrives as 1.1
    if given is None or given < decimals:
        return False
    if significant and (value == 0 or given + math.floor(math.log10(abs(value))) + 1 < significant):
        return False
    step = Decimal(1).scaleb(-given)
    exact = Decimal(repr(float(expected)))
    candidates = {float(exact.quantize(step, rounding="ROUND_HALF_UP")),
                  float(exact.quantize(step, rounding="ROUND_HALF_EVEN")),
                  float(exact.quantize(step, rounding="ROUND_DOWN"))}
    return any(abs(value - c) <= 1e-12 * max(1.0, abs(c)) for c in candidates)


def whole_number(answer, expected: int) -> bool:
    """Whether ``answer`` is the whole number ``expected`` (``57756``, ``57756.0``, ``"57,756"``).

    Examples
    --------
    >>> whole_number(57756.0, 57756), whole_number("57,756", 57756), whole_number(57756.4, 57756)
    (True, True, False)
    """
    return number(answer) == int(expected)


def _normalized(text: str) -> str:
    text = unicodedata.normalize("NFKC", str(text)).strip().lower()
    return re.sub(r"[\s\"'`“”‘’()（）\[\]【】.,;:!?。，；：！？、_-]+", "", text)


def word(answer, accepted: Iterable[str]) -> bool:
    """Whether a word answer is one of ``accepted`` (case, spaces, quotes, punctuation ignored).

    Examples
    --------
    >>> word(" 'First' ", {"first", "第一条"}), word("第一条。", {"first", "第一条"})
    (True, True)
    """
    if not isinstance(answer, str):
        raise TypeError("a word is expected")
    return _normalized(answer) in {_normalized(a) for a in accepted}


def letters(answer) -> set[str]:
    """The option letters of an answer: ``"B"``, ``" b) "``, ``{"A", "C"}``, ``"A, C"``, ``["a"]``.

    Examples
    --------
    >>> sorted(letters("A, c")), sorted(letters({"b"})), sorted(letters("(B)"))
    (['A', 'C'], ['B'], ['B'])
    """
    if isinstance(answer, str):
        text = unicodedata.normalize("NFKC", answer).upper()
        found = re.findall(r"(?<![A-Z])[A-Z](?![A-Z])", text)
        if not found or re.search(r"[A-Z]{2,}", text):
            raise ValueError("option letters are expected")
        return set(found)
    if isinstance(answer, Iterable):
        return set().union(*(letters(a) for a in answer)) if answer else set()
    raise TypeError("option letters are expected")


# --------------------------------------------------------------------------- check

_ASK = {
    "zh": "还没有作答：把 answer = None 换成你的答案，再运行这个单元格。",
    "en": "Not answered yet: replace answer = None with your answer and run the cell again.",
}
_ASK_CODE = {
    "zh": "还没有作答：写出题目要求的函数，把它赋给 answer（answer = 你的函数名，不加括号），"
          "再运行这个单元格。",
    "en": "Not answered yet: write the function the exercise asks for, assign it to answer "
          "(answer = your_function, no parentheses) and run the cell again.",
}
_PRAISE = {"zh": "正确！", "en": "Correct!"}
_WRONG = {"zh": "还不对。", "en": "Not yet."}
_HINT = {"zh": "提示 {i}/{n}：", "en": "Hint {i}/{n}: "}

_wrong_tries: dict[str, int] = {}


def reset(exercise_id: str | None = None) -> None:
    """Forget the wrong answers given so far (to one exercise, or to all): hints start again."""
    if exercise_id is None:
        _wrong_tries.clear()
    else:
        _wrong_tries.pop(str(exercise_id), None)


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
        The reader's answer, in the form the exercise asks for; ``None`` when
        not answered yet (then the message only asks for an answer).
    lang : {"zh", "en"}, default "zh"
        Language of the message.

    Returns
    -------
    Verdict
        True when correct. When wrong, the message gives the next hint (the
        first wrong answer the first hint, and so on).

    Raises
    ------
    InputError
        No such exercise, or an unknown language.

    Examples
    --------
    >>> reset("11.2")
    >>> check("11.2", None, lang="en")
    … 11.2: Not answered yet: replace answer = None with your answer and run the cell again.
    >>> check("11.2", 1, lang="en").hint
    1
    """
    if lang not in _PRAISE:
        raise InputError(f"lang must be 'zh' or 'en'; got {lang!r}")
    exercise_id = str(exercise_id)
    exercise = _exercise(exercise_id)
    if answer is None:
        asked = _ASK_CODE if exercise.code else _ASK
        return Verdict(exercise_id, False, asked[lang], answered=False)
    remark = ""
    try:
        correct = bool(exercise.is_correct(answer))
    except WrongAnswer as wrong:
        correct, remark = False, (wrong.zh if lang == "zh" else wrong.en)
    except (TypeError, ValueError, KeyError, IndexError, ArithmeticError, AttributeError):
        correct = False
    if correct:
        return Verdict(exercise_id, True, _PRAISE[lang])
    tries = _wrong_tries.get(exercise_id, 0) + 1
    _wrong_tries[exercise_id] = tries
    hints = exercise.hints(lang)
    shown = min(tries, len(hints))
    parts = [_WRONG[lang]]
    if remark:
        parts.append(remark)
    parts.append(_HINT[lang].format(i=shown, n=len(hints)) + hints[shown - 1])
    separator = "" if lang == "zh" else " "
    return Verdict(exercise_id, False, separator.join(parts), hint=shown)


