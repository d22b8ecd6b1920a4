"""repro_eval's definitions restated from its source, as an oracle for tests/repro.

repro_eval 0.5 (github.com/irgroup/repro_eval) does not import with today's pandas and
scipy, so its definitions are restated here on its own data structures (nested dicts
topic -> {measure: value}, runs topic -> {doc: score} in rank order), from
``measure/effectiveness.py`` (_RMSE), ``measure/overall_effects.py`` (_mean_improvement,
_er, _rel_improve, _DRI), ``measure/document_order.py`` (_KTU, _rbo) and ``util.py``
(break_ties).
"""

import itertools
import math
from collections import OrderedDict

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

# --------------------------------------------------------------------------- the oracle


def oracle_rmse(orig, rep, measure):
    topics = orig.keys()
    diff = np.array([orig[t][measure] for t in topics]) - np.array([rep[t][measure]
                                                                    for t in topics])
    return math.sqrt(sum(np.square(diff)) / len(diff))


def oracle_mean_improvement(run_a, run_b, measure):
    return np.array([run_a[t][measure] - run_b[t][measure] for t in run_a]).mean()


def oracle_er(orig_b, orig_a, rep_b, rep_a, measure):
    return float(oracle_mean_improvement(rep_a, rep_b, measure)
                 / oracle_mean_improvement(orig_a, orig_b, measure))


def oracle_dri(orig_b, orig_a, rep_b, rep_a, measure):
    def mean(scores):
        return np.array([scores[t][measure] for t in scores]).mean()

    def rel_improve(a, b):
        return (mean(a) - mean(b)) / mean(b)

    return float(rel_improve(orig_a, orig_b) - rel_improve(rep_a, rep_b))


def oracle_break_ties(run):
    out = {}
    for topic, ranking in run.items():
        reordered = []
        for _, group in itertools.groupby(list(ranking.items()), lambda item: item[1]):
            reordered.extend(sorted(group, reverse=True))
        out[topic] = OrderedDict(reordered)
    return out


def oracle_ktu(orig_run, rep_run, trim_thresh=1000):
    orig_run, rep_run = oracle_break_ties(orig_run), oracle_break_ties(rep_run)
    out = {}
    for topic in rep_run:
        orig_docs = list(orig_run[topic].keys())[:trim_thresh]
        rep_docs = list(rep_run[topic].keys())[:trim_thresh]
        union = sorted(set(orig_docs + rep_docs))
        orig_idx = [union.index(doc) for doc in orig_docs]
        rep_idx = [union.index(doc) for doc in rep_docs]
        out[topic] = float(round(kendalltau(orig_idx, rep_idx).correlation, 14))
    return out


def oracle_rbo_one(run, ideal, p, depth):
    run_set, ideal_set = set(), set()
    score = normalizer = 0.0
    weight = 1.0
    for i in range(depth):
        if i < len(run):
            run_set.add(run[i])
        if i < len(ideal):
            ideal_set.add(ideal[i])
        score += weight * len(ideal_set.intersection(run_set)) / (i + 1)
        normalizer += weight
        weight *= p
    return score / normalizer


def oracle_rbo(orig_run, rep_run, p, depth):
    orig_run, rep_run = oracle_break_ties(orig_run), oracle_break_ties(rep_run)
    return {t: oracle_rbo_one(list(rep_run[t]), list(orig_run[t]), p, depth) for t in rep_run}


# --------------------------------------------------------------------------- shared inputs


def random_scores(rng, topics, measures=("AP", "P@10")):
    return {t: {m: float(rng.uniform(0.05, 1)) for m in measures} for t in topics}


def column(scores, measure):
    return pd.Series({t: v[measure] for t, v in scores.items()})


def random_run(rng, topics, n_docs=60, pool=90, tie_every=0):
    """Topic -> {doc: score} in rank order (score descending, ties by doc id descending)."""
    run = {}
    for topic in topics:
        docs = rng.choice([f"d{i:03d}" for i in range(pool)], size=n_docs, replace=False)
        scores = np.sort(rng.uniform(0, 10, size=n_docs))[::-1].round(6)
        if tie_every:  # blocks of equal scores, listed by doc id descending (trec_eval)
            scores = np.repeat(scores[::tie_every], tie_every)[:n_docs]
        pairs = sorted(zip(docs.tolist(), scores.tolist(), strict=True),
                       key=lambda x: (-x[1], [-ord(c) for c in x[0]]))
        run[topic] = dict(pairs)
    return run


TOPICS = [f"t{i}" for i in range(1, 26)]
