"""One query's ranked list, graded by hand, and each measure's formula with its numbers.

:class:`MetricState` is a ranked list of graded documents and a cutoff K; its
values are :func:`reteval.evaluate`'s (so trec_eval's) on a one-query
qrels and run built from it, and :meth:`MetricState.explain` spells out the
terms of each formula (``P@5 = 2/5 = 0.400``; DCG as a sum of
``gain/log2(i+1)``). The metric explorer of :mod:`reteval.widgets` shows it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from reteval.errors import InputError
from reteval.evaluation.engine import evaluate

__all__ = ["Explanation", "MetricState", "gain_term"]


def _check_int(value, name: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise InputError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


def gain_term(gain: int, rank: int) -> str:
    """The DCG term of a document as text.

    Examples
    --------
    >>> gain_term(3, 1)
    '3/log2(2)'
    """
    return f"{gain}/log2({rank + 1})"


@dataclass(frozen=True)
class Explanation:
    """One measure's value and how it is computed.

    Attributes
    ----------
    measure : str
        Measure name, e.g. ``"P@5"``.
    value : float
        The value :func:`reteval.evaluate` computes.
    formula : str
        The formula with this ranking's numbers, ending with the value
        (e.g. ``"P@5 = 2/5 = 0.400"``).
    terms : tuple of str
        Further lines that spell out parts of the formula (DCG and IDCG sums).
    """

    measure: str
    value: float
    formula: str
    terms: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "\n".join((self.formula, *("    " + t for t in self.terms)))


@dataclass(frozen=True)
class MetricState:
    """A ranked list of graded documents for one query, and a cutoff.

    Parameters
    ----------
    grades : sequence of int
        Judged relevance (>= 0) of the documents at ranks 1, 2, ...
    k : int
        The cutoff K of P@K, R@K and nDCG@K (it may exceed the list length:
        P@K still divides by K).
    unretrieved : sequence of int, default ()
        Grades of judged documents that are not in the ranked list. Relevant
        ones count in the denominators of R@K and AP and in the ideal ranking
        of nDCG.
    relevance_level : int, default 1
        Grade from which a document counts as relevant (trec_eval ``-l``); it
        does not change nDCG gains.

    Notes
    -----
    :meth:`qrels` and :meth:`run` turn the state into one query ``"q"`` with
    documents ``d01, d02, ...`` scored in decreasing order (so the trec_eval
    order is the list order) and unretrieved documents ``u01, u02, ...``.

    Examples
    --------
    >>> state = MetricState([1, 0, 1, 0, 0], k=3, unretrieved=[1])
    >>> for line in state.explain():
    ...     print(line)
    P@3 = 2/3 = 0.667
    R@3 = 2/3 = 0.667
    RR = 1/1 = 1.000
    nDCG@3 = DCG@3 / IDCG@3 = 1.500 / 2.131 = 0.704
        DCG@3 = 1/log2(2) + 1/log2(4) = 1.500
        IDCG@3 = 1/log2(2) + 1/log2(3) + 1/log2(4) = 2.131
    AP = (1/1 + 2/3) / 3 = 0.556
    >>> state.with_k(5).values()["P@5"]
    0.4
    """

    grades: tuple[int, ...]
    k: int
    unretrieved: tuple[int, ...] = ()
    relevance_level: int = 1

    def __post_init__(self):
        for name in ("grades", "unretrieved"):
            value = getattr(self, name)
            if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
                raise InputError(f"{name} must be a sequence of integer grades; got {value!r}")
            grades = tuple(value)
            for i, g in enumerate(grades):
                if isinstance(g, bool) or not isinstance(g, (int, np.integer)) or g < 0:
                    raise InputError(
                        f"{name}[{i}] must be an integer grade >= 0; got {g!r}"
                    )
            object.__setattr__(self, name, tuple(int(g) for g in grades))
        if not self.grades:
            raise InputError("grades must hold at least one ranked document; got ()")
        object.__setattr__(self, "k", _check_int(self.k, "k", minimum=1))
        object.__setattr__(
            self, "relevance_level", _check_int(self.relevance_level, "relevance_level", minimum=1)
        )

    # ---- pure updates
    def with_grade(self, rank: int, grade: int) -> MetricState:
        """The same state with the document at 1-based ``rank`` graded ``grade``."""
        rank = _check_int(rank, "rank", minimum=1)
        if rank > len(self.grades):
            raise InputError(f"rank must be at most {len(self.grades)}; got {rank}")
        grades = list(self.grades)
        grades[rank - 1] = grade
        return replace(self, grades=tuple(grades))

    def with_k(self, k: int) -> MetricState:
        """The same state with cutoff ``k``."""
        return replace(self, k=k)

    def with_unretrieved(self, grades) -> MetricState:
        """The same state with these grades for the judged, unretrieved documents."""
        return replace(self, unretrieved=tuple(grades))

    # ---- the query as reteval sees it
    @property
    def doc_ids(self) -> list[str]:
        width = max(2, len(str(len(self.grades))))
        return [f"d{i:0{width}d}" for i in range(1, len(self.grades) + 1)]

    def qrels(self) -> pd.DataFrame:
        """Judgments of query ``"q"``: every ranked and every unretrieved document."""
        width = max(2, len(str(len(self.unretrieved))))
        docs = self.doc_ids + [f"u{j:0{width}d}" for j in range(1, len(self.unretrieved) + 1)]
        return pd.DataFrame({"query_id": "q", "doc_id": docs,
                             "relevance": list(self.grades) + list(self.unretrieved)})

    def run(self) -> pd.DataFrame:
        """The ranked list as a run of query ``"q"`` with strictly decreasing scores."""
        n = len(self.grades)
        return pd.DataFrame({"query_id": "q", "doc_id": self.doc_ids,
                             "score": np.arange(n, 0, -1, dtype=np.float64)})

    def measures(self) -> list[str]:
        """The measure names shown: ``P@K, R@K, RR, nDCG@K, AP``."""
        k = self.k
        return [f"P@{k}", f"R@{k}", "RR", f"nDCG@{k}", "AP"]

    def values(self) -> dict[str, float]:
        """Measure name -> value, from :func:`reteval.evaluate`."""
        row = evaluate(self.qrels(), self.run(), self.measures(),
                       relevance_level=self.relevance_level).iloc[0]
        return {name: float(v) for name, v in row.items()}

    # ---- the formulas' terms
    def relevant(self) -> list[bool]:
        """Whether each ranked document counts as relevant."""
        return [g >= self.relevance_level for g in self.grades]

    @property
    def num_relevant(self) -> int:
        """Relevant judged documents, retrieved or not (the R of recall and AP)."""
        level = self.relevance_level
        return sum(g >= level for g in self.grades) + sum(g >= level for g in self.unretrieved)

    def dcg_terms(self) -> list[tuple[int, int, float]]:
        """``(rank, gain, gain / log2(rank + 1))`` for the ranks within K."""
        return [(i, g, g / math.log2(i + 1)) for i, g in enumerate(self.grades[: self.k], 1)]

    def ideal_gains(self) -> list[int]:
        """Gains of the ideal ranking within K: every positive grade, best first."""
        gains = sorted((g for g in self.grades + self.unretrieved if g > 0), reverse=True)
        return gains[: self.k]

    def explain(self) -> tuple[Explanation, ...]:
        """Each measure's value with the terms of its formula (see the class example)."""
        values = self.values()
        k, big_r = self.k, self.num_relevant
        rel = self.relevant()
        hits = sum(rel[:k])
        none = "(no relevant document judged: every measure is 0)"
        p, r, rr, ndcg, ap = (values[m] for m in self.measures())
        lines = [Explanation(f"P@{k}", p, f"P@{k} = {hits}/{k} = {p:.3f}")]
        if big_r == 0:
            lines.append(Explanation(f"R@{k}", r, f"R@{k} = {r:.3f} {none}"))
        else:
            lines.append(Explanation(f"R@{k}", r, f"R@{k} = {hits}/{big_r} = {r:.3f}"))
        first = next((i for i, x in enumerate(rel, 1) if x), None)
        if first is None:
            lines.append(Explanation("RR", rr, f"RR = {rr:.3f} (no relevant document retrieved)"))
        else:
            lines.append(Explanation("RR", rr, f"RR = 1/{first} = {rr:.3f}"))
        if big_r == 0:
            lines.append(Explanation(f"nDCG@{k}", ndcg, f"nDCG@{k} = {ndcg:.3f} {none}"))
        else:
            dcg_terms = [(i, g, t) for i, g, t in self.dcg_terms() if g > 0]
            dcg = sum(t for _, _, t in dcg_terms)
            ideal = self.ideal_gains()
            idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, 1))
            dcg_sum = " + ".join(gain_term(g, i) for i, g, _ in dcg_terms) or "0"
            idcg_sum = " + ".join(gain_term(g, i) for i, g in enumerate(ideal, 1))
            lines.append(Explanation(
                f"nDCG@{k}", ndcg,
                f"nDCG@{k} = DCG@{k} / IDCG@{k} = {dcg:.3f} / {idcg:.3f} = {ndcg:.3f}",
                (f"DCG@{k} = {dcg_sum} = {dcg:.3f}", f"IDCG@{k} = {idcg_sum} = {idcg:.3f}"),
            ))
        if big_r == 0:
            lines.append(Explanation("AP", ap, f"AP = {ap:.3f} {none}"))
        else:
            seen, precisions = 0, []
            for i, x in enumerate(rel, 1):
                if x:
                    seen += 1
                    precisions.append(f"{seen}/{i}")
            total = " + ".join(precisions) if precisions else "0"
            lines.append(Explanation("AP", ap, f"AP = ({total}) / {big_r} = {ap:.3f}"))
        return tuple(lines)

