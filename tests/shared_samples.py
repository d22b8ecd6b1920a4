"""Deterministic samples of the shared BEIR datasets, for tests that would run for minutes.

A sample keeps the first queries in id order, every document any of them judges (so each
sampled query's judgments are complete, as in the full collection) and a fixed share of the
other documents, in the corpus's order, as distractors. It is written in the BEIR layout
under the session folder, in a folder of the dataset's own name, so that ``load`` reads it
like the original and names it the same.
"""

import json

from session_folder import build_once, session_folder


def _id_order(query_id):
    return (0, int(query_id), "") if query_id.isdigit() else (1, 0, query_id)


def write_sample(source, folder, *, queries, other_share):
    """Write into ``folder`` the sample of the BEIR folder ``source`` described above.

    ``queries`` is how many judged queries to keep; ``other_share`` as ``1 / n`` keeps every
    n-th unjudged document (``n = round(1 / other_share)``).
    """
    lines = (source / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()
    header, judgments = lines[0], [line.split("\t") for line in lines[1:] if line.strip()]
    kept = set(sorted({row[0] for row in judgments}, key=_id_order)[:queries])
    rows = [row for row in judgments if row[0] in kept]
    judged = {row[1] for row in rows}
    (folder / "qrels").mkdir()
    (folder / "qrels" / "test.tsv").write_text(
        "\n".join([header] + ["\t".join(row) for row in rows]) + "\n", encoding="utf-8")
    with open(source / "queries.jsonl", encoding="utf-8") as lines_in, \
            open(folder / "queries.jsonl", "w", encoding="utf-8") as out:
        out.writelines(line for line in lines_in if json.loads(line)["_id"] in kept)
    step, others = round(1 / other_share), 0
    with open(source / "corpus.jsonl", encoding="utf-8") as lines_in, \
            open(folder / "corpus.jsonl", "w", encoding="utf-8") as out:
        for line in lines_in:
            if json.loads(line)["_id"] in judged:
                out.write(line)
            else:
                if others % step == 0:
                    out.write(line)
                others += 1


def shared_sample(source, *, queries, other_share):
    """The sample of ``source``, written once per test session for every worker."""
    def build(parent):
        (parent / source.name).mkdir()
        write_sample(source, parent / source.name, queries=queries, other_share=other_share)

    name = f"{source.name}-{queries}q-{round(1 / other_share)}"
    return build_once(session_folder() / "samples" / name, build) / source.name
