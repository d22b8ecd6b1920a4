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

The package, one module per idea: :mod:`~reteval.rag.inputs` (the accepted
containers and columns), :mod:`~reteval.rag.statements` (splitting a
reference), :mod:`~reteval.rag.scores` (the two formulas),
:mod:`~reteval.rag.judges` (overlap and LLM judges),
:mod:`~reteval.rag.evaluation` (judging every sample),
:mod:`~reteval.rag.verdicts` (the two measures per question from verdicts
already made, one row per verdict) and
:mod:`~reteval.rag.ragas_adapter` (the ragas package). Tokens come from
:mod:`reteval._util.text`.
"""

from reteval._util.text import tokenize
from reteval.rag.evaluation import ContextJudgement, evaluate_contexts, judge_contexts
from reteval.rag.inputs import METRICS
from reteval.rag.judges import (
    RELEVANCE_PROMPT,
    SUPPORT_PROMPT,
    ContextJudge,
    JudgeError,
    LLMJudge,
    OverlapJudge,
    parse_verdict,
)
from reteval.rag.ragas_adapter import evaluate_with_ragas
from reteval.rag.scores import context_precision_score, context_recall_score
from reteval.rag.statements import split_statements
from reteval.rag.verdicts import context_precision, context_recall

__all__ = [
    "METRICS",
    "RELEVANCE_PROMPT",
    "SUPPORT_PROMPT",
    "ContextJudge",
    "ContextJudgement",
    "JudgeError",
    "LLMJudge",
    "OverlapJudge",
    "context_precision",
    "context_precision_score",
    "context_recall",
    "context_recall_score",
    "evaluate_contexts",
    "evaluate_with_ragas",
    "judge_contexts",
    "parse_verdict",
    "split_statements",
    "tokenize",
]
