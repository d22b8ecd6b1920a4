"""The chapter's own code, kept unchanged for teaching, and self-checking exercises.

Each module holds one section of the chapter's code as the chapter wrote it
(flaws included, each one named in the module's docstring), so that a notebook
can show its source, run it on the same input as reteval, and explain where
and why the two differ:

* :mod:`reteval.teaching.chapter_metrics`: the metric functions and the
  ``EvaluationQuery`` record (评估指标, notebook 01; 评估数据集, notebook 03).
* :mod:`reteval.teaching.chapter_rag`: the RAGAS code (使用 RAGAS 评估; notebook 03).
* :mod:`reteval.teaching.chapter_evaluator`: ``RetrievalEvaluator`` and the comparison
  of retrievers (检索器对比评估; notebook 05).
* :mod:`reteval.teaching.chapter_ab`: ``ABTestFramework`` (A/B 测试; notebook 07).
* :mod:`reteval.teaching.online`: the judged data and two rankers whose users notebooks
  07 (A/B tests) and 08 (interleaving) simulate.
* :mod:`reteval.teaching.chapter_report`: ``generate_evaluation_report`` (评估报告;
  notebook 10).
* :mod:`reteval.teaching.chapter_continuous`: ``ContinuousEvaluation`` with an
  injectable clock and sleep (持续评估; notebook 09).
* :mod:`reteval.teaching.depth`: ``pad_run`` and ``shared_prefix``, to show how
  retrieval depth shapes a comparison (notebook 05).
* :mod:`reteval.teaching.cheats`: the leaderboard tricks of notebook 02 (stopping
  early, repeats, random padding, renaming to win ties) and the chapter's five
  measures on lists taken as given.
* :mod:`reteval.teaching.exercises`: ``check(exercise_id, answer)`` for the
  exercises at the end of every notebook.
* :func:`show_source`: the source of a chapter function, for display.

What a notebook's setup cell needs besides: :func:`notebook_texts` (the
notebook's words in its edition's language, from ``reteval/teaching/_texts/``),
:func:`use_cjk_font` (figures that draw Chinese), :func:`error_message` (a
reteval error said in the edition's language), :func:`join_names` (a list of
names in running text of either language) and :func:`describe_dataset` (the
loaded collection, with a note when it is not the teaching collection the prose
quotes).
"""

from reteval._util.catalogue import error_message, join_names
from reteval._util.fonts import use_cjk_font
from reteval.teaching.chapter_metrics import (
    EvaluationQuery,
    average_precision,
    dcg_at_k,
    mean_average_precision,
    mrr,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
)
from reteval.teaching.datasets import describe_dataset
from reteval.teaching.source import show_source
from reteval.teaching.texts import notebook_texts

__all__ = [
    "EvaluationQuery",
    "average_precision",
    "dcg_at_k",
    "describe_dataset",
    "error_message",
    "join_names",
    "mean_average_precision",
    "mrr",
    "ndcg_at_k",
    "notebook_texts",
    "precision_at_k",
    "recall_at_k",
    "show_source",
    "use_cjk_font",
]
