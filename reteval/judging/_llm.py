"""A language model as a relevance judge: UMBRELA's prompt around any ``complete(prompt)``.

:func:`llm_judge` turns a function that completes a prompt (an OpenAI-compatible client
wrapped in a line, a local model) into a judge that :func:`reteval.judging.judge` can
ask. The default prompt is UMBRELA's (Upadhyay et al. 2024), the open reproduction of
the Bing relevance assessor: a 0-3 scale, the answer ending in ``##final score: N``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from reteval._util.catalogue import check_lang
from reteval.errors import InputError
from reteval.judging._judges import JudgeError, is_judge_name, judge_name

__all__ = ["UMBRELA_PROMPT", "UMBRELA_PROMPT_ZH", "PromptJudge", "llm_judge", "parse_final_score"]

#: UMBRELA's zero-shot prompt (Upadhyay et al. 2024), the text of its reference
#: implementation with trailing spaces removed. ``{query}`` and ``{passage}`` are replaced by
#: the texts.
UMBRELA_PROMPT = """\
Given a query and a passage, you must provide a score on an integer scale of 0 to 3 with \
the following meanings:
0 = represent that the passage has nothing to do with the query,
1 = represents that the passage seems related to the query but does not answer it,
2 = represents that the passage has some answer for the query, but the answer may be a bit \
unclear, or hidden amongst extraneous information and
3 = represents that the passage is dedicated to the query and contains the exact answer.

Important Instruction: Assign category 1 if the passage is somewhat related to the topic \
but not completely, category 2 if passage presents something very important related to the \
entire topic but also has some extra information and category 3 if the passage only and \
entirely refers to the topic. If none of the above satisfies give it category 0.

Query: {query}
Passage: {passage}

Split this problem into steps:
Consider the underlying intent of the search.
Measure how well the content matches a likely intent of the query (M).
Measure how trustworthy the passage is (T).
Consider the aspects above and the relative importance of each, and decide on a final score \
(O). Final score must be an integer value only.
Do not provide any code in result. Provide each score in the format of: ##final score: \
score without providing any reasoning."""

#: The same prompt in Chinese, for Chinese queries and passages; the answer keeps the
#: ``##final score: N`` form, so one parser reads both.
UMBRELA_PROMPT_ZH = """\
给定一个查询和一段文本，你必须在 0 到 3 的整数尺度上给出评分，各分值的含义如下：
0 = 文本与查询毫无关系，
1 = 文本看起来与查询相关，但没有回答查询，
2 = 文本对查询有一定的回答，但答案可能不够清楚，或夹杂在无关的信息之中，
3 = 文本专门针对该查询，并且包含确切的答案。

重要说明：如果文本与主题有些相关但不完全相关，给类别 1；如果文本给出了与整个主题相关的非常重要的\
内容，但也含有额外的信息，给类别 2；如果文本只涉及并且完全涉及该主题，给类别 3。以上都不符合时，\
给类别 0。

查询：{query}
文本：{passage}

把这个问题分成几步：
考虑搜索背后的意图。
衡量内容与查询的一个可能意图的匹配程度（M）。
衡量文本的可信程度（T）。
综合以上各方面及其相对重要性，决定最终得分（O）。最终得分必须只是一个整数。
结果中不要给出任何代码。按如下格式给出得分：##final score: 得分，不要给出任何理由。"""

_PROMPTS = {"en": UMBRELA_PROMPT, "zh": UMBRELA_PROMPT_ZH}
#: ``##final score: N``: N a number, perhaps after Markdown emphasis or a quote; what follows
#: a grade does not matter (``2分``, ``2</s>``, ``2.``) unless it continues the number
#: (``2.5``, ``3/3``, ``2,5``, ``1_0``: group 2), which makes it no whole grade.
_FINAL_SCORE = re.compile(
    r"##\s*final\s*score\s*[:：]\s*[*_`'\"「『(（]*([+-]?\d+(?:\.\d+)?)([./,_]\d)?",
    re.IGNORECASE)


def parse_final_score(answer: str) -> int:
    """The grade of an answer: the number of its last ``##final score: N``.

    Parameters
    ----------
    answer : str
        The model's answer. Case, spaces around the colon and a full-width colon do not
        matter, nor Markdown emphasis or a quote before the grade, nor what follows it
        (``2分``, ``2.``, ``2</s>``); whether the grade is on the judge's scale is
        :func:`judge`'s check.

    Returns
    -------
    int

    Raises
    ------
    JudgeError
        If the answer holds no ``##final score: N`` (never read as 0), or N is not a whole
        number (``2.5`` is not read as 2, nor ``3/3`` as 3).

    Examples
    --------
    >>> parse_final_score("M: 2, T: 1\\n##final score: 2")
    2
    >>> parse_final_score("**##final score: 3.0**.")
    3
    >>> parse_final_score("The passage is relevant.")
    Traceback (most recent call last):
    ...
    reteval.judging._judges.JudgeError: the answer has no '##final score: N': \
'The passage is relevant.'
    >>> parse_final_score("##final score: 2.5")
    Traceback (most recent call last):
    ...
    reteval.judging._judges.JudgeError: the final score '2.5' is not a whole number
    """
    if not isinstance(answer, str):
        raise JudgeError(f"complete() must return a str; got {type(answer).__name__}")
    found = list(_FINAL_SCORE.finditer(answer))
    if not found:
        shown = answer.strip()
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise JudgeError(f"the answer has no '##final score: N': {shown!r}")
    number, more = found[-1].groups()
    value = float(number)
    if more or not value.is_integer():
        raise JudgeError(f"the final score {number + (more or '')!r} is not a whole number")
    return int(value)


