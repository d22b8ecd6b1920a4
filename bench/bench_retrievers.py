"""Evaluate every reference retriever on real test collections.

Run it with ``.venv/bin/python bench/bench_retrievers.py`` (``--help`` for the
options). For each dataset (default: SciFact's 300 test queries and
Cranfield's 225 queries, read from ``../shared/data``) and each retriever
(bm25, vector -- the multilingual sentence encoder --, hybrid, reranked, lsa,
and -- when the ``neural`` extra is installed -- neural, hybrid-neural and
reranked-neural), it

1. builds the retriever from the corpus (timed: "build s"),
2. answers all test queries with ``run(queries, k=100)`` (timed: "run s"),
3. scores the run with ``reteval.evaluate`` (nDCG@10, R@100, RR),

and prints one markdown table per dataset. This is a benchmark, not a test:
its one target is printed with the table (bm25 nDCG@10 >= 0.655 on SciFact;
the BEIR paper reports 0.665 for BM25) and the exit status is 1 when it is
missed.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import reteval
from reteval.datasets import load_beir
from reteval.retrievers import HybridRetriever, RerankedRetriever, make_retriever
from reteval.retrievers.vector import neural_available

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
MEASURES = ["nDCG@10", "R@100", "RR"]
TARGET = ("scifact", "bm25", "nDCG@10", 0.655)


def build(name: str, corpus, cache: dict):
    """Build retriever ``name``.

    'reranked-neural' (bm25's top 100 re-scored by MiniLM) and 'hybrid-neural'
    (RRF of bm25 and MiniLM) reuse the bm25 and neural retrievers built before
    them, so their build time counts only what is new.
    """
    if name in ("reranked-neural", "hybrid-neural"):
        first = cache.get("bm25") or make_retriever("bm25", corpus)
        second = cache.get("neural") or make_retriever("neural", corpus)
        if name == "hybrid-neural":
            return HybridRetriever(retrievers=[first, second])
        return RerankedRetriever(first=first, second=second)
    return make_retriever(name, corpus)


def bench_dataset(path: Path, names: list[str], k: int) -> list[dict]:
    t0 = time.perf_counter()
    dataset = load_beir(path)
    load_s = time.perf_counter() - t0
    print(f"\n## {path.name}: {len(dataset.corpus)} documents, {len(dataset.queries)} "
          f"test queries (loaded in {load_s:.1f} s)\n", flush=True)
    rows, cache = [], {}
    for name in names:
        t0 = time.perf_counter()
        retriever = build(name, dataset.corpus, cache)
        built = time.perf_counter()
        run = retriever.run(dataset.queries, k=k)
        ran = time.perf_counter()
        cache[name] = retriever
        scores = reteval.evaluate(dataset.qrels, run, MEASURES).mean()
        rows.append({"dataset": path.name, "retriever": name,
                     **{m: float(scores[m]) for m in MEASURES},
                     "build_s": built - t0, "run_s": ran - built})
        print(f"  {name}: nDCG@10 {scores['nDCG@10']:.4f} "
              f"(build {built - t0:.1f} s, run {ran - built:.1f} s)", file=sys.stderr, flush=True)
    return rows


def markdown(rows: list[dict]) -> str:
    head = "| retriever | " + " | ".join(MEASURES) + " | build s | run s |"
    lines = [head, "|" + "---|" * (len(MEASURES) + 3)]
    for r in rows:
        values = " | ".join(f"{r[m]:.4f}" for m in MEASURES)
        lines.append(f"| {r['retriever']} | {values} | {r['build_s']:.1f} | {r['run_s']:.1f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=SHARED_DATA,
                        help="folder holding the BEIR-layout datasets (default: %(default)s)")
    parser.add_argument("--datasets", nargs="+", default=["scifact", "cranfield"])
    default = ["bm25", "vector", "hybrid", "reranked", "lsa"]
    if neural_available():
        default += ["neural", "hybrid-neural", "reranked-neural"]
    parser.add_argument("--retrievers", nargs="+", default=default,
                        help="default: %(default)s")
    parser.add_argument("-k", type=int, default=100, help="run depth (default: %(default)s)")
    parser.add_argument("--json", type=Path, help="also write the rows to this JSON file")
    args = parser.parse_args(argv)

    print(f"# Reference retrievers ({platform.python_version()}, {platform.machine()}, "
          f"reteval {reteval.__version__})")
    rows = []
    for name in args.datasets:
        path = args.data / name
        if not path.is_dir():
            print(f"\n## {name}: not found at {path}, skipped")
            continue
        found = bench_dataset(path, args.retrievers, args.k)
        print(markdown(found), flush=True)
        rows += found
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))

    dataset, retriever, measure, floor = TARGET
    hit = [r[measure] for r in rows if r["dataset"] == dataset and r["retriever"] == retriever]
    if hit:
        ok = hit[0] >= floor
        print(f"\nTarget: {retriever} {measure} on {dataset} >= {floor}: {hit[0]:.4f} "
              f"{'met' if ok else 'MISSED'}")
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
