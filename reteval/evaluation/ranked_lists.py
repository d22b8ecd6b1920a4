"""One query's ranked list as a reader looks at it: grades, discounts, the ideal list, the values.

A :class:`RankedList` holds what a figure of one query needs
(:func:`reteval.report.figures.plot_ranked_list`) and what explains each value in
words: the documents in trec_eval's order (score descending, ties by doc id
descending) with their judgments (``None`` for an unjudged document), the
position discount ``1/log2(r+1)`` of nDCG, the ideal ranking, and the measures'
values as :func:`reteval.evaluate` computes them (so trec_eval's). The counts it
gives (relevant documents in the top c, the first relevant rank, DCG and the ideal
DCG) are the numbers behind those values; tests check that they agree.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import pandas as pd

from reteval.errors import InputError
from reteval.evaluation.checks import MissingQueriesWarning
from reteval.evaluation.engine import evaluate
from reteval.io.frames import as_qrels, as_run
from reteval.io.tables import sort_run
from reteval.measures import measure_columns

__all__ = ["DEFAULT_FIGURE_MEASURES", "RankedList", "discount", "ranked_list", "ranked_lists"]

#: The measures a ranked-list figure shows by default: one of each kind (a cutoff
#: precision, the first relevant rank, the whole list, graded with a discount).
DEFAULT_FIGURE_MEASURES: tuple[str, ...] = ("P@5", "RR", "AP", "nDCG@10")


def discount(rank: int) -> float:
    """nDCG's position discount of 1-based ``rank``: ``1 / log2(rank + 1)``.

    Examples
    --------
    >>> discount(1), round(discount(2), 4), discount(3)
    (1.0, 0.6309, 0.5)
    """
    return 1.0 / math.log2(rank + 1)


@dataclass(frozen=True)
class RankedList:
    """One query's ranking with its judgments, and the values of some measures on it.

    Build it with :func:`ranked_list` (or :func:`ranked_lists` for several queries).

    Attributes
    ----------
    query_id : str
    k : int
        The ranks a figure shows (1 to k); the list may be shorter.
    doc_ids : tuple of str
        Every retrieved document, in trec_eval's order.
    grades : tuple of int or None
        The judgment of each document of ``doc_ids``; ``None`` when it has none
        (unjudged: it counts as not relevant and gains 0).
    judged : tuple of int
        Every judgment of the query, retrieved or not, highest first.
    values : mapping of str to float
        Measure -> value, from :func:`reteval.evaluate` (column names as it labels them).
    relevance_level : int
        The grade from which a document counts as relevant (trec_eval ``-l``).
    """

    query_id: str
    k: int
    doc_ids: tuple[str, ...]
    grades: tuple[int | None, ...]
    judged: tuple[int, ...]
    values: Mapping[str, float]
    relevance_level: int = 1

    @property
    def num_retrieved(self) -> int:
        """Documents the run returned for the query."""
        return len(self.doc_ids)

    @property
    def num_relevant(self) -> int:
        """Judged relevant documents, retrieved or not (the R of recall and AP)."""
        return sum(self._is_relevant(g) for g in self.judged)

    @property
    def shown(self) -> int:
        """Documents within the first k ranks: ``min(k, num_retrieved)``."""
        return min(self.k, self.num_retrieved)

    def _is_relevant(self, grade) -> bool:
        return grade is not None and grade >= 0 and grade >= self.relevance_level

    def relevant(self) -> tuple[bool, ...]:
        """Whether each retrieved document counts as relevant."""
        return tuple(self._is_relevant(g) for g in self.grades)

    def gains(self) -> tuple[int, ...]:
        """nDCG's gain of each retrieved document: its grade, 0 when unjudged or negative."""
        return tuple(max(g, 0) if g is not None else 0 for g in self.grades)

    def ideal(self, cutoff: int | None = None) -> tuple[int, ...]:
        """Gains of the ideal ranking: every positive judgment, highest first, the first
        ``cutoff`` of them (default: k)."""
        cutoff = self.k if cutoff is None else cutoff
        return tuple(g for g in self.judged if g > 0)[:cutoff]

    def discounts(self) -> tuple[float, ...]:
        """The position discount ``1/log2(r+1)`` of ranks 1 to k."""
        return tuple(discount(r) for r in range(1, self.k + 1))

    def relevant_in_top(self, cutoff: int) -> int:
        """Relevant documents among the first ``cutoff`` retrieved."""
        return sum(self.relevant()[:cutoff])

    def first_relevant_rank(self) -> int | None:
        """Rank of the first relevant document, or None when none was retrieved."""
        return next((r for r, rel in enumerate(self.relevant(), 1) if rel), None)

    def dcg(self, cutoff: int | None = None) -> float:
        """DCG of the first ``cutoff`` documents (default: all): ``sum(gain / log2(r + 1))``."""
        gains = self.gains() if cutoff is None else self.gains()[:cutoff]
        return sum(g * discount(r) for r, g in enumerate(gains, 1))

    def ideal_dcg(self, cutoff: int | None = None) -> float:
        """DCG of the ideal ranking, cut at ``cutoff`` (default: every positive judgment)."""
        gains = self.ideal(len(self.judged) if cutoff is None else cutoff)
        return sum(g * discount(r) for r, g in enumerate(gains, 1))

    def table(self) -> pd.DataFrame:
        """Ranks 1 to k as a table: doc id, grade (``<NA>`` unjudged), relevant, discount,
        gain x discount, and the ideal ranking's gain; ranks past the list's end have
        no document.

        Examples
        --------
        >>> view = ranked_list({"q": {"d1": 2, "d3": 1}}, {"q": ["d2", "d1"]}, "q", k=3,
        ...                    measures=["P@3"])
        >>> view.table()
             doc_id  grade  relevant  discount  gain x discount  ideal
        rank
        1        d2   <NA>     False   1.00000          0.00000      2
        2        d1      2      True   0.63093          1.26186      1
        3       NaN   <NA>      <NA>   0.50000              NaN      0
        """
        shown = self.shown
        pad = self.k - shown
        ideal = self.ideal()
        gains = self.gains()
        discounts = self.discounts()
        return pd.DataFrame({
            "doc_id": list(self.doc_ids[:shown]) + [None] * pad,
            "grade": pd.array(list(self.grades[:shown]) + [None] * pad, dtype="Int64"),
            "relevant": pd.array(list(self.relevant()[:shown]) + [None] * pad, dtype="boolean"),
            "discount": discounts,
            "gain x discount": [gains[i] * discounts[i] for i in range(shown)] + [np.nan] * pad,
            "ideal": list(ideal) + [0] * (self.k - len(ideal)),
        }, index=pd.RangeIndex(1, self.k + 1, name="rank"))


