"""trec_eval's preference measures (``-R prefs``, ``-R qrels_prefs``) and its multi-judge
measures (``-R qrels_jg``), ported from trec_eval 10 (form_prefs_counts.c, m_prefs_*.c,
form_res_rels_jg.c, m_*_avgjg.c).

Preferences are grouped by judgment group (JG, one user's information need) and, within
it, by sub-group (JSG): within a JSG a document with a higher level is preferred to one
with a lower level; the JSGs of a JG are combined transitively. A preference ``A > B`` is
fulfilled when A is ranked above B (both retrieved) or when only A is retrieved
("implied"); when neither is retrieved it is counted as possible, never fulfilled.
"""

from __future__ import annotations

import math

import numpy as np

from reteval.errors import InputError

__all__ = ["judge_group_values", "preference_values", "ranked_run"]


def ranked_run(run, max_docs: int | None = None, *,
               ties_ascending: bool = False) -> dict[str, list[str]]:
    """The run as ``{query: doc ids in trec_eval's order}`` (score descending, then doc id
    descending; ascending for preferences, as trec_eval's form_prefs_counts.c breaks ties),
    cut to ``max_docs`` documents."""
    from reteval.io import as_run

    frame = as_run(run)
    out: dict[str, list] = {}
    for query, doc, score in zip(frame["query_id"].astype(str), frame["doc_id"].astype(str),
                                 frame["score"].astype(float), strict=True):
        out.setdefault(query, []).append((score, doc))
    ranked = {}
    for query, rows in out.items():
        rows.sort(key=lambda row: row[1].encode(), reverse=not ties_ascending)
        rows.sort(key=lambda row: row[0], reverse=True)
        docs = [doc for _, doc in rows]
        if len(set(docs)) != len(docs):
            raise InputError(f"query {query!r} of the run retrieves a document twice")
        ranked[query] = docs if max_docs is None else docs[:max_docs]
    return ranked


class _Group:
    """One judgment group's counts (trec_eval's JG)."""

    __slots__ = ("ecs", "ful_imp", "ful_ret", "notoccur", "num_nonrel", "num_nonrel_ret",
                 "num_rel", "num_rel_ret", "pa", "poss_imp", "poss_ret", "rel_array")


def _docid_ranks(prefs, ranking):
    """trec_eval's docid ranks: judged retrieved documents 0.. in rank order, then the other
    judged documents in doc id order."""
    judged = {doc for _, _, doc, _ in prefs}
    retrieved = [doc for doc in ranking if doc in judged]
    ranks = {doc: i for i, doc in enumerate(retrieved)}
    next_rank = len(retrieved)
    for doc in sorted(judged - set(retrieved), key=lambda d: d.encode()):
        ranks[doc] = next_rank
        next_rank += 1
    return ranks, len(retrieved), len(judged)


def _counts(prefs, ranking):
    """Every JG's counts and the counts array of the query (form_prefs_counts)."""
    ranks, njr, nj = _docid_ranks(prefs, ranking)
    rows = sorted(((jg, jsg, -rel, ranks[doc], rel) for jg, jsg, doc, rel in prefs),
                  key=lambda r: (r[0].encode(), r[1].encode(), r[2], r[3]))
    counts = np.zeros((nj, nj), dtype=np.int64)
    groups = []
    start = 0
    while start < len(rows):
        end = start
        while end < len(rows) and rows[end][0] == rows[start][0]:
            end += 1
        block = rows[start:end]
        subgroups = {r[1] for r in block}
        group = _Group()
        if len(subgroups) > 1:
            _group_array(group, block, nj, njr, counts)
        else:
            _group_classes(group, block, njr, counts)
        groups.append(group)
        start = end
    return groups, counts, njr, nj


