"""Context recall and context precision for retrieval-augmented generation.

A RAG evaluation sample is a question, the contexts a retriever returned for
it (in rank order) and a reference answer written by a person (the
"ground truth"). Two measures, defined as RAGAS defines them, say how good
the retrieved contexts are:

context recall
    The share of the reference's statements that the retrieved contexts
    support::

        context_recall = |statements supported by the contexts| / |statements|

    The reference is split into statements (sentences, see
    :func:`split_statements`); each statement is judged against all retrieved
    contexts joined by a line break, as RAGAS does.

context precision
    Rank-aware precision of the contexts that are relevant (useful for
    arriving at the reference answer)::

        context_precision@K = sum_k (precision@k * v_k) / (number of relevant contexts in top K)

    where ``K`` is the number of retrieved contexts, ``v_k`` is 1 when the
    context at rank ``k`` is relevant and 0 otherwise, and ``precision@k`` is
    the share of relevant contexts among the first ``k``. It is the mean of
    precision@k over the ranks that hold a relevant context: average precision
    whose denominator counts only the relevant contexts that were retrieved.

Whether a context supports a statement, and whether a context is relevant,
is decided by a *judge* (any object with the two methods of
:class:`ContextJudge`). The default :class:`OverlapJudge` is deterministic and
offline: a statement is supported when enough of its tokens occur in the
context. :class:`LLMJudge` asks any ``prompt -> answer`` callable instead, and
:func:`evaluate_with_ragas` hands the samples to the ``ragas`` package itself.

Edge cases, decided once:

- no relevant context (or no supported statement) gives 0.0;
- a reference without statements (empty, blank or punctuation only) gives
  NaN for both measures, and the judge is not asked; ``DataFrame.mean()``
  skips NaN, so the mean is over the samples that have a reference;
- an empty list of contexts, lists of different lengths and values of the
  wrong type raise :class:`~reteval.errors.InputError` naming the sample.
"""

from __future__ import annotations

import re
import reprlib
import string
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np
import pandas as pd

from reteval.errors import InputError, RetevalError, UnknownMeasureError
from reteval.text import check_cjk_mode, is_cjk, tokenize

__all__ = [
    "METRICS",
    "ContextJudge",
    "ContextJudgement",
    "JudgeError",
    "LLMJudge",
    "OverlapJudge",
    "context_precision_score",
    "context_recall_score",
    "evaluate_contexts",
    "evaluate_with_ragas",
    "judge_contexts",
    "parse_verdict",
    "split_statements",
    "tokenize",
]

#: The measure names this module computes, in their default order.
METRICS: tuple[str, ...] = ("context_recall", "context_precision")

# Accepted column names for each role, the preferred (chapter) name first.
_QUESTION_COLUMNS = ("question", "user_input")
_CONTEXTS_COLUMNS = ("contexts", "retrieved_contexts")
_REFERENCE_COLUMNS = ("ground_truth", "reference", "ground_truths")

_repr = reprlib.Repr()
_repr.maxstring = 60
_repr.maxother = 60
_repr.maxlist = 4


def _show(value: object) -> str:
    """Short type-and-value text for error messages."""
    return f"{type(value).__name__} {_repr.repr(value)}"


class JudgeError(RetevalError):
    """A judge gave an answer that cannot be used (not a yes/no verdict)."""


# --------------------------------------------------------------------------
# Text: tokens and statements
# --------------------------------------------------------------------------

# Sentence ends that need no following space (CJK, plus ASCII ! and ?); a
# full stop "." ends a sentence only before whitespace, the end of the text
# or a CJK character, so that "3.14" stays whole.
_TERMINATORS = frozenset("。！？｡!?")
_CLOSERS = frozenset("\"'”’」』）)]】》〉")


def _full_stop_ends(text: str, i: int) -> bool:
    j = i + 1
    while j < len(text) and text[j] in _CLOSERS:
        j += 1
    return j == len(text) or text[j].isspace() or is_cjk(text[j])


