"""Benchmark: Fisher randomization tests for all pairs of 5 systems x 10,000 queries.

Compares, on the same per-query scores,

* ``reteval.stats.pairwise_tests(scores, test="randomization", n_resamples=R)``
  (all 10 unordered pairs, one matrix product per chunk of rounds), and
* ``ranx.compare(qrels, runs, ["ndcg@10"], stat_test="fisher", n_permutations=R)``
  (numba JIT; the first call in a process includes compilation or loading the
  compiled cache, so both the first and a warm call are timed). With
  ``--ranx-fisher-alone`` ranx's Fisher function is also timed alone on the
  same arrays, without its metric computation, for the 20 ordered pairs that
  ``compare`` tests.

Run: ``python bench/bench_stats.py [--systems 5] [--queries 10000] [--rounds 10000]``.
Prints times in seconds and the largest p-value difference between the two
implementations (both are Monte Carlo estimates of the same exact p-value).
"""

from __future__ import annotations

import argparse
import platform
import time
from importlib import metadata

import numpy as np


def make_data(n_systems: int, n_queries: int, seed: int = 0):
    """Synthetic qrels and runs: 20 candidates per query, 3 of them relevant.

    System ``k`` adds ``0.01 * k`` to the scores of relevant documents, so
    systems differ by small amounts and the p-values spread over (0, 1).
    """
    rng = np.random.default_rng(seed)
    qrels, runs = {}, [{} for _ in range(n_systems)]
    docs = [f"d{j}" for j in range(20)]
    for q in range(n_queries):
        qid = f"q{q}"
        relevant = rng.choice(20, size=3, replace=False)
        qrels[qid] = {docs[j]: int(rng.integers(1, 3)) for j in relevant}
        base = rng.normal(size=20)
        for k in range(n_systems):
            scores = base + rng.normal(scale=1.0, size=20)
            scores[relevant] += 0.01 * k
            runs[k][qid] = {docs[j]: float(scores[j]) for j in range(20)}
    return qrels, runs


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=5)
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--ranx-fisher-alone", action="store_true",
                        help="also time ranx's Fisher function without its metric computation")
    args = parser.parse_args(argv)

    import ranx
    from ranx.statistical_tests import fisher_randomization_test

    from reteval.stats import pairwise_tests

    ranx_version = metadata.version("ranx")
    print(f"python {platform.python_version()}, numpy {np.__version__}, ranx {ranx_version}")
    print(f"{args.systems} systems x {args.queries} queries, {args.rounds} rounds, "
          f"{args.systems * (args.systems - 1) // 2} pairs")

    t0 = time.perf_counter()
    qrels_d, runs_d = make_data(args.systems, args.queries)
    print(f"data generation: {time.perf_counter() - t0:.2f} s")

    qrels = ranx.Qrels(qrels_d)
    runs = [ranx.Run(r, name=f"sys{k}") for k, r in enumerate(runs_d)]
    scores = np.vstack([ranx.evaluate(qrels, run, "ndcg@10", return_mean=False) for run in runs])
    names = [run.name for run in runs]

    # reteval -------------------------------------------------------------------------------
    t0 = time.perf_counter()
    ours = pairwise_tests(scores, test="randomization", names=names, n_resamples=args.rounds,
                          rng=0)
    t_ours_first = time.perf_counter() - t0
    t0 = time.perf_counter()
    ours = pairwise_tests(scores, test="randomization", names=names, n_resamples=args.rounds,
                          rng=1)
    t_ours_warm = time.perf_counter() - t0
    print(f"reteval pairwise_tests (10 pairs):        first {t_ours_first:8.2f} s, "
          f"warm {t_ours_warm:8.2f} s", flush=True)

    # reteval.compare end to end (nDCG@10, bootstrap intervals of the means, Fisher test) ---
    from reteval.comparison import compare

    run_frames = {name: r for name, r in zip(names, runs_d)}
    t0 = time.perf_counter()
    compare(qrels_d, run_frames, ["nDCG@10"], test="randomization", n_resamples=args.rounds,
            rng=0)
    t_full = time.perf_counter() - t0
    print(f"reteval.compare randomization (incl. nDCG@10 and mean CIs): {t_full:8.2f} s",
          flush=True)

    # ranx.compare (metric + Fisher test), as a user calls it ---------------------------------
    kwargs = {"metrics": ["ndcg@10"], "stat_test": "fisher", "n_permutations": args.rounds,
              "max_p": 0.05}
    t0 = time.perf_counter()
    report = ranx.compare(qrels, runs, random_seed=42, **kwargs)
    t_cmp_first = time.perf_counter() - t0
    print(f"ranx.compare fisher (incl. ndcg@10):      first {t_cmp_first:8.2f} s", flush=True)
    t0 = time.perf_counter()
    report = ranx.compare(qrels, runs, random_seed=43, **kwargs)
    t_cmp_warm = time.perf_counter() - t0
    print(f"ranx.compare fisher (incl. ndcg@10):      warm  {t_cmp_warm:8.2f} s", flush=True)
    theirs = {pair: report.comparisons[pair]["ndcg@10"]["p_value"] for pair in ours}

    # optionally ranx's Fisher function alone, every ordered pair as ranx.compare does -------
    if args.ranx_fisher_alone:
        def ranx_fisher_all(seed):
            for i in range(len(names)):
                for j in range(len(names)):
                    if i != j:
                        fisher_randomization_test(scores[i], scores[j], args.rounds, 0.05, seed)

        t0 = time.perf_counter()
        ranx_fisher_all(44)
        print(f"ranx fisher_randomization_test (20 ord.): warm  {time.perf_counter() - t0:8.2f} s")

    # both p-values estimate the same exact p with Monte Carlo error; compare in standard errors
    zs = []
    for pair in ours:
        p = 0.5 * (ours[pair].pvalue + theirs[pair])
        se = np.sqrt(2 * max(p * (1 - p), 1 / args.rounds) / args.rounds)
        zs.append(abs(ours[pair].pvalue - theirs[pair]) / se)
    print("p-values (reteval / ranx): " + ", ".join(
        f"{a}-{b} {ours[a, b].pvalue:.3f}/{theirs[a, b]:.3f}" for a, b in ours))
    print(f"largest |p_reteval - p_ranx| in Monte Carlo standard errors: {max(zs):.2f} "
          "(each library reuses its random rounds for every pair, so errors are correlated "
          "across pairs)")
    print(f"reteval faster than ranx.compare by {t_cmp_warm / t_ours_warm:.0f}x (warm), "
          f"{t_cmp_first / t_ours_first:.0f}x (first call)")


if __name__ == "__main__":
    main()
