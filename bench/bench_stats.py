"""Benchmark: randomization and bootstrap tests for all pairs of 5 systems x 10,000 queries.

Compares, on the same per-query scores,

* reteval's randomization and bootstrap tests with scipy's general-purpose
  ``scipy.stats.permutation_test`` (paired: ``permutation_type="samples"``, the
  statistic the mean difference, vectorised in batches) and
  ``scipy.stats.bootstrap`` (percentile interval of the mean difference),
  for one pair and for all 10 pairs, with the same number of rounds;

* ``reteval.stats.pairwise_tests(scores, test="randomization", n_resamples=R)``
  (all 10 unordered pairs, one matrix product per chunk of rounds), and
* ``ranx.compare(qrels, runs, ["ndcg@10"], stat_test="fisher", n_permutations=R)``
  (numba JIT; the first call in a process includes compilation or loading the
  compiled cache, so both the first and a warm call are timed). With
  ``--ranx-fisher-alone`` ranx's Fisher function is also timed alone on the
  same arrays, without its metric computation, for the 20 ordered pairs that
  ``compare`` tests.

With ``--tukey`` it times instead the randomised Tukey HSD of many systems
(``reteval.stats.tukey_hsd``, default 10 systems x 1,000 topics x 10,000 rounds)
side by side with a plain loop calling ``Generator.permuted`` once per round,
and how far their p-values are apart in Monte Carlo standard errors (both
estimate the same p-values; up to 10 systems reteval draws its permutations
from tables, so the random streams differ).

Run: ``python bench/bench_stats.py [--systems 5] [--queries 10000] [--rounds 10000]
[--skip-ranx]``, or ``python bench/bench_stats.py --tukey [--systems 10] [--queries 1000]``.
Prints times in seconds, the speed-up of reteval, and how far the p-values and intervals
of the implementations are apart (all are Monte Carlo estimates of the same quantities,
so they agree within a few Monte Carlo standard errors).
"""

from __future__ import annotations

import argparse
import platform
import sys
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


def _timed(call):
    t0 = time.perf_counter()
    value = call()
    return value, time.perf_counter() - t0


def against_scipy(scores: np.ndarray, names: list, rounds: int, batch: int) -> None:
    """Time reteval's randomization and bootstrap tests against scipy's on the same scores."""
    from scipy import stats as sps

    from reteval.stats import bootstrap_test, pairwise_tests, randomization_test

    def mean_difference(x, y, axis=-1):
        return np.mean(x - y, axis=axis)

    def scipy_permutation(x, y, seed):
        return sps.permutation_test((x, y), mean_difference, permutation_type="samples",
                                    vectorized=True, n_resamples=rounds, batch=batch,
                                    alternative="two-sided", rng=seed)

    def scipy_bootstrap(x, y, seed):
        return sps.bootstrap((x - y,), np.mean, n_resamples=rounds, batch=batch,
                             vectorized=True, method="percentile", confidence_level=0.95, rng=seed)

    x, y = scores[0], scores[1]
    # untimed first calls: imports and first-use costs of both libraries
    randomization_test(x, y, n_resamples=10, rng=0)
    bootstrap_test(x, y, n_resamples=10, rng=0)
    sps.permutation_test((x, y), mean_difference, permutation_type="samples", vectorized=True,
                         n_resamples=10, rng=0)
    sps.bootstrap((x - y,), np.mean, n_resamples=10, vectorized=True, method="percentile", rng=0)
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    print(f"\n### reteval against scipy.stats ({len(x)} queries, {rounds} rounds; "
          f"scipy vectorised in batches of {batch})\n")
    print("| test | reteval s | scipy s | scipy / reteval | reteval p or CI | scipy p or CI |")
    print("|---|---:|---:|---:|---|---|")
    ours, t_ours = _timed(lambda: randomization_test(x, y, n_resamples=rounds, rng=0))
    theirs, t_theirs = _timed(lambda: scipy_permutation(x, y, 0))
    print(f"| randomization, one pair | {t_ours:.2f} | {t_theirs:.2f} | {t_theirs / t_ours:.1f}x "
          f"| p {ours.pvalue:.4f} | p {theirs.pvalue:.4f} |", flush=True)
    ours, t_ours = _timed(lambda: bootstrap_test(x, y, n_resamples=rounds, rng=0))
    theirs, t_theirs = _timed(lambda: scipy_bootstrap(x, y, 0))
    ci = ours.confidence_interval()
    print(f"| bootstrap CI of the mean difference, one pair | {t_ours:.2f} | {t_theirs:.2f} | "
          f"{t_theirs / t_ours:.1f}x | [{ci.low:.5f}, {ci.high:.5f}] | "
          f"[{theirs.confidence_interval.low:.5f}, {theirs.confidence_interval.high:.5f}] |",
          flush=True)
    for test, scipy_call in (("randomization", scipy_permutation), ("bootstrap", scipy_bootstrap)):
        ours, t_ours = _timed(lambda test=test: pairwise_tests(
            scores, test=test, names=names, n_resamples=rounds, rng=0))
        theirs, t_theirs = _timed(lambda call=scipy_call: [call(scores[i], scores[j], k)
                                                            for k, (i, j) in enumerate(pairs)])
        if test == "randomization":
            low, high = min(r.pvalue for r in ours.values()), max(r.pvalue for r in ours.values())
            shown = (f"p {low:.4f}-{high:.4f}",
                     f"p {min(r.pvalue for r in theirs):.4f}-{max(r.pvalue for r in theirs):.4f}")
        else:
            shown = ("CIs", "CIs")
        print(f"| {test}, all {len(pairs)} pairs | {t_ours:.2f} | {t_theirs:.2f} | "
              f"{t_theirs / t_ours:.1f}x | {shown[0]} | {shown[1]} |", flush=True)
    print()


