"""Evaluate the 10,000 x 1,000 run in memory and on Dask: time and peak memory per worker.

Run it with ``.venv/bin/python bench/bench_dask.py`` (``--help`` for options).

The script

1. takes the run and qrels that ``bench/bench_evaluate.py`` generates (same
   generator, same seed, same cache in ``bench/data/``) and writes the run as
   parquet datasets (columns ``query_id``, ``doc_id``, ``score``) with
   several numbers of rows per file, in the run's query order, so that files
   cut through queries whenever the size is not a multiple of 1,000;
2. evaluates each dataset in a fresh child process:

   * ``memory``: ``pandas.read_parquet`` of the folder, then
     ``reteval.evaluate``: wall time and the peak resident memory of the
     process;
   * ``dask``: a ``LocalCluster`` of 2 worker processes with one thread each;
     ``reteval.evaluation.distributed.read_run_dask`` and ``reteval.evaluate`` (which
     shuffles on ``query_id`` and evaluates each partition): wall time
     (cluster start-up excluded, reported apart) and the resident memory of
     each worker (read in the worker with ``client.run``): after start-up, and
     its peak after the evaluation;
3. checks that every Dask result equals the in-memory result exactly, and
   prints a markdown table.

Peak memory is the high-water mark of each process's resident set: ``VmHWM``
from ``/proc/self/status`` on Linux. (``getrusage().ru_maxrss`` is not used
where ``VmHWM`` exists: on Linux it carries the parent's peak over ``fork`` and
``exec``, so a worker spawned by a big client would report the client's peak.)
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MEASURES = ["nDCG@10", "AP", "R@100", "P@10", "RR"]


def _bench_evaluate():
    """The data generator of bench_evaluate.py (same folder), imported by path."""
    spec = importlib.util.spec_from_file_location("bench_evaluate", HERE / "bench_evaluate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------ children


def peak_mb() -> float:
    """This process's peak resident memory in MB (VmHWM; ru_maxrss where /proc is absent)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20


