"""Exercises that check themselves: ``check("01.2", answer)`` says right or wrong, with hints.

Every notebook ends with exercises numbered ``"NN.i"`` (``NN`` the notebook's
number, such as ``07`` or ``07b``). The exercises of notebook ``NN`` live in the module
``reteval.teaching.exercises.nbNN`` as a dict ``EXERCISES`` from the id to an
:class:`Exercise`; their words (hints, remarks on a wrong answer, the hidden
cases' descriptions) are the catalogue entries ``teaching.exercise.NN.i.<key>``,
in ``reteval/teaching/_texts/nbNN.py`` beside the notebook's own words. Worked
solutions are in ``notebooks/solutions/``, and the tests run them, so every
check is shown to accept its own solution.

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
  number also as ``12345.0``; a word in Chinese or English. An answer that is
  not a number where one is expected (``inf``, ``10**400``) is simply wrong.
* An answer of the wrong kind (text where a list is expected, a value where a
  function is expected, a list where a number is expected) is told so, in
  words, beside the hint; so is an exercise id that does not exist.
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

from reteval._util.catalogue import TEXTS, check_lang, join_names, phrase
from reteval._util.languages import language

__all__ = [
    "Exercise",
    "Verdict",
    "WrongAnswer",
    "WrongType",
    "check",
    "close_to",
    "hints",
    "letters",
    "number",
    "reset",
    "returned_number",
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

    ``remark`` names the exercise's catalogue entry that says what is wrong
    (``teaching.exercise.NN.i.<remark>``; for a code exercise: which kind of
    hidden case failed), without saying what the right answer is; ``fields``
    fill it in. A field whose value has an entry of its own
    (``teaching.exercise.NN.i.<field>.<value>``, e.g. a hidden case's
    description) is said in words.
    """

    def __init__(self, remark: str, /, **fields):
        super().__init__(remark)
        self.remark = remark
        self.fields = fields


class WrongType(TypeError):
    """Raised by a checker for an answer of the wrong kind (a list where a number is expected).

    ``expected`` names the kind the exercise asks for, an entry
    ``teaching.exercise.expected.<expected>`` (``"number"``, ``"function"``,
    ``"list"``, ...); ``given`` is the value at fault, whose type the message
    names. :func:`check` says both beside the hint.

    ``returned`` says the value is what the reader's function returned (a code
    exercise), not the answer itself.
    """

    def __init__(self, expected: str, given: object, /, *, returned: bool = False):
        super().__init__(f"{expected} is expected, got {type(given).__name__}")
        self.expected = expected
        self.given = given
        self.returned = returned


@dataclass(frozen=True)
class Exercise:
    """One exercise: its checker, and whether the answer is code.

    ``is_correct(answer)`` returns True or False; it may raise ``TypeError``,
    ``ValueError`` (or :class:`WrongAnswer`, with a remark) for an answer of
    the wrong shape, which :func:`check` reports as wrong. ``code`` marks an
    exercise whose answer is a function. Its hints are words: :func:`hints`.
    """

    is_correct: Callable[[object], bool]
    code: bool = False


def hints(exercise_id: str, lang: str) -> tuple[str, ...]:
    """The hints of an exercise in ``lang``, from a nudge to a near-complete method.

    Examples
    --------
    >>> len(hints("11.2", "en")), hints("11.2", "en")[0][:32]
    (3, 'The answer is a whole number: us')
    """
    return phrase(f"teaching.exercise.{exercise_id}.hints", lang)


def _remark(exercise_id: str, wrong: WrongAnswer, lang: str) -> str:
    """What a :class:`WrongAnswer` says, in ``lang``."""
    entry = f"teaching.exercise.{exercise_id}"
    fields = {name: phrase(f"{entry}.{name}.{value}", lang)
              if f"{entry}.{name}.{value}" in TEXTS else value
              for name, value in wrong.fields.items()}
    return phrase(f"{entry}.{wrong.remark}", lang, **fields)


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
    text such as ``"0.57"``, ``"5/8"``, ``"62.5%"`` or ``"12,345"``. Raises
    ``TypeError`` or ``ValueError`` otherwise (also for ``inf``, ``nan`` and
    numbers too large for a float), which :func:`check` reports as a wrong
    answer.

    Examples
    --------
    >>> number(3), number("5/8"), number("62.5%")
    (3.0, 0.625, 0.625)
    """
    if isinstance(answer, (bool, bytes, bytearray)) or answer is None:
        raise WrongType("number", answer)  # float(b"0.5") would take bytes for a number
    try:
        exact = _exact(answer)
        value = float(exact) if exact is not None else float(answer)
    except OverflowError as error:
        raise ValueError("a finite number is expected") from error
    except TypeError as error:  # a list, a function, a dict: not a number at all
        raise WrongType("number", answer) from error
    if not math.isfinite(value):
        raise ValueError("a finite number is expected")
    return value


def returned_number(value) -> float:
    """What a reader's function returned, as a number: :func:`number`, said of the return value.

    Examples
    --------
    >>> returned_number(0.25)
    0.25
    >>> returned_number([0.25]).expected
    Traceback (most recent call last):
    ...
    reteval.teaching.exercises.WrongType: number is expected, got list
    """
    try:
        return number(value)
    except WrongType as wrong:
        raise WrongType("number", value, returned=True) from wrong


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
    """Whether ``answer`` is the whole number ``expected`` (``12345``, ``12345.0``, ``"12,345"``).

    Examples
    --------
    >>> whole_number(12345.0, 12345), whole_number("12,345", 12345), whole_number(12345.4, 12345)
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
        raise WrongType("word", answer)
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
    raise WrongType("letters", answer)