def tukey_against_loop(n_systems: int, n_topics: int, rounds: int, repeats: int = 3) -> None:
    """Randomised Tukey HSD: reteval's chunked permutations against a loop of ``permuted``."""
    from reteval.stats import tukey_hsd

    rng = np.random.default_rng(0)
    topic = rng.uniform(0.1, 0.7, size=(n_topics, 1))
    x = topic + rng.normal(0, 0.1, size=(n_topics, n_systems)) + 0.005 * np.arange(n_systems)

    def loop(seed):
        gen = np.random.default_rng(seed)
        ranges = np.empty(rounds)
        for r in range(rounds):
            means = gen.permuted(x, axis=1).mean(axis=0)
            ranges[r] = means.max() - means.min()
        means = x.mean(axis=0)
        observed = np.abs(means[:, None] - means[None, :]) * (1 - 1e-9)
        count = (ranges[None, None, :] >= observed[:, :, None]).sum(axis=2)
        return (count + 1) / (rounds + 1)

    tukey_hsd(x[:20], n_resamples=10, rng=0)  # untimed: imports
    t_ours = min(_timed(lambda: tukey_hsd(x, n_resamples=rounds, rng=1))[1]
                 for _ in range(repeats))
    t_loop = min(_timed(lambda: loop(1))[1] for _ in range(repeats))
    ours = tukey_hsd(x, n_resamples=rounds, rng=1).pvalue.to_numpy()
    theirs = loop(2)
    upper = np.triu_indices(n_systems, 1)
    p = 0.5 * (ours[upper] + theirs[upper])
    se = np.sqrt(2 * np.maximum(p * (1 - p), 1 / rounds) / rounds)
    z = float(np.max(np.abs(ours[upper] - theirs[upper]) / se))
    print(f"\n### randomised Tukey HSD, {n_systems} systems x {n_topics} topics x {rounds} rounds "
          f"(best of {repeats})\n")
    print("| implementation | seconds |")
    print("|---|---:|")
    print(f"| reteval.stats.tukey_hsd (chunks of rounds, vectorised) | {t_ours:.2f} |")
    print(f"| plain loop: Generator.permuted per round | {t_loop:.2f} |")
    print(f"\nloop / reteval: {t_loop / t_ours:.2f}x; p-values {ours[upper].min():.4f}.."
          f"{ours[upper].max():.4f}; largest difference from the loop's: {z:.2f} Monte Carlo "
          "standard errors")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=5)
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=500,
                        help="rounds per vectorised call of scipy's permutation_test and bootstrap")
    parser.add_argument("--skip-ranx", action="store_true",
                        help="time reteval against scipy only (ranx's compare takes minutes)")
    parser.add_argument("--ranx-fisher-alone", action="store_true",
                        help="also time ranx's Fisher function without its metric computation")
    parser.add_argument("--tukey", action="store_true",
                        help="time the randomised Tukey HSD against a loop of Generator.permuted "
                        "(defaults then 10 systems x 1,000 topics)")
    args = parser.parse_args(argv)
    if args.tukey:
        systems = args.systems if "--systems" in (argv or sys.argv) else 10
        queries = args.queries if "--queries" in (argv or sys.argv) else 1_000
        tukey_against_loop(systems, queries, args.rounds)
        return

    from reteval import evaluate
    from reteval.stats import pairwise_tests

    versions = ", ".join(f"{p} {metadata.version(p)}" for p in ("numpy", "scipy", "ranx"))
    print(f"python {platform.python_version()}, {versions}")
    print(f"{args.systems} systems x {args.queries} queries, {args.rounds} rounds, "
          f"{args.systems * (args.systems - 1) // 2} pairs")

    t0 = time.perf_counter()
    qrels_d, runs_d = make_data(args.systems, args.queries)
    print(f"data generation: {time.perf_counter() - t0:.2f} s")

    names = [f"sys{k}" for k in range(args.systems)]
    scores = np.vstack([evaluate(qrels_d, run, ["nDCG@10"])["nDCG@10"].to_numpy()
                        for run in runs_d])
    against_scipy(scores, names, args.rounds, args.batch)
    if args.skip_ranx:
        return

    import ranx
    from ranx.statistical_tests import fisher_randomization_test

    qrels = ranx.Qrels(qrels_d)
    runs = [ranx.Run(r, name=f"sys{k}") for k, r in enumerate(runs_d)]
    scores = np.vstack([ranx.evaluate(qrels, run, "ndcg@10", return_mean=False) for run in runs])

    # reteval against ranx --------------------------------------------------------------------
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

    run_frames = {name: r for name, r in zip(names, runs_d, strict=True)}
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
