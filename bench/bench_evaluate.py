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
FORMAT_VERSION = 2  # bump when the generator changes: cached files are then rebuilt

# reteval name -> (pytrec_eval request, pytrec_eval result key, ranx name)
MEASURES = {
    "nDCG@10": ("ndcg_cut.10", "ndcg_cut_10", "ndcg@10"),
    "AP": ("map", "map", "map"),
    "R@100": ("recall.100", "recall_100", "recall@100"),
    "P@10": ("P.10", "P_10", "precision@10"),
    "RR": ("recip_rank", "recip_rank", "mrr"),
}

TOOLS = ("reteval", "pytrec_eval", "ranx-fresh", "ranx-warm", "floor")
LAYOUTS = ("ranked", "shuffled")

# The speed targets: (check, target); every ratio is reteval's wall time (best run) over
# the other's, measured in the same benchmark run on the same files.
TARGETS = {"pytrec_eval": 0.25, "ranx-warm": 0.12, "floor": 1.5}
RSS_TARGET_MB = 1200  # peak resident memory of reteval, MiB
SHUFFLED_TARGET = 1.2  # reteval on the shuffled file / on the ranked file
LABELS = {
    "reteval": "reteval CLI",
    "pytrec_eval": "pytrec_eval (parse + evaluate)",
    "ranx-fresh": "ranx, fresh numba cache",
    "ranx-warm": "ranx, warm numba cache",
    "floor": "floor: pyarrow reads the run file",
}

# ------------------------------------------------------------------ child programs
# Each runs in a fresh interpreter, prints one JSON object on stdout: the means
# it computed (if any) and the time of each phase measured inside the process.

PYTREC_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import pytrec_eval
t1 = time.perf_counter()
qrels_path, run_path = sys.argv[1], sys.argv[2]
requests, keys = sys.argv[3].split(","), sys.argv[4].split(",")
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
import pyarrow as pa
import pyarrow.csv as pacsv
t1 = time.perf_counter()
table = pacsv.read_csv(
    sys.argv[1],
    read_options=pacsv.ReadOptions(
        column_names=["qid", "iter", "docno", "rank", "score", "tag"], block_size=1 << 24),
    parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False, escape_char=False),
    convert_options=pacsv.ConvertOptions(
        include_columns=["qid", "docno", "score"],
        column_types={"qid": pa.large_string(), "docno": pa.large_string(),
                      "score": pa.float64()}),
)
t2 = time.perf_counter()
print(json.dumps({"rows": table.num_rows, "phases": {"import": t1 - t0, "read_csv": t2 - t1}}))
"""

RETEVAL_API_CHILD = r"""
import json, sys, time, warnings
t0 = time.perf_counter()
from reteval.evaluation.engine import aggregate, evaluate
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
        "ties": args.ties,
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


def generate(queries: int, docs: int, judged: float, rng: np.random.Generator, ties: float = 0.05):
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
    # exact ties arise by chance; a share `ties` more are made on purpose by
    # copying the score above.
    scores = np.round(np.clip(rng.normal(0.0, 2.0, size=(queries, docs)), -7.9, 7.9), 6)
    scores = -np.sort(-scores, axis=1)
    copy = rng.random((queries, docs)) < ties
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