def _check_k(k) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise InputError(f"k must be an integer >= 1 (the ranks shown); got {k!r}")
    return int(k)


def _listing(ids) -> str:
    ids = sorted(ids)
    shown = ", ".join(repr(q) for q in ids[:5])
    return f"{shown}, ... ({len(ids)} in all)" if len(ids) > 5 else shown


def ranked_lists(qrels, run, query_ids, *, k: int = 10, measures=DEFAULT_FIGURE_MEASURES,
                 relevance_level: int = 1) -> list[RankedList]:
    """:func:`ranked_list` of several queries, in the order given (inputs read once).

    Raises
    ------
    InputError
        No query ids, a query id given twice, or any error of :func:`ranked_list`.

    Examples
    --------
    >>> views = ranked_lists({"a": {"d1": 1}, "b": {"d2": 1}}, {"a": ["d1"], "b": ["d9", "d2"]},
    ...                      ["b", "a"], measures=["RR"])
    >>> [(v.query_id, v.values["RR"]) for v in views]
    [('b', 0.5), ('a', 1.0)]
    """
    k = _check_k(k)
    if isinstance(query_ids, str) or not isinstance(query_ids, Sequence) or not query_ids:
        raise InputError(f"query_ids must be a non-empty sequence of query ids; got {query_ids!r}")
    if len(set(query_ids)) != len(query_ids):
        twice = sorted({q for q in query_ids if list(query_ids).count(q) > 1}, key=str)
        raise InputError(f"query_ids lists {twice[0]!r} twice")
    labels = [label for label, _ in measure_columns(measures)]  # an unknown name fails here
    judgments, ranking = as_qrels(qrels), as_run(run)
    judged_ids, run_ids = set(judgments["query_id"]), set(ranking["query_id"])
    for query_id in query_ids:
        if query_id not in judged_ids:
            where = ("it is in the run but has no judgments, so no measure is defined for it"
                     if query_id in run_ids else f"the qrels' queries are {_listing(judged_ids)}")
            raise InputError(f"unknown query id {query_id!r}: {where}")
    wanted = list(query_ids)
    judgments = judgments[judgments["query_id"].isin(wanted)]
    ranking = sort_run(ranking[ranking["query_id"].isin(wanted)])
    with warnings.catch_warnings():
        # A judged query the run left out is an empty ranking, and the figure shows it so.
        warnings.simplefilter("ignore", MissingQueriesWarning)
        values = evaluate(judgments, ranking, measures, relevance_level=relevance_level)
    views = []
    for query_id in wanted:
        grades = judgments[judgments["query_id"] == query_id]
        grade_of = dict(zip(grades["doc_id"], grades["relevance"].astype(int), strict=True))
        docs = ranking.loc[ranking["query_id"] == query_id, "doc_id"].tolist()
        views.append(RankedList(
            query_id=query_id, k=k, doc_ids=tuple(docs),
            grades=tuple(grade_of.get(d) for d in docs),
            judged=tuple(sorted(grade_of.values(), reverse=True)),
            values=MappingProxyType({label: float(values.at[query_id, label])
                                     for label in labels}),
            relevance_level=relevance_level))
    return views


