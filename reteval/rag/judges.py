"""Judges: who decides whether a context supports a statement or is relevant."""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from reteval._util.text import check_cjk_mode, tokenize
from reteval.errors import InputError, RetevalError
from reteval.rag.inputs import show
from reteval.rag.statements import split_statements

__all__ = [
    "RELEVANCE_PROMPT",
    "SUPPORT_PROMPT",
    "ContextJudge",
    "JudgeError",
    "LLMJudge",
    "OverlapJudge",
    "check_judge",
    "parse_verdict",
]


class JudgeError(RetevalError):
    """A judge gave an answer that cannot be used (not a yes/no verdict)."""




@runtime_checkable
class ContextJudge(Protocol):
    """What reteval asks a judge: two yes/no questions.

    Any object with these two methods is a judge; it need not inherit from
    this class. Both methods return a plain ``bool``.
    """

    def supports(self, context: str, statement: str) -> bool:
        """Does `context` support `statement` (can the statement be attributed to it)?"""
        ...

    def is_relevant(self, question: str, context: str, reference: str) -> bool:
        """Is `context` useful for arriving at `reference`, the answer to `question`?"""
        ...


@dataclass(frozen=True, kw_only=True)
class OverlapJudge:
    """Deterministic judge by token overlap, offline and language-aware.

    A context *supports* a statement when the share of the statement's
    distinct tokens that also occur in the context (its *coverage*, see
    :meth:`coverage`) is at least `threshold`. A context is *relevant* when
    it supports at least one statement of the reference (see
    :func:`split_statements`): a context that states part of the answer is
    useful for arriving at it. The question is not used. Tokens come from
    :func:`tokenize`, so case, full-width forms and punctuation do not
    matter, and Chinese is compared character by character (or by character
    pairs with ``cjk="bigram"``, which also demands the right order).

    It is a surface test: a paraphrase ("AI" for "人工智能") or a negation
    ("not in Europe") fools it, so read its scores as a cheap, reproducible
    proxy for an LLM judge's.

    Parameters
    ----------
    threshold : float, default 0.5
        Minimum coverage, in (0, 1].
    cjk : {"char", "bigram", "bigram+char"}, default "char"
        How Chinese, Japanese and Korean runs are tokenised (see
        :func:`reteval._util.text.tokenize`).
    stopwords : iterable of str, default ()
        Tokens (after normalisation) that count neither in the statement
        nor in the context, e.g. ``{"the", "is", "的"}``.

    Examples
    --------
    >>> judge = OverlapJudge()
    >>> judge.coverage("France is a country in Western Europe.", "France is in Europe.")
    1.0
    >>> judge.supports("Paris sits on the Seine.", "Its capital is Paris.")
    False
    >>> judge.is_relevant("Where is France?", "France is in Western Europe.",
    ...                   "France is in Western Europe. Its capital is Paris.")
    True
    """

    threshold: float = 0.5
    cjk: str = "char"
    stopwords: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        t = self.threshold
        if (
            isinstance(t, bool)
            or not isinstance(t, (int, float, np.integer, np.floating))
            or not 0 < t <= 1
        ):
            raise InputError(f"threshold must be a number in (0, 1]; got {show(t)}")
        check_cjk_mode(self.cjk)
        words = self.stopwords
        if isinstance(words, str) or not isinstance(words, Iterable):
            raise InputError(f"stopwords must be an iterable of strings; got {show(words)}")
        words = frozenset(words)
        bad = [w for w in words if not isinstance(w, str)]
        if bad:
            raise InputError(f"stopwords must be strings; got {show(bad[0])}")
        object.__setattr__(self, "stopwords", words)

    def _token_set(self, text: str, name: str) -> frozenset[str]:
        if not isinstance(text, str):
            raise InputError(f"{name} must be a string; got {show(text)}")
        return frozenset(tokenize(text, cjk=self.cjk)) - self.stopwords

    def coverage(self, context: str, statement: str) -> float:
        """Share of the statement's distinct tokens found in the context.

        Returns 0.0 for a statement without tokens.
        """
        s = self._token_set(statement, "statement")
        c = self._token_set(context, "context")
        return len(s & c) / len(s) if s else 0.0

    def supports(self, context: str, statement: str) -> bool:
        """Whether ``coverage(context, statement) >= threshold``."""
        return self.coverage(context, statement) >= self.threshold

    def is_relevant(self, question: str, context: str, reference: str) -> bool:
        """Whether the context supports at least one statement of the reference."""
        if not isinstance(question, str):
            raise InputError(f"question must be a string; got {show(question)}")
        return any(self.supports(context, s) for s in split_statements(reference))


SUPPORT_PROMPT = (
    "Context:\n{context}\n\n"
    "Statement:\n{statement}\n\n"
    "Can the statement be attributed to the context, that is, does the context "
    "support it? Answer with one word: yes or no."
)
RELEVANCE_PROMPT = (
    "Question:\n{question}\n\n"
    "Context:\n{context}\n\n"
    "Reference answer:\n{reference}\n\n"
    "Was the context useful in arriving at the reference answer to the question? "
    "Answer with one word: yes or no."
)