def _group_classes(group, block, njr, counts):
    """A JG of one sub-group: equivalence classes of equal level (add_ec_pref_to_jg)."""
    ecs: list[tuple[float, list[int]]] = []
    for _, _, _, rank, rel in block:
        if not ecs or ecs[-1][0] != rel:
            ecs.append((rel, []))
        ecs[-1][1].append(rank)
    group.ecs, group.pa = ecs, None
    group.ful_ret = group.poss_ret = group.ful_imp = group.poss_imp = group.notoccur = 0
    group.num_rel = group.num_rel_ret = group.num_nonrel = group.num_nonrel_ret = 0
    for i, (rel, docs) in enumerate(ecs):
        retrieved = 0
        for rank in docs:
            if rank >= njr:
                break
            retrieved += 1
        if rel > 0.0:
            group.num_rel_ret += retrieved
            group.num_rel += len(docs)
        else:
            group.num_nonrel_ret += retrieved
            group.num_nonrel += len(docs)
        high = np.asarray(docs)
        for _, other in ecs[i + 1:]:
            low = np.asarray(other)
            if np.intersect1d(high, low).size:
                raise InputError("a document has two levels in one judgment sub-group")
            np.add.at(counts, (high[:, None], low[None, :]), 1)
            a, b = high[:, None], low[None, :]
            above = a < b
            group.ful_ret += int(np.sum(above & (b < njr)))
            group.ful_imp += int(np.sum(above & (b >= njr) & (a < njr)))
            group.notoccur += int(np.sum(above & (b >= njr) & (a >= njr)))
            group.poss_ret += int(np.sum(~above & (a < njr)))
            group.poss_imp += int(np.sum(~above & (a >= njr) & (b < njr)))
            group.notoccur += int(np.sum(~above & (a >= njr) & (b >= njr)))
    group.poss_ret += group.ful_ret
    group.poss_imp += group.ful_imp


def _group_array(group, block, nj, njr, counts):
    """A JG of several sub-groups: a preference array closed transitively (form_jg_pa)."""
    pa = np.zeros((nj, nj), dtype=bool)
    rel_array = np.full(nj, -1.0)
    for i, (_, jsg, _, rank, rel) in enumerate(block):
        if (rel_array[rank] > 0.0 and rel == 0.0) or (rel_array[rank] == 0.0 and rel > 0.0):
            raise InputError("a document has both 0 and a positive level in one judgment group")
        rel_array[rank] = rel
        for _, jsg2, _, rank2, rel2 in block[i + 1:]:
            if jsg2 != jsg:
                break
            if rel2 != rel:
                pa[rank, rank2] = True
    closure = pa | np.eye(nj, dtype=bool)
    while True:
        step = (closure.astype(np.int64) @ closure.astype(np.int64)) > 0
        if np.array_equal(step, closure):
            break
        closure = step
    np.fill_diagonal(closure, False)
    if np.any(closure & closure.T):
        raise InputError("inconsistent preferences in one judgment group")
    group.pa, group.rel_array, group.ecs = closure, rel_array, None
    counts += closure
    ret = np.arange(nj) < njr
    group.num_rel_ret = int(np.sum((rel_array > 0.0) & ret))
    group.num_nonrel_ret = int(np.sum((rel_array == 0.0) & ret))
    group.num_rel = int(np.sum(rel_array > 0.0))
    group.num_nonrel = int(np.sum(rel_array == 0.0))
    upper = np.triu(np.ones((nj, nj), dtype=bool), 1)
    both, first_only = ret[:, None] & ret[None, :], ret[:, None] & ~ret[None, :]
    group.poss_ret = int(np.sum(closure & both & ~upper))
    group.ful_ret = int(np.sum(closure & both & upper))
    group.ful_imp = int(np.sum(closure & first_only))
    group.poss_imp = int(np.sum(closure & ~ret[:, None] & ret[None, :]))
    group.notoccur = int(np.sum(closure & ~ret[:, None] & ~ret[None, :]))
    group.poss_ret += group.ful_ret
    group.poss_imp += group.ful_imp