def split_statements(text: str) -> list[str]:
    """Split a reference answer into statements (sentences).

    A statement ends at ``。 ！ ？ ｡ ! ?``, at a full stop ``.`` followed by
    whitespace, the end of the text or a Chinese character, and at a line
    break. Closing quotes and brackets right after the end mark stay with
    the statement. Pieces without any token (see :func:`tokenize`) are
    dropped, so an empty or punctuation-only text has no statements.
    Abbreviations such as "e.g. " are cut like sentence ends: the splitter
    is a rule, not a parser.

    Parameters
    ----------
    text : str
        The reference answer.

    Returns
    -------
    list of str
        The statements, stripped of surrounding whitespace, in text order.

    Raises
    ------
    InputError
        If `text` is not a string.

    Examples
    --------
    >>> split_statements("长城位于中国北方。它全长两万多公里！")
    ['长城位于中国北方。', '它全长两万多公里！']
    >>> split_statements("Pi is about 3.14. It is irrational!")
    ['Pi is about 3.14.', 'It is irrational!']
    >>> split_statements("他说：“你好。”然后走了")
    ['他说：“你好。”', '然后走了']
    >>> split_statements(" 。！")
    []
    """
    if not isinstance(text, str):
        raise InputError(f"text must be a string; got {_show(text)}")
    pieces: list[str] = []
    start = i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "\n\r":
            end = nxt = i + 1
        elif ch in _TERMINATORS or (ch == "." and _full_stop_ends(text, i)):
            j = i + 1
            while j < n and (text[j] in _TERMINATORS or text[j] in _CLOSERS or text[j] == "."):
                j += 1
            end = nxt = j
        else:
            i += 1
            continue
        pieces.append(text[start:end])
        start = i = nxt
    pieces.append(text[start:])
    return [p.strip() for p in pieces if tokenize(p)]


# --------------------------------------------------------------------------
# The formulas
# --------------------------------------------------------------------------


def _verdicts(values: object, name: str) -> np.ndarray:
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(
        values, (Sequence, np.ndarray)
    ):
        raise InputError(f"{name} must be a sequence of booleans; got {_show(values)}")
    out = np.zeros(len(values), dtype=bool)
    for k, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or (
            isinstance(v, (int, np.integer)) and int(v) in (0, 1)
        ):
            out[k] = bool(v)
        else:
            raise InputError(f"{name}[{k}] must be a boolean (or 0/1); got {_show(v)}")
    return out


def context_precision_score(relevant: Sequence[bool]) -> float:
    """Context precision of one ranked list of relevance verdicts.

    ``sum_k precision@k * v_k / sum_k v_k`` over the ranks ``k = 1..K``.

    Parameters
    ----------
    relevant : sequence of bool
        ``relevant[k]`` says whether the context at rank ``k + 1`` is
        relevant (``v_k``); 0 and 1 are accepted too.

    Returns
    -------
    float
        A value in [0, 1]; 0.0 when no context is relevant (including an
        empty sequence).

    Raises
    ------
    InputError
        If `relevant` is not a sequence of booleans.

    Examples
    --------
    Relevant contexts at ranks 3 and 4 of 5: (1/3 + 2/4) / 2.

    >>> round(context_precision_score([0, 0, 1, 1, 0]), 6)
    0.416667
    >>> context_precision_score([False, False])
    0.0
    """
    v = _verdicts(relevant, "relevant")
    n_relevant = int(v.sum())
    if n_relevant == 0:
        return 0.0
    precision_at_k = np.cumsum(v) / np.arange(1, v.size + 1)
    return float(precision_at_k[v].sum() / n_relevant)


def context_recall_score(supported: Sequence[bool]) -> float:
    """Context recall from one verdict per reference statement.

    Parameters
    ----------
    supported : sequence of bool
        ``supported[i]`` says whether the retrieved contexts support the
        reference's statement ``i``; 0 and 1 are accepted too.

    Returns
    -------
    float
        The share of supported statements; NaN when there are no statements
        (recall of nothing is undefined).

    Raises
    ------
    InputError
        If `supported` is not a sequence of booleans.

    Examples
    --------
    >>> context_recall_score([True, False, True, True])
    0.75
    >>> context_recall_score([])
    nan
    """
    v = _verdicts(supported, "supported")
    return float(v.mean()) if v.size else float("nan")


