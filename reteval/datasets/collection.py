"""A test collection: documents, queries and relevance judgments, however it was loaded.

:mod:`reteval.datasets` builds one from the bundled teaching collection, a BEIR
folder or download; :mod:`reteval.datasets.irds` from an ir_datasets collection.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from reteval._util.catalogue import phrase
from reteval.errors import RetevalError

__all__ = ["Dataset", "DatasetWarning", "DownloadError"]


class DatasetWarning(UserWarning):
    """A collection that loads, but with something the user should know."""


@dataclass(frozen=True, eq=False)
class Dataset:
    """A test collection: documents, queries and graded relevance judgments.

    Parameters
    ----------
    name : str
        Short name (``"teaching"``, ``"scifact"``, or the folder name).
    corpus : dict of str to dict
        Document id -> ``{"title": str, "text": str}``, in file order.
    queries : dict of str to str
        Query id -> query text, only the queries judged in the loaded split.
    qrels : pandas.DataFrame
        Columns ``query_id`` (str), ``doc_id`` (str), ``relevance`` (int64, or float64
        when a grade is fractional), one row per judgment, in file order.

    Notes
    -----
    Equality is identity (two loads of one folder are different objects):
    comparing corpora of millions of documents by value is rarely meant.

    Examples
    --------
    >>> from reteval.datasets import load
    >>> ds = load("teaching")
    >>> ds.queries["q01"]
    'Python 编程入门'
    >>> list(ds.qrels.columns)
    ['query_id', 'doc_id', 'relevance']
    """

    name: str
    corpus: dict[str, dict[str, str]]
    queries: dict[str, str]
    qrels: pd.DataFrame

    def describe(self, lang: str = "en") -> str:
        """Its name and sizes in ``lang`` (in English, its ``repr``).

        Examples
        --------
        >>> from reteval.datasets import load
        >>> print(load("teaching").describe("zh"))
        数据集 teaching：188 个文档，36 条查询，554 个相关性判断
        """
        return phrase("datasets.describe", lang, name=self.name, documents=len(self.corpus),
                      queries=len(self.queries), judgments=len(self.qrels))

    def __repr__(self) -> str:
        return self.describe("en")


class DownloadError(RetevalError):
    """A dataset could not be downloaded, or the download failed its checksum."""