def _c_ratio(a, b) -> float:
    if b == 0:
        return math.nan if a == 0 else math.inf
    return a / b


def _recalculate(group, njr, retrieved_only: bool):
    """prefs_avgjg_Rnonrel's counts with only the first R non-relevant documents."""
    if group.ecs is not None:
        return _recalculate_classes(group, njr, retrieved_only)
    ful = poss = 0
    a, rel = group.pa, group.rel_array
    nj = len(rel)
    limit = njr if retrieved_only else nj
    seen, first_discarded = 0, limit
    for i in range(limit):
        if rel[i] == 0.0:
            seen += 1
            if seen == group.num_rel + 1:
                first_discarded = i
                break
    kept = ~((np.arange(nj) >= first_discarded) & (rel == 0.0))
    sub = a & kept[:, None] & kept[None, :]
    ret = np.arange(nj) < njr
    upper = np.triu(np.ones((nj, nj), dtype=bool), 1)
    both = ret[:, None] & ret[None, :]
    poss += int(np.sum(sub & both & ~upper))
    ful += int(np.sum(sub & both & upper))
    if not retrieved_only:
        ful += int(np.sum(sub & ret[:, None] & ~ret[None, :]))
        poss += int(np.sum(sub & ~ret[:, None]))
    return ful, poss + ful


def _recalculate_classes(group, njr, retrieved_only: bool):
    """:func:`_recalculate` for a JG of equivalence classes (the last class non-relevant)."""
    ecs = group.ecs
    keep = group.num_rel_ret if retrieved_only else group.num_rel
    if len(ecs[-1][1]) < keep:  # trec_eval would read past the class
        raise InputError("prefs_avgjg_Rnonrel: fewer non-relevant documents than relevant")
    new_nonrel = ecs[-1][1][:keep]

    def docs(ranks):
        if not retrieved_only:
            return ranks
        return [rank for rank in ranks if rank < njr]  # ranks ascending: the retrieved first

    pairs = [(ecs[i][1], ecs[j][1]) for i in range(len(ecs)) for j in range(i + 1, len(ecs) - 1)]
    pairs += [(ecs[i][1], new_nonrel) for i in range(len(ecs))]
    ful = poss = 0
    for high, low in pairs:
        for r1 in docs(high):
            for r2 in docs(low):
                if r1 < r2 and (retrieved_only or r1 < njr):
                    ful += 1
                else:
                    poss += 1
    return ful, poss + ful


def _pair_value(counts, njr, nj, regions) -> float:
    total, pairs = [], 0
    for region in regions:
        if region == "ret":
            rows, cols = np.triu_indices(njr, 1)
        elif region == "imp":
            grid = np.mgrid[0:njr, njr:nj]
            rows, cols = grid[0].ravel(), grid[1].ravel()
        else:
            rows, cols = np.triu_indices(nj, 1)
            keep = rows >= njr
            rows, cols = rows[keep], cols[keep]
        forward, backward = counts[rows, cols], counts[cols, rows]
        present = (forward > 0) | (backward > 0)
        pairs += int(present.sum())
        if region != "none":
            total.append(forward[present] / (forward[present] + backward[present]))
    values = np.concatenate(total) if total else np.zeros(0)
    value = float(np.cumsum(values)[-1]) if len(values) else 0.0
    return value / pairs if pairs else 0.0