# --------------------------------------------------------------------------
# Judges
# --------------------------------------------------------------------------


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
        :func:`reteval.text.tokenize`).
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
            raise InputError(f"threshold must be a number in (0, 1]; got {_show(t)}")
        check_cjk_mode(self.cjk)
        words = self.stopwords
        if isinstance(words, str) or not isinstance(words, Iterable):
            raise InputError(f"stopwords must be an iterable of strings; got {_show(words)}")
        words = frozenset(words)
        bad = [w for w in words if not isinstance(w, str)]
        if bad:
            raise InputError(f"stopwords must be strings; got {_show(bad[0])}")
        object.__setattr__(self, "stopwords", words)

    def _token_set(self, text: str, name: str) -> frozenset[str]:
        if not isinstance(text, str):
            raise InputError(f"{name} must be a string; got {_show(text)}")
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
            raise InputError(f"question must be a string; got {_show(question)}")
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
        raise JudgeError(f"the judge's answer must be a string; got {_show(answer)}")
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
        raise InputError(f"{name} must be a string; got {_show(template)}")
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
            raise InputError(f"llm must be a callable prompt -> answer; got {_show(self.llm)}")
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


# --------------------------------------------------------------------------
# Input
# --------------------------------------------------------------------------


def _is_sequence(value: object) -> bool:
    return not isinstance(value, (str, bytes, Mapping)) and isinstance(
        value, (Sequence, np.ndarray, pd.Series, pd.Index)
    )


def _columns_getter(data: object) -> Callable[[str], object]:
    """Return ``get(column) -> values or KeyError`` for any accepted container."""
    if isinstance(data, pd.DataFrame):
        return lambda col: data[col].tolist() if col in data.columns else _missing(col)
    if isinstance(data, Mapping):
        return lambda col: data[col] if col in data else _missing(col)
    if isinstance(data, (str, bytes)) or _is_sequence(data):
        raise InputError(
            "data must be a mapping of columns ('question', 'contexts', 'ground_truth'), "
            f"a Dataset-like object or a pandas DataFrame; got {_show(data)} "
            "(for a list of records, pass pandas.DataFrame(records))"
        )
    to_dict = getattr(data, "to_dict", None)
    if callable(to_dict):
        columns = to_dict()
        if not isinstance(columns, Mapping):
            raise InputError(
                f"data.to_dict() must return a mapping of columns; got {_show(columns)}"
            )
        return lambda col: columns[col] if col in columns else _missing(col)
    if hasattr(data, "__getitem__"):

        def get(col: str) -> object:
            try:
                return data[col]  # type: ignore[index]
            except (KeyError, IndexError, ValueError):
                return _missing(col)

        return get
    raise InputError(
        "data must be a mapping of columns, a Dataset-like object (with .to_dict() or "
        f"[column] access) or a pandas DataFrame; got {_show(data)}"
    )


def _missing(col: str):
    raise KeyError(col)


def _column(get: Callable[[str], object], names: tuple[str, ...]) -> tuple[str, list]:
    found = {}
    for name in names:
        try:
            found[name] = get(name)
        except KeyError:
            continue
    if not found:
        raise InputError(f"data has no column {names[0]!r} (also accepted: {list(names[1:])})")
    if len(found) > 1:
        raise InputError(
            f"data has several columns for the same role: {sorted(found)}; keep only one"
        )
    (name, values), = found.items()
    if not _is_sequence(values):
        raise InputError(f"column {name!r} must be a list with one value per sample; "
                         f"got {_show(values)}")
    return name, list(values)


