"""The words of the teaching notebooks, one module per notebook (``nbNN``), in both languages.

Each module holds ``TEXTS``, the notebook's words, and ``EXERCISE_TEXTS``, the words
of its exercises (their hints, the remarks on a wrong answer, the hidden cases'
descriptions): ``{key: (zh, en)}``, an entry a string (a :meth:`str.format`
template when it has fields) or a tuple of strings (a table header, the hints)
in each language. They are the catalogue entries ``teaching.notebook.NN.<key>``
and ``teaching.exercise.NN.<key>`` (:mod:`reteval._util.catalogue`), so they
obey the catalogue's rules (both languages, the same fields, Chinese in the
Chinese entry). A notebook reads its own with
:func:`reteval.teaching.notebook_texts`, so its setup cell holds code, not
tables of sentences; :func:`reteval.teaching.exercises.check` reads the
exercises'.
"""

import importlib
import pkgutil

from reteval._util.catalogue import section

# What an exercise's check says besides its own words (reteval.teaching.exercises.check).
_CHECK = section(
    "exercise",
    ask=("还没有作答：把 answer = None 换成你的答案，再运行这个单元格。",
         "Not answered yet: replace answer = None with your answer and run the cell again."),
    ask_code=(("还没有作答：写出题目要求的函数，把它赋给 answer（answer = 你的函数名，不加括号），"
               "再运行这个单元格。"),
              ("Not answered yet: write the function the exercise asks for, assign it to answer "
               "(answer = your_function, no parentheses) and run the cell again.")),
    right=("正确！", "Correct!"),
    wrong=("还不对。", "Not yet."),
    hint=("提示 {i}/{n}：", "Hint {i}/{n}: "),
)


def _entries() -> dict:
    entries = dict(_CHECK)
    for module in pkgutil.iter_modules(__path__):
        number = module.name.removeprefix("nb")
        words = importlib.import_module(f"{__name__}.{module.name}")
        entries.update({f"notebook.{number}.{key}": pair for key, pair in words.TEXTS.items()})
        entries.update({f"exercise.{number}.{key}": pair
                        for key, pair in getattr(words, "EXERCISE_TEXTS", {}).items()})
    return entries


TEXTS = _entries()
