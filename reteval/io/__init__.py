"""Reading and writing qrels and runs, and turning any accepted input into tables.

Every input ends up as one of two pandas DataFrames:

* qrels: columns ``query_id`` (str), ``doc_id`` (str), ``relevance`` (int64);
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
decompressed. Relevance must be an integer and a score a finite number.

Errors name the file, the line and the offending text, and a document listed
twice for one query (in a run or in qrels) is an error naming both lines, as
in trec_eval.

Modules
-------
:mod:`reteval.io.tables` (columns, ids, trec_eval's order), :mod:`reteval.io.read`,
:mod:`reteval.io.write`, :mod:`reteval.io.frames` (any input as a table) and
:mod:`reteval.io.duplicates`; every public name is importable from ``reteval.io``.
"""

from reteval.io.duplicates import check_unique, duplicate_error, first_duplicate
from reteval.io.frames import as_qrels, as_run
from reteval.io.read import DUPLICATE_POLICIES, read_qrels, read_run
from reteval.io.tables import ID_DTYPE, QRELS_COLUMNS, RUN_COLUMNS, sort_run
from reteval.io.write import write_qrels, write_run

__all__ = [
    "DUPLICATE_POLICIES",
    "ID_DTYPE",
    "QRELS_COLUMNS",
    "RUN_COLUMNS",
    "as_qrels",
    "as_run",
    "check_unique",
    "duplicate_error",
    "first_duplicate",
    "read_qrels",
    "read_run",
    "sort_run",
    "write_qrels",
    "write_run",
]