def _read_samples(data: object) -> list[tuple[str, tuple[str, ...], str]]:
    get = _columns_getter(data)
    cols = [_column(get, names) for names in (_QUESTION_COLUMNS, _CONTEXTS_COLUMNS,
                                                 _REFERENCE_COLUMNS)]
    (q_name, questions), (c_name, contexts), (r_name, references) = cols
    lengths = {name: len(values) for name, values in cols}
    if len(set(lengths.values())) > 1:
        raise InputError(
            "the columns must have one value per sample, so equal lengths; got "
            + ", ".join(f"{n!r}: {k}" for n, k in lengths.items())
        )
    if not questions:
        raise InputError("data has no samples")
    samples = []
    for i, (q, ctx, ref) in enumerate(zip(questions, contexts, references)):
        if not isinstance(q, str):
            raise InputError(f"{q_name}[{i}] must be a string; got {_show(q)}")
        if not _is_sequence(ctx):
            raise InputError(f"{c_name}[{i}] must be a list of strings; got {_show(ctx)}")
        ctx = tuple(ctx)
        if not ctx:
            raise InputError(
                f"{c_name}[{i}] is empty; every sample needs at least one retrieved context; "
                f"got {_show(list(ctx))}"
            )
        for j, c in enumerate(ctx):
            if not isinstance(c, str):
                raise InputError(f"{c_name}[{i}][{j}] must be a string; got {_show(c)}")
        if r_name == "ground_truths":
            if not _is_sequence(ref) or not all(isinstance(r, str) for r in ref):
                raise InputError(f"{r_name}[{i}] must be a list of strings; got {_show(ref)}")
            ref = "\n".join(ref)
        elif not isinstance(ref, str):
            raise InputError(f"{r_name}[{i}] must be a string; got {_show(ref)}")
        samples.append((str(q), tuple(str(c) for c in ctx), str(ref)))
    return samples


def _check_metrics(metrics: object) -> tuple[str, ...]:
    if isinstance(metrics, str):
        metrics = (metrics,)
    if not _is_sequence(metrics) and not isinstance(metrics, (set, frozenset)):
        raise InputError(f"metrics must be a sequence of names from {METRICS}; "
                         f"got {_show(metrics)}")
    names = tuple(metrics)
    if not names:
        raise InputError(f"metrics must name at least one of {METRICS}; got {names!r}")
    for name in names:
        if name not in METRICS:
            raise UnknownMeasureError(f"unknown metric {name!r}; expected one of {METRICS}")
    if len(set(names)) != len(names):
        raise InputError(f"metrics must not repeat a name; got {names!r}")
    return names


def _check_judge(judge: object) -> ContextJudge:
    if judge is None:
        return OverlapJudge()
    if not isinstance(judge, ContextJudge) or not (
        callable(getattr(judge, "supports", None)) and callable(getattr(judge, "is_relevant", None))
    ):
        raise InputError(
            "judge must have methods supports(context, statement) and "
            f"is_relevant(question, context, reference); got {_show(judge)}"
        )
    return judge  # type: ignore[return-value]


def _ask(method: Callable[..., object], where: str, *args: str) -> bool:
    verdict = method(*args)
    if not isinstance(verdict, (bool, np.bool_)):
        raise JudgeError(f"the judge's {where} must return a bool; got {_show(verdict)}")
    return bool(verdict)


# --------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class ContextJudgement:
    """The judge's verdicts for one sample, and the scores they give.

    Attributes
    ----------
    question : str
    contexts : tuple of str
        The retrieved contexts, in rank order.
    reference : str
        The reference answer (``ground_truths`` lists joined by line breaks).
    statements : tuple of str
        The reference split by :func:`split_statements`.
    supported : tuple of bool or None
        One verdict per statement (recall); None when recall was not asked for.
    relevant : tuple of bool or None
        One verdict per context (precision); None when precision was not
        asked for or the reference has no statements.
    """

    question: str
    contexts: tuple[str, ...]
    reference: str
    statements: tuple[str, ...]
    supported: tuple[bool, ...] | None
    relevant: tuple[bool, ...] | None

    @property
    def context_recall(self) -> float:
        """Share of supported statements; NaN without statements or verdicts."""
        if self.supported is None:
            return float("nan")
        return context_recall_score(self.supported)

    @property
    def context_precision(self) -> float:
        """Context precision of the relevance verdicts; NaN without verdicts."""
        if self.relevant is None:
            return float("nan")
        return context_precision_score(self.relevant)


