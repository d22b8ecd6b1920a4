"""Time reteval's ``evaluate`` CLI against pytrec_eval, ranx and a read-and-sort floor.

Run it with ``make bench`` or ``.venv/bin/python bench/bench_evaluate.py --help``.

The script

1. generates a synthetic TREC run (default 10,000 queries x 1,000 documents)
   and graded qrels (about 10 judgments per query, relevance 0-3, some of the
   judged documents retrieved and some not) from a seeded
   ``numpy.random.Generator``, and caches both files in ``bench/data/``
   (regenerated whenever a generation parameter changes);
2. runs each tool as its own child process from the same files, end to end
   (interpreter start, imports, parsing, evaluation), and reads the child's
   wall time and peak resident memory (``os.wait4`` gives the resource usage of
   exactly that child);
3. checks that reteval's means agree with pytrec_eval's, and prints a markdown
   table with the targets of the speed issue and the machine it ran on.

Scores lie in (-8, 8) with six decimals: at that magnitude float32 still
separates any two distinct six-decimal values, so pytrec_eval (which ranks on
float32 scores) and reteval (float64) order the documents the same way and
their values can be compared exactly.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DEFAULT_DATA_DIR = HERE / "data"
FORMAT_VERSION = 1  # bump when the generator changes: cached files are then rebuilt

# reteval name -> (pytrec_eval request, pytrec_eval result key, ranx name)
MEASURES = {
    "nDCG@10": ("ndcg_cut.10", "ndcg_cut_10", "ndcg@10"),
    "AP": ("map", "map", "map"),
    "R@100": ("recall.100", "recall_100", "recall@100"),
    "P@10": ("P.10", "P_10", "precision@10"),
    "RR": ("recip_rank", "recip_rank", "mrr"),
}

TOOLS = ("reteval", "pytrec_eval", "ranx-fresh", "ranx-warm", "floor")
LABELS = {
    "reteval": "reteval CLI",
    "pytrec_eval": "pytrec_eval (parse + evaluate)",
    "ranx-fresh": "ranx, fresh numba cache",
    "ranx-warm": "ranx, warm numba cache",
    "floor": "floor: pyarrow read + lexsort",
}

# ------------------------------------------------------------------ child programs
# Each runs in a fresh interpreter, prints one JSON object on stdout: the means
# it computed (if any) and the time of each phase measured inside the process.

PYTREC_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import pytrec_eval
t1 = time.perf_counter()
qrels_path, run_path, requests, keys = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4].split(",")
with open(qrels_path) as f:
    qrels = pytrec_eval.parse_qrel(f)
t2 = time.perf_counter()
with open(run_path) as f:
    run = pytrec_eval.parse_run(f)
t3 = time.perf_counter()
evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(requests))
t4 = time.perf_counter()
per_query = evaluator.evaluate(run)
t5 = time.perf_counter()
n = len(per_query)
means = {k: sum(v[k] for v in per_query.values()) / n for k in keys}
print(json.dumps({"means": means, "num_queries": n, "phases": {
    "import": t1 - t0, "parse_qrel": t2 - t1, "parse_run": t3 - t2,
    "RelevanceEvaluator": t4 - t3, "evaluate": t5 - t4}}))
"""

RANX_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from ranx import Qrels, Run, evaluate
t1 = time.perf_counter()
qrels_path, run_path, names = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
qrels = Qrels.from_file(qrels_path, kind="trec")
t2 = time.perf_counter()
run = Run.from_file(run_path, kind="trec")
t3 = time.perf_counter()
means = evaluate(qrels, run, names)
t4 = time.perf_counter()
print(json.dumps({"means": {k: float(v) for k, v in means.items()}, "phases": {
    "import": t1 - t0, "Qrels.from_file": t2 - t1, "Run.from_file": t3 - t2, "evaluate": t4 - t3}}))
