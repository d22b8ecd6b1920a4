"""The chapter's own code, kept unchanged for teaching, and self-checking exercises.

Each module holds one section of the chapter's code as the chapter wrote it
(flaws included, each one named in the module's docstring), so that a notebook
can show its source, run it on the same input as reteval, and explain where
and why the two differ:

* :mod:`reteval.teaching.chapter_metrics`: the metric functions and the
  ``EvaluationQuery`` record.
* :mod:`reteval.teaching.exercises`: ``check(exercise_id, answer)`` for the
  exercises at the end of every notebook.
* :func:`show_source`: the source of a chapter function, for display.
"""

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
from reteval.teaching.source import show_source

__all__ = [
    "EvaluationQuery",
    "average_precision",
    "dcg_at_k",
    "mean_average_precision",
    "mrr",
    "ndcg_at_k",
    "precision_at_k",
    "recall_at_k",
    "show_source",
]