def judge_contexts(
    data: object,
    *,
    metrics: Sequence[str] = METRICS,
    judge: ContextJudge | None = None,
) -> list[ContextJudgement]:
    """Ask the judge about every sample and keep its verdicts.

    Same inputs as :func:`evaluate_contexts`, which turns these verdicts
    into scores; use this function to see *why* a sample scored as it did.
    The judge is asked only what the requested metrics need: for recall,
    ``judge.supports(contexts joined by "\\n", statement)`` once per reference
    statement; for precision, ``judge.is_relevant(question, context,
    reference)`` once per retrieved context. A reference without statements
    is not judged.

    Returns
    -------
    list of ContextJudgement
        One per sample, in input order.

    Raises
    ------
    InputError
        On malformed data, unknown metrics or a judge without the two methods.
    JudgeError
        If the judge returns something other than a bool.

    Examples
    --------
    >>> data = {"question": ["长城在哪里？"],
    ...         "contexts": [["故宫是皇家宫殿。", "长城位于中国北方。"]],
    ...         "ground_truth": ["长城位于中国北方。它全长两万多公里。"]}
    >>> (j,) = judge_contexts(data)
    >>> j.statements
    ('长城位于中国北方。', '它全长两万多公里。')
    >>> j.supported, j.relevant
    ((True, False), (False, True))
    """
    names = _check_metrics(metrics)
    judge = _check_judge(judge)
    samples = _read_samples(data)
    out = []
    for i, (question, contexts, reference) in enumerate(samples):
        statements = tuple(split_statements(reference))
        supported = relevant = None
        if "context_recall" in names:
            joined = "\n".join(contexts)
            supported = tuple(
                _ask(judge.supports, f"supports() on sample {i}", joined, s) for s in statements
            )
        if "context_precision" in names and statements:
            relevant = tuple(
                _ask(judge.is_relevant, f"is_relevant() on sample {i}, context {k}",
                     question, c, reference)
                for k, c in enumerate(contexts)
            )
        out.append(ContextJudgement(question, contexts, reference, statements,
                                    supported, relevant))
    return out


def evaluate_contexts(
    data: object,
    *,
    metrics: Sequence[str] = METRICS,
    judge: ContextJudge | None = None,
) -> pd.DataFrame:
    """Context recall and context precision of every sample.

    Parameters
    ----------
    data : mapping, Dataset-like or pandas.DataFrame
        Columns, one value per sample:

        - ``question`` (alias ``user_input``): str;
        - ``contexts`` (alias ``retrieved_contexts``): non-empty list of str,
          the retrieved contexts in rank order;
        - ``ground_truth`` (aliases ``reference``; ``ground_truths``, a list
          of str per sample, joined by line breaks): the reference answer.

        A mapping of column lists (the chapter's dict), a pandas DataFrame,
        an object with ``.to_dict()`` returning such a mapping (a Hugging
        Face ``Dataset``) or one that returns a column for ``data[name]``.
        Two aliases of one column at once are an error. `data` is not
        modified.
    metrics : sequence of str, default ("context_recall", "context_precision")
        Which measures to compute, in column order; a single name is
        accepted.
    judge : ContextJudge, optional
        Decides "supports" and "relevant"; default ``OverlapJudge()``.

    Returns
    -------
    pandas.DataFrame
        One row per sample (index ``sample``, 0-based, the input order), one
        float column per metric. ``.mean()`` averages over the samples and
        skips NaN (samples whose reference has no statements).

    Raises
    ------
    InputError
        If a column is missing or ambiguous, the columns differ in length,
        there are no samples, a sample has no contexts or a value has the
        wrong type (the message names the column, the sample index and the
        value); or on unknown metrics or an invalid judge.
    JudgeError
        If the judge returns something other than a bool, or (for
        :class:`LLMJudge`) an answer without a yes/no verdict.

    See Also
    --------
    judge_contexts : the verdicts behind the scores.
    evaluate_with_ragas : the same measures computed by the ragas package.

    Examples
    --------
    The chapter's example. The default judge finds every reference sentence
    in the first context and nothing of it in the second, so both measures
    are 1.0:

    >>> eval_data = {
    ...     "question": ["Python是什么？", "机器学习是什么？"],
    ...     "contexts": [["Python是一种编程语言", "Python广泛用于数据科学"],
    ...                  ["机器学习是AI的分支", "深度学习使用神经网络"]],
    ...     "ground_truth": ["Python是一种编程语言", "机器学习是人工智能的分支"],
    ... }
    >>> scores = evaluate_contexts(eval_data)
    >>> scores
            context_recall  context_precision
    sample
    0                  1.0                1.0
    1                  1.0                1.0
    >>> scores.mean().to_dict()
    {'context_recall': 1.0, 'context_precision': 1.0}
    """
    names = _check_metrics(metrics)
    judgements = judge_contexts(data, metrics=names, judge=judge)
    columns = {
        name: np.array([getattr(j, name) for j in judgements], dtype=float) for name in names
    }
    return pd.DataFrame(columns, index=pd.RangeIndex(len(judgements), name="sample"))