"""

FLOOR_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
t1 = time.perf_counter()
table = pacsv.read_csv(
    sys.argv[1],
    read_options=pacsv.ReadOptions(
        column_names=["qid", "iter", "docno", "rank", "score", "tag"], block_size=1 << 24),
    parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False, escape_char=False),
    convert_options=pacsv.ConvertOptions(
        include_columns=["qid", "docno", "score"],
        column_types={"qid": pa.string(), "docno": pa.string(), "score": pa.float64()}),
)
t2 = time.perf_counter()
codes = pc.dictionary_encode(table.column("qid").combine_chunks()).indices.to_numpy()
scores = table.column("score").to_numpy()
order = np.lexsort((-scores, codes))
t3 = time.perf_counter()
print(json.dumps({"rows": int(order.size), "phases": {
    "import": t1 - t0, "read_csv": t2 - t1, "encode + lexsort": t3 - t2}}))
"""

RETEVAL_API_CHILD = r"""
import json, sys, time, warnings
t0 = time.perf_counter()
from reteval.evaluate import aggregate, evaluate
from reteval.io import read_qrels, read_run
t1 = time.perf_counter()
qrels = read_qrels(sys.argv[1])
t2 = time.perf_counter()
run = read_run(sys.argv[2])
t3 = time.perf_counter()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    per_query = evaluate(qrels, run, sys.argv[3].split(","))
t4 = time.perf_counter()
means = aggregate(per_query)
t5 = time.perf_counter()
print(json.dumps({"means": {k: float(v) for k, v in means.items()}, "phases": {
    "import": t1 - t0, "read_qrels": t2 - t1, "read_run": t3 - t2,
    "evaluate (from DataFrames)": t4 - t3, "aggregate": t5 - t4}}))
"""


# ------------------------------------------------------------------ data


def _params(args) -> dict:
    return {
        "format_version": FORMAT_VERSION,
        "queries": args.queries,
        "docs": args.docs,
        "judged": args.judged,
        "seed": args.seed,
    }


def _unique_rows(ids: np.ndarray, pool: int) -> np.ndarray:
    """Sort each row and nudge repeated values until every row holds distinct ids."""
    ids = np.sort(ids, axis=1)
    while True:
        dup = np.zeros(ids.shape, dtype=bool)
        dup[:, 1:] = ids[:, 1:] == ids[:, :-1]
        if not dup.any():
            return ids
        ids[dup] += 1
        ids %= pool
        ids.sort(axis=1)


def generate(queries: int, docs: int, judged: float, rng: np.random.Generator):
    """Make a run and qrels as arrays.

    Returns
    -------
    run : dict of arrays
        ``qid`` (str, one per query), ``doc`` (int, queries x docs, in rank
        order), ``score`` (float, queries x docs, non-increasing per row).
    qrels : dict of arrays
        ``qrow`` (query row index), ``doc`` (int), ``rel`` (int 0-3).
    """
    pool = 10_000_000  # doc ids doc0000000 .. doc9999999
    if docs > pool // 4:
        raise SystemExit(f"--docs must be at most {pool // 4}; got {docs}")
    # Query ids: distinct numbers written in numeric order (not string order).
    qnums = np.sort(rng.choice(np.arange(1, 2_000_000), size=queries, replace=False))
    qids = qnums.astype(str)

    # Retrieved docs: distinct per query, in random order down the ranking.
    ids = _unique_rows(rng.integers(0, pool, size=(queries, docs)), pool)
    ids = rng.permuted(ids, axis=1)

    # Scores: logit-like, six decimals, non-increasing down the ranking. A few
    # exact ties arise by chance; about 0.1% more are made on purpose by copying
    # the score above.
    scores = np.round(np.clip(rng.normal(0.0, 2.0, size=(queries, docs)), -7.9, 7.9), 6)
    scores = -np.sort(-scores, axis=1)
    copy = rng.random((queries, docs)) < 0.001
    copy[:, 0] = False
    source = np.where(copy, 0, np.arange(docs))
    np.maximum.accumulate(source, axis=1, out=source)
    scores = np.take_along_axis(scores, source, axis=1)

    # Judgments: about `judged` per query; ~60% drawn from the retrieved list
    # (biased to the top, as pooling does), the rest unretrieved documents.
    n_judged = np.maximum(rng.poisson(judged, size=queries), 1)
    n_ret = np.minimum(rng.binomial(n_judged, 0.6), docs)
    n_unret = n_judged - n_ret
    weights = 1.0 / (np.arange(docs) + 10.0)
    weights /= weights.sum()
    top_rel = np.array([0.35, 0.30, 0.20, 0.15])
    low_rel = np.array([0.65, 0.20, 0.10, 0.05])
    unret_rel = np.array([0.50, 0.30, 0.15, 0.05])
    qrow, qdoc, qrel = [], [], []
    for q in range(queries):
        ranks = rng.choice(docs, size=n_ret[q], replace=False, p=weights)
        rel_top = rng.choice(4, size=ranks.size, p=top_rel)
        rel_low = rng.choice(4, size=ranks.size, p=low_rel)
        rels = np.where(ranks < 20, rel_top, rel_low)
        fresh = rng.integers(0, pool, size=2 * n_unret[q] + 4)
        fresh = np.unique(fresh[~np.isin(fresh, ids[q])])[: n_unret[q]]
        fresh = rng.permuted(fresh)
        docs_q = np.concatenate([ids[q, ranks], fresh])
        rels_q = np.concatenate([rels, rng.choice(4, size=fresh.size, p=unret_rel)])
        order = rng.permutation(docs_q.size)
        qrow.append(np.full(docs_q.size, q))
        qdoc.append(docs_q[order])
        qrel.append(rels_q[order])
    run = {"qid": qids, "doc": ids, "score": scores}
    qrels = {"qrow": np.concatenate(qrow), "doc": np.concatenate(qdoc), "rel": np.concatenate(qrel)}
    return run, qrels


