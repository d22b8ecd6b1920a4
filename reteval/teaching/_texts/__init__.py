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
    unknown=("没有编号为“{id}”的练习：练习编号按笔记本里写，例如 \"07.2\"。",
             ("There is no exercise \"{id}\": exercise ids are written as in the notebook, "
              "such as \"07.2\".")),
    unknown_in=("没有编号为“{id}”的练习：笔记本 {notebook} 的练习是 {ids}。",
                "There is no exercise \"{id}\": notebook {notebook}'s exercises are {ids}."),
    wrong_type=("这道题要的是{expected}，你给的是 {given} 类型的值。",
                "This exercise expects {expected}; your answer is of type {given}."),
    wrong_return=("你的函数应当返回{expected}，它返回的是 {given} 类型的值。",
                  "Your function should return {expected}; it returned a value of type {given}."),
)

# What an answer of the wrong kind is told the exercise expects (WrongType's ``expected``).
_EXPECTED = section(
    "exercise.expected",
    number=("一个数", "a number"),
    function=("一个函数（answer = 函数名，不加括号）",
              "a function (answer = your_function, no parentheses)"),
    word=("一个词（字符串）", "a word (a string)"),
    letters=("选项字母，例如 \"B\"", "option letters, such as \"B\""),
    doc_ids=("一个文档编号 的列表，例如 [\"d5\", \"d6\"]",
             "a list of doc ids, such as [\"d5\", \"d6\"]"),
    pair=("一对数，例如 (0.1, 0.2)", "a pair of numbers, such as (0.1, 0.2)"),
    **{"numbers.2": ("两个数，例如 (1, 0.5)", "two numbers, such as (1, 0.5)"),
       "numbers.3": ("三个数，例如 (0.1, 0.2, 0.3)", "three numbers, such as (0.1, 0.2, 0.3)")},
    measure=("一个指标名（字符串）", "a measure name (a string)"),
    dict=("一个字典", "a dict"),
    names=("一个字典，每个指标对应一组名字", "a dict from each measure to a collection of names"),
    columns=("列名的集合，例如 {\"recall@5\"}",
             "a collection of column names, such as {\"recall@5\"}"),
)

# What a notebook run on another dataset than the teaching collection is told
# (reteval.teaching.describe_dataset).
_DATASET = section(
    "dataset",
    other=(("注意：本笔记本的正文是为教学数据集写的，引用的是教学数据集的数字；"
            "下面的输出都来自数据集 {name}（{queries} 条查询，{documents} 个文档），"
            "所以会与正文的数字不同。"),
           ("Note: the text of this notebook was written for the teaching collection and quotes "
            "its numbers; the outputs below are those of the dataset {name} ({queries} queries, "
            "{documents} documents), so they differ from the numbers in the text.")),
)


def _entries() -> dict:
    entries = {**_CHECK, **_EXPECTED, **_DATASET}
    for module in pkgutil.iter_modules(__path__):
        number = module.name.removeprefix("nb")
        words = importlib.import_module(f"{__name__}.{module.name}")
        entries.update({f"notebook.{number}.{key}": pair for key, pair in words.TEXTS.items()})
        entries.update({f"exercise.{number}.{key}": pair
                        for key, pair in getattr(words, "EXERCISE_TEXTS", {}).items()})
    return entries


TEXTS = _entries()