def _measure(name, groups, counts, njr, nj) -> float:
    ful_ret = sum(g.ful_ret for g in groups)
    ful_imp = sum(g.ful_imp for g in groups)
    poss_ret = sum(g.poss_ret for g in groups)
    poss_imp = sum(g.poss_imp for g in groups)
    notoccur = sum(g.notoccur for g in groups)
    if name == "prefs_num_prefs_poss":
        return poss_ret + poss_imp + notoccur
    if name == "prefs_num_prefs_ful":
        return ful_ret + ful_imp
    if name == "prefs_num_prefs_ful_ret":
        return ful_ret
    simple = {"prefs_simp": (ful_ret + ful_imp, poss_ret + poss_imp + notoccur),
              "prefs_simp_ret": (ful_ret, poss_ret),
              "prefs_simp_imp": (ful_ret + ful_imp, poss_ret + poss_imp)}
    if name in simple:
        ful, poss = simple[name]
        return ful / poss if poss else 0.0
    pairs = {"prefs_pair": ("ret", "imp", "none"), "prefs_pair_ret": ("ret",),
             "prefs_pair_imp": ("ret", "imp")}
    if name in pairs:
        return _pair_value(counts, njr, nj, pairs[name])
    total = 0.0
    for g in groups:
        if name == "prefs_avgjg":
            ful, poss = g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp + g.notoccur
        elif name == "prefs_avgjg_ret":
            ful, poss = g.ful_ret, g.poss_ret
        elif name == "prefs_avgjg_imp":
            ful, poss = g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp
        else:
            retrieved_only = name.endswith("_ret")
            big_r = g.num_rel_ret if retrieved_only else g.num_rel
            big_n = g.num_nonrel_ret if retrieved_only else g.num_nonrel
            if big_r >= big_n:
                if retrieved_only:
                    ful, poss = g.ful_ret, g.poss_ret
                else:
                    ful, poss = g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp + g.notoccur
                ful += g.num_rel_ret * (big_r - big_n)
                poss += g.num_rel * (big_r - big_n)
            else:
                ful, poss = _recalculate(g, njr, retrieved_only)
            total += _c_ratio(ful, poss)
            continue
        if poss:
            total += ful / poss
    return total / len(groups) if total > 0.0 else 0.0


def preference_values(prefs: dict, ranked: dict, names: list[str], queries: list[str]) -> dict:
    """``{trec name: [value per query]}`` of preference measures for ``queries``."""
    values: dict[str, list[float]] = {name: [] for name in names}
    for query in queries:
        groups, counts, njr, nj = _counts(prefs[query], ranked.get(query, []))
        for name in names:
            values[name].append(float(_measure(name, groups, counts, njr, nj)))
    return values


def judge_group_values(groups: dict, run, measures, queries, *, relevance_level: float,
                       max_docs, judged_only) -> dict:
    """``{label: values}`` of the ``*_avgjg`` measures: the measure on every judgment
    group's qrels, summed in group order and divided by the number of groups."""
    from reteval.evaluation.columns import evaluate_columns

    inner = {"APAvgJG": "AP", "PAvgJG": "P", "RprecMultAvgJG": "RprecMult"}
    names = sorted({jg for by_group in groups.values() for jg in by_group},
                   key=lambda g: g.encode())
    totals = {label: np.zeros(len(queries)) for label, _ in measures}
    if not totals:  # num_q alone
        return totals
    seen = np.zeros(len(queries))
    position = {q: i for i, q in enumerate(queries)}
    specs = [(label, _inner_measure(m, inner)) for label, m in measures]
    for jg in names:
        qrels = {q: docs[jg] for q, docs in groups.items() if jg in docs and q in position}
        if not qrels:
            continue
        ids, values = evaluate_columns(
            qrels, {q: {d: float(-i) for i, d in enumerate(docs)} for q, docs in run.items()},
            [spec for _, spec in specs], relevance_level=relevance_level, missing="zero",
            judged_only=judged_only, max_docs=max_docs)
        rows = [position[q] for q in ids]
        seen[rows] += 1
        by_spec = dict(zip(dict.fromkeys(spec for _, spec in specs), values.values(),
                           strict=True))  # one measure asked under two names: one column
        for label, spec in specs:
            totals[label][rows] += by_spec[spec]
    return {label: np.where(seen > 1, total / np.maximum(seen, 1), total)
            for label, total in totals.items()}


def _inner_measure(measure, inner):
    from reteval.measures import Measure

    return Measure(inner[measure.family], measure.cutoff)