@dataclass(frozen=True)
class PromptJudge:
    """A judge that fills a prompt, asks ``complete`` and reads ``##final score: N``.

    Made by :func:`llm_judge`. Called as ``judge(query_text, doc_text)``, it returns the
    grade, or raises :class:`JudgeError` when the answer holds none; :func:`judge` counts
    that as a failed answer.

    Attributes
    ----------
    complete : callable
        ``complete(prompt) -> answer``.
    prompt : str
        The template, with ``{query}`` and ``{passage}``.
    name : str
        The judge's name, recorded with its judgments and part of the cache key.
    named : bool
        Whether ``name`` was given (to :func:`llm_judge`, or as `complete`'s ``name``
        attribute) rather than taken from `complete`'s function name, which any other
        function may share: :func:`judge` keeps a cache only for a named judge.
    """

    complete: Callable[[str], str] = field(repr=False)
    prompt: str = field(repr=False)
    name: str
    named: bool = field(default=True, repr=False)

    def fill(self, query_text: str, doc_text: str) -> str:
        """The prompt sent for one pair.

        Examples
        --------
        >>> PromptJudge(print, "Q={query} P={passage}", "demo").fill("cats", "a cat")
        'Q=cats P=a cat'
        """
        # replace, not str.format: a prompt may hold other braces (JSON examples)
        return self.prompt.replace("{query}", query_text).replace("{passage}", doc_text)

    def __call__(self, query_text: str, doc_text: str) -> int:
        return parse_final_score(self.complete(self.fill(query_text, doc_text)))


def llm_judge(complete: Callable[[str], str], *, prompt: str | None = None,
              name: str | None = None, lang: str = "en") -> PromptJudge:
    """Wrap ``complete(prompt) -> answer`` into a graded judge for :func:`judge`.

    Parameters
    ----------
    complete : callable
        Any function from a prompt to the model's answer, e.g.
        ``lambda p: client.chat.completions.create(model="gpt-4o", messages=[{"role":
        "user", "content": p}]).choices[0].message.content``.
    prompt : str, optional
        A template holding ``{query}`` and ``{passage}`` (other braces are left alone);
        the answer must end in ``##final score: N``. Default: :data:`UMBRELA_PROMPT`, or
        :data:`UMBRELA_PROMPT_ZH` when ``lang="zh"``.
    name : str, optional
        The judge's name, recorded in the ``judge`` column and part of the cache key of
        ``judge(..., cache=)``: name it after the model and prompt (``"gpt-4o-umbrela"``)
        so that another model's answers are never taken from the cache. Default: the
        ``name`` attribute of `complete`, or its function name (a judge named so is not
        given a cache: another model's function may have the same name).
    lang : {"en", "zh"}, default "en"
        The language of the default prompt.

    Returns
    -------
    PromptJudge

    Raises
    ------
    InputError
        If `complete` is not callable or `prompt` lacks ``{query}`` or ``{passage}``.

    References
    ----------
    S. Upadhyay, R. Pradeep, N. Thakur, N. Craswell, J. Lin. "UMBRELA: UMbrela is the
    (Open-Source Reproduction of the) Bing RELevance Assessor". arXiv:2406.06519, 2024.

    Examples
    --------
    A stand-in for a model, which sees the prompt and answers in UMBRELA's form:

    >>> from reteval.judging import judge
    >>> def fake_model(prompt):
    ...     return "##final score: 3" if "Passage: cats purr" in prompt else "##final score: 0"
    >>> umbrela = llm_judge(fake_model, name="fake-umbrela")
    >>> result = judge({"q1": ["d1", "d2"]}, umbrela, queries={"q1": "do cats purr"},
    ...                docs={"d1": "cats purr", "d2": "dogs bark"})
    >>> result.qrels[["query_id", "doc_id", "relevance", "judge"]]
      query_id doc_id  relevance         judge
    0       q1     d1          3  fake-umbrela
    1       q1     d2          0  fake-umbrela
    """
    if not callable(complete):
        raise InputError(f"complete must be a callable prompt -> answer; "
                         f"got {type(complete).__name__}")
    lang = check_lang(lang)
    template = _PROMPTS[lang] if prompt is None else prompt
    if not isinstance(template, str):
        raise InputError(f"prompt must be a str; got {type(template).__name__}")
    missing = [p for p in ("{query}", "{passage}") if p not in template]
    if missing:
        raise InputError(f"prompt must hold {{query}} and {{passage}}; missing {missing}")
    if name is not None and not is_judge_name(name):
        raise InputError(f"name must be a non-empty string; got {name!r}")
    named = name is not None or is_judge_name(getattr(complete, "name", None))
    return PromptJudge(complete, template, judge_name(complete, name), named)