def ranked_list(qrels, run, query_id, *, k: int = 10, measures=DEFAULT_FIGURE_MEASURES,
                relevance_level: int = 1) -> RankedList:
    """One query's ranking, its judgments, and the values of ``measures`` on it.

    Parameters
    ----------
    qrels : path, DataFrame, dict or EvaluationQuery records
        Relevance judgments, in any form :func:`reteval.io.as_qrels` takes.
    run : path, DataFrame or dict
        Retrieval results, in any form :func:`reteval.io.as_run` takes.
    query_id : str
        A query of the qrels. A query the run left out has an empty ranking (every
        measure 0, as trec_eval ``-c``).
    k : int, default 10
        The ranks a figure shows (the values do not depend on it: ``AP`` reads the
        whole list, ``P@5`` the first 5).
    measures : str or sequence of str, default ``("P@5", "RR", "AP", "nDCG@10")``
        Any names :func:`reteval.evaluate` takes.
    relevance_level : int, default 1
        The grade from which a document counts as relevant (it does not change nDCG's gains).

    Returns
    -------
    RankedList

    Raises
    ------
    InputError
        ``k`` not an integer >= 1; a query id that the qrels do not have (the
        message says whether the run has it); an unknown measure; malformed inputs.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.5, "d3": 0.5, "d4": 0.1}}  # d2, d3 tie: d3 first
    >>> view = ranked_list(qrels, run, "q1", k=5, measures=["P@5", "RR", "nDCG@5"])
    >>> view.doc_ids, view.grades
    (('d1', 'd3', 'd2', 'd4'), (2, 1, 0, None))
    >>> dict(view.values)
    {'P@5': 0.4, 'RR': 1.0, 'nDCG@5': 1.0}
    >>> view.relevant_in_top(5), view.first_relevant_rank(), view.ideal()
    (2, 1, (2, 1))
    """
    return ranked_lists(qrels, run, [query_id], k=k, measures=measures,
                        relevance_level=relevance_level)[0]