def _doc_strings(ids: np.ndarray):
    import pyarrow as pa
    import pyarrow.compute as pc

    digits = pc.utf8_lpad(pc.cast(pa.array(ids.ravel()), pa.string()), 7, "0")
    return pc.binary_join_element_wise("doc", digits, "")


def write_files(run: dict, qrels: dict, run_path: Path, qrels_path: Path) -> None:
    """Write TREC files: ``qid Q0 docno rank score tag`` and ``qid 0 docno rel``."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    queries, docs = run["doc"].shape
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    with open(run_path, "wb") as out:
        step = max(1, 1_000_000 // docs)  # write in slices of about a million lines
        for start in range(0, queries, step):
            stop = min(queries, start + step)
            n = (stop - start) * docs
            table = pa.table({
                "qid": pa.array(np.repeat(run["qid"][start:stop], docs)),
                "iter": pa.array(np.full(n, "Q0")),
                "docno": _doc_strings(run["doc"][start:stop]),
                "rank": pa.array(np.tile(np.arange(1, docs + 1), stop - start)),
                "score": pa.array(run["score"][start:stop].ravel()),
                "tag": pa.array(np.full(n, "bench")),
            })
            buf = io.BytesIO()
            pacsv.write_csv(table, buf, options)
            out.write(buf.getvalue())
    table = pa.table({
        "qid": pa.array(run["qid"][qrels["qrow"]]),
        "iter": pa.array(np.full(qrels["qrow"].size, "0")),
        "docno": _doc_strings(qrels["doc"]),
        "rel": pa.array(qrels["rel"].astype(np.int64)),
    })
    with open(qrels_path, "wb") as out:
        pacsv.write_csv(table, out, options)


def ensure_data(args) -> tuple[Path, Path, dict]:
    """Return the qrels and run paths, generating them unless a matching cache exists."""
    params = _params(args)
    key = hashlib.sha1(json.dumps(params, sort_keys=True).encode()).hexdigest()[:10]
    stem = f"{args.queries}x{args.docs}-{key}"
    data_dir = Path(args.data_dir)
    run_path = data_dir / f"run-{stem}.trec"
    qrels_path = data_dir / f"qrels-{stem}.trec"
    meta_path = data_dir / f"meta-{stem}.json"
    if meta_path.exists() and run_path.exists() and qrels_path.exists():
        meta = json.loads(meta_path.read_text())
        if (meta.get("params") == params
                and meta.get("run_bytes") == run_path.stat().st_size
                and meta.get("qrels_bytes") == qrels_path.stat().st_size):
            print(f"using cached data {run_path.name} ({meta['run_bytes'] / 1e6:.0f} MB), "
                  f"{qrels_path.name}", flush=True)
            return qrels_path, run_path, meta
    data_dir.mkdir(parents=True, exist_ok=True)
    print(f"generating {args.queries} queries x {args.docs} docs (seed {args.seed}) ...", flush=True)
    t0 = time.perf_counter()
    run, qrels = generate(args.queries, args.docs, args.judged, np.random.default_rng(args.seed))
    tmp_run, tmp_qrels = run_path.with_suffix(".tmp"), qrels_path.with_suffix(".tmp")
    write_files(run, qrels, tmp_run, tmp_qrels)
    os.replace(tmp_run, run_path)
    os.replace(tmp_qrels, qrels_path)
    scores = run["score"]
    ret_judged = sum(np.isin(qrels["doc"][qrels["qrow"] == q], run["doc"][q]).sum()
                     for q in range(min(args.queries, 200)))
    meta = {
        "params": params,
        "run_lines": int(scores.size),
        "qrels_lines": int(qrels["rel"].size),
        "tied_adjacent_scores": int((scores[:, 1:] == scores[:, :-1]).sum()),
        "relevance_counts": np.bincount(qrels["rel"], minlength=4).tolist(),
        "judged_retrieved_share_first_200_queries": float(
            ret_judged / max(1, (qrels["qrow"] < min(args.queries, 200)).sum())),
        "run_bytes": run_path.stat().st_size,
        "qrels_bytes": qrels_path.stat().st_size,
        "seconds_to_generate": round(time.perf_counter() - t0, 1),
    }
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    print(f"  wrote {run_path} ({meta['run_bytes'] / 1e6:.0f} MB) and {qrels_path.name} "
          f"in {meta['seconds_to_generate']} s", flush=True)
    return qrels_path, run_path, meta


# ------------------------------------------------------------------ running children


def child_env(**extra) -> dict:
    """The environment of a timed child: ours, allowed to cache bytecode as a normal install does."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def compile_reteval() -> None:
    """Write reteval's bytecode once (untimed), as installed site-packages already have theirs."""
    import importlib.util

    spec = importlib.util.find_spec("reteval")
    if spec and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            subprocess.run([sys.executable, "-m", "compileall", "-q", location],
                           env=child_env(), check=False, stdout=subprocess.DEVNULL)


