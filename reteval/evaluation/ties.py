"""Tied scores: how far a run's measures move over every order of its tied documents.

trec_eval (and so :func:`reteval.evaluate`) settles equal scores by doc id, in
descending string order. That convention makes every evaluation reproducible,
but it is not a property of the ranking: rename the documents and the value
changes, although no score did. :func:`tie_bounds` gives, for each query and
measure, the value under the least favourable order of the tied documents
(``worst``: within each group of equal scores, the least relevant first) and
under the most favourable one (``best``: the most relevant first), beside
trec_eval's (``value``). Every order of the tied documents, trec_eval's
included, scores between the two; a run whose gain over another lies within its
own band has gained by the order of its ties, not by its scores.

Both bounds are exact: the scores are rewritten into distinct ranks in the two
orders and evaluated by :func:`reteval.evaluate`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reteval.errors import InputError
from reteval.evaluation.checks import MissingQueriesWarning, check_arguments
from reteval.evaluation.engine import aggregate, evaluate

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["UNBOUNDED_FAMILIES", "TieBounds", "tie_bounds"]

#: Families whose value the two orders do not bound, and why (each has an order of a
#: tie group that scores outside the band of the most and least favourable orders).
UNBOUNDED_FAMILIES = {
    "infAP": "its estimate from the judged documents above each relevant one is not "
             "monotone in their order",
    "G": "trec_eval's experimental G measure is not monotone in the order of its documents",
}
_UNJUDGED, _POOL_UNJUDGED = -2, -1  # order keys below every grade (grades are >= 0)


@dataclass(frozen=True)
class TieBounds:
    """The values of measures over the orders of a run's tied documents.

    Attributes
    ----------
    worst : pandas.DataFrame
        Per query (index ``query_id``) and measure (columns, as :func:`reteval.evaluate`
        names them): the value when every group of equal scores lists its least
        relevant documents first (unjudged, then judged negative, then by grade,
        ascending).
    value : pandas.DataFrame
        What :func:`reteval.evaluate` gives: ties settled by doc id, descending, as
        trec_eval does.
    best : pandas.DataFrame
        The value when every group lists its most relevant documents first.
    ties : pandas.DataFrame
        Per query: ``tied_groups``, the groups of two or more retrieved documents
        sharing a score; ``tied_documents``, the documents in them; and
        ``relevant_groups``, the tied groups holding a relevant document
        (grade >= ``relevance_level``) beside a document judged otherwise (another
        grade, or none), the only groups whose order can move a measure of relevance.

    Notes
    -----
    For every measure but ``Unjudged`` and ``RBPResid``, ``worst <= value <= best``;
    for those two, where lower is better, ``best <= value <= worst``.
    :meth:`contains` and :meth:`width` read the band either way.
    """

    worst: pd.DataFrame
    value: pd.DataFrame
    best: pd.DataFrame
    ties: pd.DataFrame

    def low(self) -> pd.DataFrame:
        """The lower end of each band: ``worst``, or ``best`` where lower is better."""
        return self.worst.where(self.worst <= self.best, self.best)

    def high(self) -> pd.DataFrame:
        """The upper end of each band: ``best``, or ``worst`` where lower is better."""
        return self.best.where(self.best >= self.worst, self.worst)

    def width(self) -> pd.DataFrame:
        """How far the order of the ties can move each value: ``high() - low()``, per query.

        Zero for a query whose tied groups hold no relevant document beside a
        document judged otherwise (for ``Judged``, ``Unjudged`` and ``RBPResid``:
        no judged document beside an unjudged one).
        """
        return self.high() - self.low()

    def contains(self, values: pd.DataFrame, *, tolerance: float = 1e-12) -> pd.DataFrame:
        """Whether each of ``values`` lies within its query's band (both ends included).

        Parameters
        ----------
        values : pandas.DataFrame
            Per-query values with the queries and measures of these bounds, such as
            :func:`reteval.evaluate` gives for a run that orders the same scores
            differently (the run with its documents renamed, say).
        tolerance : float, default 1e-12
            Slack for floating-point rounding.

        Returns
        -------
        pandas.DataFrame
            Booleans, shaped as ``worst``.

        Raises
        ------
        InputError
            ``values`` lacks a query or a measure of the bounds.
        """
        missing_rows = self.worst.index.difference(values.index)
        missing_columns = self.worst.columns.difference(values.columns)
        if len(missing_rows) or len(missing_columns):
            raise InputError(
                "values must have the queries and measures of the bounds; missing "
                f"queries {list(missing_rows)[:5]}, measures {list(missing_columns)}")
        shaped = values.loc[self.worst.index, self.worst.columns]
        return (shaped >= self.low() - tolerance) & (shaped <= self.high() + tolerance)

    def summary(self) -> pd.DataFrame:
        """The ``all`` line of each bound: one row per measure, columns ``worst, value, best``.

        Means over queries (counts summed), as :func:`reteval.aggregate` gives them.
        """
        import pandas as pd

        return pd.DataFrame({"worst": aggregate(self.worst), "value": aggregate(self.value),
                             "best": aggregate(self.best)}).rename_axis("measure")


def _check_measures(columns) -> None:
    for label, measure in columns:
        family = measure.spec
        if family.judgments != "qrels":
            raise InputError(f"measure {label!r} needs {family.judgments} judgments; tie "
                             "bounds are computed from qrels")
        if family.name in UNBOUNDED_FAMILIES:
            raise InputError(f"measure {label!r} has no tie bounds: "
                             f"{UNBOUNDED_FAMILIES[family.name]}")
        if getattr(measure, "gains", None) is not None:
            raise InputError(f"measure {label!r} gives grades gains of its own; tie bounds "
                             "order tied documents by grade, so they need the grades as gains")


def _ranked(frame, order_key, *, best: bool):
    """The run with scores rewritten into distinct ranks, ties ordered by ``order_key``."""
    import numpy as np
    import pandas as pd

    ordered = frame.assign(_key=order_key).sort_values(
        ["query_id", "score", "_key", "doc_id"], ascending=[True, False, not best, False],
        kind="stable")
    position = ordered.groupby("query_id", sort=False).cumcount().to_numpy()
    return pd.DataFrame({"query_id": ordered["query_id"].to_numpy(),
                         "doc_id": ordered["doc_id"].to_numpy(),
                         "score": -position.astype(np.float64)})


def tie_bounds(qrels, run, measures, *, relevance_level: int = 1,
               missing: str = "zero") -> TieBounds:
    """Each measure under the least and the most favourable order of the tied documents.

    Parameters
    ----------
    qrels : path, DataFrame, dict or EvaluationQuery records
        Relevance judgments, in any form :func:`reteval.io.as_qrels` takes.
    run : path, DataFrame or dict
        Retrieval results, in any form :func:`reteval.io.as_run` takes.
    measures : str or sequence of str
        Measure names, as :func:`reteval.evaluate` takes them. Not ``infAP`` and
        ``G`` (:data:`UNBOUNDED_FAMILIES`), measures with gains of their own
        (``nDCG(1=3,2=9)``), nor preference measures.
    relevance_level : int, default 1
        Minimum grade that counts as relevant (trec_eval ``-l``), as in
        :func:`reteval.evaluate`.
    missing : {"zero", "skip", "error"}, default "zero"
        Judged queries absent from the run, as in :func:`reteval.evaluate` (warned
        about once).

    Returns
    -------
    TieBounds
        ``worst``, ``value`` (trec_eval's order) and ``best``, per query and measure,
        and the tied groups of each query (``ties``).

    Raises
    ------
    InputError
        Malformed inputs (a document listed twice for a query is named by its
        rows), an unknown measure, or a measure without tie bounds.

    Notes
    -----
    Within a group of equal scores, ``best`` lists documents by grade, highest
    first, then those judged negative ("in the pool, not judged"), then the
    unjudged; ``worst`` the reverse. Groups keep their places, so documents with
    distinct scores never move. Every measure of relevance reteval has (but
    ``infAP`` and ``G``) never falls when a more relevant document moves above a
    less relevant one, so these two orders give its lowest and highest value over
    all orders of the ties, and trec_eval's order lies between them. ``Judged``,
    ``Unjudged`` and ``RBPResid`` count judged documents: the favourable order
    lists judged before unjudged ones. The doc ids play no part, so renaming the
    documents changes ``value`` but neither bound.

    Examples
    --------
    Two documents share the score 0.5; the relevant one, d1, loses the tie by
    its id ("d2" > "d1"):

    >>> qrels = {"q1": {"d1": 1, "d2": 0}}
    >>> run = {"q1": {"d0": 0.9, "d1": 0.5, "d2": 0.5}}
    >>> bounds = tie_bounds(qrels, run, ["RR", "P@2"])
    >>> bounds.summary()
             worst     value  best
    measure
    RR       0.333333  0.333333   0.5
    P@2      0.000000  0.000000   0.5
    >>> bounds.ties
              tied_groups  tied_documents  relevant_groups
    query_id
    q1                  1               2                1

    Renamed so that it wins the tie, d1 scores the best value, inside the band:

    >>> renamed = evaluate({"q1": {"d9": 1, "d2": 0}}, {"q1": {"d0": 0.9, "d9": 0.5, "d2": 0.5}},
    ...                    ["RR", "P@2"])
    >>> renamed
               RR  P@2
    query_id
    q1        0.5  0.5
    >>> bounds.contains(renamed)
                RR   P@2
    query_id
    q1        True  True
    """
    import numpy as np

    from reteval.io import as_qrels, as_run

    columns = check_arguments(measures, relevance_level, missing)
    _check_measures(columns)
    judged = as_qrels(qrels)
    frame = as_run(run)[["query_id", "doc_id", "score"]]
    frame = frame.assign(query_id=frame["query_id"].astype(str),
                         doc_id=frame["doc_id"].astype(str),
                         score=frame["score"].astype(np.float64) + 0.0)  # -0.0 ties 0.0
    grades = judged.assign(query_id=judged["query_id"].astype(str),
                           doc_id=judged["doc_id"].astype(str))  # one row per pair (as_qrels)
    grade = frame.merge(grades[["query_id", "doc_id", "relevance"]], how="left",
                        on=["query_id", "doc_id"])["relevance"].to_numpy(dtype=np.float64)
    order_key = np.where(np.isnan(grade), _UNJUDGED, np.where(grade < 0, _POOL_UNJUDGED, grade))

    value = evaluate(qrels, run, measures, relevance_level=relevance_level, missing=missing)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingQueriesWarning)  # said once, by value
        worst = evaluate(qrels, _ranked(frame, order_key, best=False), measures,
                         relevance_level=relevance_level, missing=missing)
        best = evaluate(qrels, _ranked(frame, order_key, best=True), measures,
                        relevance_level=relevance_level, missing=missing)
    return TieBounds(worst=worst, value=value, best=best,
                     ties=_ties(frame, order_key, relevance_level, value.index))


def _ties(frame, order_key, relevance_level, queries):
    """Per query: tied groups, the documents in them, and those with a relevant document."""
    import pandas as pd

    keyed = frame.assign(_key=order_key, _relevant=order_key >= relevance_level)
    groups = keyed.groupby(["query_id", "score"], sort=False).agg(
        size=("doc_id", "size"), kinds=("_key", "nunique"), relevant=("_relevant", "any"))
    tied = groups[groups["size"] >= 2]
    per_query = pd.DataFrame({
        "tied_groups": tied.groupby(level="query_id").size(),
        "tied_documents": tied.groupby(level="query_id")["size"].sum(),
        "relevant_groups": tied[tied["relevant"] & (tied["kinds"] >= 2)]
        .groupby(level="query_id").size(),
    }, columns=["tied_groups", "tied_documents", "relevant_groups"])
    return per_query.reindex(queries).fillna(0).astype("int64").rename_axis("query_id")