def current_mb() -> float:
    """This process's resident memory now, in MB (VmRSS), or its peak where /proc is absent."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return peak_mb()


def child_memory(qrels_path: str, folder: str, out: str) -> dict:
    t0 = time.perf_counter()
    import pandas as pd

    from reteval import evaluate, read_qrels

    t1 = time.perf_counter()
    qrels = read_qrels(qrels_path)
    run = pd.read_parquet(folder)
    t2 = time.perf_counter()
    per_query = evaluate(qrels, run, MEASURES)
    t3 = time.perf_counter()
    per_query.to_parquet(out)
    return {"import": t1 - t0, "read": t2 - t1, "evaluate": t3 - t2, "total": t3 - t1,
            "rows": len(run), "rss_mb": peak_mb()}


def _warm_up() -> None:
    import pyarrow.parquet  # noqa: F401

    import reteval.evaluation.distributed  # noqa: F401


def child_dask(qrels_path: str, folder: str, out: str, workers: int, indexed: bool) -> dict:
    import logging

    t0 = time.perf_counter()
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    from reteval import evaluate, read_qrels
    from reteval.evaluation.distributed import read_run_dask

    t1 = time.perf_counter()
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        client.run(_warm_up)  # imports, as the in-memory child has them before its clock starts
        t2 = time.perf_counter()
        idle = client.run(current_mb)
        limit = [w["memory_limit"] for w in client.scheduler_info()["workers"].values()]
        qrels = read_qrels(qrels_path)
        if indexed:  # sorted by query id, whole queries per file: known divisions, no shuffle
            run = dd.read_parquet(folder, index="query_id", calculate_divisions=True)
            if not run.known_divisions:
                raise SystemExit(f"{folder}: divisions are not known")
        else:
            run = read_run_dask(folder)
        per_query = evaluate(qrels, run, MEASURES)
        t3 = time.perf_counter()
        peak = client.run(peak_mb)
    per_query.to_parquet(out)
    return {"import": t1 - t0, "cluster_start_and_worker_imports": t2 - t1, "total": t3 - t2,
            "partitions": run.npartitions,
            "worker_idle_mb": sorted(idle.values()), "worker_peak_mb": sorted(peak.values()),
            "worker_memory_limit_mb": [x / 2**20 for x in limit],
            "client_peak_mb": peak_mb()}


# ------------------------------------------------------------------ data


def _read_trec(run_path: Path):
    import pyarrow as pa
    import pyarrow.csv as pacsv

    return pacsv.read_csv(
        run_path,
        read_options=pacsv.ReadOptions(
            column_names=["query_id", "iter", "doc_id", "rank", "score", "tag"],
            block_size=1 << 24),
        parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False),
        convert_options=pacsv.ConvertOptions(
            include_columns=["query_id", "doc_id", "score"],
            column_types={"query_id": pa.string(), "doc_id": pa.string(), "score": pa.float64()}),
    )


def write_datasets(run_path: Path, sizes: list[int], indexed_size: int,
                   root: Path) -> dict[str, Path]:
    """Parquet copies of the TREC run.

    ``rows-N``: files of N rows in the run's order (by query, as written).
    ``indexed-N``: the rows sorted by query id (string order) and cut into
    files of N rows; read with ``index="query_id", calculate_divisions=True``
    they have known divisions when N is a multiple of the rows per query.
    """
    import pyarrow.parquet as pq

    wanted = {f"rows-{s}": (s, False) for s in sizes}
    if indexed_size:
        wanted[f"indexed-{indexed_size}"] = (indexed_size, True)
    todo = [name for name in wanted if not (root / name / "_done").exists()]
    if todo:
        print(f"writing parquet datasets {todo} ...", flush=True)
        table = _read_trec(run_path)
        for name in todo:
            size, indexed = wanted[name]
            rows = table.sort_by("query_id") if indexed else table
            folder = root / name
            folder.mkdir(parents=True, exist_ok=True)
            for number, start in enumerate(range(0, rows.num_rows, size)):
                pq.write_table(rows.slice(start, size), folder / f"part-{number:04d}.parquet",
                               row_group_size=size)
            (folder / "_done").write_text("")
    return {name: root / name for name in wanted}


def run_child(args: list[str], repeat: int = 1) -> dict:
    """Run a child ``repeat`` times: its best time, and the highest memory figures."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, str(Path(__file__).resolve()), *args],
                             capture_output=True, text=True, check=False)
        if out.returncode != 0:
            raise SystemExit(f"child {args[:2]} failed:\n{out.stderr[-4000:]}")
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    best = dict(min(runs, key=lambda r: r["total"]))
    for key, value in best.items():
        if key.endswith("_mb"):
            best[key] = (max(r[key] for r in runs) if isinstance(value, float) else
                         [max(col) for col in zip(*(r[key] for r in runs), strict=True)])
    best["times"] = [r["total"] for r in runs]
    return best


