"""Reading and writing qrels and runs, and turning any accepted input into tables.

Every input ends up as one of two pandas DataFrames:

* qrels: columns ``query_id`` (str), ``doc_id`` (str), ``relevance`` (int64, or
  float64 when a grade is fractional);
* run: columns ``query_id`` (str), ``doc_id`` (str), ``score`` (float64).

File formats
------------
TREC qrels
    ``qid iter docno rel``, whitespace separated, exactly four fields.
BEIR qrels
    tab separated with the header ``query-id corpus-id score`` (``.tsv``).
TREC run
    ``qid Q0 docno rank score tag``, whitespace separated; fields after the
    sixth are ignored and the rank column is never used (as trec_eval does).

Lines whose first non-blank character is ``#`` are comments and blank lines are
skipped; a ``#`` anywhere else belongs to its field, so doc ids such as
``msmarco_doc_00#4`` are read whole (trec_eval 10). Files ending in ``.gz`` are
decompressed. A grade (relevance) and a score must be finite numbers.

Errors name the file, the line and the offending text, and a document listed
twice for one query (in a run or in qrels) is an error naming both lines, as
in trec_eval.

Modules
-------
:mod:`reteval.io.tables` (columns, ids, trec_eval's order), :mod:`reteval.io.read`
(files into tables), :mod:`reteval.io.write`, :mod:`reteval.io.frames` (any input as a
table), :mod:`reteval.io.named` (``read_run`` and ``read_qrels``: a file, or a frame with
its own column names) and
:mod:`reteval.io.duplicates`, and :mod:`reteval.io.lines` (the careful line readers,
which need neither pandas nor Arrow); every public name is importable from ``reteval.io``,
loaded on first use (PEP 562), so that reading a small file does not load pandas.
"""

from reteval._util.lazy import lazy_names

__all__ = [
    "DUPLICATE_POLICIES",
    "ID_DTYPE",
    "QRELS_COLUMNS",
    "RUN_COLUMNS",
    "as_qrels",
    "as_run",
    "check_unique",
    "check_unique_ids",
    "duplicate_error",
    "first_duplicate",
    "read_qrels",
    "read_run",
    "sort_run",
    "write_qrels",
    "write_run",
]

# public name -> the submodule that defines it, imported on first use
_HOME = {
    "DUPLICATE_POLICIES": "read", "read_qrels": "named", "read_run": "named",
    "ID_DTYPE": "tables", "QRELS_COLUMNS": "tables", "RUN_COLUMNS": "tables",
    "sort_run": "tables",
    "as_qrels": "frames", "as_run": "frames",
    "check_unique": "duplicates", "check_unique_ids": "duplicates",
    "duplicate_error": "duplicates",
    "first_duplicate": "duplicates",
    "write_qrels": "write", "write_run": "write",
}


__getattr__, __dir__ = lazy_names(__name__, {k: f"reteval.io.{v}" for k, v in _HOME.items()},
                                  __all__)
