"""Benchmark: ``reteval compare`` of 20 runs against 20 calls of trec_eval's C program.

The data are synthetic and TREC-sized: 50 queries, 100 judged documents per
query (relevance 0-2), 20 runs of 1,000 documents per query. Run ``k`` ranks
relevant documents a little higher than run ``k - 1``, so the runs differ by
small, graded amounts.

Timed, wall clock, each the best of ``--repeats``:

* ``reteval compare QRELS RUN x 20 -m AP -m nDCG@10 -m P@10 --format json``: one
  process reads the qrels once, evaluates the 20 runs, and runs the ANOVA and
  the randomised Tukey HSD (10,000 rounds) of each measure;
* 20 calls ``trec_eval -m map -m ndcg_cut.10 -m P.10 QRELS RUN``, one after the
  other, as a shell loop does (means only, no statistics).

Then checks that the means agree (trec_eval prints 4 decimals).

trec_eval 10 is built from its public source: pass ``--trec-eval-src DIR`` (a
checkout of https://github.com/usnistgov/trec_eval) and the bench runs ``make``
in a copy under ``bench/data/trec_eval``; a binary already there is reused, and
``--trec-eval PATH`` takes a built one. Without any, the bench times reteval
alone and says so.

Run: ``python bench/bench_compare.py [--trec-eval-src DIR] [--runs 20] [--queries 50]
[--depth 1000] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def make_data(folder: Path, n_runs: int, n_queries: int, depth: int, seed: int = 0):
    """Write ``qrels.txt`` and ``run00.run`` ... into ``folder``; return their paths."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    pool = 5 * depth
    judged = {}
    with open(folder / "qrels.txt", "w") as f:
        for q in range(1, n_queries + 1):
            docs = rng.choice(pool, size=100, replace=False)
            rels = rng.choice([0, 0, 1, 2], size=100)
            judged[q] = dict(zip(docs.tolist(), rels.tolist(), strict=True))
            f.writelines(f"{q} 0 D{d} {r}\n" for d, r in judged[q].items())
    runs = []
    for k in range(n_runs):
        path = folder / f"run{k:02d}.run"
        with open(path, "w") as f:
            for q in range(1, n_queries + 1):
                docs = rng.choice(pool, size=depth, replace=False)
                rel = np.array([judged[q].get(d, 0) for d in docs.tolist()])
                scores = rng.normal(size=depth) + (0.3 + 0.03 * k) * rel
                order = np.argsort(-scores, kind="stable")
                f.writelines(f"{q} Q0 D{docs[i]} {r + 1} {scores[i]:.6f} run{k:02d}\n"
                             for r, i in enumerate(order))
        runs.append(path)
    return folder / "qrels.txt", runs


def trec_eval_binary(args) -> Path | None:
    if args.trec_eval:
        return Path(args.trec_eval)
    built = DATA / "trec_eval" / "trec_eval"
    if built.exists():
        return built
    if args.trec_eval_src:
        target = DATA / "trec_eval"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(args.trec_eval_src, target, ignore=shutil.ignore_patterns(".git"))
        subprocess.run(["make"], cwd=target, check=True, capture_output=True)
        return built
    return None


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_of(repeats: int, call) -> tuple[float, object, float]:
    """Best wall time of ``repeats`` calls, the last value, and the best CPU time of the
    child processes (user + system: on a busy machine the fairer comparison)."""
    best, value, best_cpu = float("inf"), None, float("inf")
    for _ in range(repeats):
        cpu0 = _children_cpu()
        t0 = time.perf_counter()
        value = call()
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, _children_cpu() - cpu0)
    return best, value, best_cpu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--trec-eval", help="a built trec_eval binary")
    parser.add_argument("--trec-eval-src", help="trec_eval source checkout to build")
    args = parser.parse_args(argv)

    folder = DATA / f"compare_{args.runs}x{args.queries}x{args.depth}"
    qrels, runs = make_data(folder, args.runs, args.queries, args.depth)
    reteval_cmd = [sys.executable, "-m", "reteval.cli", "-q", "compare", str(qrels),
                   *map(str, runs), "-m", "AP", "-m", "nDCG@10", "-m", "P@10",
                   "--format", "json"]
    env = dict(os.environ, RETEVAL_PROGRESS="off")

    def run_reteval():
        done = subprocess.run(reteval_cmd, capture_output=True, text=True, env=env, check=True)
        return json.loads(done.stdout)

    t_ours, doc, cpu_ours = best_of(args.repeats, run_reteval)
    print(f"{args.runs} runs x {args.queries} queries x {args.depth} documents "
          f"(best of {args.repeats}, wall clock)\n")
    print("| tool | wall s | CPU s (user + sys) |")
    print("|---|---:|---:|")
    print(f"| reteval compare (one process: {len(runs)} evaluations, ANOVA + randomised Tukey "
          f"HSD of 3 measures, {doc['n_resamples']} rounds) | {t_ours:.2f} | {cpu_ours:.2f} |")
    binary = trec_eval_binary(args)
    if binary is None:
        print("\ntrec_eval not available: pass --trec-eval-src DIR (a checkout of "
              "usnistgov/trec_eval) or --trec-eval PATH; reteval timed alone.")
        return 0

    def run_trec_eval():
        out = {}
        for path in runs:
            done = subprocess.run([str(binary), "-m", "map", "-m", "ndcg_cut.10", "-m", "P.10",
                                   str(qrels), str(path)], capture_output=True, text=True,
                                  check=True)
            values = {}
            for line in done.stdout.splitlines():
                name, query, value = line.split()
                if query == "all":
                    values[name] = float(value)
            out[path.stem] = values
        return out

    t_theirs, theirs, cpu_theirs = best_of(args.repeats, run_trec_eval)
    shown = subprocess.run([str(binary), "-v"], check=False, capture_output=True, text=True)
    version = (shown.stderr or shown.stdout).strip()
    print(f"| {len(runs)} calls of trec_eval ({version}; means only) | {t_theirs:.2f} | "
          f"{cpu_theirs:.2f} |")
    print(f"\ntrec_eval / reteval: {t_theirs / t_ours:.2f}x wall, {cpu_theirs / cpu_ours:.2f}x CPU")
    names = {"AP": "map", "nDCG@10": "ndcg_cut_10", "P@10": "P_10"}
    worst = 0.0
    for measure, te in names.items():
        for run, values in theirs.items():
            worst = max(worst, abs(round(doc["means"][measure][run], 4) - values[te]))
    print(f"largest difference of a mean, reteval rounded to trec_eval's 4 decimals: {worst:.4f} "
          f"({'same means' if worst == 0 else 'MEANS DIFFER'})")
    return 0 if worst == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