# ------------------------------------------------------------------ main


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--sizes", default="250000,500000,1000000,2500000",
                   help="rows per parquet file (= per Dask partition), comma-separated")
    p.add_argument("--indexed-size", type=int, default=1_000_000,
                   help="rows per file of the dataset sorted and indexed by query id, read "
                   "without a shuffle (0: skip it)")
    p.add_argument("--queries", type=int, default=10_000, help="queries in the generated run")
    p.add_argument("--docs", type=int, default=1_000, help="retrieved documents per query")
    p.add_argument("--repeat", type=int, default=1,
                   help="runs per case: the best time and the highest peaks are reported")
    p.add_argument("--workers", type=int, default=2, help="Dask worker processes")
    p.add_argument("--data-dir", default=str(HERE / "data"), help="where data are cached")
    p.add_argument("--json", metavar="PATH", help="also write all measurements as JSON")
    p.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.child:
        kind, *rest = args.child
        if kind == "memory":
            result = child_memory(*rest)
        else:
            result = child_dask(*rest[:3], int(rest[3]), rest[4] == "indexed")
        print(json.dumps(result))
        return 0

    import pandas as pd
    from pandas.testing import assert_frame_equal

    sizes = [int(s) for s in args.sizes.split(",")]
    gen = _bench_evaluate()
    gen_args = gen.build_parser().parse_args(
        ["--data-dir", args.data_dir, "--queries", str(args.queries), "--docs", str(args.docs)])
    qrels_path, run_path, meta = gen.ensure_data(gen_args)
    folders = write_datasets(run_path, sizes, args.indexed_size,
                             Path(args.data_dir) / f"dask-{run_path.stem}")
    cases = [(f"rows-{s}", s, False) for s in sizes]
    if args.indexed_size:
        cases.append((f"indexed-{args.indexed_size}", args.indexed_size, True))
    load_before = os.getloadavg()
    results = {}
    with tempfile.TemporaryDirectory(prefix="reteval-bench-dask-") as scratch:
        reference = Path(scratch) / "memory.parquet"
        print("in memory ...", flush=True)
        results["memory"] = run_child(["--child", "memory", str(qrels_path),
                                       str(folders[cases[0][0]]), str(reference)], args.repeat)
        expected = pd.read_parquet(reference)
        for name, _, indexed in cases:
            print(f"dask, {name} ...", flush=True)
            out = Path(scratch) / f"dask-{name}.parquet"
            results[name] = run_child(["--child", "dask", str(qrels_path), str(folders[name]),
                                       str(out), str(args.workers),
                                       "indexed" if indexed else "shuffle"], args.repeat)
            assert_frame_equal(pd.read_parquet(out), expected, check_exact=True)
            results[name]["identical_to_memory"] = True
    load_after = os.getloadavg()

    mem = results["memory"]
    lines = [
        (f"Run: {meta['run_lines']:,} rows ({gen_args.queries:,} queries x {gen_args.docs:,} "
         f"documents), {meta['qrels_lines']:,} judgments; measures {', '.join(MEASURES)}."),
        (f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
         f"{platform.python_version()}; load average {load_before[0]:.1f} before, "
         f"{load_after[0]:.1f} after."),
        "",
        "| engine | rows per partition | partitions | time (s) | peak memory per process (MB) |",
        "|---|---:|---:|---:|---:|",
        (f"| in memory (read parquet + evaluate) | all | 1 | {mem['total']:.1f} | "
         f"{mem['rss_mb']:,.0f} |"),
    ]
    for name, size, indexed in cases:
        r = results[name]
        peaks = " / ".join(f"{x:,.0f}" for x in r["worker_peak_mb"])
        how = "indexed by query, no shuffle" if indexed else "shuffle on query_id"
        lines.append(f"| Dask, {args.workers} workers, {how} | {size:,} | {r['partitions']} | "
                     f"{r['total']:.1f} | {peaks} (idle {max(r['worker_idle_mb']):,.0f}) |")
    starts = [results[name]["cluster_start_and_worker_imports"] for name, _, _ in cases]
    lines += ["", (f"Times exclude imports; for Dask also starting the cluster and importing "
                   f"reteval in the workers ({min(starts):.1f}-{max(starts):.1f} s). Dask memory: "
                   "each worker's peak (idle: after start-up and imports). Every Dask result "
                   "equals the in-memory result exactly. The client process (which also runs "
                   "the scheduler of the local cluster) peaks at "
                   f"{max(results[n]['client_peak_mb'] for n, _, _ in cases):,.0f} MB.")]
    text = "\n".join(lines)
    print()
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"data": meta, "cases": cases, "workers": args.workers, "results":
             {str(k): v for k, v in results.items()},
             "load_average": {"before": load_before, "after": load_after}}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
