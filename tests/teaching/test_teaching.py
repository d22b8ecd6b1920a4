"""reteval.teaching: the chapter's code on display, and the exercise checker."""

import ast
import inspect
import textwrap
from pathlib import Path

import pytest
from paths import SHARED

from reteval.errors import InputError
from reteval.teaching import mrr, show_source
from reteval.teaching.chapter_rag import EVAL_DATA, chapter_ragas_example
from reteval.teaching.exercises import check


def test_show_source_gives_the_code_as_written():
    source = show_source(mrr)
    assert repr(source).startswith("def mrr(retrieved_docs, relevant_docs):")
    assert source._repr_markdown_().startswith("```python\ndef mrr(")


def test_an_unknown_exercise_is_a_message_an_unknown_language_an_input_error():
    verdict = check("99.1", 0, lang="en")
    assert not verdict and not verdict.answered
    assert verdict.message == ('There is no exercise "99.1": exercise ids are written as in '
                               'the notebook, such as "07.2".')
    assert check("99.1", 0).message == '没有编号为“99.1”的练习：练习编号按笔记本里写，例如 "07.2"。'
    verdict = check("03.9", 0, lang="en")  # a notebook that exists: its exercises are named
    assert verdict.message == ('There is no exercise "03.9": notebook 03\'s exercises are '
                               '03.1, 03.2 and 03.3.')
    assert "03.1、03.2 和 03.3" in check("03.9", 0).message
    for odd in ("", "x", "7.2", "../01.1", 7.2, None):
        verdict = check(odd, 1, lang="en")
        assert not verdict and "There is no exercise" in verdict.message, odd
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'"):
        check("99.1", 0, lang="fr")
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'"):
        check("01.1", 0, lang="fr")


# --- notebook 03: the chapter's RAGAS code; notebooks 01 and 03: the exercises -----------------

CHAPTER = Path("/work/shared/seed/chapter7-retrieval-evaluation.zh.txt")
if not CHAPTER.exists():
    CHAPTER = SHARED / "seed" / CHAPTER.name


def _body(function):
    """The statements of a function after its docstring, dedented."""
    lines = inspect.getsource(function).splitlines()
    docstring_end = next(i for i, line in enumerate(lines) if line.rstrip().endswith('"""'))
    return textwrap.dedent("\n".join(lines[docstring_end + 1:])).strip()


def test_chapter_ragas_example_keeps_the_chapter_code_and_data():
    body = _body(chapter_ragas_example)
    tree = ast.parse(body)
    (assign,) = [n for n in tree.body
                 if isinstance(n, ast.Assign) and n.targets[0].id == "eval_data"]
    assert ast.literal_eval(assign.value) == EVAL_DATA
    if CHAPTER.exists():
        text = CHAPTER.read_text(encoding="utf-8")
        start = text.index("from ragas import evaluate")
        end = text.index("print(results)", start) + len("print(results)")
        chapter = "\n".join(line.rstrip() for line in text[start:end].splitlines()).strip()
        assert body == chapter


def test_chapter_ragas_example_needs_ragas():
    try:
        import ragas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="ragas"):
            chapter_ragas_example()
    else:
        pytest.skip("ragas is installed; running it would call a language model")


# Each exercise: the worked answer, then plausible wrong answers that the check must reject.
ANSWERS = {
    "01.1": ((1 + 2 / 3 + 3 / 5) / 4,
             [(1 + 2 / 3 + 3 / 5) / 3,  # the chapter's denominator: relevant retrieved
              (1 + 2 / 3 + 3 / 5) / 5,  # divided by the list length
              0.6, 1.0, "0.6", True, 10**400, float("inf")]),
    "01.2": (["d1"],
             [["d1", "d2", "d3", "d4"],  # trec_eval AP is 1.0 too
              ["d9", "d1"],  # the chapter's AP is 0.5
              ["d1", "d2"],  # trec_eval AP 0.5
              ["d1", "d1"], [], "d1", [1]]),
    "03.1": ((0.6, 0.8),
             [(0.6, 0.4),  # P@5 itself, not its upper end
              (0.4, 0.8),  # the relevant share, not the judged share
              (0.8, 0.8), 0.6, (0.6,), "0.6, 0.8"]),
    "03.2": (9 / 14,
             [11 / 14,  # character coverage
              10 / 15,  # pairs counted with their repeat
              9 / 15, 0.5, False, "0.5"]),
}


@pytest.mark.parametrize("exercise", sorted(ANSWERS))
def test_checks_accept_the_answer_and_reject_plausible_mistakes(exercise):
    right, wrong = ANSWERS[exercise]
    for lang in ("zh", "en"):
        verdict = check(exercise, right, lang=lang)
        assert verdict.correct, verdict
    for answer in wrong:
        verdict = check(exercise, answer, lang="en")
        assert not verdict.correct, (exercise, answer)
        assert "Hint " in verdict.message
        assert "提示" in check(exercise, answer, lang="zh").message
    assert not check(exercise, None) and "Hint" not in check(exercise, None, lang="en").message


@pytest.mark.parametrize("notebook", ["01", "03"])
def test_hints_exist_in_both_languages(notebook):
    import importlib

    from reteval.teaching.exercises import hints

    exercises = importlib.import_module(f"reteval.teaching.exercises.nb{notebook}").EXERCISES
    assert len(exercises) >= 3
    for exercise_id in exercises:
        zh, en = hints(exercise_id, "zh"), hints(exercise_id, "en")
        assert len(zh) == len(en) >= 1
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in hint) for hint in zh)
        assert all("Hint" not in hint and hint.strip() for hint in en)
