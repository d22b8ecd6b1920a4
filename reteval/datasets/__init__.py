"""Data: the bundled teaching collection, BEIR folders, ir_datasets, and their common shape.

Every loader returns a :class:`Dataset` (queries, documents, qrels): :func:`load` takes a
name (``"teaching"``, ``"beir:scifact"``, ``"irds:..."``) or a folder.
"""

from reteval.datasets.collection import Dataset, DatasetWarning
from reteval.datasets.loaders import (
    BEIR_DATASETS,
    BEIR_URL,
    QRELS_DUPLICATES,
    DownloadError,
    datasheet,
    default_cache_dir,
    load,
    load_beir,
    read_queries,
)

__all__ = ["BEIR_DATASETS", "BEIR_URL", "QRELS_DUPLICATES", "Dataset", "DatasetWarning",
           "DownloadError", "datasheet", "default_cache_dir", "load",
           "load_beir", "read_queries"]