def run_child(cmd: list[str], env: dict | None = None) -> dict:
    """Run one process; return wall time, CPU time, peak RSS and its parsed stdout."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    result = {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss_mb": usage.ru_maxrss / 1024,  # Linux reports KiB
        "returncode": proc.returncode,
        "stderr": stderr,
    }
    if proc.returncode != 0:
        return result
    try:
        result["output"] = json.loads(stdout)
    except json.JSONDecodeError:
        result["returncode"] = -999
        result["stderr"] = f"could not parse the output as JSON: {stdout[:300]!r}\n{stderr}"
    return result


def reteval_cli() -> str:
    script = Path(sys.executable).parent / "reteval"
    if script.exists():
        return str(script)
    found = shutil.which("reteval")
    if not found:
        raise SystemExit("the 'reteval' command is not installed next to this Python; run `make setup`")
    return found


def commands(tool: str, qrels: Path, run: Path) -> list[str]:
    names = list(MEASURES)
    if tool == "reteval":
        cmd = [reteval_cli(), "evaluate", str(qrels), str(run)]
        for name in names:
            cmd += ["-m", name]
        return cmd + ["--format", "json"]
    if tool == "pytrec_eval":
        requests = ",".join(MEASURES[n][0] for n in names)
        keys = ",".join(MEASURES[n][1] for n in names)
        return [sys.executable, "-c", PYTREC_CHILD, str(qrels), str(run), requests, keys]
    if tool.startswith("ranx"):
        return [sys.executable, "-c", RANX_CHILD, str(qrels), str(run),
                ",".join(MEASURES[n][2] for n in names)]
    if tool == "floor":
        return [sys.executable, "-c", FLOOR_CHILD, str(run)]
    if tool == "reteval-api":
        return [sys.executable, "-c", RETEVAL_API_CHILD, str(qrels), str(run), ",".join(names)]
    raise ValueError(tool)


def _fail(tool: str, result: dict) -> None:
    tail = "\n".join(result["stderr"].strip().splitlines()[-8:])
    print(f"  {tool} failed (exit {result['returncode']}):\n{tail}", flush=True)


def bench(tools, qrels: Path, run: Path, repeat: int, scratch: Path) -> dict:
    """Time every tool `repeat` times, interleaving the tools round by round."""
    results = {tool: [] for tool in tools}
    failed = set()
    warm_dir = scratch / "numba-warm"
    if "ranx-warm" in tools:
        print("warming ranx's numba cache (untimed) ...", flush=True)
        warm = run_child(commands("ranx-warm", qrels, run), env=child_env(NUMBA_CACHE_DIR=str(warm_dir)))
        if warm["returncode"] != 0:
            _fail("ranx-warm (warm-up)", warm)
            failed.add("ranx-warm")
    for round_ in range(1, repeat + 1):
        for tool in tools:
            if tool in failed:
                continue
            env = child_env()
            if tool == "ranx-fresh":
                env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-fresh-", dir=scratch)
            elif tool == "ranx-warm":
                env["NUMBA_CACHE_DIR"] = str(warm_dir)
            result = run_child(commands(tool, qrels, run), env=env)
            if result["returncode"] != 0:
                _fail(tool, result)
                failed.add(tool)
                continue
            results[tool].append(result)
            print(f"  round {round_}/{repeat}  {LABELS[tool]:<32} {result['wall']:8.2f} s  "
                  f"{result['rss_mb']:8.0f} MB", flush=True)
    return {tool: runs for tool, runs in results.items() if runs}


# ------------------------------------------------------------------ reporting


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram = int(line.split()[1]) / 1024 / 1024
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        usable = os.cpu_count()
    from importlib.metadata import PackageNotFoundError, version

    versions = {}
    for package in ("reteval", "numpy", "pandas", "pyarrow", "pytrec-eval-terrier", "ranx", "numba"):
        try:
            versions[package] = version(package)
        except PackageNotFoundError:
            versions[package] = "not installed"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "reteval"], cwd=HERE.parent,
                               capture_output=True, text=True, check=True).stdout.strip()
        if dirty:
            commit += " with uncommitted changes under reteval/"
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {"cpu": cpu, "cores": os.cpu_count(), "usable_cores": usable,
            "ram_gb": ram, "python": platform.python_version(),
            "os": f"{platform.system()} {platform.release()}", "versions": versions,
            "git_commit": commit}


def summarise(results: dict) -> dict:
    out = {}
    for tool, runs in results.items():
        walls = [r["wall"] for r in runs]
        best = min(runs, key=lambda r: r["wall"])
        out[tool] = {
            "best": best["wall"],
            "median": statistics.median(walls),
            "cpu": best["cpu"],
            "rss_mb": max(r["rss_mb"] for r in runs),
            "runs": len(runs),
            "phases": best.get("output", {}).get("phases"),
        }
    return out


def agreement(results: dict) -> tuple[list[str], bool]:
    """Compare reteval's means with pytrec_eval's (and, for information, ranx's)."""
    lines = []
    ok = True
    if "reteval" not in results or "pytrec_eval" not in results:
        return ["(agreement not checked: reteval or pytrec_eval did not run)"], True
    ours = results["reteval"][0]["output"]
    theirs = results["pytrec_eval"][0]["output"]
    ranx = next((results[t][0]["output"]["means"] for t in ("ranx-warm", "ranx-fresh")
                 if t in results), None)
    lines.append("| measure | reteval | pytrec_eval | abs diff | within 1e-6 |"
                 + (" ranx | ranx diff |" if ranx else ""))
    lines.append("|---|---:|---:|---:|:---:|" + ("---:|---:|" if ranx else ""))
    for name, (_, key, ranx_name) in MEASURES.items():
        a, b = ours["measures"][name], theirs["means"][key]
        diff = abs(a - b)
        ok &= diff <= 1e-6
        row = f"| {name} | {a:.6f} | {b:.6f} | {diff:.1e} | {'yes' if diff <= 1e-6 else 'NO'} |"
        if ranx:
            row += f" {ranx[ranx_name]:.6f} | {abs(a - ranx[ranx_name]):.1e} |"
        lines.append(row)
    same_n = ours["num_queries"] == theirs["num_queries"]
    ok &= same_n
    lines.append("")
    lines.append(f"Queries evaluated: reteval {ours['num_queries']}, pytrec_eval "
                 f"{theirs['num_queries']} ({'same' if same_n else 'DIFFERENT'}). "
                 f"Agreement within 1e-6: {'yes' if ok else 'NO'}.")
    if ranx:
        lines.append("(ranx is shown for information only: it breaks score ties its own way.)")
    return lines, ok


def report(summary: dict, agree_lines: list[str], meta: dict, mach: dict, args) -> str:
    base = summary.get("reteval", {}).get("best")
    lines = [
        f"## reteval evaluate benchmark: {args.queries:,} queries x {args.docs:,} docs",
        "",
        (f"Run file {meta['run_lines']:,} lines ({meta['run_bytes'] / 1e6:.0f} MB), qrels "
         f"{meta['qrels_lines']:,} lines; measures {' '.join(MEASURES)}; "
         f"best of {args.repeat} (median also shown), each tool a separate process, end to end. "
         "CPU s is user + system time of the best run."),
        "",
        ("| tool | wall s (best) | wall s (median) | CPU s | peak RSS MB | wall / reteval "
        "| CPU / reteval |"),
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    base_cpu = summary.get("reteval", {}).get("cpu")
    for tool in TOOLS:
        if tool not in summary:
            continue
        s = summary[tool]
        ratio = f"{s['best'] / base:.2f}" if base else "n/a"
        cpu_ratio = f"{s['cpu'] / base_cpu:.2f}" if base_cpu else "n/a"
        lines.append(f"| {LABELS[tool]} | {s['best']:.2f} | {s['median']:.2f} | {s['cpu']:.2f} | "
                     f"{s['rss_mb']:.0f} | {ratio} | {cpu_ratio} |")
    lines += ["", "### Targets", ""]
    if base:
        lines += ["| check | value | target | met |", "|---|---:|---:|:---:|"]

        def ratio_row(tool, label, target):
            if tool not in summary:
                return
            r = base / summary[tool]["best"]
            met = "n/a" if target is None else ("yes" if r <= target else "NO")
            tgt = "-" if target is None else f"<= {target:.3f}"
            speed = f"{1 / r:.1f}x faster" if r <= 1 else f"{r:.1f}x slower"
            lines.append(f"| reteval time / {label} | {r:.3f} ({speed}) | {tgt} | {met} |")

        ratio_row("pytrec_eval", "pytrec_eval", 1 / 3)
        ratio_row("ranx-warm", "ranx warm", 1 / 5)
        ratio_row("ranx-fresh", "ranx fresh", None)
        rss = summary["reteval"]["rss_mb"]
        lines.append(f"| reteval peak RSS | {rss:.0f} MB | < 2048 MB | {'yes' if rss < 2048 else 'NO'} |")
        if "floor" in summary:
            f = summary["reteval"]["best"] / summary["floor"]["best"]
            lines.append(f"| reteval time / floor | {f:.2f} | - | n/a |")
    else:
        lines.append("(reteval did not run)")
    lines += ["", "### Agreement", ""] + agree_lines
    phase_rows = [(t, s["phases"]) for t, s in summary.items() if s.get("phases")]
    if phase_rows:
        lines += ["", "### Where the time goes (inside each process, best run)", ""]
        for tool, phases in phase_rows:
            inside = sum(phases.values())
            startup = summary[tool]["best"] - inside
            parts = ", ".join(f"{k} {v:.2f}" for k, v in phases.items())
            lines.append(f"- {LABELS.get(tool, tool)}: {parts}; interpreter start and exit {startup:.2f} s")
    v = mach["versions"]
    lines += [
        "",
        "### Machine",
        "",
        f"- CPU: {mach['cpu']}, {mach['cores']} logical cores ({mach['usable_cores']} usable)",
        f"- RAM: {mach['ram_gb']:.1f} GB" if mach["ram_gb"] else "- RAM: unknown",
        f"- {mach['os']}, Python {mach['python']}",
        "- " + ", ".join(f"{k} {val}" for k, val in v.items()),
        f"- reteval commit {mach['git_commit']}",
    ]
    if "load_average" in mach:
        before, after = mach["load_average"]["before"], mach["load_average"]["after"]
        lines.append(f"- load average (1/5/15 min) before {before}, after {after}")
        if max(before[0], after[0]) > 0.75 * mach["usable_cores"]:
            lines.append("- WARNING: other processes were using the CPU during the run; wall "
                         "times are inflated and noisy, CPU seconds are the steadier comparison")
    return "\n".join(lines)


# ------------------------------------------------------------------ main


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--queries", type=int, default=10_000, help="queries in the generated run")
    p.add_argument("--docs", type=int, default=1_000, help="retrieved documents per query")
    p.add_argument("--judged", type=float, default=10.0, help="mean judgments per query")
    p.add_argument("--seed", type=int, default=20240607, help="seed of the data generator")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per tool (best and median)")
    p.add_argument("--quick", action="store_true", help="one timed run per tool (--repeat 1)")
    p.add_argument("--tools", default=",".join(TOOLS),
                   help=f"comma-separated subset of {','.join(TOOLS)}")
    p.add_argument("--no-breakdown", action="store_true",
                   help="skip the extra run of reteval's Python API (read_qrels and read_run, "
                   "then evaluate on the DataFrames) that splits its time into phases")
    p.add_argument("--data-dir", default=str(DEFAULT_DATA_DIR), help="where generated files are cached")
    p.add_argument("--json", metavar="PATH", help="also write all measurements as JSON")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.quick:
        args.repeat = 1
    for name in ("queries", "docs", "repeat"):
        if getattr(args, name) < 1:
            raise SystemExit(f"--{name} must be at least 1; got {getattr(args, name)}")
    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    unknown = sorted(set(tools) - set(TOOLS))
    if unknown:
        raise SystemExit(f"unknown --tools {unknown}; expected some of {list(TOOLS)}")

    qrels, run, meta = ensure_data(args)
    with open(run, "rb") as f:  # put both files in the page cache so no tool pays for the disk
        while f.read(1 << 24):
            pass
    qrels.read_bytes()
    if "reteval" in tools:
        compile_reteval()
    load_before = os.getloadavg()

    with tempfile.TemporaryDirectory(prefix="reteval-bench-") as scratch:
        results = bench(tools, qrels, run, args.repeat, Path(scratch))
    summary = summarise(results)
    if not args.no_breakdown and "reteval" in tools:
        print("splitting reteval's time into read and evaluate (one extra run) ...", flush=True)
        api = run_child(commands("reteval-api", qrels, run), env=child_env())
        if api["returncode"] == 0:
            summary["reteval-api"] = {"best": api["wall"], "median": api["wall"], "cpu": api["cpu"],
                                      "rss_mb": api["rss_mb"], "runs": 1,
                                      "phases": api["output"]["phases"]}
            LABELS["reteval-api"] = ("reteval Python API, one run (read_qrels, read_run, then "
                                     "evaluate on the DataFrames; not the CLI's path)")
        else:
            _fail("reteval-api", api)
    agree_lines, ok = agreement(results)
    mach = machine()
    mach["load_average"] = {"before": [round(x, 2) for x in load_before],
                            "after": [round(x, 2) for x in os.getloadavg()]}
    text = report(summary, agree_lines, meta, mach, args)
    print()
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"params": _params(args), "repeat": args.repeat, "data": meta, "machine": mach,
             "summary": summary, "agreement_ok": ok}, indent=2) + "\n")
    missing = [t for t in tools if t not in results]
    return 1 if (missing or not ok) else 0


if __name__ == "__main__":
    sys.exit(main())