# --------------------------------------------------------------------------- check

_wrong_tries: dict[str, int] = {}


def reset(exercise_id: str | None = None) -> None:
    """Forget the wrong answers given so far (to one exercise, or to all): hints start again."""
    if exercise_id is None:
        _wrong_tries.clear()
    else:
        _wrong_tries.pop(str(exercise_id), None)


def _exercises_of(exercise_id: str) -> dict[str, Exercise]:
    """The exercises of the notebook an id names (none when it names no notebook)."""
    notebook, _, _ = exercise_id.partition(".")
    if not re.fullmatch(r"\d\d[a-z]?", notebook):
        return {}
    try:
        module = importlib.import_module(f"{__name__}.nb{notebook}")
    except ModuleNotFoundError:
        return {}
    return getattr(module, "EXERCISES", {})


def _type_remark(wrong: WrongType, lang: str) -> str:
    """What an answer of the wrong kind is told, in ``lang``."""
    said = "wrong_return" if wrong.returned else "wrong_type"
    return phrase(f"teaching.exercise.{said}", lang,
                  expected=phrase(f"teaching.exercise.expected.{wrong.expected}", lang),
                  given=type(wrong.given).__name__)


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
        An unknown language. An unknown exercise id is a message, like a
        wrong answer's (the verdict is not correct and not answered).

    Examples
    --------
    >>> reset("11.2")
    >>> check("11.2", None, lang="en")
    … 11.2: Not answered yet: replace answer = None with your answer and run the cell again.
    >>> check("11.2", 1, lang="en").hint
    1
    >>> check("11.9", 1, lang="en")
    … 11.9: There is no exercise "11.9": notebook 11's exercises are 11.1, 11.2 and 11.3.
    """
    check_lang(lang)
    exercise_id = str(exercise_id).strip()
    exercises = _exercises_of(exercise_id)
    if exercise_id not in exercises:
        if exercises:
            unknown = phrase("teaching.exercise.unknown_in", lang, id=exercise_id,
                             notebook=exercise_id.partition(".")[0],
                             ids=join_names(sorted(exercises), lang))
        else:
            unknown = phrase("teaching.exercise.unknown", lang, id=exercise_id)
        return Verdict(exercise_id, False, unknown, answered=False)
    exercise = exercises[exercise_id]
    if answer is None:
        asked = "ask_code" if exercise.code else "ask"
        return Verdict(exercise_id, False, phrase(f"teaching.exercise.{asked}", lang),
                       answered=False)
    remark = ""
    try:
        correct = bool(exercise.is_correct(answer))
    except WrongAnswer as wrong:
        correct, remark = False, _remark(exercise_id, wrong, lang)
    except WrongType as wrong:
        correct, remark = False, _type_remark(wrong, lang)
    except (TypeError, ValueError, KeyError, IndexError, ArithmeticError, AttributeError):
        correct = False
    if correct:
        return Verdict(exercise_id, True, phrase("teaching.exercise.right", lang))
    tries = _wrong_tries.get(exercise_id, 0) + 1
    _wrong_tries[exercise_id] = tries
    given = hints(exercise_id, lang)
    shown = min(tries, len(given))
    parts = [phrase("teaching.exercise.wrong", lang)]
    if remark:
        parts.append(remark)
    parts.append(phrase("teaching.exercise.hint", lang, i=shown, n=len(given))
                 + given[shown - 1])
    return Verdict(exercise_id, False, language(lang).sentence_separator.join(parts),
                   hint=shown)


