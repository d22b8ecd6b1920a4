"""Which dataset a notebook runs on, said so that its reader cannot mistake it for the teaching one.

The notebooks' prose is written for the bundled teaching collection and quotes
its numbers. A notebook run with another ``dataset`` prints, under the
collection's description, a note that its outputs are that dataset's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reteval._util.catalogue import phrase

if TYPE_CHECKING:
    from reteval.datasets import Dataset

__all__ = ["describe_dataset", "is_teaching_collection"]


def is_teaching_collection(collection: Dataset) -> bool:
    """Whether ``collection`` holds the bundled teaching collection (its test split).

    Its documents, queries and judgments are compared, not its name: a folder
    named ``teaching`` holding something else is another dataset.

    Examples
    --------
    >>> from reteval.datasets import load
    >>> is_teaching_collection(load("teaching"))
    True
    >>> is_teaching_collection(load("teaching", split="second_assessor"))
    False
    """
    from reteval.datasets import load

    teaching = load("teaching")
    return (collection.queries == teaching.queries and collection.corpus == teaching.corpus
            and collection.qrels.reset_index(drop=True).equals(teaching.qrels))


def describe_dataset(collection: Dataset, lang: str) -> str:
    """The collection's description in ``lang``, and a note when it is not the teaching one.

    For the teaching collection this is ``collection.describe(lang)``; for any
    other, a second line says that the notebook's text quotes the teaching
    collection's numbers while the outputs are this dataset's (its name, queries
    and documents).

    Parameters
    ----------
    collection : Dataset
        The collection the notebook loaded.
    lang : {"zh", "en"}
        The edition's language.

    Raises
    ------
    InputError
        ``lang`` is not ``"zh"`` or ``"en"``.

    Examples
    --------
    >>> from reteval.datasets import load
    >>> print(describe_dataset(load("teaching"), "zh"))
    数据集 teaching：188 个文档，36 条查询，554 个相关性判断
    >>> other = load("teaching", split="second_assessor")  # other judgments
    >>> print(describe_dataset(other, "en"))  # doctest: +NORMALIZE_WHITESPACE
    Dataset(name='teaching', documents=188, queries=10, judgments=142)
    Note: the text of this notebook was written for the teaching collection and quotes its
    numbers; the outputs below are those of the dataset teaching (10 queries, 188 documents),
    so they differ from the numbers in the text.
    """
    described = collection.describe(lang)
    if is_teaching_collection(collection):
        return described
    note = phrase("teaching.dataset.other", lang, name=collection.name,
                  queries=len(collection.queries), documents=len(collection.corpus))
    return f"{described}\n{note}"