def evaluate_with_ragas(
    data: object,
    *,
    metrics: Sequence[str] = METRICS,
    llm: object = None,
    embeddings: object = None,
    **options: object,
) -> pd.DataFrame:
    """Compute the measures with the ``ragas`` package (optional, needs an LLM).

    The samples are read and checked exactly as by :func:`evaluate_contexts`,
    then passed to ``ragas.evaluate`` as an ``EvaluationDataset`` with the
    columns ``user_input``, ``retrieved_contexts`` and ``reference``, scored
    by ``ragas.metrics.context_recall`` / ``context_precision``. ragas calls
    its language model (by default one it configures from environment
    variables, e.g. an API key); its own errors pass through unchanged.
    Install with ``pip install 'reteval[ragas]'`` (ragas 0.2 or newer).

    Parameters
    ----------
    data : mapping, Dataset-like or pandas.DataFrame
        As for :func:`evaluate_contexts`.
    metrics : sequence of str, default ("context_recall", "context_precision")
    llm, embeddings : optional
        Passed to ``ragas.evaluate`` when given (ragas's LLM and embeddings
        wrappers).
    **options
        Further keyword arguments for ``ragas.evaluate``.

    Returns
    -------
    pandas.DataFrame
        Same shape as :func:`evaluate_contexts`: index ``sample``, one float
        column per metric.

    Raises
    ------
    RetevalError
        If ragas is not installed, or its result lacks a requested metric.
    InputError
        On malformed data or unknown metrics.
    """
    names = _check_metrics(metrics)
    samples = _read_samples(data)
    try:
        import ragas
        import ragas.metrics as ragas_metrics
        from ragas.dataset_schema import EvaluationDataset
    except ImportError as exc:
        raise RetevalError(
            "evaluate_with_ragas needs the optional package 'ragas' (0.2 or newer), "
            "which is not installed; install it with pip install 'reteval[ragas]', "
            "or use evaluate_contexts, which works offline"
        ) from exc
    dataset = EvaluationDataset.from_list(
        [
            {"user_input": q, "retrieved_contexts": list(ctx), "reference": ref}
            for q, ctx, ref in samples
        ]
    )
    kwargs = dict(options)
    if llm is not None:
        kwargs["llm"] = llm
    if embeddings is not None:
        kwargs["embeddings"] = embeddings
    result = ragas.evaluate(dataset, metrics=[getattr(ragas_metrics, n) for n in names], **kwargs)
    table = result.to_pandas()
    missing = [n for n in names if n not in table.columns]
    if missing or len(table) != len(samples):
        raise RetevalError(
            f"ragas returned columns {list(table.columns)} for {len(table)} samples; "
            f"expected {list(names)} for {len(samples)} samples"
        )
    out = pd.DataFrame(
        {n: np.asarray(table[n], dtype=float) for n in names},
        index=pd.RangeIndex(len(samples), name="sample"),
    )
    return out
