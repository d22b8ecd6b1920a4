"""Benchmark: ``reteval compare`` of 20 runs against 20 calls of trec_eval's C program.

The data are synthetic and TREC-sized: 50 queries, 100 judged documents per
query (relevance 0-2), 20 runs of 1,000 documents per query. Run ``k`` ranks
relevant documents a little higher than run ``k - 1``, so the runs differ by
small, graded amounts.

Timed, wall clock, the best of ``--repeats`` rounds (every round's time is printed too);
the two are interleaved round by round, so that both meet the same load on a shared machine:

* ``reteval compare QRELS RUN x 20 -m AP -m nDCG@10 -m P@10 --format json``: one
  process reads the qrels once, evaluates the 20 runs, and runs the ANOVA and
  the randomised Tukey HSD (10,000 rounds) of each measure;
* 20 calls ``trec_eval -m map -m ndcg_cut.10 -m P.10 QRELS RUN``, one after the
  other, as a shell loop does (means only, no statistics).

Then checks that the means agree (trec_eval prints 4 decimals).

reteval's own modules are compiled to bytecode once before timing (installed packages have
theirs) and the children may cache bytecode, as an installed reteval does; one untimed call of
each warms the page cache.

trec_eval 10 is built from its public source: pass ``--trec-eval-src DIR`` (a
checkout of https://github.com/usnistgov/trec_eval) and the bench runs ``make``
in a copy under ``bench/data/trec_eval``; a binary already there is reused, and
``--trec-eval PATH`` takes a built one. Without any, the bench times reteval
alone and says so.

Run: ``python bench/bench_compare.py [--trec-eval-src DIR] [--runs 20] [--queries 50]
[--depth 1000] [--repeats 3]``. Measured numbers: ``bench/README.md`` and ``docs/speed.md``
("Comparing many runs"): with ``--repeats 5`` on a shared 2-core machine, reteval 1.0-1.2 s
against 1.3-1.4 s for the 20 trec_eval calls.
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


def timed(call) -> tuple[float, float, object]:
    """Wall time of one call, the CPU time of its child processes (user + system: on a busy
    machine the fairer comparison) and its value."""
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    value = call()
    return time.perf_counter() - t0, _children_cpu() - cpu0, value


def child_env(**extra) -> dict:
    """The environment of a timed child: ours, allowed to cache bytecode (as an install does)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def compile_reteval() -> None:
    """Write reteval's bytecode once (untimed), as installed site-packages already have theirs."""
    import importlib.util

    spec = importlib.util.find_spec("reteval")
    for location in (spec.submodule_search_locations or []) if spec else []:
        subprocess.run([sys.executable, "-m", "compileall", "-q", location], env=child_env(),
                       check=False, stdout=subprocess.DEVNULL)


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
    env = child_env(RETEVAL_PROGRESS="off")
    compile_reteval()

    def run_reteval():
        done = subprocess.run(reteval_cmd, capture_output=True, text=True, env=env, check=True)
        return json.loads(done.stdout)

    binary = trec_eval_binary(args)

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

    tools = {"reteval": run_reteval}
    if binary is not None:
        tools["trec_eval"] = run_trec_eval
    for call in tools.values():  # untimed: page cache
        call()
    walls = {name: [] for name in tools}
    cpus = {name: [] for name in tools}
    values = {}
    load = os.getloadavg()[0]
    for _ in range(args.repeats):  # interleaved: both tools meet the same load
        for name, call in tools.items():
            wall, cpu, values[name] = timed(call)
            walls[name].append(wall)
            cpus[name].append(cpu)
    doc = values["reteval"]
    t_ours, cpu_ours = min(walls["reteval"]), min(cpus["reteval"])

    def rounds(name):
        return ", ".join(f"{t:.2f}" for t in walls[name])

    print(f"{args.runs} runs x {args.queries} queries x {args.depth} documents "
          f"(best of {args.repeats} interleaved rounds, wall clock; 1-minute load "
          f"average before them {load:.2f}, on {os.cpu_count()} cores)\n")
    print("| tool | wall s (best) | wall s, every round | CPU s (user + sys, best) |")
    print("|---|---:|---:|---:|")
    print(f"| reteval compare (one process: {len(runs)} evaluations, ANOVA + randomised Tukey "
          f"HSD of 3 measures, {doc['n_resamples']} rounds) | {t_ours:.2f} | "
          f"{rounds('reteval')} | {cpu_ours:.2f} |")
    if binary is None:
        print("\ntrec_eval not available: pass --trec-eval-src DIR (a checkout of "
              "usnistgov/trec_eval) or --trec-eval PATH; reteval timed alone.")
        return 0
    t_theirs, cpu_theirs = min(walls["trec_eval"]), min(cpus["trec_eval"])
    theirs = values["trec_eval"]
    shown = subprocess.run([str(binary), "-v"], check=False, capture_output=True, text=True)
    version = (shown.stderr or shown.stdout).strip()
    print(f"| {len(runs)} calls of trec_eval ({version}; means only) | {t_theirs:.2f} | "
          f"{rounds('trec_eval')} | {cpu_theirs:.2f} |")
    print(f"\ntrec_eval / reteval: {t_theirs / t_ours:.2f}x wall, {cpu_theirs / cpu_ours:.2f}x CPU")
    names = {"AP": "map", "nDCG@10": "ndcg_cut_10", "P@10": "P_10"}
    worst = 0.0
    for measure, te in names.items():
        for run, got in theirs.items():
            worst = max(worst, abs(round(doc["means"][measure][run], 4) - got[te]))
    print(f"largest difference of a mean, reteval rounded to trec_eval's 4 decimals: {worst:.4f} "
          f"({'same means' if worst == 0 else 'MEANS DIFFER'})")
    return 0 if worst == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