def write_shuffled(run_path: Path, out_path: Path, rng: np.random.Generator) -> None:
    """The same lines as ``run_path`` in a random order (queries interleaved, scores unordered)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    names = ["qid", "iter", "docno", "rank", "score", "tag"]
    table = pacsv.read_csv(
        run_path,
        read_options=pacsv.ReadOptions(column_names=names),
        parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False),
        convert_options=pacsv.ConvertOptions(column_types={n: pa.string() for n in names}),
    )
    table = table.take(pa.array(rng.permutation(table.num_rows)))
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    with open(out_path, "wb") as out:
        pacsv.write_csv(table, out, options)


def ensure_data(args) -> tuple[Path, dict, dict]:
    """Return the qrels path, the run path of each layout and the data's description.

    Files are generated unless a matching cache exists. The two run files hold the same
    lines: ``ranked`` in rank order (grouped by query, scores non-increasing), ``shuffled``
    in a random order.
    """
    params = _params(args)
    key = hashlib.sha1(json.dumps(params, sort_keys=True).encode()).hexdigest()[:10]
    stem = f"{args.queries}x{args.docs}-{key}"
    data_dir = Path(args.data_dir)
    run_path = data_dir / f"run-{stem}.trec"
    qrels_path = data_dir / f"qrels-{stem}.trec"
    shuffled_path = data_dir / f"run-{stem}-shuffled.trec"
    runs = {"ranked": run_path, "shuffled": shuffled_path}
    meta_path = data_dir / f"meta-{stem}.json"
    if meta_path.exists() and all(p.exists() for p in (run_path, shuffled_path, qrels_path)):
        meta = json.loads(meta_path.read_text())
        if (meta.get("params") == params
                and meta.get("run_bytes") == run_path.stat().st_size
                and meta.get("run_bytes") == shuffled_path.stat().st_size
                and meta.get("qrels_bytes") == qrels_path.stat().st_size):
            print(f"using cached data {run_path.name} ({meta['run_bytes'] / 1e6:.0f} MB), "
                  f"{shuffled_path.name}, {qrels_path.name}", flush=True)
            return qrels_path, runs, meta
    data_dir.mkdir(parents=True, exist_ok=True)
    print(f"generating {args.queries} queries x {args.docs} docs (seed {args.seed}) ...",
          flush=True)
    t0 = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    run, qrels = generate(args.queries, args.docs, args.judged, rng, args.ties)
    tmp_run, tmp_qrels = run_path.with_suffix(".tmp"), qrels_path.with_suffix(".tmp")
    write_files(run, qrels, tmp_run, tmp_qrels)
    tmp_shuffled = shuffled_path.with_suffix(".tmp")
    write_shuffled(tmp_run, tmp_shuffled, rng)
    os.replace(tmp_run, run_path)
    os.replace(tmp_shuffled, shuffled_path)
    os.replace(tmp_qrels, qrels_path)
    scores = run["score"]
    ret_judged = sum(np.isin(qrels["doc"][qrels["qrow"] == q], run["doc"][q]).sum()
                     for q in range(min(args.queries, 200)))
    meta = {
        "params": params,
        "run_lines": int(scores.size),
        "qrels_lines": int(qrels["rel"].size),
        "tied_adjacent_scores": int((scores[:, 1:] == scores[:, :-1]).sum()),
        "tied_share": float((scores[:, 1:] == scores[:, :-1]).mean()),
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
    return qrels_path, runs, meta


# ------------------------------------------------------------------ running children


def child_env(**extra) -> dict:
    """The environment of a timed child: ours, allowed to cache bytecode.

    A normal install caches bytecode too.
    """
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
        raise SystemExit("the 'reteval' command is not installed next to this Python; "
                         "run `make setup`")
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


def bench(tools, qrels: Path, runs: dict, repeat: int, scratch: Path) -> dict:
    """Time every tool on every layout `repeat` times, interleaved round by round.

    Returns ``{layout: {tool: [result, ...]}}``.
    """
    results = {layout: {tool: [] for tool in tools} for layout in runs}
    failed = set()
    warm_dir = scratch / "numba-warm"
    if "ranx-warm" in tools:
        print("warming ranx's numba cache (untimed) ...", flush=True)
        first = next(iter(runs.values()))
        warm = run_child(commands("ranx-warm", qrels, first),
                         env=child_env(NUMBA_CACHE_DIR=str(warm_dir)))
        if warm["returncode"] != 0:
            _fail("ranx-warm (warm-up)", warm)
            failed.add("ranx-warm")
    for round_ in range(1, repeat + 1):
        for tool in tools:
            for layout, run in runs.items():
                if tool in failed:
                    continue
                env = child_env()
                if tool == "ranx-fresh":
                    env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-fresh-", dir=scratch)
                elif tool == "ranx-warm":
                    env["NUMBA_CACHE_DIR"] = str(warm_dir)
                result = run_child(commands(tool, qrels, run), env=env)
                if result["returncode"] != 0:
                    _fail(f"{tool} ({layout})", result)
                    failed.add(tool)
                    continue
                results[layout][tool].append(result)
                print(f"  round {round_}/{repeat}  {layout:<8} {LABELS[tool]:<34} "
                      f"{result['wall']:8.2f} s  {result['rss_mb']:8.0f} MB", flush=True)
    return {layout: {tool: r for tool, r in by_tool.items() if r}
            for layout, by_tool in results.items()}


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
    for package in ("reteval", "numpy", "pandas", "pyarrow", "pytrec-eval-terrier", "ranx",
                    "numba"):
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
    """``{tool: [runs]}`` -> best and median wall time, CPU time, peak RSS, phases."""
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


def agreement(results: dict, layout: str) -> tuple[list[str], bool]:
    """Compare reteval's means with pytrec_eval's (and, for information, ranx's)."""
    lines = []
    ok = True
    if "reteval" not in results or "pytrec_eval" not in results:
        return [f"({layout}: agreement not checked: reteval or pytrec_eval did not run)"], True
    ours = results["reteval"][0]["output"]
    theirs = results["pytrec_eval"][0]["output"]
    ranx = next((results[t][0]["output"]["means"] for t in ("ranx-warm", "ranx-fresh")
                 if t in results), None)
    lines.append(f"| {layout}: measure | reteval | pytrec_eval | abs diff | within 1e-6 |"
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
    lines.append(f"Queries evaluated ({layout}): reteval {ours['num_queries']}, pytrec_eval "
                 f"{theirs['num_queries']} ({'same' if same_n else 'DIFFERENT'}). "
                 f"Agreement within 1e-6: {'yes' if ok else 'NO'}.")
    return lines, ok


def _met(value: float, target: float) -> str:
    return "yes" if value <= target else "NO"


def targets(summaries: dict) -> tuple[list[str], bool]:
    """The targets table, both layouts side by side; and whether every target was met."""
    lines = ["| check | " + " | ".join(summaries) + " | target | met |",
             "|---|" + "---:|" * len(summaries) + "---:|:---:|"]
    all_met = True

    def row(label, values, target):
        nonlocal all_met
        shown = [("n/a" if v is None else f"{v:.3f}") for v in values]
        known = [v for v in values if v is not None]
        met = "n/a" if target is None or not known else (
            "yes" if all(v <= target for v in known) else "NO")
        all_met &= met != "NO"
        tgt = "-" if target is None else f"<= {target:g}"
        lines.append(f"| {label} | " + " | ".join(shown) + f" | {tgt} | {met} |")

    def ratio(summary, tool):
        if "reteval" not in summary or tool not in summary:
            return None
        return summary["reteval"]["best"] / summary[tool]["best"]

    row("reteval time / pytrec_eval", [ratio(s, "pytrec_eval") for s in summaries.values()],
        TARGETS["pytrec_eval"])
    row("reteval time / ranx warm", [ratio(s, "ranx-warm") for s in summaries.values()],
        TARGETS["ranx-warm"])
    row("reteval time / ranx fresh", [ratio(s, "ranx-fresh") for s in summaries.values()], None)
    row("reteval time / floor (pyarrow reads the run)",
        [ratio(s, "floor") for s in summaries.values()], TARGETS["floor"])
    rss = [s["reteval"]["rss_mb"] if "reteval" in s else None for s in summaries.values()]
    lines.append("| reteval peak RSS, MB | " + " | ".join(
        "n/a" if v is None else f"{v:.0f}" for v in rss)
        + f" | <= {RSS_TARGET_MB} | "
        + ("n/a" if None in rss else _met(max(rss), RSS_TARGET_MB)) + " |")
    all_met &= None in rss or max(rss) <= RSS_TARGET_MB
    if all(layout in summaries and "reteval" in summaries[layout] for layout in LAYOUTS):
        r = summaries["shuffled"]["reteval"]["best"] / summaries["ranked"]["reteval"]["best"]
        lines.append("| reteval time, shuffled / ranked | "
                     + " | ".join(["-"] * (len(summaries) - 1) + [f"{r:.3f}"])
                     + f" | <= {SHUFFLED_TARGET:g} | {_met(r, SHUFFLED_TARGET)} |")
        all_met &= r <= SHUFFLED_TARGET
    return lines, all_met


def report(summaries: dict, agree_lines: list[str], meta: dict, mach: dict, args) -> str:
    lines = [
        f"## reteval evaluate benchmark: {args.queries:,} queries x {args.docs:,} docs",
        "",
        (f"Run files of {meta['run_lines']:,} lines ({meta['run_bytes'] / 1e6:.0f} MB) in two "
         f"layouts, the same lines: *ranked* (grouped by query, scores non-increasing) and "
         f"*shuffled* (the lines in a random order); {meta.get('tied_share', 0):.1%} of adjacent "
         f"scores tied; qrels {meta['qrels_lines']:,} lines; measures {' '.join(MEASURES)}; "
         f"best of {args.repeat} (median also shown), each tool a separate process, end to end. "
         "CPU s is user + system time of the best run."),
    ]
    for layout, summary in summaries.items():
        base = summary.get("reteval", {}).get("best")
        base_cpu = summary.get("reteval", {}).get("cpu")
        lines += ["", f"### {layout}", "",
                  ("| tool | wall s (best) | wall s (median) | CPU s | peak RSS MB "
                   "| wall / reteval | CPU / reteval |"),
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for tool in TOOLS:
            if tool not in summary:
                continue
            s = summary[tool]
            ratio = f"{s['best'] / base:.2f}" if base else "n/a"
            cpu_ratio = f"{s['cpu'] / base_cpu:.2f}" if base_cpu else "n/a"
            lines.append(f"| {LABELS[tool]} | {s['best']:.2f} | {s['median']:.2f} | "
                         f"{s['cpu']:.2f} | {s['rss_mb']:.0f} | {ratio} | {cpu_ratio} |")
    target_lines, all_met = targets(summaries)
    lines += ["", "### Targets (reteval's wall time over the other's, best runs)", ""]
    lines += target_lines
    lines += ["", f"All targets met: {'yes' if all_met else 'NO'}."]
    lines += ["", "### Agreement", ""] + agree_lines
    phase_rows = [(layout, t, s["phases"]) for layout, summary in summaries.items()
                  for t, s in summary.items() if s.get("phases")]
    if phase_rows:
        lines += ["", "### Where the time goes (inside each process, best run)", ""]
        for layout, tool, phases in phase_rows:
            inside = sum(phases.values())
            startup = summaries[layout][tool]["best"] - inside
            parts = ", ".join(f"{k} {v:.2f}" for k, v in phases.items())
            lines.append(f"- {layout}, {LABELS.get(tool, tool)}: {parts}; "
                         f"interpreter start and exit {startup:.2f} s")
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
                         "times are inflated and noisy, and so are the ratios")
    return "\n".join(lines)


# ------------------------------------------------------------------ main


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--queries", type=int, default=10_000, help="queries in the generated run")
    p.add_argument("--docs", type=int, default=1_000, help="retrieved documents per query")
    p.add_argument("--judged", type=float, default=10.0, help="mean judgments per query")
    p.add_argument("--ties", type=float, default=0.05,
                   help="share of scores copied from the document above (tied scores)")
    p.add_argument("--seed", type=int, default=20240607, help="seed of the data generator")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per tool (best and median)")
    p.add_argument("--quick", action="store_true", help="one timed run per tool (--repeat 1)")
    p.add_argument("--tools", default=",".join(TOOLS),
                   help=f"comma-separated subset of {','.join(TOOLS)}")
    p.add_argument("--layouts", default=",".join(LAYOUTS),
                   help=f"comma-separated subset of {','.join(LAYOUTS)}")
    p.add_argument("--no-breakdown", action="store_true",
                   help="skip the extra run of reteval's Python API (read_qrels and read_run, "
                   "then evaluate on the DataFrames) per layout that splits its time into phases")
    p.add_argument("--data-dir", default=str(DEFAULT_DATA_DIR),
                   help="where generated files are cached")
    p.add_argument("--json", metavar="PATH", help="also write all measurements as JSON")
    p.add_argument("--generate-only", action="store_true", help=argparse.SUPPRESS)
    return p


def _split(text: str, allowed: tuple, option: str) -> list[str]:
    chosen = [t.strip() for t in text.split(",") if t.strip()]
    unknown = sorted(set(chosen) - set(allowed))
    if unknown:
        raise SystemExit(f"unknown {option} {unknown}; expected some of {list(allowed)}")
    return chosen


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.quick:
        args.repeat = 1
    for name in ("queries", "docs", "repeat"):
        if getattr(args, name) < 1:
            raise SystemExit(f"--{name} must be at least 1; got {getattr(args, name)}")
    if not 0 <= args.ties < 1:
        raise SystemExit(f"--ties must be in [0, 1); got {args.ties}")
    tools = _split(args.tools, TOOLS, "--tools")
    layouts = _split(args.layouts, LAYOUTS, "--layouts")

    if args.generate_only:
        ensure_data(args)
        return 0
    # The files are made in a child process: a child's peak RSS as the kernel reports it
    # starts from its parent's peak (the memory image it was started from), so the parent
    # that starts the timed tools must never have held the generated arrays.
    subprocess.run([sys.executable, __file__, "--generate-only", *(argv or sys.argv[1:])],
                   check=True)
    qrels, runs, meta = ensure_data(args)
    runs = {layout: runs[layout] for layout in layouts}
    for path in runs.values():  # put the files in the page cache so no tool pays for the disk
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass
    qrels.read_bytes()
    if "reteval" in tools:
        compile_reteval()
    load_before = os.getloadavg()

    with tempfile.TemporaryDirectory(prefix="reteval-bench-") as scratch:
        results = bench(tools, qrels, runs, args.repeat, Path(scratch))
    summaries = {layout: summarise(by_tool) for layout, by_tool in results.items()}
    if not args.no_breakdown and "reteval" in tools:
        LABELS["reteval-api"] = ("reteval Python API, one run (read_qrels, read_run, then "
                                 "evaluate on the DataFrames; not the CLI's path)")
        for layout, run in runs.items():
            print(f"splitting reteval's time into read and evaluate ({layout}, one extra run) ...",
                  flush=True)
            api = run_child(commands("reteval-api", qrels, run), env=child_env())
            if api["returncode"] == 0:
                summaries[layout]["reteval-api"] = {
                    "best": api["wall"], "median": api["wall"], "cpu": api["cpu"],
                    "rss_mb": api["rss_mb"], "runs": 1, "phases": api["output"]["phases"]}
            else:
                _fail("reteval-api", api)
    agree_lines, ok = [], True
    for layout, by_tool in results.items():
        lines, layout_ok = agreement(by_tool, layout)
        agree_lines += lines + [""]
        ok &= layout_ok
    mach = machine()
    mach["load_average"] = {"before": [round(x, 2) for x in load_before],
                            "after": [round(x, 2) for x in os.getloadavg()]}
    text = report(summaries, agree_lines, meta, mach, args)
    print()
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"params": _params(args), "repeat": args.repeat, "data": meta, "machine": mach,
             "summary": summaries, "agreement_ok": ok}, indent=2) + "\n")
    missing = [(layout, t) for layout in results for t in tools if t not in results[layout]]
    return 1 if (missing or not ok) else 0


if __name__ == "__main__":
    sys.exit(main())
