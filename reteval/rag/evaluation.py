"""Judging every sample and turning the verdicts into scores."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from reteval.errors import InputError
from reteval.rag.inputs import METRICS, check_metrics, read_question_ids, read_samples, show
from reteval.rag.judges import ContextJudge, JudgeError, check_judge
from reteval.rag.scores import context_precision_score, context_recall_score
from reteval.rag.statements import split_statements

__all__ = ["ContextJudgement", "evaluate_contexts", "judge_contexts"]


def _ask(method: Callable[..., object], where: str, *args: str) -> bool:
    verdict = method(*args)
    if not isinstance(verdict, (bool, np.bool_)):
        raise JudgeError(f"the judge's {where} must return a bool; got {show(verdict)}")
    return bool(verdict)




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
    names = check_metrics(metrics)
    judge = check_judge(judge)
    samples = read_samples(data)
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
    question_id: str = "question_id",
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
    question_id : str, default "question_id"
        The column of question ids, if `data` has one: the rows are indexed
        by these ids, kept as given (they must be distinct). Without that
        column (allowed only under the default name) the rows are numbered.

    Returns
    -------
    pandas.DataFrame
        One row per sample, in input order, indexed by the question ids
        (index named after the `question_id` column), or without ids by
        ``sample`` (0-based); one float column per metric. ``.mean()``
        averages over the samples and skips NaN (samples whose reference
        has no statements).

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

    With a ``question_id`` column, the scores keep its ids:

    >>> evaluate_contexts({**eval_data, "question_id": ["py-1", "ml-7"]},
    ...                   metrics="context_recall")
                 context_recall
    question_id
    py-1                    1.0
    ml-7                    1.0
    """
    names = check_metrics(metrics)
    ids = read_question_ids(data, question_id, required=question_id != "question_id")
    if ids is not None and len(ids) != len(read_samples(data)):  # before asking the judge
        raise InputError(f"column {question_id!r} has {len(ids)} ids for "
                         f"{len(read_samples(data))} samples; give one id per sample")
    judgements = judge_contexts(data, metrics=names, judge=judge)
    columns = {
        name: np.array([getattr(j, name) for j in judgements], dtype=float) for name in names
    }
    if ids is None:
        return pd.DataFrame(columns, index=pd.RangeIndex(len(judgements), name="sample"))
    return pd.DataFrame(columns, index=pd.Index(ids, name=question_id))