_YES_NO = re.compile(r"\b(yes|no|true|false)\b")
_JSON_VERDICT = re.compile(r'"?verdict"?\s*:\s*"?([01])\b')
_ZH_NO = ("不是", "不对", "不能", "不", "否")
_ZH_YES = ("是", "对", "能", "可以")


def parse_verdict(answer: str) -> bool:
    """Read a yes/no verdict from a language model's answer.

    In order: a RAGAS-style ``"verdict": 1`` / ``0``; else the first of the
    words yes/no/true/false (any case, markdown and punctuation ignored);
    else a Chinese answer that *starts* with 是/对/能/可以 (yes) or
    不/不是/否 (no).

    Parameters
    ----------
    answer : str
        The model's reply.

    Returns
    -------
    bool

    Raises
    ------
    JudgeError
        If no verdict can be read, or `answer` is not a string.

    Examples
    --------
    >>> parse_verdict("**Yes**, the context states it.")
    True
    >>> parse_verdict("Answer: no")
    False
    >>> parse_verdict('{"reason": "...", "verdict": 1}')
    True
    >>> parse_verdict("不是。上下文没有提到。")
    False
    """
    if not isinstance(answer, str):
        raise JudgeError(f"the judge's answer must be a string; got {show(answer)}")
    text = unicodedata.normalize("NFKC", answer).casefold()
    m = _JSON_VERDICT.search(text)
    if m:
        return m.group(1) == "1"
    m = _YES_NO.search(text)
    if m:
        return m.group(1) in ("yes", "true")
    head = text.lstrip(" \t\r\n*_`'\"“”「」:：-#>")
    for word in _ZH_NO:
        if head.startswith(word):
            return False
    for word in _ZH_YES:
        if head.startswith(word):
            return True
    raise JudgeError(f"cannot read a yes/no verdict from the judge's answer {answer!r}")


def _check_template(template: object, name: str, fields: frozenset[str]) -> str:
    if not isinstance(template, str):
        raise InputError(f"{name} must be a string; got {show(template)}")
    try:
        used = {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
    except ValueError as exc:
        raise InputError(f"{name} is not a valid format string: {exc}; got {template!r}") from None
    if used != fields:
        raise InputError(
            f"{name} must use exactly the fields {sorted(fields)}; got {sorted(used)} "
            f"in {template!r}"
        )
    return template


@dataclass(frozen=True, kw_only=True)
class LLMJudge:
    """Judge that asks a language model through any ``prompt -> answer`` callable.

    The callable receives a filled-in prompt (``str``) and returns the
    model's reply (``str``); :func:`parse_verdict` turns the reply into a
    bool. Wrap your client in a small function; reteval sends nothing on
    its own.

    Parameters
    ----------
    llm : callable
        ``llm(prompt: str) -> str``.
    support_prompt : str, default SUPPORT_PROMPT
        Template with exactly the fields ``{context}`` and ``{statement}``.
    relevance_prompt : str, default RELEVANCE_PROMPT
        Template with exactly ``{question}``, ``{context}`` and ``{reference}``.

    Raises
    ------
    InputError
        If `llm` is not callable or a template has other fields.

    Examples
    --------
    >>> def fake_llm(prompt):
    ...     return "Yes." if "Paris" in prompt else "No."
    >>> judge = LLMJudge(llm=fake_llm)
    >>> judge.supports("Paris is the capital.", "The capital is Paris.")
    True
    >>> judge.is_relevant("Where is Lyon?", "Lyon is in France.", "In France.")
    False
    """

    llm: Callable[[str], str]
    support_prompt: str = SUPPORT_PROMPT
    relevance_prompt: str = RELEVANCE_PROMPT

    def __post_init__(self) -> None:
        if not callable(self.llm):
            raise InputError(f"llm must be a callable prompt -> answer; got {show(self.llm)}")
        _check_template(self.support_prompt, "support_prompt", frozenset({"context", "statement"}))
        _check_template(
            self.relevance_prompt,
            "relevance_prompt",
            frozenset({"question", "context", "reference"}),
        )

    def supports(self, context: str, statement: str) -> bool:
        """Ask the model whether `context` supports `statement`."""
        return parse_verdict(self.llm(self.support_prompt.format(context=context,
                                                                 statement=statement)))

    def is_relevant(self, question: str, context: str, reference: str) -> bool:
        """Ask the model whether `context` is useful for arriving at `reference`."""
        prompt = self.relevance_prompt.format(question=question, context=context,
                                              reference=reference)
        return parse_verdict(self.llm(prompt))


def check_judge(judge: object) -> ContextJudge:
    """Return `judge`, or ``OverlapJudge()`` for None; InputError if it lacks the two methods."""
    if judge is None:
        return OverlapJudge()
    if not isinstance(judge, ContextJudge) or not (
        callable(getattr(judge, "supports", None)) and callable(getattr(judge, "is_relevant", None))
    ):
        raise InputError(
            "judge must have methods supports(context, statement) and "
            f"is_relevant(question, context, reference); got {show(judge)}"
        )
    return judge  # type: ignore[return-value]
